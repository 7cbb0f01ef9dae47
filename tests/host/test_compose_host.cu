// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// ew::compose on the host: the order convention (left to right, compose(f, g, h)(x) == h(g(f(x)))), a
// first stage with several inputs, stateful stages carried by value, tuple results for several outputs,
// 16-bit and FP8 chains computed in float and rounded once (and `ew::compose_per_stage`, which rounds
// between stages), and the type-level properties the launcher relies on (trivially copyable,
// callable only with what the first stage takes). tests/compile_fail/compose_wrong_stage.cu checks that a
// broken chain does not compile; tests/gpu/test_fusion_gpu.cu runs composed functors through the launcher.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

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

TEST_CASE("a stage that is not an ew op of a 16-bit type takes the value rounded to the type before it",
          "[compose][host]") {
  // 3 x then - 1025, for x = 1025: 3075 is a tie in f16 (spacing 2 above 2048) and rounds to even, 3076.
  // ew::cast<float> is not computed in float by the chain: it takes scale_bias's result rounded to __half,
  // so the chain gives 2051; started with cast<float> and float stages it is exactly 2050, which f16 holds.
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

namespace {

/// Takes a `__half` as it is: shows what the chain handed it.
struct half_as_float {
  EW_HD float operator()(__half h) const { return __half2float(h); }
};

/// Every value of a 16-bit or FP8 type `T`, from its bits.
template <class T>
std::vector<T> every_value() {
  std::vector<T> v(std::size_t{1} << (8 * sizeof(T)));
  for (std::size_t i = 0; i < v.size(); ++i) {
    if constexpr (sizeof(T) == 2) {
      const auto bits = static_cast<std::uint16_t>(i);
      std::memcpy(static_cast<void*>(&v[i]), &bits, 2);
    } else {
      const auto bits = static_cast<std::uint8_t>(i);
      std::memcpy(static_cast<void*>(&v[i]), &bits, 1);
    }
  }
  return v;
}

/// float of a 16-bit or FP8 value, through cuda_fp16.h / cuda_bf16.h / cuda_fp8.h (not ew's conversions).
float to_float(__half x) { return __half2float(x); }
float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }
float to_float(__nv_fp8_e4m3 x) { return static_cast<float>(x); }
float to_float(__nv_fp8_e5m2 x) { return static_cast<float>(x); }
/// A float rounded once to `T`, through the same headers (FP8: saturating, as ew's ops).
template <class T>
T from_float(float v) {
  if constexpr (std::is_same_v<T, __half>) {
    return __float2half_rn(v);
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return __float2bfloat16_rn(v);
  } else {
    return T(v);  // cuda_fp8.h's constructor: round to nearest even, saturating to the finite range
  }
}

template <class T>
bool same_bits_of(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// A three-stage chain of type `T` over every value of `T` (and a second input), against the same math in
/// plain float C++ rounded once by the type's own header, bit for bit; and the per-stage chain against the
/// ops applied one after the other.
template <class T>
void check_chain_over_every_value() {
  const auto fused = ew::compose(ew::fma<T>{}, ew::clamp<T>{from_float<T>(-6.f), from_float<T>(6.f)},
                                 ew::scale_bias<T>{0.375f, -1.25f});
  const auto per_stage = ew::compose_per_stage(
      ew::fma<T>{}, ew::clamp<T>{from_float<T>(-6.f), from_float<T>(6.f)}, ew::scale_bias<T>{0.375f, -1.25f});
  STATIC_REQUIRE(std::is_same_v<decltype(fused(T(), T(), T())), T>);
  const T b = from_float<T>(1.5f), c = from_float<T>(-0.75f);
  std::size_t wrong = 0, wrong_per_stage = 0, differ = 0;
  for (const T a : every_value<T>()) {
    // a * b + c in one fma, clamped to [-6, 6] (NaN stays NaN), then 0.375 x - 1.25 in one fma.
    float v = std::fmaf(to_float(a), to_float(b), to_float(c));
    if (v < -6.f) v = -6.f;
    if (v > 6.f) v = 6.f;
    v = std::fmaf(0.375f, v, -1.25f);
    const T want = from_float<T>(v);
    const T got = fused(a, b, c);
    wrong += !same_bits_of(got, want) && !(std::isnan(to_float(got)) && std::isnan(to_float(want)));
    const T step = ew::scale_bias<T>{
        0.375f, -1.25f}(ew::clamp<T>{from_float<T>(-6.f), from_float<T>(6.f)}(ew::fma<T>{}(a, b, c)));
    wrong_per_stage += !same_bits_of(per_stage(a, b, c), step);
    differ += !same_bits_of(got, step);
  }
  CHECK(wrong == 0);
  CHECK(wrong_per_stage == 0);
  CHECK(differ > 0);  // the two do differ somewhere: the test sees the roundings between stages
}

}  // namespace

TEST_CASE("16-bit and FP8 chains compute in float and round once at the end", "[compose][host]") {
  // Issue 23's example: (1 + 2^-11) * 3 is 3.00146484375, above half an ulp of __half past 3, so rounding
  // once gives 3.001953125; rounding after the add gives 1 (a tie, to even) and then 3.
  const __half one = __float2half(1.f), tiny = __float2half(0x1p-11f);
  const auto fused = ew::compose(ew::add<__half>{}, ew::scale_bias<__half>{3.f, 0.f});
  const auto per_stage = ew::compose_per_stage(ew::add<__half>{}, ew::scale_bias<__half>{3.f, 0.f});
  CHECK(__half2float(fused(one, tiny)) == 3.001953125f);
  CHECK(__half2float(per_stage(one, tiny)) == 3.f);
  STATIC_REQUIRE(std::is_same_v<decltype(fused(one, tiny)), __half>);
  // One stage is the stage itself: fma<__half> rounds the exact a * b + c once (math.cuh's example, where
  // float's fmaf then __half would give 1).
  const __half fa = __float2half(0.9790039f), fb = __float2half(0.00049877167f), fc = __float2half(1.f);
  CHECK(__half2float(ew::compose(ew::fma<__half>{})(fa, fb, fc)) ==
        __half2float(ew::fma<__half>{}(fa, fb, fc)));
  CHECK(__half2float(ew::fma<__half>{}(fa, fb, fc)) == 1.0009765625f);
  // A stage that is not an ew op of a 16-bit type gets the value rounded to the type before it.
  CHECK(ew::compose(ew::add<__half>{}, half_as_float{})(one, tiny) == 1.f);
  // Inputs of another type are converted to the first stage's type first, as its own call would.
  CHECK(__half2float(ew::compose(ew::add<__half>{}, ew::relu<__half>{})(1.f, 0x1p-11f)) == 1.f);
  check_chain_over_every_value<__half>();
  check_chain_over_every_value<__nv_bfloat16>();
  check_chain_over_every_value<__nv_fp8_e4m3>();
  check_chain_over_every_value<__nv_fp8_e5m2>();
  // Float stages are computed as they are: the same chain of float ops is the per-stage chain.
  const auto f = ew::compose(ew::add<float>{}, ew::scale_bias<float>{3.f, 0.f});
  const auto g = ew::compose_per_stage(ew::add<float>{}, ew::scale_bias<float>{3.f, 0.f});
  for (float x : ew_test::random_values<float>(1000, ew_test::base_seed())) CHECK(f(x, 0.1f) == g(x, 0.1f));
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
