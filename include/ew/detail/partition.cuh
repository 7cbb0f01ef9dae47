// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The split of `[0, n)` into a scalar head, a vectorized body and a scalar tail, and the grid-stride
/// schedule that says which thread handles which element. Both are plain `__host__ __device__` arithmetic:
/// the kernel runs exactly this code, and the host tests run it for every thread of a simulated grid to
/// prove that each element is handled once and every vector access is aligned.

#include <cstddef>
#include <cstdint>

#include "../functor.cuh"

namespace ew {
namespace detail {

/// Sentinel from `vector_head`: the pointers cannot all be vector-aligned at the same element index.
inline constexpr int no_vector_path = -1;

/// Address, element size and element alignment of one pointer argument (input or output). The alignment is
/// `alignof` the element type, which can be less than its size (`float3`: 12 and 4; a packed 16-byte struct:
/// 16 and 4); it defaults to the size. `single` marks the one element a scalar operand (`ew::scalar`)
/// reads, rather than an array of the launch's size: the checks take it as one element, never in place.
struct pointer_info {
  std::uintptr_t address;
  std::size_t element_size;
  std::size_t alignment = element_size;
  bool single = false;
};

/// Number of leading elements to handle one by one so that, from there on, every pointer is aligned to
/// `vec * element_size` bytes (the size of its vector access). Returns `no_vector_path` when no such
/// count exists: the pointers sit at different element offsets within their vectors, or one of them is not
/// even aligned to its element size. With all accesses `vec` elements wide the condition is simply that
/// every pointer has the same element offset modulo `vec`. Pointers not aligned to their element size (an
/// under-aligned struct, allowed by its `alignof`) take the scalar path.
EW_HD int vector_head(const pointer_info* ptrs, int count, int vec) {
  int misalignment = -1;
  for (int k = 0; k < count; ++k) {
    const std::uintptr_t size = ptrs[k].element_size;
    if (ptrs[k].address % size != 0) return no_vector_path;
    const int m = static_cast<int>((ptrs[k].address / size) % static_cast<std::uintptr_t>(vec));
    if (misalignment < 0) {
      misalignment = m;
    } else if (m != misalignment) {
      return no_vector_path;
    }
  }
  return misalignment <= 0 ? 0 : vec - misalignment;
}

/// `[0, n)` as a vectorized body of `tiles` whole tiles, each `tile_vectors` vectors of `vec` elements,
/// starting at element `head`, and scalar elements around it: the head `[0, head)` and the tail
/// `[body_end(), n)`. `head < vec`; the tail is shorter than one tile plus one vector.
///
/// Only whole tiles are vectorized so that the kernel has a single vector body, in which every thread
/// takes exactly its share of every tile it visits: no predicated copy of that body for a last, partial
/// tile. The elements of that partial tile go one per thread of the grid, like the head, and `plan_launch`
/// (launch_shape.cuh) sizes the grid so that each thread gets at most one of them when it can.
struct partition {
  std::size_t n;
  std::size_t head;
  std::size_t tiles;
  std::size_t tile_vectors;
  int vec;

  /// Vectors in the body.
  EW_HD std::size_t vectors() const { return tiles * tile_vectors; }
  /// First element of the tail.
  EW_HD std::size_t body_end() const { return head + vectors() * static_cast<std::size_t>(vec); }
  /// Scalar elements (head plus tail).
  EW_HD std::size_t scalars() const { return n - vectors() * static_cast<std::size_t>(vec); }
  /// Element index of scalar element `j < scalars()`: the head's first, then the tail's.
  EW_HD std::size_t scalar_element(std::size_t j) const {
    return j < head ? j : j + vectors() * static_cast<std::size_t>(vec);
  }
};

/// The partition of `[0, n)` into whole tiles of `tile_vectors` vectors of `vec` elements after a head of
/// `head` elements (clipped to n). `tile_vectors >= 1`.
EW_HD partition make_partition(std::size_t n, std::size_t head, int vec, std::size_t tile_vectors) {
  head = head < n ? head : n;
  const std::size_t vectors = (n - head) / static_cast<std::size_t>(vec);
  return partition{n, head, vectors / tile_vectors, tile_vectors, vec};
}

/// Shape of one launch: the grid. A block's tile is `block_threads * per_thread` consecutive vectors
/// (`per_thread` is the kernel's compile-time unroll), so `partition::tile_vectors` must equal that product.
struct launch_shape {
  std::size_t blocks;
  std::size_t block_threads;
  /// Under programmatic launch, let the next kernel in the stream start launching as soon as every block of
  /// this one has started (`cudaTriggerProgrammaticLaunchCompletion` at the top), rather than as its blocks
  /// exit. Chosen by `launch_kernel` (dispatch.cuh) with `tuning::early_trigger`.
  bool early_trigger = false;
  /// Every element is in the vectorized body's whole tiles (no head, no tail), one tile a block, and the
  /// element indices fit 32 bits: the kernel takes its whole-tile path (`whole_tile_thread`, kernel.cuh).
  /// Set by `plan_launch` (launch_shape.cuh); cleared where a launch with side reductions caps the grid
  /// (`side_reduction_shape`, side_reduction.cuh).
  bool whole_tiles = false;
};

/// Walks the vector tiles of thread `thread` of block `block` in a launch of shape `s` over partition `p`.
///
/// Blocks take whole tiles grid-stride: block `b` takes tiles `b, b + blocks, ...`. In a tile, thread `t`
/// takes vectors `t, t + block_threads, ..., t + (PerThread - 1) * block_threads` (offsets from the tile
/// start): at each step a warp touches consecutive vectors, so accesses coalesce, and the thread issues all
/// its loads before it needs the first. The visitor receives `v.vectors(first, stride)` for the
/// `PerThread` vectors `first + u * stride`, `u < PerThread`.
///
/// Why tiles of consecutive vectors per block rather than a thread-level grid stride: on the H200 a grid
/// of one-tile blocks streaming consecutive memory ran f32 add at 2^28 elements 5% faster than the same
/// kernel striding threads across the whole array (4365 vs 4160 GB/s; docs/PERFORMANCE.md, probe 1).
#pragma nv_exec_check_disable
template <class Visitor>
EW_HD void tile_schedule(const partition& p, const launch_shape& s, std::size_t block, std::size_t thread,
                         Visitor& v) {
  for (std::size_t t = block; t < p.tiles; t += s.blocks)
    v.vectors(t * p.tile_vectors + thread, s.block_threads);
}

/// Walks the scalar elements (the head, then the tail) of thread `thread` of block `block`: one per thread
/// of the whole grid, grid-stride. The visitor receives `v.scalar(i)` for element `i`. The kernel runs it
/// after `tile_schedule`, so that a thread's vector loads are not queued behind its scalar ones. Neither
/// divides: the host did (`make_partition`), and 64-bit division is a long instruction sequence on the GPU.
#pragma nv_exec_check_disable
template <class Visitor>
EW_HD void scalar_schedule(const partition& p, const launch_shape& s, std::size_t block, std::size_t thread,
                           Visitor& v) {
  const std::size_t threads = s.blocks * s.block_threads;
  const std::size_t scalars = p.scalars();
  for (std::size_t j = block * s.block_threads + thread; j < scalars; j += threads)
    v.scalar(p.scalar_element(j));
}

}  // namespace detail
}  // namespace ew
