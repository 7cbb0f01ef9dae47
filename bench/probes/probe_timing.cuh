// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// What the probes (nd_shape.cu, nd_cols.cu, flat_rows.cu, vector_row_parts.cu, quant_schedule.cu,
// narrow_forms.cu, dropout_words.cu, cast_transpose_tiles.cu, cast_transpose_staged.cu,
// cast_transpose_driver.cu) share: a checked CUDA call, element conversion, a device array, the median time
// of a launch over 15 samples after 2 warm-ups, with the L2 flushed before each as ew_bench's cold mode does
// (docs/BENCHMARKS.md), with 512 MiB buffers: a memset, then a kernel reading another buffer, so that the
// timed launch finds clean lines, rows timed in interleaved rounds, and the table's lines.
// EW_PROBE_FLUSH=memset keeps the memset alone (the probes' flush up to the fourteenth session: the L2's
// dirty lines are then written back during the timed launch and charged to it).

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string_view>
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
inline uint4* flush_read_buf = nullptr;
inline unsigned* flush_sink = nullptr;
inline bool flush_memset_only = false;
inline constexpr std::size_t flush_bytes = std::size_t{512} << 20;

/// Reads `n` 16-byte words, so that the L2 holds clean lines; the sum is stored only when it is a value
/// the buffer (memset to 1s) cannot give, so the loads are kept and nothing is written.
__global__ void flush_read_kernel(const uint4* p, std::size_t n, unsigned* sink) {
  unsigned acc = 0;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const uint4 v = p[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9e3779b9u) *sink = acc;
}

/// The flush's buffers (a probe may have allocated `flush_buf` itself) and mode, once.
inline void flush_init() {
  if (flush_buf == nullptr) CK(cudaMalloc(&flush_buf, flush_bytes));
  if (flush_read_buf != nullptr) return;
  CK(cudaMalloc(&flush_read_buf, flush_bytes));
  CK(cudaMemset(flush_read_buf, 0x01, flush_bytes));
  CK(cudaMalloc(&flush_sink, sizeof(unsigned)));
  const char* mode = std::getenv("EW_PROBE_FLUSH");
  flush_memset_only = mode != nullptr && std::string_view(mode) == "memset";
}

/// The flush before each timed sample (the file's comment).
inline void flush_l2(int i) {
  flush_init();
  CK(cudaMemsetAsync(flush_buf, i, flush_bytes));
  if (flush_memset_only) return;
  flush_read_kernel<<<1024, 512>>>(flush_read_buf, flush_bytes / sizeof(uint4), flush_sink);
  CK(cudaGetLastError());
}

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

/// The median time of `launch` (below); `prepare` runs before each sample, before the flush (so that the
/// lines its poisoning writes leave the L2 with the rest) and outside the timed region (poisoning outputs,
/// zeroing counters).
template <class F, class P>
double time_us(F launch, P prepare) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  std::vector<float> t;
  for (int i = 0; i < 17; ++i) {
    prepare();
    flush_l2(i);
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

/// Each row's (`rows[i].launch()`) median times over `rounds` rounds, the rows interleaved (in order on even
/// rounds, reversed on odd ones); `prepare()` runs before each sample (poisoning outputs), `check(i)` after
/// each of row `i`'s samples (it exits on a wrong result).
template <class Rows, class Prepare, class Check>
std::vector<std::vector<double>> time_rounds(const Rows& rows, int rounds, Prepare prepare, Check check) {
  std::vector<std::vector<double>> us(rows.size());
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const std::size_t i = r % 2 == 0 ? k : rows.size() - 1 - k;
      us[i].push_back(time_us(rows[i].launch, prepare));
      check(i);
    }
  }
  return us;
}

/// One table line per row (`begin_table`'s columns): the median of its rounds' medians `us[k]`, GB/s of
/// `bytes(k)`, that over row 0's GB/s, and the range of the rounds' medians.
template <class Rows, class Bytes>
void print_rows(const char* type, const char* size, const Rows& rows,
                const std::vector<std::vector<double>>& us, Bytes bytes) {
  double first_gbps = 0;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    std::vector<double> s = us[k];
    std::sort(s.begin(), s.end());
    const double med = s[(s.size() - 1) / 2];
    const double gbps = bytes(k) / med / 1e3;
    if (k == 0) first_gbps = gbps;
    std::printf("| %s | %s | %s | %.2f | %.0f | %.3f | %.2f-%.2f |\n", type, size, rows[k].name.c_str(), med,
                gbps, gbps / first_gbps, s.front(), s.back());
  }
}

/// A probe's start: the flush buffer allocated, and the device's name and the header of the table whose
/// ratio column compares each row with `reference` (its time over the row's) printed.
inline void begin_table(const char* reference) {
  flush_init();
  cudaDeviceProp prop{};
  CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s; GB/s = (x read + y written) / median us; vs %s = %s time / time; L2 flushed by %s\n\n",
              prop.name, reference, reference,
              flush_memset_only ? "a 512 MiB memset alone" : "a 512 MiB memset and a 512 MiB read");
  std::printf(
      "| type | n | impl | median us | GB/s | vs %s | medians of rounds "
      "|\n|---|---|---|---:|---:|---:|---|\n",
      reference);
}
}  // namespace ewp
