// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// What a thread of the vector-row kernel (vector_row_kernel.cuh) reads of each input for one vector:
/// `vector_row_inputs`, by the launch's form (`vector_row_form`, vector_row_plan.cuh) and by whether the
/// body is compiled for a known set of inputs broadcast along the rows. The loads that are not one
/// aligned access are vector_row_access.cuh's. `__host__ __device__`, for the host tests.

#include <cstddef>
#include <cstdint>

#include <cuda/std/tuple>
#include <cuda/std/type_traits>

#include "../functor.cuh"
#include "config.cuh"
#include "gather.cuh"
#include "vector_access.cuh"
#include "vector_row_access.cuh"
#include "vector_row_plan.cuh"

namespace ew {
namespace detail {

/// The inputs `Ins` (a tuple of gather operands and uniform 1-D operands) of a vector-row launch of plan
/// `p` and form `Form`, `Vec` elements a vector: input `K`'s share of a vector (`input`, and `wrapped` in
/// the `wrap` form) and element `j` of it (`element`).
template <int Vec, int R, class Ins, vector_row_form Form>
struct vector_row_inputs {
  static constexpr bool Split = Form == vector_row_form::split;
  static constexpr bool Wrap = Form == vector_row_form::wrap;
  static constexpr bool Pitched = Form == vector_row_form::pitched;
  template <std::size_t K>
  using in_t = typename cuda::std::tuple_element_t<K, Ins>::value_type;

  const vector_row_plan<R>& p;

  /// Input `K` of the vector at flat element `i` (row coordinates `coord`, column `col` in elements):
  /// with `Known`, the arrays in `Mask` are broadcast along the row and the others run along it.
  template <bool Known, unsigned Mask, int Last, std::size_t K, class X>
  EW_HD vector_row_value<in_t<K>, Vec> input(const X& x, std::uint32_t i, const std::uint32_t (&coord)[R],
                                             std::uint32_t col) const {
    vector_row_value<in_t<K>, Vec> r{};
    if constexpr (is_gather_array_v<X> || is_gather_affine_v<X>) {
      // At the outputs' flat index `i`: never in the `pitched` form (no input is laid out as padded
      // outputs' flat order), so that form compiles no test of it.
      const bool flat = !Pitched && x.flat;
      if constexpr (is_gather_array_v<X>) {
        const std::uint32_t off = vector_row_offset<Last>(p, x, coord);
        if constexpr (Known && ((Mask >> K) & 1u) != 0) {
          r.scalar = x.ptr[off];
        } else if (!Known && x.map.inner_stride == 0) {
          const in_t<K> v = x.ptr[off];
          EW_DETAIL_UNROLL
          for (int j = 0; j < Vec; ++j) r.w.elements.v[j] = v;
        } else {
          r.w = flat ? along<K>(x.ptr, i, p.elements) : along<K>(x.ptr + off, col, p.cols);
        }
      } else {
        std::int64_t first = static_cast<std::int64_t>(i), step = 1;
        if (!flat) {
          const std::uint32_t off = vector_row_offset<Last>(p, x, coord);
          step = x.map.inner_stride;
          first = static_cast<std::int64_t>(off) + static_cast<std::int64_t>(col) * step;
        }
        EW_DETAIL_UNROLL
        for (int j = 0; j < Vec; ++j) r.w.elements.v[j] = first + j * step;
      }
    } else {
      r.w = x.template vector<Vec>(static_cast<std::size_t>(i));
    }
    return r;
  }

  /// `Vec` elements of input `K` from element `at` of the run `[base, base + len)` (a row, or a flat
  /// array): one vector load where the run takes whole vectors (the `whole` form; the `pitched` one where
  /// the plan says so), else with a test of the address (`load_run_vector`): rows that start anywhere in a
  /// vector.
  template <std::size_t K>
  EW_HD vector_word<in_t<K>, Vec> along(const in_t<K>* base, std::uint32_t at, std::uint32_t len) const {
    if constexpr (Split || Wrap) {
      return load_run_vector<in_t<K>, Vec>(base, at, len);
    } else {
      if constexpr (Pitched) {
        if (!p.inputs_take_vectors) return load_run_vector<in_t<K>, Vec>(base, at, len);
      }
      (void)len;
      return load_vector<Vec>(base + at);
    }
  }

  /// `Wrap`: input `K` of the vector at flat element `i`, column `col` of the row at `coord`, whose
  /// elements from `p.cols - col` on are in the next row (at `next`): an array along the rows element by
  /// element, one broadcast along them its two rows' elements, the index by element; uniform operands and
  /// arrays laid out as the outputs as in the other forms.
  /// With `Known`, the arrays in `Mask` are broadcast along the rows and the others run along them (no
  /// test of the stride, one path compiled each).
  template <bool Known, unsigned Mask, int Last, std::size_t K, class X>
  EW_HD vector_row_value<in_t<K>, Vec> wrapped(const X& x, std::uint32_t i, const std::uint32_t (&coord)[R],
                                               const std::uint32_t (&next)[R], std::uint32_t col) const {
    vector_row_value<in_t<K>, Vec> r{};
    constexpr bool known_broadcast = Known && ((Mask >> K) & 1u) != 0;
    if constexpr (is_gather_array_v<X> || is_gather_affine_v<X>) {
      if constexpr (is_gather_array_v<X> && !known_broadcast) {
        if (x.flat) {
          r.w = along<K>(x.ptr, i, p.elements);
          return r;
        }
      }
      // The next row is read only where the vector reaches it (the last row has none).
      const std::uint32_t here = vector_row_offset<Last>(p, x, coord),
                          there = vector_row_offset<Last>(p, x, next);
      if constexpr (known_broadcast) {
        r.w = load_two_rows_broadcast<in_t<K>, Vec>(x.ptr, here, there, col, p.cols);
      } else {
        if constexpr (is_gather_array_v<X> && !Known) {
          if (x.map.inner_stride == 0) {
            r.w = load_two_rows_broadcast<in_t<K>, Vec>(x.ptr, here, there, col, p.cols);
            return r;
          }
        }
        // Along the rows (inner stride 1: a gather launch has no other).
        if constexpr (is_gather_array_v<X>) {
          r.w = load_two_row_run<in_t<K>, Vec>(x.ptr, here + col, there, p.cols - col);
        } else {
          EW_DETAIL_UNROLL
          for (int j = 0; j < Vec; ++j) {
            const bool on = col + j >= p.cols;
            r.w.elements.v[j] =
                vector_row_element(x, i + j, on ? there : here, on ? col + j - p.cols : col + j);
          }
        }
      }
    } else {
      r.w = x.template vector<Vec>(static_cast<std::size_t>(i));
    }
    return r;
  }

  /// Element `j` of input `K`'s value: the broadcast element where `Mask` says so.
  template <bool Known, unsigned Mask, std::size_t K>
  EW_HD static in_t<K> element(const vector_row_value<in_t<K>, Vec>& v, int j) {
    if constexpr (!Wrap && Known && ((Mask >> K) & 1u) != 0) {
      return v.scalar;
    } else {
      return v.w.elements.v[j];
    }
  }
};

}  // namespace detail
}  // namespace ew
