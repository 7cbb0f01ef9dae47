// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Launch heuristics as named constants, by compute capability. Each value says why it is what it is; the
/// measurements behind them are in docs/PERFORMANCE.md and come from `ew_tune` (bench/tune.cu).

#include <cstddef>

#include "config.cuh"
#include "tuning_nd.cuh"

namespace ew {
namespace tuning {

/// Bytes moved by one vector access. 16 is the widest load/store a thread can issue (LDG.E.128/STG.E.128);
/// fewer, wider accesses mean fewer instructions and fewer memory transactions in flight to track.
inline constexpr int vector_bytes = 16;

/// Upper bound on threads per block that the kernels are compiled for (`__launch_bounds__`). plan_launch
/// (launch_shape.cuh) clamps every policy's block size to it.
inline constexpr int max_block_threads = 512;

/// Compile-time shape of the kernel: how many vectors each thread loads before it uses the first one. Baked
/// into the kernel instantiation, so the same for every device. Loads and stores use default caching: probe
/// 2 on the H200 (docs/PERFORMANCE.md) found `.cs` and `.nc.L1::no_allocate` loads 7 to 11% slower at 2^28
/// (f32 add 3937 and 3935 GB/s against 4338 plain, 256-thread blocks, 2 vectors per thread) and `.cs`
/// stores no different beyond noise (4334 vs 4338 GB/s).
struct kernel_shape {
  /// Independent 16-byte loads a thread issues, over all its inputs, before it uses the first: a unary op
  /// takes 2 vectors per thread, an op of 2 or more inputs 1 vector of each (`unroll_for`). Probes 2 and 4
  /// on the H200 (docs/PERFORMANCE.md): more vectors per thread never gained at 2^28 (f32 add 4368, 4352,
  /// 4325 GB/s for 1, 2, 4 vectors; f32 relu 4261, 4228, 4097), and with back-to-back launches at 2^20
  /// (graph replay) f32 add took 2.29 us with 1 vector per thread and 2.64 with 2, while relu took 2.13
  /// with 2 and 2.41 with 1: what pays is two loads in flight per thread, however they are split.
  int loads_in_flight = 2;

  /// Vectors per thread per tile for an op of `num_inputs` inputs (at least 1).
  constexpr int unroll_for(int num_inputs) const {
    return num_inputs <= 1 ? loads_in_flight
                           : (loads_in_flight / num_inputs > 0 ? loads_in_flight / num_inputs : 1);
  }
};

/// The kernel shape ew compiles by default. Checked by `ew_tune --standard` on the H200 on 2026-11-30
/// (bench/results/2026-11-30-h200/tune.txt), which swept block size, waves, vector width, unroll, hints
/// and programmatic launch around these defaults: the best of several hundred shapes beat them by 0.24%
/// (f32 add, 2^28), 0.16% (f16 relu, 2^28) and 0.81% (f32 add, 2^24), each within the spread; only hot
/// f32 add at 2^20 found 1.9% (8-byte vectors, 4 per thread, 256 threads), left as is: one case, and it
/// would trade 16-byte accesses everywhere for it.
inline constexpr kernel_shape default_kernel_shape{};

/// Run-time part of the launch policy: it may differ per device without new kernel instantiations.
struct launch_policy {
  /// Threads per block; 0 = `tile_vectors / vectors per thread`.
  int block_threads = 0;
  /// Vectors in one block's tile when `block_threads` is 0: 256 vectors (4 KiB of each input) gives 128
  /// threads for unary ops and 256 for binary ones, the block sizes that won both cold at 2^28 (probe 2:
  /// f32 relu 4228 GB/s at 128 threads x 2 vectors against 4113 at 256 x 2; f32 add 4371 at 256 x 1) and
  /// hot at 2^20 (probe 4: f32 add 2.29 us at 256 x 1 against 2.83 at 128 x 1). Many smaller blocks cost
  /// more than they give: the GPU starts blocks at a bounded rate (probe 4: 16384 blocks of 64 threads took
  /// 20 us for 4 Mi elements that 4096 blocks of 128 did in 12).
  int tile_vectors = 256;
  // One tile per block, never a grid capped in waves of resident blocks that loop over tiles: on the H200
  // that lost at 2^28 f32 add (4338 vs 4127 GB/s with 8 waves, probe 2; 4365 vs at best 4182, probe 1).
  // Only grids past 2^31 - 1 blocks loop (launch_shape.cuh), and launches with side reductions
  // (`reduction_blocks_per_sm`, `monotone_reduction_blocks_per_sm`, `overwrite_blocks_per_sm`).

