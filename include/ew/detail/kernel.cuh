// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The one element-wise kernel. The per-thread body (`elementwise_thread`) is `__host__ __device__`, so the
/// host tests run it over simulated grids with vector_access.cuh's host twins; the kernel itself is device
/// code, sized and launched by dispatch.cuh.

#include <cstddef>
#include <cstring>

#include <cuda/std/array>
#include <cuda/std/tuple>
#include <cuda/std/utility>

#include <nv/target>

#include "../functor.cuh"
#include "config.cuh"
#include "operand.cuh"
#include "partition.cuh"
#include "side_reduction.cuh"
#include "tuning.cuh"
#include "vector_access.cuh"

namespace ew {
namespace detail {

/// Writes part `K` of an op's result: the result itself for one output, its `K`-th element for several.
template <std::size_t K, std::size_t NumOut, class R>
EW_HD decltype(auto) result_part(R& r) {
  if constexpr (NumOut == 1) {
    return (r);
  } else {
    return cuda::std::get<K>(r);
  }
}

/// Two float results as the two bytes of one packed FP8 pair, `lo` in the low byte: the packed
/// `cvt.rn.satfinite.e4m3x2.f32` (or e5m2x2) of sm_89 and later, one instruction for two values where
/// cuda_fp8.h's one-value conversion spends one per value; on the host the same cuda_fp8.h function (its
/// software path), so that the host tests run the lanes' packing and unpacking the GPU runs; before sm_89
/// one value at a time.
template <class To>
EW_HD unsigned fp8_pair_bits(float lo, float hi) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 890
  return static_cast<unsigned>(convert<To>(lo).__x) | (static_cast<unsigned>(convert<To>(hi).__x) << 8u);
#else
  return __nv_cvt_float2_to_fp8x2(make_float2(lo, hi), __NV_SATFINITE, fp8_kind<To>);
#endif
}

/// Part `K` of the `Vec` results `r` converted into `out` (`ew::convert`'s rules): an FP8 output of a float
/// part two elements at a time (`fp8_pair_bits`), anything else element by element.
template <std::size_t K, std::size_t NumOut, class To, int Vec, class R>
EW_HD void convert_results(vector_word<To, Vec>& out, R (&r)[Vec]) {
  using part_t =
      cuda::std::remove_cv_t<cuda::std::remove_reference_t<decltype(result_part<K, NumOut>(r[0]))>>;
  if constexpr (is_fp8_v<To> && cuda::std::is_same_v<part_t, float> && Vec % 4 == 0 && uses_word_v<To, Vec>) {
    // Two pairs into each 32-bit word (one byte permute), element j in byte j as in memory: stored one
    // byte at a time into `elements`, the pairs were split and reassembled with masks and shifts, about
    // seven instructions every four elements (CUDA 13.0, sm_90; docs/PERFORMANCE.md, change 45).
    unsigned words[Vec / 4];
    EW_DETAIL_UNROLL
    for (int k = 0; k < Vec / 4; ++k) {
      const unsigned lo =
          fp8_pair_bits<To>(result_part<K, NumOut>(r[4 * k]), result_part<K, NumOut>(r[4 * k + 1]));
      const unsigned hi =
          fp8_pair_bits<To>(result_part<K, NumOut>(r[4 * k + 2]), result_part<K, NumOut>(r[4 * k + 3]));
      NV_IF_TARGET(NV_IS_DEVICE, (words[k] = __byte_perm(lo, hi, 0x5410);),
                   (words[k] = (lo & 0xffffu) | ((hi & 0xffffu) << 16);));
    }
    static_assert(sizeof(words) == sizeof(out.word), "four FP8 elements a word");
    memcpy(&out.word, words, sizeof(words));
  } else if constexpr (is_fp8_v<To> && cuda::std::is_same_v<part_t, float> && Vec % 2 == 0) {
    EW_DETAIL_UNROLL
    for (int j = 0; j < Vec; j += 2) {
      const unsigned w = fp8_pair_bits<To>(result_part<K, NumOut>(r[j]), result_part<K, NumOut>(r[j + 1]));
      out.elements.v[j] = fp8_from_bits<To>(static_cast<__nv_fp8_storage_t>(w & 0xffu));
      out.elements.v[j + 1] = fp8_from_bits<To>(static_cast<__nv_fp8_storage_t>(w >> 8));
    }
  } else {
    EW_DETAIL_UNROLL
    for (int j = 0; j < Vec; ++j) out.elements.v[j] = convert<To>(result_part<K, NumOut>(r[j]));
  }
}

/// What one thread does with the elements and vectors `tile_schedule` and `scalar_schedule` hand it.
/// `OutPtrs` is a tuple of the launch's output pointers, `Ins` a tuple of input operands (operand.cuh);
/// vector `i` starts at element `head + i * Vec`.
template <class Op, int Vec, int Unroll, class OutPtrs, class Ins>
struct elementwise_thread {
  static constexpr std::size_t num_in = cuda::std::tuple_size<Ins>::value;
  static constexpr std::size_t num_out = cuda::std::tuple_size<OutPtrs>::value;
  using in_seq = cuda::std::make_index_sequence<num_in>;
  using out_seq = cuda::std::make_index_sequence<num_out>;

