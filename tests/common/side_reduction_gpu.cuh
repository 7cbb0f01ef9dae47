// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// GPU test helpers for the side-reduction tests (test code only): the FP8 scaling step's op, random inputs
// of any element type, and a device scalar read back.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <thread>
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

/// Runs `f(begin, end)` over `[0, n)` in chunks of `chunk` indices on the host's cores (the checks of
/// launches of 2^26 elements took 21.7 s on one core of the H200's host, 2026-12-05), chunk `c` on one
/// thread; what each chunk computes does not depend on how many threads there are.
template <class F>
void for_chunks(std::size_t n, std::size_t chunk, F f) {
  const std::size_t chunks = (n + chunk - 1) / chunk;
  const std::size_t threads =
      std::min<std::size_t>(chunks, std::max(1u, std::thread::hardware_concurrency()));
  if (threads <= 1) {
    for (std::size_t c = 0; c < chunks; ++c) f(c * chunk, std::min(n, (c + 1) * chunk));
    return;
  }
  std::vector<std::thread> pool;
  for (std::size_t t = 0; t < threads; ++t) {
    pool.emplace_back([=] {
      for (std::size_t c = t; c < chunks; c += threads) f(c * chunk, std::min(n, (c + 1) * chunk));
    });
  }
  for (auto& th : pool) th.join();
}

/// Chunk size of the parallel host loops.
inline constexpr std::size_t host_chunk = std::size_t(1) << 16;

/// `n` values uniform in [lo, hi), rounded to `T`: each chunk of `host_chunk` from its own generator,
/// seeded by `seed` and the chunk's number.
template <class T>
std::vector<T> random_inputs(std::size_t n, std::uint64_t seed, float lo = -300.0f, float hi = 300.0f) {
  std::vector<T> v(n);
  for_chunks(n, host_chunk, [&](std::size_t b, std::size_t e) {
    std::mt19937_64 rng(seed + 0x9E3779B97F4A7C15ull * (b / host_chunk));
    std::uniform_real_distribution<float> d(lo, hi);
    for (std::size_t i = b; i < e; ++i) v[i] = ew::convert<T>(d(rng));
  });
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
  const std::size_t chunks = (x.size() + host_chunk - 1) / host_chunk;
  std::vector<float> chunk_amax(chunks, 0.0f);
  std::vector<std::size_t> chunk_wrong(chunks, 0);
  for_chunks(x.size(), host_chunk, [&](std::size_t b, std::size_t e) {
    float m = 0.0f;
    std::size_t w = 0;
    for (std::size_t i = b; i < e; ++i) {
      const float v = host_float(x[i]);
      m = std::max(m, std::fabs(v));
      w += y[i].__x != ew::convert<__nv_fp8_e4m3>(v * scale).__x;
    }
    chunk_amax[b / host_chunk] = m;
    chunk_wrong[b / host_chunk] = w;
  });
  amax = 0.0f;
  std::size_t wrong = 0;
  for (std::size_t c = 0; c < chunks; ++c) {
    amax = std::max(amax, chunk_amax[c]);
    wrong += chunk_wrong[c];
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