  /// Blocks per SM at most in a launch with side reductions (reduce.cuh) whose targets are all
  /// `ew::reduce_into` ones; its blocks then loop over tiles; 0: one tile per block, as in every other
  /// launch. Every block ends with a block-wide reduction (warp shuffles, two barriers, thread 0's loop over
  /// the warps' words) during which it has no load in flight, and with one tile a block that end was paid
  /// 262,144 times at 2^28 f32: the fused FP8 quantize with amax ran at 0.61 (f32) and 0.53 (bf16) of the
  /// plain cast, about 0.7 ns per block, whether or not its atomic was sent (docs/PERFORMANCE.md, change
  /// 9b). 32 a SM (change 40) paid it 62 times less. 16 a SM lost to 32 by 1 to 3% at 2^24 elements (f32
  /// and bf16) and at 2^26 (bf16), and tied it at 2^20, at 2^28 and for f32 at 2^26 (change 47: row
  /// `ew_fused`, then at 16, against `ew_fused_cap32`, H100, 2026-12-05, two runs). A policy
  /// (`ew::elementwise<Policy>`) may set another.
  int reduction_blocks_per_sm = 32;
  /// `reduction_blocks_per_sm` for a launch whose targets are all `ew::reduce_into` ones of `max`, `min` or
  /// `amax` (a block whose result does not raise the target sends no atomic). -1, the default: ew's choice
  /// for the device, also under a user's policy (`with_device_choices`): 0 (one tile a block) on a device
  /// with less memory bandwidth an SM than `reduction_cap_min_gbps_per_sm`, `reduction_blocks_per_sm`
  /// elsewhere. A float sum keeps `reduction_blocks_per_sm` everywhere: one tile a block sends one atomic
  /// add a block to one address, and on the H100 that ran a sum alone at 0.61 to 0.90 of the capped grid
  /// from 2^24 (f32 and bf16; change 61, docs/PERFORMANCE.md).
  int monotone_reduction_blocks_per_sm = -1;
  /// `reduction_blocks_per_sm` for a launch with an `ew::reduce_overwrite` target, whose blocks also fence
  /// and take a ticket at their end: 16 a SM (2,112 blocks on the H200, about one wave of the fused
  /// quantize's 128-thread blocks) beat 32 by 1 to 9% from 2^24 to 2^28 elements (3% behind for bf16 at
  /// 2^20) and by up to 13% for an amax alone (probe 19, H200, 2026-12-05), and by 5 to 15% at 2^24 with
  /// change 46's single word (1% behind at 2^26 and 2^28; change 47, H100, 2026-12-05). The FP8
  /// cast-transpose's tile launch (4,096 tiles at [8192, 8192], 4 resident blocks an SM) ran within 1% of
  /// this cap at one tile a block (32 a SM) and at one or two waves of resident blocks
  /// (`reduction_waves`; H100, 2026-12-07, docs/PERFORMANCE.md eighteenth session).
  int overwrite_blocks_per_sm = 16;
  /// When above 0, a launch with side reductions runs at most this many whole waves of its kernel's
  /// resident blocks (the occupancy at the launch's block size and shared memory, queried once per device
  /// for each kernel) in place of the three caps above: blocks that loop over equal shares of the tiles
  /// finish together, and a grid of whole waves leaves no last wave that holds only part of the SMs' slots.
  /// The fused FP8 quantize with an overwrite target holds 37 or 38 registers a thread (CUDA 13.0, sm_90), 12
  /// resident blocks of 128 threads an SM, so 32 a SM is 2.67 waves on the H200. 0: not used. One whole wave
  /// tied 16 a SM with an overwrite target (probe 19, H200; change 47, H100).
  int reduction_waves = 0;

