// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// ew::compose on the host: the order convention (left to right, compose(f, g, h)(x) == h(g(f(x)))), a
// first stage with several inputs, stateful stages carried by value, tuple results for several outputs,
// rounding between stages, and the type-level properties the launcher relies on (trivially copyable,
// callable only with what the first stage takes). tests/compile_fail/compose_wrong_stage.cu checks that a
// broken chain does not compile; tests/gpu/test_fusion_gpu.cu runs composed functors through the launcher.

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/test_utils.cuh"

namespace {

/// Appends a digit: a chain of these spells out the order its stages ran in.
template <int Digit>
struct append {
  EW_HD constexpr long long operator()(long long x) const { return x * 10 + Digit; }
};

/// A stateful stage that is not an ew op: adds its member.
struct add_k {
  float k;
  EW_HD float operator()(float x) const { return x + k; }
};

/// Subtracts 1025 in float.
struct minus_1025 {
  EW_HD float operator()(float v) const { return v - 1025.f; }
};

/// A first stage of three inputs, returning another type.
struct sum3_to_double {
  EW_HD double operator()(float a, int b, __half c) const {
    return static_cast<double>(a) + b + static_cast<double>(__half2float(c));
  }
};

}  // namespace

TEST_CASE("compose runs its stages left to right", "[compose][host]") {
  // compose(f, g, h)(x) == h(g(f(x))): the data flows in the order the stages are written.
  const auto c = ew::compose(append<1>{}, append<2>{}, append<3>{});
  CHECK(c(0LL) == 123);
  CHECK(ew::compose(append<3>{}, append<2>{}, append<1>{})(0LL) == 321);
  // The same with ew ops that do not commute: (2x) + 1 against 2 (x + 1).
  const ew::scale_bias<float> times2{2.f, 0.f}, plus1{1.f, 1.f};
  CHECK(ew::compose(times2, plus1)(3.f) == 7.f);
  CHECK(ew::compose(plus1, times2)(3.f) == 8.f);
  // One stage is the stage itself.
  CHECK(ew::compose(append<7>{})(4LL) == 47);
  // Nesting associates: compose(compose(f, g), h) == compose(f, compose(g, h)) == compose(f, g, h).
  CHECK(ew::compose(ew::compose(append<1>{}, append<2>{}), append<3>{})(0LL) == 123);
  CHECK(ew::compose(append<1>{}, ew::compose(append<2>{}, append<3>{}))(0LL) == 123);
}

TEST_CASE("the first stage may take several inputs, later stages take one", "[compose][host]") {
  // Residual add then ReLU: relu(a + b).
  const auto residual = ew::compose(ew::add<float>{}, ew::relu<float>{});
  CHECK(residual(1.5f, 2.f) == 3.5f);
  CHECK(residual(1.5f, -2.f) == 0.f);
  // Scale, shift and activation: act(alpha * x + beta) for two tensors is axpby then the activation.
  const auto act = ew::compose(ew::axpby<float>{2.f, -1.f}, ew::sigmoid<float>{});
  CHECK(act(1.f, 2.f) == ew::sigmoid<float>{}(0.f));
  // Three inputs of three types; the result type follows the last stage.
  const auto c3 = ew::compose(sum3_to_double{}, [](double s) { return s * 2; });
  CHECK(c3(1.f, 2, __float2half(0.5f)) == 7.0);
  STATIC_REQUIRE(std::is_same_v<decltype(c3(1.f, 2, __half())), double>);
  // fma as a first stage: relu(a * b + c).
  CHECK(ew::compose(ew::fma<float>{}, ew::relu<float>{})(2.f, 3.f, -7.f) == 0.f);
  CHECK(ew::compose(ew::fma<float>{}, ew::relu<float>{})(2.f, 3.f, 1.f) == 7.f);
}

TEST_CASE("stateful stages are carried by value", "[compose][host]") {
  add_k k{1.f};
  ew::clamp<float> cl{0.f, 6.f};
  const auto c = ew::compose(ew::scale_bias<float>{2.f, 1.f}, k, cl);  // clamp(2x + 1 + 1, 0, 6)
  k.k = 100.f;  // the composed functor holds its own copies
  cl.hi = 1000.f;
  CHECK(c(1.f) == 4.f);
  CHECK(c(10.f) == 6.f);
  CHECK(c(-10.f) == 0.f);
  auto copy = c;  // and copies carry the state
  CHECK(copy(1.f) == 4.f);
  // The state is stored, nothing else: empty stages take no space.
  STATIC_REQUIRE(sizeof(ew::compose(ew::add<float>{}, ew::relu<float>{})) == 1);
  STATIC_REQUIRE(sizeof(c) == sizeof(ew::scale_bias<float>) + sizeof(add_k) + sizeof(ew::clamp<float>));
}

