// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The row kernel: a gather launch (gather.cuh) whose rows hold whole vectors. Each block takes a chunk of
/// one row of the coalesced shape; each input's row start is found once per block (one division per
/// dimension), as a row cursor (its row's first element and its step along the row; a value broadcast
/// along the row is loaded once), and the vectors of the row need no division at all. The per-thread body
/// is `__host__ __device__` for the host tests.

#include <cstddef>
#include <cstdint>

#include <cuda/std/array>
#include <cuda/std/tuple>
#include <cuda/std/utility>

#include <nv/target>

#include "../functor.cuh"
#include "config.cuh"
#include "fast_divmod.cuh"
#include "gather.cuh"
#include "kernel.cuh"
#include "operand.cuh"
#include "partition.cuh"
#include "side_reduction.cuh"
#include "tuning.cuh"
#include "vector_access.cuh"

namespace ew {
namespace detail {

/// The rows of a row launch: `cols` elements a row (a multiple of the vector width), cut into
/// `chunks_per_row` chunks of `chunk` elements (the last may be shorter); block `b` takes chunk `b %
/// chunks_per_row` of row `b / chunks_per_row`.
struct row_plan {
  std::uint32_t cols = 0;
  std::uint32_t chunk = 0;
  fast_divmod chunks_per_row{1};
  std::uint32_t blocks = 0;
};

/// A gather input along one row: `p[c * step]`, or `value` where the input is broadcast along the row.
template <class T>
struct row_cursor {
  using value_type = T;
  const T* p;
  std::int64_t step;
  T value;

  template <int Vec>
  EW_HD vector_word<T, Vec> vector(std::uint32_t c) const {
    vector_word<T, Vec> u;
    if (step == 0) {
      EW_DETAIL_UNROLL
      for (int j = 0; j < Vec; ++j) u.elements.v[j] = value;
    } else if (step == 1 && reinterpret_cast<std::uintptr_t>(p + c) % (sizeof(T) * Vec) == 0) {
      u = load_vector<Vec>(p + c);
    } else {
      EW_DETAIL_UNROLL
      for (int j = 0; j < Vec; ++j) u.elements.v[j] = p[(static_cast<std::int64_t>(c) + j) * step];
    }
    return u;
  }
};
/// The index or a coordinate along one row.
struct row_affine_cursor {
  using value_type = std::int64_t;
  std::int64_t first;
  std::int64_t step;

  template <int Vec>
  EW_HD vector_word<std::int64_t, Vec> vector(std::uint32_t c) const {
    vector_word<std::int64_t, Vec> u;
    EW_DETAIL_UNROLL
    for (int j = 0; j < Vec; ++j) u.elements.v[j] = first + (static_cast<std::int64_t>(c) + j) * step;
    return u;
  }
};
/// A constant or scalar operand along one row: itself.
template <class Uniform>
struct row_uniform_cursor {
  using value_type = typename Uniform::value_type;
  Uniform u;

  template <int Vec>
  EW_HD vector_word<value_type, Vec> vector(std::uint32_t) const {
    return u.template vector<Vec>(0);
  }
};

/// The cursor of row start `i0` (a flat index): one division per dimension, once per block.
template <class T, int R>
EW_HD row_cursor<T> row_cursor_of(const gather_input<T, R>& x, std::uint64_t i0) {
  if (x.flat) return {x.ptr + i0, 1, T{}};
  std::int64_t col;
  const T* p = x.ptr + x.map.offset(i0, col);
  const std::int64_t step = x.map.inner_stride;
  return {p, step, step == 0 ? *p : T{}};
}
template <int R>
EW_HD row_affine_cursor row_cursor_of(const gather_affine<R>& x, std::uint64_t i0) {
  if (x.flat) return {static_cast<std::int64_t>(i0), 1};
  std::int64_t col;
  return {x.map.offset(i0, col), x.map.inner_stride};
}
template <class X>
EW_HD row_uniform_cursor<X> row_cursor_of(const X& x, std::uint64_t) {
  return {x};
}

/// What one thread of a row launch does (`Vec` elements per access, `Unroll` vectors in flight); `Ins` a
/// tuple of gather operands and uniform 1-D operands.
template <class Op, int Vec, int Unroll, class OutPtrs, class Ins>
struct row_thread {
  static constexpr std::size_t num_in = cuda::std::tuple_size<Ins>::value;
  static constexpr std::size_t num_out = cuda::std::tuple_size<OutPtrs>::value;
  template <std::size_t K>
  using in_t = typename cuda::std::tuple_element_t<K, Ins>::value_type;
  template <std::size_t K>
  using out_t = cuda::std::remove_pointer_t<cuda::std::tuple_element_t<K, OutPtrs>>;

