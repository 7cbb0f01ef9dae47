// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// Host simulation of a 1-D launch with side reductions (test code only): every thread of the grid the
// launcher would launch, through the kernel body, each thread's partial folded in as its block's end
// would (`host_finish`), then the last block's part for overwrite targets (`host_end`).

#include <cstddef>
#include <type_traits>

#include <ew/elementwise.cuh>

namespace ew_test {

/// Every thread of the launcher's grid for the 1-D launch of `user_op` over `x` (n floats) into `outs`
/// (arrays and reductions; `info` the arrays' pointers, outputs first, for the vector head), `block_threads`
/// a block. The grid is capped as the launcher caps it on a device of `sm_count` SMs with
/// `blocks_per_sm` blocks a SM (`side_reduction_shape`; `sm_count` 0: no cap a SM, only the overwrite
/// workspace's), so that blocks loop over tiles as on the GPU. Returns the grid's block count.
template <int Vec, int Unroll, class Op, class... Out, std::size_t K>
std::size_t run_simulated_grid(const Op& user_op, const float* x, std::size_t n, int block_threads,
                               const cuda::std::tuple<Out...>& outs,
                               const ew::detail::pointer_info (&info)[K], int sm_count = 0,
                               int blocks_per_sm = 32) {
  using split = ew::detail::side_split<Op, Out...>;
  const auto op = split::wrap(user_op, outs);
  using op_t = std::remove_const_t<decltype(op)>;
  const auto arrays = split::arrays(outs);
  auto ins = cuda::std::make_tuple(ew::detail::contiguous_input<float>{x});
  const int head = ew::detail::vector_head(info, static_cast<int>(K), Vec);
  ew::tuning::launch_policy policy = ew::tuning::policy_for_cc(90);
  policy.block_threads = block_threads;
  policy.reduction_blocks_per_sm = blocks_per_sm;
  policy.monotone_reduction_blocks_per_sm = blocks_per_sm;
  policy.overwrite_blocks_per_sm = blocks_per_sm;
  const auto plan = ew::detail::plan_paths<Vec, Unroll>(n, head, policy);
  const ew::detail::launch_shape shape = ew::detail::side_reduction_shape<op_t>(plan.shape, sm_count, policy);
  for (std::size_t b = 0; b < shape.blocks; ++b) {
    for (std::size_t t = 0; t < shape.block_threads; ++t) {
      const op_t partial =
          ew::detail::elementwise_grid_thread<op_t, Vec, Unroll, ew::detail::scalar_unroll<Vec, Unroll>>(
              op, plan.part, shape, arrays, ins, b, t);
      partial.host_finish(b, t);
    }
  }
  op.host_end(shape.blocks, shape.block_threads);
  return shape.blocks;
}

}  // namespace ew_test
