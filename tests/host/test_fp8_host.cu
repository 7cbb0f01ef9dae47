// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// FP8 element types on the host (ctest host.fp8): `ew::convert` both ways against the independent reference
// of fp8_reference.cuh, bit for bit, over all 256 codes of each type, every rounding boundary, the overflow
// rules of both saturation modes, and from float, double, __half and __nv_bfloat16; then the catalog's
// floating ops on FP8 operands (every code, every pair for the binary ones) against double arithmetic
// rounded by the reference: exact for the arithmetic ops, the nearest code or its neighbour for the
// transcendental ones. The host runs cuda_fp8.h's bit manipulation; the GPU test runs the hardware's cvt.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <ios>
#include <string>
#include <type_traits>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/fp8_reference.cuh"

namespace {

using namespace ew_test::fp8;

template <class T>
std::uint8_t bits_of(T x) {
  return x.__x;
}
template <class T>
T from_bits(std::uint8_t b) {
  T x;
  x.__x = b;
  return x;
}

/// Checks `got` against the reference code `want`: the same bits, or both NaN codes.
template <class T>
bool same_code(std::uint8_t got, std::uint8_t want) {
  constexpr format f = format_of<T>();
  return is_nan_code(f, want) ? is_nan_code(f, got) : got == want;
}

template <class T>
void check_decode_all() {
  constexpr format f = format_of<T>();
  for (int b = 0; b < 256; ++b) {
    const double want = decode(f, static_cast<std::uint8_t>(b));
    const float got = ew::convert<float>(from_bits<T>(static_cast<std::uint8_t>(b)));
    INFO("code 0x" << std::hex << b);
    if (std::isnan(want)) {
      CHECK(std::isnan(got));
    } else {
      CHECK(static_cast<double>(got) == want);
      CHECK(std::signbit(got) == std::signbit(want));
      CHECK(ew::convert<double>(from_bits<T>(static_cast<std::uint8_t>(b))) == want);
    }
  }
}

template <class T, ew::saturation S>
void check_encode_floats() {
  constexpr format f = format_of<T>();
  std::size_t wrong = 0;
  for (float x : float_cases(f, 200000, 0x8e4u)) {
    const std::uint8_t want = encode(f, x, S == ew::saturation::finite);
    const std::uint8_t got = bits_of(ew::convert<T, S>(x));
    const std::uint8_t from_double = bits_of(ew::convert<T, S>(static_cast<double>(x)));
    if (!same_code<T>(got, want) || !same_code<T>(from_double, want)) {
      if (++wrong <= 5) {
        UNSCOPED_INFO("x = " << x << " want 0x" << std::hex << int(want) << " got 0x" << int(got)
                             << " (from double 0x" << int(from_double) << ")");
      }
    }
  }
  CHECK(wrong == 0);
}

/// cuda_fp8.h's own conversion of `x` to `T`, saturating or not as `S` says: the reference that shares no
/// code with ew's overflow rule (on the host, its bit manipulation; ew calls it only with __NV_SATFINITE).
template <class T, ew::saturation S, class F>
std::uint8_t cuda_fp8_code(F x) {
  constexpr __nv_fp8_interpretation_t kind = std::is_same_v<T, __nv_fp8_e4m3> ? __NV_E4M3 : __NV_E5M2;
  constexpr __nv_saturation_t sat = S == ew::saturation::finite ? __NV_SATFINITE : __NV_NOSAT;
  if constexpr (std::is_same_v<F, float>) {
    return __nv_cvt_float_to_fp8(x, sat, kind);
  } else if constexpr (std::is_same_v<F, double>) {
    return __nv_cvt_double_to_fp8(x, sat, kind);
  } else if constexpr (std::is_same_v<F, __half>) {
    return __nv_cvt_halfraw_to_fp8(static_cast<__half_raw>(x), sat, kind);
  } else {
    return __nv_cvt_bfloat16raw_to_fp8(static_cast<__nv_bfloat16_raw>(x), sat, kind);
  }
}

/// The float `steps` floats away from `x` (toward +infinity for positive steps); x finite and non-negative.
float float_step(float x, std::int32_t steps) {
  std::uint32_t u;
  std::memcpy(&u, &x, 4);
  u = static_cast<std::uint32_t>(static_cast<std::int64_t>(u) + steps);
  float y;
  std::memcpy(&y, &u, 4);
  return y;
}
double double_step(double x, std::int64_t steps) {
  std::uint64_t u;
  std::memcpy(&u, &x, 8);
  u = static_cast<std::uint64_t>(static_cast<std::int64_t>(u) + steps);
  double y;
  std::memcpy(&y, &u, 8);
  return y;
}

/// ew::convert<T, S> against cuda_fp8.h's conversion of every float within 4096 floats of each rounding
/// boundary of `T` (each midpoint between neighbouring codes, the one between 0 and the smallest subnormal,
/// and max + half an ulp), every float from max to 1.25 times that threshold, and the doubles within 64
/// doubles of each boundary; both signs. Counts the mismatches and shows the first few.
template <class T, ew::saturation S>
std::size_t mismatches_near_boundaries() {
  constexpr format f = format_of<T>();
  const int max_code = f == format::e4m3 ? 0x7e : 0x7b;
  std::vector<double> bounds;
  for (int c = 0; c < max_code; ++c) {
    bounds.push_back((decode(f, static_cast<std::uint8_t>(c)) + decode(f, static_cast<std::uint8_t>(c + 1))) /
                     2);
  }
  const double threshold = max_finite(f) + (f == format::e4m3 ? 16.0 : 4096.0);
  bounds.push_back(threshold);
  std::size_t wrong = 0;
  auto check = [&](auto x) {
    for (auto v : {x, -x}) {
      const std::uint8_t want = cuda_fp8_code<T, S>(v);
      const std::uint8_t got = bits_of(ew::convert<T, S>(v));
      if (!same_code<T>(got, want) && ++wrong <= 5) {
        UNSCOPED_INFO(std::hexfloat << static_cast<double>(v) << std::defaultfloat << " ("
                                    << static_cast<double>(v) << "): ew 0x" << std::hex << int(got)
                                    << ", cuda_fp8.h 0x" << int(want) << std::dec);
      }
    }
  };
  for (double b : bounds) {
    const float bf = static_cast<float>(b);  // every boundary is a float: at most 5 significant bits
    for (std::int32_t k = -4096; k <= 4096; ++k) {
      const float x = float_step(bf, k);
      if (x >= 0.0f) check(x);
    }
    for (std::int64_t k = -64; k <= 64; ++k) {
      const double x = double_step(b, k);
      if (x >= 0.0) check(x);
    }
  }
  const float top = static_cast<float>(max_finite(f)), end = static_cast<float>(1.25 * threshold);
  for (float x = top; x <= end; x = float_step(x, 1)) check(x);
  return wrong;
}

/// ew::convert<T, S> against cuda_fp8.h's conversion of every __half and every __nv_bfloat16.
template <class T, ew::saturation S>
std::size_t mismatches_16_bit() {
  std::size_t wrong = 0;
  for (std::uint32_t h = 0; h < 65536; ++h) {
    __half_raw hr;
    hr.x = static_cast<std::uint16_t>(h);
    __nv_bfloat16_raw br;
    br.x = static_cast<std::uint16_t>(h);
    const __half hv(hr);
    const __nv_bfloat16 bv(br);
    if (!same_code<T>(bits_of(ew::convert<T, S>(hv)), cuda_fp8_code<T, S>(hv)) && ++wrong <= 5) {
      UNSCOPED_INFO("__half bits 0x" << std::hex << h << std::dec);
    }
    if (!same_code<T>(bits_of(ew::convert<T, S>(bv)), cuda_fp8_code<T, S>(bv)) && ++wrong <= 5) {
      UNSCOPED_INFO("__nv_bfloat16 bits 0x" << std::hex << h << std::dec);
    }
  }
  return wrong;
}

}  // namespace