  Op op;
  OutPtrs outs;
  Ins ins;
  const row_plan& p;

  /// Block `b`'s chunk, this thread's share of it (`thread` of `threads`).
#pragma nv_exec_check_disable
  EW_HD void block(std::uint32_t b, std::uint32_t thread, std::uint32_t threads) {
    impl(b, thread, threads, cuda::std::make_index_sequence<num_in>{},
         cuda::std::make_index_sequence<num_out>{});
  }

 private:
#pragma nv_exec_check_disable
  template <std::size_t... I, std::size_t... O>
  EW_HD void impl(std::uint32_t b, std::uint32_t thread, std::uint32_t threads,
                  cuda::std::index_sequence<I...>, cuda::std::index_sequence<O...>) {
    std::uint32_t row, chunk;
    p.chunks_per_row.divmod(b, row, chunk);
    const std::uint64_t i0 = static_cast<std::uint64_t>(row) * p.cols;
    const auto cursors = cuda::std::make_tuple(row_cursor_of(cuda::std::get<I>(ins), i0)...);
    const std::uint32_t c0 = chunk * p.chunk;
    const std::uint32_t c1 = p.cols - c0 < p.chunk ? p.cols : c0 + p.chunk;
    const std::uint32_t step = threads * Vec;
    for (std::uint32_t c = c0 + thread * Vec; c < c1; c += step * Unroll) {
      cuda::std::tuple<cuda::std::array<vector_word<in_t<I>, Vec>, Unroll>...> loaded;
      EW_DETAIL_UNROLL
      for (int u = 0; u < Unroll; ++u) {  // every load first
        const std::uint32_t cu = c + static_cast<std::uint32_t>(u) * step;
        if (cu < c1)
          ((cuda::std::get<I>(loaded)[u] = cuda::std::get<I>(cursors).template vector<Vec>(cu)), ...);
      }
      EW_DETAIL_UNROLL
      for (int u = 0; u < Unroll; ++u) {
        const std::uint32_t cu = c + static_cast<std::uint32_t>(u) * step;
        if (cu < c1) {
          cuda::std::tuple<vector_word<out_t<O>, Vec>...> results;
          EW_DETAIL_UNROLL
          for (int j = 0; j < Vec; ++j) {
            auto r = op(cuda::std::get<I>(loaded)[u].elements.v[j]...);
            ((cuda::std::get<O>(results).elements.v[j] = convert<out_t<O>>(result_part<O, num_out>(r))), ...);
          }
          (store_vector<Vec>(cuda::std::get<O>(outs) + i0 + cu, cuda::std::get<O>(results)), ...);
        }
      }
    }
  }
};

/// The row kernel: the blocks of plan `p`, grid-stride, `Threads` a block. The programmatic-launch wait and
/// trigger are the 1-D kernel's (kernel.cuh says why).
#pragma nv_diagnostic push
#pragma nv_diag_suppress 1407
template <class Op, int Vec, int Unroll, int Threads, class OutPtrs, class Ins>
EW_KERNEL void __launch_bounds__(Threads)
    row_elementwise_kernel(Op op, row_plan p, launch_shape s, OutPtrs outs, Ins ins) {
  NV_IF_TARGET(NV_PROVIDES_SM_90, (cudaGridDependencySynchronize();
                                   if (s.early_trigger) cudaTriggerProgrammaticLaunchCompletion();));
  auto run = [&](auto& t) {
    for (std::uint32_t b = blockIdx.x; b < p.blocks; b += gridDim.x) t.block(b, threadIdx.x, blockDim.x);
  };
  if constexpr (has_side_reductions_v<Op>) {
    row_thread<Op, Vec, Unroll, OutPtrs, Ins> t{start_side_reductions(op), outs, ins, p};
    run(t);
    finish_side_reductions(t.op);
  } else {
    row_thread<Op, Vec, Unroll, OutPtrs, Ins> t{op, outs, ins, p};
    run(t);
  }
}
#pragma nv_diagnostic pop

}  // namespace detail
}  // namespace ew
