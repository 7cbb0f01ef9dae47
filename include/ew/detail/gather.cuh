// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Gather operands: the 1-D kernel's inputs for an N-dimensional launch whose outputs are contiguous but
/// whose inputs are not (a bias over `[rows, cols]`, a column, per-channel statistics, a slice). The kernel
/// walks the outputs' flat index `i` exactly as in a 1-D launch, with its scalar head, vector tiles and
/// tail; each such input finds its own element from `i` by dividing it by the coalesced extents
/// (`gather_map`, through `fast_divmod`). A vector whose elements lie in one
/// row of the innermost dimension is one 16-byte load (stride 1), one load broadcast (stride 0), or a
/// strided gather; across a row's end, element by element.

#include <cstddef>
#include <cstdint>

#include "../functor.cuh"
#include "config.cuh"
#include "fast_divmod.cuh"
#include "vector_access.cuh"

namespace ew {
namespace detail {

/// Where the elements of one operand are, as a function of the outputs' flat index, over the coalesced
/// shape (`rank` extents, outermost first, the outputs row-major over them). All in 32 bits: the launch has
/// fewer than 2^32 elements and the operand's offsets are below 2^31 (`gather_fits`); larger launches take
/// the N-dimensional kernel. (With a 64-bit path beside this one, the per-channel statistics of an NCHW
/// launch took 60 registers against 40 without it, and the kernel ran at 0.57 of the 1-D relu: fewer
/// blocks per SM, fewer loads in flight; docs/PERFORMANCE.md, change 10.)
template <int R>
struct gather_map {
  int rank = 1;
  /// The operand's strides along the coalesced dimensions (elements).
  std::uint32_t stride[R] = {};
  /// Division by the coalesced extent `d`, d >= 1.
  fast_divmod divide[R] = {};
  /// The innermost extent and stride, apart so that no kernel indexes the arrays at run time.
  std::int64_t inner_extent = 1;
  std::int64_t inner_stride = 0;

  /// The offset of flat element `i`, and its column `col` in the innermost dimension.
  // The loop runs to the compile-time rank and skips what the launch does not use, so that each array index
  // is a constant once unrolled (nd_kernel.cuh's `row_offset` says why).
  EW_HD std::int64_t offset(std::uint64_t i, std::int64_t& col) const {
    const int last = rank - 1;
    std::uint32_t q = static_cast<std::uint32_t>(i), off = 0, c = q;
    EW_DETAIL_UNROLL
    for (int d = R - 1; d >= 1; --d) {
      if (d <= last) {
        std::uint32_t next, r;
        divide[d].divmod(q, next, r);
        if (d == last) c = r;
        off += r * stride[d];
        q = next;
      }
    }
    col = static_cast<std::int64_t>(c);
    return static_cast<std::int64_t>(off + q * stride[0]);
  }
};

/// An array input of the 1-D kernel at offsets `map.offset(i)`; `flat`: at `i` itself (the outputs'
/// layout), with no division.
template <class T, int R>
struct gather_input {
  using value_type = T;
  const T* ptr;
  gather_map<R> map;
  bool flat;

  EW_HD T element(std::size_t i) const {
    if (flat) return ptr[i];
    std::int64_t col;
    return ptr[map.offset(i, col)];
  }
  /// The `Vec` elements from flat index `i` (not necessarily vector-aligned in this array).
  template <int Vec>
  EW_HD vector_word<T, Vec> vector(std::size_t i) const {
    vector_word<T, Vec> u;
    if constexpr (Vec == 1) {
      u.elements.v[0] = element(i);
    } else {
      const T* p = ptr + i;
      std::int64_t col = 0;
      std::int64_t step = 1;
      if (!flat) {
        p = ptr + map.offset(i, col);
        step = map.inner_stride;
        if (col + Vec > map.inner_extent) {  // across a row's end
          for (int j = 0; j < Vec; ++j) u.elements.v[j] = element(i + j);
          return u;
        }
      }
      if (step == 1 && reinterpret_cast<std::uintptr_t>(p) % (sizeof(T) * Vec) == 0) {
        u = load_vector<Vec>(p);
      } else if (step == 0) {  // broadcast along the row: one load (an L1 hit after the first)
        const T v = *p;
        for (int j = 0; j < Vec; ++j) u.elements.v[j] = v;
      } else {
        for (int j = 0; j < Vec; ++j) u.elements.v[j] = p[j * step];
      }
    }
    return u;
  }
};

/// The element index or one coordinate in such a launch: the offset itself, `map.offset(i)`, as a 64-bit
/// signed integer (`flat`: `i`).
template <int R>
struct gather_affine {
  using value_type = std::int64_t;
  gather_map<R> map;
  bool flat;

  EW_HD std::int64_t element(std::size_t i) const {
    if (flat) return static_cast<std::int64_t>(i);
    std::int64_t col;
    return map.offset(i, col);
  }
  template <int Vec>
  EW_HD vector_word<std::int64_t, Vec> vector(std::size_t i) const {
    vector_word<std::int64_t, Vec> u;
    std::int64_t col = 0, first = static_cast<std::int64_t>(i), step = 1;
    if (!flat) {
      first = map.offset(i, col);
      step = map.inner_stride;
      if (col + Vec > map.inner_extent) {
        for (int j = 0; j < Vec; ++j) u.elements.v[j] = element(i + j);
        return u;
      }
    }
    for (int j = 0; j < Vec; ++j) u.elements.v[j] = first + j * step;
    return u;
  }
};

}  // namespace detail
}  // namespace ew
