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
  /// Vector loads per input a thread issues back to back before using any (its loads in flight), which is
  /// also its share of a block's tile. Probe 2 on the H200 (docs/PERFORMANCE.md) at 2^28 elements, cold L2,
  /// 128-thread blocks: f32 add 4368 GB/s with 1, 4352 with 2, 4325 with 4; f16 add 4333 / 4329 / 4296; f32
  /// relu 4261 / 4228 / 4097. Beyond 2 the extra registers cost occupancy and gain nothing; 2 keeps two
  /// independent 16-byte loads per input in flight per thread (the launcher's contract) for ~0.5% at most.
  int unroll = 2;
  /// Hint for input loads. Probe 2: `.cs` and `.nc.L1::no_allocate` loads cost 7 to 11% at 2^28 (f32 add
  /// 3937 and 3935 GB/s against 4338 plain, 256-thread blocks, 2 vectors per thread); plain loads win.
  cache_hint load = cache_hint::normal;
  /// Hint for output stores. Probe 2: `.cs` stores made no difference beyond noise (4334 vs 4338 GB/s).
  cache_hint store = cache_hint::normal;
};

/// The kernel shape ew compiles by default.
inline constexpr kernel_shape default_kernel_shape{};

/// Run-time part of the launch policy: it may differ per device without new kernel instantiations.
struct launch_policy {
  /// Threads per block. Probe 2 at 2^28, one vector per thread: 128 threads gave f32 relu 4261 GB/s against
  /// 4203 for 256 and 4045 for 512, and tied on f32/f64 add (4368/4371/4350, 4377/4372/4360); small
  /// blocks retire and refill SMs in finer steps at the end of a tile stream.
  int block_threads = 128;
  /// Cap on the grid in waves of resident blocks (SMs x occupancy); 0 = no cap, one tile per block. On the
  /// H200, one tile per block beat a capped grid whose blocks loop over tiles at 2^28 f32 add (4338 vs 4127
  /// GB/s with 8 waves, probe 2; 4365 vs at best 4182, probe 1).
  int waves = 0;
  /// Vectors per thread per tile, at most the kernel's unroll; 0 = the unroll. The tuning binary pins it.
  /// Fewer than the unroll takes the predicated path, which probe 2 found slow (f16 add at 2^28: 3021 GB/s
  /// with 1 of 4, against 4298 with 4 of 4), so the default never does.
  int per_thread = 0;
};

/// Policy for a device of compute capability `cc` (major * 10 + minor, e.g. 90 for sm_90). One policy for
/// every architecture today: the sweeps that chose it ran on sm_90 (H200). A new row goes here, with its
/// measurement, when another architecture is tuned.
constexpr launch_policy policy_for_cc(int /*cc*/) { return launch_policy{}; }

}  // namespace tuning
}  // namespace ew
