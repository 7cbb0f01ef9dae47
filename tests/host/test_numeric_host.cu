// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// ew's numeric rules on the host (its __host__ __device__ code), against references that do not use ew
// (tests/common/exact16.cuh: exact values from the bits, exact sums and products, rounding by table search):
// - floating (float, double, __half, __nv_bfloat16) -> integer (8 to 64 bits, signed and unsigned, bool) with
//   ew::convert and ew::cast: NaN gives 0, otherwise truncation toward zero saturated to the integer's range;
//   bool is x != 0 (NaN true). Every 16-bit input, the edges of every integer type, and full-range values.
// - integer (8 to 64 bits) -> __half / __nv_bfloat16: correctly rounded from the exact integer, ties to even,
//   overflowing to infinity. Every value of the 8- and 16-bit types; midpoints and their neighbours, the
//   extremes and random values of the wider ones.
// - fma, scale_bias and axpby on __half and __nv_bfloat16: the exact value rounded once, bit for bit (any NaN
//   for NaN), on full-range operands and on operands crafted to land on, or a hair from, a midpoint.
// - add, sub, mul and div on __half and __nv_bfloat16: correctly rounded (0 ulp) on full-range operands and
//   on crafted ties.
// And the reference itself, against CUDA's host conversions and against a second way of computing the same
// values. tests/gpu/test_numeric_gpu.cu runs the same checks on device results.

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

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/exact16.cuh"
#include "../common/functor_reference.cuh"
#include "../common/numeric_cases.cuh"
#include "../common/test_utils.cuh"

using namespace ew_test;

namespace {

using ew_test::cases::check_all;
using ew_test::cases::show;

template <class... T>
struct type_list {};
using integer_types = type_list<std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t,
                                std::uint32_t, std::int64_t, std::uint64_t, bool>;

template <class From, class To>
void check_float_to_int(const std::vector<From>& xs) {
  const std::string what = std::string("convert<") + type_name<To>() + ">(" + type_name<From>() + ")";
  check_all(
      what.c_str(), xs.size(),
      [&](std::size_t i) {
        const To want = exact::to_integer<To>(xs[i]);
        return ew::convert<To>(xs[i]) == want && ew::cast<To>{}(xs[i]) == want;
      },
      [&](std::size_t i) {
        return "x = " + show(xs[i]) + ": convert " + show(ew::convert<To>(xs[i])) + ", cast " +
               show(ew::cast<To>{}(xs[i])) + ", want " + show(exact::to_integer<To>(xs[i]));
      });
}
template <class From, class... To>
void check_float_to_ints(const std::vector<From>& xs, type_list<To...>) {
  (check_float_to_int<From, To>(xs), ...);
}

template <class I, class T>
void check_int_to16(const std::vector<I>& xs) {
  const std::string what = std::string("convert<") + type_name<T>() + ">(" + type_name<I>() + ")";
  check_all(
      what.c_str(), xs.size(),
      [&](std::size_t i) {
        const T want = exact::from_int<T>(xs[i]);
        return same_bits(ew::convert<T>(xs[i]), want) && same_bits(ew::cast<T>{}(xs[i]), want);
      },
      [&](std::size_t i) {
        return "x = " + show(xs[i]) + ": convert " + show(ew::convert<T>(xs[i])) + ", cast " +
               show(ew::cast<T>{}(xs[i])) + ", want " + show(exact::from_int<T>(xs[i]));
      });
}

template <class T>
T h(double d) {
  return from_double<T>(d);
}

}  // namespace

// --- The reference -----------------------------------------------------------------------------------------

