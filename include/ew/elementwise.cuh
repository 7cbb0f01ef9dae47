// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// ew's public entry point: `ew::elementwise`, one launch that applies a functor element by element at the
/// card's memory bandwidth.
///
/// @code
/// ew::elementwise(ew::add<float>{}, n, c, ew::in(a, b), stream);   // c[i] = a[i] + b[i]
/// ew::elementwise(ew::relu<float>{}, n, y, x);                     // y[i] = max(x[i], 0), stream 0
/// ew::elementwise(ew::compose(ew::add<float>{}, ew::relu<float>{}), n, y, ew::in(a, b), stream);  // fused
/// ew::elementwise(ew::sincos<float>{}, n, ew::out(s, c), x, stream);  // two outputs in one pass
/// @endcode
///
/// The functors are in ops.cuh (write your own with functor.cuh); `ew::compose` (compose.cuh) chains them
/// into one; `ew::in` / `ew::out` (arguments.cuh) group several operands; `ew::elementwise<Policy>`
/// launches with a tuned policy instead of ew's defaults (policy.cuh, and `ew_tune --emit-header`).

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "arguments.cuh"
#include "compose.cuh"
#include "detail/overloads.cuh"
#include "error.cuh"
#include "functor.cuh"
#include "operands.cuh"
#include "ops.cuh"
#include "ops_logic.cuh"
#include "ops_math.cuh"
#include "policy.cuh"
#include "random.cuh"
#include "reduce.cuh"

