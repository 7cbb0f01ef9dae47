// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// The error model on the host: each rejection returns cudaErrorInvalidValue with its own message, the
// message belongs to the calling thread until its next ew call, it survives the thread, and a CUDA error
// from the device query (no GPU here) is returned with CUDA's own string ([no_gpu], ctest host.no_gpu,
// skipped where a GPU is present). No call in this file ever reaches a kernel launch: every one is rejected
// or has n == 0, or (the [no_gpu] test) runs only where there is no GPU, so it is safe on a machine with a
// GPU.

#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

namespace {

// Addresses that are never dereferenced.
float* fake(std::uintptr_t a) { return reinterpret_cast<float*>(a); }
const float* cfake(std::uintptr_t a) { return reinterpret_cast<const float*>(a); }

struct two_out {
  EW_HD
  cuda::std::tuple<float, float> operator()(float x) const { return {x, -x}; }
};

bool starts_with(const char* s, const char* prefix) {
  return std::strncmp(s, prefix, std::strlen(prefix)) == 0;
}

// The rejection reasons, one call each. Nothing here is Catch2, so threads may call it.
enum reason { null_pointer, misaligned, overlap, outputs_overlap, address_space, reasons };

cudaError_t call_rejected(int r) {
  switch (r) {
    case null_pointer:
      return ew::elementwise(ew::relu<float>{}, 4, fake(0x10000000), cfake(0));
    case misaligned:
      return ew::elementwise(ew::relu<float>{}, 4, fake(0x10000001), cfake(0x20000000));
    case overlap:
      return ew::elementwise(ew::relu<float>{}, 4, fake(0x10000004), cfake(0x10000000));
    case outputs_overlap:
      return ew::elementwise(two_out{}, 4, ew::out(fake(0x10000000), fake(0x10000008)), cfake(0x20000000));
    default:
      return ew::elementwise(ew::relu<float>{}, SIZE_MAX / 2, fake(0x10000000), cfake(0x20000000));
  }
}

/// The message rejection `r` leaves.
std::string reject(int r) {
  REQUIRE(call_rejected(r) == cudaErrorInvalidValue);
  return ew::last_error_message();
}

}  // namespace

TEST_CASE("a thread that made no ew call has an empty message", "[error_model]") {
  std::string seen = "unset";
  std::thread([&] { seen = ew::last_error_message(); }).join();
  REQUIRE(seen.empty());
}

TEST_CASE("every rejection has its own message, prefixed with the function", "[error_model]") {
  std::vector<std::string> messages;
  for (int r = 0; r < reasons; ++r) messages.push_back(reject(r));
  for (std::size_t i = 0; i < messages.size(); ++i) {
    INFO(messages[i]);
    REQUIRE(starts_with(messages[i].c_str(), "ew::elementwise: "));
    for (std::size_t j = 0; j < i; ++j) REQUIRE(messages[i] != messages[j]);
  }
  REQUIRE(messages[0].find("null") != std::string::npos);
  REQUIRE(messages[1].find("aligned") != std::string::npos);
  REQUIRE(messages[2].find("overlap") != std::string::npos);
  REQUIRE(messages[3].find("outputs overlap") != std::string::npos);
  REQUIRE(messages[4].find("address space") != std::string::npos);
}

TEST_CASE("the message is cleared by the thread's next successful call", "[error_model]") {
  reject(null_pointer);
  REQUIRE(std::string(ew::last_error_message()) != "");
  REQUIRE(ew::elementwise(ew::relu<float>{}, 0, fake(0x10000000), cfake(0x20000000)) == cudaSuccess);
  REQUIRE(std::string(ew::last_error_message()).empty());
}

TEST_CASE("n == 0 succeeds without a launch, even with null pointers", "[error_model]") {
  reject(null_pointer);
  REQUIRE(ew::elementwise(ew::add<float>{}, 0, static_cast<float*>(nullptr),
                          ew::in(static_cast<const float*>(nullptr), cfake(0))) == cudaSuccess);
  REQUIRE(std::string(ew::last_error_message()).empty());
}

TEST_CASE("the message outlives the thread that set it", "[error_model]") {
  const char* kept = nullptr;
  std::thread([&] {
    REQUIRE(ew::elementwise(ew::relu<float>{}, 4, fake(0x10000000), cfake(0)) == cudaErrorInvalidValue);
    kept = ew::last_error_message();
  }).join();
  REQUIRE(kept != nullptr);
  REQUIRE(std::string(kept).find("null") != std::string::npos);  // a literal, still readable
}

TEST_CASE("messages are per thread, raced from many threads", "[error_model]") {
  // Each thread fails for its own reason over and over while the others do the same; a thread must only
  // ever see its own message, and a thread that succeeds (n == 0) must see "".
  std::vector<std::string> expected;
  for (int r = 0; r < reasons; ++r) expected.push_back(reject(r));
  constexpr int threads = 12;
  std::atomic<int> wrong{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      const int r = t % (reasons + 1);
      for (int i = 0; i < 2000; ++i) {
        // Catch2 assertions are not thread-safe: count mismatches instead.
        if (r == reasons) {
          const cudaError_t e = ew::elementwise(ew::relu<float>{}, 0, fake(0), cfake(0));
          if (e != cudaSuccess || ew::last_error_message()[0] != '\0') wrong.fetch_add(1);
        } else {
          const cudaError_t e = call_rejected(r);
          if (e != cudaErrorInvalidValue || expected[r] != ew::last_error_message()) wrong.fetch_add(1);
        }
      }
    });
  }
  go.store(true, std::memory_order_release);
  for (auto& th : pool) th.join();
  REQUIRE(wrong == 0);
}

TEST_CASE("fail() records the message and hands back the error it was given", "[error_model]") {
  REQUIRE(ew::detail::fail(cudaErrorLaunchFailure, "why") == cudaErrorLaunchFailure);
  REQUIRE(std::string(ew::last_error_message()) == "why");
  REQUIRE(ew::detail::fail(cudaSuccess, "") == cudaSuccess);
  REQUIRE(std::string(ew::last_error_message()).empty());
}

// Needs a machine without a GPU (with one, the call would launch on addresses that are not memory; the GPU
// tests cover that machine). Hidden ([.]), so a plain run of ew_host_tests leaves it out; ctest runs it as
// host.no_gpu, `ew_host_tests --no-gpu "[no_gpu]"`, where main() exits with 77 (skipped) when a GPU is
// present. Run by name on a machine with a GPU it fails rather than pass without checking anything.
TEST_CASE("without a GPU a valid call returns CUDA's error and CUDA's string, never success", "[.no_gpu]") {
  int count = 0;
  if (cudaGetDeviceCount(&count) == cudaSuccess && count > 0) {
    FAIL(
        "a GPU is present: this test needs a machine without one (run it with --no-gpu, which skips it "
        "there)");
  }
  cudaGetLastError();
  const cudaError_t e = ew::elementwise(ew::relu<float>{}, 4, fake(0x10000000), cfake(0x20000000));
  REQUIRE(e != cudaSuccess);
  REQUIRE(e != cudaErrorInvalidValue);
  REQUIRE(std::string(ew::last_error_message()) == cudaGetErrorString(e));
  cudaGetLastError();
}
