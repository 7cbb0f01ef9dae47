// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// The ops of ops_math.cuh and ops_logic.cuh on the host (ctest host.catalog), against references written
// from the definitions (tests/common/functor_reference.cuh), over every value of __half and
// __nv_bfloat16 and a sample with the extremes for float and double:
// - unary functions within their stated ulp of long double (spec_*), the rounding ops and sign exactly;
// - pow, swiglu and geglu within their stated ulp; lerp, addcmul and addcdiv within the forward error of
//   their three roundings in the compute type;
// - comparisons, predicates, where, nan_to_num and identity exactly (NaN, signed zeros and infinities
//   included);
// - the integer bit operations against arithmetic in 64 bits, shifts past the width included.
// tests/gpu/test_catalog_gpu.cu runs the same ops through the launcher against the same bounds.

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
#include "../common/test_utils.cuh"

using namespace ew_test;

namespace {

template <class T, class Get>
void check_catalog_unary(const unary_spec& spec, Get get, const std::vector<T>& xs) {
  std::size_t bad = 0;
  std::string first;
  for (T x : xs) {
    const std::string msg = check_unary_value<T>(spec, x, get(x));
    if (!msg.empty() && bad++ == 0) first = msg;
  }
  INFO(spec.name << "<" << type_name<T>() << ">: stated bound " << spec_ulps<T>(spec) << " ulp over "
                 << xs.size() << " inputs; " << bad << " outside it; first: " << first);
  CHECK(bad == 0);
}

/// Second operands for the binary ops: both signs, zero, fractions, NaN and infinity.
template <class T>
std::vector<T> second_operands() {
  std::vector<T> v;
  const double inf = std::numeric_limits<double>::infinity();
  for (double d : {-2.5, -1.0, -0.5, -0.0, 0.0, 0.75, 1.0, 3.0, 10.0, std::nan(""), inf, -inf})
    v.push_back(from_double<T>(d));
  return v;
}

/// The values of the first operand: every value of a 16-bit type, else a sample with the extremes.
template <class T>
std::vector<T> first_operands() {
  return functor_inputs<T>(sizeof(T) == 2 ? 0 : 6000, base_seed());
}

}  // namespace

TEMPLATE_TEST_CASE("catalog: unary functions within their stated ulp of long double", "[catalog][host]",
                   EW_TEST_FLOAT_TYPES) {
  using T = TestType;
  INFO("seed " << base_seed());
  const std::vector<T> xs = functor_inputs<T>(60000, base_seed());
  check_catalog_unary<T>(spec_sqrt, ew::sqrt<T>{}, xs);
  check_catalog_unary<T>(spec_rsqrt, ew::rsqrt<T>{}, xs);
  check_catalog_unary<T>(spec_reciprocal, ew::reciprocal<T>{}, xs);
  check_catalog_unary<T>(spec_square, ew::square<T>{}, xs);
  check_catalog_unary<T>(spec_exp2, ew::exp2<T>{}, xs);
  check_catalog_unary<T>(spec_log2, ew::log2<T>{}, xs);
  check_catalog_unary<T>(spec_log1p, ew::log1p<T>{}, xs);
  check_catalog_unary<T>(spec_expm1, ew::expm1<T>{}, xs);
  check_catalog_unary<T>(spec_sin_op, ew::sin<T>{}, xs);
  check_catalog_unary<T>(spec_cos_op, ew::cos<T>{}, xs);
  check_catalog_unary<T>(spec_erf, ew::erf<T>{}, xs);
  check_catalog_unary<T>(spec_floor, ew::floor<T>{}, xs);
  check_catalog_unary<T>(spec_ceil, ew::ceil<T>{}, xs);
  check_catalog_unary<T>(spec_round, ew::round<T>{}, xs);
  check_catalog_unary<T>(spec_trunc, ew::trunc<T>{}, xs);
  check_catalog_unary<T>(spec_sign, ew::sign<T>{}, xs);
  check_catalog_unary<T>(spec_identity, ew::identity<T>{}, xs);
  check_catalog_unary<T>(spec_elu, ew::elu<T>{}, xs);
  check_catalog_unary<T>(spec_selu, ew::selu<T>{}, xs);
  check_catalog_unary<T>(spec_mish, ew::mish<T>{}, xs);
  check_catalog_unary<T>(spec_softsign, ew::softsign<T>{}, xs);
  check_catalog_unary<T>(spec_logsigmoid, ew::logsigmoid<T>{}, xs);
}

