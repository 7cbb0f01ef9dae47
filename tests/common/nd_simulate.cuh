// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once
//
// Runs the grid an N-dimensional `ew::elementwise` would launch on the host, thread by thread, through the
// kernel body its plan chooses (the 1-D body, with gather operands or without; the tile kernel's
// phases over a buffer standing for shared memory; the N-dimensional body), and logs every store. Shared
// by the N-dimensional host tests.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "catch.hpp"

#include <ew/elementwise.cuh>

namespace ew_test {
namespace nd_sim {

/// Every byte stored by the simulated grid, counted; and every vector access checked for alignment.
struct access_log {
  std::map<std::uintptr_t, int> stores;
  std::size_t misaligned = 0;
};
inline access_log* current_log = nullptr;
inline void observe(const void* p, std::size_t bytes, bool is_store) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  if (a % bytes != 0) ++current_log->misaligned;
  if (is_store) {
    for (std::size_t b = 0; b < bytes; ++b) ++current_log->stores[a + b];
  }
}

/// The vector-row launch of plan `vr`, thread by thread: with `Sets...`, the kernel compiled for the set of
/// broadcast arrays `vr.broadcast` names (`nd_kernel_shapes::vector_row_kernel_per_set`), as the host picks
/// it; without, the kernel that picks the body itself. Each form (`vr.form`) takes its own kernel, as on
/// the GPU. False where no set matches.
template <int Vec, int Unroll, class Op, int R, class OutPtrs, class Ins, std::size_t... Sets>
bool simulate_vector_rows(const Op& op, const OutPtrs& outs, const Ins& ins,
                          const ew::detail::vector_row_plan<R>& vr, std::uint32_t threads,
                          cuda::std::index_sequence<Sets...>) {
  using form = ew::detail::vector_row_form;
  auto run = [&](auto set) {
    auto grid = [&](auto f) {
      using thread_t = ew::detail::vector_row_thread<Op, Vec, Unroll, R, OutPtrs, Ins, decltype(set)::value,
                                                     decltype(f)::value>;
      for (std::uint32_t b = 0; b < vr.blocks; ++b) {
        for (std::uint32_t t = 0; t < threads; ++t) thread_t{op, outs, ins, vr}.block(b, t, threads);
      }
    };
    switch (vr.form) {
      case form::whole:
        grid(std::integral_constant<form, form::whole>{});
        break;
      case form::split:
        grid(std::integral_constant<form, form::split>{});
        break;
      case form::wrap:
        grid(std::integral_constant<form, form::wrap>{});
        break;
      case form::pitched:
        grid(std::integral_constant<form, form::pitched>{});
        break;
    }
  };
  if constexpr (sizeof...(Sets) == 0) {
    run(std::integral_constant<int, -1>{});
    return true;
  } else {
    constexpr unsigned arrays = ew::detail::vector_row_thread<Op, Vec, Unroll, R, OutPtrs, Ins>::array_bits;
    return ((vr.broadcast == ew::detail::subset_of(static_cast<unsigned>(Sets), arrays)
                 ? (run(std::integral_constant<int, static_cast<int>(Sets)>{}), true)
                 : false) ||
            ...);
  }
}

/// The shared memory a simulated tile block may take (an H100's and an H200's opt-in limit, 227 KiB), as
/// `query_async_smem` finds it on a device that takes asynchronous copies.
inline constexpr std::size_t simulated_block_smem = 227u * 1024u;

/// The tile kernel's grid of launch description `call` (its path `tile`) under shapes `S`, every thread of
/// every block, phase by phase, as `simulate` (below) runs it.
template <class S, class Op, class Call, class... Out, class... In>
std::string simulate_tiles(const Op& op, const Call& call, const cuda::std::tuple<Out...>& outs,
                           const cuda::std::tuple<In...>& ins) {
  constexpr int vec = Call::vector_width;
  constexpr int R = Call::rank;
  const auto out_ops = call.tile_out_operands(outs);
  const auto in_ops = call.tile_in_operands(ins);
  using thread_t = ew::detail::tile_thread<Op, vec, typename Call::tile_shape_of, S, R,
                                           cuda::std::remove_const_t<decltype(out_ops)>,
                                           cuda::std::remove_const_t<decltype(in_ops)>>;
  constexpr int threads = Call::tile_shape_of::value.block_threads;
  // Asynchronous copies as launch_tiles plans them on a device that takes them (`simulated_block_smem`).
  ew::detail::tile_plan<R> plan = call.tile;
  const std::size_t smem_total = thread_t::plan_copies(plan, call.smem_bytes, simulated_block_smem);
  std::vector<unsigned char> smem_bytes(smem_total + 32);
  auto* smem =
      reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(smem_bytes.data()) + 15) / 16 * 16);
  const auto poison = [&](std::size_t from, std::size_t to) {  // stale tiles
    std::fill(smem + from, smem + to, static_cast<unsigned char>(0xA5));
  };
  const auto work = [&](std::uint64_t tile, int buffer) {
    // The kernel's form (`tile_form_of`): the paths it compiles.
    const auto place = ew::detail::tile_origin(plan, tile);
    const auto phases = [&](auto form) {
      constexpr ew::detail::tile_form f = decltype(form)::value;
      if (f != ew::detail::tile_form::direct_reads && plan.staged_inputs) {
        for (int t = 0; t < threads; ++t)
          thread_t{op, out_ops, in_ops, plan}.template stage<f>(place, smem, t);
      }
      for (int t = 0; t < threads; ++t)
        thread_t{op, out_ops, in_ops, plan}.template compute<f>(place, smem, t, buffer);
      if (plan.staged_outputs) {  // transposed outputs: phase 3
        for (int t = 0; t < threads; ++t)
          thread_t{op, out_ops, in_ops, plan}.template unstage<f>(place, smem, t);
      }
    };
    ew::detail::visit_tile_form(plan, phases);
  };
  if constexpr (thread_t::copy_stages > 0) {
    if (plan.async_smem >= 0) {
      // A grid of up to 2 blocks, each looping over its tiles in the kernel's order (`async_tile_order`),
      // each buffer poisoned once its tile is done, the staged tiles before each tile.
      const std::uint64_t grid = plan.tiles < 2 ? plan.tiles : 2;
      for (std::uint64_t block = 0; block < grid; ++block) {
        poison(0, smem_total);
        ew::detail::async_tile_order<thread_t::copy_stages>(
            block, grid, plan.tiles,
            [&](std::uint64_t tile, int buffer) {
              for (int t = 0; t < threads; ++t)
                thread_t{op, out_ops, in_ops, plan}.copy(tile, buffer, smem, t);
            },
            [] {},
            [&](std::uint64_t tile, int buffer) {
              poison(0, static_cast<std::size_t>(plan.async_smem));
              work(tile, buffer);
              const std::size_t at = static_cast<std::size_t>(plan.async_smem) +
                                     static_cast<std::size_t>(buffer) * thread_t::copied_stage_bytes;
              poison(at, at + thread_t::copied_stage_bytes);
            });
      }
    }
  }
  if (plan.async_smem < 0) {
    for (std::uint64_t tile = 0; tile < plan.tiles; ++tile) {
      poison(0, smem_total);
      work(tile, -1);
    }
  }
  return "tile rank " + std::to_string(plan.rank) + " side " + std::to_string(plan.side) + " threads " +
         std::to_string(threads) + " b " + std::to_string(plan.b) + " tiles " + std::to_string(plan.tiles) +
         " smem " + std::to_string(smem_total) +
         (plan.vector_tiles ? " vector_tiles split " + std::to_string(plan.stage_split) : "") +
         (plan.staged_inputs ? " staged inputs" : "") + (plan.staged_outputs ? " staged outputs" : "") +
         (plan.direct_reads ? " direct reads" : "") +
         (plan.async_smem >= 0 ? " async copies " + std::to_string(thread_t::copy_stages) : "");
}

