// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Float forms of activations and functions whose result is rounded to a 16-bit or FP8 type
/// (`is_narrow_float_v`): computed to the accuracy that type holds, not to float's, from the GPU's
/// approximate instructions (`MUFU`: `ex2`, `lg2`, `rcp`) and short polynomials, in a fraction of the float
/// library's instructions. A bf16 element moves half the bytes of an f32 one, so its math costs twice as
/// much per byte: with the float library, bf16 mish ran at 0.58 of relu's bandwidth, pow at 0.60, softplus
/// 0.65, elu and selu 0.89, log2 0.92; with these forms every one at 0.98 to 1.00 but pow, 0.96 (H100,
/// 2026-12-05, docs/PERFORMANCE.md changes 48, 49 and 51). Each
/// keeps its op's 1-ulp bound of the 16-bit types over every input (tests/host: every f16 and bf16 value,
/// the approximations at their documented worst errors too). All `__host__ __device__`: the host runs the
/// C++ functions in place of the instructions.

#include <nv/target>

#include <cuda/std/cmath>
#include <cuda/std/limits>

#include "math.cuh"

namespace ew {
namespace detail {

/// The approximate instructions on the device, the C++ functions on the host: `rcp.approx.ftz` (relative
/// error about 2^-23), `ex2.approx.ftz` (2 ulp of float), `lg2.approx.ftz` (absolute error 2^-22 for an
/// argument in [0.5, 2], the only arguments given it here). Subnormal results are flushed to zero, so
/// the callers keep them normal (an `ex2` argument raised by 64 and the result scaled back last).
struct approx_mufu {
  EW_HD static float reciprocal(float d) {
    float r;
    NV_IF_ELSE_TARGET(NV_IS_DEVICE, (asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(d));), (r = 1.0f / d;));
    return r;
  }
  EW_HD static float exp2(float a) {
    float r;
    NV_IF_ELSE_TARGET(NV_IS_DEVICE,
                      (asm("ex2.approx.ftz.f32 %0, %1;"
                           : "=f"(r)
                           : "f"(a));),
                      (r = cuda::std::exp2(a);));
    return r;
  }
  EW_HD static float log2(float a) {
    float r;
    NV_IF_ELSE_TARGET(NV_IS_DEVICE,
                      (asm("lg2.approx.ftz.f32 %0, %1;"
                           : "=f"(r)
                           : "f"(a));),
                      (r = cuda::std::log2(a);));
    return r;
  }
};
EW_HD float approx_reciprocal(float d) { return approx_mufu::reciprocal(d); }
EW_HD float approx_exp2(float a) { return approx_mufu::exp2(a); }

/// GELU in float for a result that is rounded to a 16-bit or FP8 type (`ew::gelu<__nv_bfloat16>` and the
/// others, and their form in `ew::compose`): relative error below 2^-13 (8e-5 at most) down to results of
/// 2^-126. Rounded to a 16-bit type that is the same 1-ulp bound as `gelu`'s (the float error is under a
/// fifth of a ulp of f16's and a fortieth of bf16's), in about 20 instructions: `erfc(z)`, `z = |x| / sqrt
/// 2`, is `t exp(-z^2 + P(t))` with `t = 1 / (1 + z / 2)` (the form of Numerical Recipes' `erfcc`, whose
/// P of degree 9 holds 1.2e-7) and P of degree 5, a Chebyshev fit of `log(erfc(z) / t) + z^2` over t in
/// [0, 1] (mpmath's `chebyfit`; largest error 7.6e-5, 7.8e-5 with the coefficients rounded to float), its
/// coefficients scaled by log2(e) so that one `exp2` takes `P - z^2 log2(e)` directly; one approximate
/// reciprocal and one `exp2` in place of `erfcf` and its correction. `exp2`'s argument is raised by 64
/// (in P's constant) and the product scaled back last, so that a result in float's subnormal range is
/// rounded once rather than flushed. `gelu(+inf) = +inf`, `gelu(-inf)` and `gelu(-0)` are -0, NaN stays
/// NaN.
EW_HD float gelu_narrow(float x) {
  const float ax = cuda::std::fabs(x);
  const float t = approx_reciprocal(mul_add(ax, 0.35355339059327376f, 1.0f));  // 1 / (1 + z / 2)
  float p = 0.285948575f;
  p = mul_add(p, t, -0.889374495f);
  p = mul_add(p, t, 0.533039272f);
  p = mul_add(p, t, 0.445481628f);
  p = mul_add(p, t, 1.45076311f);
  p = mul_add(p, t, 62.1741409f);  // (log(erfc(z) / t) + z^2) log2(e) + 64
  // log2(erfc(z) 2^64 / t) = P - z^2 log2(e), z^2 log2(e) = |x| (|x| log2(e) / 2)
  const float h = t * approx_exp2(mul_add(-ax, ax * 0.721347511f, p));  // erfc(z) 2^64 = Phi(-|x|) 2^65
  if (x >= 0.0f) return x * mul_add(-h, 0x1p-65f, 1.0f);  // x Phi(x) = x (1 - Phi(-x)); -0 stays -0
  return h == 0.0f ? -0.0f : (x * h) * 0x1p-65f;          // x Phi(x); -inf gives -0
}

/// `log1p(e) / e` for `|e| < 2^-4`: `1 - e / 2 + e^2 / 3 - ... - e^5 / 6`; the next term, `e^6 / 7`, is
/// under 2^-26 (a relative error of `log1p`, with the roundings, below 2^-23).
EW_HD float log1p_series(float e) {
  float p = mul_add(e, -0.166666672f, 0.200000003f);
  p = mul_add(p, e, -0.25f);
  p = mul_add(p, e, 0.333333343f);
  p = mul_add(p, e, -0.5f);
  return mul_add(p, e, 1.0f);
}

/// `log1p(e) 2^64` from `h = e 2^64` (`e = e^-a` for some `a >= 0`, or NaN): below `e = 2^-4` the series
/// `e (1 - e / 2 + e^2 / 3 - ... - e^5 / 6)` (the next term, `e^6 / 7`, is under 2^-26 of the result),
/// whose product with `h` keeps a result in float's subnormal range normal until the caller's last
/// multiply by 2^-64; above it `log2(1 + e) ln 2` (`lg2`'s absolute error 2^-22 is under 2^-18 of a result
/// of at least 2^-4, and `1 + e`'s rounding, 2^-24, under 2^-19 of it).
template <class A>
EW_HD float log1p_scaled(float h) {
  const float e = h * 0x1p-64f;
  if (e < 0x1p-4f) return h * log1p_series(e);
  return A::log2(1.0f + e) * (0.693147180559945309f * 0x1p64f);
}

/// `log(1 + x)` for a result rounded to a 16-bit or FP8 type: below `|x| = 2^-4` the series `x
/// log1p_series(x)` (2^-23), above it one `lg2` of `1 + x` (its absolute 2^-22, and the rounding of `1 + x`,
/// 2^-24 of it, over a result of at least `|log(1 - 2^-4)|`, 0.0645: below 2^-18 of it). -1 gives -inf, a
/// value below -1 or NaN NaN, +inf `+inf`, -0 -0. CUDA's `log1pf` held bf16 log1p at 0.862 of relu's
/// bandwidth on the H200 (29 instructions an element beyond relu's in a one-element kernel, against 8 here;
/// docs/PERFORMANCE.md change 56).
template <class A = approx_mufu>
EW_HD float log1p_narrow(float x) {
  // Both forms, then a select: a warp of mixed inputs would run both sides of a branch anyway.
  const float series = x * log1p_series(x);
  const float l = A::log2(1.0f + x) * 0.693147180559945309f;
  return cuda::std::fabs(x) < 0x1p-4f ? series : l;
}

/// `e^-|z| 2^64` (normal down to `|z|` of about 131; 0 past about 150, and for `|z|` infinite).
template <class A>
EW_HD float exp_neg_abs_scaled(float z) {
  return A::exp2(mul_add(-cuda::std::fabs(z), 1.44269504088896341f, 64.0f));
}

/// PyTorch's softplus (`x` where `beta x > threshold`, else `log1p(e^(beta x)) / beta`) for a result
/// rounded to a 16-bit or FP8 type, as `max(z, 0) + log1p(e^-|z|)` over `beta` with `z = beta x`: relative
/// error below 2^-17 (5.1e-6 at most over every f16 and bf16 input with the instructions at their
/// documented worst: `lg2`'s near `|z| = 2.7`, where `log2(1 + e)` is smallest above the series; `ex2`'s
/// argument's rounding near `|z| = 87`); one `ex2`, then one `lg2` or six multiply-adds, and the division
/// by `beta` as a product with `rcp(beta)` (2^-23 at most). An IEEE division there, even behind `beta !=
/// 1`, held the bf16 kernel at 48 registers where this form needs 32 (ptxas, sm_90: 10 blocks of 128
/// threads an SM instead of 16; on an H100 its warps were 55% active against mish's 87%, and on the H200
/// it ran at 0.854 of relu's bandwidth: docs/PERFORMANCE.md change 56). -inf gives 0, +inf `+inf`, NaN NaN.
template <class A = approx_mufu>
EW_HD float softplus_narrow(float x, float beta, float threshold) {
  const float z = x * beta;
  if (z > threshold) return x;
  const float l = log1p_scaled<A>(exp_neg_abs_scaled<A>(z)) * 0x1p-64f;  // log1p(e^-|z|)
  return (z > 0.0f ? z + l : l) * A::reciprocal(beta);
}

/// `log(sigmoid(x)) = min(x, 0) - log1p(e^-|x|)` for a result rounded to a 16-bit or FP8 type: the
/// accuracy and cost of `softplus_narrow`. `-inf` gives `-inf`, `+inf` 0, NaN NaN.
template <class A = approx_mufu>
EW_HD float log_sigmoid_narrow(float x) {
  const float l = log1p_scaled<A>(exp_neg_abs_scaled<A>(x)) * 0x1p-64f;
  return (x < 0.0f ? x : 0.0f) - l;
}

/// `x tanh(softplus(x))` (softplus's threshold 20) for a result rounded to a 16-bit or FP8 type:
/// `tanh(log1p(n)) = n (n + 2) / (n (n + 2) + 2)` with `n = e^x`, one `ex2` and one `rcp`; below `x = -20`
/// it is `n` to 2^-28, and `x n` is formed from `n 2^64` and scaled last (results in float's subnormal
/// range rounded once). Relative error below 2^-17 (4.1e-6 at most, near x = -89, where `ex2`'s argument
/// is rounded; `rcp`'s error too). `x` above 20 gives `x` (the float `tanh` is 1 there), `-inf` and `-0`
/// give -0, NaN NaN.
template <class A = approx_mufu>
EW_HD float mish_narrow(float x) {
  if (x > 20.0f) return x;
  const float h = A::exp2(mul_add(x, 1.44269504088896341f, 64.0f));  // e^x 2^64
  if (x < -20.0f) return h == 0.0f ? -0.0f : (x * h) * 0x1p-64f;     // -inf gives -0
  const float n = h * 0x1p-64f;
  const float m = n * (n + 2.0f);
  return x * (m * A::reciprocal(m + 2.0f));
}

/// `e^x - 1` for a result rounded to a 16-bit or FP8 type: below `|x| = 2^-3` the Taylor series to `x^5 /
/// 120` (the next term is under 2^-24 of the result), above it `e^x - 1` from one `ex2` (its 2^-22 and the
/// rounding of `x log2(e)`, `|x|` 2^-24, over a result of at least `|e^x - 1| >= 0.11 e^x`: below 2^-17 of
/// it). -inf gives -1, +inf `+inf`, NaN NaN, -0 -0; results past float's range overflow.
template <class A = approx_mufu>
EW_HD float expm1_narrow(float x) {
  // Both forms, then a select: a warp of mixed inputs would run both sides of a branch anyway.
  float p = mul_add(x, 0.00833333377f, 0.0416666679f);
  p = mul_add(p, x, 0.166666672f);
  p = mul_add(p, x, 0.5f);
  const float series =
      x * mul_add(p, x, 1.0f);  // x (1 + x (1/2 + x / 6 + x^2 / 24 + x^3 / 120)); -0 stays -0
  const float e = A::exp2(x * 1.44269504088896341f) - 1.0f;
  return cuda::std::fabs(x) < 0.125f ? series : e;
}

/// `x > 0 ? x : alpha (e^x - 1)` (ELU) for a result rounded to a 16-bit or FP8 type, through
/// `expm1_narrow`.
template <class A = approx_mufu>
EW_HD float elu_narrow(float x, float alpha) {
  return x > 0.0f ? x : alpha * expm1_narrow<A>(x);
}

/// `log(x)` (`Natural`) or `log2(x)` from `l2`, the caller's `log2(x)` (one `lg2`), or, for `|x - 1| <
/// 2^-4`, from the series `f log1p_series(f)` of `f = x - 1` (exact there): `log_narrow_base`'s core, which
/// `pow_narrow`'s common case shares so that both give the same bits.
template <bool Natural>
EW_HD float log_series_or(float x, float l2) {
  const float f = x - 1.0f;
  const float l = f * log1p_series(f);  // log(x), for |f| < 2^-4
  const bool near_one = cuda::std::fabs(f) < 0x1p-4f;
  return Natural ? (near_one ? l : l2 * 0.693147180559945309f) : (near_one ? l * 1.44269504088896341f : l2);
}

/// `log(x)` (`Natural`) or `log2(x)` for a result rounded to a 16-bit or FP8 type: for `|x - 1| < 2^-4` the
/// series `f log1p_series(f)` of `f = x - 1` (exact), else one `lg2` (absolute error 2^-22 over a result of
/// at least `log2(1.0625)`, 0.087: below 2^-18 of it; a subnormal `x` scaled by 2^32 first, as `.ftz` would
/// flush it). 0 gives -inf, +inf `+inf`, a negative `x` or NaN NaN.
template <bool Natural, class A = approx_mufu>
EW_HD float log_narrow_base(float x) {
  // Both forms, then selects (the special values last): a warp of mixed inputs would run both sides of a
  // branch anyway.
  const bool tiny = x < 0x1p-126f;
  const float l2 = A::log2(tiny ? x * 0x1p32f : x) - (tiny ? 32.0f : 0.0f);  // log2(x)
  const float r = log_series_or<Natural>(x, l2);
  if (x > 0.0f && x <= cuda::std::numeric_limits<float>::max()) return r;
  return x == 0.0f ? -cuda::std::numeric_limits<float>::infinity()
                   : (x > 0.0f ? x : cuda::std::numeric_limits<float>::quiet_NaN());
}

/// `log(x)` for a result rounded to a 16-bit or FP8 type (`log_narrow_base`).
template <class A = approx_mufu>
EW_HD float log_narrow(float x) {
  return log_narrow_base<true, A>(x);
}
/// `log2(x)` for a result rounded to a 16-bit or FP8 type (`log_narrow_base`).
template <class A = approx_mufu>
EW_HD float log2_narrow(float x) {
  return log_narrow_base<false, A>(x);
}

/// `x sigmoid(v)` for a result rounded to a 16-bit or FP8 type: `x / (1 + e^-v)`, and `x e^v / (1 + e^v)`
/// for negative `v` from `e^v 2^64` (results in float's subnormal range rounded once, by the last multiply);
/// one `ex2` and one `rcp`. Relative error below 2^-17 plus `|v|` times `v`'s own: the rounding of `ex2`'s
/// argument, `|v|` 2^-24, is the larger part past `|v| = 8`. `v = -inf` (and `e^v` below 2^-190) gives -0.
template <class A = approx_mufu>
EW_HD float x_sigmoid_narrow(float x, float v) {
  const float h = exp_neg_abs_scaled<A>(v);                   // e^-|v| 2^64
  const float r = A::reciprocal(mul_add(h, 0x1p-64f, 1.0f));  // 1 / (1 + e^-|v|)
  if (v >= 0.0f) return x * r;
  return h == 0.0f ? -0.0f : ((x * h) * r) * 0x1p-64f;
}

/// `sigmoid(v)` for a result rounded to a 16-bit or FP8 type: `x_sigmoid_narrow`'s form with `x = 1`
/// (one `ex2`, one `rcp`; relative error below 2^-17 plus `|v|` 2^-24 where the result is a normal float),
/// +0 at -inf and where `e^v` is below 2^-190, 1 at +inf, NaN for NaN. `silu` of those types is
/// `x_sigmoid_narrow(x, x)`. With the float library's `expf` and IEEE divide, bf16 sigmoid ran at 0.882 and
/// silu at 0.848 of relu's bandwidth on the H200 (2026-12-06, docs/PERFORMANCE.md change 55).
template <class A = approx_mufu>
EW_HD float sigmoid_narrow(float v) {
  return cuda::std::fabs(x_sigmoid_narrow<A>(1.0f, v));  // x_sigmoid_narrow's -0 far below is +0 here
}

/// GELU's tanh form, `x sigmoid(2 u)` with `u = sqrt(2 / pi) (x + 0.044715 x^3)` formed as the float
/// `gelu_tanh` forms it, for a result rounded to a 16-bit or FP8 type (`x_sigmoid_narrow`: relative error
/// below 2^-15 where the result is a normal float, 1.1e-5 at most, near `x = -9.9`, where `2u`'s roundings
/// are multiplied by `|2u|`, about 85).
template <class A = approx_mufu>
EW_HD float gelu_tanh_narrow(float x) {
  return x_sigmoid_narrow<A>(x, 1.5957691216057307117f * x * mul_add(0.044715f * x, x, 1.0f));
}

/// `a^b` (C's `pow`) for a result rounded to a 16-bit or FP8 type: `2^(b log2|a|)`, with `log2_narrow`'s
/// `log2|a|` and one `ex2` (raised by 64 and scaled back where the result is below 2^-64, so that one in
/// float's subnormal range is rounded once), the sign from `a` where `b` is an odd integer. Its relative
/// error is about `ln 2 |t|` times `t = b log2|a|`'s, below `|t| 2^-18.4` (`log2_narrow`'s 2^-22 absolute
/// over `|log2|a|| >= 0.087`, its series' 2^-23 relative nearer 1, `t`'s rounding): `2^-11.8` of a bf16
/// result (`|t| <= 134`), `2^-14.3` of an f16 one (`|t| <= 25`), where a rounding to the type needs below
/// 2^-9 and 2^-12 to stay within 1 ulp. C's special values: `pow(x, 0)` and `pow(1, y)` are 1 (NaN too),
/// `pow(-1, +-inf)` 1, a finite negative `a` to a non-integer `b` NaN, zeros and infinities as C's.
template <class A = approx_mufu>
EW_HD float pow_narrow_general(float a, float b) {
  if (b == 0.0f || a == 1.0f) return 1.0f;
  const float ax = cuda::std::fabs(a), bx = cuda::std::fabs(b);
  if (ax == 1.0f && bx == cuda::std::numeric_limits<float>::infinity()) return 1.0f;  // pow(-1, +-inf)
  const bool integer = cuda::std::trunc(b) == b;                                      // +-inf too
  const bool odd = integer && bx < 0x1p24f && cuda::std::trunc(b * 0.5f) != b * 0.5f;
  if (a < 0.0f && ax != cuda::std::numeric_limits<float>::infinity() && !integer) {
    return cuda::std::numeric_limits<float>::quiet_NaN();
  }
  const float t = b * log2_narrow<A>(ax);
  const bool small = t < -64.0f;
  const float r = A::exp2(small ? t + 64.0f : t) * (small ? 0x1p-64f : 1.0f);
  return cuda::std::signbit(a) && odd ? -r : r;
}

/// `pow_narrow_general`'s value, its common case first: a positive normal `a`, a finite `b` and a result
/// from 2^-64 up other than 1 (`t = b log2 a` nonzero: `a == 1` and `b == 0` give exactly 1 in the general
/// form, whatever `ex2` does with 0) need neither the special values nor the sign, nor `log2_narrow`'s
/// tiny-input and special-value selects, nor the subnormal scaling, and the same operations
/// (`log_series_or`) give the same bits; everything else takes the general form. A warp whose elements are
/// all common runs about half the instructions: bf16 pow was bound by them (0.957 of relu on an H100,
/// 2026-12-05, docs/PERFORMANCE.md change 52).
template <class A = approx_mufu>
EW_HD float pow_narrow(float a, float b) {
  const float t = b * log_series_or<false>(a, A::log2(a));
  if (a >= 0x1p-126f && a <= cuda::std::numeric_limits<float>::max() &&
      cuda::std::fabs(b) <= cuda::std::numeric_limits<float>::max() && t >= -64.0f && t != 0.0f) {
    return A::exp2(t);
  }
  return pow_narrow_general<A>(a, b);
}

/// SELU's constants (PyTorch's; Klambauer et al. 2017), and as floats.
constexpr double selu_scale_d = 1.0507009873554804934193349852946;
constexpr double selu_alpha_d = 1.6732632423543772848170429916717;
constexpr float selu_scale = static_cast<float>(selu_scale_d), selu_alpha = static_cast<float>(selu_alpha_d);

/// `scale elu(x, alpha)` with SELU's constants, through `elu_narrow`.
template <class A = approx_mufu>
EW_HD float selu_narrow(float x) {
  return selu_scale * elu_narrow<A>(x, selu_alpha);
}

}  // namespace detail
}  // namespace ew