  template <std::size_t K>
  using in_t = typename cuda::std::tuple_element_t<K, Ins>::value_type;
  template <std::size_t K>
  using out_t = cuda::std::remove_pointer_t<cuda::std::tuple_element_t<K, OutPtrs>>;

  Op op;
  OutPtrs outs;
  Ins ins;
  std::size_t head;

  /// Element `i`, one load per input and one store per output.
  // nv_exec_check_disable here and below: `Op` may be device-only (a `__device__` functor); the host
  // instantiation exists only for the host tests, which use `__host__ __device__` ops.
#pragma nv_exec_check_disable
  EW_HD void scalar(std::size_t i) { scalar_impl(i, in_seq{}, out_seq{}); }

  /// Vectors `first + u * stride` for `u < Unroll`. All loads are issued before the first use.
#pragma nv_exec_check_disable
  EW_HD void vectors(std::size_t first, std::size_t stride) {
    vectors_impl(first, stride, in_seq{}, out_seq{});
  }

  /// The same in 32-bit arithmetic, for a launch whose element indices fit 32 bits and whose `head` is 0
  /// (`launch_shape::whole_tiles`).
#pragma nv_exec_check_disable
  EW_HD void vectors(unsigned first, unsigned stride) { vectors_impl(first, stride, in_seq{}, out_seq{}); }

