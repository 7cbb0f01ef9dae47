// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Float forms for results rounded to a 16-bit or FP8 type from fitted polynomials (erf, sin, cos): no
/// exponential or logarithm, at most one approximate reciprocal. What math_narrow.cuh says of its forms
/// holds for these: each keeps its op's 1-ulp bound of the 16-bit types over every input
/// (tests/host/test_math_narrow_host.cu).

#include <cuda/std/bit>
#include <cuda/std/cmath>

#include "math_narrow.cuh"

namespace ew {
namespace detail {

/// erf in float for a result that is rounded to a 16-bit or FP8 type (`ew::erf<__nv_bfloat16>` and the
/// others, and their form in `ew::compose`): `x P(x^2) / Q(x^2)` for |x| up to 3.3 and +-1 past it, P and
/// Q of degree 3 (a least-squares fit of `erf(t) / t` over t^2 in [0, 3.3^2], reweighted towards the
/// minimax relative error; 2.2e-6, 2.5e-6 with the coefficients rounded to float, and `1 - erf(3.3)` =
/// 3.1e-6 past 3.3): relative error below 2^-18 over every input, one form without a branch or
/// a select between two sides (CUDA's `erff` takes two, 47 registers in the bf16 kernel and 0.86 of relu's
/// bandwidth on the H200: docs/PERFORMANCE.md, change 60), in about a dozen instructions and one
/// approximate reciprocal. Rounded to a 16-bit type that is the 1-ulp bound of `erf`. erf(+-0) = +-0, +-1
/// exactly past |x| = 3.3 (the infinities included, so that a chain's next stage sees the limit), NaN
/// stays NaN (the comparison is false for it, and the form propagates it).
template <class A = approx_mufu>
EW_HD float erf_narrow(float x) {
  const float s = x * x;
  float p = 0.000744626566f;
  p = mul_add(p, s, 0.0431268401f);
  p = mul_add(p, s, 0.154745117f);
  p = mul_add(p, s, 1.1283772f);
  float q = 0.00925475918f;
  q = mul_add(q, s, 0.0949496403f);
  q = mul_add(q, s, 0.470485181f);
  q = mul_add(q, s, 1.0f);
  const float r = (x * p) * A::reciprocal(q);  // NaN or 0 * inf far out, where the select drops it
  return cuda::std::fabs(x) > 3.3f ? cuda::std::copysign(1.0f, x) : r;
}

/// `sin r` for `|r|` up to `pi / 2 + 2^-6`: `r P(r^2)`, P of degree 3 (a least-squares fit of `sin(r) / r`
/// over r^2, reweighted towards the minimax relative error; 1.02e-6, 1.04e-6 with the coefficients rounded
/// to float). Four multiply-adds and two products.
EW_HD float sin_half_period(float r) {
  const float s = r * r;
  float p = -0.000184611883f;
  p = mul_add(p, s, 0.008311023f);
  p = mul_add(p, s, -0.16665484f);
  p = mul_add(p, s, 0.999998987f);
  return r * p;
}

/// `sin x` (`Cosine` false) or `cos x` (true) for a result rounded to a 16-bit or FP8 type (`ew::sin<__half>`
/// and the others, and their forms in `ew::compose`): `x` reduced by a multiple `k` of pi to `r = x - k pi`
/// in [-pi / 2, pi / 2] (`k` an integer for sin, an integer and a half for cos), then `+-sin r`
/// (`sin_half_period`). `r` is exact but for its last two roundings: pi in three floats (Cody and Waite),
/// each product with `k` exact inside a multiply-add, the first difference exact (both terms on the grid of
/// 2^-23 and under 2 apart) up to |x| = 2^17; past it (bf16 and float arguments only) CUDA's `sinf` /
/// `cosf`, whose reduction holds for every float. The result's relative error is below 2^-19 (1.14e-6 at
/// most over every f16 and bf16 input; the nearest an f16 or bf16 value comes to a zero of sin or cos is
/// 2^-16, against the 2^-60 that the three floats leave out of `k pi`), in 18 instructions on the common
/// path (sm_90, CUDA 13.0) where `sinf` takes 24, two of them conversions between float and integer (bf16
/// sin ran at 0.883 of relu's bandwidth on the H200, cos at 0.862: docs/PERFORMANCE.md change 62).
/// sin(+-0) = +-0, the infinities and NaN give NaN.
template <bool Cosine>
EW_HD float sin_cos_narrow(float x) {
  const float a = cuda::std::fabs(x);  // sin is odd, cos even: the sign goes back on at the end
  if (a > 0x1p17f) return Cosine ? cuda::std::cos(x) : cuda::std::sin(x);  // NaN goes on below
  constexpr float round_shift = 0x1.8p23f;  // adding it rounds a float under 2^22 to an integer
  // k = round(a / pi) (sin), round(a / pi - 1/2) + 1/2 (cos); t's last bit is the integer's parity
  const float t =
      Cosine ? mul_add(a, 0.318309873f, -0.5f) + round_shift : mul_add(a, 0.318309873f, round_shift);
  const float k = Cosine ? (t - round_shift) + 0.5f : t - round_shift;
  float r = mul_add(k, -3.14159274f, a);  // exact: both on the grid of 2^-23, the difference under 2
  r = mul_add(k, 8.74227766e-08f, r);
  r = mul_add(k, 3.43024902e-15f, r);
  // sin(r + k pi) = (-1)^k sin r; cos(r + (j + 1/2) pi) = (-1)^(j + 1) sin r
  unsigned flip = (cuda::std::bit_cast<unsigned>(t) + (Cosine ? 1u : 0u)) << 31;
  if (!Cosine) flip ^= cuda::std::bit_cast<unsigned>(x) & 0x80000000u;
  return cuda::std::bit_cast<float>(cuda::std::bit_cast<unsigned>(sin_half_period(r)) ^ flip);
}

}  // namespace detail
}  // namespace ew
