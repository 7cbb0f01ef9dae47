// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// ew's numeric rules on the GPU, through ew::elementwise: the checks of tests/host/test_numeric_host.cu on
// device results, against the same references, which do not use ew (tests/common/exact16.cuh):
// - floating (float, double, __half, __nv_bfloat16) -> every integer type (8 to 64 bits, signed and
//   unsigned, bool), both through ew::cast in the op and through the kernel's conversion of an op's result to
//   the output type (an op that returns its input, written to integer outputs): NaN gives 0, otherwise
//   truncation toward zero saturated to the range; bool is x != 0;
// - integer (8 to 64 bits) -> __half and __nv_bfloat16, the same two ways: correctly rounded from the exact
//   integer (16842753 -> bf16 16908288);
// - fma, scale_bias and axpby on __half and __nv_bfloat16: the exact value rounded once, bit for bit, on
//   full-range operands and operands crafted to land on or a hair from a midpoint;
// - add, sub, mul and div on __half and __nv_bfloat16: correctly rounded, bit for bit.
// Each at an aligned and a misaligned (scalar path) pointer offset, with guard bands and poisoned outputs
// that must all be overwritten (tests/common/launch_helpers.cuh). Any NaN matches any NaN.

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <cuda/std/tuple>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/exact16.cuh"
#include "../common/functor_reference.cuh"
#include "../common/launch_helpers.cuh"
#include "../common/numeric_cases.cuh"
#include "../common/test_utils.cuh"

using namespace ew_test;

namespace {

using ew_test::cases::check_all;
using ew_test::cases::show;

/// (output, input) element offsets: aligned (vector path) and different misalignments (scalar path).
const std::array<std::array<std::size_t, 2>, 2>& offsets() {
  static const std::array<std::array<std::size_t, 2>, 2> o{{{0, 0}, {1, 3}}};
  return o;
}

// --- Floating -> integer -----------------------------------------------------------------------------------

using i8 = std::int8_t;
using u8 = std::uint8_t;
using i16 = std::int16_t;
using u16 = std::uint16_t;
using i32 = std::int32_t;
using u32 = std::uint32_t;
using i64 = std::int64_t;
using u64 = std::uint64_t;

/// x through ew::cast to each integer type, as nine outputs.
template <class From>
struct cast_to_integers {
  EW_HD
  cuda::std::tuple<i8, u8, i16, u16, i32, u32, i64, u64, bool> operator()(From x) const {
    return {ew::cast<i8>{}(x),  ew::cast<u8>{}(x),  ew::cast<i16>{}(x),
            ew::cast<u16>{}(x), ew::cast<i32>{}(x), ew::cast<u32>{}(x),
            ew::cast<i64>{}(x), ew::cast<u64>{}(x), ew::cast<bool>{}(x)};
  }
};
/// x nine times: the kernel converts each to its output's type.
template <class From>
struct nine_copies {
  EW_HD
  cuda::std::tuple<From, From, From, From, From, From, From, From, From> operator()(From x) const {
    return {x, x, x, x, x, x, x, x, x};
  }
};

/// `got`: the downloaded output of type To (a bool output as its bytes, which must be exactly 0 or 1).
template <class To, class From, class Got>
void check_to_integer(const char* how, const std::vector<From>& xs, const std::vector<Got>& got,
                      const std::array<std::size_t, 2>& off) {
  std::ostringstream what;
  what << how << " " << type_name<From>() << " -> " << type_name<To>() << " on the GPU, offsets " << off[0]
       << "," << off[1];
  check_all(
      what.str(), xs.size(),
      [&](std::size_t i) { return got[i] == static_cast<Got>(exact::to_integer<To>(xs[i])); },
      [&](std::size_t i) {
        return "x = " + show(xs[i]) + ": got " + show(got[i]) + ", want " +
               show(exact::to_integer<To>(xs[i]));
      });
}
using integer_outputs = std::tuple<i8, u8, i16, u16, i32, u32, i64, u64, bool>;
template <class From, class Outs, std::size_t... K>
void check_integer_outputs(const char* how, const std::vector<From>& xs, const Outs& got,
                           const std::array<std::size_t, 2>& off, std::index_sequence<K...>) {
  (check_to_integer<std::tuple_element_t<K, integer_outputs>>(how, xs, std::get<K>(got), off), ...);
}

template <class From>
void check_float_to_int_on_gpu() {
  test_stream stream;
  INFO("seed " << base_seed());
  const std::vector<From> xs = cases::float_to_int_inputs<From>(200000, base_seed());
  for (const auto& off : offsets()) {
    const auto via_cast = guarded_launch_outs<i8, u8, i16, u16, i32, u32, i64, u64, bool>(
        cast_to_integers<From>{}, off[0], off[1], stream.s, xs);
    check_integer_outputs("ew::cast", xs, via_cast, off, std::make_index_sequence<9>{});
    const auto via_output = guarded_launch_outs<i8, u8, i16, u16, i32, u32, i64, u64, bool>(
        nine_copies<From>{}, off[0], off[1], stream.s, xs);
    check_integer_outputs("output conversion", xs, via_output, off, std::make_index_sequence<9>{});
  }
}

// --- Integer -> 16-bit -------------------------------------------------------------------------------------

template <class I>
struct cast_to_16 {
  EW_HD
  cuda::std::tuple<__half, __nv_bfloat16> operator()(I x) const {
    return {ew::cast<__half>{}(x), ew::cast<__nv_bfloat16>{}(x)};
  }
};
template <class I>
struct two_copies {
  EW_HD
  cuda::std::tuple<I, I> operator()(I x) const { return {x, x}; }
};

template <class I, class T>
void check_from_integer(const char* how, const std::vector<I>& xs, const std::vector<T>& got,
                        const std::array<std::size_t, 2>& off) {
  std::ostringstream what;
  what << how << " " << type_name<I>() << " -> " << type_name<T>() << " on the GPU, offsets " << off[0] << ","
       << off[1];
  check_all(
      what.str(), xs.size(), [&](std::size_t i) { return same_bits(got[i], exact::from_int<T>(xs[i])); },
      [&](std::size_t i) {
        return "x = " + show(xs[i]) + ": got " + show(got[i]) + ", want " + show(exact::from_int<T>(xs[i]));
      });
}

template <class I>
void check_int_to16_on_gpu() {
  test_stream stream;
  INFO("seed " << base_seed());
  const std::vector<I> xs = cases::int_to16_inputs<I>(200000, base_seed());
  for (const auto& off : offsets()) {
    const auto via_cast =
        guarded_launch_outs<__half, __nv_bfloat16>(cast_to_16<I>{}, off[0], off[1], stream.s, xs);
    check_from_integer("ew::cast", xs, std::get<0>(via_cast), off);
    check_from_integer("ew::cast", xs, std::get<1>(via_cast), off);
    const auto via_output =
        guarded_launch_outs<__half, __nv_bfloat16>(two_copies<I>{}, off[0], off[1], stream.s, xs);
    check_from_integer("output conversion", xs, std::get<0>(via_output), off);
    check_from_integer("output conversion", xs, std::get<1>(via_output), off);
  }
}

}  // namespace