TEMPLATE_TEST_CASE("the exact 16-bit reference agrees with CUDA's host conversions and with itself",
                   "[functors][numeric][reference]", __half, __nv_bfloat16) {
  using T = TestType;
  // The table is strictly increasing, and every non-NaN encoding decodes and rounds back to itself.
  const auto& table = exact::table<T>::get();
  for (std::size_t i = 1; i < table.values.size(); ++i) {
    const auto& a = table.values[i - 1];
    const auto& b = table.values[i];
    REQUIRE(exact::compare_magnitudes(a.mag, a.exp, b.mag, b.exp) < 0);
  }
  std::size_t bad_round_trip = 0, bad_decode = 0;
  for (const T x : cases::all_values16<T>()) {
    if (exact::is_nan(x)) {
      bad_round_trip += !exact::is_nan(exact::round_to<T>(exact::decode(x)));
      continue;
    }
    bad_round_trip += !same_bits(exact::round_to<T>(exact::decode(x)), x);
    float f;
    if constexpr (std::is_same_v<T, __half>) {
      f = __half2float(x);
    } else {
      f = __bfloat162float(x);
    }
    const long double d = exact::to_ld(x);
    bad_decode += !(static_cast<long double>(f) == d && std::signbit(f) == std::signbit(d));
  }
  CHECK(bad_round_trip == 0);
  CHECK(bad_decode == 0);
  // Rounding a float: against CUDA's host __float2half_rn, and for bf16 against rounding the bits (add
  // 0x7FFF plus the lowest kept bit, truncate).
  std::mt19937 rng(static_cast<std::uint32_t>(base_seed()));
  std::size_t bad_float = 0;
  std::string first;
  for (int i = 0; i < 300000; ++i) {
    std::uint32_t u = rng();
    if (i % 3 == 1) u = (u & 0xFFFF0000u) | (i % 2 ? 0x8000u : 0x7FFFu);  // bf16 ties and near-ties
    if (i % 3 == 2) u = (u & 0xFFFFE000u) | 0x1000u;                      // f16 ties (for normal f16)
    const float f = exact::from_bits<float>(u);
    if (std::isnan(f)) continue;
    std::uint16_t want;
    if constexpr (std::is_same_v<T, __half>) {
      const __half r = __float2half_rn(f);
      std::memcpy(&want, &r, 2);
    } else {
      want = static_cast<std::uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
    }
    const std::uint16_t got = exact::round_bits<T>(exact::decode(f));
    if (got != want && bad_float++ == 0) first = "f32 bits " + std::to_string(u);
  }
  INFO("rounding f32 -> " << type_name<T>() << ": first difference " << first);
  CHECK(bad_float == 0);
  // A sum of two 16-bit values rounded through float is the correctly rounded sum (24 >= 2p + 1): a second
  // computation of exact::add, whose operands span the whole exponent range (the sticky path for bf16).
  std::size_t bad_sum = 0;
  std::string first_sum;
  const std::uint64_t seed = base_seed();
  for (std::uint64_t i = 0; i < 300000; ++i) {
    const T a = cases::full_range_value<T>(seed, 2 * i), b = cases::full_range_value<T>(seed, 2 * i + 1);
    const float fa = static_cast<float>(exact::to_ld(a)), fb = static_cast<float>(exact::to_ld(b));
    const T via_float = exact::round_to<T>(exact::decode(fa + fb));
    if (!same_value(exact::add(a, b), via_float) && bad_sum++ == 0) first_sum = show(a) + " + " + show(b);
  }
  INFO("exact::add against the float sum rounded: first difference " << first_sum);
  CHECK(bad_sum == 0);
}