TEST_CASE("fp8: conversions agree with cuda_fp8.h's own near every boundary, both types and modes", "[fp8]") {
  CHECK(mismatches_near_boundaries<__nv_fp8_e4m3, ew::saturation::finite>() == 0);
  CHECK(mismatches_near_boundaries<__nv_fp8_e4m3, ew::saturation::none>() == 0);
  CHECK(mismatches_near_boundaries<__nv_fp8_e5m2, ew::saturation::finite>() == 0);
  CHECK(mismatches_near_boundaries<__nv_fp8_e5m2, ew::saturation::none>() == 0);
  CHECK(mismatches_16_bit<__nv_fp8_e4m3, ew::saturation::finite>() == 0);
  CHECK(mismatches_16_bit<__nv_fp8_e4m3, ew::saturation::none>() == 0);
  CHECK(mismatches_16_bit<__nv_fp8_e5m2, ew::saturation::finite>() == 0);
  CHECK(mismatches_16_bit<__nv_fp8_e5m2, ew::saturation::none>() == 0);
  // The e5m2 overflow boundary without saturation (issue 22): below 61440 the nearest is 57344, from it on
  // infinity (the tie goes to infinity's even code).
  using e5 = __nv_fp8_e5m2;
  constexpr auto none = ew::saturation::none;
  CHECK(bits_of(ew::convert<e5, none>(59392.0f)) == 0x7b);
  CHECK(bits_of(ew::convert<e5, none>(61439.996f)) == 0x7b);
  CHECK(bits_of(ew::convert<e5, none>(61440.0f)) == 0x7c);
  CHECK(bits_of(ew::convert<e5, none>(-61440.0)) == 0xfc);
  CHECK(bits_of(ew::cast<e5, none>{}(60000.0f)) == 0x7b);
}

