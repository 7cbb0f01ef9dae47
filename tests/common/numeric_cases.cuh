// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// Inputs for the tests of ew's numeric rules (conversions, correctly rounded 16-bit arithmetic), shared by
// the host tests (tests/host/test_numeric_host.cu), the GPU tests (tests/gpu/test_numeric_gpu.cu) and the
// property test: values from the full range of each type (random bit patterns, subnormals, signed zeros,
// infinities, NaNs, short significands whose sums and products land on ties, significands that end near a
// tie), the edges of floating -> integer conversion, integers near the midpoints of the 16-bit formats, and
// fma / scale_bias / axpby operands crafted so that the exact result lies on, or a hair above or below, a
// midpoint between two 16-bit values. All seeded; test code only.

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "catch.hpp"

#include "exact16.cuh"
#include "hardening_utils.cuh"

namespace ew_test {
namespace cases {

// --- Full-range values -------------------------------------------------------------------------------------

/// Value `i` of a stream seeded with `seed`, from the full range of T. Floating types, by draw: a uniformly
/// random bit pattern (6/16); a special (+-0, +-inf, quiet and signalling NaNs of either sign, +-max, +-the
/// smallest normal, +-the smallest and largest subnormal, +-1) (1/16); a random subnormal (2/16); a random
/// significand with an exponent within 2^+-12 (3/16), so that sums and products of two such values overlap
/// and round; a short significand (1 to 4 leading bits) within 2^+-6 (2/16), whose sums and products are
/// often exact or exactly a tie; a significand whose low bits are 10...0, 01...1 or 10...01 (2/16): the ties
/// and near-ties of a conversion to a narrower type. Integers: random bits (10/16), the extremes and +-1, 0
/// (1/16), magnitudes below 2^16 (5/16).
template <class T>
T full_range_value(std::uint64_t seed, std::uint64_t i) {
  const std::uint64_t r = mix64(seed ^ mix64(i)), s = mix64(r + 0x51ed2701u);
  const unsigned draw = static_cast<unsigned>(r & 15);
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    if (draw < 10) return static_cast<T>(static_cast<U>(s));
    if (draw == 10) {
      const T special[] = {T(0),
                           T(1),
                           static_cast<T>(-1),
                           std::numeric_limits<T>::min(),
                           std::numeric_limits<T>::max(),
                           static_cast<T>(std::numeric_limits<T>::min() + 1),
                           static_cast<T>(std::numeric_limits<T>::max() - 1)};
      return special[s % 7];
    }
    const U small = static_cast<U>(s & 0xFFFF);
    return (s >> 63) && std::is_signed_v<T> ? static_cast<T>(U(0) - small) : static_cast<T>(small);
  } else {
    using B = typename exact::format<T>::bits_t;
    constexpr int fb = exact::fraction_bits<T>();
    constexpr B frac_mask = static_cast<B>((B(1) << fb) - 1);
    constexpr B exp_max = exact::max_exponent_field<T>();
    constexpr int bias = exact::bias<T>();
    const B sign = (s >> 63) ? exact::sign_mask<T>() : B(0);
    const B frac = static_cast<B>(s & frac_mask);
    auto make = [&](B e, B f) {
      return exact::from_bits<T>(static_cast<B>(sign | (e << fb) | (f & frac_mask)));
    };
    const B e_mid = static_cast<B>(bias - 12 + static_cast<int>((s >> 40) % 25));
    if (draw < 6) return exact::from_bits<T>(static_cast<B>(mix64(s)));
    if (draw == 6) {
      const B specials[] = {0,
                            static_cast<B>(exp_max << fb),                         // inf
                            static_cast<B>((exp_max << fb) | (B(1) << (fb - 1))),  // quiet NaN
                            static_cast<B>((exp_max << fb) | 1),                   // signalling NaN
                            static_cast<B>((exp_max << fb) | frac_mask),           // NaN, all payload bits
                            static_cast<B>(((exp_max - 1) << fb) | frac_mask),     // max
                            static_cast<B>(B(1) << fb),                            // smallest normal
                            1,                                                     // smallest subnormal
                            frac_mask,                                             // largest subnormal
                            static_cast<B>(B(bias) << fb)};                        // 1
      return exact::from_bits<T>(static_cast<B>(sign | specials[(s >> 8) % 10]));
    }
    if (draw < 9) return make(0, frac);
    if (draw < 12) return make(e_mid, frac);
    if (draw < 14) {
      const int keep = 1 + static_cast<int>((s >> 32) % 4);
      const B e_short = static_cast<B>(bias - 6 + static_cast<int>((s >> 44) % 13));
      return make(e_short, static_cast<B>(frac & ~((B(1) << (fb - keep)) - 1)));
    }
    // Low j bits 10...0 (a tie at j bits less precision), 01...1 or 10...01 (just below or above it).
    const int j = 1 + static_cast<int>((s >> 32) % fb);
    const B low = static_cast<B>((B(1) << j) - 1);
    const B half = static_cast<B>(B(1) << (j - 1));
    const B pattern[] = {half, static_cast<B>(half - 1), static_cast<B>(j > 1 ? half + 1 : half)};
    const B e_any = static_cast<B>(1 + (s >> 48) % (exp_max - 1));
    return make(e_any, static_cast<B>((frac & ~low) | pattern[(s >> 20) % 3]));
  }
}

template <class T>
std::vector<T> full_range_values(std::size_t n, std::uint64_t seed) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = full_range_value<T>(seed, i);
  return v;
}

