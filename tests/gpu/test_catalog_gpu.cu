// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// The ops of ops_math.cuh and ops_logic.cuh through the launcher on the GPU (ctest gpu.catalog), against
// the references and bounds the host tests use (tests/common/functor_reference.cuh;
// tests/host/test_catalog_host.cu): every value of __half and __nv_bfloat16, shuffled and repeated, and a
// sample with the extremes for float and double, at aligned and misaligned offsets; comparisons into
// `bool` outputs; `where` from a `bool` input; the integer bit operations.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/functor_reference.cuh"
#include "../common/launch_helpers.cuh"
#include "../common/test_utils.cuh"

using namespace ew_test;

namespace {

enum class catalog_unary {
  sqrt,
  rsqrt,
  reciprocal,
  square,
  exp2,
  log2,
  log1p,
  expm1,
  sin,
  cos,
  erf,
  floor,
  ceil,
  round,
  trunc,
  sign,
  identity,
  elu,
  selu,
  mish,
  softsign,
  logsigmoid
};
constexpr catalog_unary catalog_unary_ops[] = {
    catalog_unary::sqrt,     catalog_unary::rsqrt,     catalog_unary::reciprocal, catalog_unary::square,
    catalog_unary::exp2,     catalog_unary::log2,      catalog_unary::log1p,      catalog_unary::expm1,
    catalog_unary::sin,      catalog_unary::cos,       catalog_unary::erf,        catalog_unary::floor,
    catalog_unary::ceil,     catalog_unary::round,     catalog_unary::trunc,      catalog_unary::sign,
    catalog_unary::identity, catalog_unary::elu,       catalog_unary::selu,       catalog_unary::mish,
    catalog_unary::softsign, catalog_unary::logsigmoid};

/// The catalog's unary ops, chosen at run time.
template <class T>
struct catalog_unary_switch {
  catalog_unary op;
  EW_HD T operator()(T x) const {
    switch (op) {
      case catalog_unary::sqrt:
        return ew::sqrt<T>{}(x);
      case catalog_unary::rsqrt:
        return ew::rsqrt<T>{}(x);
      case catalog_unary::reciprocal:
        return ew::reciprocal<T>{}(x);
      case catalog_unary::square:
        return ew::square<T>{}(x);
      case catalog_unary::exp2:
        return ew::exp2<T>{}(x);
      case catalog_unary::log2:
        return ew::log2<T>{}(x);
      case catalog_unary::log1p:
        return ew::log1p<T>{}(x);
      case catalog_unary::expm1:
        return ew::expm1<T>{}(x);
      case catalog_unary::sin:
        return ew::sin<T>{}(x);
      case catalog_unary::cos:
        return ew::cos<T>{}(x);
      case catalog_unary::erf:
        return ew::erf<T>{}(x);
      case catalog_unary::floor:
        return ew::floor<T>{}(x);
      case catalog_unary::ceil:
        return ew::ceil<T>{}(x);
      case catalog_unary::round:
        return ew::round<T>{}(x);
      case catalog_unary::trunc:
        return ew::trunc<T>{}(x);
      case catalog_unary::sign:
        return ew::sign<T>{}(x);
      case catalog_unary::identity:
        return ew::identity<T>{}(x);
      case catalog_unary::elu:
        return ew::elu<T>{}(x);
      case catalog_unary::selu:
        return ew::selu<T>{}(x);
      case catalog_unary::mish:
        return ew::mish<T>{}(x);
      case catalog_unary::softsign:
        return ew::softsign<T>{}(x);
      case catalog_unary::logsigmoid:
        return ew::logsigmoid<T>{}(x);
    }
    return x;
  }
};

const unary_spec& catalog_spec(catalog_unary op) {
  const unary_spec* specs[] = {&spec_sqrt,     &spec_rsqrt,     &spec_reciprocal, &spec_square, &spec_exp2,
                               &spec_log2,     &spec_log1p,     &spec_expm1,      &spec_sin_op, &spec_cos_op,
                               &spec_erf,      &spec_floor,     &spec_ceil,       &spec_round,  &spec_trunc,
                               &spec_sign,     &spec_identity,  &spec_elu,        &spec_selu,   &spec_mish,
                               &spec_softsign, &spec_logsigmoid};
  return *specs[static_cast<int>(op)];
}

/// (output, input) element offsets: aligned, equally misaligned, differently misaligned (scalar path).
const std::array<std::array<std::size_t, 2>, 3> catalog_offsets{{{0, 0}, {1, 1}, {0, 3}}};

/// n inputs: every value of a 16-bit type shuffled and repeated; for float and double the sample with the
/// extremes.
template <class T>
std::vector<T> catalog_inputs(std::size_t n, std::uint64_t seed) {
  std::vector<T> base = functor_inputs<T>(sizeof(T) == 2 ? 0 : n, seed);
  if (sizeof(T) == 2) std::shuffle(base.begin(), base.end(), std::mt19937_64(seed));
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = base[i % base.size()];
  return v;
}

/// The second operands, cycled: both signs, zero, fractions, NaN and infinities.
template <class T>
std::vector<T> catalog_seconds(std::size_t n, std::size_t shift) {
  const double inf = std::numeric_limits<double>::infinity();
  const double d[] = {-2.5, -1.0, -0.5, -0.0, 0.0, 0.75, 1.0, 3.0, 10.0, std::nan(""), inf, -inf};
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = from_double<T>(d[(i / 7 + shift) % 12]);
  return v;
}

}  // namespace

