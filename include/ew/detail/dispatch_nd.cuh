// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The launch of an N-dimensional call (`dispatch_nd`) by its plan (plan.cuh): the 1-D kernel (over one
/// contiguous dimension, or with gather operands where an input is not laid out as the outputs), the
/// vector-row kernel, the row kernel, the tile kernel, or the N-dimensional kernel (nd_kernel.cuh).

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>
#include <cuda/std/array>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include "config.cuh"
#include "dispatch.cuh"
#include "last_error.cuh"
#include "nd_kernel.cuh"
#include "nd_paths.cuh"
#include "operand.cuh"
#include "plan.cuh"
#include "row_kernel.cuh"
#include "tile_kernel.cuh"
#include "tuning.cuh"
#include "vector_row_kernel.cuh"

namespace ew {
namespace detail {
inline namespace EW_DETAIL_CONFIG_NAMESPACE {

/// The vector width of an N-dimensional launch: `Wanted` (the call's, else the policy's, else ew's
/// default), and 1 where an element type has no vector form.
template <int Wanted, class... Out, class... In>
constexpr int nd_vec_width(cuda::std::tuple<Out...>*, cuda::std::tuple<In...>*) {
  constexpr bool vectorizable =
      (is_vectorizable_v<output_value_t<Out>> && ...) && (is_vectorizable_v<array_type_t<In>> && ...);
  return vectorizable ? Wanted : 1;
}

/// Launches the tile kernel of `call` (`path == tile`) with the kernels' shapes `Shapes`, in the form of
/// its plan (`tile_form_of`).
template <int Vec, class Shapes, class Call, class Op, class OutTuple, class InTuple>
cudaError_t launch_tiles(const launch_args& args, const Call& call, const Op& op, const OutTuple& outs,
                         const InTuple& ins, cudaStream_t stream) {
  const auto tile_outs = call.tile_out_operands(outs);
  const auto tile_ins = call.tile_in_operands(ins);
  using tile_shape = typename Call::tile_shape_of;
  using outs_t = cuda::std::remove_const_t<decltype(tile_outs)>;
  using ins_t = cuda::std::remove_const_t<decltype(tile_ins)>;
  using thread_t = tile_thread<Op, Vec, tile_shape, Shapes, Call::rank, outs_t, ins_t>;
  constexpr int threads = tile_shape::value.block_threads;
  tile_plan<Call::rank> plan = call.tile;
  std::size_t smem = call.smem_bytes;
  std::uint64_t blocks = call.tile.tiles;
  if (blocks > 0x7fffffffu) blocks = 0x7fffffffu;
  return visit_tile_form(plan, [&](auto form) -> cudaError_t {
    constexpr tile_form Form = decltype(form)::value;
    if constexpr (Form == tile_form::direct_reads && Shapes::value.tile_direct_reads == 0) {
      // plan.cuh sets direct_reads only under shapes with them; this form is not compiled without.
      return fail(cudaErrorUnknown, "ew: internal error: a direct-reads tile plan under shapes without them");
    } else {
      constexpr auto kernel =
          &tile_elementwise_kernel<Op, Vec, tile_shape, Shapes, Call::rank, outs_t, ins_t, Form>;
      if constexpr (Form == tile_form::direct_reads && thread_t::copy_stages > 0) {
        // Asynchronous copies where the image and the device take them.
        std::size_t max_smem = 0;
        cudaError_t err = query_async_smem<kernel>(args.device, max_smem);
        int per_sm = 0;
        if (err == cudaSuccess) smem = thread_t::plan_copies(plan, smem, max_smem);
        if (err == cudaSuccess && plan.async_smem >= 0)
          err = query_resident_blocks<kernel>(args.device, threads, smem, per_sm);
        if (err != cudaSuccess) return fail(err, cudaGetErrorString(err));
        if (plan.async_smem >= 0 && per_sm > 0) {  // the resident blocks loop over the tiles
          const std::uint64_t resident =
              static_cast<std::uint64_t>(per_sm) * static_cast<std::uint64_t>(args.facts.sm_count);
          if (blocks > resident) blocks = resident;
        } else if (plan.async_smem >= 0) {  // no block fits: direct reads
          plan.async_smem = -1;
          smem = call.smem_bytes;
        }
      }
      return launch_kernel<kernel>(
          args, plan, launch_shape{static_cast<std::size_t>(blocks), static_cast<std::size_t>(threads)}, op,
          tile_outs, tile_ins, stream, smem);
    }
  });
}

/// A policy's N-dimensional kernel shapes for `Op`, as the kernels take them (`value`).
template <class Policy, class Op>
struct policy_nd_shapes {
  static constexpr tuning::nd_kernel_shapes value = Policy::template entry<user_op_t<Op>>().nd;
};

/// A vector-row launch: with `S...` (`nd_kernel_shapes::vector_row_kernel_per_set`), the kernel compiled
/// for the set of broadcast arrays that `p.broadcast` names, one per set `S`; without, the kernel holding
/// every set's body; `Form`, `p.form`'s.
template <class Op, int Vec, class Shapes, vector_row_form Form, int R, class OutPtrs, class Ins,
          std::size_t... S>
cudaError_t launch_vector_rows(const launch_args& args, const vector_row_plan<R>& p, const Op& op,
                               const OutPtrs& outs, const Ins& ins, cudaStream_t stream,
                               cuda::std::index_sequence<S...>) {
  constexpr int threads = Shapes::value.vector_row_threads;
  const launch_shape shape{static_cast<std::size_t>(p.blocks), static_cast<std::size_t>(threads)};
  if constexpr (sizeof...(S) == 0) {
    constexpr auto kernel = &vector_row_elementwise_kernel<Op, Vec, Shapes::value.vector_row_unroll, threads,
                                                           R, OutPtrs, Ins, -1, Form>;
    return launch_kernel<kernel>(args, p, shape, op, outs, ins, stream);
  } else {
    constexpr unsigned arrays =
        gather_array_bits<Ins>(cuda::std::make_index_sequence<cuda::std::tuple_size<Ins>::value>{});
    cudaError_t err = cudaSuccess;
    const bool launched =
        ((p.broadcast == subset_of(static_cast<unsigned>(S), arrays)
              ? (err = launch_kernel<
                     &vector_row_elementwise_kernel<Op, Vec, Shapes::value.vector_row_unroll, threads, R,
                                                    OutPtrs, Ins, static_cast<int>(S), Form>>(
                     args, p, shape, op, outs, ins, stream),
                 true)
              : false) ||
         ...);
    return launched ? err
                    : fail(cudaErrorUnknown, "ew: internal error: no vector-row kernel for the plan's set");
  }
}

/// `ew::elementwise` over N-dimensional shape `e` with `Policy`'s entry for `Op` (policy.cuh): outputs
/// `T*` (row-major of `e`) or views of exactly `e`; inputs pointers (row-major of `e`), views broadcastable
/// to `e`, the index, constants and scalars. `UserPolicy`: a policy the call named, whose run-time launch
/// policy replaces ew's on the devices it was measured on (as in the 1-D `dispatch`); ew's own policy
/// leaves `tuning::policy_for_device`'s.
template <class Policy, bool UserPolicy, int VecWidth, class Op, int R, class... Out, class... In>
cudaError_t dispatch_nd(const Op& op, const extents<R>& e, const cuda::std::tuple<Out...>& outs,
                        const cuda::std::tuple<In...>& ins, cudaStream_t stream) {
  static_assert(
      !(is_1d_only_v<In> || ...),
      "ew: internal error: a random operand reached the N-dimensional dispatcher, which takes it as "
      "ew::index() mapped by the op (detail/index_mapped.cuh)");
  static_assert(sizeof...(Out) >= 1,
                "ew::elementwise: an N-dimensional launch needs at least one array output besides its "
                "ew::reduce_into outputs (a reduction alone is a 1-D launch over the elements)");
  using out_tuple = cuda::std::tuple<Out...>;
  using in_tuple = cuda::std::tuple<In...>;
  constexpr auto entry = Policy::template entry<user_op_t<Op>>();
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
  call.tile_smem_limit = tuning::tile_max_smem_bytes - side_reduction_static_smem<Op>;
  cudaError_t err = call.prepare(e, outs, ins, !has_side_reductions_v<Op>);
  if (err != cudaSuccess) return err;
  if (call.elements == 0) return launch_empty(op, stream);
  launch_args args{};
  err = current_launch_args(args);
  if (err != cudaSuccess) return err;
  if constexpr (UserPolicy) {
    if (entry.measured_cc == 0 || entry.measured_cc == args.facts.cc) args.use_policy(entry.launch);
  }

  if (call.contiguous) {  // one contiguous dimension: the 1-D launch, with its vector head and tiles
    constexpr int unroll = entry.shape.unroll_for(num_array_inputs<In...>);
    pointer_info arrays[call.num_ops] = {};
    const int num_arrays = call.arrays(arrays);
    const auto outs_1d =
        cuda::std::apply([](const auto&... o) { return cuda::std::make_tuple(to_contiguous(o)...); }, outs);
    const auto ins_1d =
        cuda::std::apply([](const auto&... a) { return cuda::std::make_tuple(to_contiguous(a)...); }, ins);
    return launch_1d<vec, unroll>(args, op, static_cast<std::size_t>(call.elements), outs_1d, ins_1d, arrays,
                                  num_arrays, stream);
  }
  if (call.path == nd_path::gather) {  // contiguous outputs, inputs found from the flat index
    constexpr int unroll = shapes::value.gather_unroll;
    pointer_info arrays[call.num_ops] = {};
    call.arrays(arrays);
    const auto outs_1d =
        cuda::std::apply([](const auto&... o) { return cuda::std::make_tuple(to_contiguous(o)...); }, outs);
    if constexpr (vec > 1 && !has_side_reductions_v<Op> && shapes::value.vector_row_threads > 0) {
      if (call.vector_rows) {  // whole vectors a row, each input's along it or one element: no loop
        const auto gather_ins = call.gather_operands(ins);
        using ins_t = cuda::std::remove_const_t<decltype(gather_ins)>;
        using thread_t =
            vector_row_thread<Op, vec, shapes::value.vector_row_unroll, R, decltype(outs_1d), ins_t>;
        // The kernels for each set of broadcast arrays, or the one holding them all.
        using sets = cuda::std::conditional_t<
            shapes::value.vector_row_kernel_per_set && thread_t::specialized,
            cuda::std::make_index_sequence<(1u << cuda::std::popcount(thread_t::array_bits))>,
            cuda::std::index_sequence<>>;
        // Each form the plan can take (nd_paths.cuh, `make_vector_row_plan`), its own kernel.
        switch (call.vector_row.form) {
          case vector_row_form::whole:
            return launch_vector_rows<Op, vec, shapes, vector_row_form::whole, R>(
                args, call.vector_row, op, outs_1d, gather_ins, stream, sets{});
          case vector_row_form::pitched:  // rows of whole vectors into padded outputs
            return launch_vector_rows<Op, vec, shapes, vector_row_form::pitched, R>(
                args, call.vector_row, op, outs_1d, gather_ins, stream, sets{});
          case vector_row_form::split:  // long rows that are not whole vectors
            if constexpr (shapes::value.vector_row_split_min_cols > 0) {
              return launch_vector_rows<Op, vec, shapes, vector_row_form::split, R>(
                  args, call.vector_row, op, outs_1d, gather_ins, stream, sets{});
            }
            break;
          case vector_row_form::wrap:  // short rows that are not whole vectors
            if constexpr (shapes::value.vector_row_wrap_min_cols > 0) {
              return launch_vector_rows<Op, vec, shapes, vector_row_form::wrap, R>(
                  args, call.vector_row, op, outs_1d, gather_ins, stream, sets{});
            }
            break;
        }
        return fail(cudaErrorUnknown, "ew: internal error: no vector-row kernel for the plan's form");
      }
    }
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
      if constexpr (narrow_output_tiles_apply<shapes, out_tuple, in_tuple>) {
        if (call.stages_outputs_only()) {  // the FP8 cast-transpose: its own tiles (tuning_nd.cuh)
          using narrow_shapes = narrow_output_shapes<shapes>;
          const auto narrow = call.template with_tiles_of<narrow_shapes>();
          if (narrow.path == nd_path::tile)
            return launch_tiles<vec, narrow_shapes>(args, narrow, op, outs, ins, stream);
        }
      }
      return launch_tiles<vec, shapes>(args, call, op, outs, ins, stream);
    }
  }
  const auto out_operands = call.out_operands(outs);
  const auto in_operands = call.in_operands(ins);
  constexpr tuning::strided_shape st = shapes::value.strided;
  constexpr auto kernel =
      &nd_elementwise_kernel<Op, vec, st.vector_rows, st.vector_cols, st.scalar_rows, st.block_threads,
                             st.min_blocks_per_sm, R, cuda::std::remove_const_t<decltype(out_operands)>,
                             cuda::std::remove_const_t<decltype(in_operands)>>;
  const std::size_t bt = static_cast<std::size_t>(st.block_threads);
  std::size_t blocks = static_cast<std::size_t>((call.plan.items + bt - 1) / bt);
  if (blocks > 0x7fffffffu) blocks = 0x7fffffffu;
  return launch_kernel<kernel>(args, call.plan, launch_shape{blocks < 1 ? 1 : blocks, bt}, op, out_operands,
                               in_operands, stream);
}

}  // namespace EW_DETAIL_CONFIG_NAMESPACE
}  // namespace detail
}  // namespace ew
