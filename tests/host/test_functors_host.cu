// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// The functor library (include/ew/ops.cuh) on the host, where its __host__ __device__ code runs with the C
// library's math functions, against independent references (tests/common/functor_reference.cuh):
// - transcendental ops against long double references, within the per-op, per-type ULP bounds stated in
//   functor_reference.cuh (every value of __half and __nv_bfloat16; a sample drawn from base_seed() plus the
//   extremes for float and double);
// - exact ops (abs, neg, min, max, relu, clamp, relu_with_grad) bit for bit;
// - the core arithmetic (add, sub, mul, scale_bias) for every element type, over random values, values from
//   the full range (tests/common/numeric_cases.cuh) and the extremes, within arith_ulps and fma_ulps;
// - arithmetic (div, fma, axpby, leaky_relu) against correctly rounded references (exact arithmetic for the
//   16-bit types, tests/common/exact16.cuh; double for float), with the bounds stated next to each;
// - the special values one by one: +-0, +-inf, NaN, thresholds, integer wrapping and corner cases, and the
//   16-bit types' single rounding from float.
// tests/gpu/test_functors_gpu.cu runs the same functors through the launcher against the same bounds.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/functor_reference.cuh"
#include "../common/numeric_cases.cuh"
#include "../common/test_utils.cuh"

using namespace ew_test;

namespace {

/// Runs `get(x)` for every x and checks it against `spec`; one CHECK per op, naming the bound, the worst
/// measured error and the first failing input.
template <class T, class Get>
void check_unary_op(const unary_spec& spec, Get get, const std::vector<T>& xs) {
  std::size_t bad = 0;
  std::string first;
  for (T x : xs) {
    const std::string msg = check_unary_value<T>(spec, x, get(x));
    if (!msg.empty() && bad++ == 0) first = msg;
  }
  INFO(spec.name << "<" << type_name<T>() << ">: stated bound " << spec_ulps<T>(spec) << " ulp"
                 << (spec.cond ? " + cond * kappa(x) * u" : "") << " over " << xs.size() << " inputs; " << bad
                 << " outside it; first: " << first);
  CHECK(bad == 0);
}

template <class T>
T nan_of() {
  return from_double<T>(std::numeric_limits<double>::quiet_NaN());
}
template <class T>
T inf_of() {
  return from_double<T>(std::numeric_limits<double>::infinity());
}
template <class T>
T val(double d) {
  return from_double<T>(d);
}
template <class T>
bool is_nan(T x) {
  return exact::is_nan(x);
}
template <class T>
bool is_neg_zero(T x) {
  const double d = to_double(x);
  return d == 0 && std::signbit(d);
}
template <class T>
bool is_pos_zero(T x) {
  const double d = to_double(x);
  return d == 0 && !std::signbit(d);
}

/// Random values and extremes for the element-type-generic ops (all types).
template <class T>
std::vector<T> mixed_values() {
  if constexpr (sizeof(T) == 1) {  // every value
    std::vector<T> all;
    for (int b = 0; b < 256; ++b) all.push_back(static_cast<T>(b));
    return all;
  }
  std::vector<T> v = random_values<T>(3000, base_seed());
  if constexpr (ew::is_floating_v<T>) {
    const double inf = std::numeric_limits<double>::infinity();
    for (double d : {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, inf, -inf, std::nan(""), 1e-3, -1e-3})
      v.push_back(val<T>(d));
    if constexpr (std::is_same_v<T, __half>) {
      for (double d : {65504.0, -65504.0, 6.103515625e-05, 5.960464477539063e-08, -5.960464477539063e-08}) {
        v.push_back(val<T>(d));
      }
    } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
      for (double d : {3.3895313892515355e38, 1.1754943508222875e-38, 9.183549615799121e-41})
        v.push_back(val<T>(d));
    } else {
      for (T x :
           {std::numeric_limits<T>::max(), std::numeric_limits<T>::lowest(), std::numeric_limits<T>::min(),
            std::numeric_limits<T>::denorm_min(), static_cast<T>(-std::numeric_limits<T>::denorm_min())}) {
        v.push_back(x);
      }
    }
  } else {
    for (T x : {T(0), T(1), T(2), T(3), T(7), static_cast<T>(-1), static_cast<T>(-2), static_cast<T>(-7),
                std::numeric_limits<T>::max(), std::numeric_limits<T>::min()}) {
      v.push_back(x);
    }
  }
  return v;
}

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
      for (double d : {65504.0, -65504.0, 6.103515625e-05, 5.960464477539063e-08})
        v.push_back(from_double<T>(d));
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
    for (T x : {T(0), T(1), T(-1), std::numeric_limits<T>::max(), std::numeric_limits<T>::min()})
      v.push_back(x);
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

