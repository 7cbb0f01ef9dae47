// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// CPU references for ew's functors (include/ew/ops.cuh) and the error each functor may show against them,
// shared by the host tests (tests/host/test_functors_host.cu, test_numeric_host.cu) and the GPU tests
// (tests/gpu/test_functors_gpu.cu, test_launcher_gpu.cu, the property test and the others), which check the
// same bounds. All written independently of ew (no conversion or arithmetic of ew's or of cuda_fp16's).
//
// Core arithmetic (add, sub, mul, div, relu, clamp, scale_bias): for __half and __nv_bfloat16 the exact
// result rounded once with the table search of exact16.cuh; for float the double result rounded once by a
// C++ cast; for double the host's IEEE operation itself; for integers wrapping unsigned arithmetic. Each
// comes with the largest error, in ULP of T, that ew may show against it (arith_ulps, fma_ulps).
//
// Transcendental and other functors: references in long double (64-bit significand on x86-64) with the C
// library's long double functions, from the textbook definitions (PyTorch's, for softplus's threshold), and
// rounded once to T (the 16-bit types by exact16.cuh's table search, not by a conversion of ew's). They are
// about 2^11 times more precise than a double result needs.
//
// Their error model, per op and element type, where `want` is the reference rounded to T and `got` ew's
// result:
//   ulp_distance(got, want) <= ulps                                    (stated per op below)
//                             + (2 |x| + 2) * denorm_min_T / ulp_T(want)   (underflowed intermediates)
//                             + cond * kappa(x) * u * |want| / ulp_T(want) (rounded intermediate argument)
// - `ulps`: for float and double, from CUDA's documented maximum errors of the math function used (CUDA C++
//   Programming Guide, "Mathematical Functions": expf 2, logf 1, log1pf 1, tanhf 2, erfcf 4, sincosf 2;
//   exp 1, log 1, log1p 1, tanh 2, erfc 5, sincos 2), carried through the arithmetic around it (about one
//   ulp per rounding) and rounded up; the host's C library is at least as accurate. On the host, with
//   glibc, the measured worst cases are about half the bounds (sigmoid 2, silu 3, gelu 4 to 6 near
//   underflow, sigmoid_with_grad.grad 4, the others 1 or 2). For __half and __nv_bfloat16, which compute in
//   float and round once, 1 ulp: the float error is far below half an ulp of T, so the only difference from
//   the correctly rounded result is a rounding that falls the other way (ulps_16).
// - Underflow: where an intermediate such as exp(x) or erfc(z) is subnormal it has lost relative precision,
//   and x multiplies its last-place error (silu(x) = x e^x / (1 + e^x), gelu = 0.5 x erfc(z)): 2 |x| + 2
//   subnormal steps of absolute error, which counts only for results in the lowest binades.
// - `cond`: for ops that round an intermediate argument (gelu_tanh's polynomial u(x)), `cond` roundings of
//   the compute type (u = 2^-24 for float, 2^-53 for double) times the function's condition number
//   kappa(x) = |x f'(x) / f(x)|: what any implementation that evaluates the argument in the compute type
//   costs (gelu_tanh: about 170 ulp of float at x = -10, where kappa is about 230). 0 for every other op:
//   their math function gets x itself, or (gelu) a compensated argument.
// Infinities and NaN: want NaN requires NaN (any payload); want inf requires inf, or the largest finite
// value of the same sign as a 1-ulp overflow by rounding, like any other 1-ulp difference.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <ew/elementwise.cuh>

#include "exact16.cuh"
#include "test_utils.cuh"

namespace ew_test {

/// The value of x as a double: exact for every element type here (decoded from the bits for the 16-bit ones).
template <class T>
double to_double(T x) {
  if constexpr (exact::is_16_v<T>) {
    return static_cast<double>(exact::to_ld(x));
  } else {
    return static_cast<double>(x);
  }
}

/// d rounded to T once: to nearest even (exact16.cuh's table search for the 16-bit types, the C++ cast for
/// float and double); integers by static_cast (d must be in range).
template <class T>
T from_double(double d) {
  if constexpr (exact::is_16_v<T>) {
    return exact::round_to<T>(exact::decode(d));
  } else {
    return static_cast<T>(d);
  }
}

template <class T, class F>
T int_wrap(T a, T b, F f) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(
      f(static_cast<std::uint64_t>(static_cast<U>(a)), static_cast<std::uint64_t>(static_cast<U>(b))));
}

