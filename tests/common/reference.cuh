// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// CPU references for the core ops, written independently of ew: for __half and __nv_bfloat16 the exact result
// rounded once with the table search of exact16.cuh (no conversion of ew's or of cuda_fp16's); for float the
// double result rounded once by a C++ cast; for double the host's IEEE operation itself; for integers wrapping
// unsigned arithmetic. Each comes with the largest error, in ULP of T, that ew may show against it.

#include <cmath>
#include <cstdint>
#include <type_traits>

#include <ew/elementwise.cuh>

#include "exact16.cuh"

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
  return static_cast<T>(f(static_cast<std::uint64_t>(static_cast<U>(a)), static_cast<std::uint64_t>(static_cast<U>(b))));
}

// add, sub, mul, div. The float reference rounds the double result again, which is the correctly rounded
// float result: a sum, product or quotient of two p-bit numbers rounded first to p' bits and then to p bits is
// the correctly rounded one when p' >= 2p + 2 (Figueroa, "When is double rounding innocuous?", SIGNUM 1995;
// 2p + 1 suffices for + and -, 2p for * and /), and 53 >= 2 * 24 + 2. (The float product is exact in double.)

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
/// a / b for floating T (integer division: ref_int_div in functor_reference.cuh)
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
    return std::fma(alpha, x, beta);  // double has no wider type here: the reference is the correctly rounded fma
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

}  // namespace ew_test
