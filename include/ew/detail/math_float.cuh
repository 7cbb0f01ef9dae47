// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Float forms of its own for ops whose float library form costs more instructions than the memory
/// allows: `gelu_float`, GELU of a float without `erfcf`, and `mish_float`, mish from one `expf`. An f32
/// bias + GELU ran at 0.91 of torch.compile on an H100, issuing 76 instructions an element against
/// Inductor's 38 (`ew::gelu<float>`'s `erfcf` and its argument correction, 63; docs/PERFORMANCE.md, "The f32
/// bias + GELU cell"). Each keeps its op's stated bound over every float input (tests/host: the host runs
/// the same operations, the approximate reciprocal and `expf` at their documented worst too; tests/gpu:
/// every float on the GPU against a double reference).

#include <cuda/std/bit>
#include <cuda/std/cmath>
#include <cuda/std/limits>

#include "math_narrow.cuh"

namespace ew {
namespace detail {

/// `x Phi(x)` (exact GELU) of a float within 10 ulp (`ew::gelu<float>`'s bound; 7.8 ulp at most over every
/// 61st float on the host, near x = 0.0037), in 47 instructions (sm_90 SASS, beyond a copy's) against the
/// `erfcf` form's 64, with no library call:
/// `Phi(-a) = e^(-a^2 / 2) R(a)`, `a = |x|`, with
/// - `R(a) = t P(t)`, `t = 1 / (1 + a / 4)` from one approximate reciprocal and a Newton step, P of degree 8
///   fitted with float coefficients (relative minimax by reweighted least squares, the coefficients rounded
///   to float one at a time from the top and the rest refitted: 7.2e-8 of R over a in [0, 14.5]);
/// - `e^(-a^2 / 2) = 2^j e^u`, `j = rint(-a^2 log2(e) / 2)`, `u = -a^2 / 2 - j ln 2` from a two-part ln 2
///   and `a^2`'s rounding error (one FMA), and `e^u` a polynomial of degree 6 (3.6e-9 over |u| <= 0.347):
///   no `ex2`, whose 2 ulp would leave too little of the bound; `2^(j + 64)` from the exponent bits.
/// Then `x Phi(x)` for x < 0, `x (1 - Phi(-x))` for x >= 0; the 2^64 keeps `Phi(-a)` normal until the last
/// multiply, so that a result in float's subnormal range is rounded once. Past `|x| = 14.5` (where GELU of
/// a negative x is below 2^-153) the limits: x itself, or -0. `gelu(-0)` is -0, NaN stays NaN.
template <class A = approx_mufu>
EW_HD float gelu_float(float x) {
  const float ax = cuda::std::fabs(x);
  const float a = cuda::std::fmin(ax, 14.5f);  // NaN and infinities: finite here, selected last
  const float d = mul_add(a, 0.25f, 1.0f);
  float t = A::reciprocal(d);
  t = mul_add(t, mul_add(-d, t, 1.0f), t);  // Newton: rcp.approx's 2^-23 to about half an ulp
  float p = 2.517544851e-02f;
  p = mul_add(p, t, -1.501132846e-01f);
  p = mul_add(p, t, 2.904743552e-01f);
  p = mul_add(p, t, -1.992184669e-01f);
  p = mul_add(p, t, 1.971370727e-01f);
  p = mul_add(p, t, 3.494071960e-02f);
  p = mul_add(p, t, 1.032180265e-01f);
  p = mul_add(p, t, 9.859326482e-02f);
  p = mul_add(p, t, 9.979283065e-02f);
  const float r = p * t;  // R(a) = Phi(-a) e^(a^2 / 2)
  const float s = a * a;
  const float j = cuda::std::rint(s * -0.721347520f);  // rint(-a^2 log2(e) / 2), in [-152, 0]
  float u = mul_add(j, -0.693145752f, -0.5f * s);      // - j ln2's high part (exact product)
  u = mul_add(j, -1.42860677e-06f, u);                 // - j ln2's low part
  u = mul_add(mul_add(a, a, -s), -0.5f, u);            // a^2 = s + fma(a, a, -s) exactly
  float e = 1.381455921e-03f;                          // e^u, |u| <= 0.347
  e = mul_add(e, u, 8.368741721e-03f);
  e = mul_add(e, u, 4.166838899e-02f);
  e = mul_add(e, u, 1.666652113e-01f);
  e = mul_add(e, u, 4.999999404e-01f);
  e = mul_add(e, u, 1.0f);
  e = mul_add(e, u, 1.0f);
  const float scale = cuda::std::bit_cast<float>((static_cast<int>(j) + 64 + 127) << 23);  // 2^(j + 64)
  const float q = r * (e * scale);                                                         // Phi(-a) 2^64
  if (!(ax < 14.5f)) return x > 0.0f ? x : (x < 0.0f ? -0.0f : x);
  return x < 0.0f ? (x * q) * 0x1p-64f : x * mul_add(-q, 0x1p-64f, 1.0f);
}

/// `e^x` of a float: CUDA's `expf` on the device (2 ulp, CUDA C++ Programming Guide, "Mathematical
/// Functions"), the host's `expf` there; the host tests put it at that worst each way.
struct float_library {
  EW_HD static float exp(float x) { return cuda::std::exp(x); }
};

/// `x tanh(softplus(x))` (mish; softplus's threshold 20) of a float within `ew::mish<float>`'s 8 ulp, from
/// `tanh(log1p(n)) = n (n + 2) / (n (n + 2) + 2)`, `n = e^x`: one `expf` and one IEEE division, with no
/// cancellation (every term is positive; `n`'s error reaches the result at most once, where `n` is small),
/// where the float library's `tanhf(log1pf(expf(x)))` took 66 instructions an element in the f32 kernel
/// (ncu; this form 38, a copy 3.5) and ran f32 mish at 0.841 of relu's bandwidth on the H200
/// (docs/PERFORMANCE.md change 56). Below -20
/// the quotient is `n` to 2^-28 and the result `x e^x`, formed as `(x g) e^-44` from `g = e^(x + 44)` (the
/// same one `expf`; `x + 44` is exact there), so that it stays accurate where `e^x` alone would be
/// subnormal (below -87: a subnormal `n` would lose the digits that `x n` keeps) and a subnormal result is
/// rounded once; `e^(x / 2)` squared instead doubled `expf`'s 2 ulp, over the bound. Above 20 it is `x` (as
/// `tanhf` of softplus's `x` gives 1 there), -inf gives the limit -0, -0 gives -0, NaN NaN.
template <class L = float_library>
EW_HD float mish_float(float x) {
  const bool low = x < -20.0f;
  const float g = L::exp(low ? x + 44.0f : cuda::std::fmin(x, 20.0f));  // NaN: e^20, NaN comes back via x
  const float m = g * (g + 2.0f);
  const float r = low ? (x * g) * 7.7811322411e-20f : x * (m / (m + 2.0f));  // e^-44
  return x > 20.0f ? x : (x < -cuda::std::numeric_limits<float>::max() ? -0.0f : r);
}

}  // namespace detail
}  // namespace ew