// add, sub, mul, div. The float reference rounds the double result again, which is the correctly rounded
// float result: a sum, product or quotient of two p-bit numbers rounded first to p' bits and then to p bits
// is the correctly rounded one when p' >= 2p + 2 (Figueroa, "When is double rounding innocuous?", SIGNUM
// 1995; 2p + 1 suffices for + and -, 2p for * and /), and 53 >= 2 * 24 + 2. (The float product is exact in
// double.)

/// a + b
template <class T>
T ref_add(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return int_wrap(a, b, [](std::uint64_t x, std::uint64_t y) { return x + y; });
  } else if constexpr (exact::is_16_v<T>) {
    return exact::add(a, b);
  } else if constexpr (std::is_same_v<T, float>) {
    return static_cast<float>(static_cast<double>(a) + static_cast<double>(b));
  } else {
    return a + b;
  }
}
/// a - b
template <class T>
T ref_sub(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return int_wrap(a, b, [](std::uint64_t x, std::uint64_t y) { return x - y; });
  } else if constexpr (exact::is_16_v<T>) {
    return exact::sub(a, b);
  } else if constexpr (std::is_same_v<T, float>) {
    return static_cast<float>(static_cast<double>(a) - static_cast<double>(b));
  } else {
    return a - b;
  }
}
/// a * b
template <class T>
T ref_mul(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return int_wrap(a, b, [](std::uint64_t x, std::uint64_t y) { return x * y; });
  } else if constexpr (exact::is_16_v<T>) {
    return exact::mul(a, b);
  } else if constexpr (std::is_same_v<T, float>) {
    return static_cast<float>(static_cast<double>(a) * static_cast<double>(b));
  } else {
    return a * b;
  }
}
/// a / b for floating T (integer division: ref_int_div below)
template <class T>
T ref_div(T a, T b) {
  static_assert(ew::is_floating_v<T>, "floating types only");
  if constexpr (exact::is_16_v<T>) {
    return exact::div(a, b);
  } else if constexpr (std::is_same_v<T, float>) {
    return static_cast<float>(static_cast<double>(a) / static_cast<double>(b));
  } else {
    return a / b;
  }
}
/// max(x, 0), NaN passes through
template <class T>
T ref_relu(T x) {
  const double d = to_double(x);
  return std::isnan(d) ? x : (d < 0 ? from_double<T>(0.0) : x);
}
/// min(max(x, lo), hi), NaN passes through
template <class T>
T ref_clamp(T x, T lo, T hi) {
  const double d = to_double(x);
  if (std::isnan(d)) return x;
  return d < to_double(lo) ? lo : (d > to_double(hi) ? hi : x);
}
/// alpha * x + beta, with alpha and beta as the op holds them (compute_t<T>: float for the 16-bit types).
template <class T>
T ref_scale_bias(T x, double alpha, double beta) {
  if constexpr (std::is_integral_v<T>) {
    return ref_add(ref_mul(static_cast<T>(alpha), x), static_cast<T>(beta));
  } else if constexpr (std::is_same_v<T, double>) {
    // double has no wider type here: the reference is the correctly rounded fma.
    return std::fma(alpha, x, beta);
  } else if constexpr (exact::is_16_v<T>) {
    return exact::scale_bias(static_cast<float>(alpha), x, static_cast<float>(beta));  // exact, one rounding
  } else {
    // The product of two floats is exact in double; the sum is rounded in double, then to float.
    const double a = static_cast<float>(alpha), b = static_cast<float>(beta);
    return static_cast<float>(a * static_cast<double>(x) + b);
  }
}