/// Every value of a 16-bit type, in bit-pattern order.
template <class T>
std::vector<T> all_values16() {
  std::vector<T> v(65536);
  for (std::uint32_t b = 0; b < 65536; ++b) v[b] = exact::from_bits<T>(static_cast<std::uint16_t>(b));
  return v;
}

// --- Floating -> integer -----------------------------------------------------------------------------------

/// Inputs for floating -> integer: every value of a 16-bit From; for float and double, the edges of every
/// integer type up to 64 bits (2^k and -2^k for k = 7, 8, 15, 16, 31, 32, 63, 64, with their neighbours in
/// From and +-0.25, +-0.5, +-1 around them), small fractions of either sign (-0.7 and the like, which
/// truncate to 0), +-0, infinities, NaNs of both signs and several payloads, the largest and smallest values,
/// then `n` full-range values.
template <class From>
std::vector<From> float_to_int_inputs(std::size_t n, std::uint64_t seed) {
  if constexpr (exact::is_16_v<From>) {
    (void)n;
    (void)seed;
    return all_values16<From>();
  } else {
    std::vector<From> v;
    const From inf = std::numeric_limits<From>::infinity();
    for (int k : {7, 8, 15, 16, 31, 32, 63, 64}) {
      const long double p = std::ldexp(1.0L, k);
      for (long double d : {p, p - 1, p + 1, p - 0.5L, p + 0.5L, p - 0.25L, p + 0.25L, p - 2, p + 2}) {
        for (long double sd : {d, -d}) {
          const From x = static_cast<From>(sd);
          v.push_back(x);
          v.push_back(std::nextafter(x, inf));
          v.push_back(std::nextafter(x, -inf));
        }
      }
    }
    for (double d :
         {0.0,    -0.0,  0.25,  -0.25, 0.5,   -0.5,   0.7,   -0.7,  0.999, -0.999, 1.0,
          -1.0,   1.5,   -1.5,  2.5,   -2.5,  126.9,  127.0, 127.5, 128.0, -128.0, -128.9,
          -129.0, 255.0, 255.9, 256.0, 300.0, -300.0, 1e10,  -1e10, 1e19,  -1e19,  1.8446744073709552e19,
          1e30,   -1e30}) {
      v.push_back(static_cast<From>(d));
    }
    using B = typename exact::format<From>::bits_t;
    const B qnan = exact::bits_of(std::numeric_limits<From>::quiet_NaN());
    for (B nan : {qnan, static_cast<B>(qnan | exact::sign_mask<From>()), static_cast<B>(qnan | 1),
                  static_cast<B>(exact::bits_of(inf) | 1),
                  static_cast<B>(exact::bits_of(inf) | 1 | exact::sign_mask<From>())}) {
      v.push_back(exact::from_bits<From>(nan));
    }
    for (From x : {inf, -inf, std::numeric_limits<From>::max(), std::numeric_limits<From>::lowest(),
                   std::numeric_limits<From>::min(), -std::numeric_limits<From>::min(),
                   std::numeric_limits<From>::denorm_min(), -std::numeric_limits<From>::denorm_min()}) {
      v.push_back(x);
    }
    const std::vector<From> rest = full_range_values<From>(n, seed);
    v.insert(v.end(), rest.begin(), rest.end());
    return v;
  }
}

