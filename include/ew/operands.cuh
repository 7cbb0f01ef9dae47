// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Inputs that are not contiguous arrays, and N-dimensional views:
///
/// @code
/// ew::elementwise(ew::cast<std::int64_t>{}, n, seq, ew::index());               // seq[i] = i
/// ew::elementwise(ew::mul<float>{}, n, y, ew::in(x, ew::constant(0.5f)));       // y[i] = x[i] * 0.5
/// ew::elementwise(ew::mul<float>{}, n, y, ew::in(x, ew::scalar(d_scale)));      // *d_scale read by the
/// kernel
/// // y[r, c] = x[r, c] + b[c]: b, a row-major [cols] array, broadcast over the rows
/// ew::elementwise(ew::add<float>{}, ew::extents{rows, cols}, y, ew::in(x, ew::broadcast(b,
/// ew::extents{cols})),
///                 stream);
/// @endcode
///
/// In an N-dimensional launch (`ew::elementwise(op, ew::extents{...}, out, in, stream)`) a plain pointer is
/// a row-major array of the launch's shape; a view is broadcast to it the way NumPy does (its extents,
/// right-aligned against the launch's, must each equal the launch's or be 1; missing leading dimensions and
/// extents of 1 broadcast). A 1-D launch takes pointers, `ew::index()`, `ew::constant`, `ew::scalar` and the
/// random operands of random.cuh (which N-dimensional launches take too).

#include <cstdint>

#include <cuda/std/type_traits>

#include "functor.cuh"

namespace ew {

/// The largest rank of an N-dimensional launch or view.
inline constexpr int max_rank = 8;

/// The shape of an N-dimensional launch or view: `Rank` extents, outermost first (row-major: the last
/// varies fastest). `ew::extents{rows, cols}`; 64-bit; an extent of 0 makes the launch empty.
template <int Rank>
struct extents {
  static_assert(Rank >= 1 && Rank <= max_rank, "ew::extents: rank must be in [1, ew::max_rank]");
  static constexpr int rank = Rank;
  std::int64_t v[Rank] = {};
  constexpr extents() = default;
  /// One integer per dimension, outermost first (converted to 64-bit signed).
  template <class... I,
            cuda::std::enable_if_t<sizeof...(I) == Rank && (cuda::std::is_integral_v<I> && ...), int> = 0>
  EW_HD constexpr extents(I... i) : v{static_cast<std::int64_t>(i)...} {}
  EW_HD constexpr std::int64_t operator[](int d) const { return v[d]; }
};
template <class... I>
extents(I...) -> extents<static_cast<int>(sizeof...(I))>;

/// The strides of an N-dimensional view, in elements (not bytes), one per extent, outermost first. A
/// stride of 0 broadcasts its dimension (every index along it reads the same element). Negative strides
/// are rejected by the launch.
template <int Rank>
struct strides {
  static_assert(Rank >= 1 && Rank <= max_rank, "ew::strides: rank must be in [1, ew::max_rank]");
  static constexpr int rank = Rank;
  std::int64_t v[Rank] = {};
  constexpr strides() = default;
  /// One integer per dimension, outermost first (converted to 64-bit signed).
  template <class... I,
            cuda::std::enable_if_t<sizeof...(I) == Rank && (cuda::std::is_integral_v<I> && ...), int> = 0>
  EW_HD constexpr strides(I... i) : v{static_cast<std::int64_t>(i)...} {}
  EW_HD constexpr std::int64_t operator[](int d) const { return v[d]; }
};
template <class... I>
strides(I...) -> strides<static_cast<int>(sizeof...(I))>;

/// An N-dimensional view of memory: element `(i0, ..., i{R-1})` is `ptr[i0 * s0 + ... + i{R-1} * s{R-1}]`.
/// `T` is const for an input view. Made by `ew::strided`.
template <class T, int Rank>
struct strided_view {
  T* ptr = nullptr;
  ew::extents<Rank> shape;
  ew::strides<Rank> step;

