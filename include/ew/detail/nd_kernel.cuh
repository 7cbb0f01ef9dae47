// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The N-dimensional kernel: its operands (arrays with strides, the element index as an affine operand,
/// and the 1-D kernel's constants and scalars), the per-thread body `nd_grid_thread`, `__host__ __device__`
/// so that the host tests run it over simulated grids, and the kernel. The shape it walks is an `nd_plan`
/// (nd_layout.cuh).

#include <cstddef>
#include <cstdint>

#include <cuda/std/array>
#include <cuda/std/tuple>
#include <cuda/std/utility>

#include <nv/target>

#include "../functor.cuh"
#include "config.cuh"
#include "kernel.cuh"
#include "nd_layout.cuh"
#include "operand.cuh"
#include "partition.cuh"
#include "tuning.cuh"
#include "vector_access.cuh"

namespace ew {
namespace detail {

/// Offset of row coordinates `coord` (the `outer` outer dimensions) along strides `stride`.
// Every loop over dimensions here runs to the compile-time rank `R` and skips what the launch's rank does not
// use, so that once unrolled each array index is a constant: indexed at run time, the coordinates would go
// to local memory and the plan's arrays be copied there (PyTorch's OffsetCalculator loops the same way).
template <int R>
EW_HD std::int64_t row_offset(const std::int64_t (&stride)[R], const std::int64_t (&coord)[R], int outer) {
  std::int64_t off = 0;
  EW_DETAIL_UNROLL
  for (int d = 0; d < R; ++d) {
    if (d < outer) off += coord[d] * stride[d];
  }
  return off;
}

/// Whether `p` is aligned to a vector of `Vec` elements of `T`.
template <int Vec, class T>
EW_HD bool vector_aligned(const T* p) {
  return reinterpret_cast<std::uintptr_t>(p) % (sizeof(T) * Vec) == 0;
}

/// An array input of an N-dimensional launch: element `(row coordinates, c)` is
/// `ptr[row_offset + c * inner]`. `invariant`: every outer stride is 0 (a row broadcast, like a bias over
/// `[tokens, hidden]`), so one load serves every row of a work item.
template <class T, int R>
struct nd_array_input {
  using value_type = T;
  const T* ptr;
  std::int64_t stride[R];
  std::int64_t inner;
  bool invariant;

  EW_HD std::int64_t offset(const std::int64_t (&coord)[R], int outer) const {
    return row_offset(stride, coord, outer);
  }
  EW_HD T element(std::int64_t off, std::int64_t c) const { return ptr[off + c * inner]; }
  /// The `Vec` elements from column `c0`, all inside the row; `inner` is 0 or 1 when `Vec > 1`.
  template <int Vec>
  EW_HD vector_word<T, Vec> vector(std::int64_t off, std::int64_t c0) const {
    vector_word<T, Vec> u;
    if constexpr (Vec == 1) {
      u.elements.v[0] = element(off, c0);
    } else {
      if (inner == 0) {  // broadcast along the row: one load for the vector
        const T v = ptr[off];
        for (int j = 0; j < Vec; ++j) u.elements.v[j] = v;
      } else {
        const T* p = ptr + off + c0;
        if (vector_aligned<Vec>(p)) {
          u = load_vector<Vec>(p);
        } else {  // at another offset within its vectors than the first output
          for (int j = 0; j < Vec; ++j) u.elements.v[j] = p[j];
        }
      }
    }
    return u;
  }
};

/// The element index or one coordinate, as an affine function of the coordinates: `offset + c * inner`.
template <int R>
struct nd_affine_input {
  using value_type = std::int64_t;
  std::int64_t stride[R];
  std::int64_t inner;
  bool invariant;