// --- Integer -> 16-bit -------------------------------------------------------------------------------------

/// Inputs for integer -> __half / __nv_bfloat16: every value of an integer type up to 16 bits; for wider
/// ones, for both 16-bit formats, the midpoints between consecutive values at every binade the type reaches
/// (odd multiples of 2^(e - p)) and their neighbours +-1, +-2, the representable values around them +-1, the
/// overflow edge of __half (65504, 65519, 65520, 65521, 65535, 65536 and negatives), 16842753 (a bf16
/// midpoint + 1), the extremes, then `n` values: uniformly random bits and random magnitudes of random bit
/// length.
template <class I>
std::vector<I> int_to16_inputs(std::size_t n, std::uint64_t seed) {
  std::vector<I> v;
  if constexpr (sizeof(I) <= 2) {
    (void)n;
    (void)seed;
    for (long long x = std::numeric_limits<I>::min(); x <= std::numeric_limits<I>::max(); ++x)
      v.push_back(static_cast<I>(x));
    return v;
  } else {
    const long double lo = static_cast<long double>(std::numeric_limits<I>::min());
    const long double hi = static_cast<long double>(std::numeric_limits<I>::max());
    auto push = [&](long double d) {  // exact in long double; kept when I holds it
      if (d >= lo && d <= hi) v.push_back(static_cast<I>(d));
    };
    std::mt19937_64 rng(seed);
    constexpr int bits = std::numeric_limits<I>::digits;
    for (int p : {11, 8}) {
      for (int e = p; e < bits; ++e) {
        for (int rep = 0; rep < 6; ++rep) {
          // An odd number in (2^p, 2^(p + 1)): odd * 2^(e - p) is a midpoint of the binade [2^e, 2^(e + 1)).
          const long double odd = static_cast<long double>((std::uint64_t(1) << p) +
                                                           2 * (rng() % (std::uint64_t(1) << (p - 1))) + 1);
          const long double mid = std::ldexp(odd, e - p);  // in [2^e, 2^(e + 1))
          const long double step = std::ldexp(1.0L, e - p);
          for (long double d : {mid, mid - 1, mid + 1, mid - 2, mid + 2, mid - step, mid + step,
                                mid - step + 1, mid + step - 1, mid - step - 1, mid + step + 1}) {
            push(d);
            push(-d);
          }
        }
      }
    }
    for (long double d : {65504.0L, 65519.0L, 65520.0L, 65521.0L, 65535.0L, 65536.0L, 16842753.0L,
                          16842752.0L, 16777217.0L, 0.0L, 1.0L, 2049.0L, 2051.0L, 257.0L, 259.0L}) {
      push(d);
      push(-d);
    }
    v.push_back(std::numeric_limits<I>::min());
    v.push_back(std::numeric_limits<I>::max());
    v.push_back(static_cast<I>(std::numeric_limits<I>::max() - 1));
    v.push_back(static_cast<I>(std::numeric_limits<I>::min() + 1));
    using U = std::make_unsigned_t<I>;
    for (std::size_t k = 0; k < n; ++k) {
      const std::uint64_t r = rng();
      if (k % 2 == 0) {
        v.push_back(static_cast<I>(static_cast<U>(r)));
      } else {
        const int len = static_cast<int>(rng() % (bits + 1));
        const U m = len >= 64 ? static_cast<U>(r) : static_cast<U>(r & ((std::uint64_t(1) << len) - 1));
        v.push_back(std::is_signed_v<I> && (rng() & 1) ? static_cast<I>(U(0) - m) : static_cast<I>(m));
      }
    }
    return v;
  }
}

