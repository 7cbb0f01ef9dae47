// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The vector-row kernel: a gather launch (gather.cuh) whose rows hold whole vectors and whose inputs
/// either run along the rows from a whole vector at every row or are broadcast along them
/// (`nd_call::rows_take_vectors`). Each thread takes `Unroll` vectors of the outputs by their flat index,
/// with no loop: a vector's row and column by one division by multiplication, the row's coordinates by one
/// more per dimension, shared by every input; then one 16-byte load for an input along the rows, one
/// element for an input broadcast along them, given to the op as it is where the body is compiled for that
/// set of broadcast inputs. This is the shape of Inductor's kernels for these launches, and ran the bias,
/// column and per-channel cells at ew's 1-D relu's speed where the row kernel (one row a block) and the
/// 1-D kernel with gather operands ran 0.5 to 14% slower (probe 10, H200, 2026-12-03, docs/PERFORMANCE.md
/// change 23). Rows that are not whole vectors, short ones and padded outputs take the kernel's other forms
/// (`vector_row_form`, vector_row_plan.cuh), each its own kernel. The per-thread body is
/// `__host__ __device__` for the host tests.

#include <cstddef>
#include <cstdint>

#include <cuda/std/array>
#include <cuda/std/bit>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include <nv/target>

#include "../functor.cuh"
#include "config.cuh"
#include "fast_divmod.cuh"
#include "gather.cuh"
#include "kernel.cuh"
#include "launch_shape.cuh"
#include "vector_access.cuh"
#include "vector_row_access.cuh"
#include "vector_row_inputs.cuh"
#include "vector_row_plan.cuh"

namespace ew {
namespace detail {

/// What one thread of a vector-row launch does (`Vec` elements a vector, `Unroll` vectors); `Ins` a tuple of
/// gather operands and uniform 1-D operands, read through `vector_row_inputs` (vector_row_inputs.cuh). `Set`
/// (`0 <= Set < 2^n` for `n` arrays): the body for the broadcast arrays `subset_of(Set, array_bits)` only,
/// which `p.broadcast` must name; -1: every body, the one for `p.broadcast` chosen at run time. `Form`
/// (`p.form`, vector_row_plan.cuh): `split`, rows that are not whole vectors or padded outputs over their
/// memory, an input along the rows loaded as a vector where its address is a whole vector and from the two
/// whole vectors around it where not, and a vector that ends in the padding, the next row or past the last
/// element done element by element (`edge`); `wrap`, short dense rows that are not whole vectors, every
/// vector the same way, an input along the rows element by element from its row and the next, one broadcast
/// along them as its two rows' elements, only the launch's last vector, if short, element by element;
/// `pitched`, rows of whole vectors into padded outputs, as `whole` over the rows' elements, each vector
/// stored at its row's pitch in pieces (`store_vector_pieces`).
template <class Op, int Vec, int Unroll, int R, class OutPtrs, class Ins, int Set = -1,
          vector_row_form Form = vector_row_form::whole>
struct vector_row_thread {
  static constexpr bool Split = Form == vector_row_form::split;
  static constexpr bool Wrap = Form == vector_row_form::wrap;
  static constexpr bool Pitched = Form == vector_row_form::pitched;
  static constexpr std::size_t num_in = cuda::std::tuple_size<Ins>::value;
  static constexpr std::size_t num_out = cuda::std::tuple_size<OutPtrs>::value;
  template <std::size_t K>
  using in_t = typename cuda::std::tuple_element_t<K, Ins>::value_type;
  template <std::size_t K>
  using out_t = cuda::std::remove_pointer_t<cuda::std::tuple_element_t<K, OutPtrs>>;
  /// What the thread reads of each input (vector_row_inputs.cuh).
  using inputs = vector_row_inputs<Vec, R, Ins, Form>;
  /// Bit `i` set where input `i` is an array: what `vector_row_plan::broadcast` may hold.
  static constexpr unsigned array_bits = gather_array_bits<Ins>(cuda::std::make_index_sequence<num_in>{});
  /// Launches of up to this many arrays get a body compiled for each set of broadcast ones (2^n of
  /// them), which gives the op a broadcast element as it is; more take the body that tests each array's
  /// innermost stride and gives the op `Vec` copies.
  static constexpr int max_specialized_arrays = 3;
  static constexpr bool specialized = cuda::std::popcount(array_bits) <= max_specialized_arrays;

  Op op;
  OutPtrs outs;
  Ins ins;
  const vector_row_plan<R>& p;

  /// Block `b`'s vectors, this thread's share of them (`thread` of `threads`).
#pragma nv_exec_check_disable
  EW_HD void block(std::uint32_t b, std::uint32_t thread, std::uint32_t threads) {
    const std::uint32_t first = b * threads * static_cast<std::uint32_t>(Unroll) + thread;
    // The coalesced rank as a constant where it is 2 or 3 (bias, column: 2; per-channel: 3): no coordinate
    // arithmetic predicated on it.
    if (p.last == 1) {
      with_rank<1>(first, threads);
    } else if (p.last == 2 && R >= 3) {
      with_rank<(R >= 3 ? 2 : 1)>(first, threads);
    } else {
      with_rank<0>(first, threads);
    }
  }

