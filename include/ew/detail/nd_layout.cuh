// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The shape arithmetic of an N-dimensional launch, plain `__host__ __device__` code that the host tests
/// run over many shapes: coalescing the operands' dimensions (`coalesce`), and the split of the coalesced
/// shape into rows of vector slots that the N-dimensional kernel walks (`nd_plan`, `make_nd_plan`).

#include <cstddef>
#include <cstdint>

#include "../functor.cuh"

namespace ew {
namespace detail {

/// The extents and the strides of `K` operands over up to `R` dimensions, outermost first. Operand 0 is
/// the first output.
template <int R, int K>
struct nd_shape {
  int rank;
  std::int64_t extent[R];
  std::int64_t stride[K][R];
};

/// The innermost dimension of `s` (rank >= 1), spelled so that GCC sees it below R (-Warray-bounds).
template <int R, int K>
EW_HD int last_dimension(const nd_shape<R, K>& s) {
  return (s.rank > 1 ? s.rank - 1 : 0) % R;
}

/// Reverses the order of `c`'s first `c.rank` dimensions (`coalesce` builds them innermost first).
template <int R, int K>
EW_HD void reverse_dimensions(nd_shape<R, K>& c) {
  const int rank = c.rank;
  for (int a = 0, b = rank - 1; a < b; ++a, --b) {
    const std::int64_t e = c.extent[a];
    c.extent[a] = c.extent[b];
    c.extent[b] = e;
    for (int k = 0; k < K; ++k) {
      const std::int64_t t = c.stride[k][a];
      c.stride[k][a] = c.stride[k][b];
      c.stride[k][b] = t;
    }
  }
}

/// Coalesces `s` the way PyTorch's TensorIterator does: drops dimensions of extent 1, orders the others by
/// the first output's stride (largest outermost, so that the innermost moves fastest in the memory the
/// kernel writes), and merges each pair of neighbours whose strides chain for every operand
/// (`stride[outer] == stride[inner] * extent[inner]`, which broadcast dimensions, stride 0, also satisfy
/// with each other). Every extent must be at least 1. The result has rank at least 1 (a single element is
/// rank 1, extent 1, strides 0), and addresses the same elements in the same order of the first output.
template <int R, int K>
EW_HD nd_shape<R, K> coalesce(const nd_shape<R, K>& s) {
  int dims[R];
  int kept = 0;
  for (int d = 0; d < s.rank; ++d) {
    if (s.extent[d] != 1) dims[kept++] = d;
  }
  // Stable insertion sort, largest first-output stride outermost. The first output's strides over
  // dimensions of extent > 1 are distinct and nonzero (the launch rejects outputs that are not), so the
  // order is total.
  for (int i = 1; i < kept; ++i) {
    const int d = dims[i];
    int j = i;
    while (j > 0 && s.stride[0][dims[j - 1]] < s.stride[0][d]) {
      dims[j] = dims[j - 1];
      --j;
    }
    dims[j] = d;
  }
  nd_shape<R, K> c{};
  if (kept == 0) {
    c.rank = 1;
    c.extent[0] = 1;
    for (int k = 0; k < K; ++k) c.stride[k][0] = 0;
    return c;
  }
  // Merge from the innermost outwards into c, built innermost first and reversed at the end.
  int rank = 0;
  for (int i = kept - 1; i >= 0; --i) {
    const int d = dims[i];
    bool merge = rank > 0;
    for (int k = 0; merge && k < K; ++k) {
      // In 64-bit unsigned arithmetic: strides are non-negative, and a product past 2^63 never equals one.
      merge =
          static_cast<std::uint64_t>(s.stride[k][d]) ==
          static_cast<std::uint64_t>(c.stride[k][rank - 1]) * static_cast<std::uint64_t>(c.extent[rank - 1]);
    }
    if (merge) {
      c.extent[rank - 1] *= s.extent[d];
    } else {
      c.extent[rank] = s.extent[d];
      for (int k = 0; k < K; ++k) c.stride[k][rank] = s.stride[k][d];
      ++rank;
    }
  }
  c.rank = rank;
  if constexpr (R > 1) reverse_dimensions(c);
  return c;
}

/// How the N-dimensional kernel walks a coalesced shape: as `rows` rows (every dimension but the innermost)
/// of `cols` elements. A row is cut into `slots` vector slots of `vec` elements aligned to the first
/// output's vectors: slot `s` of a row whose first element sits `m` elements past a vector boundary covers
/// columns `[s * vec - m, s * vec - m + vec)`, a whole vector where it lies inside the row (every other
/// array of the row at the same offset within its vectors is read and written with vector accesses; the
/// others element by element) and single elements at the row's two ends. One work item is
/// `cols_per_item` slots, `slot_stride` apart, of `rows_per_item` consecutive rows: consecutive items (a
/// warp's threads) take consecutive slots for each of their loads, and a thread's several slots share one
/// row's offsets. A thread takes items grid-stride.
template <int R>
struct nd_plan {
  int rank;
  /// The coalesced extents; the kernel divides row numbers by the outer ones.
  std::int64_t extent[R];
  std::uint64_t rows;
  std::uint64_t cols;
  std::uint64_t slots;
  /// Slots between the slots of one item: `slots / cols_per_item`, rounded up.
  std::uint64_t slot_stride;
  std::uint64_t items;
  int vec;
  int rows_per_item;
  int cols_per_item;
  /// The first output's `m`, the same for every row, or -1 where rows differ (its outer strides are not
  /// multiples of `vec`): the kernel then computes it per row.
  int head;
};

/// The plan for coalesced shape `s`: vectors of `vec` elements (1 for the element-wise path), with
/// `rows_per_item` rows of `cols_per_item` slots per work item. `out0_element` is the first output's
/// address in elements (address / element size).
template <int R, int K>
EW_HD nd_plan<R> make_nd_plan(const nd_shape<R, K>& s, int vec, int rows_per_item, int cols_per_item,
                              std::uint64_t out0_element) {
  nd_plan<R> p{};
  p.rank = s.rank;
  for (int d = 0; d < R; ++d) p.extent[d] = d < s.rank ? s.extent[d] : 1;
  p.cols = static_cast<std::uint64_t>(s.extent[last_dimension(s)]);
  p.rows = 1;
  for (int d = 0; d + 1 < s.rank; ++d) p.rows *= static_cast<std::uint64_t>(s.extent[d]);
  p.vec = vec;
  p.rows_per_item = rows_per_item;
  const std::uint64_t v = static_cast<std::uint64_t>(vec);
  bool uniform = true;
  for (int d = 0; d + 1 < s.rank; ++d)
    uniform = uniform && static_cast<std::uint64_t>(s.stride[0][d]) % v == 0;
  p.head = uniform ? static_cast<int>(out0_element % v) : -1;
  const std::uint64_t m = uniform ? out0_element % v : v - 1;
  p.slots = (p.cols + m + v - 1) / v;
  const std::uint64_t groups =
      (p.rows + static_cast<std::uint64_t>(rows_per_item) - 1) / static_cast<std::uint64_t>(rows_per_item);
  p.cols_per_item = cols_per_item;
  p.slot_stride =
      (p.slots + static_cast<std::uint64_t>(cols_per_item) - 1) / static_cast<std::uint64_t>(cols_per_item);
  p.items = groups * p.slot_stride;
  return p;
}

}  // namespace detail
}  // namespace ew
