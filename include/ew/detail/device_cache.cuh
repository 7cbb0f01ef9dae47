// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Per-device facts the launcher needs on every call (SM count, compute capability, memory bandwidth,
/// whether each kernel's image can wait for a programmatic launch, and for some launches each kernel's
/// resident blocks an SM and the shared memory it may take), queried once per device and cached.
/// Lock-free: each slot is one atomic word, 0 meaning "not known yet". Two threads that miss at once both
/// query and store the same value, which is harmless, so no lock is needed and a hit costs one relaxed atomic
/// load.

#include <atomic>
#include <cstddef>
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

/// SM count, compute capability and peak memory bandwidth of a device.
struct device_facts {
  int sm_count;
  int cc;               ///< major * 10 + minor
  int memory_gbps = 0;  ///< peak DRAM bandwidth in GB/s (2 x memory clock x bus width), 0 if not known
};

/// `facts` as one cache word (never 0: the compute capability is at least 10): the SM count in bits 48 to
/// 63, the compute capability in bits 32 to 47, the bandwidth in bits 0 to 31 (each field's values fit:
/// SM counts and capabilities are below 2^16).
inline std::uint64_t pack_facts(device_facts facts) {
  return (static_cast<std::uint64_t>(static_cast<std::uint16_t>(facts.sm_count)) << 48) |
         (static_cast<std::uint64_t>(static_cast<std::uint16_t>(facts.cc)) << 32) |
         static_cast<std::uint32_t>(facts.memory_gbps);
}
/// The facts a word from `pack_facts` holds.
inline device_facts unpack_facts(std::uint64_t word) {
  return device_facts{static_cast<int>(word >> 48), static_cast<int>((word >> 32) & 0xffffu),
                      static_cast<int>(word & 0xffffffffu)};
}

/// Peak DRAM bandwidth in GB/s from the memory clock (kHz) and the bus width (bits), as NVIDIA's
/// deviceQuery computes it: two transfers a clock. 0 when either is not positive; at most 2^31 - 1.
constexpr int memory_gbps_of(int memory_clock_khz, int bus_width_bits) {
  if (memory_clock_khz <= 0 || bus_width_bits <= 0) return 0;
  const double gbps = 2.0 * memory_clock_khz * 1e3 * (bus_width_bits / 8.0) / 1e9;
  return gbps < 2147483647.0 ? static_cast<int>(gbps) : 2147483647;
}

/// The cached word for `device` when there is one; otherwise `query(word)` (a cudaError_t-returning
/// callable that sets a non-zero word) and, on success, the answer stored for the next call. An error is
/// returned and never cached. Both caches below go through here; the host tests drive it with a fake query
/// to check the per-device keying and the races without a GPU.
template <class Query>
cudaError_t cached_or_query(per_device_cache& cache, int device, std::uint64_t& word, Query&& query) {
  word = cache.get(device);
  if (word != 0) return cudaSuccess;
  const cudaError_t err = query(word);
  if (err != cudaSuccess) return err;
  cache.put(device, word);
  return cudaSuccess;
}

/// Facts of `device`, from the cache or from five attribute queries.
inline cudaError_t query_device_facts(int device, device_facts& facts) {
  static per_device_cache cache;
  std::uint64_t w = 0;
  const cudaError_t err = cached_or_query(cache, device, w, [device](std::uint64_t& word) {
    int sms = 0, major = 0, minor = 0, clock_khz = 0, bus_bits = 0;
    cudaError_t e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device);
    if (e == cudaSuccess) {
      word = pack_facts(device_facts{sms, major * 10 + minor, memory_gbps_of(clock_khz, bus_bits)});
    }
    return e;
  });
  if (err == cudaSuccess) facts = unpack_facts(w);
  return err;
}

/// A kernel's resident blocks an SM at a block size and dynamic shared memory, as one cache word: the block
/// size in bits 48 to 63 (never 0, so the word is not), the shared memory in bits 16 to 47, the blocks in
/// bits 0 to 15.
inline std::uint64_t pack_residency(int block_threads, std::size_t smem_bytes, int blocks) {
  return (static_cast<std::uint64_t>(static_cast<std::uint16_t>(block_threads)) << 48) |
         (static_cast<std::uint64_t>(static_cast<std::uint32_t>(smem_bytes)) << 16) |
         static_cast<std::uint16_t>(blocks);
}
/// Whether `word` (from `pack_residency`) is for `block_threads` and `smem_bytes`; if so `blocks` gets its
/// count.
inline bool unpack_residency(std::uint64_t word, int block_threads, std::size_t smem_bytes, int& blocks) {
  if (word == 0 || word >> 48 != static_cast<std::uint16_t>(block_threads) ||
      ((word >> 16) & 0xffffffffu) != static_cast<std::uint32_t>(smem_bytes)) {
    return false;
  }
  blocks = static_cast<int>(word & 0xffffu);
  return true;
}

