// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// Exact reference arithmetic for the tests, written independently of ew and of cuda_fp16 / cuda_bf16's
// conversions (those headers are included for the two types only; no function of theirs is called):
// - the exact value of any __half, __nv_bfloat16, float, double or long double, decoded from its bit fields
//   with integer arithmetic, as (-1)^neg * mag * 2^exp with an unsigned __int128 `mag`;
// - exact products and sums of such values;
// - rounding an exact value to the nearest __half / __nv_bfloat16, ties to even, overflowing to infinity for
//   magnitudes at or above max + half an ulp (IEEE 754): by binary search in the sorted table of every finite
//   non-negative encoding, comparing exactly. No rounding step of the kind under test is involved: the table
//   holds the values, the search compares, the tie goes to the even encoding.
// From these, the references of the tests: correctly rounded 16-bit fma, scale_bias, axpby, add, sub, mul and
// div; integer -> 16-bit; floating -> integer (NaN 0, truncation toward zero, saturation). Test code only.
//
// Exact sums: a sum of two terms whose significands have at most 62 bits (products of 16-bit values, of a
// float and a 16-bit value, or a float, a double's 53 bits) is formed exactly when the two terms' bits span
// at most 125 bit positions. Otherwise the smaller term lies entirely more than 62 positions below the larger
// term's top bit; it is then replaced by a "sticky" term of its sign, half a unit of a grid 2^k that the
// larger term is a multiple of (k = top - 63). Both sums lie strictly between the same two multiples of 2^k,
// and every value and midpoint of a 16-bit format near them is a multiple of 2^k (their spacing there is at
// least 2^(top - 13)), so both round to the same 16-bit value. Sums rounded to float or double are not
// supported.

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace ew_test {
namespace exact {

using u128 = unsigned __int128;

static_assert(std::numeric_limits<long double>::digits == 64,
              "the references need x86-64's long double (64-bit significand): every int64 is exact in it");

// --- Formats -----------------------------------------------------------------------------------------------

/// IEEE binary formats: significand bits (with the implicit one) and exponent bits.
template <class T>
struct format;
template <>
struct format<__half> {
  using bits_t = std::uint16_t;
  static constexpr int precision = 11, exponent_bits = 5;
};
template <>
struct format<__nv_bfloat16> {
  using bits_t = std::uint16_t;
  static constexpr int precision = 8, exponent_bits = 8;
};
template <>
struct format<float> {
  using bits_t = std::uint32_t;
  static constexpr int precision = 24, exponent_bits = 8;
};
template <>
struct format<double> {
  using bits_t = std::uint64_t;
  static constexpr int precision = 53, exponent_bits = 11;
};

template <class T, class = void>
struct has_format : std::false_type {};
template <class T>
struct has_format<T, std::void_t<typename format<T>::bits_t>> : std::true_type {};
/// True for the four IEEE element types.
template <class T>
inline constexpr bool is_ieee_v = has_format<T>::value;
/// True for __half and __nv_bfloat16.
template <class T>
inline constexpr bool is_16_v = std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;

template <class T>
constexpr int fraction_bits() {
  return format<T>::precision - 1;
}
template <class T>
constexpr int bias() {
  return (1 << (format<T>::exponent_bits - 1)) - 1;
}
/// Exponent of the largest binade (2^emax <= max < 2^(emax + 1)) and of the smallest normal.
template <class T>
constexpr int emax() {
  return bias<T>();
}
template <class T>
constexpr int emin() {
  return 1 - bias<T>();
}

template <class T>
typename format<T>::bits_t bits_of(T x) {
  typename format<T>::bits_t u;
  static_assert(sizeof(u) == sizeof(T), "");
  std::memcpy(&u, &x, sizeof(T));
  return u;
}
template <class T>
T from_bits(typename format<T>::bits_t u) {
  T x;
  std::memcpy(static_cast<void*>(&x), &u, sizeof(T));  // T is trivially copyable
  return x;
}

template <class T>
typename format<T>::bits_t exponent_field(typename format<T>::bits_t u) {
  using B = typename format<T>::bits_t;
  return static_cast<B>((u >> fraction_bits<T>()) & ((B(1) << format<T>::exponent_bits) - 1));
}
template <class T>
typename format<T>::bits_t fraction_field(typename format<T>::bits_t u) {
  using B = typename format<T>::bits_t;
  return static_cast<B>(u & ((B(1) << fraction_bits<T>()) - 1));
}
template <class T>
constexpr typename format<T>::bits_t sign_mask() {
  using B = typename format<T>::bits_t;
  return static_cast<B>(B(1) << (8 * sizeof(B) - 1));
}
template <class T>
constexpr typename format<T>::bits_t max_exponent_field() {
  using B = typename format<T>::bits_t;
  return static_cast<B>((B(1) << format<T>::exponent_bits) - 1);
}

/// NaN, from the bits (false for non-IEEE types).
template <class T>
bool is_nan(T x) {
  if constexpr (is_ieee_v<T>) {
    const auto u = bits_of(x);
    return exponent_field<T>(u) == max_exponent_field<T>() && fraction_field<T>(u) != 0;
  } else {
    (void)x;
    return false;
  }
}
template <class T>
bool is_inf(T x) {
  if constexpr (is_ieee_v<T>) {
    const auto u = bits_of(x);
    return exponent_field<T>(u) == max_exponent_field<T>() && fraction_field<T>(u) == 0;
  } else {
    (void)x;
    return false;
  }
}
template <class T>
bool sign_bit(T x) {
  return (bits_of(x) & sign_mask<T>()) != 0;
}

// --- Exact values ------------------------------------------------------------------------------------------

/// (-1)^neg * mag * 2^exp, or an infinity of sign `neg`, or NaN. A zero has mag 0 and keeps its sign.
struct value {
  enum kind_t { finite, infinite, nan } kind = finite;
  bool neg = false;
  u128 mag = 0;
  int exp = 0;
};

inline int bit_length(u128 m) {
  const std::uint64_t hi = static_cast<std::uint64_t>(m >> 64), lo = static_cast<std::uint64_t>(m);
  if (hi != 0) return 128 - __builtin_clzll(hi);
  if (lo != 0) return 64 - __builtin_clzll(lo);
  return 0;
}

/// Strips trailing zero bits of the significand into the exponent (the value is unchanged).
inline value normalized(value v) {
  if (v.kind != value::finite) return v;
  if (v.mag == 0) {
    v.exp = 0;
    return v;
  }
  while ((v.mag & 1) == 0) {
    v.mag >>= 1;
    ++v.exp;
  }
  return v;
}

inline value nan_value() {
  value v;
  v.kind = value::nan;
  return v;
}
inline value infinity(bool neg) {
  value v;
  v.kind = value::infinite;
  v.neg = neg;
  return v;
}
inline value make(bool neg, u128 mag, int exp) {
  value v;
  v.neg = neg;
  v.mag = mag;
  v.exp = exp;
  return normalized(v);
}

/// The exact value of an IEEE element, from its fields.
template <class T>
value decode(T x) {
  const auto u = bits_of(x);
  const bool neg = (u & sign_mask<T>()) != 0;
  const auto e = exponent_field<T>(u);
  const auto f = fraction_field<T>(u);
  if (e == max_exponent_field<T>()) return f != 0 ? nan_value() : infinity(neg);
  if (e == 0) return make(neg, f, emin<T>() - fraction_bits<T>());  // subnormal (or zero)
  return make(neg, u128(f) | (u128(1) << fraction_bits<T>()),
              static_cast<int>(e) - bias<T>() - fraction_bits<T>());
}

/// The exact value of a long double (64-bit significand: frexp and ldexp by powers of two are exact).
inline value decode_ld(long double x) {
  if (std::isnan(x)) return nan_value();
  if (std::isinf(x)) return infinity(x < 0);
  if (x == 0) return make(std::signbit(x), 0, 0);
  int e = 0;
  const long double m = std::frexp(std::fabs(x), &e);                       // in [0.5, 1)
  const std::uint64_t mag = static_cast<std::uint64_t>(std::ldexp(m, 64));  // exact: 64 significant bits
  return make(x < 0, mag, e - 64);
}

/// The exact value of an integer.
template <class I>
value from_integer(I x) {
  static_assert(std::is_integral_v<I>, "");
  if constexpr (std::is_signed_v<I>) {
    const bool neg = x < 0;
    // |x| in unsigned arithmetic, so that the minimum does not overflow.
    const std::uint64_t m = neg ? std::uint64_t(0) - static_cast<std::uint64_t>(static_cast<std::int64_t>(x))
                                : static_cast<std::uint64_t>(x);
    return make(neg, m, 0);
  } else {
    return make(false, static_cast<std::uint64_t>(x), 0);
  }
}

/// Long double of a value whose significand has at most 64 bits (exact unless it under/overflows long
/// double).
inline long double to_ld(const value& v) {
  if (v.kind == value::nan) return std::numeric_limits<long double>::quiet_NaN();
  if (v.kind == value::infinite) return v.neg ? -HUGE_VALL : HUGE_VALL;
  if (bit_length(v.mag) > 64) std::abort();  // not exact: a test-code bug
  const long double m = std::ldexp(static_cast<long double>(static_cast<std::uint64_t>(v.mag)), v.exp);
  return v.neg ? -m : m;
}
/// The exact value of an IEEE element as a long double (exact for all four types).
template <class T>
long double to_ld(T x) {
  return to_ld(decode(x));
}

/// Compares the magnitudes m1 * 2^e1 and m2 * 2^e2 exactly: -1, 0 or 1.
inline int compare_magnitudes(u128 m1, int e1, u128 m2, int e2) {
  if (m1 == 0 || m2 == 0) return m1 == m2 ? 0 : (m1 == 0 ? -1 : 1);
  const int t1 = bit_length(m1) + e1, t2 = bit_length(m2) + e2;  // m * 2^e < 2^t, >= 2^(t - 1)
  if (t1 != t2) return t1 < t2 ? -1 : 1;
  // Same top bit: the one with the larger exponent has the shorter significand; shifting it left by the
  // difference makes it as long as the other, within 128 bits.
  if (e1 > e2) m1 <<= (e1 - e2);
  if (e2 > e1) m2 <<= (e2 - e1);
  return m1 < m2 ? -1 : (m1 > m2 ? 1 : 0);
}

inline value negate(value v) {
  if (v.kind != value::nan) v.neg = !v.neg;
  return v;
}

/// a * b, exact (IEEE specials: NaN if either is NaN or for inf * 0).
inline value mul(const value& a, const value& b) {
  if (a.kind == value::nan || b.kind == value::nan) return nan_value();
  const bool neg = a.neg != b.neg;
  if (a.kind == value::infinite || b.kind == value::infinite) {
    const bool zero = (a.kind == value::finite && a.mag == 0) || (b.kind == value::finite && b.mag == 0);
    return zero ? nan_value() : infinity(neg);
  }
  if (bit_length(a.mag) + bit_length(b.mag) > 126) std::abort();  // test-code bug: not exact
  return make(neg, a.mag * b.mag, a.exp + b.exp);
}

/// a + b: exact, or (see the file comment) with a sticky stand-in for a term far below the other that rounds
/// to the same 16-bit value. IEEE specials; an exact zero sum is +0 unless both terms are -0 (round to
/// nearest).
inline value add(value a, value b) {
  if (a.kind == value::nan || b.kind == value::nan) return nan_value();
  if (a.kind == value::infinite && b.kind == value::infinite) return a.neg == b.neg ? a : nan_value();
  if (a.kind == value::infinite) return a;
  if (b.kind == value::infinite) return b;
  if (a.mag == 0 && b.mag == 0) return make(a.neg && b.neg, 0, 0);
  if (a.mag == 0) return b;
  if (b.mag == 0) return a;
  a = normalized(a);
  b = normalized(b);
  constexpr int max_width = 62;
  if (bit_length(a.mag) > max_width || bit_length(b.mag) > max_width) std::abort();  // test-code bug
  // A: the term with the higher top bit.
  if (bit_length(b.mag) + b.exp > bit_length(a.mag) + a.exp) std::swap(a, b);
  const int top = bit_length(a.mag) + a.exp;
  if (top - std::min(a.exp, b.exp) > 125) {
    // b lies entirely below 2^(top - 63) (its top is below top - 63, as a.exp >= top - 62): stand in half a
    // unit of that grid for it.
    b = make(b.neg, 1, top - 63 - 1);
  }
  const int e = std::min(a.exp, b.exp);
  const u128 ma = a.mag << (a.exp - e), mb = b.mag << (b.exp - e);
  if (a.neg == b.neg) return make(a.neg, ma + mb, e);
  if (ma == mb) return make(false, 0, 0);
  return ma > mb ? make(a.neg, ma - mb, e) : make(b.neg, mb - ma, e);
}

// --- Rounding to a 16-bit format ---------------------------------------------------------------------------

/// Every finite non-negative encoding of T, in increasing order (index == bit pattern), then 2^(emax + 1) at
/// the index of +inf: the value an overflow rounds to.
template <class T>
struct table {
  struct entry {
    std::uint32_t mag;
    int exp;
  };
  std::vector<entry> values;
  std::uint16_t inf_bits;

  table() {
    static_assert(is_16_v<T>, "16-bit formats only");
    inf_bits = static_cast<std::uint16_t>(max_exponent_field<T>() << fraction_bits<T>());
    for (std::uint32_t b = 0; b < inf_bits; ++b) {
      const value v = decode(from_bits<T>(static_cast<std::uint16_t>(b)));
      values.push_back({static_cast<std::uint32_t>(v.mag), v.exp});
    }
    values[0].exp = values[1].exp;  // zero: any exponent; the smallest subnormal's keeps the shifts small
    values.push_back({1u, emax<T>() + 1});
  }
  static const table& get() {
    static const table t;
    return t;
  }
};

/// The bits of `v` rounded to the nearest T, ties to the even encoding; magnitudes at or above max + half an
/// ulp give infinity. Any NaN gives the quiet NaN with the top fraction bit set.
template <class T>
std::uint16_t round_bits(const value& v) {
  const table<T>& t = table<T>::get();
  const std::uint16_t sign = v.neg ? 0x8000u : 0u;
  if (v.kind == value::nan) return static_cast<std::uint16_t>(t.inf_bits | (1u << (fraction_bits<T>() - 1)));
  if (v.kind == value::infinite || v.mag == 0) {
    return static_cast<std::uint16_t>(sign | (v.kind == value::infinite ? t.inf_bits : 0u));
  }
  auto cmp = [&](std::size_t i) {  // value of entry i against |v|
    return compare_magnitudes(t.values[i].mag, t.values[i].exp, v.mag, v.exp);
  };
  std::size_t lo = 0, hi = t.inf_bits;
  if (cmp(hi) <= 0) return static_cast<std::uint16_t>(sign | t.inf_bits);  // |v| >= 2^(emax + 1)
  while (hi - lo > 1) {                                                    // entry[lo] <= |v| < entry[hi]
    const std::size_t mid = lo + (hi - lo) / 2;
    (cmp(mid) <= 0 ? lo : hi) = mid;
  }
  if (cmp(lo) == 0) return static_cast<std::uint16_t>(sign | lo);
  // 2|v| against entry[lo] + entry[hi], exactly.
  const auto& l = t.values[lo];
  const auto& h = t.values[hi];
  const int e = std::min(l.exp, h.exp);
  const u128 sum = (u128(l.mag) << (l.exp - e)) + (u128(h.mag) << (h.exp - e));
  const int c = compare_magnitudes(v.mag, v.exp + 1, sum, e);
  const std::size_t r = c < 0 ? lo : (c > 0 ? hi : (lo % 2 == 0 ? lo : hi));
  return static_cast<std::uint16_t>(sign | r);
}

/// `v` rounded to the nearest T (see round_bits).
template <class T>
T round_to(const value& v) {
  return from_bits<T>(round_bits<T>(v));
}

// --- References --------------------------------------------------------------------------------------------

/// Integer -> T, correctly rounded from the exact integer.
template <class T, class I>
T from_int(I x) {
  return round_to<T>(from_integer(x));
}

/// a * b + c, exact, rounded once to T.
template <class T>
T fma(T a, T b, T c) {
  return round_to<T>(add(mul(decode(a), decode(b)), decode(c)));
}
/// alpha * x + beta with float parameters, exact, rounded once to T.
template <class T>
T scale_bias(float alpha, T x, float beta) {
  return round_to<T>(add(mul(decode(alpha), decode(x)), decode(beta)));
}
/// alpha * x + beta * y with float parameters, exact, rounded once to T.
template <class T>
T axpby(float alpha, T x, float beta, T y) {
  return round_to<T>(add(mul(decode(alpha), decode(x)), mul(decode(beta), decode(y))));
}
template <class T>
T add(T a, T b) {
  return round_to<T>(add(decode(a), decode(b)));
}
template <class T>
T sub(T a, T b) {
  return round_to<T>(add(decode(a), negate(decode(b))));
}
template <class T>
T mul(T a, T b) {
  return round_to<T>(mul(decode(a), decode(b)));
}
/// a / b: the long double quotient of the exact operands (IEEE, 64-bit significand, specials included)
/// rounded to T. That second rounding is innocuous: a quotient of p-bit numbers rounded first to p' >= 2p + 2
/// bits and then to p bits is the correctly rounded one (Figueroa, "When is double rounding innocuous?",
/// 1995), and 64 >= 24; results in T's subnormal range are a coarser grid, for which the margin is larger
/// still.
template <class T>
T div(T a, T b) {
  return round_to<T>(decode_ld(to_ld(a) / to_ld(b)));
}

/// Floating (any of the four IEEE types) -> integer To: NaN gives 0; otherwise truncation toward zero,
/// saturated to To's range. To = bool: x != 0 (NaN is true), as in C++.
template <class To, class From>
To to_integer(From x) {
  const long double v = to_ld(x);  // exact
  if constexpr (std::is_same_v<To, bool>) {
    return !(v == 0);
  } else {
    if (std::isnan(v)) return To(0);
    const long double t = std::trunc(v);
    // min and max of every integer type up to 64 bits are exact in long double.
    if (t <= static_cast<long double>(std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
    if (t >= static_cast<long double>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
    return static_cast<To>(t);
  }
}

}  // namespace exact
}  // namespace ew_test
