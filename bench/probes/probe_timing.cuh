// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// What the N-d probes (nd_shape.cu, nd_cols.cu) share: a checked CUDA call, and the median time of a
// launch over 15 samples after 2 warm-ups, with the L2 flushed by a 512 MiB memset before each.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include <ew/elementwise.cuh>

#define CK(x)                                                                             \
  do {                                                                                    \
    cudaError_t e_ = (x);                                                                 \
    if (e_ != cudaSuccess) {                                                              \
      std::printf("%s: %s (%s)\n", #x, cudaGetErrorString(e_), ew::last_error_message()); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

namespace ewp {
inline void* flush_buf = nullptr;
inline constexpr std::size_t flush_bytes = std::size_t{512} << 20;

template <class F>
double time_us(F launch) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  std::vector<float> t;
  for (int i = 0; i < 17; ++i) {
    CK(cudaMemsetAsync(flush_buf, i, flush_bytes));
    CK(cudaEventRecord(a));
    launch();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    if (i >= 2) t.push_back(ms * 1000.0f);
  }
  CK(cudaGetLastError());
  std::sort(t.begin(), t.end());
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return t[t.size() / 2];
}
}  // namespace ewp
