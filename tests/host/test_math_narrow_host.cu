// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// The float forms for 16-bit results (detail/math_narrow.cuh and math_narrow_poly.cuh: gelu, softplus,
// log-sigmoid, mish, expm1, elu, selu, log, log2, log1p, gelu_tanh, sigmoid, silu, erf, sin, cos) on the host
// (ctest host.math_narrow), over every value of __half and __nv_bfloat16, against the long double references
// of tests/common/functor_reference.cuh and each op's 1-ulp bound for the 16-bit types:
// - with the host's stand-ins for the GPU's approximate instructions (the C++ functions), as the ops run;
// - with the instructions at their documented worst error, each way: `ex2.approx` 2 ulp (2^-22 relative)
//   and results below 2^-126 flushed, `lg2.approx` 2^-22 absolute, `rcp.approx` 2^-23 relative; so the
//   bound holds for what the GPU computes, not only for the exact functions;
// - softplus with other betas and thresholds; the ops of 16-bit types go through these forms.
// tests/gpu/test_functors_gpu.cu and test_catalog_gpu.cu run the ops on the GPU against the same bounds.

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/functor_reference.cuh"
#include "../common/test_utils.cuh"

using namespace ew_test;

namespace {

/// The approximate instructions at their documented worst error, all `S` (+1 or -1) of it (`__host__
/// __device__` as the forms that call them; run on the host only).
template <int S>
struct approx_worst {
  EW_HD static float reciprocal(float d) { return static_cast<float>(1.0 / d * (1.0 + S * 0x1p-23)); }
  EW_HD static float exp2(float a) {
    const double r = ::exp2(static_cast<double>(a)) * (1.0 + S * 0x1p-22);
    return r < 0x1p-126 ? 0.0f : static_cast<float>(r);  // .ftz: a subnormal result is flushed
  }
  EW_HD static float log2(float a) {
    return static_cast<float>(::log2(static_cast<double>(a)) + S * 0x1p-22);
  }
};

ldouble ref_softplus_beta2(ldouble x) { return 2 * x > 20 ? x : std::log1p(std::exp(2 * x)) / 2; }
ldouble ref_softplus_half_t5(ldouble x) { return x / 2 > 5 ? x : std::log1p(std::exp(x / 2)) * 2; }
const unary_spec spec_softplus_beta2{"softplus(beta 2)", ref_softplus_beta2, 5, 5, 1, 0};
const unary_spec spec_softplus_half_t5{"softplus(beta 0.5, threshold 5)", ref_softplus_half_t5, 5, 5, 1, 0};

/// Every value of `T` through `f` (float in, float out) and one rounding to `T`, against `spec`: the number
/// of values outside the bound, and the first one's message.
template <class T, class F>
std::size_t count_outside(const unary_spec& spec, F f, std::string& first) {
  std::size_t bad = 0;
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const T x = from_bits16<T>(static_cast<std::uint16_t>(b));
    const T got = ew::down<T>(f(ew::up(x)));
    const std::string msg = check_unary_value<T>(spec, x, got);
    if (!msg.empty() && bad++ == 0) first = msg;
  }
  return bad;
}

