// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// The float forms of detail/math_float.cuh (gelu_float, which ew::gelu<float> and ew::geglu<float> compute;
// mish_float, ew::mish<float>'s, against mish's 8 ulp with expf exact and at its 2 ulp each way) on the host
// (ctest host.small_b), against the long double references of tests/common/functor_reference.cuh (glibc's
// erfcl: independent of the fitted polynomials) and gelu's 10-ulp bound for float: over every 509th float
// pattern, every float of the ranges where the error peaks, and the special values, with the reciprocal exact
// and at rcp.approx's documented worst (2^-23 relative) each way, since the Newton step that follows it is
// what the device runs. Every other operation is an IEEE float multiply, add or fma, the same on the host as
// on the GPU. tests/gpu/test_functors_gpu.cu runs all 2^32 floats on the GPU.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/functor_reference.cuh"
#include "../common/test_utils.cuh"

using namespace ew_test;

namespace {

/// `rcp.approx`'s documented worst error, all `S` (+1 or -1) of it, on the host.
template <int S>
struct rcp_at_worst {
  EW_HD static float reciprocal(float d) { return static_cast<float>(1.0 / d * (1.0 + S * 0x1p-23)); }
};

/// The distance of `got` from `want` in float ulps at `want` (2^-149 at least), unrounded.
double float_ulps(ldouble want, float got) {
  if (want == 0 || std::isinf(static_cast<double>(want)))
    return static_cast<ldouble>(got) == want ? 0.0 : 1e30;
  int e = 0;
  std::frexp(want, &e);
  return static_cast<double>(std::fabs(static_cast<ldouble>(got) - want) /
                             std::ldexp(ldouble(1), std::max(e - 24, -149)));
}

/// Checks `f` (gelu_float with some reciprocal) on the floats with bits `first, first + step, ...` up to
/// `last`: the count outside spec_gelu, the first message, and the largest distance in ulps.
template <class F>
void check_range(F f, std::uint32_t first, std::uint32_t last, std::uint32_t step, const char* what) {
  std::size_t bad = 0, n = 0;
  std::string msg;
  double worst = 0;
  float worst_x = 0;
  for (std::uint64_t u = first; u <= last; u += step) {
    const float x = float_with_bits(static_cast<std::uint32_t>(u));
    const float got = f(x);
    ++n;
    const std::string m = check_unary_value<float>(spec_gelu, x, got);
    if (!m.empty() && bad++ == 0) msg = m;
    if (!std::isnan(x)) {
      const double d = float_ulps(ref_gelu(x), got);
      if (d > worst) worst = d, worst_x = x;
    }
  }
  INFO(what << ": " << n << " inputs, " << bad << " outside, first: " << msg << "; worst " << worst
            << " ulp at x = " << worst_x);
  CHECK(bad == 0);
  CHECK(worst <= 10.0);
  CHECK(worst > 1.0);  // a form that matched the reference to the bit would mean the check saw nothing
}

template <class A>
void check_gelu_float(const char* what) {
  const auto f = [](float x) { return ew::detail::gelu_float<A>(x); };
  check_range(f, 0, 0xffffffffu, 509, what);          // every 509th pattern, both signs
  check_range(f, 0x3b400000u, 0x3c000000u, 1, what);  // x in [0.0029, 0.0078]: the peak
  check_range(f, 0xbb400000u, 0xbc000000u, 1, what);  // and its negative
  check_range(f, 0xc1500000u, 0xc1680000u, 7, what);  // x in [-14.5, -13]: the subnormal tail
}

/// `expf` at its documented worst (2 ulp), all `S` (+1 or -1) of it, on the host.
template <int S>
struct exp_at_worst {
  EW_HD static float exp(float x) {
    const float e = std::exp(x);
    if (e == 0.0f || std::isinf(e) || std::isnan(e)) return e;
    const float to = S > 0 ? INFINITY : 0.0f;
    return std::nextafter(std::nextafter(e, to), to);
  }
};

/// Checks mish_float with `expf` as `L` gives it on the floats with bits `first, first + step, ...` up to
/// `last` against spec_mish (8 ulp, with its allowances where the result is subnormal or ill-conditioned):
/// the count outside, the first message, and the worst distance in ulps where the result is a normal float.
template <class L>
void check_mish_range(std::uint32_t first, std::uint32_t last, std::uint32_t step, const char* what,
                      double& worst) {
  std::size_t bad = 0, n = 0;
  std::string msg;
  float worst_x = 0;
  for (std::uint64_t u = first; u <= last; u += step) {
    const float x = float_with_bits(static_cast<std::uint32_t>(u));
    const float got = ew::detail::mish_float<L>(x);
    ++n;
    const std::string m = check_unary_value<float>(spec_mish, x, got);
    if (!m.empty() && bad++ == 0) msg = m;
    const ldouble want = ref_mish(x);
    if (std::isfinite(x) && std::fabs(want) >= 0x1p-126L) {
      const double d = float_ulps(want, got);
      if (d > worst) worst = d, worst_x = x;
    }
  }
  INFO(what << ": " << n << " inputs, " << bad << " outside, first: " << msg << "; worst so far " << worst
            << " ulp (at x = " << worst_x << " if in this range)");
  CHECK(bad == 0);
}

template <class L>
double check_mish_float(const char* what) {
  double worst = 0;
  check_mish_range<L>(0, 0xffffffffu, 509, what, worst);          // every 509th pattern, both signs
  check_mish_range<L>(0xbf800000u, 0xc0a00000u, 3, what, worst);  // x in [-5, -1]: n small, r near n
  check_mish_range<L>(0x3f000000u, 0x40400000u, 3, what, worst);  // x in [0.5, 3]
  check_mish_range<L>(0xc2b00000u, 0xc2d00000u, 5, what, worst);  // x in [-104, -88]: subnormal results
  return worst;
}

}  // namespace

