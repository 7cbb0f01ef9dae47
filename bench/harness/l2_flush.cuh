// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The L2 flush of cold measurements: `l2_flusher` owns two buffers of twice the device's L2 and enqueues,
/// on a stream, the memset and read over them that leave the L2 holding only clean lines of unrelated data.

#include <cuda_runtime.h>

#include <cstddef>

#include "device_buffer.cuh"

namespace ewb {

/// Evicts the device's L2 before a cold measurement: a cudaMemsetAsync over a buffer of 2x the L2 size
/// (pushing out whatever the previous launch left, dirty output lines included), then a read of another
/// 2x-L2 buffer, so that the L2 the timed launch finds holds only clean lines of unrelated data (the memset
/// alone would leave up to an L2 of dirty lines, whose write-back would be charged to the timed kernel).
class l2_flusher {
 public:
  explicit l2_flusher(std::size_t l2_bytes);
  /// Enqueues the flush on `stream`.
  void flush(cudaStream_t stream);
  std::size_t bytes() const { return bytes_; }

 private:
  std::size_t bytes_ = 0;
  device_buffer write_, read_, sink_;
  int blocks_ = 0;
};

}  // namespace ewb
