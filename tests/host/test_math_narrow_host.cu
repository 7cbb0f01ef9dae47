// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// The float forms for 16-bit results (detail/math_narrow.cuh: gelu, softplus, log-sigmoid, mish) on the
// host (ctest host.math_narrow), over every value of __half and __nv_bfloat16, against the long double
// references of tests/common/functor_reference.cuh and each op's 1-ulp bound for the 16-bit types:
// - with the host's stand-ins for the GPU's approximate instructions (the C++ functions), as the ops run;
// - with the instructions at their documented worst error, each way: `ex2.approx` 2 ulp (2^-22 relative)
//   and results below 2^-126 flushed, `lg2.approx` 2^-22 absolute, `rcp.approx` 2^-23 relative; so the
//   bound holds for what the GPU computes, not only for the exact functions;
// - softplus with other betas and thresholds; the ops of 16-bit types go through these forms.
// tests/gpu/test_functors_gpu.cu and test_catalog_gpu.cu run the ops on the GPU against the same bounds.

#include <cmath>
#include <cstdint>
#include <string>
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
  // approximations: gelu 2^-15, softplus, log-sigmoid and mish 2^-17 (math_narrow.cuh).
  namespace d = ew::detail;
  struct form {
    const char* name;
    ldouble (*ref)(ldouble);
    double bound;
    float (*exact)(float), (*up)(float), (*down)(float);
  };
  const form forms[] = {
      {"gelu", ref_gelu, 0x1p-15, [](float x) { return d::gelu_narrow(x); },
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
  };
  for (const form& fm : forms) {
    double worst = 0, at = 0;
    for (int type = 0; type < 2; ++type) {
      for (std::uint32_t b = 0; b < 65536; ++b) {
        const auto u = static_cast<std::uint16_t>(b);
        const float x = type == 0 ? ew::up(from_bits16<__half>(u)) : ew::up(from_bits16<__nv_bfloat16>(u));
        if (!std::isfinite(x)) continue;
        const ldouble want = fm.ref(x);
        if (std::fabs(want) < 0x1p-126L) continue;
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
    CHECK(worst < fm.bound);
  }
}

TEMPLATE_TEST_CASE("softplus, logsigmoid and mish of 16-bit types take the float forms",
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
}
