// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The functor library: one-line `__host__ __device__` ops for `ew::elementwise`.
///
/// Conventions, shared by every op so that adding one is one line:
/// - `Op<T>` takes and returns elements of type `T`; it computes in `ew::compute_t<T>` (`float` for `__half`
///   and `__nv_bfloat16`) and rounds once on return (`ew::up`, `ew::down`).
/// - Transcendentals call the CUDA math function of the compute type (`expf` for float, `exp` for double),
///   which CUDA declares for host and device: the host runs the C library's, the GPU CUDA's. Their maximum
///   errors (CUDA C++ Programming Guide, "Mathematical Functions") set the bounds the tests allow, stated in
///   tests/common/functor_reference.cuh.
/// - Integer `add`, `sub`, `mul`, `neg`, `abs`, `fma`, `axpby` and `scale_bias` wrap in two's complement; they
///   never overflow into UB. Integer `div` truncates toward zero (as C++ and `torch.div(rounding_mode=
///   "trunc")`), gives 0 for a division by zero (PyTorch raises; a kernel cannot) and wraps `MIN / -1` to `MIN`.
/// - Ops that only make sense for floating types (activations, `exp`, `log`, `sincos`, ...) fail to compile
///   for integer `T` with a static_assert naming the op.
/// - A NaN input gives a NaN output for every floating op (`relu`, `clamp`, `min`, `max` included, as in
///   PyTorch): comparisons are written so that NaN fails them and falls through to the input. (Not a
///   gradient: `relu_with_grad` gives 0 there, as PyTorch's backward does.)
/// - Where a textbook formula gives NaN at an infinity (`x * sigmoid(x)` at `-inf` is `-inf * 0`), the op
///   returns the limit instead: `silu`, `gelu`, `gelu_tanh` and `hardswish` of `-inf` are 0.
/// - Stateful ops are aggregates: `ew::clamp<float>{lo, hi}`, `ew::scale_bias<float>{alpha, beta}`. Their
///   scalar parameters are `compute_t<T>` (float for the 16-bit types), so they are not rounded to `T`; the
///   exception is `clamp`, whose bounds are `T` because its result is one of them.
/// - `fma` and `scale_bias` round once for every floating type, and so does `axpby` for the 16-bit ones:
///   for `__half` and `__nv_bfloat16` the exact value is formed in double and rounded once (see
///   `detail::sum_rounded_once`), since their float compute type would round twice.
/// - Ops with several results (`sincos`, `relu_with_grad`, `sigmoid_with_grad`) return
///   `cuda::std::tuple<T, T>`: launch them with `ew::out(p, q)`.

#include <cmath>

#include <cuda/std/bit>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>

#include "detail/config.cuh"
#include "detail/numeric.cuh"

