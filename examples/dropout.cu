// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Dropout keyed by element: y = dropout(x + b) with its mask, and again without it (ew::discard),
// Philox-4x32-10 words keyed by (seed, offset, element index), so the mask is the same on any launch shape
// and in a graph; the seed and offset live in device memory, and a replayed graph reads the offset it finds
// there. The README's snippet is the part between the [snippet] markers (CI compiles this file;
// scripts/gpu_check.sh runs it on the GPU).
#include <cstdint>
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
  int devices = 0;
  const cudaError_t count_err = cudaGetDeviceCount(&devices);
  if (count_err != cudaSuccess || devices == 0) {
    std::printf("dropout: no usable CUDA device (%s)\n",
                count_err != cudaSuccess ? cudaGetErrorString(count_err) : "0 devices");
    return 0;
  }
  const std::size_t n = std::size_t(1) << 22;
  std::vector<float> hx(n, 1.0f), hb(n, 0.5f);
  float *x, *b, *y, *y2, *y3;
  bool *mask, *mask16;
  ew::philox_seed* key;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMalloc(&y2, n * sizeof(float)));
  CHECK(cudaMalloc(&y3, n * sizeof(float)));
  CHECK(cudaMalloc(&mask, n * sizeof(bool)));
  CHECK(cudaMalloc(&mask16, n * sizeof(bool)));
  CHECK(cudaMalloc(&key, sizeof(ew::philox_seed)));
  CHECK(cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, hb.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  const ew::philox_seed step0{20261201, 0};
  CHECK(cudaMemcpy(key, &step0, sizeof(step0), cudaMemcpyHostToDevice));

  // [snippet]
  // y = dropout(x + b, p = 0.1) and its mask, one kernel; the random word of element i depends only on
  // (seed, offset, i), read from device memory `key` when the kernel runs.
  const auto add_then_dropout = ew::compose(ew::carry_last(ew::add<float>{}), ew::dropout<float>{0.1});
  CHECK(ew::elementwise(add_then_dropout, n, ew::out(y, mask), ew::in(x, b, ew::random_bits(key)), stream));
  // The same values without the mask: ew::discard writes nothing for that output.
  CHECK(ew::elementwise(add_then_dropout, n, ew::out(y2, ew::discard), ew::in(x, b, ew::random_bits(key)),
                        stream));
  // 16 random bits an element, eight elements from a Philox evaluation: p in steps of 2^-16.
  CHECK(ew::elementwise(add_then_dropout, n, ew::out(y3, mask16), ew::in(x, b, ew::random_bits16(key)),
                        stream));
  // [snippet]

  std::vector<float> hy(n), hy2(n), hy3(n);
  std::vector<unsigned char> hm(n), hm16(n);
  CHECK(cudaMemcpyAsync(hy.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaMemcpyAsync(hy2.data(), y2, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaMemcpyAsync(hm.data(), mask, n, cudaMemcpyDeviceToHost, stream));
  CHECK(cudaMemcpyAsync(hy3.data(), y3, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaMemcpyAsync(hm16.data(), mask16, n, cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  std::size_t kept = 0, kept16 = 0, wrong = 0;
  const float scaled = static_cast<float>(1.5) * static_cast<float>(1.0 / 0.9);  // (x + b) * scale
  for (std::size_t i = 0; i < n; ++i) {
    kept += hm[i];
    kept16 += hm16[i];
    wrong += hy[i] != (hm[i] ? scaled : 0.0f) || hm[i] > 1;
    wrong += hy2[i] != hy[i];
    wrong += hy3[i] != (hm16[i] ? scaled : 0.0f) || hm16[i] > 1;
  }
  const double rate = static_cast<double>(kept) / static_cast<double>(n);
  const double rate16 = static_cast<double>(kept16) / static_cast<double>(n);
  std::printf("dropout: %zu elements, keep rate %.5f (32-bit words), %.5f (16 bits; want 0.9), %zu wrong\n",
              n, rate, rate16, wrong);
  CHECK(cudaFree(x));
  CHECK(cudaFree(b));
  CHECK(cudaFree(y));
  CHECK(cudaFree(y2));
  CHECK(cudaFree(y3));
  CHECK(cudaFree(mask));
  CHECK(cudaFree(mask16));
  CHECK(cudaFree(key));
  CHECK(cudaStreamDestroy(stream));
  return wrong == 0 && rate > 0.898 && rate < 0.902 && rate16 > 0.898 && rate16 < 0.902 ? 0 : 1;
}
