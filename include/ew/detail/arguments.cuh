// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Argument packs for `ew::elementwise`: `ew::in(a, b, ...)` and `ew::out(c, d, ...)`, and the type-level
/// facts the launcher needs about them (element types, widest element, what the op returns).

#include <cstddef>

#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include "config.cuh"

namespace ew {

/// Input pointers of one launch, in the order the op takes its arguments. Made by `ew::in`.
template <class... T>
struct inputs {
  cuda::std::tuple<const T*...> ptrs;
};

/// Output pointers of one launch. With more than one, the op returns a tuple-like value with one element
/// per output (e.g. `cuda::std::tuple<float, float>`). Made by `ew::out`.
template <class... T>
struct outputs {
  cuda::std::tuple<T*...> ptrs;
};

/// Groups input pointers: `ew::in(a, b)` for a binary op. A single input may also be passed bare.
template <class... T>
inputs<T...> in(const T*... p) {
  return inputs<T...>{cuda::std::tuple<const T*...>(p...)};
}

/// Groups output pointers: `ew::out(y, dy)` for an op that returns two values. A single output may also be
/// passed bare.
template <class... T>
outputs<T...> out(T*... p) {
  return outputs<T...>{cuda::std::tuple<T*...>(p...)};
}

namespace detail {

template <class T>
inputs<T> as_inputs(const T* p) {
  return inputs<T>{cuda::std::tuple<const T*>(p)};
}
template <class... T>
inputs<T...> as_inputs(inputs<T...> p) {
  return p;
}
template <class T>
outputs<T> as_outputs(T* p) {
  return outputs<T>{cuda::std::tuple<T*>(p)};
}
template <class... T>
outputs<T...> as_outputs(outputs<T...> p) {
  return p;
}

/// Largest `sizeof` among the element types.
template <class... T>
constexpr std::size_t max_size() {
  std::size_t m = 0;
  ((m = sizeof(T) > m ? sizeof(T) : m), ...);
  return m;
}

/// `cuda::std::tuple_size<R>` for tuple-like `R`, 0 for anything else.
template <class R, class = void>
struct tuple_size_or_zero : cuda::std::integral_constant<std::size_t, 0> {};
template <class R>
struct tuple_size_or_zero<R, cuda::std::void_t<decltype(cuda::std::tuple_size<R>::value)>>
    : cuda::std::integral_constant<std::size_t, cuda::std::tuple_size<R>::value> {};

/// What `Op` returns for inputs `In...`, or `void` when it cannot be called with them.
template <class Op, class InTuple, class = void>
struct op_result {
  using type = void;
};
template <class Op, class... In>
struct op_result<Op, cuda::std::tuple<const In*...>,
                 cuda::std::void_t<decltype(cuda::std::declval<const Op&>()(cuda::std::declval<In>()...))>> {
  using type = decltype(cuda::std::declval<const Op&>()(cuda::std::declval<In>()...));
};

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