TEST_CASE("the exact reference: named values, overflow, ties and far-apart terms",
          "[functors][numeric][reference]") {
  using bf = __nv_bfloat16;
  using hf = __half;
  CHECK(exact::to_ld(exact::from_int<bf>(16842753)) == 16908288.0L);  // 2^24 + 2^16 + 1: above the midpoint
  CHECK(exact::to_ld(exact::from_int<bf>(16842752)) == 16777216.0L);  // the midpoint: to even
  CHECK(exact::to_ld(exact::from_int<hf>(2049)) == 2048.0L);
  CHECK(exact::to_ld(exact::from_int<hf>(2051)) == 2052.0L);
  CHECK(exact::to_ld(exact::from_int<hf>(65519)) == 65504.0L);
  CHECK(exact::is_inf(exact::from_int<hf>(65520)));  // max + half an ulp: the tie goes to even, infinity
  CHECK(exact::bits_of(exact::from_int<hf>(-65520)) == 0xFC00u);
  CHECK(exact::bits_of(exact::round_to<bf>(exact::make(false, 511, 119))) == 0x7F80u);  // bf16 max + half ulp
  CHECK(exact::bits_of(exact::round_to<bf>(exact::make(false, 1021, 118))) == 0x7F7Fu);  // just below it
  CHECK(exact::bits_of(exact::round_to<hf>(exact::make(true, 1, -25))) == 0x8000u);      // -2^-25: tie to -0
  CHECK(exact::bits_of(exact::round_to<hf>(exact::make(false, 3, -26))) == 0x0001u);     // 0.75 * 2^-24: up
  // A product a hair above a midpoint: 0.97900390625 * 0.000498771667480 is a hair above 2^-11, half the gap
  // above 1, so the sum rounds up.
  CHECK(exact::to_ld(exact::fma(h<hf>(0.9790039), h<hf>(0.00049877167), h<hf>(1.0))) == 1.0009765625L);
  // Exact zero: +0 unless both terms are -0.
  CHECK(exact::bits_of(exact::fma(h<hf>(1.0), h<hf>(-1.0), h<hf>(1.0))) == 0x0000u);
  CHECK(exact::bits_of(exact::fma(h<hf>(-0.0), h<hf>(1.0), h<hf>(-0.0))) == 0x8000u);
  CHECK(exact::bits_of(exact::fma(h<hf>(-0.0), h<hf>(1.0), h<hf>(0.0))) == 0x0000u);
  // Far-apart terms (the sticky stand-in): a bf16 product that is exactly a midpoint, plus +-2^-120 or 0.
  std::uint32_t ma = 0, mb = 0;
  for (std::uint32_t x = 128; x < 256 && ma == 0; ++x) {
    for (std::uint32_t y = x; y < 256; ++y) {
      std::uint32_t p = x * y;  // a midpoint: 9 significant bits, the last one set
      while (p % 2 == 0) p /= 2;
      if (p >= 257 && p < 512) {
        ma = x;
        mb = y;
        break;
      }
    }
  }
  REQUIRE(ma != 0);
  const bf a = exact::round_to<bf>(exact::make(false, ma, 90)),
           b = exact::round_to<bf>(exact::make(false, mb, -7));
  const exact::value p = exact::mul(exact::decode(a), exact::decode(b));
  const long double pl = exact::to_ld(p);
  const bf below = exact::round_to<bf>(exact::decode_ld(pl * (1 - 0x1p-12L)));
  const bf above = exact::round_to<bf>(exact::decode_ld(pl * (1 + 0x1p-12L)));
  REQUIRE(!same_bits(below, above));
  const bf even = (exact::bits_of(below) % 2 == 0) ? below : above;
  INFO("ma " << ma << " mb " << mb);
  CHECK(same_bits(exact::fma(a, b, h<bf>(0x1p-120)), above));
  CHECK(same_bits(exact::fma(a, b, h<bf>(-0x1p-120)), below));
  CHECK(same_bits(exact::fma(a, b, h<bf>(0.0)), even));
  // A float axpby term far below the other.
  CHECK(exact::to_ld(exact::axpby(1.0f, h<bf>(0x1p100), 0x1p-149f, h<bf>(0x1p-133))) == 0x1p100L);
}

// --- Floating -> integer -----------------------------------------------------------------------------------

TEMPLATE_TEST_CASE(
    "floating -> integer: NaN is 0, otherwise truncated toward zero and saturated; bool is x != 0",
    "[functors][numeric]", float, double, __half, __nv_bfloat16) {
  using From = TestType;
  INFO("seed " << base_seed());
  const std::vector<From> xs = cases::float_to_int_inputs<From>(200000, base_seed());
  check_float_to_ints(xs, integer_types{});
}