template <class T, class A>
void check_forms(const char* approx) {
  namespace d = ew::detail;
  struct form {
    const unary_spec* spec;
    float (*f)(float);
  };
  const form forms[] = {
      {&spec_gelu, [](float x) { return d::gelu_narrow(x); }},
      {&spec_softplus, [](float x) { return d::softplus_narrow<A>(x, 1.0f, 20.0f); }},
      {&spec_softplus_beta2, [](float x) { return d::softplus_narrow<A>(x, 2.0f, 20.0f); }},
      {&spec_softplus_half_t5, [](float x) { return d::softplus_narrow<A>(x, 0.5f, 5.0f); }},
      {&spec_logsigmoid, [](float x) { return d::log_sigmoid_narrow<A>(x); }},
      {&spec_mish, [](float x) { return d::mish_narrow<A>(x); }},
      {&spec_expm1, [](float x) { return d::expm1_narrow<A>(x); }},
      {&spec_elu, [](float x) { return d::elu_narrow<A>(x, 1.0f); }},
      {&spec_selu, [](float x) { return d::selu_scale * d::elu_narrow<A>(x, d::selu_alpha); }},
      {&spec_log, [](float x) { return d::log_narrow<A>(x); }},
      {&spec_log2, [](float x) { return d::log2_narrow<A>(x); }},
      {&spec_log1p, [](float x) { return d::log1p_narrow<A>(x); }},
      {&spec_gelu_tanh, [](float x) { return d::gelu_tanh_narrow<A>(x); }},
      {&spec_sigmoid, [](float x) { return d::sigmoid_narrow<A>(x); }},
      {&spec_silu, [](float x) { return d::x_sigmoid_narrow<A>(x, x); }},
      {&spec_erf, [](float x) { return d::erf_narrow<A>(x); }},
      {&spec_sin_op, [](float x) { return d::sin_cos_narrow<false>(x); }},
      {&spec_cos_op, [](float x) { return d::sin_cos_narrow<true>(x); }},
  };
  for (const form& fm : forms) {
    std::string first;
    const std::size_t bad = count_outside<T>(*fm.spec, fm.f, first);
    INFO(fm.spec->name << "<" << type_name<T>() << ">, approximations " << approx << ": " << bad
                       << " values outside 1 ulp; first: " << first);
    CHECK(bad == 0);
  }
}

}  // namespace

TEMPLATE_TEST_CASE("the float forms of 16-bit activations are within 1 ulp of every value",
                   "[math_narrow][host]", __half, __nv_bfloat16) {
  check_forms<TestType, ew::detail::approx_mufu>("as the host runs them");
  check_forms<TestType, approx_worst<1>>("at their worst error, up");
  check_forms<TestType, approx_worst<-1>>("at their worst error, down");
}

