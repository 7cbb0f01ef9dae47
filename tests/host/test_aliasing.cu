// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// The aliasing rules, case by case, on the host. In place is allowed (an output at the same address and of
// the same element size as an input); any other overlap between an output and an input is rejected, and
// outputs never overlap each other; inputs may overlap each other freely (they are only read). Accepted
// cases go through `check_pointers`, the check `ew::elementwise` runs first, so nothing is launched;
// rejected ones also go through `ew::elementwise` itself, which must return cudaErrorInvalidValue.

#include <cstdint>
#include <string>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

namespace {

using ew::detail::pointer_info;

constexpr std::uintptr_t base = 0x10000000;

/// The most pointers one of these cases passes (`check_pointers`' capacity).
constexpr int max_pointers = 40;

/// check_pointers over outputs `outs` and inputs `ins` (address, element size) for n elements.
cudaError_t check(std::vector<pointer_info> outs, const std::vector<pointer_info>& ins, std::size_t n) {
  const int num_out = static_cast<int>(outs.size());
  outs.insert(outs.end(), ins.begin(), ins.end());
  return ew::detail::check_pointers<max_pointers>(outs.data(), num_out, static_cast<int>(outs.size()), n);
}

pointer_info f32(std::uintptr_t a) { return {a, 4}; }
pointer_info f16(std::uintptr_t a) { return {a, 2}; }
pointer_info f64(std::uintptr_t a) { return {a, 8}; }

template <class T>
T* at(std::uintptr_t a) {
  return reinterpret_cast<T*>(a);
}

struct widen {
  EW_HD
  float operator()(__half x) const { return __half2float(x); }
};
struct narrow {
  EW_HD
  __half operator()(float x) const { return __float2half(x); }
};
struct fma3 {
  EW_HD
  float operator()(float a, float b, float c) const { return a * b + c; }
};
struct split2 {
  EW_HD
  cuda::std::tuple<float, float> operator()(float a, float b) const { return {a + b, a - b}; }
};

}  // namespace

TEST_CASE("in place is allowed with any input, for every output", "[aliasing]") {
  // out == in0, out == in1, out == in2 (3 inputs)
  REQUIRE(check({f32(base)}, {f32(base), f32(base + 4096)}, 100) == cudaSuccess);
  REQUIRE(check({f32(base)}, {f32(base + 4096), f32(base)}, 100) == cudaSuccess);
  REQUIRE(check({f32(base)}, {f32(base + 4096), f32(base + 8192), f32(base)}, 100) == cudaSuccess);
  // The output is every input at once: out = a, ins = (a, a).
  REQUIRE(check({f32(base)}, {f32(base), f32(base)}, 100) == cudaSuccess);
  // Two outputs each in place on a different input, or crosswise.
  REQUIRE(check({f32(base), f32(base + 4096)}, {f32(base), f32(base + 4096)}, 100) == cudaSuccess);
  REQUIRE(check({f32(base), f32(base + 4096)}, {f32(base + 4096), f32(base)}, 100) == cudaSuccess);
}

TEST_CASE("inputs may overlap each other", "[aliasing]") {
  REQUIRE(check({f32(base + 4096)}, {f32(base), f32(base + 4)}, 100) == cudaSuccess);
  REQUIRE(check({f32(base + 4096)}, {f32(base), f16(base + 2)}, 100) == cudaSuccess);
}

TEST_CASE("adjacent ranges do not overlap", "[aliasing]") {
  // Output right after the input, and right before it; one element is enough to tell.
  REQUIRE(check({f32(base + 400)}, {f32(base)}, 100) == cudaSuccess);
  REQUIRE(check({f32(base)}, {f32(base + 400)}, 100) == cudaSuccess);
  REQUIRE(check({f32(base + 4)}, {f32(base)}, 1) == cudaSuccess);
  // Mixed sizes: 100 f64 outputs end exactly where the f16 input starts.
  REQUIRE(check({f64(base)}, {f16(base + 800)}, 100) == cudaSuccess);
  // Two outputs back to back.
  REQUIRE(check({f32(base), f32(base + 400)}, {f32(base + 4096)}, 100) == cudaSuccess);
}

