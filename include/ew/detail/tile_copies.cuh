// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The tile kernel's asynchronous copies (tile_kernel.cuh; a `direct_reads` launch's full tiles): how many
/// buffers, where each input's tile lies in one, whether a launch takes them (`plan_copies`), and one
/// thread's copies of a tile into a buffer (cp.async, `async_copy`), which the host tests run over
/// simulated blocks as they run the kernel's phases.

#include <cstddef>
#include <cstdint>

#include <cuda/std/tuple>
#include <cuda/std/utility>

#include "../functor.cuh"
#include "config.cuh"
#include "tile_layout.cuh"
#include "tile_slots.cuh"
#include "tile_stage.cuh"

namespace ew {
namespace detail {

/// Whether a tile operand is an array (`tile_array`), not the index, coordinates or a constant.
template <class T>
inline constexpr bool is_tile_array_v = false;
template <class T, int R>
inline constexpr bool is_tile_array_v<tile_array<T, R>> = true;

/// The asynchronous copies of a tile block (`Vec` elements a slot, tiles of `Side` by `Side` elements,
/// `Threads` threads, rank `R`) with `Stages` buffers (`nd_kernel_shapes::tile_async_stages`; 0: none)
/// and inputs `Ins` (`tile_thread`'s).
template <int Vec, int Side, int Threads, int R, int Stages, class Ins>
struct tile_copies {
  static constexpr int side = Side;
  static constexpr std::size_t num_in = cuda::std::tuple_size<Ins>::value;
  template <std::size_t K>
  using in_t = typename cuda::std::tuple_element_t<K, Ins>::value_type;

  /// Buffers of asynchronous copies (`nd_kernel_shapes::tile_async_stages`), and for input `K` the bytes
  /// of its tile in one (an array's `side` rows of `side` elements; none for the index or a constant), its
  /// offset in a buffer and a buffer's bytes.
  static constexpr int copy_stages = Stages;
  static constexpr unsigned tile_elements = static_cast<unsigned>(side) * static_cast<unsigned>(side);
  template <std::size_t K>
  static constexpr unsigned copied_bytes = is_tile_array_v<cuda::std::tuple_element_t<K, Ins>>
                                               ? sizeof(in_t<K>) * tile_elements
                                               : 0u;
  template <std::size_t... J>
  static constexpr unsigned sum_copied_bytes(cuda::std::index_sequence<J...>) {
    return (0u + ... + copied_bytes<J>);
  }
  template <std::size_t K>
  static constexpr unsigned copied_offset = sum_copied_bytes(cuda::std::make_index_sequence<K>{});
  static constexpr unsigned copied_stage_bytes = copied_offset<num_in>;
  /// Whether every array input's vectors are pieces that cp.async copies (4, 8 or 16 bytes).
  template <std::size_t... J>
  static constexpr bool copies_pieces(cuda::std::index_sequence<J...>) {
    return ((!is_tile_array_v<cuda::std::tuple_element_t<J, Ins>> || sizeof(in_t<J>) * Vec == 4 ||
             sizeof(in_t<J>) * Vec == 8 || sizeof(in_t<J>) * Vec == 16) &&
            ...);
  }

  /// The dynamic shared memory of a launch of plan `p` whose staged tiles take `smem` bytes, with the
  /// buffers of asynchronous copies where the plan reads directly (`tile_plan::direct_reads`), the shapes
  /// ask for buffers and they fit `max_smem` (0 where the kernel's image has no cp.async:
  /// `query_async_smem`); `p.async_smem` says where they begin, -1 without them.
  static std::size_t plan_copies(tile_plan<R>& p, std::size_t smem, std::size_t max_smem) {
    p.async_smem = -1;
    if constexpr (copy_stages > 0 && copied_stage_bytes > 0 &&
                  copies_pieces(cuda::std::make_index_sequence<num_in>{})) {
      const std::size_t base = (smem + 15) / 16 * 16;
      const std::size_t total = base + static_cast<std::size_t>(copy_stages) * copied_stage_bytes;
      if (p.direct_reads && total <= max_smem) {
        p.async_smem = static_cast<int>(base);
        return total;
      }
    }
    return smem;
  }

  /// Tile `q`'s copies into `buffer` (`tile_thread::copy`): each array input's `side` rows of `side`
  /// elements along `a` at its offset in the buffer, one vector a copy, `thread` copying the vectors of
  /// its own compute slots (`tile_slots::slot_of` on the full tile's path), which it alone reads back.
  template <std::size_t... I>
  EW_HD static void copy_all(const Ins& ins, const tile_place<R>& q, int rank, unsigned char* buffer,
                             unsigned thread, cuda::std::index_sequence<I...>) {
    (copy_one(cuda::std::get<I>(ins), q, rank, buffer + copied_offset<I>, thread), ...);
  }

 private:
  using slots = tile_slots<Vec, Side, Threads, R>;
  template <class In>
  EW_HD static void copy_one(const In&, const tile_place<R>&, int, unsigned char*, unsigned) {}
  template <class T>
  EW_HD static void copy_one(const tile_array<const T, R>& in, const tile_place<R>& q, int rank,
                             unsigned char* to, unsigned thread) {
    constexpr unsigned piece = static_cast<unsigned>(sizeof(T)) * Vec;
    constexpr int rounds = slots::per_thread_slots;
    const T* first = in.ptr + slots::base_of(in, q.coord, q.a0, q.b0, rank);
    EW_DETAIL_UNROLL
    for (int k = 0; k < rounds; ++k) {
      const typename slots::compute_slot c =
          slots::template slot_of<tile_path::vector_full>(thread, k, side, side);
      if (c.active) {
        async_copy<piece>(to + (c.bl * side + c.al) * sizeof(T),
                          first + (static_cast<int>(c.bl) * static_cast<int>(in.b) + static_cast<int>(c.al)));
      }
    }
  }
};

}  // namespace detail
}  // namespace ew
