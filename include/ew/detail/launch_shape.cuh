// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The whole launch-size decision: the run-time launch arguments (device, its facts, the policy) and, from
/// them, the partition into tiles and the grid (`plan_launch`, plain arithmetic the host tests run). The
/// policy's values are in tuning.cuh.

#include <cstddef>

#include <cuda_runtime_api.h>
#include <cuda/cmath>

#include "device_cache.cuh"
#include "last_error.cuh"
#include "partition.cuh"
#include "tuning.cuh"

namespace ew {
namespace detail {

/// A launch's partition and grid.
struct launch_plan {
  partition part;
  launch_shape shape;
};

/// The plan for `n` elements in vectors of `vec` after a scalar head of `head` elements, with `per_thread`
/// vectors per thread per tile (the kernel's unroll). The block size is the policy's, or
/// `tile_vectors / per_thread` (at least a warp), clamped to `[1, max_block_threads]`: the kernels are
/// compiled for at most that many threads (`__launch_bounds__`), and a launch of more would fail. One whole
/// tile per block, and enough blocks besides for one scalar element per thread (a grid of at least one
/// block): a thread with several scalar elements would take one memory round trip for each. A launch of
/// whole tiles only, one a block, below 2^32 elements, is marked `whole_tiles`.
EW_HD launch_plan plan_launch(std::size_t n, std::size_t head, int vec, int per_thread,
                              const tuning::launch_policy& policy) {
  // Written out: CCCL 3.0.1, the toolkit's, has no public <cuda/std/algorithm> (min, max, clamp).
  const int derived = policy.tile_vectors / per_thread;
  const int wanted = policy.block_threads > 0 ? policy.block_threads : (derived < 32 ? 32 : derived);
  const std::size_t bt =
      static_cast<std::size_t>(wanted > tuning::max_block_threads ? tuning::max_block_threads : wanted);
  const partition p = make_partition(n, head, vec, bt * static_cast<std::size_t>(per_thread));
  const std::size_t scalar_blocks = cuda::ceil_div(p.scalars(), bt);
  std::size_t blocks = p.tiles > scalar_blocks ? p.tiles : scalar_blocks;
  // The grid's x dimension holds 2^31 - 1 blocks; past that (2^31 blocks x 256 threads x 16 bytes =
  // 8 TiB of one array) blocks loop over tiles.
  if (blocks > 0x7fffffffu) blocks = 0x7fffffffu;
  launch_shape s{blocks < 1 ? 1 : blocks, bt};
  s.whole_tiles = vec > 1 && p.tiles > 0 && p.scalars() == 0 && blocks == p.tiles && n <= 0xffffffffu;
  return launch_plan{p, s};
}

/// Elements in flight per thread on the scalar path of a kernel whose vectorized path has `Unroll` vectors
/// of `Vec`: as many as the vectorized path has (capped at 16), so that a launch whose pointers cannot be
/// aligned together still keeps that many loads in flight.
template <int Vec, int Unroll>
inline constexpr int scalar_unroll = Unroll* Vec < 16 ? Unroll* Vec : 16;

/// The plan of a launch of the kernel with `Vec`-wide vectors and `Unroll` vectors per thread (kernel.cuh):
/// its vectorized path after a head of `head` elements, or with `head == no_vector_path` its scalar path,
/// whose tiles keep the vectorized path's size in elements, so that blocks get the same amount of work.
template <int Vec, int Unroll>
EW_HD launch_plan plan_paths(std::size_t n, int head, tuning::launch_policy policy) {
  if (head != no_vector_path) return plan_launch(n, static_cast<std::size_t>(head), Vec, Unroll, policy);
  policy.tile_vectors *= Vec;
  return plan_launch(n, 0, 1, scalar_unroll<Vec, Unroll>, policy);
}

/// Run-time launch arguments shared by every kernel shape.
struct launch_args {
  int device;
  device_facts facts;
  tuning::launch_policy policy;

  /// Takes a user's policy's `launch` in place of ew's, with the choices it leaves to ew made for this
  /// device (`tuning::with_device_choices`).
  void use_policy(const tuning::launch_policy& launch) {
    policy = tuning::with_device_choices(launch, facts.sm_count, facts.memory_gbps);
  }
};

/// Resolves the current device, its facts and its launch policy.
inline cudaError_t current_launch_args(launch_args& args) {
  cudaError_t err = cudaGetDevice(&args.device);
  if (err == cudaSuccess) err = query_device_facts(args.device, args.facts);
  if (err != cudaSuccess) return fail(err, cudaGetErrorString(err));
  args.policy = tuning::policy_for_device(args.facts.cc, args.facts.sm_count, args.facts.memory_gbps);
  return cudaSuccess;
}

}  // namespace detail
}  // namespace ew