/// Allowed ULP error of ew against the references above.
/// - add/sub/mul/div: 0 for every type. Integers wrap exactly; f32 and f64 are single IEEE operations and
///   their references correctly rounded (see above). f16/bf16 compute in float and round again to 16 bits,
///   which is the correctly rounded result too, by the same theorem with p' = 24: 24 >= 2 * 11 + 2 for
///   __half, >= 2 * 8 + 2 for __nv_bfloat16. The exponent range does not spoil it: __half's whole range is
///   normal in float (its subnormal results are multiples of 2^-24 that float holds exactly for a sum, and
///   an exact product); __nv_bfloat16 has float's exponent range, a sum or difference in its subnormal range
///   is a multiple of 2^-133 held exactly by float, and a product that float rounds in its subnormal range
///   (below 2^-149 in its last bit) is below 2^-134 with at most 16 bits, so both give 0 (the tie at 2^-134
///   goes to even, 0); a quotient x / y in that range that is not a midpoint m = odd * 2^-134 is more than
///   2^-150 from it (x - m y is a nonzero multiple of 2^min(ex, ey - 134) for 8-bit significands scaled by
///   2^ex, 2^ey), more than float's rounding error there (at most 2^-150), so it stays on its side. Overflow
///   to infinity agrees, since float's threshold is above the 16-bit one. The
///   references are exact (exact16.cuh), so a result that rounds the other way fails.
/// - relu/clamp: exact (they return an input or a bound).
/// - scale_bias (and fma): 0 for f16/bf16 (ew rounds the exact value once; the reference is exact), f64 (both
///   are the correctly rounded fma) and integers; 1 for f32, whose reference rounds twice (in double, then to
///   float) where ew's fmaf rounds once.
template <class T>
constexpr std::uint64_t arith_ulps() {
  return 0;
}
template <class T>
constexpr std::uint64_t fma_ulps() {
  return std::is_same_v<T, float> ? 1 : 0;
}

// --- Functors beyond the core arithmetic ----------------------------------------------------------------

using ldouble = long double;

/// The 16-bit floating value with bit pattern `u`.
template <class T>
T from_bits16(std::uint16_t u) {
  return exact::from_bits<T>(u);
}

/// The exact value of x (decoded from the bits for the 16-bit types).
template <class T>
ldouble to_ld(T x) {
  if constexpr (exact::is_16_v<T>) {
    return exact::to_ld(x);
  } else {
    return static_cast<ldouble>(x);
  }
}

/// `v` rounded once to T: the C++ cast for float and double, the exact long double value rounded by
/// exact16.cuh's table search for the 16-bit types.
template <class T>
T round_to(ldouble v) {
  if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float>) {
    return static_cast<T>(v);
  } else {
    return exact::round_to<T>(exact::decode_ld(v));
  }
}

/// Significand bits (with the implicit one) and minimum normal exponent of T.
template <class T>
constexpr int precision_bits() {
  if constexpr (std::is_same_v<T, __half>)
    return 11;
  else if constexpr (std::is_same_v<T, __nv_bfloat16>)
    return 8;
  else
    return std::numeric_limits<T>::digits;
}
template <class T>
constexpr int min_exponent() {  // of the smallest normal, 2^min_exponent
  if constexpr (std::is_same_v<T, __half>)
    return -14;
  else if constexpr (std::is_same_v<T, __nv_bfloat16>)
    return -126;
  else
    return std::numeric_limits<T>::min_exponent - 1;
}

/// The spacing of T's values at |w| (w finite).
template <class T>
ldouble ulp_of(ldouble w) {
  const int e = w == 0 ? min_exponent<T>() : std::max(std::ilogb(w), min_exponent<T>());
  return std::ldexp(ldouble(1), e - (precision_bits<T>() - 1));
}

/// One rounding of the compute type: 2^-24 for float (and the 16-bit types), 2^-53 for double.
template <class T>
ldouble compute_unit() {
  return std::ldexp(ldouble(1), -std::numeric_limits<ew::compute_t<T>>::digits);
}

// --- References (long double, from the definitions)
// ----------------------------------------------------------

