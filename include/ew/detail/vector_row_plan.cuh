// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// What a vector-row launch (vector_row_kernel.cuh) is given: its form, the plan of its vectors and rows
/// (made on the host by nd_paths.cuh's `make_vector_row_plan`), and the sets of broadcast arrays its bodies
/// are compiled for.

#include <cstddef>
#include <cstdint>

#include <cuda/std/tuple>
#include <cuda/std/utility>

#include "config.cuh"
#include "fast_divmod.cuh"
#include "gather.cuh"

namespace ew {
namespace detail {

/// The four bodies of the vector-row kernel, each its own kernel (the host picks it from the plan): a
/// run-time branch between them cost the launches that did not take it about 2% (probe 14, H200,
/// 2026-12-04, docs/PERFORMANCE.md).
enum class vector_row_form : unsigned char {
  /// Rows of whole vectors into dense outputs, every input along the rows from a whole vector: one vector
  /// load or broadcast element an input, one vector store an output.
  whole,
  /// Rows that are not whole vectors (or padded outputs whose rows are not), over the outputs' memory: an
  /// input along the rows from the two whole vectors around it where it starts off one, and the vectors
  /// that end in the padding, the next row or past the last element element by element.
  split,
  /// Short dense rows that are not whole vectors: every vector from its row and the next.
  wrap,
  /// Rows of whole vectors into padded outputs, over the rows' elements: each vector stored at its row's
  /// pitch in pieces of the rows' alignment.
  pitched,
};

/// The vectors of a vector-row launch over a coalesced shape of rank `last + 1` (`R` at most): `vectors`
/// output vectors in flat order, `row_vectors` of them a row; block `b` takes vectors `[b * Unroll *
/// threads, (b + 1) * Unroll * threads)`, thread `t` those `t` apart by `threads`. In the `split` and `wrap`
/// forms the flat index runs over the outputs' memory, `pitch` elements a row (`cols` where the outputs
/// are dense), the last `pitch - cols` of them padding that nothing reads or writes; a vector may end in
/// the padding or the next row, and the last one may be short (`vectors` rounds up).
template <int R>
struct vector_row_plan {
  vector_row_form form = vector_row_form::whole;
  /// A vector's row and its column in vectors (`whole`, `pitched`); a flat element's row and column, by
  /// `pitch` (`split`, `wrap`).
  fast_divmod row_vectors{1};
  /// Division of a row's index by the coalesced extent `d`, for `1 <= d < last`: the row's coordinates.
  fast_divmod extent[R] = {};
  int last = 0;
  std::uint32_t vectors = 0;
  std::uint32_t blocks = 0;
  /// Bit `i` set where input `i` is an array broadcast along the rows (its innermost stride 0).
  unsigned broadcast = 0;
  /// The rows' length, the outputs' row pitch (`cols` where they are dense), and the flat elements the
  /// outputs span (padding included).
  std::uint32_t cols = 0;
  std::uint32_t pitch = 0;
  std::uint32_t elements = 0;
  /// `pitched`: each vector is stored at `row * pitch + col` in pieces of `piece` elements (a power of two
  /// dividing `Vec` and `pitch`: the alignment every row's start has), each one aligned store; and whether
  /// every input along the rows starts each row on a whole vector (else each vector tests its address, as
  /// in the `split` form).
  std::uint32_t piece = 0;
  bool inputs_take_vectors = false;
};

/// Whether gather operand `X` is an array (`gather_input`) or the index (`gather_affine`).
template <class X>
inline constexpr bool is_gather_array_v = false;
template <class T, int R>
inline constexpr bool is_gather_array_v<gather_input<T, R>> = true;
template <class X>
inline constexpr bool is_gather_affine_v = false;
template <int R>
inline constexpr bool is_gather_affine_v<gather_affine<R>> = true;

/// The set of arrays among the operands `Ins`, a bit each.
template <class Ins, std::size_t... I>
constexpr unsigned gather_array_bits(cuda::std::index_sequence<I...>) {
  return ((is_gather_array_v<cuda::std::tuple_element_t<I, Ins>> ? 1u << I : 0u) | ... | 0u);
}

/// Subset `s` of the bits of `set`: bit `k` of `s` says whether `set`'s `k`-th lowest bit is in it.
constexpr unsigned subset_of(unsigned s, unsigned set) {
  unsigned r = 0;
  for (unsigned bit = 1, k = 0; bit != 0; bit <<= 1) {
    if ((set & bit) != 0) {
      if (((s >> k) & 1u) != 0) r |= bit;
      ++k;
    }
  }
  return r;
}
static_assert(subset_of(0b101u, 0b11010u) == 0b10010u && subset_of(0b11u, 0b11u) == 0b11u);

/// The coordinates of row `row` of plan `p` along the coalesced dimensions before the innermost; `Last`:
/// the innermost dimension, or 0 for `p.last`.
template <int Last, int R>
EW_HD void vector_row_coords(const vector_row_plan<R>& p, std::uint32_t row, std::uint32_t (&coord)[R]) {
  EW_DETAIL_UNROLL
  for (int d = R - 1; d >= 1; --d) {
    if (d < (Last > 0 ? Last : p.last)) {
      std::uint32_t next, c;
      p.extent[d].divmod(row, next, c);
      coord[d] = c;
      row = next;
    }
  }
  coord[0] = row;
}

/// The coordinates of the row after the one at `coord`: one carried in from the innermost of them, no
/// division (`vector_row_coords` of `row + 1` gives the same).
template <int Last, int R>
EW_HD void vector_row_next_coords(const vector_row_plan<R>& p, const std::uint32_t (&coord)[R],
                                  std::uint32_t (&next)[R]) {
  bool carry = true;
  EW_DETAIL_UNROLL
  for (int d = R - 1; d >= 1; --d) {
    if (d < (Last > 0 ? Last : p.last)) {
      const std::uint32_t c = coord[d] + (carry ? 1u : 0u);
      carry = c == p.extent[d].divisor;
      next[d] = carry ? 0u : c;
    }
  }
  next[0] = coord[0] + (carry ? 1u : 0u);
}

/// Operand `x`'s offset of the row at `coord` (arrays and the index; 0 for the rest).
template <int Last, int R, class X>
EW_HD std::uint32_t vector_row_offset(const vector_row_plan<R>& p, const X& x,
                                      const std::uint32_t (&coord)[R]) {
  std::uint32_t off = 0;
  if constexpr (is_gather_array_v<X> || is_gather_affine_v<X>) {
    EW_DETAIL_UNROLL
    for (int d = 0; d < R; ++d) {
      if (d < (Last > 0 ? Last : p.last)) off += coord[d] * x.map.stride[d];
    }
  }
  return off;
}

/// Element `i` (flat) of operand `x`, at column `col` of the row at its offset `off`: one element at a
/// time, where a vector is not one access.
template <class X>
EW_HD auto vector_row_element(const X& x, std::uint32_t i, std::uint32_t off, std::uint32_t col) {
  if constexpr (is_gather_array_v<X>) {
    return x.ptr[x.flat ? i : off + col * static_cast<std::uint32_t>(x.map.inner_stride)];
  } else if constexpr (is_gather_affine_v<X>) {
    return x.flat ? static_cast<std::int64_t>(i)
                  : static_cast<std::int64_t>(off) + static_cast<std::int64_t>(col) * x.map.inner_stride;
  } else {
    return x.element(static_cast<std::size_t>(i));
  }
}

}  // namespace detail
}  // namespace ew