  constexpr strided_view() = default;
  EW_HD constexpr strided_view(T* p, ew::extents<Rank> e, ew::strides<Rank> s) : ptr(p), shape(e), step(s) {}
  /// A view of non-const elements is also a view of const ones (an output read as an input, in place).
  template <class U,
            cuda::std::enable_if_t<cuda::std::is_same_v<const U, T> && !cuda::std::is_same_v<U, T>, int> = 0>
  EW_HD constexpr strided_view(const strided_view<U, Rank>& v) : ptr(v.ptr), shape(v.shape), step(v.step) {}
};

/// The element index as an input, a 64-bit signed integer: in a 1-D launch element `i` is `i`; in an
/// N-dimensional one it is the row-major linear index of the output element (`dim < 0`), or its
/// coordinate along dimension `dim`. Made by `ew::index()` and `ew::index(dim)`.
struct index_operand {
  int dim = -1;
};

/// A value carried in the kernel's parameters, the same for every element. Made by `ew::constant(v)`.
template <class T>
struct constant_operand {
  T value;
};

/// A value read from device memory when the kernel runs, the same for every element: `*ptr`. Made by
/// `ew::scalar(p)`.
template <class T>
struct scalar_operand {
  const T* ptr;
};

/// The element index as an input (`std::int64_t`): `i` in a 1-D launch; the row-major linear index of the
/// output element in an N-dimensional one. `ew::elementwise(op, n, y, ew::index())` writes a sequence.
inline constexpr index_operand index() { return index_operand{-1}; }

/// The coordinate of the output element along dimension `dim` of an N-dimensional launch
/// (`std::int64_t`, `0 <= dim < rank`; in a 1-D launch only `dim == 0`, which is the index).
inline constexpr index_operand index(int dim) { return index_operand{dim}; }

/// An input equal to `v` at every element, passed by value in the kernel's parameters (a captured graph
/// keeps the value it was captured with: use `ew::scalar` for one that changes between replays).
template <class T>
constexpr constant_operand<T> constant(T v) {
  return constant_operand<T>{v};
}

/// An input equal to `*p` at every element, `p` a device pointer read when the kernel runs (after the
/// work before it in the stream), so a replayed graph sees the value the buffer holds at that time. `p`
/// must not point into an output.
template <class T>
constexpr scalar_operand<T> scalar(const T* p) {
  return scalar_operand<T>{p};
}

/// An N-dimensional view of `p`: element `(i0, ..., i{R-1})` is `p[i0 * s[0] + ... + i{R-1} * s[R-1]]`,
/// strides in elements, 0 broadcasting that dimension. An input (const or not `T`) or, with non-const `T`,
/// an output of an N-dimensional launch. Pitched memory (`cudaMallocPitch`, pitch in bytes `pitch`) is
/// `ew::strided(p, ew::extents{rows, cols}, ew::strides{pitch / sizeof(T), 1})`; columns `[c0, c0 + w)`
/// of a row-major `[rows, ld]` matrix are `ew::strided(m + c0, ew::extents{rows, w}, ew::strides{ld, 1})`.
template <class T, int Rank>
constexpr strided_view<T, Rank> strided(T* p, extents<Rank> e, strides<Rank> s) {
  return strided_view<T, Rank>{p, e, s};
}

/// The row-major strides of shape `e`, in elements: the last dimension 1, each other the product of the
/// extents after it (0 for a dimension of extent 1, which then broadcasts).
/// Saturates at `INT64_MAX` where the product overflows (the launch rejects such a view).
template <int Rank>
EW_HD constexpr strides<Rank> row_major_strides(extents<Rank> e) {
  strides<Rank> s;
  std::uint64_t step = 1;
  constexpr std::uint64_t top = static_cast<std::uint64_t>(INT64_MAX);
  for (int d = Rank - 1; d >= 0; --d) {
    s.v[d] = e.v[d] == 1 ? 0 : static_cast<std::int64_t>(step);
    const std::uint64_t x = e.v[d] > 0 ? static_cast<std::uint64_t>(e.v[d]) : 1;
    step = step > top / x ? top : step * x;
  }
  return s;
}

/// `p` as a row-major (C-contiguous) array of shape `e`: `ew::strided(p, e, ew::row_major_strides(e))`.
template <class T, int Rank>
constexpr strided_view<T, Rank> strided(T* p, extents<Rank> e) {
  return strided_view<T, Rank>{p, e, row_major_strides(e)};
}

/// An input that broadcasts: the row-major array `p` of shape `e` (`Rank` at most the launch's), read as
/// the launch's shape the way NumPy broadcasts (`e` right-aligned against the launch's extents, each equal
/// to the launch's or 1; missing leading dimensions and extents of 1 repeat). A bias over the columns of a
/// `[rows, cols]` launch is `ew::broadcast(b, ew::extents{cols})`; a per-channel `[C]` array over NCHW is
/// `ew::broadcast(m, ew::extents{C, 1, 1})`. The same view as `ew::strided(p, e)`, named for reading.
template <class T, int Rank>
constexpr strided_view<const T, Rank> broadcast(const T* p, extents<Rank> e) {
  return strided_view<const T, Rank>{p, e, row_major_strides(e)};
}

}  // namespace ew