namespace ew {

/// `VecWidth` value that lets ew pick: 16-byte accesses for the widest element type involved.
inline constexpr int vec_auto = 0;

/// Applies `op` to every index `i` in `[0, n)`: `out[i] = op(in0[i], in1[i], ...)`.
///
/// @tparam Op       Functor whose call operator takes one element per input, by value, and returns the output
///                  element (for several outputs, a tuple-like value with one element per output). Passed by
///                  value to the kernel, so it may carry state (`ew::clamp<float>{lo, hi}`).
/// @tparam VecWidth Elements per vector access: `ew::vec_auto` (16 bytes for the widest element type), or
///                  1, 2, 4, 8, 16 with `VecWidth * sizeof(T) <= 16` for every element type (checked at
///                  compile time). Element types of other sizes (`float3`, 12 bytes; structs over 16 bytes)
///                  work too, on the scalar path: `vec_auto` picks it, and a `VecWidth` over 1 is rejected.
/// @param op     The functor.
/// @param n      Number of elements, 64-bit. `n == 0` launches nothing and returns cudaSuccess, except with
///               `ew::reduce_overwrite` outputs: one thread then stores the reduction's identity there.
/// @param out    The output pointer, or `ew::out(p, q, ...)` for several; among them side reductions,
///               `ew::reduce_into<R>(p)` (reduce.cuh), which reduce their part of the result into `*p`.
/// @param in     The input pointer, or `ew::in(a, b, ...)` for several; element types may differ from the
///               outputs' and from each other. An input may be exactly an output (in place); any other
///               overlap is rejected.
/// @param stream Stream to launch on; the call never synchronizes (unless EW_DEBUG_SYNC is defined).
/// @return cudaSuccess; cudaErrorInvalidValue for bad arguments (null pointer with n > 0, pointer not aligned
///         to `alignof` its element type, partial overlap), with nothing launched; or the CUDA error of the
///         launch, including a sticky error left by earlier work. `ew::last_error_message()` says why.
///
/// Any alignment works: when every pointer has the same element offset within a 16-byte vector, a short
/// scalar head makes the rest vectorized; otherwise every access is scalar.
///
/// Each element is converted from the op's result to its output type with `ew::convert` (functor.cuh):
/// one rounding to nearest even for floating outputs, and for integer outputs from a floating result,
/// truncation toward zero saturated to the integer's range, NaN giving 0.
// In the configuration's namespace (config.cuh): EW_DEBUG_SYNC changes what this calls.
inline namespace EW_DETAIL_CONFIG_NAMESPACE {
template <class Op, int VecWidth = vec_auto, class Out, class In>
[[nodiscard]] cudaError_t elementwise(Op op, std::size_t n, Out out, In in, cudaStream_t stream = 0) {
  static_assert(detail::all_1d_outputs<decltype(detail::output_tuple(out))>,
                "ew::elementwise: a 1-D launch writes pointers; an ew::strided output needs an "
                "N-dimensional launch (ew::extents{...} instead of n)");
  const auto ins = detail::input_tuple(in);
  return detail::with_written_outputs(op, detail::output_tuple(out), ins, n,
                                      [&](const auto& o, const auto& outs) {
                                        return detail::dispatch_default<VecWidth>(o, n, outs, ins, stream);
                                      });
}

/// Applies `op` at every coordinate of the N-dimensional shape `shape` (`ew::extents{d0, d1, ...}`,
/// row-major, the last dimension fastest): `out[x] = op(in0[x], in1[x], ...)`.
///
/// @param out    A pointer (a row-major array of `shape`), an `ew::strided` view of exactly `shape`, or
///               `ew::out(...)` of them. No two elements of an output may share an address (a stride of 0
///               is rejected), and outputs may not overlap each other or any input other than exactly the
///               same view (in place).
/// @param in     Pointers (row-major arrays of `shape`), `ew::strided` views broadcastable to `shape`
///               (NumPy's rule: right-aligned, each extent equal to the launch's or 1), `ew::index()` (the
///               linear index) or `ew::index(d)` (the coordinate along `d`), `ew::constant(v)`,
///               `ew::scalar(p)`, random operands (random.cuh; element `x` from its linear index); or
///               `ew::in(...)` of them.
/// @return cudaSuccess (an extent of 0 launches nothing but the identities of `ew::reduce_overwrite`
///         outputs); cudaErrorInvalidValue with nothing launched for
///         bad arguments (negative extents or strides, a view not broadcastable to `shape`, an output view
///         of other extents, overlaps, null or misaligned pointers, sizes past 64 bits); or the launch's
///         CUDA error. `ew::last_error_message()` says why.
///
/// Dimensions are coalesced first (size-1 dimensions dropped, the rest ordered by the first output's
/// strides and merged where every operand's strides chain): a launch that is contiguous after that runs
/// as the 1-D launch. Otherwise the N-dimensional kernel walks rows of the innermost dimension with 16-byte
/// vectors where every output's innermost stride is 1 and every array input's is 1 or 0 (broadcast: one
/// load per vector), and element by element elsewhere (a transposed read).
template <class Op, int VecWidth = vec_auto, int Rank, class Out, class In>
[[nodiscard]] cudaError_t elementwise(Op op, const extents<Rank>& shape, Out out, In in,
                                      cudaStream_t stream = 0) {
  const auto ins = detail::input_tuple(in);
  return detail::with_nd_operands(op, detail::output_tuple(out), ins, detail::element_count(shape),
                                  [&](const auto& o, const auto& outs, const auto& launched) {
                                    return detail::dispatch_nd<default_policy, false, VecWidth>(
                                        o, shape, outs, launched, stream);
                                  });
}

/// `ew::elementwise` with the launch choices of `Policy` (policy.cuh) instead of ew's defaults:
/// `ew::elementwise<my_tuned_policy>(op, n, out, in, stream)`. Everything else (arguments, checks, errors,
/// results) is as above; a policy changes only how fast the same results come. A `VecWidth` other than
/// `vec_auto` overrides the policy's vector width.
template <class Policy, int VecWidth = vec_auto, class Op, class Out, class In,
          cuda::std::enable_if_t<is_policy_v<Policy>, int> = 0>
[[nodiscard]] cudaError_t elementwise(Op op, std::size_t n, Out out, In in, cudaStream_t stream = 0) {
  static_assert(detail::all_1d_outputs<decltype(detail::output_tuple(out))>,
                "ew::elementwise: a 1-D launch writes pointers; an ew::strided output needs an "
                "N-dimensional launch (ew::extents{...} instead of n)");
  const auto ins = detail::input_tuple(in);
  return detail::with_written_outputs(
      op, detail::output_tuple(out), ins, n, [&](const auto& o, const auto& outs) {
        return detail::dispatch_policy<Policy, VecWidth>(o, n, outs, ins, stream);
      });
}

/// The N-dimensional `ew::elementwise` with the launch choices of `Policy` (policy.cuh): its entry's `nd`
/// shapes for the gather, row and tile kernels, and its vector width, loads in flight and launch policy
/// where the launch coalesces to one contiguous dimension. Results are as without a policy.
template <class Policy, int VecWidth = vec_auto, class Op, int Rank, class Out, class In,
          cuda::std::enable_if_t<is_policy_v<Policy>, int> = 0>
[[nodiscard]] cudaError_t elementwise(Op op, const extents<Rank>& shape, Out out, In in,
                                      cudaStream_t stream = 0) {
  const auto ins = detail::input_tuple(in);
  return detail::with_nd_operands(op, detail::output_tuple(out), ins, detail::element_count(shape),
                                  [&](const auto& o, const auto& outs, const auto& launched) {
                                    return detail::dispatch_nd<Policy, true, VecWidth>(o, shape, outs,
                                                                                       launched, stream);
                                  });
}

/// Sets a side reduction's location to its reduction's identity (`-inf` for max, `+inf` for min, 0 for
/// sum and amax), as one launch of one element on `stream`: what to run before the first launch that
/// reduces into it (or before each, for a reduction per launch). Graph-safe, like every ew launch.
template <class R, class T>
[[nodiscard]] cudaError_t reset_reduction(reduce_target<R, T> target, cudaStream_t stream = 0) {
  return elementwise(cast<T>{}, 1, target.ptr, constant(R::template identity<T>()), stream);
}
}  // namespace EW_DETAIL_CONFIG_NAMESPACE

}  // namespace ew