TEST_CASE("catalog: round takes halves to even, sign keeps zeros' signs, as PyTorch", "[catalog][host]") {
  CHECK(ew::round<float>{}(2.5f) == 2.f);
  CHECK(ew::round<float>{}(3.5f) == 4.f);
  CHECK(std::signbit(ew::round<float>{}(-0.5f)));
  CHECK(ew::round<double>{}(-2.5) == -2.0);
  CHECK(std::signbit(ew::sign<float>{}(-0.f)));
  CHECK(ew::sign<float>{}(-3.f) == -1.f);
  CHECK(std::isnan(ew::sign<float>{}(NAN)));
  CHECK(ew::sign<std::int32_t>{}(-7) == -1);
  CHECK(ew::sign<std::uint32_t>{}(7u) == 1u);
  CHECK(ew::square<std::int32_t>{}(65536) == 0);  // wraps
  CHECK(ew::elu<float>{2.f}(-1.f) == 2.f * std::expm1(-1.f));
}

TEMPLATE_TEST_CASE("catalog: pow, swiglu and geglu within their stated ulp of long double", "[catalog][host]",
                   EW_TEST_FLOAT_TYPES) {
  using T = TestType;
  // Bounds: powf 8 ulp, pow 2 (CUDA's documented maxima, rounded up); swiglu and geglu silu's and gelu's
  // bounds plus the product's rounding; 1 ulp for the 16-bit types.
  const bool is16 = sizeof(T) == 2;
  const std::uint64_t pow_ulps = is16 ? 1 : (std::is_same_v<T, float> ? 8 : 2);
  const std::uint64_t swiglu_ulps = is16 ? 1 : spec_silu.ulps_f32 + 1,
                      geglu_ulps = is16 ? 1 : spec_gelu.ulps_f32 + 1;
  std::size_t bad = 0;
  std::string first;
  for (const T b : second_operands<T>()) {
    for (const T a : first_operands<T>()) {
      const ldouble la = to_ld(a), lb = to_ld(b);
      // The activation rounded to the compute type before the product: where it underflows to 0 there, a
      // product with an infinity is NaN, as the op's is.
      using C = ew::compute_t<T>;
      const ldouble silu = static_cast<C>(ref_silu(la)), gelu = static_cast<C>(ref_gelu(la));
      // An activation in the lowest binades of the compute type may come out 0 (the unary ops' underflow
      // allowance): its product with an infinity is then NaN, not an infinity, and not checked.
      const ldouble tiny = (2 * std::fabs(la) + 2) * std::numeric_limits<C>::denorm_min();
      const bool inf_b = std::isinf(lb);
      std::string msg = check_value_against<T>("pow", std::pow(la, lb), ew::pow<T>{}(a, b), pow_ulps);
      if (msg.empty() && !(inf_b && std::fabs(silu) <= tiny))
        msg = check_value_against<T>("swiglu", silu * lb, ew::swiglu<T>{}(a, b), swiglu_ulps,
                                     2 * std::fabs(la * lb) + 2);
      if (msg.empty() && !(inf_b && std::fabs(gelu) <= tiny))
        msg = check_value_against<T>("geglu", gelu * lb, ew::geglu<T>{}(a, b), geglu_ulps,
                                     2 * std::fabs(la * lb) + 2);
      if (!msg.empty() && bad++ == 0)
        first = msg + " at a=" + std::to_string(to_double(a)) + " b=" + std::to_string(to_double(b));
    }
  }
  INFO(bad << " outside their bounds; first: " << first);
  CHECK(bad == 0);
}

