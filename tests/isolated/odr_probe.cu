// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Built twice into one program, with and without EW_DEBUG_SYNC (EW_ODR_PROBE_DEBUG says which), at -O0 so
// that ew's inline functions are emitted and linked rather than inlined. Both units instantiate the same
// ew::elementwise call; each must keep its own behaviour whichever unit the linker sees first.
//
// Without a GPU: the debug build asks CUDA about each pointer first (cudaPointerGetAttributes fails: ew says
// "cudaPointerGetAttributes failed"); the default build fails at cudaGetDevice with CUDA's own message.
// With a GPU: behind a kernel that spins for ~0.2 s, the debug build returns with the stream idle (it
// synchronized) and the default build with the stream still busy.

#include <cstring>

#include <cuda_runtime.h>

#include <ew/elementwise.cuh>

#include "odr_probe.cuh"

namespace {

__global__ void spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

ew_odr::behaviour probe() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    float x[4] = {1, 2, 3, 4}, y[4] = {};
    const cudaError_t e = ew::elementwise(ew::relu<float>{}, 4, y, x);
    if (e == cudaSuccess) return ew_odr::behaviour::unclear;
    if (std::strstr(ew::last_error_message(), "cudaPointerGetAttributes") != nullptr) {
      return ew_odr::behaviour::debug_config;
    }
    return std::strcmp(ew::last_error_message(), cudaGetErrorString(e)) == 0
               ? ew_odr::behaviour::default_config
               : ew_odr::behaviour::unclear;
  }
  float* d = nullptr;
  if (cudaMalloc(&d, 8 * sizeof(float)) != cudaSuccess) return ew_odr::behaviour::unclear;
  cudaStream_t s = nullptr;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  int clock_khz = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
  spin<<<1, 1, 0, s>>>(static_cast<long long>(clock_khz) * 200);  // ~0.2 s
  const cudaError_t e = ew::elementwise(ew::relu<float>{}, 4, d + 4, d, s);
  const cudaError_t q = cudaStreamQuery(s);
  cudaStreamSynchronize(s);
  cudaStreamDestroy(s);
  cudaFree(d);
  if (e != cudaSuccess) return ew_odr::behaviour::unclear;
  if (q == cudaSuccess) return ew_odr::behaviour::debug_config;
  return q == cudaErrorNotReady ? ew_odr::behaviour::default_config : ew_odr::behaviour::unclear;
}

}  // namespace

namespace ew_odr {
#if defined(EW_ODR_PROBE_DEBUG)
behaviour probe_debug() { return probe(); }
#else
behaviour probe_default() { return probe(); }
#endif
}  // namespace ew_odr
