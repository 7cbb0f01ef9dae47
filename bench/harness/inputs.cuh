// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Deterministic host-side data: `parallel_for`, which splits a host loop over `[0, n)` across the cores
/// (input fills and host references of 2^28 elements), `mix64`, counter-based random bits, and
/// `fill_random`, the benchmarks' inputs: the same (seed, stream, index) gives the same value on every run,
/// non-zero and exactly representable in the element type.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

#include "element_types.cuh"

namespace ewb {

/// Runs `fn(begin, end)` over `[0, n)` split across the host's cores (at most 16 threads).
template <class Fn>
void parallel_for(std::size_t n, Fn&& fn) {
  unsigned threads = std::thread::hardware_concurrency();
  if (threads == 0) threads = 1;
  if (threads > 16) threads = 16;
  if (n < (std::size_t{1} << 16)) threads = 1;
  if (threads == 1) {
    fn(std::size_t{0}, n);
    return;
  }
  std::vector<std::thread> pool;
  const std::size_t chunk = (n + threads - 1) / threads;
  for (unsigned t = 0; t < threads; ++t) {
    const std::size_t b = std::min(n, t * chunk), e = std::min(n, b + chunk);
    pool.emplace_back([&fn, b, e] { fn(b, e); });
  }
  for (auto& th : pool) th.join();
}

/// Counter-based random bits: the same (seed, stream, index) gives the same value on every run.
inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// `n` random non-zero values of magnitude in [1/16, 4) with random sign, exactly representable in `T`.
template <class T>
void fill_random(T* out, std::size_t n, std::uint64_t seed, std::uint64_t stream) {
  const std::uint64_t base = mix64(seed ^ mix64(stream + 0x1234567ull));
  parallel_for(n, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      const std::uint64_t r = mix64(base + i);
      const double mag = 0.0625 + static_cast<double>(r >> 11) * (3.9375 / 9007199254740992.0);
      const double v = (r & 1) ? -mag : mag;
      out[i] = round_to<T>(static_cast<host_compute_t<T>>(v));
    }
  });
}

}  // namespace ewb