inline ldouble ref_sigmoid(ldouble x) { return 1 / (1 + std::exp(-x)); }
inline ldouble ref_tanh(ldouble x) { return std::tanh(x); }
/// x * sigmoid(x); the limit 0 at -inf.
inline ldouble ref_silu(ldouble x) { return x == -INFINITY ? ldouble(0) : x / (1 + std::exp(-x)); }
/// 0.5 x (1 + erf(x / sqrt 2)), with 1 + erf(t) = erfc(-t) (in long double, 1 + erf cancels below x = -6).
inline ldouble ref_gelu(ldouble x) {
  return x == -INFINITY ? ldouble(0) : ldouble(0.5) * x * std::erfc(-x / std::sqrt(ldouble(2)));
}
/// 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3); for u < -1/2, 1 + tanh(u) = 2 e^2u / (1 + e^2u)
/// keeps it from cancelling.
inline ldouble ref_gelu_tanh(ldouble x) {
  if (x == -INFINITY) return 0;
  const ldouble pi = std::acos(ldouble(-1));
  const ldouble u = std::sqrt(2 / pi) * (x + ldouble(0.044715) * x * x * x);
  if (!(u < ldouble(-0.5))) return ldouble(0.5) * x * (1 + std::tanh(u));
  const ldouble e = std::exp(2 * u);
  return x * e / (1 + e);
}
/// x * min(max(x + 3, 0), 6) / 6; the limit 0 at -inf.
inline ldouble ref_hardswish(ldouble x) {
  return x == -INFINITY ? ldouble(0) : x * std::fmin(std::fmax(x + 3, ldouble(0)), ldouble(6)) / 6;
}
/// min(max(x + 3, 0), 6) / 6 (fmax/fmin drop a NaN: keep it).
inline ldouble ref_hardsigmoid(ldouble x) {
  return std::isnan(x) ? x : std::fmin(std::fmax(x + 3, ldouble(0)), ldouble(6)) / 6;
}
/// PyTorch's Softplus(beta = 1, threshold = 20): x above the threshold, log(1 + e^x) below.
inline ldouble ref_softplus(ldouble x) { return x > 20 ? x : std::log1p(std::exp(x)); }
inline ldouble ref_exp(ldouble x) { return std::exp(x); }
inline ldouble ref_log(ldouble x) { return std::log(x); }
inline ldouble ref_sin(ldouble x) { return std::sin(x); }
inline ldouble ref_cos(ldouble x) { return std::cos(x); }
/// sigmoid'(x) = sigmoid(x) sigmoid(-x): two accurate factors, no 1 - s cancellation.
inline ldouble ref_sigmoid_grad(ldouble x) { return 1 / ((1 + std::exp(-x)) * (1 + std::exp(x))); }

inline ldouble ref_abs(ldouble x) { return std::fabs(x); }
inline ldouble ref_neg(ldouble x) { return -x; }
/// leaky_relu with its default slope, 0.01 rounded to the compute type (float for the 16-bit types).
inline ldouble ref_leaky_relu_f(ldouble x) { return x > 0 ? x : x * static_cast<ldouble>(0.01f); }
inline ldouble ref_leaky_relu_d(ldouble x) { return x > 0 ? x : x * static_cast<ldouble>(0.01); }

/// A unary reference and its error bound (see the file comment).
struct unary_spec {
  const char* name;
  ldouble (*ref)(ldouble);
  std::uint64_t ulps_f32, ulps_f64, ulps_16;  // ulps_16: __half and __nv_bfloat16
  int cond;                                   // roundings of an intermediate argument, times kappa(x)
};

// clang-format off
inline const unary_spec spec_sigmoid     {"sigmoid",      ref_sigmoid,      5, 5, 1, 0};
inline const unary_spec spec_tanh        {"tanh",         ref_tanh,         3, 3, 1, 0};
inline const unary_spec spec_silu        {"silu",         ref_silu,         6, 6, 1, 0};
inline const unary_spec spec_gelu        {"gelu",         ref_gelu,        10, 10, 1, 0};
inline const unary_spec spec_gelu_tanh   {"gelu_tanh",    ref_gelu_tanh,    4, 4, 1, 8};
inline const unary_spec spec_hardswish   {"hardswish",    ref_hardswish,    3, 3, 1, 0};
inline const unary_spec spec_hardsigmoid {"hardsigmoid",  ref_hardsigmoid,  2, 2, 1, 0};
inline const unary_spec spec_softplus    {"softplus",     ref_softplus,     5, 5, 1, 0};
inline const unary_spec spec_exp         {"exp",          ref_exp,          2, 2, 1, 0};
inline const unary_spec spec_log         {"log",          ref_log,          2, 2, 1, 0};
inline const unary_spec spec_sin         {"sincos.sin",   ref_sin,          3, 3, 1, 0};
inline const unary_spec spec_cos         {"sincos.cos",   ref_cos,          3, 3, 1, 0};
inline const unary_spec spec_sigmoid_val {"sigmoid_with_grad.value", ref_sigmoid,      5, 5, 1, 0};
inline const unary_spec spec_sigmoid_grad{"sigmoid_with_grad.grad",  ref_sigmoid_grad, 8, 8, 1, 0};
// Exact ops (the 16-bit ones too); leaky_relu rounds slope * x once: exact in float (the long double
// product of two floats is exact), 1 ulp in double (the long double product is rounded twice), 1 ulp for the
// 16-bit types (a float product rounded to T).
inline const unary_spec spec_abs         {"abs",          ref_abs,          0, 0, 0, 0};
inline const unary_spec spec_neg         {"neg",          ref_neg,          0, 0, 0, 0};
inline const unary_spec spec_leaky_relu_f{"leaky_relu",   ref_leaky_relu_f, 0, 0, 1, 0};
inline const unary_spec spec_leaky_relu_d{"leaky_relu",   ref_leaky_relu_d, 0, 1, 0, 0};
// clang-format on

