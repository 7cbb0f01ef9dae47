// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The operands of a launch, at both levels:
/// - what a user passes (`ew::index_operand`, `ew::constant_operand`, `ew::scalar_operand`,
///   `ew::strided_view`, `ew::extents`, `ew::strides`): the public types of operands.cuh;
/// - what the 1-D kernel reads (`contiguous_input`, `index_input`, `constant_input`, `scalar_input`): an
///   operand gives element `i` (`element(i)`) or the `Vec` elements from a vector-aligned `i` in one access
///   (`vector<Vec>(i)`), and names its element type (`value_type`);
/// - and `input_arg<A>`, the map from the first to the second, with what the pointer checks need.
/// The N-dimensional kernel's operands are in nd_kernel.cuh.

#include <cstddef>
#include <cstdint>

#include <cuda/std/tuple>
#include <cuda/std/type_traits>

#include "../functor.cuh"
#include "../operands.cuh"
#include "partition.cuh"
#include "vector_access.cuh"

namespace ew {

namespace detail {

/// Whether `A` is an `ew::strided_view` (of const elements or not).
template <class A>
inline constexpr bool is_strided_view_v = false;
template <class T, int Rank>
inline constexpr bool is_strided_view_v<strided_view<T, Rank>> = true;

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

  EW_HD T element(std::size_t) const { return load_vector<1>(ptr).elements.v[0]; }
  template <int Vec>
  EW_HD vector_word<T, Vec> vector(std::size_t) const {
    const T v = load_vector<1>(ptr).elements.v[0];
    vector_word<T, Vec> u;
    for (int j = 0; j < Vec; ++j) u.elements.v[j] = v;
    return u;
  }
};

/// What kind of memory an input argument reads: an array of the launch's size (`array`: it takes part in
/// the vector width, the alignment and the overlap checks), one element (`single`: checked, never in
/// place), or none.
enum class memory_kind { array, single, none };

/// How the dispatcher treats input argument type `A` (what `ew::in` stores: `const T*`, or an operand of
/// operands.cuh): its element type, its memory, the 1-D kernel's operand for it (`to_1d`) and, for the
/// pointer checks, its `pointer_info` (`info`).
template <class A>
struct input_arg {
  static constexpr bool valid = false;
};
template <class T>
struct input_arg<const T*> {
  static constexpr bool valid = true;
  using value_type = T;
  static constexpr memory_kind memory = memory_kind::array;
  static constexpr bool is_view = false;
  EW_HD static contiguous_input<T> to_1d(const T* p) { return {p}; }
  static pointer_info info(const T* p) {
    return {reinterpret_cast<std::uintptr_t>(p), sizeof(T), alignof(T)};
  }
};
template <>
struct input_arg<index_operand> {
  static constexpr bool valid = true;
  using value_type = std::int64_t;
  static constexpr memory_kind memory = memory_kind::none;
  static constexpr bool is_view = false;
  EW_HD static index_input to_1d(index_operand) { return {}; }
};
template <class T>
struct input_arg<constant_operand<T>> {
  static constexpr bool valid = true;
  using value_type = T;
  static constexpr memory_kind memory = memory_kind::none;
  static constexpr bool is_view = false;
  EW_HD static constant_input<T> to_1d(constant_operand<T> c) { return {c.value}; }
};
template <class T>
struct input_arg<scalar_operand<T>> {
  static constexpr bool valid = true;
  using value_type = T;
  static constexpr memory_kind memory = memory_kind::single;
  static constexpr bool is_view = false;
  EW_HD static scalar_input<T> to_1d(scalar_operand<T> s) { return {s.ptr}; }
  static pointer_info info(scalar_operand<T> s) {
    return {reinterpret_cast<std::uintptr_t>(s.ptr), sizeof(T), alignof(T), true};
  }
};
template <class T, int Rank>
struct input_arg<strided_view<const T, Rank>> {
  static constexpr bool valid = true;
  using value_type = T;
  static constexpr memory_kind memory = memory_kind::array;
  static constexpr bool is_view = true;
};

/// Whether the kernels read input argument `A` in 1-D launches only (the random operands of random.cuh,
/// which N-dimensional launches take as the flat index: index_mapped.cuh).
template <class A, class = void>
inline constexpr bool is_1d_only_v = false;
template <class A>
inline constexpr bool is_1d_only_v<A, cuda::std::void_t<decltype(input_arg<A>::one_dimensional_only)>> =
    input_arg<A>::one_dimensional_only;

/// Element type an input argument gives the op.
template <class A>
using input_value_t = typename input_arg<A>::value_type;

/// The kernel's operands for a launch's input arguments (pointers, index, constant and scalar operands).
template <class... A>
EW_HD cuda::std::tuple<decltype(input_arg<A>::to_1d(cuda::std::declval<A>()))...> as_operands(
    const cuda::std::tuple<A...>& ins) {
  return cuda::std::apply(
      [](const A&... a) {
        return cuda::std::tuple<decltype(input_arg<A>::to_1d(cuda::std::declval<A>()))...>{
            input_arg<A>::to_1d(a)...};
      },
      ins);
}

}  // namespace detail
}  // namespace ew
