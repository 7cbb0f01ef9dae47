// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// GPU test helpers for the side-reduction tests (test code only): the FP8 scaling step's op, random inputs
// of any element type, and a device scalar read back.

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

/// A device scalar, read back.
template <class T>
struct device_scalar {
  device_array<T> a{1};
  T* p() const { return a.data(); }
  T get() const { return a.download()[0]; }
  void set(T v) { a.upload(std::vector<T>{v}); }
};

}  // namespace ew_test