 private:
  /// `Last`: the innermost dimension, or 0 for `p.last`.
#pragma nv_exec_check_disable
  template <int Last>
  EW_HD void with_rank(std::uint32_t first, std::uint32_t threads) {
    if constexpr (Set >= 0) {
      static_assert(specialized && Set < (1 << cuda::std::popcount(array_bits)));
      body<true, subset_of(static_cast<unsigned>(Set), array_bits), Last>(
          first, threads, cuda::std::make_index_sequence<num_in>{},
          cuda::std::make_index_sequence<num_out>{});
    } else if constexpr (specialized) {
      with_mask<Last>(first, threads,
                      cuda::std::make_index_sequence<(1u << cuda::std::popcount(array_bits))>{});
    } else {
      body<false, 0, Last>(first, threads, cuda::std::make_index_sequence<num_in>{},
                           cuda::std::make_index_sequence<num_out>{});
    }
  }

  /// `body<true, M>` for `M == p.broadcast` among the subsets `M` of the arrays (`S...` numbers them).
#pragma nv_exec_check_disable
  template <int Last, std::size_t... S>
  EW_HD void with_mask(std::uint32_t first, std::uint32_t threads, cuda::std::index_sequence<S...>) {
    (void)(((p.broadcast == subset_of(static_cast<unsigned>(S), array_bits))
                ? (body<true, subset_of(static_cast<unsigned>(S), array_bits), Last>(
                       first, threads, cuda::std::make_index_sequence<num_in>{},
                       cuda::std::make_index_sequence<num_out>{}),
                   true)
                : false) ||
           ...);
  }