/// Runs the grid `ew::elementwise(op, e, outs, ins)` would launch, thread by thread, on the host; with
/// `VecRows` x `VecCols` slots per work item on the N-dimensional kernel's vectorized path (ew's own by
/// default) and the other kernels' shapes `S::value` (a `tuning::nd_kernel_shapes`; ew's own by default).
template <int VecRows = ew::tuning::default_nd_shapes.strided.vector_rows,
          int VecCols = ew::tuning::default_nd_shapes.strided.vector_cols,
          class S = ew::tuning::default_nd_shapes_t, int R, class Op, class... Out, class... In>
std::string simulate(const Op& op, const ew::extents<R>& e, const cuda::std::tuple<Out...>& outs,
                     const cuda::std::tuple<In...>& ins) {
  using out_tuple = cuda::std::tuple<Out...>;
  using in_tuple = cuda::std::tuple<In...>;
  constexpr int wanted =
      ew::detail::default_vec_width<ew::detail::output_value_t<Out>..., ew::detail::array_type_t<In>...>;
  constexpr int vec =
      ew::detail::nd_vec_width<wanted>(static_cast<out_tuple*>(nullptr), static_cast<in_tuple*>(nullptr));
  using call_t = ew::detail::nd_call<vec, R, out_tuple, in_tuple, S>;
  call_t call;
  call.tile_smem_limit = ew::tuning::tile_max_smem_bytes - ew::detail::side_reduction_static_smem<Op>;
  REQUIRE(call.prepare(e, outs, ins, !ew::detail::has_side_reductions_v<Op>) == cudaSuccess);
  if (call.elements == 0) return "empty";
  if (call.contiguous) {
    constexpr int unroll = ew::tuning::default_kernel_shape.unroll_for(ew::detail::num_array_inputs<In...>);
    ew::detail::pointer_info arrays[call.num_ops] = {};
    const int num_arrays = call.arrays(arrays);
    const auto outs_1d = cuda::std::apply(
        [](const auto&... o) { return cuda::std::make_tuple(ew::detail::to_contiguous(o)...); }, outs);
    const auto ins_1d = cuda::std::apply(
        [](const auto&... a) { return cuda::std::make_tuple(ew::detail::to_contiguous(a)...); }, ins);
    const int head = vec > 1 ? ew::detail::vector_head(arrays, num_arrays, vec) : ew::detail::no_vector_path;
    const auto plan = ew::detail::plan_paths<vec, unroll>(call.elements, head, ew::tuning::policy_for_cc(90));
    const auto in_ops = ew::detail::as_operands(ins_1d);
    for (std::size_t b = 0; b < plan.shape.blocks; ++b) {
      for (std::size_t t = 0; t < plan.shape.block_threads; ++t) {
        ew::detail::elementwise_grid_thread<Op, vec, unroll, ew::detail::scalar_unroll<vec, unroll>>(
            op, plan.part, plan.shape, outs_1d, in_ops, b, t);
      }
    }
    return "1-D, head " + std::to_string(head);
  }
  if (call.path == ew::detail::nd_path::gather) {  // the 1-D body with gather operands
    constexpr int unroll = S::value.gather_unroll;
    ew::detail::pointer_info arrays[call.num_ops] = {};
    call.arrays(arrays);
    const auto outs_1d = cuda::std::apply(
        [](const auto&... o) { return cuda::std::make_tuple(ew::detail::to_contiguous(o)...); }, outs);
    if constexpr (vec > 1 && !ew::detail::has_side_reductions_v<Op> && S::value.vector_row_threads > 0) {
      if (call.vector_rows) {  // the vector-row kernel
        const auto& vr = call.vector_row;
        const auto in_ops = call.gather_operands(ins);
        using ins_t = cuda::std::remove_const_t<decltype(in_ops)>;
        constexpr int unroll = S::value.vector_row_unroll;
        using thread_t = ew::detail::vector_row_thread<Op, vec, unroll, R, decltype(outs_1d), ins_t>;
        constexpr auto threads = static_cast<std::uint32_t>(S::value.vector_row_threads);
        bool ran = false;
        if constexpr (S::value.vector_row_kernel_per_set && thread_t::specialized) {
          ran = simulate_vector_rows<vec, unroll>(
              op, outs_1d, in_ops, vr, threads,
              cuda::std::make_index_sequence<(1u << cuda::std::popcount(thread_t::array_bits))>{});
        } else {
          ran = simulate_vector_rows<vec, unroll>(op, outs_1d, in_ops, vr, threads,
                                                  cuda::std::index_sequence<>{});
        }
        if (!ran) return "vector_row: no kernel for broadcast " + std::to_string(vr.broadcast);
        using form = ew::detail::vector_row_form;
        return std::string(vr.form == form::pitched
                               ? (vr.inputs_take_vectors ? "vector_row pitched"
                                                         : "vector_row pitched, inputs off vectors")
                           : vr.form == form::split ? "vector_row split"
                           : vr.form == form::wrap  ? "vector_row wrap"
                                                    : "vector_row") +
               " row_vectors " + std::to_string(vr.row_vectors.divisor) + " blocks " +
               std::to_string(vr.blocks) + " broadcast " + std::to_string(vr.broadcast);
      }
    }
    if constexpr (vec > 1) {
      if (call.whole_rows) {  // the row kernel
        const auto& rows = call.row;
        const auto in_ops = call.gather_operands(ins);
        using thread_t = ew::detail::row_thread<Op, vec, S::value.row_unroll, decltype(outs_1d),
                                                cuda::std::remove_const_t<decltype(in_ops)>>;
        constexpr auto threads = static_cast<std::uint32_t>(S::value.row_block_threads);
        for (std::uint32_t b = 0; b < rows.blocks; ++b) {
          for (std::uint32_t t = 0; t < threads; ++t) {
            thread_t{op, outs_1d, in_ops, rows}.block(b, t, threads);
          }
        }
        return "row cols " + std::to_string(rows.cols) + " chunk " + std::to_string(rows.chunk) + " blocks " +
               std::to_string(rows.blocks);
      }
    }
    const int head =
        vec > 1 ? ew::detail::vector_head(arrays, call.num_out, vec) : ew::detail::no_vector_path;
    const auto plan = ew::detail::plan_paths<vec, unroll>(call.elements, head, ew::tuning::policy_for_cc(90));
    const auto in_ops = call.gather_operands(ins);
    for (std::size_t b = 0; b < plan.shape.blocks; ++b) {
      for (std::size_t t = 0; t < plan.shape.block_threads; ++t) {
        ew::detail::elementwise_grid_thread<Op, vec, unroll, ew::detail::scalar_unroll<vec, unroll>>(
            op, plan.part, plan.shape, outs_1d, in_ops, b, t);
      }
    }
    return "gather rank " + std::to_string(call.shape.rank) + ", head " + std::to_string(head);
  }
  if constexpr (vec > 1) {
    if (call.path == ew::detail::nd_path::tile) {  // every thread of every block, phase by phase
      if constexpr (ew::detail::narrow_output_tiles_apply<S, out_tuple, in_tuple>) {
        if (call.stages_outputs_only()) {  // as dispatch_nd: the tile plan made again for these tiles
          using narrow_shapes = ew::detail::narrow_output_shapes<S>;
          const auto narrow = call.template with_tiles_of<narrow_shapes>();
          if (narrow.path == ew::detail::nd_path::tile)
            return simulate_tiles<narrow_shapes>(op, narrow, outs, ins) + " (narrow-output tiles)";
        }
      }
      return simulate_tiles<S>(op, call, outs, ins);
    }
  }
  if (call.plan.vec > 1) {
    call.plan = ew::detail::make_nd_plan(call.shape, call.plan.vec, VecRows, VecCols,
                                         call.ops[0].address / call.ops[0].element_size);
  }
  const auto out_ops = call.out_operands(outs);
  const auto in_ops = call.in_operands(ins);
  const std::size_t bt = static_cast<std::size_t>(S::value.strided.block_threads);
  const ew::detail::launch_shape shape{static_cast<std::size_t>((call.plan.items + bt - 1) / bt), bt};
  for (std::size_t b = 0; b < shape.blocks; ++b) {
    for (std::size_t t = 0; t < bt; ++t) {
      ew::detail::nd_grid_thread<Op, vec, VecRows, VecCols, S::value.strided.scalar_rows, R>(
          op, call.plan, shape, out_ops, in_ops, b, t);
    }
  }
  return "N-d rank " + std::to_string(call.plan.rank) + " vec " + std::to_string(call.plan.vec) + " head " +
         std::to_string(call.plan.head) + " rows " + std::to_string(call.plan.rows) + " cols " +
         std::to_string(call.plan.cols);
}

/// A host buffer for one operand's layout, filled with distinct values, 16-byte aligned.
template <class T>
struct buffer {
  std::vector<unsigned char> bytes;
  T* base;
  explicit buffer(std::int64_t n) : bytes(static_cast<std::size_t>(n) * sizeof(T) + 64) {
    auto a = reinterpret_cast<std::uintptr_t>(bytes.data());
    base = reinterpret_cast<T*>((a + 15) / 16 * 16);
  }
};

template <class T>
void fill_random(T* p, std::int64_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<float> d(-4.0f, 4.0f);
  for (std::int64_t i = 0; i < n; ++i) p[i] = ew::convert<T>(d(rng));
}

}  // namespace nd_sim
}  // namespace ew_test
