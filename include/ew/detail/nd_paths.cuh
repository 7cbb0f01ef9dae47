// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Which kernel an N-dimensional launch takes, from its coalesced shape (`choose_nd_path`), and the
/// operands of the two kernels that serve launches whose outputs are contiguous: the 1-D kernel with
/// gather operands (gather.cuh) when every input runs along the outputs' innermost dimension or
/// broadcasts along it, and the tile kernel (tile_kernel.cuh) when an input runs along another.

#include <cstddef>
#include <cstdint>

#include <cuda/std/type_traits>

#include "gather.cuh"
#include "nd_layout.cuh"
#include "operand.cuh"
#include "row_kernel.cuh"
#include "tile_kernel.cuh"
#include "tuning.cuh"
#include "vector_row_plan.cuh"

namespace ew {
namespace detail {

/// The kernels of an N-dimensional launch.
enum class nd_path {
  /// Every operand contiguous in the same order: the 1-D launch.
  contiguous,
  /// The outputs contiguous, every array input along their innermost dimension (stride 1) or broadcast
  /// along it (stride 0): the 1-D kernel with gather operands. Outputs whose rows are padded
  /// (`padded_row_major`) take it only through the vector-row kernel (`nd_call::prepare`).
  gather,
  /// The outputs contiguous, some array input contiguous along another dimension: the tile kernel.
  tile,
  /// Anything else (an output pitched or sliced, an input strided along every dimension): the
  /// N-dimensional kernel.
  rows
};

/// Whether operand `k` of coalesced shape `s` is row-major and dense over it (stride 1 innermost, each
/// outer stride the span of the dimensions inside).
template <int R, int K>
EW_HD bool dense_row_major(const nd_shape<R, K>& s, int k) {
  std::int64_t step = 1;
  for (int d = s.rank - 1; d >= 0; --d) {
    if (s.stride[k][d] != step) return false;
    step *= s.extent[d];
  }
  return true;
}

/// Whether operand `k` of `s` has operand `j`'s strides.
template <int R, int K>
EW_HD bool same_strides_as(const nd_shape<R, K>& s, int k, int j) {
  for (int d = 0; d < s.rank; ++d) {
    if (s.stride[k][d] != s.stride[j][d]) return false;
  }
  return true;
}

/// Whether operand `k` of coalesced shape `s` is row-major over rows padded to a pitch (a pitched or
/// column-sliced array): stride 1 innermost, the next stride (the pitch) at least the innermost extent,
/// each one further out the span of the dimensions inside at that pitch.
template <int R, int K>
EW_HD bool padded_row_major(const nd_shape<R, K>& s, int k) {
  const int last = s.rank - 1;
  if (last < 1 || s.stride[k][last] != 1 || s.stride[k][last - 1] < s.extent[last]) return false;
  std::int64_t step = s.stride[k][last - 1];
  for (int d = last - 1; d >= 0; --d) {
    if (s.stride[k][d] != step) return false;
    step *= s.extent[d];
  }
  return true;
}

/// The dimension other than the innermost along which operand `k` of `s` is contiguous (stride 1, extent
/// above 1), or -1.
template <int R, int K>
EW_HD int unit_dimension(const nd_shape<R, K>& s, int k) {
  int unit = -1;
  for (int d = 0; d < s.rank - 1; ++d) {
    if (s.stride[k][d] == 1 && s.extent[d] > 1) unit = d;
  }
  return unit;
}

/// Whether output `k` (not the first) of `s` is transposed against the first: contiguous along another
/// dimension than the innermost (`unit_dimension`), which the tile kernel stages through shared memory
/// (a cast-transpose's second output).
template <int R, int K>
EW_HD bool transposed_output(const nd_shape<R, K>& s, int k) {
  const std::int64_t inner = s.stride[k][s.rank - 1];
  return k > 0 && s.rank >= 2 && inner != 0 && inner != 1 && unit_dimension(s, k) >= 0;
}

/// The kernel for coalesced shape `s` whose operands `0..num_out-1` are the outputs and whose array inputs
/// are marked in `array` (the index is not: it reads no memory). `vec` is the launch's vector width.
/// For the tile kernel, `b` is set to the dimension along which every permuted input and every transposed
/// output (`transposed_output`) is contiguous.
template <int R, int K>
EW_HD nd_path choose_nd_path(const nd_shape<R, K>& s, int num_out, const bool (&array)[K], int vec, int& b) {
  b = -1;
  const int last = s.rank - 1;
  bool contiguous = s.rank == 1;
  for (int k = 0; contiguous && k < K; ++k) contiguous = s.stride[k][0] == 1;
  if (contiguous) return nd_path::contiguous;
  // Dense outputs, transposed ones beside them; or padded ones, all laid out as the first, for the
  // vector-row kernel.
  bool dense = true, transposed = false;
  for (int k = 0; k < num_out; ++k) {
    if (transposed_output(s, k)) {
      transposed = true;
    } else {
      dense = dense && dense_row_major(s, k);
    }
  }
  for (int k = 0; !dense && k < num_out; ++k) {
    if (transposed || !padded_row_major(s, k) || !same_strides_as(s, k, 0)) return nd_path::rows;
  }
  bool permuted = false, tileable = vec > 1 && s.rank >= 2;
  for (int k = 0; k < K; ++k) {
    if (k < num_out ? !transposed_output(s, k) : !array[k]) continue;
    const std::int64_t inner = s.stride[k][last];
    if (inner == 0 || inner == 1) continue;
    permuted = true;
    const int unit = unit_dimension(s, k);
    if (unit < 0 || (b >= 0 && unit != b)) tileable = false;
    b = unit;
  }
  if (!permuted) {
    // The gather maps' 32-bit arithmetic: fewer than 2^31 elements, every input's offsets below 2^31.
    bool fits = gather_fits(s, 0);
    for (int k = num_out; fits && k < K; ++k) fits = gather_fits(s, k);
    return fits ? nd_path::gather : nd_path::rows;
  }
  return tileable && dense ? nd_path::tile : nd_path::rows;
}

/// Whether operand `k` of coalesced shape `s` fits a `gather_map`: its offsets below 2^31.
template <int R, int K>
EW_HD bool gather_fits(const nd_shape<R, K>& s, int k) {
  std::uint64_t span = 0;  // the operand's last offset
  for (int d = 0; d < s.rank; ++d) {
    span += static_cast<std::uint64_t>(s.stride[k][d]) * static_cast<std::uint64_t>(s.extent[d] - 1);
    if (span >= (std::uint64_t{1} << 31)) return false;
  }
  return true;
}

/// Operand `k`'s gather map over coalesced shape `s` (`gather_fits`).
template <int R, int K>
gather_map<R> make_gather_map(const nd_shape<R, K>& s, int k) {
  gather_map<R> m{};
  m.rank = s.rank;
  for (int d = 0; d < s.rank; ++d) {
    m.stride[d] = static_cast<std::uint32_t>(s.stride[k][d]);
    m.divide[d] = fast_divmod(static_cast<std::uint32_t>(s.extent[d]));
  }
  m.inner_extent = s.extent[last_dimension(s)];
  m.inner_stride = s.stride[k][last_dimension(s)];
  return m;
}

/// The row plan of a gather launch over coalesced shape `s` with `elements` elements and vectors of `vec`,
/// when its rows hold whole vectors (`cols % vec == 0`, at least `shapes.row_min_vectors` of them, and the
/// outputs aligned to a vector, `outputs_aligned`): true, with the plan in `p`.
template <int R, int K>
bool make_row_plan(const nd_shape<R, K>& s, std::uint64_t elements, int vec, bool outputs_aligned,
                   const tuning::nd_kernel_shapes& shapes, row_plan& p) {
  const std::uint64_t cols = static_cast<std::uint64_t>(s.extent[last_dimension(s)]);
  const std::uint64_t v = static_cast<std::uint64_t>(vec);
  if (vec <= 1 || !outputs_aligned || cols % v != 0 ||
      cols / v < static_cast<std::uint64_t>(shapes.row_min_vectors))
    return false;
  const std::uint64_t cols_vec = cols / v;
  const std::uint64_t target = static_cast<std::uint64_t>(shapes.row_chunk_vectors);
  const std::uint64_t per_row = (cols_vec + target - 1) / target;
  const std::uint64_t chunk_vec = (cols_vec + per_row - 1) / per_row;  // chunks of a row made equal
  p.cols = static_cast<std::uint32_t>(cols);
  p.chunk = static_cast<std::uint32_t>(chunk_vec * v);
  p.chunks_per_row = fast_divmod(static_cast<std::uint32_t>(per_row));
  p.blocks = static_cast<std::uint32_t>(elements / cols * per_row);
  return true;
}

/// The vector-row plan of a gather launch over coalesced shape `s` with `elements` elements and vectors of
/// `vec` (vector_row_kernel.cuh), when the outputs are aligned to a vector (`outputs_aligned`) and its rows
/// hold whole vectors (`cols % vec == 0`), or else hold at least `split_min_cols` elements and a vector
/// (`split`: 0 never), for blocks of `threads` threads of `unroll` vectors: true, with the plan in `p` (its
/// `broadcast` and `inputs_take_vectors` the caller's). Outputs whose rows are padded (`padded_row_major`,
/// operand 0's pitch) take the `pitched` form where the rows are whole vectors (at any padding), else the
/// `split` form over the outputs' memory if their padding is at most `max_padding_percent` of a row.
/// Dense rows that are not whole vectors take the `wrap` form from `wrap_min_cols` elements (0: never)
/// where they are shorter than `split_min_cols` or an input is read along the rows other than by the flat
/// index (`gathers_along_rows`: a bias), and else the `split` form. The 32-bit division needs fewer than
/// 2^31 elements, which a gather launch (`gather_fits`: the outputs' span too) has.
template <int R, int K>
bool make_vector_row_plan(const nd_shape<R, K>& s, std::uint64_t elements, int vec, bool outputs_aligned,
                          int threads, int unroll, int split_min_cols, int max_padding_percent,
                          int wrap_min_cols, bool gathers_along_rows, vector_row_plan<R>& p) {
  const int last = last_dimension(s);
  const std::uint64_t cols = static_cast<std::uint64_t>(s.extent[last]);
  const std::uint64_t pitch = last >= 1 ? static_cast<std::uint64_t>(s.stride[0][last - 1]) : cols;
  const std::uint64_t v = static_cast<std::uint64_t>(vec);
  if (vec <= 1 || threads <= 0 || !outputs_aligned || cols == 0) return false;
  const std::uint64_t span = (elements / cols - 1) * pitch + cols;  // the outputs' flat elements
  if (span >= (std::uint64_t{1} << 31)) return false;
  const bool whole_vectors = cols % v == 0;
  const bool split_fits =
      split_min_cols > 0 && cols >= static_cast<std::uint64_t>(split_min_cols) && cols >= v;
  const bool wrap_fits =
      pitch == cols && wrap_min_cols > 0 && cols >= static_cast<std::uint64_t>(wrap_min_cols) && cols >= v;
  p.piece = 0;
  if (pitch != cols && whole_vectors && (v & (v - 1)) == 0) {
    // Rows of whole vectors into padded outputs: over the rows' elements, stored in pieces, at any padding.
    p.form = vector_row_form::pitched;
    std::uint64_t piece = v;
    while (pitch % piece != 0) piece /= 2;
    p.piece = static_cast<std::uint32_t>(piece);
  } else if (pitch != cols) {
    // Rows that are not whole vectors into padded outputs: over the outputs' memory, padding included, so
    // with at most `max_padding_percent` of a row of it.
    if (!split_fits || max_padding_percent <= 0 ||
        (pitch - cols) * 100 > cols * static_cast<std::uint64_t>(max_padding_percent))
      return false;
    p.form = vector_row_form::split;
  } else if (!whole_vectors) {
    // The wrap form for dense rows that are short, or where an input is gathered along them (the split
    // form's shifted loads and its edge vectors cost more there: change 29's `wrapall`).
    if (wrap_fits && (gathers_along_rows || !split_fits)) {
      p.form = vector_row_form::wrap;
    } else if (split_fits) {
      p.form = vector_row_form::split;
    } else {
      return false;
    }
  } else {
    p.form = vector_row_form::whole;
  }
  const bool by_element = p.form == vector_row_form::split || p.form == vector_row_form::wrap;
  p.row_vectors = fast_divmod(static_cast<std::uint32_t>(by_element ? pitch : cols / v));
  for (int d = 1; d < last; ++d) p.extent[d] = fast_divmod(static_cast<std::uint32_t>(s.extent[d]));
  p.last = last;
  p.cols = static_cast<std::uint32_t>(cols);
  p.pitch = static_cast<std::uint32_t>(pitch);
  p.elements = static_cast<std::uint32_t>(span);
  p.vectors = static_cast<std::uint32_t>(by_element ? (span + v - 1) / v : elements / v);
  const std::uint64_t per_block = static_cast<std::uint64_t>(threads) * static_cast<std::uint64_t>(unroll);
  p.blocks = static_cast<std::uint32_t>((p.vectors + per_block - 1) / per_block);
  return true;
}

/// Whether operand `k` of `s` is found by the outputs' flat index: the first output dense row-major and
/// `k` laid out as it. (Over padded outputs an input laid out as them is read by its rows, as the others:
/// a vector from the flat index could take the padding's bytes.)
template <int R, int K>
bool same_strides_as_output(const nd_shape<R, K>& s, int k) {
  return dense_row_major(s, 0) && same_strides_as(s, k, 0);
}

/// The tile plan of coalesced shape `s` with the permuted inputs contiguous along `b`, tiles `tile_side` a
/// side, in groups of `tile_group` along `b` (`nd_kernel_shapes::tile_group`).
template <int R, int K>
tile_plan<R> make_tile_plan(const nd_shape<R, K>& s, int b, int tile_side, int tile_group) {
  tile_plan<R> p{};
  p.rank = s.rank;
  p.b = b;
  p.side = tile_side;
  p.group = static_cast<std::uint64_t>(tile_group);
  const std::uint64_t side = static_cast<std::uint64_t>(tile_side);
  p.tiles = 1;
  for (int d = 0; d < s.rank; ++d) {
    p.extent[d] = s.extent[d];
    const std::uint64_t e = static_cast<std::uint64_t>(s.extent[d]);
    if (d == s.rank - 1) {
      p.extent_a = s.extent[d];
      p.tiles_a = (e + side - 1) / side;
    } else if (d == b) {
      p.extent_b = s.extent[d];
      p.tiles_b = (e + side - 1) / side;
    } else {
      p.tiles *= e;
    }
  }
  p.tiles *= p.tiles_a * p.tiles_b;
  if (p.group > p.tiles_b) p.group = p.tiles_b;  // one group: the same order
  // Below 2^31 tiles every divisor and numerator of `tile_origin` is too (a batch extent divides the
  // tiles); the extents along `a` and `b` are never divided.
  p.narrow = p.tiles > 0 && p.tiles < (std::uint64_t{1} << 31);
  if (p.narrow) {
    p.plane_div = fast_divmod(static_cast<std::uint32_t>(p.tiles_a * p.tiles_b));
    p.group_tiles_div = fast_divmod(static_cast<std::uint32_t>(p.group * p.tiles_a));
    p.group_div = fast_divmod(static_cast<std::uint32_t>(p.group));
    for (int d = 0; d < s.rank - 1; ++d) {
      if (d != b) p.extent_div[d] = fast_divmod(static_cast<std::uint32_t>(s.extent[d]));
    }
  }
  return p;
}

/// A tile launch's array operand `k` of `s` (`smem` >= 0: staged at that byte offset).
template <class T, int R, int K>
tile_array<T, R> make_tile_array(T* ptr, const nd_shape<R, K>& s, int k, int b, int smem) {
  tile_array<T, R> t{ptr, {}, 0, 0, smem};
  for (int d = 0; d < s.rank; ++d) t.stride[d] = s.stride[k][d];
  t.a = s.stride[k][last_dimension(s)];
  t.b = b >= 0 ? s.stride[k][b % R] : 0;
  return t;
}

}  // namespace detail
}  // namespace ew
