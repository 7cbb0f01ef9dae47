// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// ew built with EW_DEBUG_SYNC (ew_debug_tests, its own executable: the flag changes ew's inline functions,
// so this translation unit must not share a program with the default build).
//
// [debug_host] (no GPU needed): the argument checks still come first and touch no device; the pointer
// check's own CUDA error is returned when there is no device.
// [debug_gpu]: each call returns only after its work is done, on every kind of stream; under graph
// capture (every capture mode) it does not try to synchronize and the capture stays valid; a pointer CUDA
// does not know (malloc, the stack) is rejected with cudaErrorInvalidValue and nothing written, unless the
// device can read pageable memory; pinned, registered and managed host memory are accepted.

#ifndef EW_DEBUG_SYNC
#error "test_debug_sync.cu is built with EW_DEBUG_SYNC (see tests/CMakeLists.txt)"
#endif

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#ifndef EW_CHECK_POINTERS
#error "EW_DEBUG_SYNC must turn on EW_CHECK_POINTERS"
#endif

#include "../common/functor_reference.cuh"
#include "../common/hardening_utils.cuh"
#include "../common/test_utils.cuh"

using namespace ew_test;

namespace {

float* fake(std::uintptr_t a) { return reinterpret_cast<float*>(a); }
const float* cfake(std::uintptr_t a) { return reinterpret_cast<const float*>(a); }

// Used only inside a global-mode capture: its first launch (and the pointer check) happen while capturing.
struct debug_cold_op {
  EW_HD
  float operator()(float a, float b) const { return a * 4.0f - b; }
};

void require_gpu() {
  if (!has_gpu())
    FAIL("no usable GPU: run [debug_gpu] with --require-gpus 1 so that the run is skipped (exit 77) instead");
}

std::size_t count_wrong_adds(const std::vector<float>& c, const std::vector<float>& a,
                             const std::vector<float>& b) {
  std::size_t bad = 0;
  for (std::size_t i = 0; i < c.size(); ++i) bad += !same_bits(c[i], ref_add(a[i], b[i]));
  return bad;
}

int pageable_memory_access() {
  int device = 0, value = 0;
  EW_REQUIRE_CUDA(cudaGetDevice(&device));
  EW_REQUIRE_CUDA(cudaDeviceGetAttribute(&value, cudaDevAttrPageableMemoryAccess, device));
  return value;
}

}  // namespace

TEST_CASE("debug build: argument checks come first and touch no device", "[debug_host]") {
  REQUIRE(ew::elementwise(ew::relu<float>{}, 4, fake(0x10000000), cfake(0)) == cudaErrorInvalidValue);
  REQUIRE(std::string(ew::last_error_message()).find("null") != std::string::npos);
  REQUIRE(ew::elementwise(ew::relu<float>{}, 4, fake(0x10000002), cfake(0x20000000)) ==
          cudaErrorInvalidValue);
  REQUIRE(std::string(ew::last_error_message()).find("aligned") != std::string::npos);
  REQUIRE(ew::elementwise(ew::relu<float>{}, 4, fake(0x10000004), cfake(0x10000000)) ==
          cudaErrorInvalidValue);
  REQUIRE(std::string(ew::last_error_message()).find("overlap") != std::string::npos);
  REQUIRE(ew::elementwise(ew::relu<float>{}, 0, fake(0x10000000), cfake(0x20000000)) == cudaSuccess);
  REQUIRE(std::string(ew::last_error_message()).empty());
}

// Needs a machine without a GPU: with one, these fake addresses would be checked for real (and, where the
// device reads pageable memory, launched on), which the [debug_gpu] tests cover. ctest runs it with
// --no-gpu, which makes the run exit 77 (skipped) on a machine with a GPU.
TEST_CASE("debug build without a GPU: the pointer check's CUDA error is returned", "[.debug_no_gpu]") {
  REQUIRE_FALSE(has_gpu());
  const cudaError_t e = ew::elementwise(ew::relu<float>{}, 4, fake(0x10000000), cfake(0x20000000));
  INFO(cudaGetErrorName(e) << ": " << ew::last_error_message());
  REQUIRE(e != cudaSuccess);
  REQUIRE(e != cudaErrorInvalidValue);
  REQUIRE(std::string(ew::last_error_message()).find("cudaPointerGetAttributes") != std::string::npos);
  cudaGetLastError();
}

