// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// What a user needs to write an op: `EW_HD`, the type an element computes in (`ew::compute_t`), and the
/// conversions between element types (`ew::convert`, `ew::up`, `ew::down`).
///
/// @code
/// template <class T> struct square_plus_one {
///   EW_HD T operator()(T x) const { const ew::compute_t<T> c = ew::up(x); return ew::down<T>(c * c + 1); }
/// };
/// @endcode
///
/// `__half` and `__nv_bfloat16` compute in `float` and round once on output, as PyTorch and CUTLASS do:
/// it costs nothing on a bandwidth-bound kernel and keeps chains of ops from rounding at every step.

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cuda/std/limits>
#include <cuda/std/type_traits>

/// Marks a function callable from host and device code. Every functor in ew is `EW_HD`, which is what lets
/// the host tests run the exact code the GPU runs.
#define EW_HD __host__ __device__ __forceinline__

namespace ew {

/// Type that ops compute in for element type `T`: `float` for the 16-bit floating types, `T` otherwise.
template <class T>
struct compute_type {
  using type = T;
};
template <>
struct compute_type<__half> {
  using type = float;
};
template <>
struct compute_type<__nv_bfloat16> {
  using type = float;
};
/// Shorthand for `compute_type<T>::type`.
template <class T>
using compute_t = typename compute_type<T>::type;

/// True for `__half` and `__nv_bfloat16`.
template <class T>
inline constexpr bool is_half_precision_v =
    cuda::std::is_same_v<T, __half> || cuda::std::is_same_v<T, __nv_bfloat16>;

/// True for every floating-point element type ew supports, 16-bit ones included.
template <class T>
inline constexpr bool is_floating_v = cuda::std::is_floating_point_v<T> || is_half_precision_v<T>;

namespace detail {

/// `2^k` in `F`, at compile time (`k` within the exponent range of `F`, negative too).
template <class F>
EW_HD constexpr F two_to_the(int k) {
  F r = F(1);
  for (int i = 0; i < k; ++i) r *= F(2);
  for (int i = 0; i > k; --i) r /= F(2);
  return r;
}

/// Floating `x` (float or double) to integer `To`, defined for every input, the same on host and device:
/// NaN gives 0; otherwise `x` is truncated toward zero and saturated to `To`'s range. This is what the GPU's
/// `cvt.rzi.sat` does, whereas `static_cast` is undefined for NaN and out-of-range values (and host and
/// device disagree there: NaN -> int gave INT_MIN on x86-64 and 0 on the H200; 300.0 -> int8 gave 44).
template <class To, class F>
EW_HD To saturating_truncation(F x) {
  using limits = cuda::std::numeric_limits<To>;
  // 2^digits is max + 1: exact in F, unlike max itself (2^31 - 1 is not a float).
  constexpr F above_max = two_to_the<F>(limits::digits);
  if (x != x) return To(0);
  if (x >= above_max) return limits::max();
  if constexpr (cuda::std::is_signed_v<To>) {
    if (x <= -above_max) return limits::min();  // -2^digits is min, exactly
  } else {
    if (x <= F(-1)) return To(0);  // (-1, 0) truncates to 0 below
  }
  return static_cast<To>(x);  // trunc(x) is in range here: defined
}

/// Integer `x` to `__half` or `__nv_bfloat16`, rounded once (to nearest, ties to even) from its exact value.
/// Through `float` an integer above 2^24 would round twice (16842753 gave 16777216 in bf16, where 16908288 is
/// the nearest).
template <class To, class I>
EW_HD To integer_to_16_bit(I x) {
  constexpr bool bf16 = cuda::std::is_same_v<To, __nv_bfloat16>;
  if constexpr (sizeof(I) <= 2 || cuda::std::is_same_v<I, bool>) {
    // Exact in float, so the one rounding is float's to 16 bits.
    return bf16 ? To(__float2bfloat16_rn(static_cast<float>(x))) : To(__float2half_rn(static_cast<float>(x)));
  } else if constexpr (cuda::std::is_signed_v<I>) {
    const long long v = static_cast<long long>(x);
    if constexpr (bf16) {
      return __ll2bfloat16_rn(v);
    } else {
      return __ll2half_rn(v);
    }
  } else {
    const unsigned long long v = static_cast<unsigned long long>(x);
    if constexpr (bf16) {
      return __ull2bfloat16_rn(v);
    } else {
      return __ull2half_rn(v);
    }
  }
}

}  // namespace detail

/// Converts any supported element or compute value to `To`, on host and device, with one rounding and a
/// defined result for every input:
/// - to `__half` / `__nv_bfloat16`: rounded to nearest, ties to even, once (from float, double or the exact
///   integer), overflowing to infinity;
/// - floating to integer (`bool` aside): NaN gives 0, otherwise truncation toward zero, saturated to the
///   integer's range (300.0 -> int8 is 127, -1.0 -> uint8 is 0, 1e30 -> int32 is INT_MAX), as the GPU's
///   `cvt.rzi.sat` and unlike `static_cast`, which is undefined there;
/// - to `bool`: `x != 0` (NaN is true), as in C++;
/// - integer to integer, and the rest: `static_cast` (integers wrap modulo 2^bits; double to float rounds to
///   nearest).
/// The kernel converts each op result to its output type with this, so the same rules hold for every output.
template <class To, class From>
EW_HD To convert(From x) {
  if constexpr (cuda::std::is_same_v<To, From>) {
    return x;
  } else if constexpr (cuda::std::is_same_v<From, __half>) {
    return convert<To>(__half2float(x));
  } else if constexpr (cuda::std::is_same_v<From, __nv_bfloat16>) {
    return convert<To>(__bfloat162float(x));
  } else if constexpr (cuda::std::is_same_v<To, __half> || cuda::std::is_same_v<To, __nv_bfloat16>) {
    constexpr bool bf16 = cuda::std::is_same_v<To, __nv_bfloat16>;
    if constexpr (cuda::std::is_integral_v<From>) {
      return detail::integer_to_16_bit<To>(x);
    } else if constexpr (cuda::std::is_same_v<From, double>) {
      if constexpr (bf16) {
        return __double2bfloat16(x);
      } else {
        return __double2half(x);
      }
    } else {
      if constexpr (bf16) {
        return __float2bfloat16_rn(static_cast<float>(x));
      } else {
        return __float2half_rn(static_cast<float>(x));
      }
    }
  } else if constexpr (cuda::std::is_integral_v<To> && !cuda::std::is_same_v<To, bool> &&
                       cuda::std::is_floating_point_v<From>) {
    return detail::saturating_truncation<To>(x);
  } else {
    return static_cast<To>(x);
  }
}

/// Widens an element to the type its ops compute in.
template <class T>
EW_HD compute_t<T> up(T x) {
  return convert<compute_t<T>>(x);
}

/// Rounds a computed value back to the element type `T`, once.
template <class T, class C>
EW_HD T down(C x) {
  return convert<T>(x);
}

}  // namespace ew
