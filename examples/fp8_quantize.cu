// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Per-tensor FP8 scaling in one pass: y = fp8_e4m3(x * scale), saturating to +-448, and amax = max |x| for
// the next step's scale, reduced in the same kernel that writes y (one read of x, one write of y), which
// overwrites *amax: no reset before it. The README's snippet is the part between the [snippet] markers (CI
// compiles this file; scripts/gpu_check.sh runs it on the GPU).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include <cuda_fp8.h>

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

// [snippet]
// (x * scale, x): the first part is written as FP8 (the launcher converts, saturating to +-448), the
// second is reduced into the amax.
struct scale_and_keep {
  float scale;
  EW_HD cuda::std::tuple<float, float> operator()(float x) const { return {x * scale, x}; }
};

// y = fp8(x * scale) and *amax = max |x|, one kernel that overwrites *amax. `ws` is an
// ew::reduction_workspace, allocated and zeroed once, that every launch in stream order may reuse.
cudaError_t quantize(const float* x, std::size_t n, float scale, __nv_fp8_e4m3* y, float* amax,
                     ew::reduction_workspace* ws, cudaStream_t stream) {
  const auto amax_out = ew::reduce_overwrite<ew::reduction::amax>(amax, ws);
  return ew::elementwise(scale_and_keep{scale}, n, ew::out(y, amax_out), x, stream);
}
// [snippet]

int main() {
  int devices = 0;
  const cudaError_t count_err = cudaGetDeviceCount(&devices);
  if (count_err != cudaSuccess || devices == 0) {
    std::printf("fp8_quantize: no usable CUDA device (%s)\n",
                count_err != cudaSuccess ? cudaGetErrorString(count_err) : "0 devices");
    return 0;
  }
  const std::size_t n = std::size_t(1) << 24;
  std::vector<float> hx(n);
  for (std::size_t i = 0; i < n; ++i) hx[i] = static_cast<float>((i * 7919) % 20001) * 0.01f - 100.0f;
  float *x, *amax;
  __nv_fp8_e4m3* y;
  ew::reduction_workspace* ws;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(__nv_fp8_e4m3)));
  CHECK(cudaMalloc(&amax, sizeof(float)));
  CHECK(cudaMalloc(&ws, sizeof(ew::reduction_workspace)));
  CHECK(cudaMemset(ws, 0, sizeof(ew::reduction_workspace)));  // once
  CHECK(cudaMemset(amax, 0x7f, sizeof(float)));               // garbage (3.4e38): the launch overwrites it
  CHECK(cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  const float scale = 448.0f / 100.0f;  // last step's amax was 100

  CHECK(quantize(x, n, scale, y, amax, ws, stream));  // twice, the second with no reset between
  CHECK(quantize(x, n, scale, y, amax, ws, stream));

  float got_amax = 0;
  std::vector<__nv_fp8_e4m3> hy(n);
  CHECK(cudaMemcpyAsync(&got_amax, amax, sizeof(float), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaMemcpyAsync(hy.data(), y, n * sizeof(__nv_fp8_e4m3), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  float want_amax = 0;
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    want_amax = std::fmax(want_amax, std::fabs(hx[i]));
    wrong += hy[i].__x != ew::convert<__nv_fp8_e4m3>(hx[i] * scale).__x;  // the host's conversion
  }
  std::printf("fp8_quantize: %zu elements, amax %g (want %g), %zu wrong\n", n, got_amax, want_amax, wrong);
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  CHECK(cudaFree(amax));
  CHECK(cudaFree(ws));
  CHECK(cudaStreamDestroy(stream));
  return wrong == 0 && got_amax == want_amax ? 0 : 1;
}
