// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The operands of `ew::elementwise`: `ew::in(a, b, ...)` and `ew::out(c, d, ...)`.

#include <cuda/std/tuple>

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

/// The pointer tuple of an input pack, or of a single input pointer.
template <class T>
cuda::std::tuple<const T*> input_tuple(const T* p) {
  return cuda::std::tuple<const T*>(p);
}
template <class... T>
cuda::std::tuple<const T*...> input_tuple(inputs<T...> p) {
  return p.ptrs;
}
/// The pointer tuple of an output pack, or of a single output pointer.
template <class T>
cuda::std::tuple<T*> output_tuple(T* p) {
  return cuda::std::tuple<T*>(p);
}
template <class... T>
cuda::std::tuple<T*...> output_tuple(outputs<T...> p) {
  return p.ptrs;
}

}  // namespace detail
}  // namespace ew