// --- fma / scale_bias / axpby operands ---------------------------------------------------------------------

/// The 16-bit value next to x (finite, nonzero) in magnitude, away from zero (up) or toward it.
template <class T>
T step16(T x, bool up) {
  const std::uint16_t u = exact::bits_of(x);
  return exact::from_bits<T>(static_cast<std::uint16_t>(up ? u + 1 : u - 1));
}
/// A finite 16-bit value with a random significand and a biased exponent field in [lo, hi], sign random.
template <class T>
T random16(std::mt19937_64& rng, int lo, int hi) {
  constexpr int fb = exact::fraction_bits<T>();
  const std::uint32_t e =
      static_cast<std::uint32_t>(lo + static_cast<int>(rng() % static_cast<std::uint64_t>(hi - lo + 1)));
  const std::uint32_t f = static_cast<std::uint32_t>(rng() & ((1u << fb) - 1));
  const std::uint32_t sign = (rng() & 1) ? 0x8000u : 0u;
  return exact::from_bits<T>(static_cast<std::uint16_t>(sign | (e << fb) | f));
}
template <class T>
bool finite_nonzero(T x) {
  return !exact::is_nan(x) && !exact::is_inf(x) && (exact::bits_of(x) & 0x7FFFu) != 0;
}

/// Operands of a 16-bit fma.
template <class T>
struct fma_operands {
  std::vector<T> a, b, c;
  void push(T x, T y, T z) {
    a.push_back(x);
    b.push_back(y);
    c.push_back(z);
  }
};