// --- Transcendental ops, against long double ---------------------------------------------------------------

TEMPLATE_TEST_CASE("activations and elementary functions are within their stated ulp of long double",
                   "[functors][host]", EW_TEST_FLOAT_TYPES) {
  using T = TestType;
  INFO("seed " << base_seed());
  const std::vector<T> xs = functor_inputs<T>(60000, base_seed());
  check_unary_op<T>(spec_sigmoid, ew::sigmoid<T>{}, xs);
  check_unary_op<T>(spec_tanh, ew::tanh<T>{}, xs);
  check_unary_op<T>(spec_silu, ew::silu<T>{}, xs);
  check_unary_op<T>(spec_gelu, ew::gelu<T>{}, xs);
  check_unary_op<T>(spec_gelu_tanh, ew::gelu_tanh<T>{}, xs);
  check_unary_op<T>(spec_hardswish, ew::hardswish<T>{}, xs);
  check_unary_op<T>(spec_hardsigmoid, ew::hardsigmoid<T>{}, xs);
  check_unary_op<T>(spec_softplus, ew::softplus<T>{}, xs);
  check_unary_op<T>(spec_exp, ew::exp<T>{}, xs);
  check_unary_op<T>(spec_log, ew::log<T>{}, xs);
  check_unary_op<T>(
      spec_sin, [](T x) { return cuda::std::get<0>(ew::sincos<T>{}(x)); }, xs);
  check_unary_op<T>(
      spec_cos, [](T x) { return cuda::std::get<1>(ew::sincos<T>{}(x)); }, xs);
  check_unary_op<T>(
      spec_sigmoid_val, [](T x) { return cuda::std::get<0>(ew::sigmoid_with_grad<T>{}(x)); }, xs);
  check_unary_op<T>(
      spec_sigmoid_grad, [](T x) { return cuda::std::get<1>(ew::sigmoid_with_grad<T>{}(x)); }, xs);
  check_unary_op<T>(spec_leaky_relu<T>(), ew::leaky_relu<T>{}, xs);
  check_unary_op<T>(spec_abs, ew::abs<T>{}, xs);
  check_unary_op<T>(spec_neg, ew::neg<T>{}, xs);
}

TEMPLATE_TEST_CASE("every floating op gives NaN for NaN", "[functors][host]", EW_TEST_FLOAT_TYPES) {
  using T = TestType;
  const T nan = nan_of<T>(), one = val<T>(1.0);
  CHECK(is_nan(ew::relu<T>{}(nan)));
  CHECK(is_nan(ew::leaky_relu<T>{}(nan)));
  CHECK(is_nan(ew::clamp<T>{val<T>(-1.0), one}(nan)));
  CHECK(is_nan(ew::scale_bias<T>{2, 1}(nan)));
  CHECK(is_nan(ew::sigmoid<T>{}(nan)));
  CHECK(is_nan(ew::tanh<T>{}(nan)));
  CHECK(is_nan(ew::silu<T>{}(nan)));
  CHECK(is_nan(ew::gelu<T>{}(nan)));
  CHECK(is_nan(ew::gelu_tanh<T>{}(nan)));
  CHECK(is_nan(ew::hardswish<T>{}(nan)));
  CHECK(is_nan(ew::hardsigmoid<T>{}(nan)));
  CHECK(is_nan(ew::softplus<T>{}(nan)));
  CHECK(is_nan(ew::exp<T>{}(nan)));
  CHECK(is_nan(ew::log<T>{}(nan)));
  CHECK(is_nan(ew::abs<T>{}(nan)));
  CHECK(is_nan(ew::neg<T>{}(nan)));
  CHECK(is_nan(cuda::std::get<0>(ew::sincos<T>{}(nan))));
  CHECK(is_nan(cuda::std::get<1>(ew::sincos<T>{}(nan))));
  CHECK(is_nan(cuda::std::get<0>(ew::relu_with_grad<T>{}(nan))));
  CHECK(is_nan(cuda::std::get<0>(ew::sigmoid_with_grad<T>{}(nan))));
  CHECK(is_nan(cuda::std::get<1>(ew::sigmoid_with_grad<T>{}(nan))));
  for (T other : {one, val<T>(-1.0), val<T>(0.0), inf_of<T>(), val<T>(-INFINITY), nan}) {
    INFO("other operand " << to_double(other));
    CHECK(is_nan(ew::min<T>{}(nan, other)));
    CHECK(is_nan(ew::min<T>{}(other, nan)));
    CHECK(is_nan(ew::max<T>{}(nan, other)));
    CHECK(is_nan(ew::max<T>{}(other, nan)));
    CHECK(is_nan(ew::add<T>{}(nan, other)));
    CHECK(is_nan(ew::div<T>{}(other, nan)));
    CHECK(is_nan(ew::fma<T>{}(nan, other, one)));
    CHECK(is_nan(ew::fma<T>{}(one, other, nan)));
    CHECK(is_nan(ew::axpby<T>{2, 3}(nan, other)));
    CHECK(is_nan(ew::axpby<T>{2, 3}(other, nan)));
  }
}