/// How many blocks of `block_threads` threads with `smem_bytes` of dynamic shared memory of `Kernel` an SM
/// of `device` holds at once (`cudaOccupancyMaxActiveBlocksPerMultiprocessor`). One slot per device and
/// kernel, holding the last block size and shared memory asked for: a launch with others queries again.
template <auto Kernel>
cudaError_t query_resident_blocks(int device, int block_threads, std::size_t smem_bytes, int& blocks) {
  static per_device_cache cache;  // one per kernel: Kernel is the kernel's address
  if (unpack_residency(cache.get(device), block_threads, smem_bytes, blocks)) return cudaSuccess;
  int b = 0;
  const cudaError_t err =
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, Kernel, block_threads, smem_bytes);
  if (err != cudaSuccess) return err;
  blocks = b;
  cache.put(device, pack_residency(block_threads, smem_bytes, b));
  return cudaSuccess;
}

/// Whether the image of `Kernel` that runs on the current device `device` contains `griddepcontrol.wait`,
/// i.e. was compiled from PTX of version EW_DETAIL_PROGRAMMATIC_WAIT_ARCH / 10 or later (kernel.cuh): only
/// then may it be launched with programmatic stream serialization. The device's compute capability does not
/// say this: a program built for `compute_80` runs a JIT-compiled image without the wait on an H200, and a
/// programmatic launch of it read stale data (51,380,224 of 52,428,800 elements over 50 runs of 2^20 behind a
/// producer that triggered early). One cache per kernel instantiation, so a hit is one atomic load.
template <auto Kernel>
cudaError_t query_programmatic_wait(int device, bool& has_wait) {
  static per_device_cache cache;  // one per kernel: Kernel is the kernel's address
  std::uint64_t w = 0;
  const cudaError_t err = cached_or_query(cache, device, w, [](std::uint64_t& word) {
    cudaFuncAttributes attr{};
    const cudaError_t e = cudaFuncGetAttributes(&attr, Kernel);
    if (e == cudaSuccess) word = attr.ptxVersion * 10 >= EW_DETAIL_PROGRAMMATIC_WAIT_ARCH ? 2 : 1;
    return e;
  });
  if (err == cudaSuccess) has_wait = w == 2;
  return err;
}

/// The most dynamic shared memory a launch of `Kernel` may take on the current device `device` with its
/// attribute raised to the device's limit a block less the kernel's static shared memory, or 0 where the
/// image that runs was compiled from PTX older than compute_80 (no cp.async, which the tile kernel's
/// asynchronous copies need: tile_kernel.cuh). The first call for a device raises the attribute
/// (`cudaFuncAttributeMaxDynamicSharedMemorySize`) to that limit, so that no launch of any size races
/// another's setting; launches that take less keep their occupancy.
template <auto Kernel>
cudaError_t query_async_smem(int device, std::size_t& bytes) {
  static per_device_cache cache;  // one per kernel: Kernel is the kernel's address
  std::uint64_t w = 0;
  const cudaError_t err = cached_or_query(cache, device, w, [device](std::uint64_t& word) {
    cudaFuncAttributes attr{};
    cudaError_t e = cudaFuncGetAttributes(&attr, Kernel);
    int optin = 0;
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    if (e != cudaSuccess) return e;
    const long long dynamic = static_cast<long long>(optin) - static_cast<long long>(attr.sharedSizeBytes);
    if (attr.ptxVersion < 80 || dynamic <= 0) {
      word = 1;  // none
      return cudaSuccess;
    }
    e = cudaFuncSetAttribute(Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(dynamic));
    if (e == cudaSuccess) word = static_cast<std::uint64_t>(dynamic) << 1 | 1u;
    return e;
  });
  if (err == cudaSuccess) bytes = static_cast<std::size_t>(w >> 1);
  return err;
}

}  // namespace detail
}  // namespace ew