TEST_CASE("an output that shares any byte with an input, other than exactly in place, is rejected",
          "[aliasing]") {
  // Shifted by one element either way, and by one element at n == 2.
  REQUIRE(check({f32(base + 4)}, {f32(base)}, 100) == cudaErrorInvalidValue);
  REQUIRE(check({f32(base)}, {f32(base + 4)}, 100) == cudaErrorInvalidValue);
  REQUIRE(check({f32(base + 4)}, {f32(base)}, 2) == cudaErrorInvalidValue);
  // Last output element overlaps the first input element by one byte-range.
  REQUIRE(check({f32(base)}, {f32(base + 396)}, 100) == cudaErrorInvalidValue);
  // The input lies strictly inside the output, or the output inside the input.
  REQUIRE(check({f32(base)}, {f32(base + 40)}, 100) == cudaErrorInvalidValue);
  // In place on one input does not excuse a partial overlap with another.
  REQUIRE(check({f32(base)}, {f32(base), f32(base + 8)}, 100) == cudaErrorInvalidValue);
  REQUIRE(check({f32(base)}, {f32(base + 8), f32(base)}, 100) == cudaErrorInvalidValue);
  // Same address but a different element size: the wider output overwrites inputs still to be read.
  REQUIRE(check({f32(base)}, {f16(base)}, 100) == cudaErrorInvalidValue);
  REQUIRE(check({f16(base)}, {f32(base)}, 100) == cudaErrorInvalidValue);
  // Through the public call, for each input position, and mixed types.
  float* const p = at<float>(base);
  REQUIRE(ew::elementwise(fma3{}, 100, p, ew::in<float, float, float>(p + 1000, p + 2000, p + 50)) ==
          cudaErrorInvalidValue);
  REQUIRE(ew::elementwise(fma3{}, 100, p, ew::in<float, float, float>(p + 50, p + 1000, p + 2000)) ==
          cudaErrorInvalidValue);
  REQUIRE(ew::elementwise(widen{}, 100, p, at<const __half>(base + 2)) == cudaErrorInvalidValue);
  REQUIRE(ew::elementwise(narrow{}, 100, at<__half>(base), p) == cudaErrorInvalidValue);
  REQUIRE(std::string(ew::last_error_message()).find("in-place") != std::string::npos);
}

TEST_CASE("outputs never overlap each other, not even exactly", "[aliasing]") {
  REQUIRE(check({f32(base), f32(base)}, {f32(base + 4096)}, 100) == cudaErrorInvalidValue);
  REQUIRE(check({f32(base), f32(base + 4)}, {f32(base + 4096)}, 100) == cudaErrorInvalidValue);
  REQUIRE(check({f32(base + 4), f32(base)}, {f32(base + 4096)}, 100) == cudaErrorInvalidValue);
  // Even when both are "in place" on the same input.
  REQUIRE(check({f32(base), f32(base)}, {f32(base)}, 100) == cudaErrorInvalidValue);
  float* const p = at<float>(base);
  REQUIRE(ew::elementwise(split2{}, 100, ew::out(p, p + 99), ew::in<float, float>(p + 1000, p + 2000)) ==
          cudaErrorInvalidValue);
  REQUIRE(std::string(ew::last_error_message()).find("outputs overlap") != std::string::npos);
}

TEST_CASE("null and misaligned pointers are rejected in every position", "[aliasing]") {
  REQUIRE(check({f32(0)}, {f32(base)}, 1) == cudaErrorInvalidValue);
  REQUIRE(check({f32(base)}, {f32(0)}, 1) == cudaErrorInvalidValue);
  REQUIRE(check({f32(base)}, {f32(base + 4096), f32(0)}, 1) == cudaErrorInvalidValue);
  REQUIRE(check({f32(base), f32(0)}, {f32(base + 4096)}, 1) == cudaErrorInvalidValue);
  REQUIRE(check({f32(base + 2)}, {f32(base + 4096)}, 1) == cudaErrorInvalidValue);
  REQUIRE(check({f32(base)}, {f32(base + 4096), f32(base + 8193)}, 1) == cudaErrorInvalidValue);
  REQUIRE(check({f64(base + 4)}, {f32(base + 4096)}, 1) == cudaErrorInvalidValue);
  // f16 needs 2-byte alignment only.
  REQUIRE(check({f16(base + 2)}, {f16(base + 4098)}, 1) == cudaSuccess);
}

TEST_CASE("ranges that wrap the address space are rejected", "[aliasing]") {
  const std::uintptr_t top = UINTPTR_MAX - 403;  // 404 bytes to the end; 4-byte aligned
  REQUIRE(check({f32(top)}, {f32(base)}, 100) == cudaSuccess);
  REQUIRE(check({f32(top)}, {f32(base)}, 101) == cudaErrorInvalidValue);
  REQUIRE(check({f32(base)}, {f32(base + 4096)}, SIZE_MAX / 4 + 1) == cudaErrorInvalidValue);
}

TEST_CASE("a launch of any number of operands is checked, beyond the old cap of 32", "[aliasing]") {
  // 4 outputs and 32 inputs, 4 KB apart: no overlap, nothing refused for its count.
  std::vector<pointer_info> outs, ins;
  for (int k = 0; k < 4; ++k) outs.push_back(f32(base + 4096 * static_cast<std::uintptr_t>(k)));
  for (int k = 0; k < 32; ++k) ins.push_back(f32(base + 4096 * static_cast<std::uintptr_t>(k + 4)));
  REQUIRE(check(outs, ins, 1000) == cudaSuccess);
  // The last input over the first output (not in place): found among them.
  ins.back() = f32(base + 4);
  REQUIRE(check(outs, ins, 1000) == cudaErrorInvalidValue);
  // More pointers than the caller's capacity: refused with the reason, nothing read past the array.
  const pointer_info three[] = {f32(base), f32(base + 4096), f32(base + 8192)};
  REQUIRE(ew::detail::check_pointers<2>(three, 1, 3, 10) == cudaErrorInvalidValue);
  REQUIRE(std::string(ew::last_error_message()).find("more operands than the checker holds") !=
          std::string::npos);
}
