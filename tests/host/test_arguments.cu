// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Argument checks that happen before any device is touched, so they run (and must hold) without a GPU:
// n == 0, null pointers, misaligned element pointers, overlap rules. Each rejected call returns
// cudaErrorInvalidValue with a message and launches nothing.

#include <cstdint>
#include <string>

#include <catch2/catch.hpp>

#include <ew/elementwise.cuh>

namespace {
// Addresses that are never dereferenced: every call below is rejected or returns before a launch.
float* fake_f32(std::uintptr_t a) { return reinterpret_cast<float*>(a); }

// Functors used as kernel template arguments must be namespace-scope types (a CUDA rule).
struct widen {
  EW_HD float operator()(__half x) const { return __half2float(x); }
};
struct two {
  EW_HD cuda::std::tuple<float, float> operator()(float x) const { return {x, -x}; }
};
}  // namespace

TEST_CASE("n == 0 succeeds without a launch, even with null pointers", "[arguments]") {
  REQUIRE(ew::elementwise(ew::add<float>{}, 0, static_cast<float*>(nullptr), ew::in(fake_f32(0), fake_f32(0))) ==
          cudaSuccess);
  REQUIRE(std::string(ew::last_error_message()).empty());
}

TEST_CASE("null pointers with n > 0 are rejected", "[arguments]") {
  float* const p = fake_f32(0x10000000);
  REQUIRE(ew::elementwise(ew::add<float>{}, 5, static_cast<float*>(nullptr), ew::in(p, p + 100)) ==
          cudaErrorInvalidValue);
  REQUIRE(std::string(ew::last_error_message()).find("null") != std::string::npos);
  REQUIRE(ew::elementwise(ew::add<float>{}, 5, p, ew::in(p + 100, static_cast<const float*>(nullptr))) ==
          cudaErrorInvalidValue);
  REQUIRE(ew::elementwise(ew::relu<float>{}, 1, p, static_cast<const float*>(nullptr)) == cudaErrorInvalidValue);
}

TEST_CASE("pointers not aligned to their element are rejected", "[arguments]") {
  REQUIRE(ew::elementwise(ew::relu<float>{}, 4, fake_f32(0x10000002), fake_f32(0x20000000)) ==
          cudaErrorInvalidValue);
  REQUIRE(std::string(ew::last_error_message()).find("aligned") != std::string::npos);
}

TEST_CASE("partial overlap of output and input is rejected; exact in-place is not", "[arguments]") {
  float* const base = fake_f32(0x10000000);
  // Output shifted by one element against the input: partial overlap.
  REQUIRE(ew::elementwise(ew::relu<float>{}, 100, base + 1, base) == cudaErrorInvalidValue);
  REQUIRE(std::string(ew::last_error_message()).find("overlap") != std::string::npos);
  REQUIRE(ew::elementwise(ew::add<float>{}, 100, base, ew::in(base + 200, base + 50)) == cudaErrorInvalidValue);
  // Same address, different element size: the f32 output would overwrite f16 inputs other threads still read.
  REQUIRE(ew::elementwise(widen{}, 100, base, reinterpret_cast<const __half*>(base)) == cudaErrorInvalidValue);
  // Adjacent ranges do not overlap, and exact in place is allowed: the check must not reject them. It is
  // called directly: through ew::elementwise these fake addresses would reach a launch on a GPU machine.
  using ew::detail::pointer_info;
  const auto addr = [](const float* p) { return reinterpret_cast<std::uintptr_t>(p); };
  const pointer_info adjacent[] = {{addr(base + 100), 4}, {addr(base), 4}};
  REQUIRE(ew::detail::check_pointers(adjacent, 1, 2, 100) == cudaSuccess);
  const pointer_info in_place[] = {{addr(base), 4}, {addr(base), 4}};
  REQUIRE(ew::detail::check_pointers(in_place, 1, 2, 100) == cudaSuccess);
}

TEST_CASE("two outputs that overlap are rejected", "[arguments]") {
  float* const base = fake_f32(0x10000000);
  REQUIRE(ew::elementwise(two{}, 100, ew::out(base, base + 50), base + 1000) == cudaErrorInvalidValue);
  REQUIRE(ew::elementwise(two{}, 100, ew::out(base, base), base + 1000) == cudaErrorInvalidValue);
}

TEST_CASE("sizes whose byte count wraps the address space are rejected", "[arguments]") {
  float* const p = fake_f32(0x10000000);
  REQUIRE(ew::elementwise(ew::relu<float>{}, SIZE_MAX / 2, p, p) == cudaErrorInvalidValue);
}

TEST_CASE("the message is per thread and cleared by a successful call", "[arguments]") {
  float* const p = fake_f32(0x10000000);
  REQUIRE(ew::elementwise(ew::relu<float>{}, 1, p, static_cast<const float*>(nullptr)) == cudaErrorInvalidValue);
  REQUIRE(std::string(ew::last_error_message()) != "");
  REQUIRE(ew::elementwise(ew::relu<float>{}, 0, p, p) == cudaSuccess);
  REQUIRE(std::string(ew::last_error_message()).empty());
}
