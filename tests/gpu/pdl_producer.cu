// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// The PDL-aware producer and consumer around the launches of test_pdl_gpu.cu. Built for sm_90 (machine code
// and compute_90 PTX) in every test build: they stand for another library's kernels, compiled for the
// device, while ew's kernels come from the test build (sm_90, or with CUDA_FORCE_PTX_JIT=1 PTX for
// compute_80 JIT-compiled on the H200).

#include "pdl_producer.cuh"

namespace {

__global__ void early_trigger_producer(float* x, std::size_t n, float value) {
  cudaTriggerProgrammaticLaunchCompletion();  // the next kernel may launch now: it must wait for our writes
  // Spin first, so that a dependent that does not wait surely runs ahead of the writes below.
  const long long start = clock64();
  while (clock64() - start < 20000) {
  }
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n; i += stride) {
    x[i] = value;
  }
}

__global__ void waiting_consumer(const float* z, std::size_t n, float want, unsigned long long* mismatches) {
  cudaGridDependencySynchronize();
  unsigned long long bad = 0;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n; i += stride) {
    bad += z[i] != want;
  }
  if (bad != 0) atomicAdd(mismatches, bad);
}

}  // namespace

namespace ew_test {

cudaError_t launch_early_trigger_producer(float* x, std::size_t n, float value, cudaStream_t stream) {
  // One block per SM: every block starts (and triggers) at once, so the dependent may launch at once.
  early_trigger_producer<<<132, 256, 0, stream>>>(x, n, value);
  return cudaGetLastError();
}

cudaError_t launch_waiting_consumer(const float* z, std::size_t n, float want, unsigned long long* mismatches,
                                    cudaStream_t stream) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(264);
  config.blockDim = dim3(256);
  config.stream = stream;
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  config.attrs = &attribute;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, waiting_consumer, z, n, want, mismatches);
}

}  // namespace ew_test