TEMPLATE_TEST_CASE("catalog on the GPU: unary functions within their stated ulp of long double", "[catalog]",
                   EW_TEST_FLOAT_TYPES) {
  using T = TestType;
  test_stream stream;
  for (std::size_t n : {std::size_t{31}, std::size_t{1000003}}) {
    const std::uint64_t seed = base_seed() + n;
    const std::vector<T> x = catalog_inputs<T>(n, seed);
    for (const auto& off : catalog_offsets) {
      for (catalog_unary op : catalog_unary_ops) {
        const unary_spec& spec = catalog_spec(op);
        const std::vector<T> got =
            guarded_launch<T>(catalog_unary_switch<T>{op}, off[0], off[1], stream.s, x);
        std::size_t bad = 0;
        std::string first;
        for (std::size_t i = 0; i < n; ++i) {
          const std::string msg = check_unary_value<T>(spec, x[i], got[i]);
          if (!msg.empty() && bad++ == 0) first = "element " + std::to_string(i) + ": " + msg;
        }
        INFO(spec.name << "<" << type_name<T>() << "> on the GPU, n=" << n << " offsets " << off[0] << ","
                       << off[1] << ", seed " << seed << ": stated bound " << spec_ulps<T>(spec) << " ulp; "
                       << bad << " outside it; first: " << first);
        CHECK(bad == 0);
      }
    }
  }
}

