// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// What the probes (nd_shape.cu, nd_cols.cu, flat_rows.cu, vector_row_parts.cu, quant_schedule.cu,
// narrow_forms.cu) share: a checked CUDA call, element conversion, a device array, and the median time of a
// launch over 15 samples after 2 warm-ups, with the L2 flushed by a 512 MiB memset before each.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <vector>

#include <cuda_bf16.h>
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

/// `v` as a probe's element type (float or bf16).
template <class T>
T from_f(float v) {
  if constexpr (std::is_same_v<T, float>) {
    return v;
  } else {
    return __float2bfloat16(v);
  }
}

/// A device array of `n` elements, freed with it.
template <class T>
struct device_buf {
  T* p = nullptr;
  explicit device_buf(std::size_t n) { CK(cudaMalloc(&p, n * sizeof(T))); }
  ~device_buf() { cudaFree(p); }
};

/// The median time of `launch` (below); `prepare` runs before each sample, after the flush and outside the
/// timed region (poisoning outputs, zeroing counters).
template <class F, class P>
double time_us(F launch, P prepare) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  std::vector<float> t;
  for (int i = 0; i < 17; ++i) {
    CK(cudaMemsetAsync(flush_buf, i, flush_bytes));
    prepare();
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

template <class F>
double time_us(F launch) {
  return time_us(launch, [] {});
}

/// A probe's start: the flush buffer allocated, and the device's name and the header of the table whose
/// ratio column compares each row with `reference` (its time over the row's) printed.
inline void begin_table(const char* reference) {
  CK(cudaMalloc(&flush_buf, flush_bytes));
  cudaDeviceProp prop{};
  CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s; GB/s = (x read + y written) / median us; vs %s = %s time / time\n\n", prop.name, reference,
              reference);
  std::printf(
      "| type | n | impl | median us | GB/s | vs %s | medians of rounds "
      "|\n|---|---|---|---:|---:|---:|---|\n",
      reference);
}
}  // namespace ewp
