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
/// // y[r, c] = x[r, c] + b[c]: b as a [1, cols] view broadcast over the rows
/// ew::elementwise(ew::add<float>{}, ew::extents{rows, cols}, y,
///                 ew::in(x, ew::strided(b, ew::extents{1, cols}, ew::strides{0, 1})), stream);
/// @endcode
///
/// In an N-dimensional launch (`ew::elementwise(op, ew::extents{...}, out, in, stream)`) a plain pointer is
/// a row-major array of the launch's shape; a view is broadcast to it the way NumPy does (its extents,
/// right-aligned against the launch's, must each equal the launch's or be 1; missing leading dimensions and
/// extents of 1 broadcast). A 1-D launch takes pointers, `ew::index()`, `ew::constant` and `ew::scalar`.

#include <cstdint>

#include "detail/operand.cuh"

namespace ew {

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

}  // namespace ew