TEMPLATE_TEST_CASE("floating -> integer on the GPU: NaN 0, truncation, saturation; bool is x != 0",
                   "[functors][numeric]", float, double, __half, __nv_bfloat16) {
  check_float_to_int_on_gpu<TestType>();
}

TEMPLATE_TEST_CASE("integer -> __half and __nv_bfloat16 on the GPU: correctly rounded from the exact integer",
                   "[functors][numeric]", i8, u8, i16, u16, i32, u32, i64, u64) {
  check_int_to16_on_gpu<TestType>();
}

TEST_CASE("integer -> bf16 on the GPU: 16842753 is 16908288, not 16777216", "[functors][numeric]") {
  test_stream stream;
  const std::vector<i32> x{16842753, -16842753, 16842752};
  const std::vector<__nv_bfloat16> got =
      guarded_launch<__nv_bfloat16>(ew::cast<__nv_bfloat16>{}, 0, 0, stream.s, x);
  CHECK(exact::to_ld(got[0]) == 16908288.0L);
  CHECK(exact::to_ld(got[1]) == -16908288.0L);
  CHECK(exact::to_ld(got[2]) == 16777216.0L);  // the midpoint itself: to even
}

TEMPLATE_TEST_CASE("16-bit fma on the GPU is the exact a * b + c rounded once", "[functors][numeric]", __half,
                   __nv_bfloat16) {
  using T = TestType;
  test_stream stream;
  INFO("seed " << base_seed());
  const cases::fma_operands<T> o = cases::fma_cases<T>(300000, 20000, base_seed());
  std::vector<T> want(o.a.size());
  for (std::size_t i = 0; i < want.size(); ++i) want[i] = exact::fma(o.a[i], o.b[i], o.c[i]);
  for (const auto& off : offsets()) {
    const std::vector<T> got = guarded_launch<T>(ew::fma<T>{}, off[0], off[1], stream.s, o.a, o.b, o.c);
    check_all(
        std::string("fma<") + type_name<T>() + "> offsets " + std::to_string(off[0]) + "," +
            std::to_string(off[1]),
        got.size(), [&](std::size_t i) { return same_value(got[i], want[i]); },
        [&](std::size_t i) {
          return "fma(" + show(o.a[i]) + ", " + show(o.b[i]) + ", " + show(o.c[i]) + ") = " + show(got[i]) +
                 ", want " + show(want[i]);
        });
  }
  if constexpr (std::is_same_v<T, __half>) {
    const std::vector<T> a{from_double<T>(0.9790039)}, b{from_double<T>(0.00049877167)},
        c{from_double<T>(1.0)};
    CHECK(exact::to_ld(guarded_launch<T>(ew::fma<T>{}, 0, 0, stream.s, a, b, c)[0]) == 1.0009765625L);
  }
}