// The catalog of ops_math.cuh (issue 23). Bounds for float and double from CUDA's documented maximum errors
// (sqrtf and 1/x 0 with nvcc's default -prec-sqrt / -prec-div, rsqrtf 2, exp2f 2, log2f 1, log1pf 1, expm1f
// 1, sinf 2, cosf 2, erff 2; double: rsqrt 1, exp2 1, log2 1, log1p 1, expm1 1, sin 2, cos 2, erf 2) plus
// one ulp per rounding around the function, rounded up; for the 16-bit types 1 (the float error is far
// below half an ulp of T), 0 where float's result is the correctly rounded one and rounding it again to 11
// or 8 bits keeps it so (sqrt: 24 >= 2 * 11 + 2; 1/x and x * x: 24 >= 2 * 11) and for the exact ops.
inline ldouble ref_sqrt(ldouble x) { return std::sqrt(x); }
inline ldouble ref_rsqrt(ldouble x) { return 1 / std::sqrt(x); }
inline ldouble ref_reciprocal(ldouble x) { return 1 / x; }
inline ldouble ref_square(ldouble x) { return x * x; }
inline ldouble ref_exp2(ldouble x) { return std::exp2(x); }
inline ldouble ref_log2(ldouble x) { return std::log2(x); }
inline ldouble ref_log1p(ldouble x) { return std::log1p(x); }
inline ldouble ref_expm1(ldouble x) { return std::expm1(x); }
inline ldouble ref_erf(ldouble x) { return std::erf(x); }
inline ldouble ref_floor(ldouble x) { return std::floor(x); }
inline ldouble ref_ceil(ldouble x) { return std::ceil(x); }
inline ldouble ref_round(ldouble x) { return std::nearbyint(x); }  // halves to even (default rounding mode)
inline ldouble ref_trunc(ldouble x) { return std::trunc(x); }
inline ldouble ref_sign(ldouble x) { return x > 0 ? ldouble(1) : (x < 0 ? ldouble(-1) : x); }
inline ldouble ref_identity(ldouble x) { return x; }
inline ldouble ref_elu(ldouble x) { return x > 0 ? x : std::expm1(x); }
/// SELU with PyTorch's constants, exact (ew's are rounded to the compute type: part of the bound).
inline ldouble ref_selu(ldouble x) {
  const ldouble alpha = 1.6732632423543772848170429916717L, scale = 1.0507009873554804934193349852946L;
  return scale * (x > 0 ? x : alpha * std::expm1(x));
}
/// x tanh(log(1 + e^x)); the limit 0 at -inf, x for large x.
inline ldouble ref_mish(ldouble x) {
  if (x == -INFINITY) return 0;
  if (x > 40) return x;
  return x * std::tanh(std::log1p(std::exp(x)));
}
inline ldouble ref_softsign(ldouble x) {
  return std::isinf(x) ? (x > 0 ? ldouble(1) : ldouble(-1)) : x / (1 + std::fabs(x));
}
/// log(sigmoid(x)) = -log(1 + e^-x), without overflow.
inline ldouble ref_logsigmoid(ldouble x) {
  return x < 0 ? x - std::log1p(std::exp(x)) : -std::log1p(std::exp(-x));
}

