// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Host side of an N-dimensional launch: the call (`nd_call`: its operands described and checked by
/// nd_checks.cuh, coalesced by nd_layout.cuh, its kernel chosen by nd_paths.cuh) and its launch
/// (`dispatch_nd`): the 1-D kernel (with gather operands, or the row kernel, where an input is not laid out
/// as the outputs), the tile kernel, or the N-dimensional kernel (nd_kernel.cuh).

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>
#include <cuda/std/array>
#include <cuda/std/tuple>
#include <cuda/std/utility>

#include "config.cuh"
#include "dispatch.cuh"
#include "last_error.cuh"
#include "nd_kernel.cuh"
#include "nd_checks.cuh"
#include "nd_layout.cuh"
#include "nd_paths.cuh"
#include "operand.cuh"
#include "tuning.cuh"
#include "validate.cuh"

namespace ew {
namespace detail {
inline namespace EW_DETAIL_CONFIG_NAMESPACE {

/// The pointer a 1-D launch takes for an N-dimensional output or input argument that coalesced to one
/// contiguous dimension; the index as the 1-D index; other operands as they are.
template <class T>
T* as_1d_output(T* p) {
  return p;
}
template <class T, int VR>
T* as_1d_output(const strided_view<T, VR>& v) {
  return v.ptr;
}
template <class A>
A as_1d_input(const A& a) {
  return a;
}
template <class T, int VR>
const T* as_1d_input(const strided_view<const T, VR>& v) {
  return v.ptr;
}
inline index_operand as_1d_input(const index_operand&) { return index_operand{-1}; }

/// The N-dimensional kernel's operand for an argument, with row `k` of the coalesced shape's strides.
template <int R, int K>
void outer_and_inner(const nd_shape<R, K>& c, int k, std::int64_t (&outer)[R], std::int64_t& inner,
                     bool& invariant) {
  invariant = true;
  for (int d = 0; d < R; ++d) {
    outer[d] = d + 1 < c.rank ? c.stride[k][d] : 0;
    invariant = invariant && outer[d] == 0;
  }
  inner = c.stride[k][last_dimension(c)];
}
template <int R, int K, class T>
nd_output<T, R> nd_output_operand(T* p, const nd_shape<R, K>& c, int k) {
  nd_output<T, R> o{p, {}, 0};
  bool invariant;
  outer_and_inner(c, k, o.stride, o.inner, invariant);
  return o;
}
template <int R, int K, class T, int VR>
nd_output<T, R> nd_output_operand(const strided_view<T, VR>& v, const nd_shape<R, K>& c, int k) {
  return nd_output_operand(v.ptr, c, k);
}
template <int R, int K, class T>
nd_array_input<T, R> nd_input_operand(const T* p, const nd_shape<R, K>& c, int k) {
  nd_array_input<T, R> o{p, {}, 0, false};
  outer_and_inner(c, k, o.stride, o.inner, o.invariant);
  return o;
}
template <int R, int K, class T, int VR>
nd_array_input<T, R> nd_input_operand(const strided_view<const T, VR>& v, const nd_shape<R, K>& c, int k) {
  return nd_input_operand(v.ptr, c, k);
}
template <int R, int K>
nd_affine_input<R> nd_input_operand(const index_operand&, const nd_shape<R, K>& c, int k) {
  nd_affine_input<R> o{{}, 0, false};
  outer_and_inner(c, k, o.stride, o.inner, o.invariant);
  return o;
}
template <int R, int K, class T>
nd_uniform_input<constant_input<T>> nd_input_operand(const constant_operand<T>& x, const nd_shape<R, K>&,
                                                     int) {
  return {constant_input<T>{x.value}};
}
template <int R, int K, class T>
nd_uniform_input<scalar_input<T>> nd_input_operand(const scalar_operand<T>& x, const nd_shape<R, K>&, int) {
  return {scalar_input<T>{x.ptr}};
}

/// Row of the strided-operand table for each input (-1 for an operand without strides): after the
/// `NumOut` outputs, in order.
template <int NumOut, class... In>
constexpr cuda::std::array<int, sizeof...(In) + 1> strided_rows() {
  cuda::std::array<int, sizeof...(In) + 1> rows{};
  int next = NumOut;
  int i = 0;
  ((rows[i++] = has_strides<In> ? next++ : -1), ...);
  return rows;
}

/// One N-dimensional call before its launch: its operands described and checked (`prepare`), its shape
/// coalesced, and the plan of its kernel; `dispatch_nd` launches it, and the host tests run its kernel
/// body over simulated grids. `Vec` is the launch's vector width, `S::value` the kernels' shapes
/// (`tuning::nd_kernel_shapes`).
template <int Vec, int R, class OutTuple, class InTuple, class S = tuning::default_nd_shapes_t>
struct nd_call;
template <int Vec, int R, class... Out, class... In, class S>
struct nd_call<Vec, R, cuda::std::tuple<Out...>, cuda::std::tuple<In...>, S> {
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

  nd_operand<R> ops[num_ops] = {};
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
  /// The tile kernel's plan, the dimension its staged inputs run along, and each strided operand's byte
  /// offset in its shared memory (-1: not staged).
  tile_plan<R> tile{};
  int tile_b = -1;
  int smem_offset[num_ops] = {};
  std::size_t smem_bytes = 0;
  /// A gather launch whose rows hold whole vectors, with every output aligned to one: the row kernel,
  /// with its plan (`path == gather`).
  bool whole_rows = false;
  row_plan row{};

  /// Describes and checks every operand, then coalesces and plans.
  cudaError_t prepare(const extents<R>& e, const cuda::std::tuple<Out...>& outs,
                      const cuda::std::tuple<In...>& ins) {
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
    err = check_nd(e, ops, num_ops, num_out, singles, num_singles);
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
      whole_rows = make_row_plan(shape, elements, Vec, aligned, S::value, row);
    }
    contiguous = path == nd_path::contiguous;
    // The vectorized path needs every output's innermost stride to be 1 and every array input's 0 or 1.
    bool inner_ok = Vec > 1;
    for (int j = 0; inner_ok && j < num_ops; ++j) {
      const std::int64_t st = shape.stride[j][last_dimension(shape)];
      if (!ops[j].affine) inner_ok = st == 1 || (!ops[j].output && st == 0);
    }
    plan = make_nd_plan(shape, inner_ok ? Vec : 1, inner_ok ? tuning::nd_vector_rows : tuning::nd_scalar_rows,
                        inner_ok ? tuning::nd_vector_cols : 1,
                        static_cast<std::uint64_t>(ops[0].address / ops[0].element_size));
    return cudaSuccess;
  }

  /// The staged inputs' shared memory (those whose innermost stride is neither 0 nor 1); the N-dimensional
  /// kernel instead when it would pass `tuning::tile_max_smem_bytes`.
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
    bool whole = true, halves = true;
    auto stage = [&](auto* a) {
      using A = cuda::std::remove_pointer_t<decltype(a)>;
      const int k = rows[i++];
      if constexpr (has_strides<A> && input_arg<A>::memory == memory_kind::array) {
        const std::int64_t inner = shape.stride[k][last_dimension(shape)];
        if (inner != 0 && inner != 1) {
          smem_offset[k] = static_cast<int>(smem_bytes);
          smem_bytes += tile_stage_bytes<input_value_t<A>, tile_side>;
          constexpr int v = staged_layout<input_value_t<A>, tile_side>::stage_vec;
          constexpr int half = v > 1 ? v / 2 : 1;
          whole = whole && takes_vectors(k, v, tile_b) && extent_b % v == 0;
          halves = halves && takes_vectors(k, half, tile_b) && extent_b % half == 0;
        }
      }
    };
    (stage(static_cast<In*>(nullptr)), ...);
    if (smem_bytes > tuning::tile_max_smem_bytes) {
      path = nd_path::rows;
      return;
    }
    tile = make_tile_plan(shape, tile_b, tile_side, S::value.tile_group);
    bool vector_tiles = (whole || halves) && extent_a % Vec == 0;
    for (int k = 0; k < num_out; ++k)
      vector_tiles = vector_tiles && takes_vectors(k, Vec, last_dimension(shape));
    for (int k = 0; k < num_ops; ++k) vector_tiles = vector_tiles && (ops[k].affine || tile_fits_31_bits(k));
    tile.vector_tiles = vector_tiles;
    tile.stage_split = whole ? 1 : 2;
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

  /// The arrays' `pointer_info`, outputs first, for the 1-D launch's vector head; returns their number.
  int arrays(pointer_info* out) const {
    int n = 0;
    for (int j = 0; j < num_ops; ++j) {
      if (!ops[j].affine) out[n++] = pointer_info{ops[j].address, ops[j].element_size, ops[j].alignment};
    }
    return n;
  }
  /// The N-dimensional kernel's operands.
  cuda::std::tuple<decltype(nd_output_operand(cuda::std::declval<const Out&>(),
                                              cuda::std::declval<const nd_shape<R, num_ops>&>(), 0))...>
  out_operands(const cuda::std::tuple<Out...>& outs) const {
    return out_impl(outs, cuda::std::index_sequence_for<Out...>{});
  }
  cuda::std::tuple<decltype(nd_input_operand(cuda::std::declval<const In&>(),
                                             cuda::std::declval<const nd_shape<R, num_ops>&>(), 0))...>
  in_operands(const cuda::std::tuple<In...>& ins) const {
    return in_impl(ins, cuda::std::index_sequence_for<In...>{});
  }

 private:
  template <class T>
  gather_input<T, R> gather_one(const T* p, int k) const {
    return {p, make_gather_map(shape, k), same_strides_as_output(shape, k)};
  }
  template <class T, int VR>
  gather_input<T, R> gather_one(const strided_view<const T, VR>& v, int k) const {
    return gather_one(v.ptr, k);
  }
  gather_affine<R> gather_one(const index_operand&, int k) const {
    return {make_gather_map(shape, k), same_strides_as_output(shape, k)};
  }
  template <class A>
  auto gather_one(const A& a, int) const {
    return input_arg<A>::to_1d(a);
  }
  template <std::size_t... I>
  auto gather_impl(const cuda::std::tuple<In...>& ins, cuda::std::index_sequence<I...>) const {
    return cuda::std::make_tuple(gather_one(cuda::std::get<I>(ins), rows[I])...);
  }

  template <class T>
  tile_array<const T, R> tile_one(const T* p, int k) const {
    return make_tile_array(p, shape, k, tile_b, smem_offset[k]);
  }
  template <class T, int VR>
  tile_array<const T, R> tile_one(const strided_view<const T, VR>& v, int k) const {
    return tile_one(v.ptr, k);
  }
  tile_affine<R> tile_one(const index_operand&, int k) const {
    const tile_array<const char, R> t =
        make_tile_array(static_cast<const char*>(nullptr), shape, k, tile_b, -1);
    tile_affine<R> a{{}, t.a, t.b};
    for (int d = 0; d < R; ++d) a.stride[d] = t.stride[d];
    return a;
  }
  template <class A>
  auto tile_one(const A& a, int) const {
    return tile_uniform<decltype(input_arg<A>::to_1d(a))>{input_arg<A>::to_1d(a)};
  }
  template <std::size_t... I>
  auto tile_in_impl(const cuda::std::tuple<In...>& ins, cuda::std::index_sequence<I...>) const {
    return cuda::std::make_tuple(tile_one(cuda::std::get<I>(ins), rows[I])...);
  }
  template <std::size_t... O>
  auto tile_out_impl(const cuda::std::tuple<Out...>& outs, cuda::std::index_sequence<O...>) const {
    return cuda::std::make_tuple(
        make_tile_array(as_1d_output(cuda::std::get<O>(outs)), shape, static_cast<int>(O), tile_b, -1)...);
  }

  template <std::size_t... O>
  auto out_impl(const cuda::std::tuple<Out...>& outs, cuda::std::index_sequence<O...>) const {
    return cuda::std::tuple<decltype(nd_output_operand(cuda::std::declval<const Out&>(), shape, 0))...>{
        nd_output_operand(cuda::std::get<O>(outs), shape, static_cast<int>(O))...};
  }
  template <std::size_t... I>
  auto in_impl(const cuda::std::tuple<In...>& ins, cuda::std::index_sequence<I...>) const {
    return cuda::std::tuple<decltype(nd_input_operand(cuda::std::declval<const In&>(), shape, 0))...>{
        nd_input_operand(cuda::std::get<I>(ins), shape, rows[I])...};
  }
};

/// The vector width of an N-dimensional launch: `Wanted` (the call's, else the policy's, else ew's
/// default), and 1 where an element type has no vector form.
template <int Wanted, class... Out, class... In>
constexpr int nd_vec_width(cuda::std::tuple<Out...>*, cuda::std::tuple<In...>*) {
  constexpr bool vectorizable =
      (is_vectorizable_v<output_value_t<Out>> && ...) && (is_vectorizable_v<array_type_t<In>> && ...);
  return vectorizable ? Wanted : 1;
}

/// A policy's N-dimensional kernel shapes for `Op`, as the kernels take them (`value`).
template <class Policy, class Op>
struct policy_nd_shapes {
  static constexpr tuning::nd_kernel_shapes value = Policy::template entry<Op>().nd;
};

/// `ew::elementwise` over N-dimensional shape `e` with `Policy`'s entry for `Op` (policy.cuh): outputs
/// `T*` (row-major of `e`) or views of exactly `e`; inputs pointers (row-major of `e`), views broadcastable
/// to `e`, the index, constants and scalars. `UserPolicy`: a policy the call named, whose run-time launch
/// policy replaces ew's on the devices it was measured on (as in the 1-D `dispatch`); ew's own policy
/// leaves `tuning::policy_for_cc`'s.
template <class Policy, bool UserPolicy, int VecWidth, class Op, int R, class... Out, class... In>
cudaError_t dispatch_nd(const Op& op, const extents<R>& e, const cuda::std::tuple<Out...>& outs,
                        const cuda::std::tuple<In...>& ins, cudaStream_t stream) {
  static_assert(
      !(is_1d_only_v<In> || ...),
      "ew::elementwise: random operands (ew::random_bits, ew::random_uniform, ew::random_normal) work "
      "in 1-D launches only: pass the element count instead of ew::extents");
  using out_tuple = cuda::std::tuple<Out...>;
  using in_tuple = cuda::std::tuple<In...>;
  constexpr auto entry = Policy::template entry<Op>();
  using shapes = policy_nd_shapes<Policy, Op>;
  static_assert(tuning::nd_kernel_shapes_error(entry.nd) == nullptr,
                "ew::policy_entry: nd holds a shape the kernels cannot take (tuning::nd_kernel_shapes_error "
                "says which)");
  static_assert(entry.shape.loads_in_flight >= 1 && entry.shape.loads_in_flight <= 16,
                "ew::policy_entry: shape.loads_in_flight must be in [1, 16]");
  constexpr int wanted =
      launch_vec_width<VecWidth, entry.vec_width, output_value_t<Out>..., array_type_t<In>...>;
  static_assert(launch_static_checks<wanted, 1, Op, out_tuple, in_tuple>::ok);
  constexpr int vec = nd_vec_width<wanted>(static_cast<out_tuple*>(nullptr), static_cast<in_tuple*>(nullptr));

  using call_t = nd_call<vec, R, out_tuple, in_tuple, shapes>;
  call_t call;
  cudaError_t err = call.prepare(e, outs, ins);
  if (err != cudaSuccess) return err;
  if (call.elements == 0) return fail(cudaSuccess, "");
  launch_args args{};
  err = current_launch_args(args);
  if (err != cudaSuccess) return err;
  if constexpr (UserPolicy) {
    if (entry.measured_cc == 0 || entry.measured_cc == args.facts.cc) args.policy = entry.launch;
  }

  if (call.contiguous) {  // one contiguous dimension: the 1-D launch, with its vector head and tiles
    constexpr int unroll = entry.shape.unroll_for(num_array_inputs<In...>);
    pointer_info arrays[call.num_ops] = {};
    const int num_arrays = call.arrays(arrays);
    const auto outs_1d =
        cuda::std::apply([](const auto&... o) { return cuda::std::make_tuple(as_1d_output(o)...); }, outs);
    const auto ins_1d =
        cuda::std::apply([](const auto&... a) { return cuda::std::make_tuple(as_1d_input(a)...); }, ins);
    return launch_1d<vec, unroll>(args, op, static_cast<std::size_t>(call.elements), outs_1d, ins_1d, arrays,
                                  num_arrays, stream);
  }
  if (call.path == nd_path::gather) {  // contiguous outputs, inputs found from the flat index
    constexpr int unroll = shapes::value.gather_unroll;
    pointer_info arrays[call.num_ops] = {};
    call.arrays(arrays);
    const auto outs_1d =
        cuda::std::apply([](const auto&... o) { return cuda::std::make_tuple(as_1d_output(o)...); }, outs);
    if constexpr (vec > 1) {
      if (call.whole_rows) {  // whole vectors a row: no division per vector
        const auto gather_ins = call.gather_operands(ins);
        constexpr int threads = shapes::value.row_block_threads;
        constexpr auto kernel =
            &row_elementwise_kernel<Op, vec, shapes::value.row_unroll, threads, decltype(outs_1d),
                                    cuda::std::remove_const_t<decltype(gather_ins)>>;
        return launch_kernel<kernel>(
            args, call.row,
            launch_shape{static_cast<std::size_t>(call.row.blocks), static_cast<std::size_t>(threads)}, op,
            outs_1d, gather_ins, stream);
      }
    }
    return launch_1d_operands<vec, vec, unroll>(args, op, static_cast<std::size_t>(call.elements), outs_1d,
                                                call.gather_operands(ins), arrays, call.num_out, stream);
  }
  if constexpr (vec > 1) {
    if (call.path == nd_path::tile) {  // an input along another dimension: shared-memory tiles
      const auto tile_outs = call.tile_out_operands(outs);
      const auto tile_ins = call.tile_in_operands(ins);
      using tile_shape = typename call_t::tile_shape_of;
      constexpr auto kernel = &tile_elementwise_kernel<Op, vec, tile_shape, shapes, R,
                                                       cuda::std::remove_const_t<decltype(tile_outs)>,
                                                       cuda::std::remove_const_t<decltype(tile_ins)>>;
      std::uint64_t blocks = call.tile.tiles;
      if (blocks > 0x7fffffffu) blocks = 0x7fffffffu;
      return launch_kernel<kernel>(args, call.tile,
                                   launch_shape{static_cast<std::size_t>(blocks),
                                                static_cast<std::size_t>(tile_shape::value.block_threads)},
                                   op, tile_outs, tile_ins, stream, call.smem_bytes);
    }
  }
  const auto out_operands = call.out_operands(outs);
  const auto in_operands = call.in_operands(ins);
  constexpr auto kernel =
      &nd_elementwise_kernel<Op, vec, tuning::nd_vector_rows, tuning::nd_vector_cols, tuning::nd_scalar_rows,
                             R, cuda::std::remove_const_t<decltype(out_operands)>,
                             cuda::std::remove_const_t<decltype(in_operands)>>;
  const std::size_t bt = static_cast<std::size_t>(tuning::nd_block_threads);
  std::size_t blocks = static_cast<std::size_t>((call.plan.items + bt - 1) / bt);
  if (blocks > 0x7fffffffu) blocks = 0x7fffffffu;
  return launch_kernel<kernel>(args, call.plan, launch_shape{blocks < 1 ? 1 : blocks, bt}, op, out_operands,
                               in_operands, stream);
}

}  // namespace EW_DETAIL_CONFIG_NAMESPACE
}  // namespace detail
}  // namespace ew