TEST_CASE("floating -> integer: the named edge values", "[functors][numeric]") {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  CHECK(ew::convert<std::int8_t>(300.0) == 127);
  CHECK(ew::convert<std::int8_t>(-300.0f) == -128);
  CHECK(ew::convert<std::uint8_t>(-1.0) == 0);
  CHECK(ew::convert<std::uint8_t>(-0.7f) == 0);
  CHECK(ew::convert<std::uint8_t>(255.9f) == 255);
  CHECK(ew::convert<std::uint8_t>(256.0f) == 255);
  CHECK(ew::convert<std::int32_t>(1e30f) == std::numeric_limits<std::int32_t>::max());
  CHECK(ew::convert<std::int32_t>(-inf) == std::numeric_limits<std::int32_t>::min());
  CHECK(ew::convert<std::int32_t>(0x1p31f) == std::numeric_limits<std::int32_t>::max());
  CHECK(ew::convert<std::int32_t>(-0x1p31f) == std::numeric_limits<std::int32_t>::min());
  CHECK(ew::convert<std::int32_t>(2147483520.0f) == 2147483520);  // the largest float below 2^31
  CHECK(ew::convert<std::int32_t>(-2147483648.5) == std::numeric_limits<std::int32_t>::min());
  CHECK(ew::convert<std::int32_t>(2147483647.9) == std::numeric_limits<std::int32_t>::max());
  CHECK(ew::convert<std::int64_t>(0x1p63) == std::numeric_limits<std::int64_t>::max());
  CHECK(ew::convert<std::int64_t>(-0x1p63) == std::numeric_limits<std::int64_t>::min());
  CHECK(ew::convert<std::uint64_t>(0x1p64f) == std::numeric_limits<std::uint64_t>::max());
  CHECK(ew::convert<std::uint64_t>(18446744073709549568.0) == 18446744073709549568ull);  // below 2^64
  CHECK(ew::convert<std::uint32_t>(-inf) == 0u);
  CHECK(ew::convert<std::int32_t>(-2.75f) == -2);
  CHECK(ew::convert<std::int32_t>(nan) == 0);
  CHECK(ew::convert<std::int64_t>(-static_cast<double>(nan)) == 0);
  CHECK(ew::convert<std::uint8_t>(nan) == 0);
  CHECK(ew::convert<std::int16_t>(ew::convert<__half>(65504.0f)) == 32767);
  CHECK(ew::convert<std::int64_t>(h<__half>(-INFINITY)) == std::numeric_limits<std::int64_t>::min());
  CHECK(ew::convert<std::int8_t>(h<__nv_bfloat16>(-0.99609375)) == 0);
  CHECK(ew::convert<std::int8_t>(exact::from_bits<__nv_bfloat16>(0x7FC1)) == 0);  // a bf16 NaN
  CHECK(ew::convert<bool>(nan) == true);
  CHECK(ew::convert<bool>(-0.0f) == false);
  CHECK(ew::convert<bool>(0x1p-149f) == true);
  CHECK(ew::convert<bool>(exact::from_bits<__half>(0x8000)) == false);
  CHECK(ew::convert<bool>(exact::from_bits<__half>(0x7E00)) == true);
  CHECK(ew::cast<std::int8_t>{}(300.0f) == 127);
  CHECK(ew::cast<std::uint8_t>{}(-1.0) == 0);
}

// --- Integer -> 16-bit -------------------------------------------------------------------------------------

TEMPLATE_TEST_CASE("integer -> __half and __nv_bfloat16 is correctly rounded from the exact integer",
                   "[functors][numeric]", std::int8_t, std::uint8_t, std::int16_t, std::uint16_t,
                   std::int32_t, std::uint32_t, std::int64_t, std::uint64_t) {
  using I = TestType;
  INFO("seed " << base_seed());
  const std::vector<I> xs = cases::int_to16_inputs<I>(200000, base_seed());
  check_int_to16<I, __half>(xs);
  check_int_to16<I, __nv_bfloat16>(xs);
}

