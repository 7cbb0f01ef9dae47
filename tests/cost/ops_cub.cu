// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Compiled by check_device_code.py beside ops_ew.cu: the same ops and functors launched through
// cub::DeviceTransform, as its users call it.
#include <cuda_fp16.h>

#include <cub/device/device_transform.cuh>
#include <ew/ops.cuh>

template <class T>
cudaError_t run(T* y, const T* a, const T* b, std::size_t n, cudaStream_t s) {
  cudaError_t e = cub::DeviceTransform::Transform(cuda::std::make_tuple(a, b), y, n, ew::add<T>{}, s);
  if (e == cudaSuccess) e = cub::DeviceTransform::Transform(a, y, n, ew::relu<T>{}, s);
  if (e == cudaSuccess) e = cub::DeviceTransform::Transform(a, y, n, ew::clamp<T>{T(-1.0f), T(1.0f)}, s);
  if (e == cudaSuccess) e = cub::DeviceTransform::Transform(a, y, n, ew::scale_bias<T>{T(2.0f), T(1.0f)}, s);
  return e;
}
template cudaError_t run<float>(float*, const float*, const float*, std::size_t, cudaStream_t);
template cudaError_t run<__half>(__half*, const __half*, const __half*, std::size_t, cudaStream_t);