TEST_CASE("normalisation pre/post with scalars: (x - mean) * inv_std * gamma + beta", "[compose][host]") {
  const float mean = 0.75f, inv_std = 1.f / 3.f, gamma = 1.5f, beta = -0.25f;
  // As the unfused sequence: subtract, multiply, multiply-add (each stage rounds as the separate op would).
  const auto staged = ew::compose(ew::scale_bias<float>{1.f, -mean}, ew::scale_bias<float>{inv_std, 0.f},
                                  ew::scale_bias<float>{gamma, beta});
  // Folded into two scale_bias stages: fewer roundings, the same value within 2 ulp.
  const auto folded =
      ew::compose(ew::scale_bias<float>{inv_std, -mean * inv_std}, ew::scale_bias<float>{gamma, beta});
  for (float x : ew_test::random_values<float>(1000, ew_test::base_seed())) {
    float t = x - mean;
    t = t * inv_std;
    t = std::fmaf(t, gamma, beta);
    INFO("x = " << x);
    CHECK(staged(x) == t);
    const double want = (static_cast<double>(x) - mean) * inv_std * gamma + beta;
    // Three roundings of terms up to |x inv_std gamma| + |beta| in size.
    CHECK(std::fabs(folded(x) - want) <= 4 * std::numeric_limits<float>::epsilon() * (std::fabs(want) + 4));
  }
}

TEST_CASE("the last stage may return a tuple, for several outputs", "[compose][host]") {
  const auto c = ew::compose(ew::add<float>{}, ew::relu_with_grad<float>{});
  const cuda::std::tuple<float, float> pos = c(1.f, 2.f), neg = c(1.f, -2.f);
  CHECK(cuda::std::get<0>(pos) == 3.f);
  CHECK(cuda::std::get<1>(pos) == 1.f);
  CHECK(cuda::std::get<0>(neg) == 0.f);
  CHECK(cuda::std::get<1>(neg) == 0.f);
  // The launcher sees a two-output op.
  using r = ew::detail::op_result<decltype(c), cuda::std::tuple<const float*, const float*>>::type;
  STATIC_REQUIRE(ew::detail::result_fits_outputs<r, float, __half>());
}

TEST_CASE("each stage rounds to its own type; cast<float> keeps a 16-bit chain in float", "[compose][host]") {
  // 3 x then - 1025, for x = 1025: 3075 is a tie in f16 (spacing 2 above 2048) and rounds to even, 3076,
  // so the chain that rounds to __half between stages gives 2051; kept in float it is exactly 2050, which f16
  // holds, so the launcher's one rounding to __half keeps it.
  const __half x = __float2half(1025.f);
  STATIC_REQUIRE(
      std::is_same_v<decltype(ew::compose(ew::scale_bias<__half>{3.f, 0.f}, ew::cast<float>{})(x)), float>);
  const float rounded_between =
      ew::compose(ew::scale_bias<__half>{3.f, 0.f}, ew::cast<float>{}, minus_1025{})(x);
  const float kept_in_float =
      ew::compose(ew::cast<float>{}, ew::scale_bias<float>{3.f, 0.f}, minus_1025{})(x);
  CHECK(rounded_between == 2051.f);
  CHECK(kept_in_float == 2050.f);
  CHECK(__half2float(ew::convert<__half>(kept_in_float)) == 2050.f);
}

TEST_CASE("composed functors are what the launcher needs", "[compose][host]") {
  const auto residual = ew::compose(ew::add<float>{}, ew::relu<float>{});
  using R = decltype(residual);
  // Passed to the kernel by value.
  STATIC_REQUIRE(std::is_trivially_copyable_v<R>);
  STATIC_REQUIRE(
      std::is_trivially_copyable_v<decltype(ew::compose(ew::scale_bias<float>{}, ew::clamp<float>{}))>);
  // Callable exactly when the first stage is: a wrong number of inputs is the launcher's error, not a
  // compose error, and SFINAE sees it.
  STATIC_REQUIRE(std::is_invocable_r_v<float, const R&, float, float>);
  STATIC_REQUIRE(!std::is_invocable_v<const R&, float>);
  STATIC_REQUIRE(!std::is_invocable_v<const R&, float, float, float>);
  STATIC_REQUIRE(std::is_same_v<ew::detail::op_result<R, cuda::std::tuple<const float*>>::type, void>);
  STATIC_REQUIRE(
      std::is_same_v<ew::detail::op_result<R, cuda::std::tuple<const float*, const float*>>::type, float>);
  // The whole launch path instantiates (both kernels): one multi-input composed op, one two-output.
  CHECK(&ew::elementwise<R, ew::vec_auto, float*, ew::inputs<const float*, const float*>> != nullptr);
  using sig2 = decltype(ew::compose(ew::cast<float>{}, ew::sigmoid_with_grad<float>{}));
  CHECK(&ew::elementwise<sig2, ew::vec_auto, ew::outputs<__half*, float*>, const __half*> != nullptr);
  // compose is usable in constant expressions for literal stages.
  constexpr auto c = ew::compose(append<4>{}, append<2>{});
  STATIC_REQUIRE(c(0LL) == 42);
}