TEMPLATE_TEST_CASE("catalog: lerp, addcmul and addcdiv within the forward error of their roundings",
                   "[catalog][host]", EW_TEST_FLOAT_TYPES) {
  using T = TestType;
  std::size_t bad = 0;
  std::string first;
  const std::vector<T> seconds = second_operands<T>();
  for (std::size_t k = 0; k < seconds.size(); ++k) {
    const T b = seconds[k], w = seconds[(k + 5) % seconds.size()];
    for (const T a : first_operands<T>()) {
      const ldouble la = to_ld(a), lb = to_ld(b), lw = to_ld(w), d = lb - la;
      // PyTorch's lerp: a + w (b - a) for |w| < 0.5, else b - (b - a)(1 - w).
      const bool small = std::fabs(lw) < ldouble(0.5);
      const ldouble lerp = small ? la + lw * d : lb - d * (1 - lw);
      const ldouble lerp_terms =
          small ? std::fabs(la) + std::fabs(lw * d) * 2 : std::fabs(lb) + std::fabs(d * (1 - lw)) * 2;
      const bool ok_lerp = within_forward_error<T>(lerp, ew::lerp<T>{}(a, b, w), lerp_terms, 3);
      const ldouble v = ldouble(0.5);  // the ops' `value`
      const ldouble mul = la + v * lb * lw, div = la + v * lb / lw;
      const bool ok_mul = within_forward_error<T>(mul, ew::addcmul<T>{0.5f}(a, b, w),
                                                  std::fabs(la) + std::fabs(v * lb * lw), 3);
      const bool ok_div = within_forward_error<T>(div, ew::addcdiv<T>{0.5f}(a, b, w),
                                                  std::fabs(la) + std::fabs(v * lb / lw), 3);
      if (!(ok_lerp && ok_mul && ok_div) && bad++ == 0) {
        first = "a=" + std::to_string(to_double(a)) + " b=" + std::to_string(to_double(b)) +
                " w=" + std::to_string(to_double(w)) + (ok_lerp ? "" : " lerp") + (ok_mul ? "" : " addcmul") +
                (ok_div ? "" : " addcdiv");
      }
    }
  }
  INFO(type_name<T>() << ": " << bad << " outside; first: " << first);
  CHECK(bad == 0);
  // lerp's ends exactly.
  CHECK(to_double(ew::lerp<T>{}(from_double<T>(3.0), from_double<T>(7.0), from_double<T>(1.0))) == 7.0);
  CHECK(to_double(ew::lerp<T>{}(from_double<T>(3.0), from_double<T>(7.0), from_double<T>(0.0))) == 3.0);
}

TEMPLATE_TEST_CASE("catalog: comparisons, predicates, where, nan_to_num and identity are exact",
                   "[catalog][host]", EW_TEST_FLOAT_TYPES) {
  using T = TestType;
  std::size_t bad = 0;
  std::string first;
  const T lo = ew::detail::largest_finite<T>();
  const double big = to_double(lo);
  for (const T b : second_operands<T>()) {
    const double db = to_double(b);
    for (const T a : first_operands<T>()) {
      const double da = to_double(a);
      const bool ok = ew::equal<T>{}(a, b) == (da == db) && ew::not_equal<T>{}(a, b) == (da != db) &&
                      ew::less<T>{}(a, b) == (da < db) && ew::less_equal<T>{}(a, b) == (da <= db) &&
                      ew::greater<T>{}(a, b) == (da > db) && ew::greater_equal<T>{}(a, b) == (da >= db) &&
                      ew::isnan<T>{}(a) == std::isnan(da) && ew::isinf<T>{}(a) == std::isinf(da) &&
                      ew::isfinite<T>{}(a) == std::isfinite(da) && same_bits(ew::where<T>{}(true, a, b), a) &&
                      same_bits(ew::where<T>{}(false, a, b), b) && same_bits(ew::identity<T>{}(a), a);
      const T n = ew::nan_to_num<T>{}(a);
      const double want_n = std::isnan(da) ? 0.0 : (std::isinf(da) ? (da > 0 ? big : -big) : da);
      const bool ok_n = to_double(n) == want_n && (std::isnan(da) || std::isinf(da) || same_bits(n, a));
      if (!(ok && ok_n) && bad++ == 0) first = std::to_string(da) + " vs " + std::to_string(db);
    }
  }
  INFO(type_name<T>() << ": " << bad << " wrong; first: " << first);
  CHECK(bad == 0);
  // Largest finite values from the definitions.
  CHECK(big == (std::is_same_v<T, __half>          ? 65504.0
                : std::is_same_v<T, __nv_bfloat16> ? 3.3895313892515355e38
                : std::is_same_v<T, float>         ? static_cast<double>(std::numeric_limits<float>::max())
                                                   : std::numeric_limits<double>::max()));
  // nan_to_num's parameters.
  const ew::nan_to_num<T> custom{from_double<T>(-1.0), from_double<T>(2.0), from_double<T>(-2.0)};
  CHECK(to_double(custom(from_double<T>(std::nan("")))) == -1.0);
  CHECK(to_double(custom(from_double<T>(INFINITY))) == 2.0);
  CHECK(to_double(custom(from_double<T>(-INFINITY))) == -2.0);
}