namespace ew {
namespace detail {

/// The math functions of a compute type: CUDA's `__host__ __device__` float or double version. Always
/// called qualified (`cmath::exp`): unqualified `exp` inside namespace ew would name the functor `ew::exp`.
namespace cmath {
EW_HD float exp(float x) { return ::expf(x); }
EW_HD double exp(double x) { return ::exp(x); }
EW_HD float log(float x) { return ::logf(x); }
EW_HD double log(double x) { return ::log(x); }
EW_HD float log1p(float x) { return ::log1pf(x); }
EW_HD double log1p(double x) { return ::log1p(x); }
EW_HD float tanh(float x) { return ::tanhf(x); }
EW_HD double tanh(double x) { return ::tanh(x); }
EW_HD float erfc(float x) { return ::erfcf(x); }
EW_HD double erfc(double x) { return ::erfc(x); }
EW_HD float fabs(float x) { return ::fabsf(x); }
EW_HD double fabs(double x) { return ::fabs(x); }
EW_HD void sincos(float x, float* s, float* c) { ::sincosf(x, s, c); }
EW_HD void sincos(double x, double* s, double* c) { ::sincos(x, s, c); }
}  // namespace cmath

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

/// `a * b + c * d` rounded once to the 16-bit type `T`, for floats holding values of `T` or float. Both
/// products are exact in double (at most 24 + 24 significant bits, well inside double's 53 and its exponent
/// range). TwoSum gives the double sum `s` of `p = a * b` and `q = c * d` and its exact error; when the error is not 0,
/// `s` is replaced by its neighbour with an odd significand on the side of the exact value ("round to odd",
/// Boldo and Melquiond, IEEE TC 2008), which the final round to nearest (to 11 or 8 bits, fewer than
/// double's 53 - 2) turns into the correctly rounded sum. Through float instead, `fma<__half>(0.9790039,
/// 0.00049877167, 1)` rounded twice, to 1.0 where 1.0009765625 is nearest.
// Not inlined: the callers take it only on a midpoint (rarely), and sixteen inlined copies per vectorized
// kernel would triple its code.
template <class T>
__host__ __device__ __noinline__ T sum_rounded_once(float a, float b, float c, float d) {
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

/// True when `r` (float or double) lies exactly halfway between two neighbours of the 16-bit type `T`.
/// Rounding an already rounded `r` to `T` gives the correctly rounded result of the exact value unless `r`
/// sits on such a midpoint (the grid of `T` and its midpoints lie on the grid of `r`'s type, so the exact
/// value cannot cross a midpoint that `r` is not on).
template <class T, class F>
EW_HD bool on_midpoint_of(F r) {
  constexpr bool bf16 = cuda::std::is_same_v<T, __nv_bfloat16>;
  constexpr int p = bf16 ? 8 : 11;               // significand bits of T
  constexpr int min_normal_exp = bf16 ? -126 : -14;
  using bits_t = cuda::std::conditional_t<sizeof(F) == 4, unsigned, unsigned long long>;
  constexpr int f_mantissa = sizeof(F) == 4 ? 23 : 52;
  const bits_t b = cuda::std::bit_cast<bits_t>(r) & ~(bits_t(1) << (8 * sizeof(F) - 1));
  const F a = cuda::std::bit_cast<F>(b);
  // bf16 is float's top half, subnormals included: the bit test holds over float's whole range.
  if ((bf16 && sizeof(F) == 4) || a >= two_to_the<F>(min_normal_exp)) {
    constexpr int drop = f_mantissa - (p - 1);  // bits of r below T's last significand bit
    return (b & ((bits_t(1) << drop) - 1)) == bits_t(1) << (drop - 1);
  }
  // Below T's normal range its quantum is fixed: 2^(min_normal_exp - (p - 1)).
  const F t = a * two_to_the<F>(p - 1 - min_normal_exp);
  if constexpr (sizeof(F) == 4) {
    return t - ::floorf(t) == 0.5f;
  } else {
    return t - ::floor(t) == 0.5;
  }
}

/// `a * b + c` as a `T`, rounded once: through `fma` in the compute type for float and double (and integers,
/// which wrap). For the 16-bit types, `fmaf` rounds the exact value once to float and the result is rounded
/// to `T`; that second rounding is exact unless the float lands on a midpoint of `T` (`on_midpoint_of`, rare),
/// where the exact value is rounded in double instead (`sum_rounded_once`). Operands are `T` or
/// `compute_t<T>` (float).
template <class T, class A, class B, class C>
EW_HD T mul_add_rounded(A a, B b, C c) {
  if constexpr (is_half_precision_v<T>) {
    const float fa = convert<float>(a), fb = convert<float>(b), fc = convert<float>(c);
    const float r = ::fmaf(fa, fb, fc);
    if (!on_midpoint_of<T>(r)) return convert<T>(r);
    return sum_rounded_once<T>(fa, fb, fc, 1.0f);
  } else {
    return mul_add(convert<T>(a), convert<T>(b), convert<T>(c));
  }
}

/// `alpha * x + beta * y` as a `T`: one rounding for the 16-bit types (both products are exact in double; a
/// double fma rounds their sum once and, off a midpoint of `T`, the second rounding is exact);
/// `fma(alpha, x, beta * y)` (two roundings) for float and double, wrapping for integers.
template <class T, class C>
EW_HD T axpby_rounded(C alpha, T x, C beta, T y) {
  if constexpr (is_half_precision_v<T>) {
    const float fx = convert<float>(x), fy = convert<float>(y);
    const double r = ::fma(static_cast<double>(alpha), static_cast<double>(fx), static_cast<double>(beta) * fy);
    if (!on_midpoint_of<T>(r)) return convert<T>(r);
    return sum_rounded_once<T>(alpha, fx, beta, fy);
  } else {
    return mul_add(alpha, x, wrap_mul(beta, y));
  }
}

/// `x * sigmoid(v)` for `v` of the sign of `x`, without cancellation or overflow: with `e = exp(-|v|)`,
/// `sigmoid(v)` is `1 / (1 + e)` for `v >= 0` and `e / (1 + e)` for `v < 0`. Where `e` underflows to 0
/// (`v` very negative, `x = -inf` included) the result is `-0`, the limit, instead of `-inf * 0`.
template <class C>
EW_HD C x_sigmoid(C x, C v) {
  const C e = cmath::exp(-cmath::fabs(v));
  const C num = v >= C(0) ? x : (e == C(0) ? -C(0) : x * e);
  return num / (C(1) + e);
}

/// `1 / (1 + exp(-x))`, from `exp(-|x|)` so that neither tail cancels or overflows.
template <class C>
EW_HD C sigmoid(C x) {
  const C e = cmath::exp(-cmath::fabs(x));
  return (x >= C(0) ? C(1) : e) / (C(1) + e);
}

/// `x * Phi(x) = 0.5 x (1 + erf(x / sqrt 2))`, computed as `0.5 x erfc(-x / sqrt 2)`: the same value, but
/// `1 + erf` cancels for negative x (the textbook formula, used by PyTorch and CUTLASS, has no correct digit
/// below x = -5.5 in float) while `erfc` keeps its relative accuracy.
///
/// The argument `z = -x / sqrt 2` is carried as `z + z_lo` (an error-free product with a two-part constant):
/// for z > 0 a relative error d in z becomes about 2 z^2 d in `erfc(z)` (up to about 200 ulp of float near
/// x = -13, where the result underflows). The first-order correction `erfc(z + z_lo) ~ erfc(z) (1 - 2 z z_lo)`
/// removes it. `-inf` gives the limit, -0.
template <class C>
EW_HD C gelu(C x) {
  constexpr bool f32 = cuda::std::is_same_v<C, float>;
  constexpr C hi = f32 ? C(0.70710676908493042) : C(0.70710678118654757);      // 1/sqrt 2 rounded to C
  constexpr C lo = f32 ? C(1.2101617104478970e-08) : C(-4.833646656726457e-17);  // 1/sqrt 2 - hi
  const C z = -x * hi;
  const C t0 = cmath::erfc(z);
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

/// `min(x, y)` and `max(x, y)` as IEEE 754-2019 `minimum` / `maximum` (and `torch.minimum` / `torch.maximum`):
/// NaN if either is NaN, and `-0 < +0`.
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
    return cmath::fabs(x);
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
  return bx > threshold ? x : cmath::log1p(cmath::exp(bx)) / beta;
}

}  // namespace detail

/// Rejects an integer `T` for an op that only makes sense on floating types.
#define EW_DETAIL_FLOATING_ONLY(T, name)                                                                      \
  static_assert(::ew::is_floating_v<T>, "ew::" name "<T>: T must be a floating type (float, double, __half, " \
                                        "__nv_bfloat16); this op has no integer version")

// clang-format off

// --- Arithmetic (every element type) ------------------------------------------------------------------------

/// `a + b`.
template <class T> struct add { EW_HD T operator()(T a, T b) const { return down<T>(detail::wrap_add(up(a), up(b))); } };

/// `a - b`.
template <class T> struct sub { EW_HD T operator()(T a, T b) const { return down<T>(detail::wrap_sub(up(a), up(b))); } };

/// `a * b`.
template <class T> struct mul { EW_HD T operator()(T a, T b) const { return down<T>(detail::wrap_mul(up(a), up(b))); } };

/// `a / b`. Integers: truncated toward zero, `x / 0 == 0`, `MIN / -1 == MIN` (see the file comment).
template <class T> struct div { EW_HD T operator()(T a, T b) const { return down<T>(detail::divide(up(a), up(b))); } };

/// `a * b + c`, rounded once for every floating type (`__half` and `__nv_bfloat16` included: exact in double,
/// then one rounding to `T`).
template <class T> struct fma { EW_HD T operator()(T a, T b, T c) const { return detail::mul_add_rounded<T>(a, b, c); } };

/// `alpha * x + beta * y` (BLAS axpby): rounded once for `__half` and `__nv_bfloat16`; for float and double
/// `fma(alpha, x, beta * y)`, two roundings.
template <class T> struct axpby { compute_t<T> alpha, beta; EW_HD T operator()(T x, T y) const { return detail::axpby_rounded<T>(alpha, x, beta, y); } };

/// `alpha * x + beta`, rounded once for every floating type (fused multiply-add; exact in double, then one
/// rounding, for `__half` and `__nv_bfloat16`).
template <class T> struct scale_bias { compute_t<T> alpha, beta; EW_HD T operator()(T x) const { return detail::mul_add_rounded<T>(alpha, x, beta); } };

/// `-x`; integers wrap.
template <class T> struct neg { EW_HD T operator()(T x) const { return down<T>(detail::negate(up(x))); } };

/// `|x|`; `|-0| == +0`; integers wrap (`|MIN| == MIN`).
template <class T> struct abs { EW_HD T operator()(T x) const { return down<T>(detail::absolute(up(x))); } };

/// `min(a, b)`: NaN if either is NaN, `min(-0, +0) == -0` (`torch.minimum`).
template <class T> struct min { EW_HD T operator()(T a, T b) const { return down<T>(detail::minimum(up(a), up(b))); } };

/// `max(a, b)`: NaN if either is NaN, `max(-0, +0) == +0` (`torch.maximum`).
template <class T> struct max { EW_HD T operator()(T a, T b) const { return down<T>(detail::maximum(up(a), up(b))); } };

/// `min(max(x, lo), hi)`; NaN stays NaN. Requires `lo <= hi`. The bounds are `T`, not `compute_t<T>` (the
/// one stateful op that keeps its parameters in `T`): the result is `x`, `lo` or `hi` itself, never rounded.
template <class T> struct clamp { T lo, hi; EW_HD T operator()(T x) const { return up(x) < up(lo) ? lo : (up(hi) < up(x) ? hi : x); } };

/// Converts any element type to `To` with one rounding (`ew::convert`): `ew::cast<float>{}` on bf16 input
/// gives float, `ew::cast<__nv_bfloat16>{}` rounds back to nearest even (integers too, from their exact
/// value). Floating to integer truncates toward zero and saturates, NaN giving 0 (`ew::convert` states the
/// rules); to `bool` it is `x != 0`.
template <class To> struct cast { template <class From> EW_HD To operator()(From x) const { return convert<To>(x); } };

// --- Activations ----------------------------------------------------------------------------------------------

/// `max(x, 0)`; NaN stays NaN, `-0` stays `-0`.
template <class T> struct relu { EW_HD T operator()(T x) const { return detail::below_zero(up(x)) ? down<T>(compute_t<T>(0)) : x; } };

/// `x > 0 ? x : slope * x` (`torch.nn.LeakyReLU`, default slope 0.01).
template <class T> struct leaky_relu { EW_DETAIL_FLOATING_ONLY(T, "leaky_relu"); compute_t<T> slope = compute_t<T>(0.01); EW_HD T operator()(T x) const { return up(x) > compute_t<T>(0) ? x : down<T>(up(x) * slope); } };

/// `1 / (1 + exp(-x))`.
template <class T> struct sigmoid { EW_DETAIL_FLOATING_ONLY(T, "sigmoid"); EW_HD T operator()(T x) const { return down<T>(detail::sigmoid(up(x))); } };

/// `tanh(x)`.
template <class T> struct tanh { EW_DETAIL_FLOATING_ONLY(T, "tanh"); EW_HD T operator()(T x) const { return down<T>(detail::cmath::tanh(up(x))); } };

/// `x * sigmoid(x)` (SiLU, swish); `silu(-inf) == -0`.
template <class T> struct silu { EW_DETAIL_FLOATING_ONLY(T, "silu"); EW_HD T operator()(T x) const { return down<T>(detail::x_sigmoid(up(x), up(x))); } };

/// `0.5 x (1 + erf(x / sqrt 2))` (exact GELU, `torch.nn.GELU()`); `gelu(-inf) == -0`.
template <class T> struct gelu { EW_DETAIL_FLOATING_ONLY(T, "gelu"); EW_HD T operator()(T x) const { return down<T>(detail::gelu(up(x))); } };

/// `0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))` (`torch.nn.GELU(approximate="tanh")`).
template <class T> struct gelu_tanh { EW_DETAIL_FLOATING_ONLY(T, "gelu_tanh"); EW_HD T operator()(T x) const { return down<T>(detail::gelu_tanh(up(x))); } };

/// `x * relu6(x + 3) / 6`: 0 for `x <= -3`, `x` for `x >= 3`, `x (x + 3) / 6` between (MobileNetV3).
template <class T> struct hardswish { EW_DETAIL_FLOATING_ONLY(T, "hardswish"); EW_HD T operator()(T x) const { const compute_t<T> c = up(x); return c <= -3 ? down<T>(compute_t<T>(0)) : (c >= 3 ? x : down<T>(c * (c + 3) / 6)); } };

/// `relu6(x + 3) / 6`: 0 for `x <= -3`, 1 for `x >= 3`, `(x + 3) / 6` between.
template <class T> struct hardsigmoid { EW_DETAIL_FLOATING_ONLY(T, "hardsigmoid"); EW_HD T operator()(T x) const { const compute_t<T> c = up(x); return down<T>(c <= -3 ? compute_t<T>(0) : (c >= 3 ? compute_t<T>(1) : (c + 3) / 6)); } };

/// `log(1 + exp(beta x)) / beta`, and `x` where `beta x > threshold` (`torch.nn.Softplus`, defaults 1 and 20).
template <class T> struct softplus { EW_DETAIL_FLOATING_ONLY(T, "softplus"); compute_t<T> beta = 1, threshold = 20; EW_HD T operator()(T x) const { return down<T>(detail::softplus(up(x), beta, threshold)); } };

// --- Elementary functions ---------------------------------------------------------------------------------------

/// `e^x`.
template <class T> struct exp { EW_DETAIL_FLOATING_ONLY(T, "exp"); EW_HD T operator()(T x) const { return down<T>(detail::cmath::exp(up(x))); } };

/// Natural logarithm; `log(0) == -inf`, NaN below 0.
template <class T> struct log { EW_DETAIL_FLOATING_ONLY(T, "log"); EW_HD T operator()(T x) const { return down<T>(detail::cmath::log(up(x))); } };

// --- Several results: launch with ew::out(p, q) -------------------------------------------------------------------

/// `(sin x, cos x)`.
template <class T> struct sincos { EW_DETAIL_FLOATING_ONLY(T, "sincos"); EW_HD cuda::std::tuple<T, T> operator()(T x) const { compute_t<T> s, c; detail::cmath::sincos(up(x), &s, &c); return cuda::std::tuple<T, T>(down<T>(s), down<T>(c)); } };

/// `(relu(x), relu'(x))` for a backward pass: the derivative is 1 for `x > 0`, else 0 (0 at 0 and NaN, as
/// PyTorch's `threshold_backward`).
template <class T> struct relu_with_grad { EW_HD cuda::std::tuple<T, T> operator()(T x) const { return cuda::std::tuple<T, T>(relu<T>{}(x), down<T>(compute_t<T>(up(x) > compute_t<T>(0) ? 1 : 0))); } };

/// `(sigmoid(x), sigmoid'(x))`, the derivative as `e / (1 + e)^2` with `e = exp(-|x|)`, accurate in both tails
/// (`s (1 - s)` is 0 in float for x > 17).
template <class T> struct sigmoid_with_grad { EW_DETAIL_FLOATING_ONLY(T, "sigmoid_with_grad"); EW_HD cuda::std::tuple<T, T> operator()(T x) const { using C = compute_t<T>; const C c = up(x), e = detail::cmath::exp(-detail::cmath::fabs(c)), d = C(1) + e; return cuda::std::tuple<T, T>(down<T>((c >= C(0) ? C(1) : e) / d), down<T>(e / d / d)); } };

// clang-format on

#undef EW_DETAIL_FLOATING_ONLY

}  // namespace ew
