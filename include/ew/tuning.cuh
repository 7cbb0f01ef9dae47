// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Launch heuristics as named constants, by compute capability. Each value says why it is what it is; the
/// measurements behind them are in docs/PERFORMANCE.md and come from `ew_tune` (bench/tune.cu).

#include "detail/config.cuh"

namespace ew {
namespace tuning {

/// Bytes moved by one vector access. 16 is the widest load/store a thread can issue (LDG.E.128/STG.E.128);
/// fewer, wider accesses mean fewer instructions and fewer memory transactions in flight to track.
inline constexpr int vector_bytes = 16;

/// Upper bound on threads per block that the kernels are compiled for (`__launch_bounds__`). The launch
/// policy below never asks for more.
inline constexpr int max_block_threads = 512;

/// How the cache hierarchy is told to treat streamed data.
enum class cache_hint : int {
  normal = 0,       ///< `ld.global` / `st.global`: default caching.
  streaming = 1,    ///< `ld.global.cs` / `st.global.cs`: evict-first; the data is touched once.
  no_allocate = 2,  ///< `ld.global.nc.L1::no_allocate`: read-only path, not kept in L1.
};

/// Compile-time shape of the kernel: how many vectors each thread loads before it uses the first one, and
/// the cache hints. Baked into the kernel instantiation, so the same for every device.
struct kernel_shape {
  /// Vector loads per input a thread issues back to back before using any (its loads in flight). With
  /// 256-thread blocks at full occupancy (8 blocks/SM) and 16-byte vectors, 4 gives 2048 * 4 * 16 B = 128 KiB
  /// per input in flight per SM, well past the ~48 KiB per SM that CUB sizes its H200 tiles to
  /// (cub/device/dispatch/tuning/tuning_transform.cuh, arch_to_min_bytes_in_flight), while keeping the data
  /// registers to 16 per input so occupancy stays high. Chosen by the ew_tune sweep, docs/PERFORMANCE.md.
  int unroll = 4;
  /// Hint for input loads: data is read exactly once.
  cache_hint load = cache_hint::normal;
  /// Hint for output stores: data is written exactly once.
  cache_hint store = cache_hint::normal;
};

/// The kernel shape ew compiles by default.
inline constexpr kernel_shape default_kernel_shape{};

/// Run-time part of the launch policy: it may differ per device without new kernel instantiations.
struct launch_policy {
  /// Threads per block. 256 keeps 8 blocks per SM at full occupancy on sm_80/sm_90 (2048 threads/SM), and
  /// is what CUB's prefetch and bulk-copy policies use on sm_90.
  int block_threads = 256;
  /// Cap on the grid in waves of resident blocks (SMs x occupancy); 0 = no cap, one tile per block. On the
  /// H200, one tile per block beat a capped grid whose blocks loop over tiles at 2^28 f32 add (4365 vs at
  /// best 4182 GB/s with 8 waves; probe 1 in docs/PERFORMANCE.md).
  int waves = 0;
  /// Threads take one vector per tile until there are this many waves of such tiles, and more after.
  int fill_waves = 2;
  /// Vectors per thread per tile; 0 = chosen by `fill_waves`. The tuning binary pins it.
  int per_thread = 0;
};

/// Policy for a device of compute capability `cc` (major * 10 + minor, e.g. 90 for sm_90). One policy for
/// every architecture today: the sweeps that chose it ran on sm_90 (H200). A new row goes here, with its
/// measurement, when another architecture is tuned.
constexpr launch_policy policy_for_cc(int /*cc*/) { return launch_policy{}; }

}  // namespace tuning
}  // namespace ew