/// fma operands: `n_random` triples of full-range values; special triples (inf * 0, inf - inf, NaN, signed
/// zeros, exact cancellation, overflow); and about 30 * `n_ties` crafted near-ties of two kinds:
/// - c dominates: a * b is within a few of its own ulps of half the gap between c and its neighbour, so that
///   a * b + c is a hair above or below (or on) the midpoint next to c (fma<__half>(0.9790039, 0.00049877167,
///   1), whose product is a hair above half the gap above 1, is of this kind);
/// - a * b dominates: a * b is on or next to a midpoint M between two 16-bit values, and c is the exact
///   residual M - a * b (a tie) or a tiny value of either sign (down to far below a * b's last bit), which
///   decides the rounding alone.
template <class T>
fma_operands<T> fma_cases(std::size_t n_random, std::size_t n_ties, std::uint64_t seed) {
  fma_operands<T> o;
  for (std::size_t i = 0; i < n_random; ++i) {
    o.push(full_range_value<T>(seed, 3 * i), full_range_value<T>(seed, 3 * i + 1),
           full_range_value<T>(seed, 3 * i + 2));
  }
  const int bias = exact::bias<T>();
  const int emax_field = static_cast<int>(exact::max_exponent_field<T>()) - 1;
  auto v = [](double d) { return exact::round_to<T>(exact::decode(d)); };
  const T inf = exact::from_bits<T>(
      static_cast<std::uint16_t>(exact::max_exponent_field<T>() << exact::fraction_bits<T>()));
  const T ninf = exact::from_bits<T>(static_cast<std::uint16_t>(exact::bits_of(inf) | 0x8000u));
  const T nan = exact::from_bits<T>(static_cast<std::uint16_t>(exact::bits_of(inf) | 1u));
  const T pz = v(0.0), nz = v(-0.0), one = v(1.0), two = v(2.0), max = step16(inf, false);
  for (const auto& t : std::vector<std::array<T, 3>>{
           {inf, pz, one},      {nz, ninf, one},     {inf, one, ninf},    {ninf, two, inf},
           {inf, one, inf},     {nan, one, one},     {one, nan, one},     {one, one, nan},
           {pz, one, nz},       {nz, one, nz},       {nz, one, pz},       {pz, nz, nz},
           {nz, nz, nz},        {one, one, v(-1.0)}, {v(-1.0), one, one}, {two, v(1.5), v(-3.0)},
           {max, two, v(-1.0)}, {max, one, max},     {max, v(-1.0), max}, {max, max, ninf},
           {one, one, inf}}) {
    o.push(t[0], t[1], t[2]);
  }
  std::mt19937_64 rng(seed ^ 0xf3a);
  for (std::size_t k = 0; k < n_ties; ++k) {
    // Kind 1: c dominates.
    {
      const T c = random16<T>(rng, 2, emax_field - 1);
      const bool up = rng() & 1;
      const T nb = step16(c, up);
      const exact::value gap = exact::add(exact::decode(nb), exact::negate(exact::decode(c)));
      exact::value half = gap;
      half.exp -= 1;  // (neighbour - c) / 2, exact
      const T a = random16<T>(rng, bias - 3, bias + 3);
      const long double b0 = exact::to_ld(half) / exact::to_ld(a);
      const T b = exact::round_to<T>(exact::decode_ld(b0));
      if (finite_nonzero(b)) {
        for (int d = -2; d <= 2; ++d) {
          const T bd = d == 0 ? b : step16(b, d > 0);
          const T bdd = (d == 2 || d == -2) ? step16(bd, d > 0) : bd;
          if (finite_nonzero(bdd)) o.push(a, bdd, c);
        }
      }
    }
    // Kind 2: a * b dominates, on or next to a midpoint.
    {
      const T lo = random16<T>(rng, 2, emax_field - 1);
      const exact::value mid = [&] {
        exact::value s = exact::add(exact::decode(lo), exact::decode(step16(lo, true)));
        s.exp -= 1;
        return s;
      }();
      const T a = random16<T>(rng, bias - 3, bias + 3);
      const T b = exact::round_to<T>(exact::decode_ld(exact::to_ld(mid) / exact::to_ld(a)));
      if (!finite_nonzero(b)) continue;
      for (const T bd : {b, step16(b, true), step16(b, false)}) {
        if (!finite_nonzero(bd)) continue;
        const exact::value p = exact::mul(exact::decode(a), exact::decode(bd));
        const exact::value residual = exact::add(mid, exact::negate(p));
        const T r = exact::round_to<T>(residual);
        o.push(a, bd, r);  // exactly the midpoint when the residual is a T
        o.push(a, bd, step16(r, true));
        if (finite_nonzero(r)) o.push(a, bd, step16(r, false));
        // Tiny terms of either sign, 12 to 40 binades below a * b (bounded by T's range).
        const int pe = exact::bit_length(p.mag) + p.exp;
        for (int below : {12, 20, 30, 40}) {
          const int e = std::max(pe - below, exact::emin<T>() - exact::fraction_bits<T>());
          const T tiny = exact::round_to<T>(exact::make((rng() & 1) != 0, 1 + (rng() & 7), e));
          o.push(a, bd, tiny);
          o.push(a, bd, exact::from_bits<T>(static_cast<std::uint16_t>(exact::bits_of(tiny) ^ 0x8000u)));
        }
      }
    }
  }
  return o;
}