TEST_CASE("fp8: every code decodes to its value, exactly", "[fp8]") {
  check_decode_all<__nv_fp8_e4m3>();
  check_decode_all<__nv_fp8_e5m2>();
}

TEST_CASE("fp8: every code encodes to itself, and 16-bit values round once", "[fp8]") {
  for (int b = 0; b < 256; ++b) {
    const auto e4 = from_bits<__nv_fp8_e4m3>(static_cast<std::uint8_t>(b));
    const auto e5 = from_bits<__nv_fp8_e5m2>(static_cast<std::uint8_t>(b));
    if (!is_nan_code(format::e4m3, static_cast<std::uint8_t>(b))) {
      CHECK(bits_of(ew::convert<__nv_fp8_e4m3>(ew::convert<float>(e4))) == b);
    }
    if (!is_nan_code(format::e5m2, static_cast<std::uint8_t>(b)) && (b & 0x7f) != 0x7c) {
      CHECK(bits_of(ew::convert<__nv_fp8_e5m2>(ew::convert<float>(e5))) == b);
    }
  }
  // Every __half and every __nv_bfloat16 (exact in float): one rounding to FP8.
  std::size_t wrong = 0;
  for (std::uint32_t h = 0; h < 65536; ++h) {
    const std::uint16_t u = static_cast<std::uint16_t>(h);
    __half_raw hr;
    hr.x = u;
    const __half hv(hr);
    __nv_bfloat16_raw br;
    br.x = u;
    const __nv_bfloat16 bv(br);
    const double hd = static_cast<double>(__half2float(hv)), bd = static_cast<double>(__bfloat162float(bv));
    wrong +=
        !same_code<__nv_fp8_e4m3>(bits_of(ew::convert<__nv_fp8_e4m3>(hv)), encode(format::e4m3, hd, true));
    wrong +=
        !same_code<__nv_fp8_e5m2>(bits_of(ew::convert<__nv_fp8_e5m2>(hv)), encode(format::e5m2, hd, true));
    wrong +=
        !same_code<__nv_fp8_e4m3>(bits_of(ew::convert<__nv_fp8_e4m3>(bv)), encode(format::e4m3, bd, true));
    wrong +=
        !same_code<__nv_fp8_e5m2>(bits_of(ew::convert<__nv_fp8_e5m2>(bv)), encode(format::e5m2, bd, true));
  }
  CHECK(wrong == 0);
}