TEMPLATE_TEST_CASE("catalog on the GPU: pow, swiglu, geglu, lerp, addcmul and addcdiv", "[catalog]",
                   EW_TEST_FLOAT_TYPES) {
  using T = TestType;
  using C = ew::compute_t<T>;
  test_stream stream;
  const std::size_t n = 1000003;
  const std::vector<T> a = catalog_inputs<T>(n, base_seed() + 5), b = catalog_seconds<T>(n, 0),
                       w = catalog_seconds<T>(n, 5);
  const bool is16 = sizeof(T) == 2;
  const std::uint64_t pow_ulps = is16 ? 1 : (std::is_same_v<T, float> ? 8 : 2);
  const std::uint64_t swiglu_ulps = is16 ? 1 : spec_silu.ulps_f32 + 1,
                      geglu_ulps = is16 ? 1 : spec_gelu.ulps_f32 + 1;
  for (const auto& off : catalog_offsets) {
    const auto p = guarded_launch<T>(ew::pow<T>{}, off[0], off[1], stream.s, a, b);
    const auto s = guarded_launch<T>(ew::swiglu<T>{}, off[0], off[1], stream.s, a, b);
    const auto g = guarded_launch<T>(ew::geglu<T>{}, off[0], off[1], stream.s, a, b);
    const auto l = guarded_launch<T>(ew::lerp<T>{}, off[0], off[1], stream.s, a, b, w);
    const auto m = guarded_launch<T>(ew::addcmul<T>{0.5f}, off[0], off[1], stream.s, a, b, w);
    const auto d = guarded_launch<T>(ew::addcdiv<T>{0.5f}, off[0], off[1], stream.s, a, b, w);
    std::size_t bad = 0;
    std::string first;
    for (std::size_t i = 0; i < n; ++i) {
      const ldouble la = to_ld(a[i]), lb = to_ld(b[i]), lw = to_ld(w[i]), diff = lb - la;
      const ldouble silu = static_cast<C>(ref_silu(la)), gelu = static_cast<C>(ref_gelu(la));
      const ldouble tiny = (2 * std::fabs(la) + 2) * std::numeric_limits<C>::denorm_min();
      const bool inf_b = std::isinf(lb);
      std::string msg = check_value_against<T>("pow", std::pow(la, lb), p[i], pow_ulps);
      if (msg.empty() && !(inf_b && std::fabs(silu) <= tiny))
        msg = check_value_against<T>("swiglu", silu * lb, s[i], swiglu_ulps, 2 * std::fabs(la * lb) + 2);
      if (msg.empty() && !(inf_b && std::fabs(gelu) <= tiny))
        msg = check_value_against<T>("geglu", gelu * lb, g[i], geglu_ulps, 2 * std::fabs(la * lb) + 2);
      const bool small = std::fabs(lw) < ldouble(0.5);
      const ldouble lerp = small ? la + lw * diff : lb - diff * (1 - lw);
      const ldouble lerp_terms =
          small ? std::fabs(la) + std::fabs(lw * diff) * 2 : std::fabs(lb) + std::fabs(diff * (1 - lw)) * 2;
      if (msg.empty() && !within_forward_error<T>(lerp, l[i], lerp_terms, 3)) msg = "lerp";
      const ldouble v = ldouble(0.5);
      if (msg.empty() &&
          !within_forward_error<T>(la + v * lb * lw, m[i], std::fabs(la) + std::fabs(v * lb * lw), 3))
        msg = "addcmul";
      if (msg.empty() &&
          !within_forward_error<T>(la + v * lb / lw, d[i], std::fabs(la) + std::fabs(v * lb / lw), 3))
        msg = "addcdiv";
      if (!msg.empty() && bad++ == 0)
        first = msg + " at a=" + std::to_string(to_double(a[i])) + " b=" + std::to_string(to_double(b[i])) +
                " w=" + std::to_string(to_double(w[i]));
    }
    INFO(type_name<T>() << " offsets " << off[0] << "," << off[1] << ": " << bad
                        << " outside; first: " << first);
    CHECK(bad == 0);
  }
}

