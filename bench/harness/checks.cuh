// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Correctness checks of benchmark outputs: `compare_device`, which compares an output with a reference on
/// the device (relative and absolute tolerance, NaN only where NaN is wanted) and returns a `check_result`
/// (how many elements are wrong, the first one and its values), `describe`, which puts that in words, and
/// `poison`, which fills outputs with NaN so that a launch that writes nothing cannot pass.

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "element_types.cuh"
#include "errors.cuh"

namespace ewb {

struct check_result {
  unsigned long long bad = 0;    ///< elements outside tolerance
  unsigned long long first = 0;  ///< index of the first bad element
  double got = 0, want = 0;      ///< values at `first`
};

template <class T>
__global__ void compare_kernel(const T* got, const T* want, std::size_t n, double rel, double abs_tol,
                               unsigned long long* counters) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const double g = to_double(got[i]);
    const double w = to_double(want[i]);
    bool ok;
    if (w != w) {
      ok = g != g;  // NaN wanted: NaN got
    } else {
      const double d = g > w ? g - w : w - g;  // NaN got: d is NaN, the test below fails
      const double m = w < 0 ? -w : w;
      ok = d <= abs_tol + rel * m;
    }
    if (!ok) {
      atomicAdd(&counters[0], 1ull);
      atomicMin(&counters[1], static_cast<unsigned long long>(i));
    }
  }
}

/// Device scratch for compare_device's two counters (one per process).
unsigned long long* compare_counters();
int compare_blocks();

/// Compares `n` elements of `got` with `want` on the device, |got - want| <= abs + rel * |want|, NaN only
/// where NaN is wanted. Synchronizes `stream`.
template <class T>
check_result compare_device(const T* got, const T* want, std::size_t n, double rel, double abs_tol,
                            cudaStream_t stream) {
  check_result r;
  if (n == 0) return r;
  unsigned long long* c = compare_counters();
  const unsigned long long init[2] = {0ull, ~0ull};
  EWB_CHECK(cudaMemcpyAsync(c, init, sizeof(init), cudaMemcpyHostToDevice, stream));
  compare_kernel<T><<<compare_blocks(), 256, 0, stream>>>(got, want, n, rel, abs_tol, c);
  EWB_CHECK_LAUNCH();
  unsigned long long back[2] = {0, 0};
  EWB_CHECK(cudaMemcpyAsync(back, c, sizeof(back), cudaMemcpyDeviceToHost, stream));
  EWB_CHECK(cudaStreamSynchronize(stream));
  r.bad = back[0];
  if (r.bad != 0) {
    r.first = back[1];
    T g, w;
    EWB_CHECK(cudaMemcpy(&g, got + r.first, sizeof(T), cudaMemcpyDeviceToHost));
    EWB_CHECK(cudaMemcpy(&w, want + r.first, sizeof(T), cudaMemcpyDeviceToHost));
    r.got = to_double(g);
    r.want = to_double(w);
  }
  return r;
}

/// "3 of 1048576 elements wrong, first at 17: got nan, want 1.5".
std::string describe(const check_result& r, std::size_t n);

/// Fills `bytes` at `p` with 0xFF: NaN in every floating type ew benchmarks.
inline void poison(void* p, std::size_t bytes, cudaStream_t stream) {
  EWB_CHECK(cudaMemsetAsync(p, 0xFF, bytes, stream));
}

}  // namespace ewb
