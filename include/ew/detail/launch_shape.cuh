// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The whole launch-size decision: the run-time launch arguments (device, its facts, the policy), the
/// block size, vectors per thread and grid for a partition (`plan_launch`, plain arithmetic the host tests
/// run), and the occupancy lookup a wave-capped policy needs. The policy's values are in tuning.cuh.

#include <cstddef>

#include <cuda_runtime_api.h>
#include <cuda/cmath>

#include "device_cache.cuh"
#include "last_error.cuh"
#include "partition.cuh"
#include "tuning.cuh"

namespace ew {
namespace detail {

/// The launch shape for partition `p`: `unroll` vectors per thread per tile (fewer if the policy pins it),
/// the policy's block size (or `tile_vectors / per_thread`, at least a warp), one tile per block unless the
/// policy's `waves` caps the grid at that many times `resident_blocks` (SMs x occupancy), in which case
/// blocks loop over tiles. Block sizes are clamped to `[1, max_block_threads]`: the kernels are compiled
/// for at most that many threads (`__launch_bounds__`), and a launch of more would fail.
EW_HD launch_shape plan_launch(const partition& p, std::size_t resident_blocks, int unroll,
                               const tuning::launch_policy& policy) {
  const int per_thread = policy.per_thread > 0 && policy.per_thread < unroll ? policy.per_thread : unroll;
  // Written out: CCCL 3.0.1, the toolkit's, has no public <cuda/std/algorithm> (min, max, clamp).
  const int derived = policy.tile_vectors / per_thread;
  const int wanted = policy.block_threads > 0 ? policy.block_threads : (derived < 32 ? 32 : derived);
  const std::size_t bt =
      static_cast<std::size_t>(wanted > tuning::max_block_threads ? tuning::max_block_threads : wanted);
  const std::size_t units = p.vectors > 0 ? p.vectors : p.scalars();
  const std::size_t tile = bt * static_cast<std::size_t>(per_thread);
  std::size_t blocks = cuda::ceil_div(units, tile);
  if (policy.waves > 0 && blocks > resident_blocks * static_cast<std::size_t>(policy.waves)) {
    blocks = resident_blocks * static_cast<std::size_t>(policy.waves);
  }
  // The grid's x dimension holds 2^31 - 1 blocks; past that (2^31 blocks x 256 threads x 16 bytes =
  // 8 TiB of one array) the block loop covers the rest.
  if (blocks > 0x7fffffffu) blocks = 0x7fffffffu;
  return launch_shape{blocks < 1 ? 1 : blocks, bt, per_thread};
}

/// Run-time launch arguments shared by every kernel shape.
struct launch_args {
  int device;
  device_facts facts;
  tuning::launch_policy policy;
};

/// Resolves the current device, its facts and its launch policy.
inline cudaError_t current_launch_args(launch_args& args) {
  cudaError_t err = cudaGetDevice(&args.device);
  if (err == cudaSuccess) err = query_device_facts(args.device, args.facts);
  if (err != cudaSuccess) return fail(err, cudaGetErrorString(err));
  args.policy = tuning::policy_for_cc(args.facts.cc);
  return cudaSuccess;
}

/// The shape of a launch of `Kernel` (at most `Unroll` vectors per thread) over `p` under `args.policy`.
/// Resident blocks matter only when the policy caps the grid in waves (the default policy does not:
/// tuning.cuh says why); then the occupancy query is cached per device and kernel (device_cache.cuh).
template <auto Kernel, int Unroll>
cudaError_t choose_launch_shape(const launch_args& args, const partition& p, launch_shape& shape) {
  std::size_t resident_blocks = 0;
  if (args.policy.waves > 0) {
    const int block_threads = static_cast<int>(plan_launch(p, 1, Unroll, args.policy).block_threads);
    int blocks_per_sm = 0;
    const cudaError_t occ = query_occupancy<Kernel>(args.device, block_threads, blocks_per_sm);
    if (occ != cudaSuccess) return fail(occ, cudaGetErrorString(occ));
    resident_blocks = static_cast<std::size_t>(args.facts.sm_count) * blocks_per_sm;
  }
  shape = plan_launch(p, resident_blocks, Unroll, args.policy);
  return cudaSuccess;
}

}  // namespace detail
}  // namespace ew
