// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// An FP8 reference written from the formats' definitions (OCP 8-bit floating point, v1.0: E4M3 with bias 7,
// no infinity, NaN at S.1111.111; E5M2 with bias 15, IEEE-like infinities and NaNs), independent of
// cuda_fp8.h and of the hardware: decoding by the bit fields, encoding by searching the 256 decoded values
// for the nearest (ties to the even code), then applying the overflow rule. Test code only.

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <ew/functor.cuh>

namespace ew_test {
namespace fp8 {

enum class format { e4m3, e5m2 };

template <class T>
constexpr format format_of() {
  return std::is_same_v<T, __nv_fp8_e4m3> ? format::e4m3 : format::e5m2;
}

/// The value of code `b` (NaN for the NaN codes).
inline double decode(format f, std::uint8_t b) {
  const bool neg = (b & 0x80) != 0;
  const int mbits = f == format::e4m3 ? 3 : 2;
  const int bias = f == format::e4m3 ? 7 : 15;
  const int e = (b & 0x7f) >> mbits;
  const int m = b & ((1 << mbits) - 1);
  double v;
  if (f == format::e4m3 && e == 15 && m == 7) {
    v = std::numeric_limits<double>::quiet_NaN();
  } else if (f == format::e5m2 && e == 31) {
    v = m == 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  } else if (e == 0) {
    v = std::ldexp(static_cast<double>(m), 1 - bias - mbits);
  } else {
    v = std::ldexp(1.0 + std::ldexp(static_cast<double>(m), -mbits), e - bias);
  }
  return neg ? -v : v;
}

inline bool is_nan_code(format f, std::uint8_t b) { return std::isnan(decode(f, b)); }

/// The largest finite code's value: 448 or 57344.
inline double max_finite(format f) { return f == format::e4m3 ? 448.0 : 57344.0; }

/// `x` rounded to nearest, ties to even code, as format `f`; `saturate`: past the finite range (infinity
/// included) to +-max; otherwise to NaN (E4M3) or infinity (E5M2), the tie at max + half an ulp going to the
/// even neighbour (E4M3: max, whose code is even; E5M2: infinity, as max's code is odd). NaN gives a NaN
/// code.
inline std::uint8_t encode(format f, double x, bool saturate) {
  if (std::isnan(x)) return 0x7f;
  const std::uint8_t sign = std::signbit(x) ? 0x80 : 0x00;
  const double a = std::fabs(x);
  const double mx = max_finite(f);
  const std::uint8_t max_code = f == format::e4m3 ? 0x7e : 0x7b;
  // Half the spacing of the top binade: e4m3 [256, 512) has 3 fraction bits (spacing 32), e5m2 [32768,
  // 65536) has 2 (spacing 8192).
  const double half_ulp_top = f == format::e4m3 ? 16.0 : 4096.0;
  if (a > mx) {
    if (saturate) return sign | max_code;
    const bool past = f == format::e4m3 ? a > mx + half_ulp_top : a >= mx + half_ulp_top;
    if (!past) return sign | max_code;
    return f == format::e4m3 ? static_cast<std::uint8_t>(sign | 0x7f)
                             : static_cast<std::uint8_t>(sign | 0x7c);
  }
  // Nearest among the non-negative finite codes 0..max_code (their values increase with the code).
  int best = 0;
  double best_d = std::numeric_limits<double>::infinity();
  for (int c = 0; c <= max_code; ++c) {
    const double d = std::fabs(decode(f, static_cast<std::uint8_t>(c)) - a);
    if (d < best_d || (d == best_d && (c & 1) == 0)) {
      best = c;
      best_d = d;
    }
  }
  return static_cast<std::uint8_t>(sign | best);
}

/// Inputs that exercise every rounding decision of format `f`: every finite value (both signs), every
/// midpoint between neighbours and the floats just beside it, the overflow boundary, the underflow to zero,
/// zeros, infinities, NaN, float subnormals, and `random` log-uniform values.
inline std::vector<float> float_cases(format f, std::size_t random, std::uint64_t seed) {
  std::vector<float> v;
  std::vector<double> pos;
  const int max_code = f == format::e4m3 ? 0x7e : 0x7b;
  for (int c = 0; c <= max_code; ++c) pos.push_back(decode(f, static_cast<std::uint8_t>(c)));
  auto push_both = [&](double d) {
    const float x = static_cast<float>(d);
    for (float y : {x, std::nextafter(x, 0.0f), std::nextafter(x, std::numeric_limits<float>::infinity())}) {
      v.push_back(y);
      v.push_back(-y);
    }
  };
  for (std::size_t k = 0; k < pos.size(); ++k) {
    push_both(pos[k]);
    if (k + 1 < pos.size()) push_both((pos[k] + pos[k + 1]) / 2);
  }
  const double mx = max_finite(f), half = f == format::e4m3 ? 16.0 : 4096.0;
  for (double d : {mx + half / 2, mx + half, mx + 2 * half, 2 * mx, 1e10, 3.0e38}) push_both(d);
  const float inf = std::numeric_limits<float>::infinity();
  for (float x : {0.0f, -0.0f, inf, -inf, std::numeric_limits<float>::quiet_NaN(),
                  -std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::denorm_min(),
                  std::numeric_limits<float>::min(), 1e-30f}) {
    v.push_back(x);
    v.push_back(-x);
  }
  std::uint64_t s = seed;
  auto next = [&] {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return s >> 11;
  };
  for (std::size_t k = 0; k < random; ++k) {
    const double e = static_cast<double>(next() % 48000) / 1000.0 - 24.0;  // 2^-24 .. 2^24
    const double m = 1.0 + static_cast<double>(next() % 1000000) / 1000000.0;
    const float x = static_cast<float>(std::ldexp(m, static_cast<int>(std::floor(e))));
    v.push_back(next() % 2 ? x : -x);
  }
  return v;
}

/// `x`'s code as an integer ordered like the values (negative codes below positive ones): adjacent values
/// differ by 1, so `|ordinal(a) - ordinal(b)| <= 1` means "the same or a neighbour".
inline int ordinal(std::uint8_t b) {
  return (b & 0x80) ? -static_cast<int>(b & 0x7f) : static_cast<int>(b & 0x7f);
}

}  // namespace fp8
}  // namespace ew_test