TEST_CASE("the float forms' relative errors stay below their stated bounds", "[math_narrow][host]") {
  // Over every finite f16 and bf16 input whose result is a normal float, with the three kinds of
  // approximations: gelu 2^-13, gelu_tanh 2^-15, sigmoid and silu 2^-16, softplus, log-sigmoid, mish and
  // expm1 2^-17, log, log2, log1p and erf 2^-18, sin and cos 2^-19 (math_narrow.cuh,
  // math_narrow_poly.cuh).
  namespace d = ew::detail;
  struct form {
    const char* name;
    ldouble (*ref)(ldouble);
    double bound;
    float (*exact)(float), (*up)(float), (*down)(float);
  };
  const form forms[] = {
      {"gelu", ref_gelu, 0x1p-13, [](float x) { return d::gelu_narrow(x); },
       [](float x) { return d::gelu_narrow(x); }, [](float x) { return d::gelu_narrow(x); }},
      {"softplus", ref_softplus, 0x1p-17, [](float x) { return d::softplus_narrow(x, 1.0f, 20.0f); },
       [](float x) { return d::softplus_narrow<approx_worst<1>>(x, 1.0f, 20.0f); },
       [](float x) { return d::softplus_narrow<approx_worst<-1>>(x, 1.0f, 20.0f); }},
      {"logsigmoid", ref_logsigmoid, 0x1p-17, [](float x) { return d::log_sigmoid_narrow(x); },
       [](float x) { return d::log_sigmoid_narrow<approx_worst<1>>(x); },
       [](float x) { return d::log_sigmoid_narrow<approx_worst<-1>>(x); }},
      {"mish", ref_mish, 0x1p-17, [](float x) { return d::mish_narrow(x); },
       [](float x) { return d::mish_narrow<approx_worst<1>>(x); },
       [](float x) { return d::mish_narrow<approx_worst<-1>>(x); }},
      {"expm1", ref_expm1, 0x1p-17, [](float x) { return d::expm1_narrow(x); },
       [](float x) { return d::expm1_narrow<approx_worst<1>>(x); },
       [](float x) { return d::expm1_narrow<approx_worst<-1>>(x); }},
      {"log", ref_log, 0x1p-18, [](float x) { return d::log_narrow(x); },
       [](float x) { return d::log_narrow<approx_worst<1>>(x); },
       [](float x) { return d::log_narrow<approx_worst<-1>>(x); }},
      {"log2", ref_log2, 0x1p-18, [](float x) { return d::log2_narrow(x); },
       [](float x) { return d::log2_narrow<approx_worst<1>>(x); },
       [](float x) { return d::log2_narrow<approx_worst<-1>>(x); }},
      {"log1p", ref_log1p, 0x1p-18, [](float x) { return d::log1p_narrow(x); },
       [](float x) { return d::log1p_narrow<approx_worst<1>>(x); },
       [](float x) { return d::log1p_narrow<approx_worst<-1>>(x); }},
      {"gelu_tanh", ref_gelu_tanh, 0x1p-15, [](float x) { return d::gelu_tanh_narrow(x); },
       [](float x) { return d::gelu_tanh_narrow<approx_worst<1>>(x); },
       [](float x) { return d::gelu_tanh_narrow<approx_worst<-1>>(x); }},
      // 2^-17 plus |v| 2^-24, |v| below 88 where the result is a normal float: 2^-16.
      {"sigmoid", ref_sigmoid, 0x1p-16, [](float x) { return d::sigmoid_narrow(x); },
       [](float x) { return d::sigmoid_narrow<approx_worst<1>>(x); },
       [](float x) { return d::sigmoid_narrow<approx_worst<-1>>(x); }},
      {"silu", ref_silu, 0x1p-16, [](float x) { return d::x_sigmoid_narrow(x, x); },
       [](float x) { return d::x_sigmoid_narrow<approx_worst<1>>(x, x); },
       [](float x) { return d::x_sigmoid_narrow<approx_worst<-1>>(x, x); }},
      {"erf", ref_erf, 0x1p-18, [](float x) { return d::erf_narrow(x); },
       [](float x) { return d::erf_narrow<approx_worst<1>>(x); },
       [](float x) { return d::erf_narrow<approx_worst<-1>>(x); }},
      // No approximate instruction: the same function three times.
      {"sin", ref_sin, 0x1p-19, [](float x) { return d::sin_cos_narrow<false>(x); },
       [](float x) { return d::sin_cos_narrow<false>(x); },
       [](float x) { return d::sin_cos_narrow<false>(x); }},
      {"cos", ref_cos, 0x1p-19, [](float x) { return d::sin_cos_narrow<true>(x); },
       [](float x) { return d::sin_cos_narrow<true>(x); },
       [](float x) { return d::sin_cos_narrow<true>(x); }},
  };
  for (const form& fm : forms) {
    double worst = 0, at = 0;
    for (int type = 0; type < 2; ++type) {
      for (std::uint32_t b = 0; b < 65536; ++b) {
        const auto u = static_cast<std::uint16_t>(b);
        const float x = type == 0 ? ew::up(from_bits16<__half>(u)) : ew::up(from_bits16<__nv_bfloat16>(u));
        if (!std::isfinite(x)) continue;
        const ldouble want = fm.ref(x);
        if (!(std::fabs(want) >= 0x1p-126L && std::fabs(want) <= FLT_MAX)) continue;  // normal floats
        for (float (*f)(float) : {fm.exact, fm.up, fm.down}) {
          const double e = static_cast<double>(std::fabs((f(x) - want) / want));
          if (!(e <= worst)) {
            worst = e;
            at = x;
          }
        }
      }
    }
    INFO(fm.name << ": relative error " << worst << " at x = " << at << ", bound " << fm.bound);
    WARN(fm.name << ": worst relative error " << worst << " at x = " << at);
    CHECK(worst < fm.bound);
  }
}

