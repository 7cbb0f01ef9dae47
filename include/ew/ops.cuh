// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The functor library: one-line `__host__ __device__` ops for `ew::elementwise`.
///
/// Conventions, shared by every op so that adding one is one line:
/// - `Op<T>` takes and returns elements of type `T`; it computes in `ew::compute_t<T>` (`float` for `__half`
///   and `__nv_bfloat16`) and rounds once on return (`ew::up`, `ew::down`).
/// - Integer `add`, `sub`, `mul` and `scale_bias` wrap in two's complement; they never overflow into UB.
/// - A NaN input gives a NaN output for `relu` and `clamp`, as in PyTorch: comparisons are written so that
///   NaN fails them and falls through to the input.
/// - Stateful ops are aggregates: `ew::clamp<float>{lo, hi}`, `ew::scale_bias<float>{alpha, beta}`.

#include <cmath>

#include "detail/config.cuh"
#include "detail/numeric.cuh"

namespace ew {
namespace detail {

/// `a * x + b` in one rounding for floating types (so host and device agree bit for bit, whatever
/// `-fmad` says), wrapping for integers.
template <class C>
EW_HD C mul_add(C a, C x, C b) {
  if constexpr (cuda::std::is_same_v<C, float>) {
    return ::fmaf(a, x, b);
  } else if constexpr (cuda::std::is_same_v<C, double>) {
    return ::fma(a, x, b);
  } else {
    return wrap_add(wrap_mul(a, x), b);
  }
}

}  // namespace detail

// clang-format off

/// `a + b`.
template <class T> struct add { EW_HD T operator()(T a, T b) const { return down<T>(detail::wrap_add(up(a), up(b))); } };

/// `a - b`.
template <class T> struct sub { EW_HD T operator()(T a, T b) const { return down<T>(detail::wrap_sub(up(a), up(b))); } };

/// `a * b`.
template <class T> struct mul { EW_HD T operator()(T a, T b) const { return down<T>(detail::wrap_mul(up(a), up(b))); } };

/// `max(x, 0)`; NaN stays NaN, `-0` stays `-0`.
template <class T> struct relu { EW_HD T operator()(T x) const { return up(x) < compute_t<T>(0) ? down<T>(compute_t<T>(0)) : x; } };

/// `min(max(x, lo), hi)`; NaN stays NaN. Requires `lo <= hi`.
template <class T> struct clamp { T lo, hi; EW_HD T operator()(T x) const { return up(x) < up(lo) ? lo : (up(hi) < up(x) ? hi : x); } };

/// `alpha * x + beta`, one rounding (fused multiply-add) for floating types.
template <class T> struct scale_bias { compute_t<T> alpha, beta; EW_HD T operator()(T x) const { return down<T>(detail::mul_add(alpha, up(x), beta)); } };

// clang-format on

}  // namespace ew