// clang-format off
// Double's correctly rounded ops are 1 ulp from the long double reference, which rounds twice (to 64 bits,
// then to 53).
inline const unary_spec spec_sqrt      {"sqrt",       ref_sqrt,       0, 1, 0, 0};
inline const unary_spec spec_rsqrt     {"rsqrt",      ref_rsqrt,      2, 2, 1, 0};
inline const unary_spec spec_reciprocal{"reciprocal", ref_reciprocal, 0, 1, 0, 0};
inline const unary_spec spec_square    {"square",     ref_square,     0, 1, 0, 0};
inline const unary_spec spec_exp2      {"exp2",       ref_exp2,       2, 2, 1, 0};
inline const unary_spec spec_log2      {"log2",       ref_log2,       2, 2, 1, 0};
inline const unary_spec spec_log1p     {"log1p",      ref_log1p,      2, 2, 1, 0};
inline const unary_spec spec_expm1     {"expm1",      ref_expm1,      2, 2, 1, 0};
inline const unary_spec spec_sin_op    {"sin",        ref_sin,        3, 3, 1, 0};
inline const unary_spec spec_cos_op    {"cos",        ref_cos,        3, 3, 1, 0};
inline const unary_spec spec_erf       {"erf",        ref_erf,        3, 3, 1, 0};
inline const unary_spec spec_floor     {"floor",      ref_floor,      0, 0, 0, 0};
inline const unary_spec spec_ceil      {"ceil",       ref_ceil,       0, 0, 0, 0};
inline const unary_spec spec_round     {"round",      ref_round,      0, 0, 0, 0};
inline const unary_spec spec_trunc     {"trunc",      ref_trunc,      0, 0, 0, 0};
inline const unary_spec spec_sign      {"sign",       ref_sign,       0, 0, 0, 0};
inline const unary_spec spec_identity  {"identity",   ref_identity,   0, 0, 0, 0};
inline const unary_spec spec_elu       {"elu",        ref_elu,        2, 2, 1, 0};
inline const unary_spec spec_selu      {"selu",       ref_selu,       4, 4, 1, 0};
inline const unary_spec spec_mish      {"mish",       ref_mish,       8, 8, 1, 0};
inline const unary_spec spec_softsign  {"softsign",   ref_softsign,   2, 2, 1, 0};
inline const unary_spec spec_logsigmoid{"logsigmoid", ref_logsigmoid, 4, 4, 1, 0};
// clang-format on

/// Checks `got` against the long double value `want_ld` of an op of several inputs, within `ulps` (plus the
/// allowance for results in T's lowest binades, as for the unary ops: `underflow_steps` subnormal steps);
/// returns an empty string when within, else what is wrong.
template <class T>
std::string check_value_against(const char* name, ldouble want_ld, T got, std::uint64_t ulps,
                                ldouble underflow_steps = 2) {
  const T want = round_to<T>(want_ld);
  const double g = to_double(got), w = to_double(want);
  if (std::isnan(w) || std::isnan(g)) {
    if (std::isnan(w) && std::isnan(g)) return {};
  } else {
    const std::uint64_t d = ulp_distance<T>(got, want);
    std::uint64_t allowed = ulps;
    if (std::isfinite(want_ld)) {
      const ldouble denorm_min = std::ldexp(ldouble(1), min_exponent<T>() - (precision_bits<T>() - 1));
      allowed += static_cast<std::uint64_t>(
          std::fmin(underflow_steps * denorm_min / ulp_of<T>(std::fabs(want_ld)), ldouble(1e9)));
    }
    if (d <= allowed) return {};
  }
  std::ostringstream os;
  os.precision(17);
  os << name << "<" << type_name<T>() << ">: got " << g << " want " << w;
  return os.str();
}

/// `got` against `want_ld` for a sum of terms whose magnitudes add to `terms`, each of `roundings` steps in
/// the compute type adding at most one unit of it relative to `terms`: 1 ulp of T (the last rounding, and
/// a rounding that falls the other way) plus `roundings * u * terms`.
template <class T>
bool within_forward_error(ldouble want_ld, T got, ldouble terms, int roundings) {
  const T want = round_to<T>(want_ld);
  if (exact::is_nan(want) || exact::is_nan(got)) return exact::is_nan(want) && exact::is_nan(got);
  // An infinity on either side (an overflow by rounding): the largest finite value is 1 ulp from it.
  if (!std::isfinite(to_double(want)) || !std::isfinite(to_double(got)))
    return ulp_distance<T>(got, want) <= 1;
  const ldouble err = std::fabs(static_cast<ldouble>(to_ld(got)) - want_ld);
  return err <= ulp_of<T>(std::fabs(want_ld)) + roundings * compute_unit<T>() * terms * 2;
}

/// leaky_relu's spec for T: its default slope is 0.01 in T's compute type.
template <class T>
const unary_spec& spec_leaky_relu() {
  return std::is_same_v<T, double> ? spec_leaky_relu_d : spec_leaky_relu_f;
}

