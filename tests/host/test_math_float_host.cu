// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// The float forms of detail/math_float.cuh (gelu_float, which ew::gelu<float> and ew::geglu<float> compute)
// on the host (ctest host.small_b), against the long double references of tests/common/functor_reference.cuh
// (glibc's erfcl: independent of the fitted polynomials) and gelu's 10-ulp bound for float: over every
// 509th float pattern, every float of the ranges where the error peaks, and the special values, with the
// reciprocal exact and at rcp.approx's documented worst (2^-23 relative) each way, since the Newton step
// that follows it is what the device runs. Every other operation is an IEEE float multiply, add or fma, the
// same on the host as on the GPU. tests/gpu/test_functors_gpu.cu runs all 2^32 floats on the GPU.

#include <cmath>
#include <cstdint>
#include <cstring>
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

float float_of(std::uint32_t u) {
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

/// The distance of `got` from `ref_gelu(x)` in float ulps at the reference (2^-149 at least), unrounded.
double gelu_ulps(float x, float got) {
  const ldouble want = ref_gelu(x);
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
    const float x = float_of(static_cast<std::uint32_t>(u));
    const float got = f(x);
    ++n;
    const std::string m = check_unary_value<float>(spec_gelu, x, got);
    if (!m.empty() && bad++ == 0) msg = m;
    if (!std::isnan(x)) {
      const double d = gelu_ulps(x, got);
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

}  // namespace

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
  CHECK(same_bits(g(14.5f), 14.5f));         // past the cut, x itself
  CHECK(same_bits(g(-14.5f), -0.0f));        // and -0: GELU(-14.5) is below 2^-153
  CHECK(same_bits(g(3.0e38f), 3.0e38f));     // no overflow on the way
  CHECK(g(-13.0f) < 0.0f);                   // the tail keeps its digits (about -7.9e-38, near 2^-126)
  CHECK(g(-14.0f) < 0.0f);                   // a subnormal result, rounded once
  const float tiny = float_of(0x00000010u);  // subnormal input: x / 2 to within the ulp
  CHECK(g(tiny) == float_of(0x00000008u));
  // ew::gelu<float> and ew::geglu<float> are this form, bit for bit.
  for (float x : {-7.25f, -1.0f, -0.01f, 0.003f, 0.5f, 2.0f, 9.0f}) {
    CHECK(same_bits(g(x), ew::detail::gelu_float(x)));
    CHECK(same_bits(ew::geglu<float>{}(x, 3.0f), ew::detail::gelu_float(x) * 3.0f));
  }
}
