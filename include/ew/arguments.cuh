// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The operands of `ew::elementwise`: `ew::in(a, b, ...)` and `ew::out(c, d, ...)`. An input is a pointer
/// or one of the operands of operands.cuh (`ew::index()`, `ew::constant(v)`, `ew::scalar(p)`,
/// `ew::strided(p, extents, strides)`); an output is a pointer or, in an N-dimensional launch, a strided
/// view.

#include <cuda/std/tuple>
#include <cuda/std/type_traits>

#include "detail/discard.cuh"
#include "detail/operand.cuh"
#include "detail/side_reduction.cuh"

namespace ew {

/// The type of `ew::discard`.
struct discard_t {
  explicit constexpr discard_t(int) {}
};

/// An output that is not written: in `ew::out(y, ew::discard)` the op's second result part goes nowhere
/// (`ew::dropout` without its mask, `ew::sincos` for the sine alone), and the kernel computes only what the
/// written parts need. Any position, 1-D and N-dimensional launches, beside arrays and side reductions; at
/// least one output must be written.
inline constexpr discard_t discard{0};

namespace detail {
/// What `ew::in` stores for an argument of type `A`: `const T*` for a pointer, a view of const elements for
/// a view, any other operand as it is.
template <class A>
struct stored_input {
  using type = A;
};
template <class T>
struct stored_input<T*> {
  using type = const T*;
};
template <class T, int Rank>
struct stored_input<strided_view<T, Rank>> {
  using type = strided_view<const T, Rank>;
};
template <class A>
using stored_input_t = typename stored_input<cuda::std::remove_cv_t<A>>::type;

/// Whether `A` can be an output: a pointer or a view of non-const elements.
template <class A>
struct is_output_arg : cuda::std::false_type {};
template <class T>
struct is_output_arg<T*> : cuda::std::bool_constant<!cuda::std::is_const_v<T>> {};
template <class T, int Rank>
struct is_output_arg<strided_view<T, Rank>> : cuda::std::bool_constant<!cuda::std::is_const_v<T>> {};
template <class R, class T>
struct is_output_arg<reduce_target<R, T>> : cuda::std::true_type {};
template <class R, class T>
struct is_output_arg<overwrite_target<R, T>> : cuda::std::true_type {};
template <>
struct is_output_arg<discard_t> : cuda::std::true_type {};
}  // namespace detail

/// The inputs of one launch, in the order the op takes its arguments: each a `const T*` or an operand of
/// operands.cuh. Made by `ew::in`.
template <class... A>
struct inputs {
  cuda::std::tuple<A...> args;
};

/// The outputs of one launch: each a `T*`, in an N-dimensional launch an `ew::strided_view<T, R>`, a
/// side reduction (`ew::reduce_into` or `ew::reduce_overwrite`, reduce.cuh), or `ew::discard`. With
/// more than one, the op returns a tuple-like value with one element per output (e.g.
/// `cuda::std::tuple<float, float>`). Made by `ew::out`.
template <class... A>
struct outputs {
  cuda::std::tuple<A...> args;
};

/// Groups input pointers: `ew::in(a, b)`; `ew::in<float, float>(p, q)` names the element types, so that
/// pointers to non-const or other types (and `nullptr`) convert.
template <class... T>
inputs<const T*...> in(const T*... p) {
  return inputs<const T*...>{cuda::std::tuple<const T*...>(p...)};
}

/// Groups inputs: `ew::in(a, b)` for a binary op; pointers (const or not), `ew::index()`,
/// `ew::constant(v)`, `ew::scalar(p)` and `ew::strided(...)` views, in any mix. A single input may also be
/// passed bare.
template <class... A>
inputs<detail::stored_input_t<A>...> in(A... a) {
  static_assert((detail::input_arg<detail::stored_input_t<A>>::valid && ...),
                "ew::in: each input must be a pointer, ew::index(), ew::constant(v), ew::scalar(p) or an "
                "ew::strided view");
  return inputs<detail::stored_input_t<A>...>{cuda::std::tuple<detail::stored_input_t<A>...>(a...)};
}

/// Groups output pointers: `ew::out(y, dy)`; `ew::out<float, float>(p, q)` names the element types.
template <class... T>
outputs<T*...> out(T*... p) {
  return outputs<T*...>{cuda::std::tuple<T*...>(p...)};
}

/// Groups outputs: `ew::out(y, dy)` for an op that returns two values. Pointers to non-const elements,
/// (N-dimensional launches) views of them, side reductions and `ew::discard`. A single output may also be
/// passed bare.
template <class... A>
outputs<A...> out(A... a) {
  static_assert((detail::is_output_arg<A>::value && ...),
                "ew::out: each output must be a pointer to non-const elements, an ew::strided view of them, "
                "ew::reduce_into(p), ew::reduce_overwrite(p, ws) or ew::discard");
  return outputs<A...>{cuda::std::tuple<A...>(a...)};
}

namespace detail {

/// The argument tuple of an input pack, or of a single input.
template <class A>
cuda::std::tuple<stored_input_t<A>> input_tuple(A a) {
  static_assert(
      input_arg<stored_input_t<A>>::valid,
      "ew::elementwise: the input must be a pointer, ew::index(), ew::constant(v), ew::scalar(p), an "
      "ew::strided view, or ew::in(...) of them");
  return cuda::std::tuple<stored_input_t<A>>(a);
}
template <class... A>
cuda::std::tuple<A...> input_tuple(inputs<A...> p) {
  return p.args;
}
/// The argument tuple of an output pack, or of a single output.
template <class A>
cuda::std::tuple<A> output_tuple(A a) {
  static_assert(is_output_arg<A>::value,
                "ew::elementwise: the output must be a pointer to non-const elements, an ew::strided view of "
                "them, or ew::out(...) of them");
  return cuda::std::tuple<A>(a);
}
template <class... A>
cuda::std::tuple<A...> output_tuple(outputs<A...> p) {
  return p.args;
}

}  // namespace detail
}  // namespace ew