  /// Launch with programmatic stream serialization (sm_90+): back-to-back kernels overlap one's launch with
  /// the other's tail, and the kernel waits (`griddepcontrol.wait`) before it touches memory, so results
  /// cannot change. Probe 4, f32 add in graph replay: 2^16 1.36 -> 1.11 us, 2^18 1.64 -> 1.35 us (cub:
  /// 1.38, 1.64); at 2^22 and past it, no change beyond noise.
  bool programmatic_launch = true;
};

/// The most blocks a launch with an `ew::reduce_overwrite` target may have: the workspace
/// (`ew::reduction_workspace`) holds one partial result per block, 8 bytes each (64 KiB). A launch of more
/// blocks loops over tiles. 8192 is 62 blocks per SM on the H200 (132 SMs) and 55 on a B200 (148), above
/// `launch_policy::overwrite_blocks_per_sm`'s 16.
inline constexpr unsigned reduction_workspace_blocks = 8192;

/// Whether a programmatic launch of `blocks` blocks on a device of `sm_count` SMs triggers its dependent
/// launch early (as soon as all its blocks have started) rather than implicitly, as its blocks exit. Early
/// only for grids of at most one block per SM. Measured on the H200 (2026-12-01, CUDA-graph replay of 51
/// launches, add and relu on f32, f16 and f64 from 2^16 to 2^22; docs/PERFORMANCE.md, change 5): with
/// grids of 32 to 128 blocks the early trigger took 0.93 to 0.95x the time of the implicit one (f32 add
/// 2^16 0.931 against 0.968 us, f16 add 2^18 1.055 against 1.111), but from 256 blocks up it cost 4 to 24%
/// (f16 add 2^20, 512 blocks: 1.887 against 1.673 us; f32 relu 2^20 2.002 against 1.786): the next
/// kernel's early blocks then take SM slots that this one's blocks still need.
constexpr bool early_trigger(std::size_t blocks, int sm_count) {
  return blocks <= static_cast<std::size_t>(sm_count);
}

/// Policy for a device of compute capability `cc` (major * 10 + minor, e.g. 90 for sm_90). One policy for
/// every architecture today: the sweeps that chose it ran on sm_90 only (the H200; the last, `ew_tune
/// --op=all --type=all` at 2^26 on 2026-12-01, found no shape beating it by more than the spread except f64
/// scale_bias, +0.8%), and every other architecture falls back to the same values, with programmatic launch
/// off below sm_90. A new row goes here, with its measurement, when another architecture is tuned; a user
/// can tune their own GPU without editing ew (`ew_tune --emit-header`, policy.cuh).
constexpr launch_policy policy_for_cc(int cc) {
  launch_policy p{};
  p.programmatic_launch = cc >= 90;
  return p;
}

/// Memory bandwidth an SM (GB/s) from which a launch with only monotone `ew::reduce_into` targets (`max`,
/// `min`, `amax`) caps its grid at `launch_policy::reduction_blocks_per_sm` blocks an SM; below it the
/// launch takes one tile a block, as every launch without side reductions does. Both cards are sm_90 with
/// 132 SMs, so the capability cannot tell them apart, and their best grids differ: on the H100 SXM (3352
/// GB/s from its clock and bus, 25.4 an SM) one tile a block ran the fused FP8 quantize with amax at
/// 0.976-0.997 of the plain cast from 2^26 elements where 32 blocks an SM ran it at 0.955-0.962, and an
/// amax alone 1.5-3.6% faster from 2^24 (f32 and bf16; change 61, and the sixth, seventh and tenth
/// sessions, docs/PERFORMANCE.md); on the H200 (4.8 TB/s, about 36 an SM) 32 blocks an SM led one tile a
/// block by 1.5 to 8.5% from 2^24 (eighth session). A block's end (its reduction, with no load in flight)
/// costs about the same time on both, against less time per tile where each SM has more bandwidth; the
/// line sits between the two cards measured.
inline constexpr int reduction_cap_min_gbps_per_sm = 30;

/// `launch` with the choices it leaves to ew (`monotone_reduction_blocks_per_sm == -1`) made for a device of
/// `sm_count` SMs and `memory_gbps` of memory bandwidth: one tile a block for launches with only monotone
/// `ew::reduce_into` targets where the bandwidth an SM is under `reduction_cap_min_gbps_per_sm` (unknown
/// bandwidth or SM count, 0, keeps `reduction_blocks_per_sm`). Unmeasured cards follow the same line: an
/// A100 or an H100 PCIe (under 20 GB/s an SM) takes one tile a block; under MIG the SM count is the
/// instance's and the bandwidth the card's, so an instance keeps the cap.
constexpr launch_policy with_device_choices(launch_policy launch, int sm_count, int memory_gbps) {
  if (launch.monotone_reduction_blocks_per_sm == -1 && memory_gbps > 0 && sm_count > 0 &&
      static_cast<long long>(memory_gbps) <
          static_cast<long long>(reduction_cap_min_gbps_per_sm) * sm_count) {
    launch.monotone_reduction_blocks_per_sm = 0;
  }
  return launch;
}

/// ew's policy for a device: `policy_for_cc(cc)` with `with_device_choices`.
constexpr launch_policy policy_for_device(int cc, int sm_count, int memory_gbps) {
  return with_device_choices(policy_for_cc(cc), sm_count, memory_gbps);
}

}  // namespace tuning
}  // namespace ew