TEMPLATE_TEST_CASE("signed zeros, infinities and limits", "[functors][host]", EW_TEST_FLOAT_TYPES) {
  using T = TestType;
  const T pz = val<T>(0.0), nz = val<T>(-0.0), pinf = inf_of<T>(), ninf = val<T>(-INFINITY);
  // Odd functions keep the sign of zero.
  CHECK(is_neg_zero(ew::tanh<T>{}(nz)));
  CHECK(is_neg_zero(ew::silu<T>{}(nz)));
  CHECK(is_neg_zero(ew::gelu<T>{}(nz)));
  CHECK(is_neg_zero(ew::gelu_tanh<T>{}(nz)));
  CHECK(is_neg_zero(ew::hardswish<T>{}(nz)));
  CHECK(is_neg_zero(ew::leaky_relu<T>{}(nz)));
  CHECK(is_neg_zero(ew::relu<T>{}(nz)));
  CHECK(is_neg_zero(cuda::std::get<0>(ew::sincos<T>{}(nz))));
  CHECK(is_pos_zero(ew::abs<T>{}(nz)));
  CHECK(is_neg_zero(ew::neg<T>{}(pz)));
  CHECK(is_pos_zero(ew::neg<T>{}(nz)));
  CHECK(to_double(ew::sigmoid<T>{}(nz)) == 0.5);
  CHECK(to_double(ew::sigmoid<T>{}(pz)) == 0.5);
  CHECK(to_double(ew::hardsigmoid<T>{}(nz)) == 0.5);
  CHECK(to_double(ew::exp<T>{}(nz)) == 1.0);
  CHECK(to_double(ew::log<T>{}(pz)) == -INFINITY);
  CHECK(to_double(ew::log<T>{}(nz)) == -INFINITY);
  CHECK(is_nan(ew::log<T>{}(val<T>(-1.0))));
  CHECK(to_double(cuda::std::get<1>(ew::sincos<T>{}(nz))) == 1.0);
  // min / max order the zeros: -0 < +0, whichever side they come from.
  CHECK(is_neg_zero(ew::min<T>{}(pz, nz)));
  CHECK(is_neg_zero(ew::min<T>{}(nz, pz)));
  CHECK(is_pos_zero(ew::max<T>{}(pz, nz)));
  CHECK(is_pos_zero(ew::max<T>{}(nz, pz)));
  CHECK(is_neg_zero(ew::max<T>{}(nz, nz)));
  CHECK(is_pos_zero(ew::min<T>{}(pz, pz)));
  // +inf.
  CHECK(to_double(ew::sigmoid<T>{}(pinf)) == 1.0);
  CHECK(to_double(ew::tanh<T>{}(pinf)) == 1.0);
  CHECK(to_double(ew::silu<T>{}(pinf)) == INFINITY);
  CHECK(to_double(ew::gelu<T>{}(pinf)) == INFINITY);
  CHECK(to_double(ew::gelu_tanh<T>{}(pinf)) == INFINITY);
  CHECK(to_double(ew::hardswish<T>{}(pinf)) == INFINITY);
  CHECK(to_double(ew::hardsigmoid<T>{}(pinf)) == 1.0);
  CHECK(to_double(ew::softplus<T>{}(pinf)) == INFINITY);
  CHECK(to_double(ew::exp<T>{}(pinf)) == INFINITY);
  CHECK(to_double(ew::log<T>{}(pinf)) == INFINITY);
  CHECK(to_double(ew::relu<T>{}(pinf)) == INFINITY);
  CHECK(to_double(ew::leaky_relu<T>{}(pinf)) == INFINITY);
  CHECK(is_nan(cuda::std::get<0>(ew::sincos<T>{}(pinf))));
  CHECK(to_double(cuda::std::get<1>(ew::sigmoid_with_grad<T>{}(pinf))) == 0.0);
  // -inf: the limits, never -inf * 0 = NaN.
  CHECK(to_double(ew::sigmoid<T>{}(ninf)) == 0.0);
  CHECK(to_double(ew::tanh<T>{}(ninf)) == -1.0);
  CHECK(to_double(ew::silu<T>{}(ninf)) == 0.0);
  CHECK(to_double(ew::gelu<T>{}(ninf)) == 0.0);
  CHECK(to_double(ew::gelu_tanh<T>{}(ninf)) == 0.0);
  CHECK(to_double(ew::hardswish<T>{}(ninf)) == 0.0);
  CHECK(to_double(ew::hardsigmoid<T>{}(ninf)) == 0.0);
  CHECK(to_double(ew::softplus<T>{}(ninf)) == 0.0);
  CHECK(to_double(ew::exp<T>{}(ninf)) == 0.0);
  CHECK(to_double(ew::relu<T>{}(ninf)) == 0.0);
  CHECK(to_double(ew::leaky_relu<T>{}(ninf)) == -INFINITY);
  CHECK(to_double(cuda::std::get<1>(ew::sigmoid_with_grad<T>{}(ninf))) == 0.0);
  // hardswish / hardsigmoid switch exactly at +-3.
  CHECK(to_double(ew::hardswish<T>{}(val<T>(3.0))) == 3.0);
  CHECK(to_double(ew::hardswish<T>{}(val<T>(-3.0))) == 0.0);
  CHECK(to_double(ew::hardsigmoid<T>{}(val<T>(3.0))) == 1.0);
  CHECK(to_double(ew::hardsigmoid<T>{}(val<T>(-3.0))) == 0.0);
  // Largest finite input: the linear-for-large-x activations return it, they do not overflow.
  const T big = val<T>(std::is_same_v<T, __half> ? 65504.0 : (std::is_same_v<T, double> ? 1.0e300 : 3.0e38));
  CHECK(same_bits(ew::gelu<T>{}(big), big));
  CHECK(same_bits(ew::gelu_tanh<T>{}(big), big));
  CHECK(same_bits(ew::silu<T>{}(big), big));
  CHECK(same_bits(ew::softplus<T>{}(big), big));
  CHECK(same_bits(ew::hardswish<T>{}(big), big));
}

