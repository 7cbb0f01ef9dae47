// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// The transformer epilogue y = gelu(x + b) over [tokens, hidden] in bf16: the bias is a [hidden] view that
// broadcasts over the tokens, and the add and the gelu are one kernel. The README's snippet is the part
// between the [snippet] markers (CI compiles this file; scripts/gpu_check.sh runs it on the GPU).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include <cuda_bf16.h>

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
    std::printf("transformer_epilogue: no usable CUDA device (%s)\n",
                count_err != cudaSuccess ? cudaGetErrorString(count_err) : "0 devices");
    return 0;
  }
  const std::int64_t tokens = 4096, hidden = 1000;
  const std::size_t n = static_cast<std::size_t>(tokens * hidden);
  std::vector<__nv_bfloat16> hx(n), hb(static_cast<std::size_t>(hidden));
  for (std::size_t i = 0; i < n; ++i) hx[i] = __float2bfloat16(static_cast<float>(i % 613) * 0.01f - 3.0f);
  for (std::size_t i = 0; i < hb.size(); ++i)
    hb[i] = __float2bfloat16(static_cast<float>(i % 37) * 0.05f - 0.9f);
  __nv_bfloat16 *x, *b, *y;
  CHECK(cudaMalloc(&x, n * sizeof(__nv_bfloat16)));
  CHECK(cudaMalloc(&b, hb.size() * sizeof(__nv_bfloat16)));
  CHECK(cudaMalloc(&y, n * sizeof(__nv_bfloat16)));
  CHECK(cudaMemcpy(x, hx.data(), n * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, hb.data(), hb.size() * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));

  // [snippet]
  // y[t, h] = gelu(x[t, h] + b[h]) over [tokens, hidden], bf16, one kernel: the bias, a [hidden] array,
  // broadcasts over the tokens (NumPy's rule), x and y are row-major arrays of the launch's shape.
  const auto bias = ew::broadcast(b, ew::extents{hidden});
  const auto bias_gelu = ew::compose(ew::add<__nv_bfloat16>{}, ew::gelu<__nv_bfloat16>{});
  CHECK(ew::elementwise(bias_gelu, ew::extents{tokens, hidden}, y, ew::in(x, bias), stream));
  // [snippet]

  CHECK(cudaStreamSynchronize(stream));
  std::vector<__nv_bfloat16> hy(n);
  CHECK(cudaMemcpy(hy.data(), y, n * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost));
  std::size_t wrong = 0;
  for (std::int64_t t = 0; t < tokens; ++t) {
    for (std::int64_t h = 0; h < hidden; ++h) {
      const std::size_t i = static_cast<std::size_t>(t * hidden + h);
      // The same functor on the host; its erf may differ from the device's in the last float bit, which
      // can move the bf16 result by one unit (2^-7 relative).
      const float want = __bfloat162float(bias_gelu(hx[i], hb[static_cast<std::size_t>(h)]));
      const float got = __bfloat162float(hy[i]);
      wrong += !(std::fabs(got - want) <= 0.0079f * std::fabs(want) + 1e-6f);
    }
  }
  std::printf("transformer_epilogue: [%lld, %lld] bf16, %zu wrong\n", static_cast<long long>(tokens),
              static_cast<long long>(hidden), wrong);
  CHECK(cudaFree(x));
  CHECK(cudaFree(b));
  CHECK(cudaFree(y));
  CHECK(cudaStreamDestroy(stream));
  return wrong == 0 ? 0 : 1;
}