TEMPLATE_TEST_CASE("16-bit scale_bias and axpby on the GPU are the exact value rounded once",
                   "[functors][numeric]", __half, __nv_bfloat16) {
  using T = TestType;
  test_stream stream;
  INFO("seed " << base_seed());
  const std::vector<T> x = cases::all_values16<T>();
  std::vector<T> y = x;
  std::shuffle(y.begin(), y.end(), std::mt19937_64(base_seed()));
  for (std::size_t i = 0; i < y.size(); i += 2)
    y[i] = from_double<T>(i % 4 == 0 ? 1.0 : -1.0);  // alpha x +- beta
  for (const auto& params : cases::linear_params<T>(8, base_seed())) {
    const float alpha = params.first, beta = params.second;
    std::vector<T> want_sb(x.size()), want_ab(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      want_sb[i] = exact::scale_bias(alpha, x[i], beta);
      want_ab[i] = exact::axpby(alpha, x[i], beta, y[i]);
    }
    for (const auto& off : offsets()) {
      std::ostringstream what;
      what.precision(9);
      what << type_name<T>() << " alpha " << alpha << " beta " << beta << ", offsets " << off[0] << ","
           << off[1];
      const std::vector<T> sb =
          guarded_launch<T>(ew::scale_bias<T>{alpha, beta}, off[0], off[1], stream.s, x);
      check_all(
          "scale_bias " + what.str(), x.size(), [&](std::size_t i) { return same_value(sb[i], want_sb[i]); },
          [&](std::size_t i) {
            return "x = " + show(x[i]) + ": " + show(sb[i]) + ", want " + show(want_sb[i]);
          });
      const std::vector<T> ab = guarded_launch<T>(ew::axpby<T>{alpha, beta}, off[0], off[1], stream.s, x, y);
      check_all(
          "axpby " + what.str(), x.size(), [&](std::size_t i) { return same_value(ab[i], want_ab[i]); },
          [&](std::size_t i) {
            return "x = " + show(x[i]) + ", y = " + show(y[i]) + ": " + show(ab[i]) + ", want " +
                   show(want_ab[i]);
          });
    }
  }
}

TEMPLATE_TEST_CASE("16-bit add, sub, mul and div on the GPU are correctly rounded over the full range",
                   "[functors][numeric]", __half, __nv_bfloat16) {
  using T = TestType;
  test_stream stream;
  const std::uint64_t seed = base_seed();
  INFO("seed " << seed);
  const auto pairs = cases::arithmetic_pairs<T>(400000, 100000, seed);
  const std::vector<T>& a = pairs.first;
  const std::vector<T>& b = pairs.second;
  for (const auto& off : offsets()) {
    const std::string where =
        std::string(type_name<T>()) + " offsets " + std::to_string(off[0]) + "," + std::to_string(off[1]);
    auto check_op = [&](const char* name, const std::vector<T>& got, T (*ref)(T, T)) {
      check_all(
          std::string(name) + " " + where, got.size(),
          [&](std::size_t i) { return same_value(got[i], ref(a[i], b[i])); },
          [&](std::size_t i) {
            return std::string(name) + "(" + show(a[i]) + ", " + show(b[i]) + ") = " + show(got[i]) +
                   ", want " + show(ref(a[i], b[i]));
          });
    };
    check_op("add", guarded_launch<T>(ew::add<T>{}, off[0], off[1], stream.s, a, b), &exact::add<T>);
    check_op("sub", guarded_launch<T>(ew::sub<T>{}, off[0], off[1], stream.s, a, b), &exact::sub<T>);
    check_op("mul", guarded_launch<T>(ew::mul<T>{}, off[0], off[1], stream.s, a, b), &exact::mul<T>);
    check_op("div", guarded_launch<T>(ew::div<T>{}, off[0], off[1], stream.s, a, b), &exact::div<T>);
  }
}