TEST_CASE("gelu keeps its relative accuracy in the negative tail, where 1 + erf cancels",
          "[functors][host]") {
  // The textbook 0.5 x (1 + erf(x / sqrt 2)) in float is 0 below about x = -5.5 and has no correct digit
  // near it; ew computes erfc(-x / sqrt 2) with a compensated argument. Bound: spec_gelu (10 ulp).
  for (float x : {-4.0f, -5.0f, -5.5f, -6.0f, -8.0f, -10.0f, -12.0f, -13.0f}) {
    const std::string msg = check_unary_value<float>(spec_gelu, x, ew::gelu<float>{}(x));
    INFO(msg);
    CHECK(msg.empty());
    CHECK(ew::gelu<float>{}(x) < 0.0f);
  }
  const float textbook = 0.5f * -6.0f * (1.0f + std::erf(-6.0f * 0.70710678f));
  CHECK(textbook == 0.0f);  // what the cancellation does: gelu(-6) is about -5.9e-9
}

TEMPLATE_TEST_CASE("softplus follows PyTorch's beta and threshold", "[functors][host]", float, double) {
  using T = TestType;
  const ew::softplus<T> sp{};  // beta 1, threshold 20
  // Above the threshold: x itself, bit for bit (log1p(exp(x)) would differ by up to 2e-9 in double).
  for (T x : {T(20.5), T(21), T(100), T(1e30)}) CHECK(same_bits(sp(x), x));
  // At the threshold (not above it): log1p(exp(20)) = 20 + 2.06e-9.
  const T at = sp(T(20));
  if constexpr (std::is_same_v<T, double>) {
    CHECK(at > 20.0);
    CHECK(std::fabs(at - (20.0 + 2.0611536181902037e-09)) < 1e-14);
  } else {
    CHECK(at == 20.0f);
  }
  // beta = 2, threshold = 20: x > 10 is linear, below log1p(exp(2x)) / 2.
  const ew::softplus<T> sp2{2, 20};
  CHECK(same_bits(sp2(T(10.5)), T(10.5)));
  const long double x = 3;
  const long double want = std::log1p(std::exp(2 * x)) / 2;
  CHECK(ulp_distance<T>(sp2(T(3)), static_cast<T>(want)) <= 4);
  // The small-x end: log1p keeps softplus(x) ~ e^x accurate.
  const std::string msg = check_unary_value<T>(spec_softplus, T(-30), sp(T(-30)));
  INFO(msg);
  CHECK(msg.empty());
}