  /// A `Split` launch's vector `v` that ends in the padding, the next row or past the last element, element
  /// by element: the elements from column `col` of row `row` to the row's end, then those of the next row
  /// (none of the padding between).
#pragma nv_exec_check_disable
  template <int Last, std::size_t... I, std::size_t... O>
  EW_HD void edge(std::uint32_t v, cuda::std::index_sequence<I...>, cuda::std::index_sequence<O...>) {
    const std::uint32_t i = v * static_cast<std::uint32_t>(Vec);
    std::uint32_t row, col;
    p.row_vectors.divmod(i, row, col);
    std::uint32_t here[R] = {}, next[R] = {};
    vector_row_coords<Last>(p, row, here);
    vector_row_next_coords<Last>(p, here, next);
    const std::uint32_t off_here[] = {vector_row_offset<Last>(p, cuda::std::get<I>(ins), here)..., 0u};
    const std::uint32_t off_next[] = {vector_row_offset<Last>(p, cuda::std::get<I>(ins), next)..., 0u};
    // Each element loaded, computed and stored in turn: loading them all first (change 28's first form)
    // took the kernel from 32 to 40 registers and ran the odd bias 10 to 27% slower (docs/PERFORMANCE.md).
    EW_DETAIL_UNROLL
    for (std::uint32_t j = 0; j < static_cast<std::uint32_t>(Vec); ++j) {
      const bool on = col + j >= p.pitch;  // in the next row (a vector is never longer than a row)
      const std::uint32_t c = on ? col + j - p.pitch : col + j;
      if (i + j < p.elements && c < p.cols) {  // not past the end, not padding
        auto r = op(vector_row_element(cuda::std::get<I>(ins), i + j, on ? off_next[I] : off_here[I], c)...);
        cuda::std::tuple<vector_word<out_t<O>, 1>...> results;
        ((cuda::std::get<O>(results).elements.v[0] = convert<out_t<O>>(result_part<O, num_out>(r))), ...);
        (store_vector<1>(cuda::std::get<O>(outs) + i + j, cuda::std::get<O>(results)), ...);
      }
    }
  }

#pragma nv_exec_check_disable
  template <bool Known, unsigned Mask, int Last, std::size_t... I, std::size_t... O>
  EW_HD void body(std::uint32_t first, std::uint32_t threads, cuda::std::index_sequence<I...>,
                  cuda::std::index_sequence<O...>) {
    const inputs reads{p};
    cuda::std::tuple<cuda::std::array<vector_row_value<in_t<I>, Vec>, Unroll>...> loaded;
    // `Split`: the vectors `edge` does (1), and those wholly in the outputs' padding, which do nothing (2).
    // `Pitched`: each vector's element offset in the outputs.
    unsigned char edges[Unroll] = {};
    std::uint32_t at[Unroll] = {};
    EW_DETAIL_UNROLL
    for (int u = 0; u < Unroll; ++u) {  // every load first
      const std::uint32_t v = first + static_cast<std::uint32_t>(u) * threads;
      if (v < p.vectors) {
        const std::uint32_t i = v * static_cast<std::uint32_t>(Vec);
        std::uint32_t row, col;
        if constexpr (Wrap) {
          edges[u] = i + static_cast<std::uint32_t>(Vec) > p.elements ? 1 : 0;  // the last vector, short
          if (edges[u] != 0) continue;
          p.row_vectors.divmod(i, row, col);
        } else if constexpr (Split) {
          p.row_vectors.divmod(i, row, col);
          const std::uint32_t end = col + static_cast<std::uint32_t>(Vec);  // `col` below `p.pitch`
          edges[u] = col >= p.cols && end <= p.pitch
                         ? 2
                         : (end > p.cols || i + static_cast<std::uint32_t>(Vec) > p.elements ? 1 : 0);
          if (edges[u] != 0) continue;
        } else {  // `i` is the flat index of a dense layout (the `pitched` form's too)
          p.row_vectors.divmod(v, row, col);
          col *= static_cast<std::uint32_t>(Vec);
          if constexpr (Pitched) at[u] = row * p.pitch + col;
        }
        std::uint32_t coord[R] = {};
        vector_row_coords<Last>(p, row, coord);
        if constexpr (Wrap) {
          std::uint32_t next[R] = {};
          vector_row_next_coords<Last>(p, coord, next);
          ((cuda::std::get<I>(loaded)[u] =
                reads.template wrapped<Known, Mask, Last, I>(cuda::std::get<I>(ins), i, coord, next, col)),
           ...);
        } else {
          ((cuda::std::get<I>(loaded)[u] =
                reads.template input<Known, Mask, Last, I>(cuda::std::get<I>(ins), i, coord, col)),
           ...);
        }
      }
    }
    EW_DETAIL_UNROLL
    for (int u = 0; u < Unroll; ++u) {
      const std::uint32_t v = first + static_cast<std::uint32_t>(u) * threads;
      if (v < p.vectors) {
        if constexpr (Split || Wrap) {
          if (edges[u] != 0) {
            if (edges[u] == 1)
              edge<Last>(v, cuda::std::index_sequence<I...>{}, cuda::std::index_sequence<O...>{});
            continue;
          }
        }
        cuda::std::tuple<vector_word<out_t<O>, Vec>...> results;
        EW_DETAIL_UNROLL
        for (int j = 0; j < Vec; ++j) {
          auto r = op(inputs::template element<Known, Mask, I>(cuda::std::get<I>(loaded)[u], j)...);
          ((cuda::std::get<O>(results).elements.v[j] = convert<out_t<O>>(result_part<O, num_out>(r))), ...);
        }
        if constexpr (Pitched) {
          (store_vector_pieces(cuda::std::get<O>(outs) + at[u], cuda::std::get<O>(results), p.piece), ...);
          continue;
        }
        const std::size_t i = static_cast<std::size_t>(v) * Vec;
        (store_vector<Vec>(cuda::std::get<O>(outs) + i, cuda::std::get<O>(results)), ...);
      }
    }
  }
};

/// The blocks an SM must hold at once for the `split`, `wrap` and `pitched` forms, for `__launch_bounds__`:
/// as many as 32 registers a thread allow (16 of 128 threads), which ptxas met without spilling in every
/// such kernel of `ew_cells` (CUDA 13.0) but two: the `split` form of three arrays none of them broadcast
/// along the rows (per-channel statistics of channels-last data) keeps 8 bytes on the stack where it took
/// 48 registers. Left to itself ptxas took 34 to 48 for some (the `wrap` form's along-the-rows path, the
/// pitched stores: 32 -> 34 to 44 with change 33), and the per-channel add over bf16 `[64, 256, 13, 13]`
/// ran 3 to 7% slower at 34 registers than at 32 (docs/PERFORMANCE.md, changes 31 to 33). The `whole`
/// form: no bound.
template <vector_row_form Form, int Threads>
inline constexpr int vector_row_min_blocks = Form != vector_row_form::whole ? 65536 / (32 * Threads) : 1;

/// The vector-row kernel: block `blockIdx.x` of plan `p`, `Threads` a block, no loop; `Set` and `Form` as
/// in `vector_row_thread`. The programmatic-launch wait and trigger are the 1-D kernel's (kernel.cuh says
/// why). Ops with side reductions do not take it (each block would add its partial sums to the targets: one
/// vector a thread).
#pragma nv_diagnostic push
#pragma nv_diag_suppress 1407
template <class Op, int Vec, int Unroll, int Threads, int R, class OutPtrs, class Ins, int Set,
          vector_row_form Form>
EW_KERNEL void __launch_bounds__(Threads, vector_row_min_blocks<Form, Threads>)
    vector_row_elementwise_kernel(Op op, vector_row_plan<R> p, launch_shape s, OutPtrs outs, Ins ins) {
  NV_IF_TARGET(NV_PROVIDES_SM_90, (cudaGridDependencySynchronize();
                                   if (s.early_trigger) cudaTriggerProgrammaticLaunchCompletion();));
  vector_row_thread<Op, Vec, Unroll, R, OutPtrs, Ins, Set, Form> t{op, outs, ins, p};
  t.block(blockIdx.x, threadIdx.x, Threads);
}
#pragma nv_diagnostic pop

}  // namespace detail
}  // namespace ew