template <class T>
std::uint64_t spec_ulps(const unary_spec& s) {
  if constexpr (std::is_same_v<T, float>)
    return s.ulps_f32;
  else if constexpr (std::is_same_v<T, double>)
    return s.ulps_f64;
  else
    return s.ulps_16;
}

/// kappa(x) = |x f'(x) / f(x)|, by a central difference on the long double reference.
inline ldouble condition_number(ldouble (*f)(ldouble), ldouble x) {
  if (!std::isfinite(x) || x == 0) return 1;
  const ldouble h = std::fabs(x) * ldouble(1e-6);
  const ldouble fx = f(x);
  if (fx == 0 || !std::isfinite(fx)) return 1;
  return std::fabs(x * (f(x + h) - f(x - h)) / (2 * h) / fx);
}

/// The ULP distance ew may show at input x against reference value `want_ld` (see the file comment).
template <class T>
std::uint64_t allowed_ulps(const unary_spec& s, ldouble x, ldouble want_ld) {
  std::uint64_t allowed = spec_ulps<T>(s);
  if (!std::isfinite(want_ld)) return allowed;
  const ldouble w = std::fabs(want_ld);
  const ldouble denorm_min = std::ldexp(ldouble(1), min_exponent<T>() - (precision_bits<T>() - 1));
  allowed +=
      static_cast<std::uint64_t>(std::fmin((2 * std::fabs(x) + 2) * denorm_min / ulp_of<T>(w), ldouble(1e9)));
  if (s.cond > 0 && w > 0) {
    const ldouble extra = s.cond * condition_number(s.ref, x) * compute_unit<T>() * w / ulp_of<T>(w);
    allowed += static_cast<std::uint64_t>(std::ceil(std::fmin(extra, ldouble(1e9))));
  }
  return allowed;
}

/// Checks one result; returns an empty string when it is within the bound, else what is wrong.
template <class T>
std::string check_unary_value(const unary_spec& s, T x, T got) {
  const ldouble xl = to_ld(x);
  const ldouble want_ld = s.ref(xl);
  const T want = round_to<T>(want_ld);
  const double g = to_double(got), w = to_double(want);
  if (std::isnan(w) || std::isnan(g)) {
    if (std::isnan(w) && std::isnan(g)) return {};
  } else {
    const std::uint64_t d = ulp_distance<T>(got, want);
    if (d <= spec_ulps<T>(s)) return {};  // the common case, without the allowances' extra reference calls
    const std::uint64_t allowed = allowed_ulps<T>(s, xl, want_ld);
    if (d <= allowed) return {};
    std::ostringstream os;
    os.precision(17);
    os << s.name << "<" << type_name<T>() << ">(" << static_cast<double>(xl) << "): got " << g << " want "
       << w << " (" << d << " ulp, allowed " << allowed << ")";
    return os.str();
  }
  std::ostringstream os;
  os.precision(17);
  os << s.name << "<" << type_name<T>() << ">(" << static_cast<double>(xl) << "): got " << g << " want " << w;
  return os.str();
}

/// IEEE 754-2019 maximum / minimum, written from the definition: NaN wins, then the larger (smaller) value,
/// and +0 is larger than -0.
template <class T>
T ref_maximum(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return a < b ? b : a;
  } else {
    const double da = to_double(a), db = to_double(b);
    if (std::isnan(da)) return a;
    if (std::isnan(db)) return b;
    if (da == db) return std::signbit(da) ? b : a;
    return da > db ? a : b;
  }
}
template <class T>
T ref_minimum(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return b < a ? b : a;
  } else {
    const double da = to_double(a), db = to_double(b);
    if (std::isnan(da)) return a;
    if (std::isnan(db)) return b;
    if (da == db) return std::signbit(da) ? a : b;
    return da < db ? a : b;
  }
}

/// Equal bits, or both NaN (a NaN's payload may change through float).
template <class T>
bool same_value(T got, T want) {
  return (exact::is_nan(got) && exact::is_nan(want)) || same_bits(got, want);
}

/// Integer a / b from the definition in wider arithmetic: truncated, 0 for b == 0, wrapped to T.
template <class T>
T ref_int_div(T a, T b) {
  if (b == 0) return 0;
  if constexpr (std::is_signed_v<T> && sizeof(T) < 8) {
    return static_cast<T>(static_cast<std::int64_t>(a) / static_cast<std::int64_t>(b));  // wraps MIN / -1
  } else if constexpr (std::is_signed_v<T>) {
    if (a == std::numeric_limits<T>::min() && b == -1) return a;
    return a / b;
  } else {
    return static_cast<T>(a / b);
  }
}