TEMPLATE_TEST_CASE("the activations and functions of 16-bit types take the float forms",
                   "[math_narrow][host]", __half, __nv_bfloat16) {
  using T = TestType;
  namespace d = ew::detail;
  const ew::softplus<T> sp{};
  const ew::softplus<T> sp2{2.0f, 20.0f};
  std::size_t differ = 0;
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const T x = from_bits16<T>(static_cast<std::uint16_t>(b));
    const float c = ew::up(x);
    differ += !same_value(sp(x), ew::down<T>(d::softplus_narrow(c, 1.0f, 20.0f)));
    differ += !same_value(sp2(x), ew::down<T>(d::softplus_narrow(c, 2.0f, 20.0f)));
    differ += !same_value(ew::logsigmoid<T>{}(x), ew::down<T>(d::log_sigmoid_narrow(c)));
    differ += !same_value(ew::mish<T>{}(x), ew::down<T>(d::mish_narrow(c)));
    differ += !same_value(ew::expm1<T>{}(x), ew::down<T>(d::expm1_narrow(c)));
    differ += !same_value(ew::elu<T>{0.5f}(x), ew::down<T>(d::elu_narrow(c, 0.5f)));
    differ += !same_value(ew::selu<T>{}(x), ew::down<T>(d::selu_scale * d::elu_narrow(c, d::selu_alpha)));
    differ += !same_value(ew::log<T>{}(x), ew::down<T>(d::log_narrow(c)));
    differ += !same_value(ew::log2<T>{}(x), ew::down<T>(d::log2_narrow(c)));
    differ += !same_value(ew::log1p<T>{}(x), ew::down<T>(d::log1p_narrow(c)));
    differ += !same_value(ew::gelu_tanh<T>{}(x), ew::down<T>(d::gelu_tanh_narrow(c)));
    differ += !same_value(ew::sigmoid<T>{}(x), ew::down<T>(d::sigmoid_narrow(c)));
    differ += !same_value(ew::silu<T>{}(x), ew::down<T>(d::x_sigmoid_narrow(c, c)));
    differ += !same_value(ew::erf<T>{}(x), ew::down<T>(d::erf_narrow(c)));
    differ += !same_value(ew::sin<T>{}(x), ew::down<T>(d::sin_cos_narrow<false>(c)));
    differ += !same_value(ew::cos<T>{}(x), ew::down<T>(d::sin_cos_narrow<true>(c)));
    const auto [s, co] = ew::sincos<T>{}(x);
    differ += !same_value(s, ew::sin<T>{}(x)) + !same_value(co, ew::cos<T>{}(x));
  }
  CHECK(differ == 0);
  // The limits and the thresholds: softplus is x above its threshold, bit for bit, and 0 at -inf;
  // logsigmoid -inf and 0 at the infinities; mish x above 20 and -0 at -inf and -0.
  const T inf = ew::down<T>(INFINITY);
  CHECK(same_value(sp(T(20.5f)), T(20.5f)));
  CHECK(same_value(sp2(T(10.5f)), T(10.5f)));
  CHECK(same_value(sp(-inf), T(0.0f)));
  CHECK(same_value(sp(inf), inf));
  CHECK(same_value(ew::logsigmoid<T>{}(-inf), -inf));
  CHECK(same_value(ew::logsigmoid<T>{}(inf), T(0.0f)));
  CHECK(same_value(ew::mish<T>{}(T(21.0f)), T(21.0f)));
  CHECK(same_value(ew::mish<T>{}(-inf), T(-0.0f)));
  CHECK(same_value(ew::mish<T>{}(T(-0.0f)), T(-0.0f)));
  // expm1: -0, -1 and +inf at the signed zero and the infinities; log and log2: -inf at both zeros, NaN
  // below 0, +inf at +inf; gelu_tanh: -0 at -inf and -0, +inf at +inf.
  CHECK(same_value(ew::expm1<T>{}(T(-0.0f)), T(-0.0f)));
  CHECK(same_value(ew::expm1<T>{}(-inf), T(-1.0f)));
  CHECK(same_value(ew::expm1<T>{}(inf), inf));
  for (const T z : {T(0.0f), T(-0.0f)}) {
    CHECK(same_value(ew::log<T>{}(z), -inf));
    CHECK(same_value(ew::log2<T>{}(z), -inf));
  }
  CHECK(std::isnan(ew::up(ew::log<T>{}(T(-1.0f)))));
  CHECK(std::isnan(ew::up(ew::log2<T>{}(-inf))));
  CHECK(same_value(ew::log<T>{}(inf), inf));
  CHECK(same_value(ew::log2<T>{}(T(1.0f)), T(0.0f)));
  // log1p: -inf at -1, NaN below it, +inf at +inf, -0 at -0.
  CHECK(same_value(ew::log1p<T>{}(T(-1.0f)), -inf));
  CHECK(std::isnan(ew::up(ew::log1p<T>{}(T(-2.0f)))));
  CHECK(same_value(ew::log1p<T>{}(inf), inf));
  CHECK(same_value(ew::log1p<T>{}(T(-0.0f)), T(-0.0f)));
  CHECK(same_value(ew::gelu_tanh<T>{}(-inf), T(-0.0f)));
  CHECK(same_value(ew::gelu_tanh<T>{}(T(-0.0f)), T(-0.0f)));
  CHECK(same_value(ew::gelu_tanh<T>{}(inf), inf));
  // sigmoid: +0 at -inf and far below (never -0), 1 at +inf; silu: -0 at -inf and -0, +inf at +inf.
  CHECK(same_value(ew::sigmoid<T>{}(-inf), T(0.0f)));
  CHECK(same_value(ew::sigmoid<T>{}(T(-200.0f)), T(0.0f)));
  CHECK(same_value(ew::sigmoid<T>{}(inf), T(1.0f)));
  CHECK(same_value(ew::silu<T>{}(-inf), T(-0.0f)));
  CHECK(same_value(ew::silu<T>{}(T(-0.0f)), T(-0.0f)));
  CHECK(same_value(ew::silu<T>{}(inf), inf));
  // erf: +-0 at +-0, +-1 at the infinities and from 3.3 on (the clamp), NaN stays NaN.
  CHECK(same_value(ew::erf<T>{}(T(0.0f)), T(0.0f)));
  CHECK(same_value(ew::erf<T>{}(T(-0.0f)), T(-0.0f)));
  CHECK(same_value(ew::erf<T>{}(inf), T(1.0f)));
  CHECK(same_value(ew::erf<T>{}(-inf), T(-1.0f)));
  CHECK(same_value(ew::erf<T>{}(T(3.5f)), T(1.0f)));
  CHECK(same_value(ew::erf<T>{}(T(-3.5f)), T(-1.0f)));
  CHECK(std::isnan(ew::up(ew::erf<T>{}(ew::down<T>(NAN)))));
  // The float form itself is +-1 exactly past 3.3, so that a chain's next stage sees the limit: 1 - erf(x)
  // is +0 at +inf and from 3.3 on.
  CHECK(ew::detail::erf_narrow(INFINITY) == 1.0f);
  CHECK(ew::detail::erf_narrow(-INFINITY) == -1.0f);
  CHECK(ew::detail::erf_narrow(3.3001f) == 1.0f);
  CHECK(ew::detail::erf_narrow(3.3f) < 1.0f);
  const auto one_minus_erf = ew::compose(ew::erf<T>{}, ew::scale_bias<T>{-1.0f, 1.0f});
  CHECK(same_value(one_minus_erf(inf), T(0.0f)));
  CHECK(same_value(one_minus_erf(T(4.0f)), T(0.0f)));
  CHECK(same_value(one_minus_erf(-inf), T(2.0f)));
  // sin: +-0 at +-0, NaN at the infinities and NaN; cos 1 at both zeros. Past 2^17 (bf16 only) CUDA's float
  // functions: the float form gives what sinf / cosf give there.
  CHECK(same_value(ew::sin<T>{}(T(0.0f)), T(0.0f)));
  CHECK(same_value(ew::sin<T>{}(T(-0.0f)), T(-0.0f)));
  CHECK(same_value(ew::cos<T>{}(T(0.0f)), T(1.0f)));
  CHECK(same_value(ew::cos<T>{}(T(-0.0f)), T(1.0f)));
  for (const T v : {inf, -inf, ew::down<T>(NAN)}) {
    CHECK(std::isnan(ew::up(ew::sin<T>{}(v))));
    CHECK(std::isnan(ew::up(ew::cos<T>{}(v))));
  }
  CHECK(std::isnan(ew::detail::sin_cos_narrow<false>(NAN)));
  CHECK(std::isnan(ew::detail::sin_cos_narrow<true>(NAN)));
  for (const float v : {0x1.0001p17f, -1.0e30f, 3.0e38f}) {
    CHECK(ew::detail::sin_cos_narrow<false>(v) == std::sin(v));
    CHECK(ew::detail::sin_cos_narrow<true>(v) == std::cos(v));
  }
}

