// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The plan of an N-dimensional launch (`nd_call`): its arguments described (describe.cuh) and checked
/// (validate.cuh), its shape coalesced (nd_layout.cuh), its kernel chosen (nd_paths.cuh) with that
/// kernel's plan, and each argument's operand for it (kernel_operands.cuh). `dispatch_nd` launches it;
/// the host tests run its kernel body over simulated grids. In the configuration's namespace, as the
/// checker it calls.

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>
#include <cuda/std/array>
#include <cuda/std/tuple>
#include <cuda/std/utility>

#include "config.cuh"
#include "describe.cuh"
#include "dispatch.cuh"
#include "kernel_operands.cuh"
#include "nd_layout.cuh"
#include "nd_paths.cuh"
#include "operand.cuh"
#include "tile_layout.cuh"
#include "tuning.cuh"
#include "validate.cuh"

namespace ew {
namespace detail {
inline namespace EW_DETAIL_CONFIG_NAMESPACE {

/// One N-dimensional call before its launch: its operands described and checked (`prepare`), its shape
/// coalesced, and the plan of its kernel; `dispatch_nd` launches it, and the host tests run its kernel
/// body over simulated grids. `Vec` is the launch's vector width, `S::value` the kernels' shapes
/// (`tuning::nd_kernel_shapes`).
template <int Vec, int R, class OutTuple, class InTuple, class S = tuning::default_nd_shapes_t>
struct nd_call;
template <int Vec, int R, class... Out, class... In, class S>
struct nd_call<Vec, R, cuda::std::tuple<Out...>, cuda::std::tuple<In...>, S> {
  static constexpr int rank = R;
  static constexpr int vector_width = Vec;
  static constexpr int num_out = static_cast<int>(sizeof...(Out));
  static constexpr int num_ops = num_out + static_cast<int>((has_strides<In> + ... + 0));
  static constexpr int num_singles =
      static_cast<int>(((input_arg<In>::memory == memory_kind::single) + ... + 0));
  static constexpr cuda::std::array<int, sizeof...(In) + 1> rows = strided_rows<num_out, In...>();
  /// The tile kernel's shape for these element types (`tile_shape_of::value`), and its side.
  struct tile_shape_of {
    static constexpr tuning::tile_shape value =
        S::value.tile_for(largest_size<output_value_t<Out>..., array_type_t<In>...>);
  };
  static constexpr int tile_side = tile_shape_of::value.side;

  operand_desc<R> ops[num_ops] = {};
  pointer_info singles[num_singles > 0 ? num_singles : 1] = {};
  /// The launch's size; 0 for an empty launch, which is not launched.
  std::uint64_t elements = 0;
  nd_shape<R, num_ops> shape{};
  /// Everything coalesced to one dimension of stride 1: the 1-D launch.
  bool contiguous = false;
  /// The kernel the launch takes (nd_paths.cuh).
  nd_path path = nd_path::rows;
  /// The N-dimensional kernel's plan (`path == rows`).
  nd_plan<R> plan{};
  /// The tile kernel's plan, the dimension its staged inputs (and transposed outputs) run along, and each
  /// strided operand's byte offset in its shared memory (-1: not staged; outputs first).
  tile_plan<R> tile{};
  int tile_b = -1;
  int smem_offset[num_ops] = {};
  std::size_t smem_bytes = 0;
  /// The most dynamic shared memory the tile kernel may take: `tuning::tile_max_smem_bytes`, less what a
  /// launch with side reductions takes statically (`side_reduction_static_smem`, set by the dispatcher).
  std::size_t tile_smem_limit = tuning::tile_max_smem_bytes;
  /// A gather launch whose rows hold whole vectors, with every output aligned to one: the row kernel,
  /// with its plan (`path == gather`).
  bool whole_rows = false;
  row_plan row{};
  /// A gather launch whose rows hold whole vectors, with every output aligned to one and every array input
  /// along the rows from a whole vector or broadcast along them (`rows_take_vectors`), or whose outputs are
  /// padded (the `pitched` form where their rows are whole vectors), or whose rows are not whole vectors
  /// but long (`split`, `nd_kernel_shapes::vector_row_split_min_cols` and
  /// `vector_row_max_padding_percent`) or short (`wrap`, `vector_row_wrap_min_cols`): the vector-row
  /// kernel, with its plan (`path == gather`; before `whole_rows`).
  bool vector_rows = false;
  vector_row_plan<R> vector_row{};

  /// Describes and checks every operand, then coalesces and plans. `vector_row_kernel`: whether the op may
  /// take the vector-row kernel (false for ops with side reductions: one vector a thread, each block would
  /// add its partial sums to the targets); without it, padded outputs take the N-dimensional kernel.
  cudaError_t prepare(const extents<R>& e, const cuda::std::tuple<Out...>& outs,
                      const cuda::std::tuple<In...>& ins, bool vector_row_kernel = true) {
    cudaError_t err = check_extents(e, elements);
    if (err != cudaSuccess) return err;
    int k = 0;
    cuda::std::apply(
        [&](const auto&... o) {
          ((err = err == cudaSuccess ? describe_output(o, e, ops[k]) : err, ++k), ...);
        },
        outs);
    int s = 0;
    auto add = [&](const auto& a) {
      using A = cuda::std::remove_cv_t<cuda::std::remove_reference_t<decltype(a)>>;
      if constexpr (has_strides<A>) {
        if (err == cudaSuccess) err = describe_input(a, e, ops[k]);
        ++k;
      } else if constexpr (input_arg<A>::memory == memory_kind::single) {
        singles[s++] = input_arg<A>::info(a);
      }
    };
    cuda::std::apply([&](const auto&... a) { (add(a), ...); }, ins);
    if (err != cudaSuccess) return err;
    if (elements == 0) return cudaSuccess;  // shapes checked; nothing to launch
    err = check_operands(e, ops, num_ops, num_out, singles, num_singles);
    if (err != cudaSuccess) return err;

    nd_shape<R, num_ops> full{};
    full.rank = R;
    for (int d = 0; d < R; ++d) full.extent[d] = e[d];
    for (int j = 0; j < num_ops; ++j) {
      for (int d = 0; d < R; ++d) full.stride[j][d] = ops[j].stride[d];
    }
    shape = coalesce(full);
    bool array[num_ops] = {};
    for (int j = 0; j < num_ops; ++j) array[j] = !ops[j].affine;
    path = choose_nd_path(shape, num_out, array, Vec, tile_b);
    if (path == nd_path::tile) plan_tile();
    if (path == nd_path::gather) {
      bool aligned = Vec > 1;
      for (int k = 0; k < num_out; ++k)
        aligned = aligned && ops[k].address % (ops[k].element_size * Vec) == 0;
      // Padded outputs (pitched, column-sliced): the vector-row kernel's pitched or split form, or the N-d
      // kernel.
      const bool padded = !dense_row_major(shape, 0);
      whole_rows = !padded && make_row_plan(shape, elements, Vec, aligned, S::value, row);
      const bool take_vectors = rows_take_vectors();
      vector_rows =
          vector_row_kernel &&
          make_vector_row_plan(shape, elements, Vec, aligned, S::value.vector_row_threads,
                               S::value.vector_row_unroll, S::value.vector_row_split_min_cols,
                               S::value.vector_row_max_padding_percent, S::value.vector_row_wrap_min_cols,
                               gathers_along_rows(), vector_row) &&
          (vector_row.form != vector_row_form::whole || take_vectors);
      vector_row.inputs_take_vectors = take_vectors;
      if (padded && !vector_rows) path = nd_path::rows;
      if (vector_rows) {
        for (int i = 0; i < static_cast<int>(sizeof...(In)); ++i) {
          const int k = rows[i];
          if (k >= 0 && !ops[k].affine && shape.stride[k][last_dimension(shape)] == 0)
            vector_row.broadcast |= 1u << i;
        }
      }
    }
    contiguous = path == nd_path::contiguous;
    // The vectorized path needs every output's innermost stride to be 1 and every array input's 0 or 1.
    bool inner_ok = Vec > 1;
    for (int j = 0; inner_ok && j < num_ops; ++j) {
      const std::int64_t st = shape.stride[j][last_dimension(shape)];
      if (!ops[j].affine) inner_ok = st == 1 || (!ops[j].output && st == 0);
    }
    constexpr tuning::strided_shape strided = S::value.strided;
    plan = make_nd_plan(shape, inner_ok ? Vec : 1, inner_ok ? strided.vector_rows : strided.scalar_rows,
                        inner_ok ? strided.vector_cols : 1,
                        static_cast<std::uint64_t>(ops[0].address / ops[0].element_size));
    return cudaSuccess;
  }

  /// Whether an array input of a gather launch runs along the rows (innermost stride 1) other than as the
  /// outputs do (not found by their flat index): a bias, a slice.
  bool gathers_along_rows() const {
    const int last = last_dimension(shape);
    for (int k = num_out; k < num_ops; ++k) {
      if (!ops[k].affine && shape.stride[k][last] == 1 && !same_strides_as_output(shape, k)) return true;
    }
    return false;
  }

  /// Whether every array input of a gather launch runs along the rows from a whole vector at every row
  /// (`takes_vectors` along the innermost dimension) or is broadcast along them (stride 0).
  bool rows_take_vectors() const {
    const int last = last_dimension(shape);
    for (int k = num_out; k < num_ops; ++k) {
      if (!ops[k].affine && shape.stride[k][last] != 0 && !takes_vectors(k, Vec, last)) return false;
    }
    return true;
  }

  /// The staged inputs' shared memory (those whose innermost stride is neither 0 nor 1); the N-dimensional
  /// kernel instead when it would pass `tile_smem_limit`.
  void plan_tile() {
    if constexpr (R >= 2) {
      plan_tiles();
    } else {  // never chosen (choose_nd_path: a rank of at least 2)
      path = nd_path::rows;
    }
  }
  /// `plan_tile` of a launch of rank 2 or more.
  void plan_tiles() {
    for (int j = 0; j < num_ops; ++j) smem_offset[j] = -1;
    smem_bytes = 0;
    int i = 0;
    const std::int64_t extent_a = shape.extent[last_dimension(shape)], extent_b = shape.extent[tile_b];
    // Whether every staged input takes staging loads of 16 bytes, or of 8 (`tile_plan::stage_split`).
    bool whole = true, halves = true, staged_inputs = false;
    auto stage = [&](auto* a) {
      using A = cuda::std::remove_pointer_t<decltype(a)>;
      const int k = rows[i++];
      if constexpr (has_strides<A> && input_arg<A>::memory == memory_kind::array) {
        const std::int64_t inner = shape.stride[k][last_dimension(shape)];
        if (inner != 0 && inner != 1) {
          smem_offset[k] = static_cast<int>(smem_bytes);
          smem_bytes += tile_stage_bytes<input_value_t<A>, tile_side>;
          staged_inputs = true;
          constexpr int v = staged_layout<input_value_t<A>, tile_side>::stage_vec;
          constexpr int half = v > 1 ? v / 2 : 1;
          whole = whole && takes_vectors(k, v, tile_b) && extent_b % v == 0;
          halves = halves && takes_vectors(k, half, tile_b) && extent_b % half == 0;
        }
      }
    };
    (stage(static_cast<In*>(nullptr)), ...);
    // Transposed outputs (nd_paths.cuh, `transposed_output`): staged too, their tiles written through
    // shared memory with 16-byte stores along `b` (the vector paths take only whole ones).
    bool staged_outputs_whole = true;
    int o = 0;
    auto stage_output = [&](auto* a) {
      using T = output_value_t<cuda::std::remove_pointer_t<decltype(a)>>;
      const int k = o++;
      if (transposed_output(shape, k)) {
        smem_offset[k] = static_cast<int>(smem_bytes);
        smem_bytes += tile_stage_bytes<T, tile_side>;
        constexpr int v = staged_layout<T, tile_side>::stage_vec;
        staged_outputs_whole = staged_outputs_whole && takes_vectors(k, v, tile_b) && extent_b % v == 0;
        tile.staged_outputs = true;
      }
    };
    tile.staged_outputs = false;
    (stage_output(static_cast<Out*>(nullptr)), ...);
    if (smem_bytes > tile_smem_limit) {
      path = nd_path::rows;
      return;
    }
    const bool staged_outputs = tile.staged_outputs;
    tile = make_tile_plan(shape, tile_b, tile_side, S::value.tile_group);
    tile.staged_outputs = staged_outputs;
    tile.staged_inputs = staged_inputs;
    bool vector_tiles = (whole || halves) && staged_outputs_whole && extent_a % Vec == 0;
    for (int k = 0; k < num_out; ++k) {
      vector_tiles = vector_tiles && (smem_offset[k] >= 0 || takes_vectors(k, Vec, last_dimension(shape)));
    }
    for (int k = 0; k < num_ops; ++k) vector_tiles = vector_tiles && (ops[k].affine || tile_fits_31_bits(k));
    tile.vector_tiles = vector_tiles;
    tile.stage_split = whole ? 1 : 2;
    bool direct_reads = S::value.tile_direct_reads > 0 && vector_tiles;
    for (int k = num_out; k < num_ops; ++k) {
      direct_reads = direct_reads &&
                     (ops[k].affine || (smem_offset[k] < 0 && takes_vectors(k, Vec, last_dimension(shape))));
    }
    tile.direct_reads = direct_reads;
  }

  /// Whether the tile plan stages outputs and no input: such a launch may take the narrow-output tiles
  /// (`nd_kernel_shapes::narrow_output_tiles`, `narrow_output_tiles_apply` below).
  bool stages_outputs_only() const {
    return path == nd_path::tile && tile.staged_outputs && !tile.staged_inputs;
  }

  /// This launch under shapes `S2` that differ from `S` in the tile fields only (`narrow_output_shapes`
  /// below): the operands, the coalesced shape, the path and the other kernels' plans as described here,
  /// only the tile plan made again for `S2`'s tile side (which may find its shared memory too large and
  /// take the N-dimensional kernel: `path` says).
  template <class S2>
  nd_call<Vec, R, cuda::std::tuple<Out...>, cuda::std::tuple<In...>, S2> with_tiles_of() const {
    nd_call<Vec, R, cuda::std::tuple<Out...>, cuda::std::tuple<In...>, S2> c;
    for (int j = 0; j < num_ops; ++j) c.ops[j] = ops[j];
    for (int j = 0; j < (num_singles > 0 ? num_singles : 1); ++j) c.singles[j] = singles[j];
    c.elements = elements;
    c.shape = shape;
    c.contiguous = contiguous;
    c.path = path;
    c.plan = plan;
    c.tile_b = tile_b;
    c.tile_smem_limit = tile_smem_limit;
    c.whole_rows = whole_rows;
    c.row = row;
    c.vector_rows = vector_rows;
    c.vector_row = vector_row;
    if (c.path == nd_path::tile) c.plan_tile();
    return c;
  }

  /// Whether array operand `k` takes vectors of `vec` elements along dimension `unit` (its stride there 1)
  /// at every element the tile kernel starts one at: its address and its other strides are whole vectors.
  bool takes_vectors(int k, int vec, int unit) const {
    const std::uint64_t bytes = ops[k].element_size * static_cast<std::uint64_t>(vec);
    if (ops[k].address % bytes != 0 || unit < 0 || unit >= R || shape.stride[k][unit] != 1) return false;
    for (int d = 0; d < shape.rank && d < R; ++d) {
      if (d != unit && shape.stride[k][d] % vec != 0) return false;
    }
    return true;
  }
  /// Whether operand `k`'s offsets inside a tile (below `tile_side` along `a` and `b`) fit 31 bits.
  bool tile_fits_31_bits(int k) const {
    const std::uint64_t a = static_cast<std::uint64_t>(shape.stride[k][last_dimension(shape)]);
    const std::uint64_t b = static_cast<std::uint64_t>(shape.stride[k][tile_b]);
    return (a + b + 1) * static_cast<std::uint64_t>(tile_side) < (std::uint64_t{1} << 31);
  }

  /// The 1-D kernel's gather operands (`path == gather`).
  auto gather_operands(const cuda::std::tuple<In...>& ins) const {
    return gather_impl(ins, cuda::std::index_sequence_for<In...>{});
  }
  /// The tile kernel's operands (`path == tile`).
  auto tile_out_operands(const cuda::std::tuple<Out...>& outs) const {
    return tile_out_impl(outs, cuda::std::index_sequence_for<Out...>{});
  }
  auto tile_in_operands(const cuda::std::tuple<In...>& ins) const {
    return tile_in_impl(ins, cuda::std::index_sequence_for<In...>{});
  }
  /// The N-dimensional kernel's operands.
  auto out_operands(const cuda::std::tuple<Out...>& outs) const {
    return out_impl(outs, cuda::std::index_sequence_for<Out...>{});
  }
  auto in_operands(const cuda::std::tuple<In...>& ins) const {
    return in_impl(ins, cuda::std::index_sequence_for<In...>{});
  }

  /// The arrays' `pointer_info`, outputs first, for the 1-D launch's vector head; returns their number.
  int arrays(pointer_info* out) const {
    int n = 0;
    for (int j = 0; j < num_ops; ++j) {
      if (!ops[j].affine) out[n++] = pointer_info{ops[j].address, ops[j].element_size, ops[j].alignment};
    }
    return n;
  }

 private:
  template <std::size_t... I>
  auto gather_impl(const cuda::std::tuple<In...>& ins, cuda::std::index_sequence<I...>) const {
    return cuda::std::make_tuple(to_gather(cuda::std::get<I>(ins), shape, rows[I])...);
  }
  template <std::size_t... I>
  auto tile_in_impl(const cuda::std::tuple<In...>& ins, cuda::std::index_sequence<I...>) const {
    return cuda::std::make_tuple(
        to_tile(cuda::std::get<I>(ins), shape, rows[I], tile_b, rows[I] >= 0 ? smem_offset[rows[I]] : -1)...);
  }
  template <std::size_t... O>
  auto tile_out_impl(const cuda::std::tuple<Out...>& outs, cuda::std::index_sequence<O...>) const {
    return cuda::std::make_tuple(
        to_tile_output(cuda::std::get<O>(outs), shape, static_cast<int>(O), tile_b, smem_offset[O])...);
  }
  template <std::size_t... O>
  auto out_impl(const cuda::std::tuple<Out...>& outs, cuda::std::index_sequence<O...>) const {
    return cuda::std::make_tuple(to_nd_output(cuda::std::get<O>(outs), shape, static_cast<int>(O))...);
  }
  template <std::size_t... I>
  auto in_impl(const cuda::std::tuple<In...>& ins, cuda::std::index_sequence<I...>) const {
    return cuda::std::make_tuple(to_nd_input(cuda::std::get<I>(ins), shape, rows[I])...);
  }
};

/// Whether a launch of these outputs and inputs, once its tile plan stages outputs only, takes
/// `S::value.narrow_output_tiles` (tuning_nd.cuh): `tile_side` 0 and those tiles set, a 1-byte output
/// beside 2- or 4-byte arrays (the FP8 cast-transpose), none larger.
template <class S, class OutTuple, class InTuple>
inline constexpr bool narrow_output_tiles_apply = false;
template <class S, class... Out, class... In>
inline constexpr bool narrow_output_tiles_apply<S, cuda::std::tuple<Out...>, cuda::std::tuple<In...>> =
    S::value.tile_side == 0 && S::value.narrow_output_tiles.side != 0 &&
    ((sizeof(output_value_t<Out>) == 1) || ...) &&
    largest_size<output_value_t<Out>..., array_type_t<In>...> >= 2 &&
    largest_size<output_value_t<Out>..., array_type_t<In>...> <= 4;

/// `S` with its narrow-output tiles as the tiles of every size (the kernels' shapes argument).
template <class S>
struct narrow_output_shapes {
  static constexpr tuning::nd_kernel_shapes value = S::value.with_narrow_output_tiles();
};

}  // namespace EW_DETAIL_CONFIG_NAMESPACE
}  // namespace detail
}  // namespace ew
