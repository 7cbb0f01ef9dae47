// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// What `ew::elementwise`'s overloads (elementwise.cuh) share before the dispatcher: a policy's entry for
/// the op (`dispatch_policy`), the discarded outputs and the side reductions taken out of the outputs, the
/// latter checked (`with_written_outputs`), an N-dimensional launch's random operands read as the index
/// (`with_nd_operands`), and the element count of a shape. In the configuration's
/// namespace, as the dispatchers it calls.

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>

#include "config.cuh"
#include "dispatch.cuh"
#include "discard.cuh"
#include "dispatch_nd.cuh"
#include "index_mapped.cuh"
#include "operand.cuh"
#include "side_split.cuh"
#include "validate.cuh"

namespace ew {
namespace detail {
inline namespace EW_DETAIL_CONFIG_NAMESPACE {
/// `dispatch` with `Policy`'s entry for `Op`: its vector width and loads in flight choose the kernel, its
/// launch policy applies on devices of its `measured_cc`.
template <class Policy, int VecWidth, class Op, class... Out, class... In>
cudaError_t dispatch_policy(const Op& op, std::size_t n, const cuda::std::tuple<Out*...>& outs,
                            const cuda::std::tuple<In...>& ins, cudaStream_t stream) {
  constexpr auto e = Policy::template entry<user_op_t<Op>>();
  constexpr int vec = launch_vec_width<VecWidth, e.vec_width, Out..., array_type_t<In>...>;
  constexpr int unroll = e.shape.unroll_for(num_array_inputs<In...>);
  static_assert(e.shape.loads_in_flight >= 1 && e.shape.loads_in_flight <= 16,
                "ew::policy_entry: shape.loads_in_flight must be in [1, 16]");
  const tuning::launch_policy launch = e.launch;
  return dispatch<vec, unroll>(op, n, outs, ins, stream, &launch, e.measured_cc);
}

/// Runs `launch(op, outs)` for a launch of `count` elements, after taking its `ew::reduce_into` outputs out
/// of `outs` (side_split.cuh): with any, `op` is wrapped to reduce their parts and `outs` keeps only
/// the arrays, once the targets are checked against every operand (`ins` too).
template <class Op, class... Out, class... In, class Launch>
cudaError_t with_side_reductions(const Op& op, const cuda::std::tuple<Out...>& outs,
                                 const cuda::std::tuple<In...>& ins, std::uint64_t count, Launch& launch) {
  if constexpr (!(is_reduce_target_v<Out> || ...)) {
    return launch(op, outs);
  } else {
    using split = side_split<Op, Out...>;
    // An empty launch checks its targets only when it writes them (overwrite targets: dispatch.cuh's
    // launch_empty); otherwise it checks nothing, as every empty ew launch.
    if (count > 0 || has_overwrite_targets_v<decltype(split::wrap(op, outs))>) {
      pointer_info targets[split::num_locations];
      reduce_location kinds[split::num_locations];
      split::targets(outs, targets, kinds);
      byte_span spans[sizeof...(Out) + sizeof...(In) + 1] = {};
      int k = 0;
      cuda::std::apply([&](const auto&... o) { ((spans[k++] = operand_span(o, count)), ...); }, outs);
      cuda::std::apply([&](const auto&... a) { ((spans[k++] = operand_span(a, count)), ...); }, ins);
      cudaError_t err = check_reduce_targets(targets, kinds, split::num_locations, spans, k);
      if (err == cudaSuccess) err = check_device_access(targets, split::num_locations);
      if (err != cudaSuccess) return err;
    }
    return launch(split::wrap(op, outs), split::arrays(outs));
  }
}

/// Runs `launch(op, outs)` with only the outputs a launch writes: `ew::discard` outputs taken out
/// (discard.cuh), then `ew::reduce_into` ones (`with_side_reductions`).
template <class Op, class... Out, class... In, class Launch>
cudaError_t with_written_outputs(const Op& op, const cuda::std::tuple<Out...>& outs,
                                 const cuda::std::tuple<In...>& ins, std::uint64_t count, Launch&& launch) {
  return without_discards(op, outs, [&](const auto& o, const auto& written) {
    return with_side_reductions(o, written, ins, count, launch);
  });
}

/// Runs `launch(op, outs, ins)` for an N-dimensional launch of `count` elements: the operands read as the
/// flat index taken out of `ins` (index_mapped.cuh), then the outputs it does not write out of `outs`
/// (`with_written_outputs`).
template <class Op, class... Out, class... In, class Launch>
cudaError_t with_nd_operands(const Op& op, const cuda::std::tuple<Out...>& outs,
                             const cuda::std::tuple<In...>& ins, std::uint64_t count, Launch&& launch) {
  return with_index_mapped_inputs(op, outs, ins, count, [&](const auto& mapped, const auto& launched) {
    return with_written_outputs(mapped, outs, launched, count, [&](const auto& o, const auto& written) {
      return launch(o, written, launched);
    });
  });
}

/// The element count of an N-dimensional shape, saturating (the launch rejects what overflows).
template <int R>
std::uint64_t element_count(const extents<R>& e) {
  std::uint64_t c = 1;
  for (int d = 0; d < R; ++d) {
    if (e.v[d] <= 0) return 0;
    const std::uint64_t x = static_cast<std::uint64_t>(e.v[d]);
    c = c > UINT64_MAX / x ? UINT64_MAX : c * x;
  }
  return c;
}

/// Whether every output of a 1-D launch is a pointer, a side reduction or `ew::discard`.
template <class Tuple>
inline constexpr bool all_1d_outputs = false;
template <class... A>
inline constexpr bool all_1d_outputs<cuda::std::tuple<A...>> =
    ((cuda::std::is_pointer_v<A> || is_reduce_target_v<A> || is_discard_v<A>)&&...);
}  // namespace EW_DETAIL_CONFIG_NAMESPACE
}  // namespace detail
}  // namespace ew
