// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Element types: which type a functor computes in, and the conversions to and from it.
///
/// `__half` and `__nv_bfloat16` compute in `float` and round once on output, as PyTorch and CUTLASS do:
/// it costs nothing on a bandwidth-bound kernel and keeps chains of ops from rounding at every step.

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cuda/std/type_traits>

#include "config.cuh"

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

/// Converts any supported element or compute value to `To`. Unlike `static_cast`, this works between the
/// 16-bit floating types and every arithmetic type, on host and device, with one rounding.
template <class To, class From>
EW_HD To convert(From x) {
  if constexpr (cuda::std::is_same_v<To, From>) {
    return x;
  } else if constexpr (cuda::std::is_same_v<From, __half>) {
    return convert<To>(__half2float(x));
  } else if constexpr (cuda::std::is_same_v<From, __nv_bfloat16>) {
    return convert<To>(__bfloat162float(x));
  } else if constexpr (cuda::std::is_same_v<To, __half>) {
    if constexpr (cuda::std::is_same_v<From, double>) {
      return __double2half(x);
    } else {
      return __float2half_rn(static_cast<float>(x));
    }
  } else if constexpr (cuda::std::is_same_v<To, __nv_bfloat16>) {
    if constexpr (cuda::std::is_same_v<From, double>) {
      return __double2bfloat16(x);
    } else {
      return __float2bfloat16_rn(static_cast<float>(x));
    }
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

namespace detail {

/// Integer arithmetic in an unsigned type at least as wide as `unsigned int`, so that `+ - *` wrap in two's
/// complement instead of overflowing into undefined behaviour (signed overflow, or the promotion of
/// `uint16_t` to `int`). Floating types use their own type.
template <class T, bool = cuda::std::is_integral_v<T> && !cuda::std::is_same_v<T, bool>>
struct wrapping {
  using type = T;
};
template <class T>
struct wrapping<T, true> {
  using type = cuda::std::common_type_t<cuda::std::make_unsigned_t<T>, unsigned>;
};
template <class T>
using wrapping_t = typename wrapping<T>::type;

/// `a + b`, wrapping for integers.
template <class T>
EW_HD T wrap_add(T a, T b) {
  return static_cast<T>(static_cast<wrapping_t<T>>(a) + static_cast<wrapping_t<T>>(b));
}
/// `a - b`, wrapping for integers.
template <class T>
EW_HD T wrap_sub(T a, T b) {
  return static_cast<T>(static_cast<wrapping_t<T>>(a) - static_cast<wrapping_t<T>>(b));
}
/// `a * b`, wrapping for integers.
template <class T>
EW_HD T wrap_mul(T a, T b) {
  return static_cast<T>(static_cast<wrapping_t<T>>(a) * static_cast<wrapping_t<T>>(b));
}

}  // namespace detail
}  // namespace ew
