// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Type-level facts the launcher needs about an op and its operands: what the op returns for the input
/// element types, and whether that fits the outputs.

#include <cstddef>

#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

namespace ew {
namespace detail {

/// Whether `Op` is an extended `__device__` lambda (nvcc's --extended-lambda). nvcc hands host code a
/// placeholder for such a lambda, without its call operator, so the launcher cannot see what it returns; the
/// checks below say so instead of reporting an op that cannot be called.
#if defined(__CUDACC_EXTENDED_LAMBDA__)
template <class Op>
inline constexpr bool is_device_lambda_v = __nv_is_extended_device_lambda_closure_type(Op);
#else
template <class Op>
inline constexpr bool is_device_lambda_v = false;
#endif

/// The message of every check that meets a `__device__` lambda (dispatch.cuh, compose.cuh).
#define EW_DETAIL_DEVICE_LAMBDA_MESSAGE                                                                 \
  "ew: the op (or a stage of ew::compose) is a __device__ lambda, whose result type host code cannot "  \
  "see (nvcc gives the host a placeholder without its call operator). Write it [] __host__ __device__ " \
  "(...) { ... }, or wrap it: cuda::proclaim_return_type<R>([] __device__ (...) { ... }) from "         \
  "<cuda/functional>, or use a functor struct with an EW_HD call operator"

/// The op a launch policy's `entry<Op>()` is looked up for: the user's own op inside the wrappers the
/// launcher puts around it (side reductions, `ew::discard`, random operands in N-dimensional launches), so
/// that a policy tuned for an op applies to its launches in every form. Each wrapper's header specialises
/// it.
template <class Op>
struct user_op {
  using type = Op;
};
template <class Op>
using user_op_t = typename user_op<Op>::type;

/// `cuda::std::tuple_size<R>` for tuple-like `R`, 0 for anything else.
template <class R, class = void>
struct tuple_size_or_zero : cuda::std::integral_constant<std::size_t, 0> {};
template <class R>
struct tuple_size_or_zero<R, cuda::std::void_t<decltype(cuda::std::tuple_size<R>::value)>>
    : cuda::std::integral_constant<std::size_t, cuda::std::tuple_size<R>::value> {};

/// What `Op` returns for arguments of types `V...`, or `void` when it cannot be called with them.
template <class Op, class Seq, class = void>
struct op_result_of {
  using type = void;
};
template <class Op, class... V>
struct op_result_of<
    Op, cuda::std::tuple<V...>,
    cuda::std::void_t<decltype(cuda::std::declval<const Op&>()(cuda::std::declval<V>()...))>> {
  using type = decltype(cuda::std::declval<const Op&>()(cuda::std::declval<V>()...));
};

/// What `Op` returns for input pointers `const In*...`, or `void` when it cannot be called with them.
template <class Op, class InTuple>
struct op_result;
template <class Op, class... In>
struct op_result<Op, cuda::std::tuple<const In*...>> : op_result_of<Op, cuda::std::tuple<In...>> {};

/// True when a value of type `R` can be written to the outputs `Out...`: one output takes anything
/// convertible with `ew::convert`; several take a tuple-like `R` of the same size.
template <class R, class... Out>
constexpr bool result_fits_outputs() {
  if constexpr (cuda::std::is_void_v<R>) {
    return false;
  } else if constexpr (sizeof...(Out) == 1) {
    return true;
  } else {
    return tuple_size_or_zero<cuda::std::remove_cv_t<cuda::std::remove_reference_t<R>>>::value ==
           sizeof...(Out);
  }
}

}  // namespace detail
}  // namespace ew
