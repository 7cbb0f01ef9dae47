// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The kernel's input side as one concept: an operand gives element `i` (`element(i)`) or the `Vec`
/// elements from a vector-aligned `i` in one access (`vector<Vec>(i)`), and names its element type
/// (`value_type`). Kinds: a contiguous array; and, not arrays, the element index, a constant in the kernel's
/// parameters, and a scalar read from memory when the kernel runs. A broadcast view will be one more
/// struct here; the kernel body stays as it is. (The index, constant and scalar kinds are tested on the
/// host over whole simulated grids; the launcher does not accept them yet.)

#include <cstddef>
#include <cstdint>

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

/// The element index as an input: element `i` is `i`, as a 64-bit signed integer. Reads no memory, so it
/// never limits the vector width or the alignment of a launch.
struct index_input {
  using value_type = std::int64_t;

  EW_HD std::int64_t element(std::size_t i) const { return static_cast<std::int64_t>(i); }
  template <int Vec>
  EW_HD vector_word<std::int64_t, Vec> vector(std::size_t i) const {
    vector_word<std::int64_t, Vec> u;
    for (int j = 0; j < Vec; ++j) u.elements.v[j] = static_cast<std::int64_t>(i) + j;
    return u;
  }
};

/// A value carried in the kernel's parameters, the same for every element.
template <class T>
struct constant_input {
  using value_type = T;
  T value;

  EW_HD T element(std::size_t) const { return value; }
  template <int Vec>
  EW_HD vector_word<T, Vec> vector(std::size_t) const {
    vector_word<T, Vec> u;
    for (int j = 0; j < Vec; ++j) u.elements.v[j] = value;
    return u;
  }
};

/// A value read from memory when the kernel runs, the same for every element: `*ptr`, read once per
/// vector (an L1 hit after the first). The kernel reads its inputs only after the programmatic-launch wait,
/// so a value written by the previous kernel in the stream, or by a replayed graph's earlier node, is seen.
template <class T>
struct scalar_input {
  using value_type = T;
  const T* ptr;

  EW_HD T element(std::size_t) const { return *ptr; }
  template <int Vec>
  EW_HD vector_word<T, Vec> vector(std::size_t) const {
    const T v = *ptr;
    vector_word<T, Vec> u;
    for (int j = 0; j < Vec; ++j) u.elements.v[j] = v;
    return u;
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
