// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The split of `[0, n)` into a scalar head, a vectorized body and a scalar tail, and the grid-stride
/// schedule that says which thread handles which element. Both are plain `__host__ __device__` arithmetic:
/// the kernel runs exactly this code, and the host tests run it for every thread of a simulated grid to
/// prove that each element is handled once and every vector access is aligned.

#include <cstddef>
#include <cstdint>

#include "config.cuh"

namespace ew {
namespace detail {

/// Sentinel from `vector_head`: the pointers cannot all be vector-aligned at the same element index.
inline constexpr int no_vector_path = -1;

/// Address and element size of one pointer argument (input or output).
struct pointer_info {
  std::uintptr_t address;
  std::size_t element_size;
};

/// Number of leading elements to handle one by one so that, from there on, every pointer is aligned to
/// `vec * element_size` bytes (the size of its vector access). Returns `no_vector_path` when no such
/// count exists: the pointers sit at different element offsets within their vectors, or one of them is not
/// even aligned to its element size. With all accesses `vec` elements wide the condition is simply that
/// every pointer has the same element offset modulo `vec`.
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

/// Walks the work of one thread of a grid-stride launch with `threads` threads in all.
///
/// The body is cut into tiles of `threads * Unroll` vectors. In a tile, thread `t` takes the vectors
/// `t, t + threads, ..., t + (Unroll - 1) * threads` (offsets from the tile start): at each of the `Unroll`
/// steps a warp touches consecutive vectors, so accesses coalesce, and the thread can issue all `Unroll`
/// loads before it needs the first. The last, partial tile is cut the same way with fewer steps. Head and
/// tail elements go one per thread.
///
/// The visitor receives `v.scalar(i)` for a single element and `v.vectors(first, stride, count)` for the
/// vectors `first + u * stride`, `u < count` (`count == Unroll` in full tiles, fewer in the last).
#pragma nv_exec_check_disable
template <int Unroll, class Visitor>
EW_HD void grid_stride_schedule(const partition& p, std::size_t thread, std::size_t threads, Visitor& v) {
  for (std::size_t i = thread; i < p.head; i += threads) v.scalar(i);

  const std::size_t tile = threads * Unroll;
  const std::size_t full_end = p.vectors - p.vectors % tile;
  std::size_t first = thread;
  for (; first < full_end; first += tile) v.vectors(first, threads, Unroll);
  if (first < p.vectors) {
    const std::size_t left = (p.vectors - first + threads - 1) / threads;
    v.vectors(first, threads, static_cast<int>(left < Unroll ? left : Unroll));
  }

  for (std::size_t i = p.body_end() + thread; i < p.n; i += threads) v.scalar(i);
}

}  // namespace detail
}  // namespace ew
