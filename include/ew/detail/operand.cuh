// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The kernel's input side as one concept: an operand gives element `i` (`element(i)`) or the `Vec`
/// elements from a vector-aligned `i` in one access (`vector<Vec>(i)`), and names its element type
/// (`value_type`). The contiguous array is the first kind; kinds that are not arrays (an index, a constant,
/// a broadcast view) add a struct here and leave the kernel body alone.

#include <cstddef>

#include <cuda/std/tuple>
#include <cuda/std/type_traits>

#include "../functor.cuh"
#include "vector_access.cuh"

namespace ew {
namespace detail {

/// A contiguous input array: element `i` is `ptr[i]`.
template <class T>
struct contiguous_input {
  using value_type = T;
  const T* ptr;

  EW_HD T element(std::size_t i) const { return ptr[i]; }
  template <int Vec>
  EW_HD vector_word<T, Vec> vector(std::size_t i) const {
    return load_vector<Vec>(ptr + i);
  }
};

/// The kernel's operands for a launch's input pointers.
template <class... In>
EW_HD cuda::std::tuple<contiguous_input<In>...> as_operands(const cuda::std::tuple<const In*...>& ins) {
  return cuda::std::apply([](const In*... p) { return cuda::std::tuple<contiguous_input<In>...>{{p}...}; },
                          ins);
}

}  // namespace detail
}  // namespace ew