TEST_CASE("integer -> 16-bit: the named values", "[functors][numeric]") {
  // Through float, 16842753 rounds to 16842752 (a bf16 midpoint) and then to even, 16777216.
  CHECK(to_double(ew::convert<__nv_bfloat16>(16842753)) == 16908288.0);
  CHECK(to_double(ew::convert<__nv_bfloat16>(std::int64_t{16842753})) == 16908288.0);
  CHECK(to_double(ew::convert<__nv_bfloat16>(std::uint32_t{16842753})) == 16908288.0);
  CHECK(to_double(ew::cast<__nv_bfloat16>{}(16842753)) == 16908288.0);
  CHECK(to_double(ew::convert<__nv_bfloat16>(-16842753)) == -16908288.0);
  CHECK(to_double(ew::convert<__half>(65519)) == 65504.0);
  CHECK(exact::is_inf(ew::convert<__half>(65520)));
  CHECK(exact::bits_of(ew::convert<__half>(std::int64_t{-65520})) == 0xFC00u);
  CHECK(to_double(ew::convert<__half>(2049)) == 2048.0);
  CHECK(to_double(ew::convert<__half>(2051)) == 2052.0);
  CHECK(to_double(ew::convert<__nv_bfloat16>(std::numeric_limits<std::int64_t>::max())) == 0x1p63);
  CHECK(to_double(ew::convert<__nv_bfloat16>(std::numeric_limits<std::int64_t>::min())) == -0x1p63);
  CHECK(to_double(ew::convert<__nv_bfloat16>(std::numeric_limits<std::uint64_t>::max())) == 0x1p64);
  CHECK(exact::is_inf(ew::convert<__half>(std::numeric_limits<std::uint64_t>::max())));
  // 2^62 + 2^54 + 1 is a hair above a bf16 midpoint; through float or double (as an int64's low bits are
  // dropped) it would be the midpoint and round to even.
  const std::int64_t v = (std::int64_t{1} << 62) + (std::int64_t{1} << 54) + 1;
  CHECK(to_double(ew::convert<__nv_bfloat16>(v)) == 0x1p62 + 0x1p55);
}

// --- Correctly rounded 16-bit arithmetic -------------------------------------------------------------------

TEMPLATE_TEST_CASE("16-bit fma is the exact a * b + c rounded once", "[functors][numeric]", __half,
                   __nv_bfloat16) {
  using T = TestType;
  INFO("seed " << base_seed());
  const cases::fma_operands<T> o = cases::fma_cases<T>(300000, 20000, base_seed());
  check_all(
      "fma", o.a.size(),
      [&](std::size_t i) {
        return same_value(ew::fma<T>{}(o.a[i], o.b[i], o.c[i]), exact::fma(o.a[i], o.b[i], o.c[i]));
      },
      [&](std::size_t i) {
        return "fma(" + show(o.a[i]) + ", " + show(o.b[i]) + ", " + show(o.c[i]) +
               ") = " + show(ew::fma<T>{}(o.a[i], o.b[i], o.c[i])) + ", want " +
               show(exact::fma(o.a[i], o.b[i], o.c[i]));
      });
  if constexpr (std::is_same_v<T, __half>) {
    // Through float this rounded twice, to 1.0.
    CHECK(to_double(ew::fma<T>{}(h<T>(0.9790039), h<T>(0.00049877167), h<T>(1.0))) == 1.0009765625);
  }
}

TEMPLATE_TEST_CASE("16-bit scale_bias and axpby are the exact value rounded once", "[functors][numeric]",
                   __half, __nv_bfloat16) {
  using T = TestType;
  INFO("seed " << base_seed());
  const std::vector<T> x = cases::all_values16<T>();
  std::vector<T> y = x;
  std::shuffle(y.begin(), y.end(), std::mt19937_64(base_seed()));
  for (std::size_t i = 0; i < y.size(); i += 2) y[i] = h<T>(i % 4 == 0 ? 1.0 : -1.0);  // alpha x +- beta
  for (const auto& params : cases::linear_params<T>(24, base_seed())) {
    const float alpha = params.first, beta = params.second;
    INFO("alpha " << alpha << " beta " << beta);
    const ew::scale_bias<T> sb{alpha, beta};
    const ew::axpby<T> ab{alpha, beta};
    check_all(
        "scale_bias", x.size(),
        [&](std::size_t i) { return same_value(sb(x[i]), exact::scale_bias(alpha, x[i], beta)); },
        [&](std::size_t i) {
          return "x = " + show(x[i]) + ": " + show(sb(x[i])) + ", want " +
                 show(exact::scale_bias(alpha, x[i], beta));
        });
    check_all(
        "axpby", x.size(),
        [&](std::size_t i) { return same_value(ab(x[i], y[i]), exact::axpby(alpha, x[i], beta, y[i])); },
        [&](std::size_t i) {
          return "x = " + show(x[i]) + ", y = " + show(y[i]) + ": " + show(ab(x[i], y[i])) + ", want " +
                 show(exact::axpby(alpha, x[i], beta, y[i]));
        });
  }
}

