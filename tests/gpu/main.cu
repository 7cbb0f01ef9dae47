// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Main for the GPU tests. Without a usable CUDA device it prints why and exits with 77, which ctest
// reports as "Skipped" (SKIP_RETURN_CODE): a GPU test never shows as passed on a machine without a GPU.
#define CATCH_CONFIG_RUNNER
#include <cstdio>

#include <cuda_runtime.h>

#include <catch2/catch.hpp>

int main(int argc, char* argv[]) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    std::printf("SKIPPED: no usable CUDA device (%s)\n", err != cudaSuccess ? cudaGetErrorString(err) : "0 devices");
    return 77;
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) {
    std::printf("device 0: %s, sm_%d%d, %d SMs (%d devices)\n", prop.name, prop.major, prop.minor,
                prop.multiProcessorCount, count);
  }
  return Catch::Session().run(argc, argv);
}