  EW_HD std::int64_t offset(const std::int64_t (&coord)[R], int outer) const {
    return row_offset(stride, coord, outer);
  }
  EW_HD std::int64_t element(std::int64_t off, std::int64_t c) const { return off + c * inner; }
  template <int Vec>
  EW_HD vector_word<std::int64_t, Vec> vector(std::int64_t off, std::int64_t c0) const {
    vector_word<std::int64_t, Vec> u;
    for (int j = 0; j < Vec; ++j) u.elements.v[j] = off + (c0 + j) * inner;
    return u;
  }
};

/// A 1-D operand that is the same at every element (`constant_input`, `scalar_input`) in an
/// N-dimensional launch.
template <class Uniform>
struct nd_uniform_input {
  using value_type = typename Uniform::value_type;
  Uniform u;
  static constexpr bool invariant = true;

  template <int R>
  EW_HD std::int64_t offset(const std::int64_t (&)[R], int) const {
    return 0;
  }
  EW_HD value_type element(std::int64_t, std::int64_t) const { return u.element(0); }
  template <int Vec>
  EW_HD vector_word<value_type, Vec> vector(std::int64_t, std::int64_t) const {
    return u.template vector<Vec>(0);
  }
};

/// An output of an N-dimensional launch: element `(row coordinates, c)` is `ptr[row_offset + c * inner]`.
template <class T, int R>
struct nd_output {
  using value_type = T;
  T* ptr;
  std::int64_t stride[R];
  std::int64_t inner;

  EW_HD std::int64_t offset(const std::int64_t (&coord)[R], int outer) const {
    return row_offset(stride, coord, outer);
  }
  EW_HD void store(std::int64_t off, std::int64_t c, T v) const {
    observe_access(ptr + off + c * inner, sizeof(T), true);
    ptr[off + c * inner] = v;
  }
  /// Stores `Vec` elements from column `c0`, all inside the row; `inner` is 1 when `Vec > 1`.
  template <int Vec>
  EW_HD void store_vector(std::int64_t off, std::int64_t c0, const vector_word<T, Vec>& w) const {
    if constexpr (Vec == 1) {
      store(off, c0, w.elements.v[0]);
    } else {
      T* p = ptr + off + c0;
      if (vector_aligned<Vec>(p)) {
        detail::store_vector<Vec>(p, w);
      } else {
        for (int j = 0; j < Vec; ++j) store(off, c0 + j, w.elements.v[j]);
      }
    }
  }
};

/// What one thread does with one work item of an `nd_plan` (`Vec` elements per slot, `Rows` rows of `Cols`
/// slots per item; `Outs` a tuple of `nd_output`, `Ins` of N-dimensional input operands). All of an item's
/// loads are issued before the op runs on the first.
template <class Op, int Vec, int Rows, int Cols, int R, class Outs, class Ins>
struct nd_thread {
  static constexpr std::size_t num_in = cuda::std::tuple_size<Ins>::value;
  static constexpr std::size_t num_out = cuda::std::tuple_size<Outs>::value;
  template <std::size_t K>
  using in_t = typename cuda::std::tuple_element_t<K, Ins>::value_type;
  template <std::size_t K>
  using out_t = typename cuda::std::tuple_element_t<K, Outs>::value_type;

  Op op;
  Outs outs;
  Ins ins;
  const nd_plan<R>& p;

#pragma nv_exec_check_disable
  EW_HD void item(std::uint64_t w) {
    item_impl(w, cuda::std::make_index_sequence<num_in>{}, cuda::std::make_index_sequence<num_out>{});
  }