TEMPLATE_TEST_CASE("16-bit add, sub, mul and div are correctly rounded over the full range",
                   "[functors][numeric]", __half, __nv_bfloat16) {
  using T = TestType;
  const std::uint64_t seed = base_seed();
  INFO("seed " << seed);
  const auto pairs = cases::arithmetic_pairs<T>(400000, 100000, seed);
  const std::vector<T>& a = pairs.first;
  const std::vector<T>& b = pairs.second;
  const std::size_t n = a.size();
  auto describe = [&a, &b](const char* op, auto f, auto ref) {
    return [&a, &b, op, f, ref](std::size_t i) {
      return std::string(op) + "(" + show(a[i]) + ", " + show(b[i]) + ") = " + show(f(a[i], b[i])) +
             ", want " + show(ref(a[i], b[i]));
    };
  };
  const ew::add<T> add{};
  const ew::sub<T> sub{};
  const ew::mul<T> mul{};
  const ew::div<T> div{};
  auto ref_a = [](T p, T q) { return exact::add(p, q); };
  auto ref_s = [](T p, T q) { return exact::sub(p, q); };
  auto ref_m = [](T p, T q) { return exact::mul(p, q); };
  auto ref_d = [](T p, T q) { return exact::div(p, q); };
  check_all(
      "add", n, [&](std::size_t i) { return same_value(add(a[i], b[i]), ref_a(a[i], b[i])); },
      describe("add", add, ref_a));
  check_all(
      "sub", n, [&](std::size_t i) { return same_value(sub(a[i], b[i]), ref_s(a[i], b[i])); },
      describe("sub", sub, ref_s));
  check_all(
      "mul", n, [&](std::size_t i) { return same_value(mul(a[i], b[i]), ref_m(a[i], b[i])); },
      describe("mul", mul, ref_m));
  check_all(
      "div", n, [&](std::size_t i) { return same_value(div(a[i], b[i]), ref_d(a[i], b[i])); },
      describe("div", div, ref_d));
}

// --- The poison check of the GPU tests ---------------------------------------------------------------------

TEST_CASE("the unwritten-element check tells a result equal to the poison from an element never written",
          "[functors][numeric][reference]") {
  // The poison is no NaN in any type.
  CHECK(!exact::is_nan(exact::from_bits<float>(0x5A5A5A5Au)));
  CHECK(!exact::is_nan(exact::from_bits<double>(0x5A5A5A5A5A5A5A5Aull)));
  CHECK(!exact::is_nan(exact::from_bits<__half>(0x5A5A)));
  CHECK(!exact::is_nan(exact::from_bits<__nv_bfloat16>(0x5A5A)));
  const float poison = exact::from_bits<float>(0x5A5A5A5Au), second = exact::from_bits<float>(0xC3C3C3C3u);
  CHECK(holds_poison(poison));
  CHECK(holds_poison(second, second_poison_byte));
  // Elements 1 and 3 hold the poison after the first launch. In the second (over the second poison) element 1
  // holds the first poison again, a result equal to it; element 3 holds the second: never written.
  const std::vector<float> got{1.0f, poison, 2.0f, poison};
  int reruns = 0;
  CHECK(unwritten_elements(got, [&] {
          ++reruns;
          return std::vector<float>{1.0f, poison, 2.0f, second};
        }) == 1);
  CHECK(reruns == 1);
  // Nothing holds the poison: no second launch.
  CHECK(unwritten_elements(std::vector<float>{1.0f, 2.0f}, [&] {
          ++reruns;
          return std::vector<float>{};
        }) == 0);
  CHECK(reruns == 1);
}
