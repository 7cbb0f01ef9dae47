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

#include <cuda_runtime_api.h>

#include "arguments.cuh"
#include "compose.cuh"
#include "detail/dispatch.cuh"
#include "error.cuh"
#include "functor.cuh"
#include "ops.cuh"
#include "policy.cuh"

namespace ew {

/// `VecWidth` value that lets ew pick: 16-byte accesses for the widest element type involved.
inline constexpr int vec_auto = 0;

namespace detail {
inline namespace EW_DETAIL_CONFIG_NAMESPACE {
/// `dispatch` with `Policy`'s entry for `Op`: its vector width and loads in flight choose the kernel, its
/// launch policy applies on devices of its `measured_cc`.
template <class Policy, int VecWidth, class Op, class... Out, class... In>
cudaError_t dispatch_policy(const Op& op, std::size_t n, const cuda::std::tuple<Out*...>& outs,
                            const cuda::std::tuple<const In*...>& ins, cudaStream_t stream) {
  constexpr policy_entry e = Policy::template entry<Op>();
  constexpr int vec = launch_vec_width<VecWidth, e.vec_width, Out..., In...>;
  constexpr int unroll = e.shape.unroll_for(static_cast<int>(sizeof...(In)));
  static_assert(e.shape.loads_in_flight >= 1 && e.shape.loads_in_flight <= 16,
                "ew::policy_entry: shape.loads_in_flight must be in [1, 16]");
  const tuning::launch_policy launch = e.launch;
  return dispatch<vec, unroll>(op, n, outs, ins, stream, &launch, e.measured_cc);
}
}  // namespace EW_DETAIL_CONFIG_NAMESPACE
}  // namespace detail

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
/// @param n      Number of elements, 64-bit. `n == 0` launches nothing and returns cudaSuccess.
/// @param out    The output pointer, or `ew::out(p, q, ...)` for several.
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
  return detail::dispatch_default<VecWidth>(op, n, detail::output_tuple(out), detail::input_tuple(in),
                                            stream);
}

/// `ew::elementwise` with the launch choices of `Policy` (policy.cuh) instead of ew's defaults:
/// `ew::elementwise<my_tuned_policy>(op, n, out, in, stream)`. Everything else (arguments, checks, errors,
/// results) is as above; a policy changes only how fast the same results come. A `VecWidth` other than
/// `vec_auto` overrides the policy's vector width.
template <class Policy, int VecWidth = vec_auto, class Op, class Out, class In,
          cuda::std::enable_if_t<is_policy_v<Policy>, int> = 0>
[[nodiscard]] cudaError_t elementwise(Op op, std::size_t n, Out out, In in, cudaStream_t stream = 0) {
  return detail::dispatch_policy<Policy, VecWidth>(op, n, detail::output_tuple(out), detail::input_tuple(in),
                                                   stream);
}
}  // namespace EW_DETAIL_CONFIG_NAMESPACE


}  // namespace ew
