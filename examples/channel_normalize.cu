// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Per-channel image normalisation over NCHW, y = (x - mean[c]) * inv_std[c]: mean and 1/std are [1, C, 1, 1]
// views that broadcast over N, H and W, and the output goes into a padded (pitched) image. The README's
// snippet is the part between the [snippet] markers (CI compiles this file; scripts/gpu_check.sh runs it).
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

/// (x - mean) * inv_std: a functor of three inputs.
struct normalize {
  EW_HD float operator()(float x, float mean, float inv_std) const { return (x - mean) * inv_std; }
};

int main() {
  int devices = 0;
  const cudaError_t count_err = cudaGetDeviceCount(&devices);
  if (count_err != cudaSuccess || devices == 0) {
    std::printf("channel_normalize: no usable CUDA device (%s)\n",
                count_err != cudaSuccess ? cudaGetErrorString(count_err) : "0 devices");
    return 0;
  }
  const std::int64_t N = 8, C = 3, H = 224, W = 224, row_pitch = 256;  // y's rows padded to 256 floats
  const std::size_t nx = static_cast<std::size_t>(N * C * H * W),
                    ny = static_cast<std::size_t>(N * C * H * row_pitch);
  std::vector<float> hx(nx), hmean{0.485f, 0.456f, 0.406f}, hinv{1 / 0.229f, 1 / 0.224f, 1 / 0.225f};
  for (std::size_t i = 0; i < nx; ++i) hx[i] = static_cast<float>(i % 255) / 255.0f;
  float *x, *mean, *inv_std, *y;
  CHECK(cudaMalloc(&x, nx * sizeof(float)));
  CHECK(cudaMalloc(&mean, C * sizeof(float)));
  CHECK(cudaMalloc(&inv_std, C * sizeof(float)));
  CHECK(cudaMalloc(&y, ny * sizeof(float)));
  CHECK(cudaMemcpy(x, hx.data(), nx * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(mean, hmean.data(), C * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(inv_std, hinv.data(), C * sizeof(float), cudaMemcpyHostToDevice));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));

  const float* m = mean;
  const float* s = inv_std;
  // [snippet]
  // y[n, c, h, w] = (x[n, c, h, w] - mean[c]) * inv_std[c]; mean and inv_std are [C] arrays broadcast as
  // [C, 1, 1] (NumPy's rule), y a view whose rows are padded to row_pitch elements.
  const ew::extents nchw{N, C, H, W};
  const auto per_channel = [&](const float* p) { return ew::broadcast(p, ew::extents{C, 1, 1}); };
  const auto padded = ew::strided(y, nchw, ew::strides{C * H * row_pitch, H * row_pitch, row_pitch, 1});
  CHECK(ew::elementwise(normalize{}, nchw, padded, ew::in(x, per_channel(m), per_channel(s)), stream));
  // [snippet]

  CHECK(cudaStreamSynchronize(stream));
  std::vector<float> hy(ny);
  CHECK(cudaMemcpy(hy.data(), y, ny * sizeof(float), cudaMemcpyDeviceToHost));
  std::size_t wrong = 0;
  for (std::int64_t i = 0; i < N * C * H * W; ++i) {
    const std::int64_t w = i % W, h = (i / W) % H, c = (i / (H * W)) % C, n = i / (C * H * W);
    const float want = normalize{}(hx[static_cast<std::size_t>(i)], hmean[static_cast<std::size_t>(c)],
                                   hinv[static_cast<std::size_t>(c)]);
    wrong += hy[static_cast<std::size_t>(((n * C + c) * H + h) * row_pitch + w)] != want;
  }
  std::printf("channel_normalize: [%lld, %lld, %lld, %lld], %zu wrong\n", static_cast<long long>(N),
              static_cast<long long>(C), static_cast<long long>(H), static_cast<long long>(W), wrong);
  CHECK(cudaFree(x));
  CHECK(cudaFree(mean));
  CHECK(cudaFree(inv_std));
  CHECK(cudaFree(y));
  CHECK(cudaStreamDestroy(stream));
  return wrong == 0 ? 0 : 1;
}
