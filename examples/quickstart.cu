// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// ew in a few lines: c = a + b, then y = clamp(relu(c) ...) style ops, each one call. The README's usage
// snippet is the part between the [snippet] markers, copied from here (CI compiles this file).
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
    std::printf("quickstart: no usable CUDA device: cudaGetDeviceCount returned %s (%s)\n",
                cudaGetErrorName(count_err), cudaGetErrorString(count_err));
    return 0;
  }
  if (devices == 0) {
    std::printf("quickstart: no usable CUDA device: cudaGetDeviceCount found 0 devices\n");
    return 0;
  }
  const std::size_t n = std::size_t{1} << 24;
  float *a, *b, *c;
  CHECK(cudaMalloc(&a, n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * sizeof(float)));
  CHECK(cudaMalloc(&c, n * sizeof(float)));
  std::vector<float> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<float>(i % 1000) * 0.01f - 5.0f;
  CHECK(cudaMemcpy(a, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));

  // [snippet]
  // c[i] = a[i] + b[i]: one line, one kernel, 16-byte loads and stores.
  CHECK(ew::elementwise(ew::add<float>{}, n, c, ew::in(a, b), stream));
  // In place: c[i] = max(c[i], 0).
  CHECK(ew::elementwise(ew::relu<float>{}, n, c, c, stream));
  // Stateful ops are passed by value: c[i] = min(max(2 * c[i] + 1, 0), 6).
  CHECK(ew::elementwise(ew::scale_bias<float>{2.0f, 1.0f}, n, c, c, stream));
  CHECK(ew::elementwise(ew::clamp<float>{0.0f, 6.0f}, n, c, c, stream));
  // [snippet]

  CHECK(cudaStreamSynchronize(stream));
  std::vector<float> out(n);
  CHECK(cudaMemcpy(out.data(), c, n * sizeof(float), cudaMemcpyDeviceToHost));
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const float s = host[i] + host[i];
    const float r = s < 0 ? 0.0f : s;
    const float sb = std::fmaf(2.0f, r, 1.0f);
    const float want = sb < 0 ? 0 : (sb > 6 ? 6 : sb);
    wrong += out[i] != want;
  }
  std::printf("quickstart: %zu elements, %zu wrong\n", n, wrong);
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
  CHECK(cudaStreamDestroy(stream));
  return wrong == 0 ? 0 : 1;
}