/// Float parameters (alpha, beta) for scale_bias and axpby on T: ordinary ones (1.75, 0.5 and the like, with
/// 24-bit significands), special ones (0 * inf, an infinite beta, signed zeros, the extremes of float), and
/// near-tie ones: alpha = 1 - 2^-24 or 1 + 2^-23 (alpha x is x moved by less than float resolves in one
/// rounding) with beta = +-half the gap of T at a binade, so that every x of that binade gives a result a
/// hair from a midpoint; plus `n_random` seeded pairs of the same kinds.
template <class T>
std::vector<std::pair<float, float>> linear_params(std::size_t n_random, std::uint64_t seed) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<std::pair<float, float>> p{
      {1.75f, 0.5f},     {1.0f, 0.0f},      {-1.0f, -0.0f}, {3.0f / 7.0f, 0.1f},
      {-1.3f, 1e-3f},    {0.0f, 1.0f},      {1.0f, inf},    {-2.5f, -inf},
      {1.0f, -0.0f},     {1e-30f, 1e-38f},  {3e38f, 1.0f},  {1e4f, -7.5f},
      {0x1p-149f, 0.0f}, {1.0f, 0x1p-149f}, {-0.0f, -0.0f}, {0.33333334f, -0.33333334f}};
  constexpr int prec = exact::format<T>::precision;
  for (int e : {-20, -14, -10, -1, 0, 1, 5, 10, 15}) {
    const float half_gap = std::ldexp(1.0f, e - prec);
    p.push_back({1.0f - 0x1p-24f, half_gap});
    p.push_back({1.0f - 0x1p-24f, -half_gap});
    p.push_back({1.0f + 0x1p-23f, half_gap});
    p.push_back({1.0f + 0x1p-23f, -half_gap});
    p.push_back({-(1.0f - 0x1p-24f), half_gap});
    p.push_back({1.0f, half_gap});  // exact ties for x of that binade
  }
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-4.0f, 4.0f);
  for (std::size_t k = 0; k < n_random; ++k) {
    const int e = static_cast<int>(rng() % 40) - 25;
    const float jitter = static_cast<float>(static_cast<int>(rng() % 9) - 4) * 0x1p-24f;
    switch (k % 3) {
      case 0:
        p.push_back({u(rng), u(rng)});
        break;
      case 1:
        p.push_back({1.0f + jitter, std::ldexp(1.0f + static_cast<float>(rng() % 4) * 0x1p-23f, e - prec)});
        break;
      default:
        p.push_back({std::ldexp(u(rng), static_cast<int>(rng() % 30) - 15), std::ldexp(u(rng), e)});
        break;
    }
  }
  return p;
}

/// Operand pairs for the 16-bit add/sub/mul/div tests: `n` full-range pairs, then `ties` pairs whose sum
/// lies on, or a hair off, a midpoint (b = +-half the gap at a, times 1, 1 + 2^-k or 1 - 2^-k).
template <class T>
std::pair<std::vector<T>, std::vector<T>> arithmetic_pairs(std::size_t n, int ties, std::uint64_t seed) {
  std::vector<T> a = full_range_values<T>(n, seed), b = full_range_values<T>(n, seed + 1);
  std::mt19937_64 rng(seed);
  for (int k = 0; k < ties; ++k) {
    const T x = random16<T>(rng, 1, static_cast<int>(exact::max_exponent_field<T>()) - 2);
    exact::value half = exact::add(exact::decode(step16(x, true)), exact::negate(exact::decode(x)));
    half.exp -= 1;
    const int j = static_cast<int>(rng() % exact::format<T>::precision);
    const long double f =
        (k % 3 == 0) ? 1.0L : (k % 3 == 1 ? 1.0L + std::ldexp(1.0L, -j) : 1.0L - std::ldexp(1.0L, -j - 1));
    a.push_back(x);
    b.push_back(exact::round_to<T>(exact::decode_ld(exact::to_ld(half) * f * ((rng() & 1) ? 1 : -1))));
  }
  return {std::move(a), std::move(b)};
}

/// `x` for a failure message: integers as numbers, floating values exactly, with their bits.
template <class T>
std::string show(T x) {
  std::ostringstream s;
  s.precision(21);
  if constexpr (std::is_integral_v<T>) {
    s << +x;
  } else {
    s << static_cast<long double>(exact::to_ld(x)) << " (bits 0x" << std::hex << +exact::bits_of(x) << ")";
  }
  return s.str();
}

/// One CHECK: how many of `n` elements fail `ok`, and the first, described.
template <class Ok, class Describe>
void check_all(const std::string& what, std::size_t n, Ok&& ok, Describe&& describe) {
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!ok(i) && bad++ == 0) first = i;
  }
  INFO(what << ": " << bad << " of " << n << " wrong"
            << (bad ? "; first: " + describe(first) : std::string()));
  CHECK(bad == 0);
}

}  // namespace cases
}  // namespace ew_test
