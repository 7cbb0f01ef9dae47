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
/// 16 and 4); it defaults to the size.
struct pointer_info {
  std::uintptr_t address;
  std::size_t element_size;
  std::size_t alignment = element_size;
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

/// `[0, n)` as head `[0, head)`, body of `vectors` vectors of `vec` elements starting at `head`, and tail
/// `[body_end(), n)`. `head < vec` and the tail is shorter than one vector.
struct partition {
  std::size_t n;
  std::size_t head;
  std::size_t vectors;
  int vec;

  /// First element of the tail.
  EW_HD std::size_t body_end() const { return head + vectors * static_cast<std::size_t>(vec); }
  /// Scalar elements (head plus tail).
  EW_HD std::size_t scalars() const { return n - vectors * static_cast<std::size_t>(vec); }
};

/// The partition of `[0, n)` for vectors of `vec` elements after a head of `head` elements (clipped to n).
EW_HD partition make_partition(std::size_t n, std::size_t head, int vec) {
  head = head < n ? head : n;
  return partition{n, head, (n - head) / static_cast<std::size_t>(vec), vec};
}

/// Shape of one launch: the grid, and how many vectors each thread takes per tile (the tile of a block is
/// `block_threads * per_thread` consecutive vectors).
struct launch_shape {
  std::size_t blocks;
  std::size_t block_threads;
  int per_thread;
};

/// Walks the work of thread `thread` of block `block` in a launch of shape `s` over partition `p`.
///
/// The body is cut into tiles of `block_threads * per_thread` consecutive vectors, and blocks take tiles
/// grid-stride: block `b` takes tiles `b, b + blocks, ...`. In a tile, thread `t` takes vectors
/// `t, t + block_threads, ..., t + (per_thread - 1) * block_threads` (offsets from the tile start): at each
/// step a warp touches consecutive vectors, so accesses coalesce, and the thread issues all its loads
/// before it needs the first. The last, partial tile goes to the block whose turn it is, cut the same way
/// with fewer steps. Head and tail elements go one per thread of the whole grid.
///
/// The visitor receives `v.scalar(i)` for one element and `v.vectors(first, stride, count)` for the
/// vectors `first + u * stride`, `u < count <= per_thread`.
///
/// Why tiles of consecutive vectors per block rather than a thread-level grid stride: on the H200 a grid
/// of one-tile blocks streaming consecutive memory ran f32 add at 2^28 elements 5% faster than the same
/// kernel striding threads across the whole array (4365 vs 4160 GB/s; docs/PERFORMANCE.md, probe 1).
#pragma nv_exec_check_disable
template <class Visitor>
EW_HD void block_tile_schedule(const partition& p, const launch_shape& s, std::size_t block,
                               std::size_t thread, Visitor& v) {
  const std::size_t threads = s.blocks * s.block_threads;
  const std::size_t global = block * s.block_threads + thread;
  for (std::size_t i = global; i < p.head; i += threads) v.scalar(i);

  const std::size_t tile = s.block_threads * static_cast<std::size_t>(s.per_thread);
  const std::size_t full_tiles = p.vectors / tile;
  for (std::size_t t = block; t < full_tiles; t += s.blocks)
    v.vectors(t * tile + thread, s.block_threads, s.per_thread);
  const std::size_t rest = p.vectors - full_tiles * tile;
  if (rest > thread && block == full_tiles % s.blocks) {
    const std::size_t count = (rest - thread + s.block_threads - 1) / s.block_threads;
    v.vectors(full_tiles * tile + thread, s.block_threads, static_cast<int>(count));
  }

  for (std::size_t i = p.body_end() + global; i < p.n; i += threads) v.scalar(i);
}

}  // namespace detail
}  // namespace ew