TEMPLATE_TEST_CASE("in a chain, the 16-bit activations and functions compute their float forms",
                   "[math_narrow][host]", __half, __nv_bfloat16) {
  // compose(scale_bias, op) of every value: the stage before leaves 1.5 x + 0.25 in float, unrounded, and
  // the op's float form takes it; the result is rounded once (compose.cuh's contract for 16-bit chains).
  using T = TestType;
  namespace d = ew::detail;
  // Which form each op takes in a chain (the values below rarely tell a float form from the float op's
  // once rounded to 16 bits).
  STATIC_REQUIRE(std::is_same_v<typename d::compute_form<ew::gelu<T>>::type, d::gelu_narrow_form>);
  STATIC_REQUIRE(std::is_same_v<typename d::compute_form<ew::gelu_tanh<T>>::type, d::gelu_tanh_narrow_form>);
  STATIC_REQUIRE(std::is_same_v<typename d::compute_form<ew::softplus<T>>::type, d::softplus_narrow_form>);
  STATIC_REQUIRE(std::is_same_v<typename d::compute_form<ew::log<T>>::type, d::log_narrow_form>);
  STATIC_REQUIRE(std::is_same_v<typename d::compute_form<ew::log2<T>>::type, d::log2_narrow_form>);
  STATIC_REQUIRE(std::is_same_v<typename d::compute_form<ew::log1p<T>>::type, d::log1p_narrow_form>);
  STATIC_REQUIRE(std::is_same_v<typename d::compute_form<ew::expm1<T>>::type, d::expm1_narrow_form>);
  STATIC_REQUIRE(std::is_same_v<typename d::compute_form<ew::erf<T>>::type, d::erf_narrow_form>);
  STATIC_REQUIRE(std::is_same_v<typename d::compute_form<ew::sin<T>>::type, d::sin_narrow_form>);
  STATIC_REQUIRE(std::is_same_v<typename d::compute_form<ew::cos<T>>::type, d::cos_narrow_form>);
  STATIC_REQUIRE(std::is_same_v<typename d::compute_form<ew::elu<T>>::type, d::elu_narrow_form>);
  STATIC_REQUIRE(std::is_same_v<typename d::compute_form<ew::selu<T>>::type, d::selu_narrow_form>);
  STATIC_REQUIRE(std::is_same_v<typename d::compute_form<ew::mish<T>>::type, d::mish_narrow_form>);
  STATIC_REQUIRE(
      std::is_same_v<typename d::compute_form<ew::logsigmoid<T>>::type, d::logsigmoid_narrow_form>);
  const ew::scale_bias<T> sb{1.5f, 0.25f};
  std::size_t differ = 0;
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const T x = from_bits16<T>(static_cast<std::uint16_t>(b));
    const float c = d::mul_add(1.5f, ew::up(x), 0.25f);
    const auto once = [&](float r) { return ew::down<T>(r); };
    differ += !same_value(ew::compose(sb, ew::gelu<T>{})(x), once(d::gelu_narrow(c)));
    differ += !same_value(ew::compose(sb, ew::gelu_tanh<T>{})(x), once(d::gelu_tanh_narrow(c)));
    differ += !same_value(ew::compose(sb, ew::softplus<T>{2.0f, 10.0f})(x),
                          once(d::softplus_narrow(c, 2.0f, 10.0f)));
    differ += !same_value(ew::compose(sb, ew::log<T>{})(x), once(d::log_narrow(c)));
    differ += !same_value(ew::compose(sb, ew::log2<T>{})(x), once(d::log2_narrow(c)));
    differ += !same_value(ew::compose(sb, ew::log1p<T>{})(x), once(d::log1p_narrow(c)));
    differ += !same_value(ew::compose(sb, ew::expm1<T>{})(x), once(d::expm1_narrow(c)));
    differ += !same_value(ew::compose(sb, ew::elu<T>{0.5f})(x), once(d::elu_narrow(c, 0.5f)));
    differ +=
        !same_value(ew::compose(sb, ew::selu<T>{})(x), once(d::selu_scale * d::elu_narrow(c, d::selu_alpha)));
    differ += !same_value(ew::compose(sb, ew::mish<T>{})(x), once(d::mish_narrow(c)));
    differ += !same_value(ew::compose(sb, ew::logsigmoid<T>{})(x), once(d::log_sigmoid_narrow(c)));
    differ += !same_value(ew::compose(sb, ew::erf<T>{})(x), once(d::erf_narrow(c)));
    differ += !same_value(ew::compose(sb, ew::sin<T>{})(x), once(d::sin_cos_narrow<false>(c)));
    differ += !same_value(ew::compose(sb, ew::cos<T>{})(x), once(d::sin_cos_narrow<true>(c)));
  }
  CHECK(differ == 0);
}

