// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#include "device_buffer.cuh"

#include <cuda_runtime.h>

#include "errors.cuh"

namespace ewb {

device_buffer::~device_buffer() { release(); }

void device_buffer::release() {
  if (ptr != nullptr) {
    (void)cudaFree(ptr);  // nothing to do about a failure in a destructor
    ptr = nullptr;
    bytes = 0;
  }
}

void device_buffer::ensure(std::size_t b) {
  if (b <= bytes) return;
  if (ptr != nullptr) {
    EWB_CHECK(cudaDeviceSynchronize());  // the old buffer may still be in use by queued work
    EWB_CHECK(cudaFree(ptr));
    ptr = nullptr;
    bytes = 0;
  }
  EWB_CHECK(cudaMalloc(&ptr, b));
  bytes = b;
}

}  // namespace ewb