TEST_CASE("fp8: float and double round to nearest even, saturating or not", "[fp8]") {
  check_encode_floats<__nv_fp8_e4m3, ew::saturation::finite>();
  check_encode_floats<__nv_fp8_e4m3, ew::saturation::none>();
  check_encode_floats<__nv_fp8_e5m2, ew::saturation::finite>();
  check_encode_floats<__nv_fp8_e5m2, ew::saturation::none>();
  // The named boundaries, so that the rules read here as the docs state them.
  const float inf = INFINITY;
  CHECK(bits_of(ew::convert<__nv_fp8_e4m3>(500.0f)) == 0x7e);                        // 448
  CHECK(bits_of(ew::convert<__nv_fp8_e4m3>(-inf)) == 0xfe);                          // -448
  CHECK(bits_of(ew::convert<__nv_fp8_e4m3, ew::saturation::none>(500.0f)) == 0x7f);  // NaN
  CHECK(bits_of(ew::convert<__nv_fp8_e5m2>(inf)) == 0x7b);                           // 57344
  CHECK(bits_of(ew::convert<__nv_fp8_e5m2, ew::saturation::none>(inf)) == 0x7c);     // inf
  CHECK(is_nan_code(format::e4m3, bits_of(ew::convert<__nv_fp8_e4m3>(NAN))));
  CHECK(is_nan_code(format::e5m2, bits_of(ew::convert<__nv_fp8_e5m2>(NAN))));
  CHECK(bits_of(ew::cast<__nv_fp8_e4m3, ew::saturation::none>{}(1000.0f)) == 0x7f);
  CHECK(bits_of(ew::cast<__nv_fp8_e4m3>{}(1000.0f)) == 0x7e);
  // Integers: exact through double, saturating past the range.
  CHECK(bits_of(ew::convert<__nv_fp8_e4m3>(std::int64_t(1) << 62)) == 0x7e);
  CHECK(ew::convert<float>(ew::convert<__nv_fp8_e4m3>(std::int32_t(-20))) == -20.0f);
  CHECK(ew::convert<std::int32_t>(from_bits<__nv_fp8_e4m3>(0x7e)) == 448);
  CHECK(ew::convert<std::int8_t>(from_bits<__nv_fp8_e4m3>(0x7e)) == 127);
}

namespace {

/// `op` on every code (unary) against `ref` in double rounded by the reference; `exact` or within a code.
template <class T, class Op, class Ref>
std::size_t unary_mismatches(Op op, Ref ref, bool exact) {
  constexpr format f = format_of<T>();
  std::size_t wrong = 0;
  for (int b = 0; b < 256; ++b) {
    const double x = decode(f, static_cast<std::uint8_t>(b));
    const std::uint8_t want = encode(f, ref(x), true);
    const std::uint8_t got = bits_of(op(from_bits<T>(static_cast<std::uint8_t>(b))));
    const bool ok =
        is_nan_code(f, want)
            ? is_nan_code(f, got)
            : (exact ? got == want : !is_nan_code(f, got) && std::abs(ordinal(got) - ordinal(want)) <= 1);
    if (!ok && ++wrong <= 3) {
      UNSCOPED_INFO("x = " << x << " want 0x" << std::hex << int(want) << " got 0x" << int(got));
    }
  }
  return wrong;
}

template <class T, class Op, class Ref>
std::size_t binary_mismatches(Op op, Ref ref) {
  constexpr format f = format_of<T>();
  std::size_t wrong = 0;
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; ++b) {
      const double x = decode(f, static_cast<std::uint8_t>(a)), y = decode(f, static_cast<std::uint8_t>(b));
      const std::uint8_t want = encode(f, ref(x, y), true);
      const std::uint8_t got =
          bits_of(op(from_bits<T>(static_cast<std::uint8_t>(a)), from_bits<T>(static_cast<std::uint8_t>(b))));
      if (!same_code<T>(got, want) && ++wrong <= 3) {
        UNSCOPED_INFO("x = " << x << " y = " << y << " want 0x" << std::hex << int(want) << " got 0x"
                             << int(got));
      }
    }
  }
  return wrong;
}