// --- Core arithmetic: add, sub, mul, relu, clamp and scale_bias --------------------------------------------

TEMPLATE_TEST_CASE("add, sub and mul match the CPU reference", "[functors][host]", EW_TEST_ALL_TYPES) {
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

TEMPLATE_TEST_CASE("relu and clamp are exact and scale_bias matches the CPU reference", "[functors][host]",
                   EW_TEST_ALL_TYPES) {
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

TEST_CASE("integer ops wrap instead of overflowing", "[functors][host]") {
  const std::int32_t max32 = std::numeric_limits<std::int32_t>::max();
  REQUIRE(ew::add<std::int32_t>{}(max32, 1) == std::numeric_limits<std::int32_t>::min());
  REQUIRE(ew::mul<std::int64_t>{}(std::numeric_limits<std::int64_t>::max(), 2) == -2);
  REQUIRE(ew::sub<std::int32_t>{}(std::numeric_limits<std::int32_t>::min(), 1) == max32);
  // uint16 promotes to int in C++: 65535 * 65535 would overflow int without the unsigned detour.
  REQUIRE(ew::mul<std::uint16_t>{}(65535, 65535) == 1);
}

TEST_CASE("half types compute in float and round once", "[functors][host]") {
  // 2049 is not representable in f16 (spacing 2 above 2048); 2048 + 1 rounds to even, 2048.
  const __half a = from_double<__half>(2048.0), b = from_double<__half>(1.0);
  REQUIRE(to_double(ew::add<__half>{}(a, b)) == 2048.0);
  // bf16 spacing at 1 is 2^-7; 1 + 0.75 * 2^-7 rounds once, up, to 1 + 2^-7.
  const ew::scale_bias<__nv_bfloat16> sb{1.0f, 0.005859375f};
  REQUIRE(to_double(sb(from_double<__nv_bfloat16>(1.0))) == 1.0078125);
}

// --- Arithmetic ops ----------------------------------------------------------------------------------------

TEMPLATE_TEST_CASE("min, max, abs, neg, relu and relu_with_grad are exact", "[functors][host]",
                   EW_TEST_ALL_TYPES, std::int8_t, std::uint8_t) {
  using T = TestType;
  const std::vector<T> a = mixed_values<T>();
  std::vector<T> b(a.rbegin(), a.rend());
  for (std::size_t i = 0; i < a.size(); ++i) {
    INFO(type_name<T>() << " a=" << to_double(a[i]) << " b=" << to_double(b[i]));
    CHECK(same_value(ew::max<T>{}(a[i], b[i]), ref_maximum(a[i], b[i])));
    CHECK(same_value(ew::min<T>{}(a[i], b[i]), ref_minimum(a[i], b[i])));
    CHECK(same_value(ew::max<T>{}(a[i], a[i]), a[i]));
    CHECK(same_value(ew::relu<T>{}(a[i]), ref_relu(a[i])));
    const auto rg = ew::relu_with_grad<T>{}(a[i]);
    CHECK(same_value(cuda::std::get<0>(rg), ref_relu(a[i])));
    CHECK(to_double(cuda::std::get<1>(rg)) == (to_double(a[i]) > 0 ? 1.0 : 0.0));
    if constexpr (ew::is_floating_v<T>) {
      const double d = to_double(a[i]);
      CHECK(same_value(ew::abs<T>{}(a[i]), from_double<T>(std::fabs(d))));
      CHECK(same_value(ew::neg<T>{}(a[i]), from_double<T>(-d)));
    } else if constexpr (std::is_signed_v<T>) {
      // Wrapping: |MIN| == MIN and -MIN == MIN.
      const T want_abs =
          a[i] == std::numeric_limits<T>::min() ? a[i] : static_cast<T>(a[i] < 0 ? -a[i] : a[i]);
      CHECK(ew::abs<T>{}(a[i]) == want_abs);
      const T want_neg = a[i] == std::numeric_limits<T>::min() ? a[i] : static_cast<T>(-a[i]);
      CHECK(ew::neg<T>{}(a[i]) == want_neg);
    } else {
      CHECK(ew::abs<T>{}(a[i]) == a[i]);
      CHECK(ew::neg<T>{}(a[i]) == static_cast<T>(0u - static_cast<unsigned>(a[i])));
    }
  }
}

TEMPLATE_TEST_CASE("floating div, fma and leaky_relu against correctly rounded references",
                   "[functors][host]", EW_TEST_FLOAT_TYPES) {
  using T = TestType;
  const std::vector<T> a = mixed_values<T>();
  std::vector<T> b(a.rbegin(), a.rend());
  std::vector<T> c = random_values<T>(a.size(), base_seed() + 3);
  // div: correctly rounded for every type, 0 ulp (arith_ulps; reference.cuh says why the 16-bit types' float
  // quotient rounded again is too); ref_div is exact16's for the 16-bit types, double's for float.
  // fma: one rounding. 16-bit types: the exact a*b + c rounded once (exact16.cuh), 0 ulp. double: std::fma,
  // 0 ulp. float: the double a*b + c (exact product, rounded sum) rounded again, fma_ulps = 1.
  // leaky_relu: x or slope * x. float and double: one rounding, against the product rounded once: 0 ulp.
  // 16-bit types: 1 ulp, leaky_ulps: the float product of x and the 24-bit float slope is rounded in float
  // and again to T.
  const ew::leaky_relu<T> leaky{};
  const ew::leaky_relu<T> leaky2{0.2f};
  constexpr std::uint64_t leaky_ulps = ew::is_half_precision_v<T> ? 1 : 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double x = to_double(a[i]), y = to_double(b[i]), z = to_double(c[i]);
    INFO(type_name<T>() << " a=" << x << " b=" << y << " c=" << z);
    CHECK(ulp_distance<T>(ew::div<T>{}(a[i], b[i]), ref_div(a[i], b[i])) <= arith_ulps<T>());
    T want_fma;
    if constexpr (exact::is_16_v<T>) {
      want_fma = exact::fma(a[i], b[i], c[i]);
    } else if constexpr (std::is_same_v<T, double>) {
      want_fma = std::fma(x, y, z);
    } else {
      want_fma = static_cast<T>(x * y + z);
    }
    CHECK(ulp_distance<T>(ew::fma<T>{}(a[i], b[i], c[i]), want_fma) <= fma_ulps<T>());
    // x * slope rounded once to T: for double the IEEE product itself; for the others the product is exact in
    // long double (a float or 16-bit x times a float slope: at most 48 bits), then rounded once.
    auto leaky_ref = [&](double slope) {
      if constexpr (std::is_same_v<T, double>)
        return x > 0 ? x : x * slope;
      else
        return round_to<T>(x > 0 ? to_ld(a[i]) : to_ld(a[i]) * static_cast<ldouble>(slope));
    };
    CHECK(ulp_distance<T>(leaky(a[i]), leaky_ref(static_cast<double>(leaky.slope))) <= leaky_ulps);
    CHECK(ulp_distance<T>(leaky2(a[i]), leaky_ref(static_cast<double>(leaky2.slope))) <= leaky_ulps);
  }
  CHECK(to_double(ew::div<T>{}(val<T>(1.0), val<T>(0.0))) == INFINITY);
  CHECK(to_double(ew::div<T>{}(val<T>(-1.0), val<T>(0.0))) == -INFINITY);
  CHECK(is_nan(ew::div<T>{}(val<T>(0.0), val<T>(0.0))));
  CHECK(to_double(leaky(val<T>(-2.0))) == to_double(val<T>(-2.0 * static_cast<double>(leaky.slope))));
}

TEMPLATE_TEST_CASE(
    "axpby is within two roundings of alpha x + beta y (16-bit types: one; integers: wrapping)",
    "[functors][host]", EW_TEST_ALL_TYPES) {
  using T = TestType;
  const std::vector<T> x = mixed_values<T>();
  std::vector<T> y(x.rbegin(), x.rend());
  using C = ew::compute_t<T>;
  const double alpha = std::is_integral_v<T> ? 3.0 : 1.75, beta = std::is_integral_v<T> ? -5.0 : -0.625;
  const ew::axpby<T> op{static_cast<C>(alpha), static_cast<C>(beta)};
  for (std::size_t i = 0; i < x.size(); ++i) {
    const T got = op(x[i], y[i]);
    INFO(type_name<T>() << " x=" << to_double(x[i]) << " y=" << to_double(y[i]) << " got " << to_double(got));
    CHECK(axpby_within_bound<T>(alpha, beta, x[i], y[i], got));
  }
}

TEMPLATE_TEST_CASE("integer div truncates, gives 0 for x / 0 and wraps MIN / -1", "[functors][host]",
                   std::int32_t, std::int64_t, std::int8_t, std::uint8_t, std::uint32_t) {
  using T = TestType;
  const ew::div<T> div{};
  const std::vector<T> a = mixed_values<T>();
  std::vector<T> b(a.rbegin(), a.rend());
  for (std::size_t i = 0; i < a.size(); ++i) {
    INFO(type_name<T>() << " " << +a[i] << " / " << +b[i]);
    CHECK(div(a[i], b[i]) == ref_int_div(a[i], b[i]));
    CHECK(div(a[i], T(0)) == T(0));
  }
  CHECK(div(T(7), T(2)) == T(3));
  CHECK(div(T(0), T(0)) == T(0));
  if constexpr (std::is_signed_v<T>) {
    CHECK(div(T(-7), T(2)) == T(-3));  // toward zero, not floor
    CHECK(div(T(7), T(-2)) == T(-3));
    CHECK(div(std::numeric_limits<T>::min(), T(-1)) == std::numeric_limits<T>::min());
    CHECK(div(std::numeric_limits<T>::max(), T(-1)) == static_cast<T>(-std::numeric_limits<T>::max()));
  }
}

TEMPLATE_TEST_CASE("integer fma wraps", "[functors][host]", std::int32_t, std::int64_t, std::uint16_t) {
  using T = TestType;
  const ew::fma<T> fma{};
  CHECK(fma(T(3), T(4), T(5)) == T(17));
  CHECK(fma(std::numeric_limits<T>::max(), T(2), T(2)) == T(0));  // 2 MAX + 2 == 2^bits
  if constexpr (std::is_same_v<T, std::uint16_t>) CHECK(fma(T(65535), T(65535), T(1)) == T(2));
}

// --- cast --------------------------------------------------------------------------------------------------

namespace {
/// f32 -> bf16 rounded to nearest even, from the bits.
std::uint16_t ref_bf16_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  if (std::isnan(f)) return static_cast<std::uint16_t>((u >> 16) | 0x40);
  const std::uint32_t lsb = (u >> 16) & 1u;
  return static_cast<std::uint16_t>((u + 0x7FFFu + lsb) >> 16);
}
std::uint16_t bits16(__nv_bfloat16 x) {
  std::uint16_t u;
  std::memcpy(&u, &x, 2);
  return u;
}
}  // namespace