 private:
#pragma nv_exec_check_disable
  template <std::size_t... I, std::size_t... O>
  EW_HD void scalar_impl(std::size_t i, cuda::std::index_sequence<I...>, cuda::std::index_sequence<O...>) {
    auto r = op(cuda::std::get<I>(ins).element(i)...);
    (void)r;  // a launch that only reduces (side_reduction.cuh) writes no part of it
    ((observe_access(cuda::std::get<O>(outs) + i, sizeof(out_t<O>), true),
      cuda::std::get<O>(outs)[i] = convert<out_t<O>>(result_part<O, num_out>(r))),
     ...);
  }

#pragma nv_exec_check_disable
  template <class Index, std::size_t... I, std::size_t... O>
  EW_HD void vectors_impl(Index first, Index stride, cuda::std::index_sequence<I...>,
                          cuda::std::index_sequence<O...>) {
    cuda::std::tuple<cuda::std::array<vector_word<in_t<I>, Vec>, Unroll>...> loaded;
    // Every input's vector `u` in input order, for each `u`: with a random operand its Philox rounds sit
    // between the array loads. Issuing all array loads first measured slower on the H200 (bf16 dropout
    // 0.752 of relu, against 0.837 in this order: docs/PERFORMANCE.md, change 9b), so it was taken back.
    EW_DETAIL_UNROLL
    for (int u = 0; u < Unroll; ++u) {
      const Index e = static_cast<Index>(head) + (first + static_cast<Index>(u) * stride) * Vec;
      ((cuda::std::get<I>(loaded)[u] = cuda::std::get<I>(ins).template vector<Vec>(e)), ...);
    }
    EW_DETAIL_UNROLL
    for (int u = 0; u < Unroll; ++u) {
      cuda::std::tuple<vector_word<out_t<O>, Vec>...> results;
      if constexpr ((is_fp8_v<out_t<O>> || ...)) {
        // Every result first, then each output's conversion, so that FP8 outputs convert two at a time.
        using result_t = cuda::std::remove_cv_t<
            cuda::std::remove_reference_t<decltype(op(cuda::std::get<I>(loaded)[u].elements.v[0]...))>>;
        result_t r[Vec];
        EW_DETAIL_UNROLL
        for (int j = 0; j < Vec; ++j) r[j] = op(cuda::std::get<I>(loaded)[u].elements.v[j]...);
        (convert_results<O, num_out>(cuda::std::get<O>(results), r), ...);
      } else {
        EW_DETAIL_UNROLL
        for (int j = 0; j < Vec; ++j) {
          auto r = op(cuda::std::get<I>(loaded)[u].elements.v[j]...);
          (void)r;
          ((cuda::std::get<O>(results).elements.v[j] = convert<out_t<O>>(result_part<O, num_out>(r))), ...);
        }
      }
      [[maybe_unused]] const Index e =
          static_cast<Index>(head) + (first + static_cast<Index>(u) * stride) * Vec;
      (store_vector<Vec>(cuda::std::get<O>(outs) + e, cuda::std::get<O>(results)), ...);
    }
  }
};

/// What thread `thread` of block `block` of the kernel does: one kernel holds both paths, chosen per launch
/// by `p.vec`:
/// - the vectorized path (`p.vec == Vec`): `Vec` elements per access, `Unroll` vectors per input in flight
///   per thread, after a head that aligns every pointer (`vector_head`); when the launch is whole tiles
///   only, one a block, below 2^32 elements (`s.whole_tiles`), the block's tile alone, in 32-bit indices;
/// - the scalar path (`p.vec == 1`): one element per access, `ScalarUnroll` in flight per thread.
/// `p` and `s` come from `plan_paths` (launch_shape.cuh) for the same `Vec` and `Unroll`. `__host__
/// __device__` so that the host tests run it for every thread of simulated grids.
#pragma nv_exec_check_disable
template <class Op, int Vec, int Unroll, int ScalarUnroll, class OutPtrs, class Ins>
EW_HD auto elementwise_grid_thread(const Op& op, const partition& p, const launch_shape& s,
                                   const OutPtrs& outs, const Ins& ins, std::size_t block,
                                   std::size_t thread) {
  // The scalar elements are the same code on both paths: one loop for them, after the tiles.
  elementwise_thread<Op, 1, ScalarUnroll, OutPtrs, Ins> scalar_thread{op, outs, ins, 0};
  if constexpr (Vec > 1) {
    if (s.whole_tiles) {
      // Whole tiles only, one a block, indices in 32 bits: no tile loop, no scalar elements. Probe 8
      // (docs/PERFORMANCE.md): a kernel of only this ran the 1-D cells 2 to 8% faster at 2^20 and 2^22
      // elements and 1 to 4% at 2^24 than the general path, the same from 2^26.
      elementwise_thread<Op, Vec, Unroll, OutPtrs, Ins> vector_thread{op, outs, ins, 0};
      const auto tv = static_cast<unsigned>(p.tile_vectors), bt = static_cast<unsigned>(s.block_threads);
      vector_thread.vectors(static_cast<unsigned>(block) * tv + static_cast<unsigned>(thread), bt);
      if constexpr (has_side_reductions_v<Op>) {
        scalar_thread.op.merge(vector_thread.op);
        return scalar_thread.op;
      } else {
        return;
      }
    }
    if (p.vec == Vec) {
      elementwise_thread<Op, Vec, Unroll, OutPtrs, Ins> vector_thread{op, outs, ins, p.head};
      tile_schedule(p, s, block, thread, vector_thread);
      if constexpr (has_side_reductions_v<Op>) scalar_thread.op.merge(vector_thread.op);
    } else {
      tile_schedule(p, s, block, thread, scalar_thread);
    }
  } else {
    tile_schedule(p, s, block, thread, scalar_thread);
  }
  scalar_schedule(p, s, block, thread, scalar_thread);
  // With side reductions (side_reduction.cuh) the thread's copy of the op holds its partial results.
  if constexpr (has_side_reductions_v<Op>) return scalar_thread.op;
}

/// `outs[k][i] = op(ins[0][i], ins[1][i], ...)[k]` for every `i` in `[0, p.n)`, block tiles grid-stride.
///
/// Both paths in one kernel (`elementwise_grid_thread`); `s.blocks` and `s.block_threads` must match the
/// launch. One kernel rather than one per path: each kernel carries its own symbol, parameter bank and
/// metadata, and two per op made ew's device code larger than cub's for the same ops (docs/PERFORMANCE.md,
/// "Device code size").
// Hidden visibility only applies to kernels with external linkage; a functor from an anonymous namespace
// gives its instantiation internal linkage, where nvcc warns that the attribute is ignored (#1407). That
// is the intended outcome, so the warning is silenced for this definition only.
#pragma nv_diagnostic push
#pragma nv_diag_suppress 1407
template <class Op, int Vec, int Unroll, int ScalarUnroll, class OutPtrs, class Ins>
EW_KERNEL void __launch_bounds__(tuning::max_block_threads)
    elementwise_kernel(Op op, partition p, launch_shape s, OutPtrs outs, Ins ins) {
  // Programmatic dependent launch (sm_90+): when the launch allowed it, this grid may start while the
  // previous kernel in the stream is still finishing. cudaGridDependencySynchronize (griddepcontrol.wait)
  // blocks until that kernel has completed and its writes are visible, so nothing below can read stale
  // data; without the launch attribute it returns at once. cudaTriggerProgrammaticLaunchCompletion lets the
  // next kernel begin its launch as soon as every block of this one has started: its blocks then wait in
  // turn. Only for small grids (`s.early_trigger`, tuning.cuh says why); otherwise the trigger is implicit,
  // as each block exits. An image of this kernel compiled for an older architecture (PTX for compute_80,
  // JIT-compiled on an H200) has no wait, so the host asks for programmatic launch only for images whose
  // PTX version is EW_DETAIL_PROGRAMMATIC_WAIT_ARCH or later (device_cache.cuh), the architecture
  // NV_PROVIDES_SM_90 names.
  static_assert(EW_DETAIL_PROGRAMMATIC_WAIT_ARCH == 900, "the NV_IF_TARGET below must name the same arch");
  NV_IF_TARGET(NV_PROVIDES_SM_90, (cudaGridDependencySynchronize();
                                   if (s.early_trigger) cudaTriggerProgrammaticLaunchCompletion();));
  if constexpr (has_side_reductions_v<Op>) {
    finish_side_reductions(elementwise_grid_thread<Op, Vec, Unroll, ScalarUnroll>(
        start_side_reductions(op), p, s, outs, ins, blockIdx.x, threadIdx.x));
  } else {
    elementwise_grid_thread<Op, Vec, Unroll, ScalarUnroll>(op, p, s, outs, ins, blockIdx.x, threadIdx.x);
  }
}
#pragma nv_diagnostic pop

}  // namespace detail
}  // namespace ew