template <class T>
void check_ops() {
  using C = float;
  // Arithmetic: the float result of two FP8 values rounds to FP8 as the exact value does (24 >= 2p + 2).
  CHECK(binary_mismatches<T>(ew::add<T>{}, [](double x, double y) { return x + y; }) == 0);
  CHECK(binary_mismatches<T>(ew::sub<T>{}, [](double x, double y) { return x - y; }) == 0);
  CHECK(binary_mismatches<T>(ew::mul<T>{}, [](double x, double y) { return x * y; }) == 0);
  CHECK(binary_mismatches<T>(ew::div<T>{}, [](double x, double y) { return x / y; }) == 0);
  CHECK(binary_mismatches<T>(ew::min<T>{}, [](double x, double y) {
          return std::isnan(x) || std::isnan(y) ? NAN : (x < y || (x == y && std::signbit(x)) ? x : y);
        }) == 0);
  CHECK(binary_mismatches<T>(ew::max<T>{}, [](double x, double y) {
          return std::isnan(x) || std::isnan(y) ? NAN : (x > y || (x == y && !std::signbit(x)) ? x : y);
        }) == 0);
  CHECK(unary_mismatches<T>(
            ew::neg<T>{}, [](double x) { return -x; }, true) == 0);
  CHECK(unary_mismatches<T>(
            ew::abs<T>{}, [](double x) { return std::fabs(x); }, true) == 0);
  // relu returns its input itself where it is not negative (an e5m2 infinity stays one, no rounding).
  for (int b = 0; b < 256; ++b) {
    const double x = decode(format_of<T>(), std::uint8_t(b));
    const std::uint8_t got = bits_of(ew::relu<T>{}(from_bits<T>(std::uint8_t(b))));
    CHECK(same_code<T>(got, x < 0 ? std::uint8_t(0) : std::uint8_t(b)));
  }
  CHECK(unary_mismatches<T>(
            ew::scale_bias<T>{C(1.5f), C(0.25f)}, [](double x) { return 1.5 * x + 0.25; }, true) == 0);
  CHECK(unary_mismatches<T>(
            ew::clamp<T>{ew::convert<T>(-2.0f), ew::convert<T>(3.0f)},
            [](double x) { return std::isnan(x) ? x : (x < -2 ? -2.0 : (x > 3 ? 3.0 : x)); }, true) == 0);
  // fma: one rounding of the exact a * b + c, over a sample of triples.
  {
    constexpr format f = format_of<T>();
    std::size_t wrong = 0;
    for (int a = 0; a < 256; a += 3) {
      for (int b = 0; b < 256; b += 5) {
        for (int c = 0; c < 256; c += 7) {
          const double x = decode(f, std::uint8_t(a)), y = decode(f, std::uint8_t(b)),
                       z = decode(f, std::uint8_t(c));
          const std::uint8_t want = encode(f, std::fma(x, y, z), true);
          const std::uint8_t got = bits_of(ew::fma<T>{}(
              from_bits<T>(std::uint8_t(a)), from_bits<T>(std::uint8_t(b)), from_bits<T>(std::uint8_t(c))));
          wrong += !same_code<T>(got, want);
        }
      }
    }
    CHECK(wrong == 0);
  }
  // Transcendentals: float's few ulp decide only at a midpoint of the FP8 grid: the nearest code or one
  // beside it.
  CHECK(unary_mismatches<T>(
            ew::exp<T>{}, [](double x) { return std::exp(x); }, false) == 0);
  CHECK(unary_mismatches<T>(
            ew::log<T>{}, [](double x) { return std::log(x); }, false) == 0);
  CHECK(unary_mismatches<T>(
            ew::tanh<T>{}, [](double x) { return std::tanh(x); }, false) == 0);
  CHECK(unary_mismatches<T>(
            ew::sigmoid<T>{}, [](double x) { return 1 / (1 + std::exp(-x)); }, false) == 0);
  CHECK(unary_mismatches<T>(
            ew::gelu<T>{},
            [](double x) {
              return std::isinf(x) ? (x > 0 ? x : 0.0) : 0.5 * x * std::erfc(-x / std::sqrt(2.0));
            },
            false) == 0);
  CHECK(unary_mismatches<T>(
            ew::silu<T>{},
            [](double x) { return std::isinf(x) ? (x > 0 ? x : 0.0) : x / (1 + std::exp(-x)); }, false) == 0);
}

}  // namespace

TEST_CASE("fp8: the catalog's floating ops on e4m3 and e5m2", "[fp8]") {
  SECTION("e4m3") { check_ops<__nv_fp8_e4m3>(); }
  SECTION("e5m2") { check_ops<__nv_fp8_e5m2>(); }
}

TEST_CASE("fp8: traits and vector widths", "[fp8]") {
  STATIC_REQUIRE(ew::is_fp8_v<__nv_fp8_e4m3> && ew::is_fp8_v<__nv_fp8_e5m2>);
  STATIC_REQUIRE(ew::is_floating_v<__nv_fp8_e4m3> && ew::is_narrow_float_v<__nv_fp8_e5m2>);
  STATIC_REQUIRE(std::is_same_v<ew::compute_t<__nv_fp8_e4m3>, float>);
  STATIC_REQUIRE(sizeof(__nv_fp8_e4m3) == 1);
  // 16 FP8 values per 16-byte access; with a float input, 4 (16 bytes of the float).
  STATIC_REQUIRE(ew::detail::default_vec_width<__nv_fp8_e4m3> == 16);
  STATIC_REQUIRE(ew::detail::default_vec_width<__nv_fp8_e4m3, float> == 4);
  STATIC_REQUIRE(ew::detail::default_vec_width<__nv_fp8_e5m2, __nv_bfloat16> == 8);
}
