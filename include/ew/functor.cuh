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
/// `__half`, `__nv_bfloat16` and the FP8 types `__nv_fp8_e4m3` and `__nv_fp8_e5m2` compute in `float` and
/// round once on output, as PyTorch and CUTLASS do: it costs nothing on a bandwidth-bound kernel and keeps
/// chains of ops from rounding at every step.

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

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
template <>
struct compute_type<__nv_fp8_e4m3> {
  using type = float;
};
template <>
struct compute_type<__nv_fp8_e5m2> {
  using type = float;
};
/// Shorthand for `compute_type<T>::type`.
template <class T>
using compute_t = typename compute_type<T>::type;

/// True for `__half` and `__nv_bfloat16`.
template <class T>
inline constexpr bool is_half_precision_v =
    cuda::std::is_same_v<T, __half> || cuda::std::is_same_v<T, __nv_bfloat16>;

/// True for the FP8 types of cuda_fp8.h: `__nv_fp8_e4m3` (4 exponent bits, 3 mantissa bits, finite to
/// +-448, no infinity) and `__nv_fp8_e5m2` (5 and 2, finite to +-57344, with infinities).
template <class T>
inline constexpr bool is_fp8_v =
    cuda::std::is_same_v<T, __nv_fp8_e4m3> || cuda::std::is_same_v<T, __nv_fp8_e5m2>;

/// True for the floating types narrower than float (16-bit and FP8): they compute in float and round once.
template <class T>
inline constexpr bool is_narrow_float_v = is_half_precision_v<T> || is_fp8_v<T>;

/// True for every floating-point element type ew supports, 16-bit and FP8 ones included.
template <class T>
inline constexpr bool is_floating_v = cuda::std::is_floating_point_v<T> || is_narrow_float_v<T>;

/// What a conversion to an FP8 type does with a value past its largest finite one: `finite` saturates to
/// +-max (448 for e4m3, 57344 for e5m2; infinities too), as the hardware's `cvt.satfinite`, Transformer
/// Engine and cuda_fp8.h's constructors do; `none` gives NaN for e4m3 (it has no infinity) and infinity for
/// e5m2, IEEE style. NaN stays NaN either way. The default is `finite`.
enum class saturation { finite, none };

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

/// The cuda_fp8.h interpretation of FP8 type `T`.
template <class T>
inline constexpr __nv_fp8_interpretation_t fp8_kind =
    cuda::std::is_same_v<T, __nv_fp8_e4m3> ? __NV_E4M3 : __NV_E5M2;

/// An FP8 value of type `T` from its bits.
template <class T>
EW_HD T fp8_from_bits(__nv_fp8_storage_t bits) {
  T r;
  r.__x = bits;
  return r;
}

/// FP8 `x` as a float, exactly (every FP8 value is a float; NaN gives a NaN): cuda_fp8.h's conversion, one
/// `cvt` on sm_89 and later, its bit manipulation elsewhere.
template <class T>
EW_HD float fp8_to_float(T x) {
  return __half2float(__half(__nv_cvt_fp8_to_halfraw(x.__x, fp8_kind<T>)));
}

/// `x` (float or double) rounded once to nearest even as FP8 type `To`, past the finite range as `S` says.
/// From float, one `cvt.rn.satfinite` on sm_89 and later; from double, and on older GPUs and the host,
/// cuda_fp8.h's exact bit manipulation from double (every float is a double: one rounding too). Without
/// saturation the overflow rule is IEEE 754's, as cuda_fp8.h's `__NV_NOSAT` has it: e5m2 rounds every
/// magnitude from max + half an ulp of the top binade to infinity (57344 + 4096 = 61440; the tie goes to
/// infinity, whose code is even), and below that to 57344; e4m3 has no infinity, and past 464 (448 + 16,
/// which itself rounds to the even 448) gives NaN. Checked here, so that the one saturating `cvt` serves
/// both modes.
template <class To, saturation S, class F>
EW_HD To float_to_fp8(F x) {
  if constexpr (S == saturation::none) {
    constexpr bool e5m2 = cuda::std::is_same_v<To, __nv_fp8_e5m2>;
    const F a = x < F(0) ? -x : x;
    if (e5m2 ? a >= F(61440) : a > F(464)) {
      const __nv_fp8_storage_t sign = x < F(0) ? 0x80u : 0x00u;
      return fp8_from_bits<To>(static_cast<__nv_fp8_storage_t>(sign | (e5m2 ? 0x7cu : 0x7fu)));
    }
  }
  if constexpr (cuda::std::is_same_v<F, float>) {
    return fp8_from_bits<To>(__nv_cvt_float_to_fp8(x, __NV_SATFINITE, fp8_kind<To>));
  } else {
    return fp8_from_bits<To>(__nv_cvt_double_to_fp8(static_cast<double>(x), __NV_SATFINITE, fp8_kind<To>));
  }
}

}  // namespace detail

/// Converts any supported element or compute value to `To`, on host and device, with one rounding and a
/// defined result for every input:
/// - to `__half` / `__nv_bfloat16`: rounded to nearest, ties to even, once (from float, double or the exact
///   integer), overflowing to infinity;
/// - to `__nv_fp8_e4m3` / `__nv_fp8_e5m2`: rounded to nearest, ties to even, once, saturating to the finite
///   range (`ew::saturation::finite`; infinities too), NaN staying NaN; `ew::convert<To,
///   ew::saturation::none>` overflows to NaN (e4m3) or infinity (e5m2) instead;
/// - from FP8: exact to float (then as from float);
/// - floating to integer (`bool` aside): NaN gives 0, otherwise truncation toward zero, saturated to the
///   integer's range (300.0 -> int8 is 127, -1.0 -> uint8 is 0, 1e30 -> int32 is INT_MAX), as the GPU's
///   `cvt.rzi.sat` and unlike `static_cast`, which is undefined there;
/// - to `bool`: `x != 0` (NaN is true), as in C++;
/// - integer to integer, and the rest: `static_cast` (integers wrap modulo 2^bits; double to float rounds to
///   nearest).
/// The kernel converts each op result to its output type with this, so the same rules hold for every output.
template <class To, saturation S = saturation::finite, class From>
EW_HD To convert(From x) {
  if constexpr (cuda::std::is_same_v<To, From>) {
    return x;
  } else if constexpr (is_fp8_v<From>) {
    return convert<To, S>(detail::fp8_to_float(x));
  } else if constexpr (is_fp8_v<To>) {
    if constexpr (cuda::std::is_same_v<From, __half>) {
      return detail::float_to_fp8<To, S>(__half2float(x));  // exact in float: one rounding
    } else if constexpr (cuda::std::is_same_v<From, __nv_bfloat16>) {
      return detail::float_to_fp8<To, S>(__bfloat162float(x));
    } else if constexpr (cuda::std::is_same_v<From, float>) {
      return detail::float_to_fp8<To, S>(x);
    } else {
      // double, and integers through double: exact up to 2^53, and anything larger saturates (or
      // overflows) either way.
      return detail::float_to_fp8<To, S>(static_cast<double>(x));
    }
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
