// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Per-device facts the launcher needs on every call (SM count, compute capability, each kernel's
/// occupancy), queried once per device and cached. Lock-free: each slot is one atomic word, 0 meaning "not
/// known yet". Two threads that miss at once both query and store the same value, which is harmless, so
/// no lock is needed and a hit costs one relaxed atomic load.

#include <atomic>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "config.cuh"

namespace ew {
namespace detail {

/// Devices with a cache slot. A process with more (there are none today) still works: the facts for
/// devices past this are queried on every call.
inline constexpr int cached_devices = 64;

/// One atomic word per device.
struct per_device_cache {
  std::atomic<std::uint64_t> slots[cached_devices] = {};

  /// The cached word for `device`, or 0 when unknown.
  std::uint64_t get(int device) const {
    return device >= 0 && device < cached_devices ? slots[device].load(std::memory_order_relaxed) : 0;
  }
  /// Stores a non-zero word for `device`.
  void put(int device, std::uint64_t word) {
    if (device >= 0 && device < cached_devices) slots[device].store(word, std::memory_order_relaxed);
  }
};

/// SM count and compute capability of a device.
struct device_facts {
  int sm_count;
  int cc;  ///< major * 10 + minor
};

/// Facts of `device`, from the cache or from two attribute queries.
inline cudaError_t query_device_facts(int device, device_facts& facts) {
  static per_device_cache cache;
  if (const std::uint64_t w = cache.get(device)) {
    facts = device_facts{static_cast<int>(w >> 32), static_cast<int>(w & 0xffffffffu)};
    return cudaSuccess;
  }
  int sms = 0, major = 0, minor = 0;
  cudaError_t err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (err == cudaSuccess) err = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  if (err == cudaSuccess) err = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
  if (err != cudaSuccess) return err;
  facts = device_facts{sms, major * 10 + minor};
  cache.put(device, (static_cast<std::uint64_t>(sms) << 32) | static_cast<std::uint32_t>(facts.cc));
  return cudaSuccess;
}

/// Resident blocks per SM of `kernel` at `block_threads` threads on `device`. One cache per kernel
/// instantiation (the function-local static below); the block size is stored with the answer, so a call
/// with another block size queries again rather than reading a stale count.
template <auto Kernel>
cudaError_t query_occupancy(int device, int block_threads, int& blocks_per_sm) {
  static per_device_cache cache;  // one per kernel: Kernel is the kernel's address
  const std::uint64_t w = cache.get(device);
  if (w != 0 && static_cast<int>(w >> 32) == block_threads) {
    blocks_per_sm = static_cast<int>(w & 0xffffffffu);
    return cudaSuccess;
  }
  const cudaError_t err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, Kernel, block_threads, 0);
  if (err != cudaSuccess) return err;
  if (blocks_per_sm < 1) blocks_per_sm = 1;
  cache.put(device, (static_cast<std::uint64_t>(block_threads) << 32) | static_cast<std::uint32_t>(blocks_per_sm));
  return cudaSuccess;
}

}  // namespace detail
}  // namespace ew