TEST_CASE("catalog: FP8 predicates and the largest finite values", "[catalog][host]") {
  using E4 = __nv_fp8_e4m3;
  using E5 = __nv_fp8_e5m2;
  CHECK(static_cast<float>(ew::detail::largest_finite<E4>()) == 448.f);
  CHECK(static_cast<float>(ew::detail::largest_finite<E5>()) == 57344.f);
  for (int bits = 0; bits < 256; ++bits) {
    E4 a;
    E5 b;
    a.__x = static_cast<__nv_fp8_storage_t>(bits);
    b.__x = static_cast<__nv_fp8_storage_t>(bits);
    const float fa = static_cast<float>(a), fb = static_cast<float>(b);
    CHECK(ew::isnan<E4>{}(a) == std::isnan(fa));
    CHECK(ew::isinf<E4>{}(a) == false);  // e4m3 has no infinity
    CHECK(ew::isnan<E5>{}(b) == std::isnan(fb));
    CHECK(ew::isinf<E5>{}(b) == std::isinf(fb));
    CHECK(ew::isfinite<E5>{}(b) == std::isfinite(fb));
  }
}

namespace {

/// The integer ops against 64-bit arithmetic: and, or, xor, not on the two's-complement bits; shifts as
/// multiplication and floor division by powers of two, 0 (left) or the sign (right) past the width.
template <class T>
void check_integer_bits() {
  using U = std::make_unsigned_t<T>;
  constexpr int bits = 8 * static_cast<int>(sizeof(T));
  std::mt19937_64 rng(base_seed() + sizeof(T) * 2 + std::is_signed_v<T>);
  std::vector<T> as{T(0),
                    T(1),
                    static_cast<T>(-1),
                    std::numeric_limits<T>::max(),
                    std::numeric_limits<T>::min(),
                    T(5),
                    static_cast<T>(-6)};
  for (int i = 0; i < 2000; ++i) as.push_back(static_cast<T>(rng()));
  std::vector<T> shifts;
  for (int s = -2; s <= bits + 2; ++s) {
    if (std::is_unsigned_v<T> && s < 0) continue;
    shifts.push_back(static_cast<T>(s));
  }
  std::size_t bad = 0;
  for (T a : as) {
    const T b = static_cast<T>(rng());
    const std::uint64_t ua = static_cast<U>(a), ub = static_cast<U>(b),
                        mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    bad += static_cast<std::uint64_t>(static_cast<U>(ew::bit_and<T>{}(a, b))) != (ua & ub);
    bad += static_cast<std::uint64_t>(static_cast<U>(ew::bit_or<T>{}(a, b))) != (ua | ub);
    bad += static_cast<std::uint64_t>(static_cast<U>(ew::bit_xor<T>{}(a, b))) != (ua ^ ub);
    bad += static_cast<std::uint64_t>(static_cast<U>(ew::bit_not<T>{}(a))) != (~ua & mask);
    for (T s : shifts) {
      const long long sv = static_cast<long long>(s);
      const bool out = sv < 0 || sv >= bits;
      // Left: a * 2^s modulo 2^bits.
      std::uint64_t left = 0;
      if (!out) {
        left = ua;
        for (long long k = 0; k < sv; ++k) left = (left * 2) & mask;
      }
      bad += static_cast<std::uint64_t>(static_cast<U>(ew::shift_left<T>{}(a, s))) != left;
      // Right: floor(a / 2^s), the sign past the width.
      long double q = static_cast<long double>(a);
      T right;
      if (out) {
        right = ew::detail::below_zero(a) ? static_cast<T>(-1) : T(0);
      } else {
        right = static_cast<T>(std::floor(q / std::ldexp(1.0L, static_cast<int>(sv))));
      }
      bad += ew::shift_right<T>{}(a, s) != right;
    }
  }
  INFO(type_name<T>() << ": " << bad << " wrong");
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("catalog: integer bit operations, shifts past the width included", "[catalog][host]") {
  check_integer_bits<std::int8_t>();
  check_integer_bits<std::uint8_t>();
  check_integer_bits<std::int16_t>();
  check_integer_bits<std::uint16_t>();
  check_integer_bits<std::int32_t>();
  check_integer_bits<std::uint32_t>();
  check_integer_bits<std::int64_t>();
  check_integer_bits<std::uint64_t>();
}

TEST_CASE("catalog: the new ops of 16-bit types compute in float in a compose chain", "[catalog][host]") {
  // sqrt then exp2 then rsqrt, once in float: against the same float math rounded once.
  std::size_t bad = 0;
  for (const __half x : functor_inputs<__half>(0, 0)) {
    const float f = __half2float(x);
    const float want = 1.0f / std::sqrt(std::exp2(std::sqrt(f)));
    const __half got = ew::compose(ew::sqrt<__half>{}, ew::exp2<__half>{}, ew::rsqrt<__half>{})(x);
    const __half w = __float2half_rn(want);
    // The host's 1 / sqrt and exp2f may differ from float's correctly rounded values by an ulp of float,
    // which moves the one rounding to __half by at most one step.
    bad += ulp_distance<__half>(got, w) > 1;
  }
  CHECK(bad == 0);
}