 private:
#pragma nv_exec_check_disable
  template <std::size_t... I, std::size_t... O>
  EW_HD void item_impl(std::uint64_t w, cuda::std::index_sequence<I...>, cuda::std::index_sequence<O...>) {
    // Work item -> (row group, first slot); 32-bit division where the items fit, a shorter sequence.
    std::uint64_t group, slot0;
    if (p.items <= 0xffffffffu) {
      const unsigned g = static_cast<unsigned>(w) / static_cast<unsigned>(p.slot_stride);
      group = g;
      slot0 = w - static_cast<std::uint64_t>(g) * p.slot_stride;
    } else {
      group = w / p.slot_stride;
      slot0 = w - group * p.slot_stride;
    }
    const std::uint64_t row0 = group * static_cast<std::uint64_t>(Rows);
    const int outer = p.rank - 1;
    std::int64_t coord[R];
    row_coordinates(row0, coord);
    const std::int64_t cols = static_cast<std::int64_t>(p.cols);
    // Only the outputs' row offsets live past the loads: the inputs' are used where they are computed, so
    // that a many-input op keeps its registers (ptxas spilled up to 660 bytes per thread of an NCHW
    // three-input op when every row's input offsets were kept for the partial slots too).
    std::int64_t off_out[num_out][Rows];
    int head[Rows];
    bool valid[Rows], full[Rows][Cols];
    cuda::std::tuple<cuda::std::array<vector_word<in_t<I>, Vec>, Rows * Cols>...> loaded;
    EW_DETAIL_UNROLL
    for (int u = 0; u < Rows; ++u) {
      valid[u] = row0 + static_cast<std::uint64_t>(u) < p.rows;
      ((off_out[O][u] = cuda::std::get<O>(outs).offset(coord, outer)), ...);
      head[u] = 0;
      if constexpr (Vec > 1) {
        head[u] = p.head >= 0
                      ? p.head
                      : static_cast<int>(
                            (reinterpret_cast<std::uintptr_t>(cuda::std::get<0>(outs).ptr + off_out[0][u]) /
                             sizeof(out_t<0>)) %
                            static_cast<std::uintptr_t>(Vec));
      }
      EW_DETAIL_UNROLL
      for (int k = 0; k < Cols; ++k) {
        const std::uint64_t slot = slot0 + static_cast<std::uint64_t>(k) * p.slot_stride;
        const std::int64_t c0 = static_cast<std::int64_t>(slot) * Vec - head[u];
        full[u][k] = valid[u] && slot < p.slots && c0 >= 0 && c0 + Vec <= cols;
        // Rows share a row-invariant operand's vector when every row's slot starts at the same column.
        const bool share = u > 0 && p.head >= 0 && full[0][k];
        if (full[u][k]) {
          ((cuda::std::get<I>(loaded)[u * Cols + k] =
                (share && cuda::std::get<I>(ins).invariant)
                    ? cuda::std::get<I>(loaded)[k]
                    : cuda::std::get<I>(ins).template vector<Vec>(cuda::std::get<I>(ins).offset(coord, outer),
                                                                  c0)),
           ...);
        }
      }
      // Next row: the innermost outer coordinate, with carries.
      bool carry = true;
      EW_DETAIL_UNROLL
      for (int d = R - 1; d >= 0; --d) {
        if (d < outer && carry) {
          ++coord[d];
          carry = d > 0 && coord[d] == p.extent[d];
          if (carry) coord[d] = 0;
        }
      }
    }
    EW_DETAIL_UNROLL
    for (int u = 0; u < Rows; ++u) {
      EW_DETAIL_UNROLL
      for (int k = 0; k < Cols; ++k) {
        const std::uint64_t slot = slot0 + static_cast<std::uint64_t>(k) * p.slot_stride;
        const std::int64_t c0 = static_cast<std::int64_t>(slot) * Vec - head[u];
        if (full[u][k]) {
          cuda::std::tuple<vector_word<out_t<O>, Vec>...> results;
          EW_DETAIL_UNROLL
          for (int j = 0; j < Vec; ++j) {
            auto r = op(cuda::std::get<I>(loaded)[u * Cols + k].elements.v[j]...);
            ((cuda::std::get<O>(results).elements.v[j] = convert<out_t<O>>(result_part<O, num_out>(r))), ...);
          }
          (cuda::std::get<O>(outs).template store_vector<Vec>(off_out[O][u], c0, cuda::std::get<O>(results)),
           ...);
        } else if (valid[u] &&
                   slot < p.slots) {  // a slot at a row's end: the columns inside the row, one by one
          std::int64_t row[R];
          row_coordinates(row0 + static_cast<std::uint64_t>(u), row);
          for (int j = 0; j < Vec; ++j) {
            const std::int64_t c = c0 + j;
            if (c < 0 || c >= cols) continue;
            auto r = op(cuda::std::get<I>(ins).element(cuda::std::get<I>(ins).offset(row, outer), c)...);
            (cuda::std::get<O>(outs).store(off_out[O][u], c, convert<out_t<O>>(result_part<O, num_out>(r))),
             ...);
          }
        }
      }
    }
  }

