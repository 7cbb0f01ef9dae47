// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Device memory of the harness and the benchmarks: `device_buffer`, a cudaMalloc'd allocation that only
/// grows and is freed on destruction, and `buffer_slack_bytes`, the extra bytes every benchmark buffer gets
/// so that a misaligned view still holds its elements.

#include <cstddef>

namespace ewb {

/// A device allocation that only grows.
struct device_buffer {
  void* ptr = nullptr;
  std::size_t bytes = 0;
  device_buffer() = default;
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer();
  /// Makes the buffer at least `b` bytes (its old contents are lost when it grows).
  void ensure(std::size_t b);
  void release();
  template <class T>
  T* as(std::size_t offset_elements = 0) const {
    return static_cast<T*>(ptr) + offset_elements;
  }
};

/// Extra elements every buffer gets, so a misaligned view (base + 1 element) still holds n elements.
inline constexpr std::size_t buffer_slack_bytes = 256;

}  // namespace ewb