TEST_CASE("debug build: a call returns after its work is done, on every kind of stream",
          "[debug_gpu][guard]") {
  require_gpu();
  const std::size_t n =
      (std::size_t{1} << 24) + 3;  // long enough that an unsynchronized call would return first
  const std::uint64_t seed = base_seed();
  const std::vector<float> a = random_values<float>(n, seed), b = random_values<float>(n, seed + 1);
  device_array<float> da(n, 1), db(n, 1), dc(n, 1);
  da.upload(a);
  db.upload(b);
  owned_stream non_blocking(cudaStreamNonBlocking), blocking(cudaStreamDefault);
  struct kind {
    const char* name;
    cudaStream_t stream;
  };
  const kind kinds[] = {{"created non-blocking", non_blocking.get()},
                        {"created blocking", blocking.get()},
                        {"0 (legacy)", nullptr},
                        {"cudaStreamLegacy", cudaStreamLegacy},
                        {"cudaStreamPerThread", cudaStreamPerThread}};
  for (const kind& k : kinds) {
    INFO("stream " << k.name);
    dc.poison();
    settle();
    EW_REQUIRE_CUDA(ew::elementwise(ew::add<float>{}, n, dc.data(), ew::in(da.data(), db.data()), k.stream));
    REQUIRE(cudaStreamQuery(k.stream) == cudaSuccess);  // already finished: the call synchronized
    REQUIRE(count_wrong_adds(dc.download(), a, b) == 0);
    REQUIRE(da.guards_intact());
    REQUIRE(db.guards_intact());
    REQUIRE(dc.guards_intact());
  }
  // What a debug call costs on the host, synchronization included (printed, not asserted).
  device_array<float> x(1024), y(1024);
  x.upload(std::vector<float>(1024, 1.0f));
  settle();
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 200; ++i) {
    EW_REQUIRE_CUDA(
        ew::elementwise(ew::add<float>{}, 1024, y.data(), ew::in(x.data(), x.data()), non_blocking.get()));
  }
  const double us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / 200;
  std::printf(
      "EW_DEBUG_SYNC: f32 add, n=1024, 3 device pointers: %.1f us per call (pointer checks, launch, sync)\n",
      us);
}

TEST_CASE("debug build under capture: no synchronization attempted, the capture stays valid",
          "[debug_gpu][graph][guard]") {
  require_gpu();
  const std::size_t n = 100003;
  const std::uint64_t seed = base_seed();
  const std::vector<float> a = random_values<float>(n, seed), b = random_values<float>(n, seed + 1);
  device_array<float> da(n), db(n), dc(n);
  da.upload(a);
  db.upload(b);
  settle();
  owned_stream stream;
  bool cold = true;
  for (cudaStreamCaptureMode cm :
       {cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal, cudaStreamCaptureModeRelaxed}) {
    for (cudaStream_t s : {stream.get(), static_cast<cudaStream_t>(cudaStreamPerThread)}) {
      INFO(capture_mode_name(cm) << " capture on "
                                 << (s == cudaStreamPerThread ? "cudaStreamPerThread" : "a stream"));
      dc.poison();
      settle();
      owned_graph g;
      cudaError_t ended = cudaSuccess;
      const bool first = cold;  // debug_cold_op's very first launch is inside the first (global) capture
      cold = false;
      EW_REQUIRE_CUDA(capture(
          g, s, cm,
          [&](cudaStream_t st) {
            return first ? ew::elementwise(debug_cold_op{}, n, dc.data(), ew::in(da.data(), db.data()), st)
                         : ew::elementwise(ew::add<float>{}, n, dc.data(), ew::in(da.data(), db.data()), st);
          },
          ended));
      EW_REQUIRE_CUDA(ended);
      REQUIRE(g.nodes() == 1);
      EW_REQUIRE_CUDA(g.replay(s));
      const std::vector<float> c = dc.download();
      std::size_t bad = 0;
      for (std::size_t i = 0; i < n; ++i) {
        bad += !same_bits(c[i], first ? a[i] * 4.0f - b[i] : ref_add(a[i], b[i]));
      }
      REQUIRE(bad == 0);
      REQUIRE(dc.guards_intact());
    }
  }
}