/// axpby's bound. __half and __nv_bfloat16: none, ew rounds the exact alpha x + beta y once (alpha and beta
/// as the op holds them, in float): bit for bit against exact16.cuh (any NaN for NaN). float and double:
/// fma(alpha, x, beta * y) rounds beta * y once and the fma once, each within half a unit u of the compute
/// type, so |got - exact| <= u (|beta y| + |exact|) before the final rounding to T, which adds at most 1 ulp
/// of T. Checked as: 1 ulp, or an absolute u (|alpha x| + 2 |beta y|), which covers cancellation between the
/// two terms. Integers: wrapping, from the definition in unsigned 64-bit arithmetic.
template <class T>
bool axpby_within_bound(double alpha, double beta, T x, T y, T got) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    const std::uint64_t want = static_cast<std::uint64_t>(static_cast<std::int64_t>(alpha)) *
                                   static_cast<std::uint64_t>(static_cast<std::int64_t>(x)) +
                               static_cast<std::uint64_t>(static_cast<std::int64_t>(beta)) *
                                   static_cast<std::uint64_t>(static_cast<std::int64_t>(y));
    return got == static_cast<T>(static_cast<U>(want));
  } else if constexpr (exact::is_16_v<T>) {
    return same_value(got, exact::axpby(static_cast<float>(alpha), x, static_cast<float>(beta), y));
  } else {
    const ldouble ax = static_cast<ldouble>(alpha) * to_ld(x), by = static_cast<ldouble>(beta) * to_ld(y);
    const ldouble sum = ax + by;
    if (std::isnan(sum)) return exact::is_nan(got);
    const T want = round_to<T>(sum);
    if (ulp_distance<T>(got, want) <= 1) return true;
    const ldouble abs_bound = compute_unit<T>() * (std::fabs(ax) + 2 * std::fabs(by));
    return std::isfinite(sum) && std::fabs(to_ld(got) - sum) <= abs_bound;
  }
}

/// Inputs for the functor tests: every value of a 16-bit type (NaNs, infinities and subnormals included);
/// for float and double, `n` values (the extremes first): a seeded mix of log-uniform magnitudes 2^-30..2^14
/// of either sign, uniform values in [-25, 25], and the extremes (+-0, +-inf, NaN, max, lowest, smallest
/// normal, +-denorm_min, huge and tiny magnitudes, and the thresholds the ops switch at).
template <class T>
std::vector<T> functor_inputs(std::size_t n, std::uint64_t seed) {
  std::vector<T> v;
  if constexpr (sizeof(T) == 2) {
    (void)n;
    (void)seed;
    for (std::uint32_t b = 0; b < 65536; ++b) {
      v.push_back(from_bits16<T>(static_cast<std::uint16_t>(b)));
    }
  } else {
    const double inf = std::numeric_limits<double>::infinity();
    for (double d :
         {0.0,    -0.0,    inf,    -inf,  std::nan(""), 1.0,   -1.0,  3.0,    -3.0,   2.999, -2.999,
          20.0,   20.0001, 19.999, 88.72, 88.73,        -87.5, -88.8, -103.9, -104.0, 709.7, -708.5,
          -745.0, 1e10,    -1e10,  1e20,  -1e20,        1e30,  -1e30, 1e-30,  -1e-30, 1e-40, -1e-40}) {
      v.push_back(static_cast<T>(d));
    }
    for (T x : {std::numeric_limits<T>::max(), std::numeric_limits<T>::lowest(),
                std::numeric_limits<T>::min(), -std::numeric_limits<T>::min(),
                std::numeric_limits<T>::denorm_min(), -std::numeric_limits<T>::denorm_min()}) {
      v.push_back(x);
    }
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> expo(-30, 14), lin(-25, 25);
    if (v.size() > n) v.resize(n);  // n below the number of extremes: the first n
    while (v.size() < n) {
      const double m = std::exp2(expo(rng));
      v.push_back(static_cast<T>((v.size() & 1) ? m : -m));
      if (v.size() < n) v.push_back(static_cast<T>(lin(rng)));
    }
  }
  return v;
}

}  // namespace ew_test