TEMPLATE_TEST_CASE("catalog on the GPU: comparisons into bool, where from bool, nan_to_num", "[catalog]",
                   EW_TEST_FLOAT_TYPES) {
  using T = TestType;
  test_stream stream;
  const std::size_t n = 1000003;
  const std::vector<T> a = catalog_inputs<T>(n, base_seed() + 9), b = catalog_seconds<T>(n, 3);
  for (const auto& off : catalog_offsets) {
    const auto lt = guarded_launch<bool>(ew::less<T>{}, off[0], off[1], stream.s, a, b);
    const auto eq = guarded_launch<bool>(ew::equal<T>{}, off[0], off[1], stream.s, a, b);
    const auto ge = guarded_launch<bool>(ew::greater_equal<T>{}, off[0], off[1], stream.s, a, b);
    const auto nan = guarded_launch<bool>(ew::isnan<T>{}, off[0], off[1], stream.s, a);
    const auto fin = guarded_launch<bool>(ew::isfinite<T>{}, off[0], off[1], stream.s, a);
    // The condition as bytes (0 or 1) that convert to where's bool.
    std::vector<std::uint8_t> cond_bytes(n);
    for (std::size_t i = 0; i < n; ++i) cond_bytes[i] = static_cast<std::uint8_t>((i * 2654435761u >> 7) & 1);
    const auto sel = guarded_launch<T>(ew::where<T>{}, off[0], off[1], stream.s, cond_bytes, a, b);
    const auto nn = guarded_launch<T>(ew::nan_to_num<T>{}, off[0], off[1], stream.s, a);
    const double big = to_double(ew::detail::largest_finite<T>());
    std::size_t bad = 0, first = n;
    for (std::size_t i = 0; i < n; ++i) {
      const double da = to_double(a[i]), db = to_double(b[i]);
      const double want_nn = std::isnan(da) ? 0.0 : (std::isinf(da) ? (da > 0 ? big : -big) : da);
      const bool ok = lt[i] == (da < db) && eq[i] == (da == db) && ge[i] == (da >= db) &&
                      nan[i] == std::isnan(da) && fin[i] == std::isfinite(da) &&
                      same_bits(sel[i], cond_bytes[i] ? a[i] : b[i]) && to_double(nn[i]) == want_nn;
      if (!ok && bad++ == 0) first = i;
    }
    INFO(type_name<T>() << " offsets " << off[0] << "," << off[1] << ": " << bad << " wrong, first element "
                        << first);
    CHECK(bad == 0);
  }
}

namespace {
template <class T>
void check_integer_ops_on_gpu(cudaStream_t stream) {
  using U = std::make_unsigned_t<T>;
  constexpr int bits = 8 * static_cast<int>(sizeof(T));
  const std::size_t n = 100003;
  std::mt19937_64 rng(base_seed() + sizeof(T));
  std::vector<T> a(n), b(n), s(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = static_cast<T>(rng());
    b[i] = static_cast<T>(rng());
    s[i] = static_cast<T>(static_cast<int>(i % (bits + 4)) - (std::is_signed_v<T> ? 2 : 0));
  }
  for (const auto& off : catalog_offsets) {
    const auto x_and = guarded_launch<T>(ew::bit_and<T>{}, off[0], off[1], stream, a, b);
    const auto x_xor = guarded_launch<T>(ew::bit_xor<T>{}, off[0], off[1], stream, a, b);
    const auto x_not = guarded_launch<T>(ew::bit_not<T>{}, off[0], off[1], stream, a);
    const auto x_shl = guarded_launch<T>(ew::shift_left<T>{}, off[0], off[1], stream, a, s);
    const auto x_shr = guarded_launch<T>(ew::shift_right<T>{}, off[0], off[1], stream, a, s);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t ua = static_cast<U>(a[i]), ub = static_cast<U>(b[i]);
      const std::uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
      const long long sv = static_cast<long long>(s[i]);
      const bool out = sv < 0 || sv >= bits;
      const std::uint64_t left = out ? 0 : (ua << sv) & mask;
      const T right = out ? (ew::detail::below_zero(a[i]) ? static_cast<T>(-1) : T(0))
                          : static_cast<T>(std::floor(static_cast<long double>(a[i]) /
                                                      std::ldexp(1.0L, static_cast<int>(sv))));
      bad += static_cast<std::uint64_t>(static_cast<U>(x_and[i])) != (ua & ub);
      bad += static_cast<std::uint64_t>(static_cast<U>(x_xor[i])) != (ua ^ ub);
      bad += static_cast<std::uint64_t>(static_cast<U>(x_not[i])) != (~ua & mask);
      bad += static_cast<std::uint64_t>(static_cast<U>(x_shl[i])) != left;
      bad += x_shr[i] != right;
    }
    INFO(type_name<T>() << " offsets " << off[0] << "," << off[1] << ": " << bad << " wrong");
    CHECK(bad == 0);
  }
}
}  // namespace

TEST_CASE("catalog on the GPU: integer bit operations", "[catalog]") {
  test_stream stream;
  check_integer_ops_on_gpu<std::int32_t>(stream.s);
  check_integer_ops_on_gpu<std::uint8_t>(stream.s);
  check_integer_ops_on_gpu<std::int64_t>(stream.s);
}
