// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Fused activations with ew::compose: a chain of functors becomes one functor, so one ew::elementwise launch
// reads each input once and writes each output once, with the intermediates in registers. Stages run left
// to right: compose(f, g)(x) == g(f(x)).
//
// Checks its results when a GPU exists; without one it says so and exits 0 (CI compiles it).
#include <cmath>
#include <cstdio>
#include <vector>

#include <ew/elementwise.cuh>

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
  // Without a usable GPU, say why (CUDA's reason) and exit 0: the example is also built and run where
  // there is none.
  int devices = 0;
  const cudaError_t count_err = cudaGetDeviceCount(&devices);
  if (count_err != cudaSuccess) {
    std::printf("fused_activation: no usable CUDA device: cudaGetDeviceCount returned %s (%s)\n",
                cudaGetErrorName(count_err), cudaGetErrorString(count_err));
    return 0;
  }
  if (devices == 0) {
    std::printf("fused_activation: no usable CUDA device: cudaGetDeviceCount found 0 devices\n");
    return 0;
  }
  const std::size_t n = std::size_t{1} << 24;
  const float alpha = 1.5f, beta = -0.25f;
  std::vector<float> host_x(n), host_r(n);
  for (std::size_t i = 0; i < n; ++i) {
    host_x[i] = static_cast<float>(i % 1000) * 0.01f - 5.0f;
    host_r[i] = static_cast<float>(i % 7) * 0.5f - 1.5f;
  }
  float *x, *r, *y, *z;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&r, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMalloc(&z, n * sizeof(float)));
  CHECK(cudaMemcpy(x, host_x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(r, host_r.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));

  // [snippet]
  // y = gelu(alpha * x + beta): scale, shift and activation in one pass.
  const auto scaled_gelu = ew::compose(ew::scale_bias<float>{alpha, beta}, ew::gelu<float>{});
  CHECK(ew::elementwise(scaled_gelu, n, y, x, stream));
  // z = relu(y + r): a residual add and ReLU; the first stage takes both inputs.
  CHECK(ew::elementwise(ew::compose(ew::add<float>{}, ew::relu<float>{}), n, z, ew::in(y, r), stream));
  // [snippet]

  CHECK(cudaStreamSynchronize(stream));
  std::vector<float> out(n);
  CHECK(cudaMemcpy(out.data(), z, n * sizeof(float), cudaMemcpyDeviceToHost));
  std::size_t wrong = 0;
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    // Reference in double: gelu(t) = 0.5 t (1 + erf(t / sqrt 2)), then relu(gelu + r).
    const double t = std::fma(static_cast<double>(alpha), host_x[i], static_cast<double>(beta));
    const double g = 0.5 * t * std::erfc(-t / std::sqrt(2.0));
    const double want = std::fmax(g + host_r[i], 0.0);
    const double err = std::fabs(out[i] - want);
    worst = err > worst ? err : worst;
    wrong += err > 1e-5 * (std::fabs(want) + 1.0);
  }
  std::printf("fused_activation: %zu elements, %zu wrong, largest error %.3g\n", n, wrong, worst);
  CHECK(cudaFree(x));
  CHECK(cudaFree(r));
  CHECK(cudaFree(y));
  CHECK(cudaFree(z));
  CHECK(cudaStreamDestroy(stream));
  return wrong == 0 ? 0 : 1;
}