TEST_CASE("mish<float>: within 8 ulp of long double, expf exact and at its worst", "[math_float][host]") {
  double worst = check_mish_float<ew::detail::float_library>("host expf");
  worst = std::max(worst, check_mish_float<exp_at_worst<1>>("expf 2 ulp up"));
  worst = std::max(worst, check_mish_float<exp_at_worst<-1>>("expf 2 ulp down"));
  WARN("mish<float>: worst " << worst << " ulp where the result is a normal float");
  CHECK(worst <= 8.0);
  CHECK(worst > 0.5);  // a form that matched the reference to the bit would mean the check saw nothing
  const ew::mish<float> m{};
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(m(inf) == inf);
  CHECK(same_bits(m(-inf), -0.0f));
  CHECK(same_bits(m(-0.0f), -0.0f));
  CHECK(same_bits(m(0.0f), 0.0f));
  CHECK(std::isnan(m(std::numeric_limits<float>::quiet_NaN())));
  CHECK(same_bits(m(20.5f), 20.5f));      // above the threshold, x itself
  CHECK(same_bits(m(3.0e38f), 3.0e38f));  // no overflow on the way
  CHECK(m(-100.0f) < 0.0f);               // a subnormal result, not flushed (-100 e^-100, about -3.7e-42)
  for (float x : {-7.25f, -1.0f, -0.01f, 0.003f, 0.5f, 2.0f, 9.0f, 19.5f}) {
    CHECK(same_bits(m(x), ew::detail::mish_float(x)));  // ew::mish<float> is this form, bit for bit
  }
}

TEST_CASE("gelu<float>: within 10 ulp of long double, the reciprocal exact and at its worst",
          "[math_float][host]") {
  check_gelu_float<ew::detail::approx_mufu>("exact reciprocal");
  check_gelu_float<rcp_at_worst<1>>("reciprocal 2^-23 up");
  check_gelu_float<rcp_at_worst<-1>>("reciprocal 2^-23 down");
}

TEST_CASE("gelu<float>: special values and the functors' choice of form", "[math_float][host]") {
  const ew::gelu<float> g{};
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(g(inf) == inf);
  CHECK(same_bits(g(-inf), -0.0f));
  CHECK(std::isnan(g(std::numeric_limits<float>::quiet_NaN())));
  CHECK(same_bits(g(-0.0f), -0.0f));
  CHECK(same_bits(g(0.0f), 0.0f));
  CHECK(same_bits(g(14.5f), 14.5f));                // past the cut, x itself
  CHECK(same_bits(g(-14.5f), -0.0f));               // and -0: GELU(-14.5) is below 2^-153
  CHECK(same_bits(g(3.0e38f), 3.0e38f));            // no overflow on the way
  CHECK(g(-13.0f) < 0.0f);                          // the tail keeps its digits (about -7.9e-38, near 2^-126)
  CHECK(g(-14.0f) < 0.0f);                          // a subnormal result, rounded once
  const float tiny = float_with_bits(0x00000010u);  // subnormal input: x / 2 to within the ulp
  CHECK(g(tiny) == float_with_bits(0x00000008u));
  // ew::gelu<float> and ew::geglu<float> are this form, bit for bit.
  for (float x : {-7.25f, -1.0f, -0.01f, 0.003f, 0.5f, 2.0f, 9.0f}) {
    CHECK(same_bits(g(x), ew::detail::gelu_float(x)));
    CHECK(same_bits(ew::geglu<float>{}(x, 3.0f), ew::detail::gelu_float(x) * 3.0f));
  }
}