namespace {

/// `pow_narrow<A>` of every `T` value `a` with exponents `b` of every kind (integers odd and even, halves,
/// the infinities, NaN, zeros, large values), and for each `a` the exponents that take `|b log2|a||` to the
/// ends of T's range (where the error bound is widest), rounded to `T`, against long double `pow` and 1 ulp;
/// and its float result bit for bit against `pow_narrow_general<A>`'s (the common-case path's promise).
template <class T, class A>
std::size_t pow_outside(std::string& first) {
  std::vector<double> bs = {0.0,   -0.0,   1.0,     -1.0, 2.0, -2.0,         3.0,      -3.0,
                            7.0,   -7.0,   0.5,     -0.5, 1.5, -2.5,         10.0,     -33.0,
                            100.0, 1000.0, -1001.0, 1e4,  6e4, std::nan(""), INFINITY, -INFINITY};
  std::mt19937_64 g(base_seed());
  std::uniform_real_distribution<double> u(-200.0, 200.0);
  for (int i = 0; i < 24; ++i) bs.push_back(u(g));
  const double ends = std::is_same_v<T, __half> ? 25.0 : 134.0;  // |t| at T's largest and smallest results
  std::size_t bad = 0;
  for (std::uint32_t bits = 0; bits < 65536; ++bits) {
    const T a = from_bits16<T>(static_cast<std::uint16_t>(bits));
    const double la = to_double(a), l2 = std::log2(std::fabs(la));
    std::vector<double> mine = bs;
    if (std::isfinite(l2) && l2 != 0) {
      for (double t : {ends, -ends, ends / 2, -ends / 2, 15.5, -15.5}) mine.push_back(t / l2);
    }
    for (double db : mine) {
      const T b = from_double<T>(db);
      const float r = ew::detail::pow_narrow<A>(ew::up(a), ew::up(b));
      const T got = ew::down<T>(r);
      std::string msg = check_value_against<T>("pow", std::pow(to_ld(a), to_ld(b)), got, 1);
      // The common-case path (a positive normal, b finite, a result from 2^-64) gives the general form's
      // float bits, whatever the instructions' errors.
      const float g = ew::detail::pow_narrow_general<A>(ew::up(a), ew::up(b));
      if (msg.empty() && !(r != r && g != g) && std::memcmp(&r, &g, sizeof r) != 0) {
        msg = "pow_narrow " + std::to_string(r) + " differs from pow_narrow_general " + std::to_string(g);
      }
      if (!msg.empty() && bad++ == 0)
        first = msg + " at a=" + std::to_string(la) + " b=" + std::to_string(to_double(b));
    }
  }
  return bad;
}

}  // namespace

