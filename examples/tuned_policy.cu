// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// A tuned launch policy: ew_tune measured every op and type on an H200 and wrote ew_tuned_h200.cuh
// (`ew_tune --op=all --type=all --n=67108864 --emit-header=ew_tuned_h200.cuh --policy-name=ew_tuned_h200`;
// bench/results/2026-12-01-h200-fair/tune_all.txt). Passing it as the first template argument of
// ew::elementwise makes every launch use its entries; results are the same as with ew's defaults, only the
// launch shape differs, and only on the compute capability it was measured on.
//
// Checks its results when a GPU exists; without one it says so and exits 0 (CI compiles it).
#include <cmath>
#include <cstdio>
#include <vector>

#include <ew/elementwise.cuh>

#include "ew_tuned_h200.cuh"

#define CHECK(expr)                                                                 \
  do {                                                                              \
    const cudaError_t err_ = (expr);                                                \
    if (err_ != cudaSuccess) {                                                      \
      std::fprintf(stderr, "%s failed: %s (%s)\n", #expr, cudaGetErrorString(err_), \
                   ew::last_error_message());                                       \
      return 1;                                                                     \
    }                                                                               \
  } while (0)

int main() {
  int devices = 0;
  const cudaError_t count_err = cudaGetDeviceCount(&devices);
  if (count_err != cudaSuccess || devices == 0) {
    std::printf("tuned_policy: no usable CUDA device (%s)\n",
                count_err != cudaSuccess ? cudaGetErrorString(count_err) : "0 devices");
    return 0;
  }
  const std::size_t n = (std::size_t{1} << 22) + 3;
  std::vector<double> host(n);
  for (std::size_t i = 0; i < n; ++i)
    host[i] = std::ldexp(static_cast<double>((i * 2654435761u) % 4096) - 2048, -9);
  double *x = nullptr, *y = nullptr, *z = nullptr;
  CHECK(cudaMalloc(&x, n * sizeof(double)));
  CHECK(cudaMalloc(&y, n * sizeof(double)));
  CHECK(cudaMalloc(&z, n * sizeof(double)));
  CHECK(cudaMemcpy(x, host.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));

  // [snippet]
  // y[i] = 1.5 x[i] - 0.25 with the tuned launch shape (on sm_90; ew's own elsewhere).
  CHECK(ew::elementwise<ew_tuned_h200>(ew::scale_bias<double>{1.5, -0.25}, n, y, x, stream));
  // The same op with ew's defaults: the same results.
  CHECK(ew::elementwise(ew::scale_bias<double>{1.5, -0.25}, n, z, x, stream));
  // [snippet]

  CHECK(cudaStreamSynchronize(stream));
  std::vector<double> tuned(n), plain(n);
  CHECK(cudaMemcpy(tuned.data(), y, n * sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(plain.data(), z, n * sizeof(double), cudaMemcpyDeviceToHost));
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i)
    wrong += tuned[i] != plain[i] || tuned[i] != std::fma(1.5, host[i], -0.25);
  std::printf("tuned_policy: %zu elements, %zu wrong\n", n, wrong);
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  CHECK(cudaFree(z));
  CHECK(cudaStreamDestroy(stream));
  return wrong == 0 ? 0 : 1;
}