TEST_CASE("debug build: memory CUDA does not know is rejected before any launch, unless the device reads it",
          "[debug_gpu][errors][guard][graph]") {
  require_gpu();
  const std::size_t n = 4099;
  const std::uint64_t seed = base_seed();
  const std::vector<float> a = random_values<float>(n, seed), b = random_values<float>(n, seed + 1);
  device_array<float> da(n), db(n), dc(n);
  da.upload(a);
  db.upload(b);
  const std::vector<float> c_before = random_values<float>(n, seed + 2);
  dc.upload(c_before);
  settle();
  owned_stream stream;
  std::vector<float> host_in(a);           // pageable: std::vector storage
  std::vector<float> host_out(n, 123.0f);  // pageable output
  float on_stack[64];
  for (int i = 0; i < 64; ++i) on_stack[i] = static_cast<float>(i);

  const int pageable = pageable_memory_access();
  std::printf("cudaDevAttrPageableMemoryAccess = %d: pageable host memory is %s\n", pageable,
              pageable ? "device-accessible here (HMM/ATS), so EW_CHECK_POINTERS accepts it"
                       : "not device-accessible here, so EW_CHECK_POINTERS rejects it");
  if (pageable == 0) {
    struct bad_call {
      const char* what;
      std::function<cudaError_t(cudaStream_t)> call;
    };
    const std::vector<bad_call> calls{
        {"malloc'd input",
         [&](cudaStream_t s) {
           return ew::elementwise(ew::add<float>{}, n, dc.data(),
                                  ew::in<float, float>(host_in.data(), db.data()), s);
         }},
        {"malloc'd output",
         [&](cudaStream_t s) {
           return ew::elementwise(ew::relu<float>{}, n, host_out.data(), static_cast<const float*>(da.data()),
                                  s);
         }},
        {"stack input",
         [&](cudaStream_t s) {
           return ew::elementwise(ew::relu<float>{}, 64, dc.data(), static_cast<const float*>(on_stack), s);
         }},
        {"malloc'd input view, N-dimensional launch",
         [&](cudaStream_t s) {
           const std::int64_t half = static_cast<std::int64_t>(n / 2);
           return ew::elementwise(
               ew::relu<float>{}, ew::extents{std::int64_t{2}, half}, dc.data(),
               ew::strided(static_cast<const float*>(host_in.data()), ew::extents{std::int64_t{2}, half},
                           ew::strides{half + 1, std::int64_t{1}}),
               s);
         }},
        {"stack ew::scalar, N-dimensional launch",
         [&](cudaStream_t s) {
           return ew::elementwise(
               ew::mul<float>{}, ew::extents{std::int64_t{4}, std::int64_t{64}}, dc.data(),
               ew::in(static_cast<const float*>(da.data()), ew::scalar(static_cast<const float*>(on_stack))),
               s);
         }},
        {"stack ew::scalar, 1-D launch",
         [&](cudaStream_t s) {
           return ew::elementwise(
               ew::mul<float>{}, n, dc.data(),
               ew::in(static_cast<const float*>(da.data()), ew::scalar(static_cast<const float*>(on_stack))),
               s);
         }},
    };
    for (const bad_call& bad : calls) {
      for (launch_mode mode : {launch_mode::direct, launch_mode::graph}) {
        INFO(bad.what << ", " << mode_name(mode));
        if (mode == launch_mode::direct) {
          REQUIRE(bad.call(stream.get()) == cudaErrorInvalidValue);
        } else {
          owned_graph g;
          cudaError_t ended = cudaSuccess;
          REQUIRE(capture(g, stream.get(), cudaStreamCaptureModeGlobal, bad.call, ended) ==
                  cudaErrorInvalidValue);
          REQUIRE(ended == cudaSuccess);
          REQUIRE(g.nodes() == 0);
        }
        REQUIRE(std::string(ew::last_error_message()).find("not device-accessible") != std::string::npos);
        EW_REQUIRE_CUDA(cudaDeviceSynchronize());
        REQUIRE(same_bytes(dc.download(), c_before));
        REQUIRE(same_bytes(da.download(), a));
        REQUIRE(same_bytes(host_out, std::vector<float>(n, 123.0f)));
        REQUIRE(dc.guards_intact());
      }
    }
  } else {
    EW_REQUIRE_CUDA(ew::elementwise(ew::add<float>{}, n, dc.data(),
                                    ew::in<float, float>(host_in.data(), db.data()), stream.get()));
    REQUIRE(count_wrong_adds(dc.download(), a, b) == 0);
    REQUIRE(dc.guards_intact());
  }

  // Host memory CUDA knows is device-accessible, and accepted: pinned, registered, managed.
  float* pinned = nullptr;
  float* managed = nullptr;
  EW_REQUIRE_CUDA(cudaMallocHost(&pinned, n * sizeof(float)));
  EW_REQUIRE_CUDA(cudaMallocManaged(&managed, n * sizeof(float)));
  const std::size_t page = 4096, registered_bytes = (n * sizeof(float) + page - 1) / page * page;
  float* registered = static_cast<float*>(std::aligned_alloc(page, registered_bytes));
  REQUIRE(registered != nullptr);
  std::memcpy(pinned, a.data(), n * sizeof(float));
  std::memcpy(managed, a.data(), n * sizeof(float));
  std::memcpy(registered, a.data(), n * sizeof(float));
  EW_REQUIRE_CUDA(cudaHostRegister(registered, registered_bytes, cudaHostRegisterDefault));
  const float* kinds[] = {pinned, managed, registered};
  const char* names[] = {"pinned (cudaMallocHost)", "managed (cudaMallocManaged)",
                         "registered (cudaHostRegister)"};
  for (int k = 0; k < 3; ++k) {
    INFO(names[k]);
    dc.poison();
    settle();
    EW_REQUIRE_CUDA(ew::elementwise(ew::add<float>{}, n, dc.data(), ew::in<float, float>(kinds[k], db.data()),
                                    stream.get()));
    REQUIRE(count_wrong_adds(dc.download(), a, b) == 0);
    REQUIRE(dc.guards_intact());
  }
  cudaHostUnregister(registered);
  std::free(registered);
  cudaFree(managed);
  cudaFreeHost(pinned);
}
