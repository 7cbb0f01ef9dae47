// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// The core functors, run on the host (they are __host__ __device__), against independent CPU references
// for every supported type, including the extremes.

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <catch2/catch.hpp>

#include <ew/elementwise.cuh>

#include "../common/numeric_cases.cuh"
#include "../common/reference.cuh"
#include "../common/test_utils.cuh"

using namespace ew_test;

namespace {

/// Random values plus the extremes that matter for T: +-0, +-1, +-inf, NaN, the largest finite, the
/// smallest normal and a subnormal; for floating types also 4000 values from the full range (random bits,
/// subnormals, infinities, NaNs, short significands that make ties: tests/common/numeric_cases.cuh).
template <class T>
std::vector<T> interesting_values() {
  std::vector<T> v = random_values<T>(2000, base_seed());
  if constexpr (ew::is_floating_v<T>) {
    const std::vector<T> full = cases::full_range_values<T>(4000, base_seed() + 17);
    v.insert(v.end(), full.begin(), full.end());
  }
  if constexpr (ew::is_floating_v<T>) {
    const double inf = std::numeric_limits<double>::infinity();
    for (double d : {0.0, -0.0, 1.0, -1.0, inf, -inf, std::nan("")}) v.push_back(from_double<T>(d));
    if constexpr (std::is_same_v<T, __half>) {
      for (double d : {65504.0, -65504.0, 6.103515625e-05, 5.960464477539063e-08}) v.push_back(from_double<T>(d));
    } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
      for (double d : {3.3895313892515355e38, 1.1754943508222875e-38, 9.183549615799121e-41}) {
        v.push_back(from_double<T>(d));
      }
    } else {
      v.push_back(std::numeric_limits<T>::max());
      v.push_back(std::numeric_limits<T>::lowest());
      v.push_back(std::numeric_limits<T>::min());
      v.push_back(std::numeric_limits<T>::denorm_min());
    }
  } else {
    for (T x : {T(0), T(1), T(-1), std::numeric_limits<T>::max(), std::numeric_limits<T>::min()}) v.push_back(x);
  }
  return v;
}

template <class T, class Got, class Want>
void check_close(Got got, Want want, std::uint64_t ulps, const char* what) {
  const std::uint64_t d = ulp_distance<T>(got, want);
  if (d > ulps) {
    FAIL_CHECK(what << " (" << type_name<T>() << "): got " << to_double(got) << " want " << to_double(want)
                    << " (" << d << " ulp, allowed " << ulps << ")");
  }
}

}  // namespace

TEMPLATE_TEST_CASE("binary ops match the CPU reference", "[ops][host]", EW_TEST_ALL_TYPES) {
  using T = TestType;
  const auto a = interesting_values<T>();
  auto b = a;
  std::reverse(b.begin(), b.end());
  for (std::size_t i = 0; i < a.size(); ++i) {
    check_close<T>(ew::add<T>{}(a[i], b[i]), ref_add(a[i], b[i]), arith_ulps<T>(), "add");
    check_close<T>(ew::sub<T>{}(a[i], b[i]), ref_sub(a[i], b[i]), arith_ulps<T>(), "sub");
    check_close<T>(ew::mul<T>{}(a[i], b[i]), ref_mul(a[i], b[i]), arith_ulps<T>(), "mul");
  }
}

TEMPLATE_TEST_CASE("unary ops match the CPU reference", "[ops][host]", EW_TEST_ALL_TYPES) {
  using T = TestType;
  const T lo = from_double<T>(-2.5), hi = from_double<T>(3.0);
  const double alpha = std::is_integral_v<T> ? 3.0 : 1.75, beta = std::is_integral_v<T> ? -7.0 : 0.5;
  const ew::scale_bias<T> sb{static_cast<ew::compute_t<T>>(alpha), static_cast<ew::compute_t<T>>(beta)};
  for (T x : interesting_values<T>()) {
    REQUIRE(same_bits(ew::relu<T>{}(x), ref_relu(x)));
    REQUIRE(same_bits(ew::clamp<T>{lo, hi}(x), ref_clamp(x, lo, hi)));
    check_close<T>(sb(x), ref_scale_bias(x, alpha, beta), fma_ulps<T>(), "scale_bias");
  }
}

TEMPLATE_TEST_CASE("relu and clamp propagate NaN and keep signed zero", "[ops][host]", EW_TEST_FLOAT_TYPES) {
  using T = TestType;
  const T nan = from_double<T>(std::nan(""));
  REQUIRE(std::isnan(to_double(ew::relu<T>{}(nan))));
  REQUIRE(std::isnan(to_double(ew::clamp<T>{from_double<T>(-1.0), from_double<T>(1.0)}(nan))));
  REQUIRE(std::signbit(to_double(ew::relu<T>{}(from_double<T>(-0.0)))));
  REQUIRE(to_double(ew::relu<T>{}(from_double<T>(-std::numeric_limits<double>::infinity()))) == 0.0);
}

TEST_CASE("integer ops wrap instead of overflowing", "[ops][host]") {
  const std::int32_t max32 = std::numeric_limits<std::int32_t>::max();
  REQUIRE(ew::add<std::int32_t>{}(max32, 1) == std::numeric_limits<std::int32_t>::min());
  REQUIRE(ew::mul<std::int64_t>{}(std::numeric_limits<std::int64_t>::max(), 2) == -2);
  REQUIRE(ew::sub<std::int32_t>{}(std::numeric_limits<std::int32_t>::min(), 1) == max32);
  // uint16 promotes to int in C++: 65535 * 65535 would overflow int without the unsigned detour.
  REQUIRE(ew::mul<std::uint16_t>{}(65535, 65535) == 1);
}

TEST_CASE("half types compute in float and round once", "[ops][host]") {
  // 2049 is not representable in f16 (spacing 2 above 2048); 2048 + 1 rounds to even, 2048.
  const __half a = from_double<__half>(2048.0), b = from_double<__half>(1.0);
  REQUIRE(to_double(ew::add<__half>{}(a, b)) == 2048.0);
  // bf16 spacing at 1 is 2^-7; 1 + 0.75 * 2^-7 rounds once, up, to 1 + 2^-7.
  const ew::scale_bias<__nv_bfloat16> sb{1.0f, 0.005859375f};
  REQUIRE(to_double(sb(from_double<__nv_bfloat16>(1.0))) == 1.0078125);
}