  /// The outer coordinates of row `row`: one division per outer dimension but the outermost.
  EW_HD void row_coordinates(std::uint64_t row, std::int64_t (&coord)[R]) const {
    const int outer = p.rank - 1;
    EW_DETAIL_UNROLL
    for (int d = 0; d < R; ++d) coord[d] = 0;
    EW_DETAIL_UNROLL
    for (int d = R - 1; d >= 1; --d) {
      if (d < outer) {
        const std::uint64_t e = static_cast<std::uint64_t>(p.extent[d]);
        coord[d] = static_cast<std::int64_t>(row % e);
        row /= e;
      }
    }
    coord[0] = static_cast<std::int64_t>(row);
  }
};

/// What thread `thread` of block `block` does in an N-dimensional launch of shape `s` over plan `p`: the
/// work items `block * block_threads + thread`, grid-stride, on the vectorized path (`p.vec == Vec`,
/// `VecRows` rows of `VecCols` slots per item) or the element-wise one (`p.vec == 1`, `ScalarRows` rows of
/// one slot).
#pragma nv_exec_check_disable
template <class Op, int Vec, int VecRows, int VecCols, int ScalarRows, int R, class Outs, class Ins>
EW_HD auto nd_grid_thread(const Op& op, const nd_plan<R>& p, const launch_shape& s, const Outs& outs,
                          const Ins& ins, std::size_t block, std::size_t thread) {
  const std::uint64_t threads = static_cast<std::uint64_t>(s.blocks) * s.block_threads;
  const std::uint64_t first = static_cast<std::uint64_t>(block) * s.block_threads + thread;
  if constexpr (Vec > 1) {
    if (p.vec == Vec) {
      nd_thread<Op, Vec, VecRows, VecCols, R, Outs, Ins> t{op, outs, ins, p};
      for (std::uint64_t w = first; w < p.items; w += threads) t.item(w);
      // With side reductions (side_reduction.cuh) the thread's copy of the op holds its partial results.
      if constexpr (has_side_reductions_v<Op>) {
        return t.op;
      } else {
        return;
      }
    }
  }
  nd_thread<Op, 1, ScalarRows, 1, R, Outs, Ins> t{op, outs, ins, p};
  for (std::uint64_t w = first; w < p.items; w += threads) t.item(w);
  if constexpr (has_side_reductions_v<Op>) return t.op;
}

/// The N-dimensional kernel: `outs[k][x] = op(ins[0][x], ins[1][x], ...)[k]` for every coordinate `x` of
/// plan `p`. The programmatic-launch wait and trigger are the 1-D kernel's (kernel.cuh says why).
#pragma nv_diagnostic push
#pragma nv_diag_suppress 1407
template <class Op, int Vec, int VecRows, int VecCols, int ScalarRows, int Threads, int MinBlocks, int R,
          class Outs, class Ins>
EW_KERNEL void __launch_bounds__(Threads, MinBlocks)
    nd_elementwise_kernel(Op op, nd_plan<R> p, launch_shape s, Outs outs, Ins ins) {
  NV_IF_TARGET(NV_PROVIDES_SM_90, (cudaGridDependencySynchronize();
                                   if (s.early_trigger) cudaTriggerProgrammaticLaunchCompletion();));
  if constexpr (has_side_reductions_v<Op>) {
    finish_side_reductions(nd_grid_thread<Op, Vec, VecRows, VecCols, ScalarRows, R>(
        start_side_reductions(op), p, s, outs, ins, blockIdx.x, threadIdx.x));
  } else {
    nd_grid_thread<Op, Vec, VecRows, VecCols, ScalarRows, R>(op, p, s, outs, ins, blockIdx.x, threadIdx.x);
  }
}
#pragma nv_diagnostic pop

}  // namespace detail
}  // namespace ew
