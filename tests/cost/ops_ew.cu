// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Compiled by check_device_code.py beside ops_cub.cu: the same ops (add, relu, clamp, scale_bias on float
// and __half, ew's functors) launched through ew. Not linked into anything; only its compile time and the
// size of its sm_90 cubin are measured.
#include <cuda_fp16.h>

#include <ew/elementwise.cuh>

template <class T>
cudaError_t run(T* y, const T* a, const T* b, std::size_t n, cudaStream_t s) {
  cudaError_t e = ew::elementwise(ew::add<T>{}, n, y, ew::in(a, b), s);
  if (e == cudaSuccess) e = ew::elementwise(ew::relu<T>{}, n, y, a, s);
  if (e == cudaSuccess) e = ew::elementwise(ew::clamp<T>{T(-1.0f), T(1.0f)}, n, y, a, s);
  if (e == cudaSuccess) e = ew::elementwise(ew::scale_bias<T>{T(2.0f), T(1.0f)}, n, y, a, s);
  return e;
}
template cudaError_t run<float>(float*, const float*, const float*, std::size_t, cudaStream_t);
template cudaError_t run<__half>(__half*, const __half*, const __half*, std::size_t, cudaStream_t);