TEST_CASE("cast converts between element types with one rounding", "[functors][host]") {
  // bf16 -> f32 is exact and back is the identity, for every bf16 value (NaN stays NaN).
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const std::uint16_t u = static_cast<std::uint16_t>(b);
    const __nv_bfloat16 x = from_bits16<__nv_bfloat16>(u);
    const float f = ew::cast<float>{}(x);
    std::uint32_t fu;
    std::memcpy(&fu, &f, 4);
    if (std::isnan(f)) {
      CHECK(is_nan(ew::cast<__nv_bfloat16>{}(f)));
      continue;
    }
    INFO("bf16 bits " << b);
    CHECK(fu == static_cast<std::uint32_t>(u) << 16);
    CHECK(bits16(ew::cast<__nv_bfloat16>{}(f)) == u);
  }
  // f32 -> bf16 rounds to nearest, ties to even.
  std::mt19937 rng(static_cast<std::uint32_t>(base_seed()));
  for (int i = 0; i < 100000; ++i) {
    std::uint32_t u = rng();
    float f;
    std::memcpy(&f, &u, 4);
    if (std::isnan(f)) continue;
    INFO("f32 bits " << u);
    CHECK(bits16(ew::cast<__nv_bfloat16>{}(f)) == ref_bf16_bits(f));
  }
  CHECK(to_double(ew::cast<__nv_bfloat16>{}(1.0f + 0x1p-8f)) == 1.0);                   // tie, to even
  CHECK(to_double(ew::cast<__nv_bfloat16>{}(1.0f + 0x1p-8f + 0x1p-20f)) == 1.0078125);  // above the tie
  // f16 round trip through float for every finite f16.
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const __half h = from_bits16<__half>(static_cast<std::uint16_t>(b));
    const float f = ew::cast<float>{}(h);
    if (std::isnan(f)) continue;
    CHECK(same_bits(ew::cast<__half>{}(f), h));
  }
  // double -> f16 rounds once (not through float): 1 + 2^-11 + 2^-40 is above the f16 tie at 1 + 2^-11.
  CHECK(to_double(ew::cast<__half>{}(1.0 + 0x1p-11 + 0x1p-40)) == 1.0 + 0x1p-10);
  // Integers and floats.
  CHECK(ew::cast<float>{}(std::int32_t{16777217}) == 16777216.0f);
  CHECK(ew::cast<std::int32_t>{}(2.75f) == 2);
  CHECK(ew::cast<std::int32_t>{}(-2.75f) == -2);
  // Floating -> integer saturates (NaN gives 0) and integer -> bf16 rounds once from the exact integer: every
  // case in tests/host/test_numeric_host.cu.
  CHECK(ew::cast<std::int8_t>{}(300.0f) == 127);
  CHECK(ew::cast<std::int32_t>{}(std::numeric_limits<float>::quiet_NaN()) == 0);
  CHECK(to_double(ew::cast<__nv_bfloat16>{}(16842753)) == 16908288.0);
  CHECK(ew::cast<std::int64_t>{}(ew::convert<__nv_bfloat16>(-3.0)) == -3);
  CHECK(ew::cast<double>{}(std::int64_t{1} << 53) == 9007199254740992.0);
  // Any input type: the call operator is a template.
  STATIC_REQUIRE(std::is_same_v<decltype(ew::cast<float>{}(std::declval<__half>())), float>);
  STATIC_REQUIRE(std::is_same_v<decltype(ew::cast<__nv_bfloat16>{}(std::declval<double>())), __nv_bfloat16>);
}

TEST_CASE("ops that need a floating type say so for integers", "[functors][host]") {
  // Compile-time: the integer-capable ops instantiate for integers (the floating-only ones are rejected
  // by a static_assert, which tests/compile_fail/functor_integer.cu checks).
  STATIC_REQUIRE(std::is_same_v<decltype(ew::abs<int>{}(1)), int>);
  STATIC_REQUIRE(std::is_same_v<decltype(ew::div<std::int64_t>{}(1, 1)), std::int64_t>);
  STATIC_REQUIRE(std::is_same_v<decltype(ew::max<std::uint8_t>{}(1, 1)), std::uint8_t>);
  STATIC_REQUIRE(std::is_same_v<decltype(ew::relu_with_grad<int>{}(1)), cuda::std::tuple<int, int>>);
  CHECK(cuda::std::get<1>(ew::relu_with_grad<int>{}(5)) == 1);
  CHECK(cuda::std::get<1>(ew::relu_with_grad<int>{}(0)) == 0);
}
