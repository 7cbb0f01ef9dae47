// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// GPU test helpers for the side-reduction tests (test code only): the FP8 scaling step's op, random inputs
// of any element type, and a device scalar read back.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <ew/elementwise.cuh>

#include "test_utils.cuh"

namespace ew_test {

/// `(x * scale, x)`: the FP8 scaling step's op, the second part reduced with amax.
template <class T>
struct scale_and_keep {
  float scale;
  EW_HD cuda::std::tuple<float, float> operator()(T x) const {
    const float v = ew::convert<float>(x);
    return {v * scale, v};
  }
};

/// `n` values uniform in [lo, hi), rounded to `T`.
template <class T>
std::vector<T> random_inputs(std::size_t n, std::uint64_t seed, float lo = -300.0f, float hi = 300.0f) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = ew::convert<T>(d(rng));
  return v;
}

/// `x` as float, on the host.
template <class T>
float host_float(T x) {
  return ew::convert<float>(x);
}

/// How many of the FP8 codes `y` are not e4m3(x * scale) by the host's conversion (cuda_fp8.h's bit
/// manipulation, which the FP8 tests check against the reference over every rounding case; the
/// reference's search would take minutes at 2^24); `amax` gets max |x|.
template <class Y, class T>
std::size_t wrong_fp8_codes(const std::vector<Y>& y, const std::vector<T>& x, float scale, float& amax) {
  amax = 0.0f;
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const float v = host_float(x[i]);
    amax = std::max(amax, std::fabs(v));
    wrong += y[i].__x != ew::convert<__nv_fp8_e4m3>(v * scale).__x;
  }
  return wrong;
}

/// A device scalar, read back.
template <class T>
struct device_scalar {
  device_array<T> a{1};
  T* p() const { return a.data(); }
  T get() const { return a.download()[0]; }
  void set(T v) { a.upload(std::vector<T>{v}); }
};

}  // namespace ew_test
