// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The arithmetic behind the functor library (ops.cuh): wrapping integer arithmetic, the numerically careful
/// forms of the activations, IEEE minimum/maximum, and the correctly rounded 16-bit multiply-adds. All
/// `__host__ __device__`, so the host tests run the exact code the GPU runs; transcendentals are
/// `cuda::std`'s, which call CUDA's float or double function (the host runs the C library's).

#include <nv/target>

#include <cuda/std/bit>
#include <cuda/std/cmath>
#include <cuda/std/type_traits>

#include "../functor.cuh"

namespace ew {
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

/// `sin x` and `cos x` at once: CUDA's `sincosf` / `sincos` (host and device; `cuda::std` has no sincos).
EW_HD void sin_cos(float x, float* s, float* c) { ::sincosf(x, s, c); }
EW_HD void sin_cos(double x, double* s, double* c) { ::sincos(x, s, c); }

/// `a * x + b` in one rounding for floating types (so host and device agree bit for bit, whatever
/// `-fmad` says), wrapping for integers.
template <class C>
EW_HD C mul_add(C a, C x, C b) {
  if constexpr (cuda::std::is_same_v<C, float>) {
    return cuda::std::fma(a, x, b);
  } else if constexpr (cuda::std::is_same_v<C, double>) {
    return cuda::std::fma(a, x, b);
  } else {
    return wrap_add(wrap_mul(a, x), b);
  }
}

/// The value between `lo` and `hi` with an odd significand, or `hi` when they are equal: "round to odd"
/// (Boldo and Melquiond, IEEE TC 2008) from the rounding of one exact value down (`lo`) and up (`hi`).
/// Rounding that to nearest at 11 or 8 bits, fewer than float's 24 - 2, gives the correctly rounded value
/// of the exact one, whereas a second round to nearest may not (it moves a float that sits on a midpoint
/// of the 16-bit grid). `hi` on a tie keeps an exact zero's sign as round to nearest has it (+0 for x - x).
template <class F>
EW_HD F round_to_odd(F lo, F hi) {
  using bits_t = cuda::std::conditional_t<sizeof(F) == 4, unsigned, unsigned long long>;
  // Neighbours differ by one in their bits: exactly one of two different ones is odd.
  return lo == hi || (cuda::std::bit_cast<bits_t>(lo) & 1u) == 0 ? hi : lo;
}

/// `a * b + c * d` rounded once to the 16-bit type `T`, for floats holding values of `T` or float, on the
/// host: both products are exact in double (at most 24 + 24 significant bits, well inside double's 53 and
/// its exponent range); TwoSum gives their double sum `s` and its exact error, and round to odd (the
/// neighbour of `s` on the side of the exact value, when inexact and `s` is even) then round to nearest
/// give the correctly rounded sum. The device takes `fma` with directed roundings instead (below); both give
/// the one correctly rounded result, so host and device agree bit for bit.
template <class T>
inline T sum_rounded_once_host(float a, float b, float c, float d) {
  const double p = static_cast<double>(a) * b;
  const double q = static_cast<double>(c) * d;
  const double s = p + q;
  const double q_part = s - p;
  const double e = (p - (s - q_part)) + (q - q_part);
  double r = s;
  if (e != 0 && s - s == 0) {  // inexact and finite (s == 0 is always exact: p == -q)
    unsigned long long bits = cuda::std::bit_cast<unsigned long long>(s);
    if ((bits & 1u) == 0) bits = (e > 0) == (s > 0) ? bits + 1 : bits - 1;  // towards the exact value
    r = cuda::std::bit_cast<double>(bits);
  }
  return convert<T>(r);
}

/// `a * b + c` as a `T`, rounded once: `fma` in the compute type for float and double (integers wrap). For
/// the types narrower than float (16-bit and FP8; round to odd at float's 24 bits then to nearest at 11, 8,
/// 4 or 3 bits is one correct rounding, since 24 >= p + 2) a float `fmaf` would round twice
/// (`fma<__half>(0.9790039, 0.00049877167, 1)` gave 1.0, where 1.0009765625 is nearest), so the device rounds
/// the exact value down and up (`__fmaf_rd`, `__fmaf_ru`), keeps the odd one (`round_to_odd`) and rounds that
/// to `T`: two fused multiply-adds and a select per element, no branch. Operands are `T` or `compute_t<T>`
/// (float).
template <class T, class A, class B, class C>
EW_HD T mul_add_rounded(A a, B b, C c) {
  if constexpr (is_narrow_float_v<T>) {
    const float fa = convert<float>(a), fb = convert<float>(b), fc = convert<float>(c);
    NV_IF_ELSE_TARGET(NV_IS_DEVICE,
                      (return convert<T>(round_to_odd(__fmaf_rd(fa, fb, fc), __fmaf_ru(fa, fb, fc)));),
                      (return sum_rounded_once_host<T>(fa, fb, fc, 1.0f);));
  } else {
    return mul_add(convert<T>(a), convert<T>(b), convert<T>(c));
  }
}

/// `alpha * x + beta * y` as a `T`: one rounding for the 16-bit types (`beta * y` is exact in double, and a
/// double fma rounded down and up gives the round-to-odd double of the exact sum, 53 bits, far more than
/// 8 or 11 + 2); `fma(alpha, x, beta * y)` (two roundings) for float and double, wrapping for integers.
template <class T, class C>
EW_HD T axpby_rounded(C alpha, T x, C beta, T y) {
  if constexpr (is_narrow_float_v<T>) {
    const float fx = convert<float>(x), fy = convert<float>(y);
    NV_IF_ELSE_TARGET(NV_IS_DEVICE,
                      (const double ax = alpha; const double by = static_cast<double>(beta) * fy;
                       return convert<T>(round_to_odd(__fma_rd(ax, fx, by), __fma_ru(ax, fx, by)));),
                      (return sum_rounded_once_host<T>(alpha, fx, beta, fy);));
  } else {
    return mul_add(alpha, x, wrap_mul(beta, y));
  }
}

/// `x * sigmoid(v)` for `v` of the sign of `x`, without cancellation or overflow: with `e = exp(-|v|)`,
/// `sigmoid(v)` is `1 / (1 + e)` for `v >= 0` and `e / (1 + e)` for `v < 0`. Where `e` underflows to 0
/// (`v` very negative, `x = -inf` included) the result is `-0`, the limit, instead of `-inf * 0`.
template <class C>
EW_HD C x_sigmoid(C x, C v) {
  const C e = cuda::std::exp(-cuda::std::fabs(v));
  const C num = v >= C(0) ? x : (e == C(0) ? -C(0) : x * e);
  return num / (C(1) + e);
}

/// `1 / (1 + exp(-x))`, from `exp(-|x|)` so that neither tail cancels or overflows.
template <class C>
EW_HD C sigmoid(C x) {
  const C e = cuda::std::exp(-cuda::std::fabs(x));
  return (x >= C(0) ? C(1) : e) / (C(1) + e);
}

/// `x * Phi(x) = 0.5 x (1 + erf(x / sqrt 2))`, computed as `0.5 x erfc(-x / sqrt 2)`: the same value, but
/// `1 + erf` cancels for negative x (the textbook formula, used by PyTorch and CUTLASS, has no correct digit
/// below x = -5.5 in float) while `erfc` keeps its relative accuracy.
///
/// The argument `z = -x / sqrt 2` is carried as `z + z_lo` (an error-free product with a two-part constant):
/// for z > 0 a relative error d in z becomes about 2 z^2 d in `erfc(z)` (up to about 200 ulp of float near
/// x = -13, where the result underflows). The first-order correction `erfc(z + z_lo) ~ erfc(z) (1 - 2 z
/// z_lo)` removes it. `-inf` gives the limit, -0.
template <class C>
EW_HD C gelu(C x) {
  constexpr bool f32 = cuda::std::is_same_v<C, float>;
  constexpr C hi = f32 ? C(0.70710676908493042) : C(0.70710678118654757);        // 1/sqrt 2 rounded to C
  constexpr C lo = f32 ? C(1.2101617104478970e-08) : C(-4.833646656726457e-17);  // 1/sqrt 2 - hi
  const C z = -x * hi;
  const C t0 = cuda::std::erfc(z);
  if (t0 == C(0)) return -C(0);  // x very negative (-inf included)
  const C z_lo = mul_add(-x, hi, -z) + -x * lo;
  const C t = z > C(0) ? mul_add(t0, C(-2) * z * z_lo, t0) : t0;
  return (C(0.5) * x) * t;
}

/// `0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))` (PyTorch's `approximate="tanh"`, CUTLASS's
/// `GELU_taylor`), computed through the identity `0.5 (1 + tanh(u)) = sigmoid(2u)` so that negative x
/// does not cancel.
template <class C>
EW_HD C gelu_tanh(C x) {
  const C v = C(1.5957691216057307117) * x * mul_add(C(0.044715) * x, x, C(1));  // 2u
  return x_sigmoid(x, v);
}

/// `min(x, y)` and `max(x, y)` as IEEE 754-2019 `minimum` / `maximum` (and `torch.minimum` /
/// `torch.maximum`): NaN if either is NaN, and `-0 < +0`.
template <class C>
EW_HD C minimum(C a, C b) {
  if constexpr (cuda::std::is_floating_point_v<C>) {
    // On a tie of zeros, -(-a - b) is -0 when either is -0.
    return a != a ? a : (b != b ? b : (a < b ? a : (b < a ? b : (a == C(0) ? -(-a - b) : a))));
  } else {
    return b < a ? b : a;
  }
}
template <class C>
EW_HD C maximum(C a, C b) {
  if constexpr (cuda::std::is_floating_point_v<C>) {
    // On a tie of zeros, a + b is +0 unless both are -0.
    return a != a ? a : (b != b ? b : (a > b ? a : (b > a ? b : (a == C(0) ? a + b : a))));
  } else {
    return a < b ? b : a;
  }
}

/// `x < 0`, false for unsigned types (without a comparison that compilers call pointless).
template <class C>
EW_HD bool below_zero(C x) {
  if constexpr (cuda::std::is_unsigned_v<C>) {
    return false;
  } else {
    return x < C(0);
  }
}

/// `|x|`; integers wrap (`|MIN| == MIN`), unsigned integers are their own absolute value.
template <class C>
EW_HD C absolute(C x) {
  if constexpr (cuda::std::is_floating_point_v<C>) {
    return cuda::std::fabs(x);
  } else if constexpr (cuda::std::is_unsigned_v<C>) {
    return x;
  } else {
    return below_zero(x) ? wrap_sub(C(0), x) : x;
  }
}

/// `-x`; integers wrap (`-MIN == MIN`, unsigned `-x == 2^bits - x`).
template <class C>
EW_HD C negate(C x) {
  if constexpr (cuda::std::is_floating_point_v<C>) {
    return -x;
  } else {
    return wrap_sub(C(0), x);
  }
}

/// `a / b`; for integers truncated toward zero, 0 when `b == 0`, and `MIN / -1 == MIN`.
template <class C>
EW_HD C divide(C a, C b) {
  if constexpr (cuda::std::is_floating_point_v<C>) {
    return a / b;
  } else if constexpr (cuda::std::is_signed_v<C>) {
    return b == C(0) ? C(0) : (b == C(-1) ? wrap_sub(C(0), a) : static_cast<C>(a / b));
  } else {
    return b == C(0) ? C(0) : static_cast<C>(a / b);
  }
}

/// PyTorch's softplus: `x` where `beta * x > threshold`, else `log1p(exp(beta * x)) / beta`.
template <class C>
EW_HD C softplus(C x, C beta, C threshold) {
  const C bx = x * beta;
  return bx > threshold ? x : cuda::std::log1p(cuda::std::exp(bx)) / beta;
}

}  // namespace detail
}  // namespace ew