TEMPLATE_TEST_CASE("pow of 16-bit types: its float form within 1 ulp, C's special values",
                   "[math_narrow][host]", __half, __nv_bfloat16) {
  using T = TestType;
  std::string first;
  std::size_t bad = pow_outside<T, ew::detail::approx_mufu>(first);
  INFO("as the host runs it: " << bad << " outside 1 ulp; first: " << first);
  CHECK(bad == 0);
  bad = pow_outside<T, approx_worst<1>>(first);
  INFO("instructions at their worst, up: " << bad << " outside 1 ulp; first: " << first);
  CHECK(bad == 0);
  bad = pow_outside<T, approx_worst<-1>>(first);
  INFO("instructions at their worst, down: " << bad << " outside 1 ulp; first: " << first);
  CHECK(bad == 0);
  // The op takes the form, and C's special values, bit for bit.
  const ew::pow<T> p{};
  const T inf = ew::down<T>(INFINITY), nan = ew::down<T>(NAN);
  std::size_t differ = 0;
  for (std::uint32_t bits = 0; bits < 65536; bits += 7) {
    const T a = from_bits16<T>(static_cast<std::uint16_t>(bits));
    differ += !same_value(p(a, T(2.5f)), ew::down<T>(ew::detail::pow_narrow(ew::up(a), 2.5f)));
  }
  CHECK(differ == 0);
  CHECK(same_value(p(nan, T(0.0f)), T(1.0f)));
  CHECK(same_value(p(T(1.0f), nan), T(1.0f)));
  CHECK(same_value(p(T(-1.0f), inf), T(1.0f)));
  CHECK(same_value(p(T(-1.0f), -inf), T(1.0f)));
  CHECK(std::isnan(ew::up(p(T(-2.0f), T(0.5f)))));
  CHECK(same_value(p(T(-2.0f), T(3.0f)), T(-8.0f)));
  CHECK(same_value(p(T(-0.0f), T(-3.0f)), -inf));
  CHECK(same_value(p(T(-0.0f), T(-2.0f)), inf));
  CHECK(same_value(p(T(-0.0f), T(3.0f)), T(-0.0f)));
  CHECK(same_value(p(T(-0.0f), T(0.5f)), T(0.0f)));
  CHECK(same_value(p(-inf, T(3.0f)), -inf));
  CHECK(same_value(p(-inf, T(-3.0f)), T(-0.0f)));
  CHECK(same_value(p(-inf, T(0.5f)), inf));
  CHECK(same_value(p(T(0.5f), inf), T(0.0f)));
  CHECK(same_value(p(T(2.0f), -inf), T(0.0f)));
  CHECK(same_value(p(T(0.0f), -inf), inf));
}
