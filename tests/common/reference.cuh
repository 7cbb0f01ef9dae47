// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// CPU references for the core ops, written independently of ew's functors: in double precision for
// floating types (rounded once to T), in wrapping unsigned arithmetic for integers. Each comes with the
// largest error, in ULP of T, that ew may show against it.

#include <cmath>
#include <cstdint>
#include <type_traits>

#include <ew/elementwise.cuh>

namespace ew_test {

template <class T>
double to_double(T x) {
  return ew::convert<double>(x);
}

template <class T, class F>
T int_wrap(T a, T b, F f) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(f(static_cast<std::uint64_t>(static_cast<U>(a)), static_cast<std::uint64_t>(static_cast<U>(b))));
}

/// a + b
template <class T>
T ref_add(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return int_wrap(a, b, [](std::uint64_t x, std::uint64_t y) { return x + y; });
  } else {
    return ew::convert<T>(to_double(a) + to_double(b));
  }
}
/// a - b
template <class T>
T ref_sub(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return int_wrap(a, b, [](std::uint64_t x, std::uint64_t y) { return x - y; });
  } else {
    return ew::convert<T>(to_double(a) - to_double(b));
  }
}
/// a * b
template <class T>
T ref_mul(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return int_wrap(a, b, [](std::uint64_t x, std::uint64_t y) { return x * y; });
  } else {
    return ew::convert<T>(to_double(a) * to_double(b));
  }
}
/// max(x, 0), NaN passes through
template <class T>
T ref_relu(T x) {
  const double d = to_double(x);
  return std::isnan(d) ? x : (d < 0 ? ew::convert<T>(0.0) : x);
}
/// min(max(x, lo), hi), NaN passes through
template <class T>
T ref_clamp(T x, T lo, T hi) {
  const double d = to_double(x);
  if (std::isnan(d)) return x;
  return d < to_double(lo) ? lo : (d > to_double(hi) ? hi : x);
}
/// alpha * x + beta
template <class T>
T ref_scale_bias(T x, double alpha, double beta) {
  if constexpr (std::is_integral_v<T>) {
    return ref_add(ref_mul(static_cast<T>(alpha), x), static_cast<T>(beta));
  } else if constexpr (std::is_same_v<T, double>) {
    return std::fma(alpha, x, beta);  // double has no wider type here: the reference is the correctly rounded fma
  } else {
    return ew::convert<T>(alpha * to_double(x) + beta);
  }
}

/// Allowed ULP error of ew against the references above.
/// - add/sub/mul: exact for f32/f64/integers (the double result rounded once is the correctly rounded f32
///   result; f64 is the same operation); 1 ULP for f16/bf16, which compute in f32 and then round again
///   (double rounding).
/// - relu/clamp: exact (they return an input or a bound).
/// - scale_bias: 1 ULP for f32/f16/bf16 (reference rounds alpha*x+beta in double, then to T); exact for f64
///   (both are fma) and integers.
template <class T>
constexpr std::uint64_t arith_ulps() {
  return ew::is_half_precision_v<T> ? 1 : 0;
}
template <class T>
constexpr std::uint64_t fma_ulps() {
  return std::is_integral_v<T> || std::is_same_v<T, double> ? 0 : 1;
}

}  // namespace ew_test
