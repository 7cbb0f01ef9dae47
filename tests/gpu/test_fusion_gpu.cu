// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Fusion with ew::compose: four common fusion patterns and sigmoid(x) * 2 + 1, each run as one fused ew
// launch and checked three ways:
// - against the same stages as separate ew launches on the GPU (intermediates in device memory): bit for
//   bit, since every stage rounds to its own type either way: fusing changes where the intermediates live,
//   not what they are;
// - against the unfused sequence computed on the CPU (one loop per stage over the whole array, with ew's
//   functors on the host): bit for bit for the arithmetic patterns (IEEE operations, fma written as such),
//   within the stated bound for the transcendental ones (the host's C library and CUDA's math functions
//   each within their stated bound of the true value, so within the sum of the two of each other);
// - guard bands and poisoned outputs at sizes 1, 31, 4097 and 1000003, at aligned, equally misaligned and
//   differently misaligned pointers.
//
// Patterns: activation + linear (ReLU then scale, and relu(x * alpha) + bias), activation chain (sigmoid then
// tanh), normalisation pre/post (sub, mul, add: scalars, and a per-element mean as a second input), residual
// add + ReLU; and sigmoid(x) * 2 + 1, in float and as a __half chain kept in float.

#include <array>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/functor_reference.cuh"
#include "../common/launch_helpers.cuh"
#include "../common/test_utils.cuh"

using namespace ew_test;

namespace {

/// (output, inputs) element offsets: aligned, equally misaligned, differently misaligned (scalar path).
const std::vector<std::array<std::size_t, 2>>& offsets() {
  static const std::vector<std::array<std::size_t, 2>> o{{0, 0}, {1, 1}, {0, 3}};
  return o;
}
const std::vector<std::size_t>& sizes() {
  static const std::vector<std::size_t> s{1, 31, 4097, 1000003};
  return s;
}

/// The unfused sequence on the CPU: stage K applied to every element of `t`, then stage K + 1, ... The last
/// stage's result is converted to `Out` (what the launcher does on the GPU).
template <class Out, std::size_t K, class Stages, class V>
std::vector<Out> cpu_rest(const Stages& stages, const std::vector<V>& t) {
  if constexpr (K == std::tuple_size_v<Stages>) {
    std::vector<Out> out(t.size());
    for (std::size_t i = 0; i < t.size(); ++i) out[i] = ew::convert<Out>(t[i]);
    return out;
  } else {
    using R = std::decay_t<decltype(std::get<K>(stages)(std::declval<V>()))>;
    std::vector<R> u(t.size());
    for (std::size_t i = 0; i < t.size(); ++i) u[i] = std::get<K>(stages)(t[i]);
    return cpu_rest<Out, K + 1>(stages, u);
  }
}
template <class Out, class Stages, class... In>
std::vector<Out> cpu_unfused(const Stages& stages, const std::vector<In>&... ins) {
  const std::size_t n = std::get<0>(std::forward_as_tuple(ins...)).size();
  using R = std::decay_t<decltype(std::get<0>(stages)(std::declval<In>()...))>;
  std::vector<R> t(n);
  for (std::size_t i = 0; i < n; ++i) t[i] = std::get<0>(stages)(ins[i]...);
  return cpu_rest<Out, 1>(stages, t);
}

/// The unfused sequence on the GPU: one ew launch per stage, each writing a device array that the next
/// reads; the last writes `Out`.
template <class Out, std::size_t K, class Stages, class V>
std::vector<Out> gpu_rest(const Stages& stages, const std::vector<V>& t, std::size_t off,
                          cudaStream_t stream) {
  if constexpr (K + 1 == std::tuple_size_v<Stages>) {
    return guarded_launch<Out>(std::get<K>(stages), off, off, stream, t);
  } else {
    using R = std::decay_t<decltype(std::get<K>(stages)(std::declval<V>()))>;
    return gpu_rest<Out, K + 1>(stages, guarded_launch<R>(std::get<K>(stages), off, off, stream, t), off,
                                stream);
  }
}
template <class Out, class Stages, class... In>
std::vector<Out> gpu_unfused(const Stages& stages, const std::array<std::size_t, 2>& off, cudaStream_t stream,
                             const std::vector<In>&... ins) {
  using R = std::decay_t<decltype(std::get<0>(stages)(std::declval<In>()...))>;
  if constexpr (std::tuple_size_v<Stages> == 1) {
    return guarded_launch<Out>(std::get<0>(stages), off[0], off[1], stream, ins...);
  } else {
    return gpu_rest<Out, 1>(stages, guarded_launch<R>(std::get<0>(stages), off[0], off[1], stream, ins...),
                            off[0], stream);
  }
}

/// Runs `compose(stages...)` as one launch over `ins` and checks it against the same stages as separate
/// GPU launches (bit for bit) and against the unfused CPU sequence (within `cpu_ulps`; 0 is bit for bit).
template <class Out, class Stages, class... In>
void check_fused(const char* name, std::uint64_t cpu_ulps, const Stages& stages,
                 const std::array<std::size_t, 2>& off, cudaStream_t stream, const std::vector<In>&... ins) {
  const std::size_t n = std::get<0>(std::forward_as_tuple(ins...)).size();
  const auto fused = std::apply([](auto... s) { return ew::compose(s...); }, stages);
  const std::vector<Out> got = guarded_launch<Out>(fused, off[0], off[1], stream, ins...);
  const std::vector<Out> separate = gpu_unfused<Out>(stages, off, stream, ins...);
  const std::vector<Out> cpu = cpu_unfused<Out>(stages, ins...);
  std::size_t bad_gpu = 0, bad_cpu = 0, first_gpu = n, first_cpu = n;
  for (std::size_t i = 0; i < n; ++i) {
    if (!same_value(got[i], separate[i]) && bad_gpu++ == 0) first_gpu = i;
    const bool cpu_ok =
        cpu_ulps == 0 ? same_value(got[i], cpu[i]) : ulp_distance<Out>(got[i], cpu[i]) <= cpu_ulps;
    if (!cpu_ok && bad_cpu++ == 0) first_cpu = i;
  }
  INFO(name << ", n=" << n << " offsets out " << off[0] << " in " << off[1] << ": fused vs "
            << std::tuple_size_v<Stages> << " separate launches: " << bad_gpu << " differ"
            << (first_gpu < n ? " (first " + std::to_string(first_gpu) + ": " +
                                    std::to_string(to_double(got[first_gpu])) + " vs " +
                                    std::to_string(to_double(separate[first_gpu])) + ")"
                              : std::string())
            << "; fused vs CPU unfused (" << cpu_ulps << " ulp allowed): " << bad_cpu << " differ"
            << (first_cpu < n ? " (first " + std::to_string(first_cpu) + ": " +
                                    std::to_string(to_double(got[first_cpu])) + " vs " +
                                    std::to_string(to_double(cpu[first_cpu])) + ")"
                              : std::string()));
  CHECK(bad_gpu == 0);
  CHECK(bad_cpu == 0);
}

/// Runs `body(n, off, seed)` for every size and offset.
template <class Body>
void for_sizes_and_offsets(Body&& body) {
  for (std::size_t n : sizes()) {
    for (const auto& off : offsets()) body(n, off, base_seed() + 13 * n + off[1]);
  }
}

/// Inputs with the extremes first (+-0, +-inf, NaN, huge, tiny), then seeded values in +-[0.25, 8].
std::vector<float> inputs(std::size_t n, std::uint64_t seed) {
  std::vector<float> x = random_values<float>(n, seed);
  const std::vector<float> extremes = functor_inputs<float>(40, seed);  // the extremes come first
  for (std::size_t i = 0; i < n && i < 39; ++i) x[i] = extremes[i];
  return x;
}

}  // namespace

TEST_CASE("activation + linear: relu then scale, and relu(x * alpha) + bias", "[fusion]") {
  test_stream stream;
  for_sizes_and_offsets([&](std::size_t n, const std::array<std::size_t, 2>& off, std::uint64_t seed) {
    INFO("seed " << seed);
    const std::vector<float> x = inputs(n, seed);
    check_fused<float>("relu then scale_bias{1.5, -0.25}", 0,
                       std::make_tuple(ew::relu<float>{}, ew::scale_bias<float>{1.5f, -0.25f}), off, stream.s,
                       x);
    // Scale, relu, add a bias: val * alpha, relu, + bias (three stages, each its own rounding).
    check_fused<float>("scale, relu, add bias", 0,
                       std::make_tuple(ew::scale_bias<float>{0.75f, 0.f}, ew::relu<float>{},
                                       ew::scale_bias<float>{1.f, 0.125f}),
                       off, stream.s, x);
  });
}

TEST_CASE("activation chain: sigmoid then tanh", "[fusion]") {
  // CPU vs GPU: each side is within 5 ulp of sigmoid's value, a relative error that tanh carries through
  // undiminished at worst (its condition number is below 1 on (0, 1)) and that is up to 10 ulp of the
  // result, whose ulp may be half sigmoid's; plus 3 ulp of tanh: 13 ulp of the true value, 26 of each other.
  test_stream stream;
  for_sizes_and_offsets([&](std::size_t n, const std::array<std::size_t, 2>& off, std::uint64_t seed) {
    INFO("seed " << seed);
    const std::vector<float> x = inputs(n, seed);
    check_fused<float>("sigmoid then tanh", 26, std::make_tuple(ew::sigmoid<float>{}, ew::tanh<float>{}), off,
                       stream.s, x);
  });
}

TEST_CASE("normalisation pre/post: (x - mean) * inv_std * gamma + beta", "[fusion]") {
  const float mean = 0.375f, inv_std = 0.8f, gamma = 1.25f, beta = -0.5f;
  test_stream stream;
  for_sizes_and_offsets([&](std::size_t n, const std::array<std::size_t, 2>& off, std::uint64_t seed) {
    INFO("seed " << seed);
    const std::vector<float> x = inputs(n, seed);
    // Scalar parameters: subtract, multiply, multiply-add.
    check_fused<float>("sub mean, mul inv_std, fma gamma beta", 0,
                       std::make_tuple(ew::scale_bias<float>{1.f, -mean}, ew::scale_bias<float>{inv_std, 0.f},
                                       ew::scale_bias<float>{gamma, beta}),
                       off, stream.s, x);
    // A per-element mean as a second input: the first stage takes two.
    const std::vector<float> m = random_values<float>(n, seed + 1, 0.01, 1.0);
    check_fused<float>("sub tensor, mul, fma", 0,
                       std::make_tuple(ew::sub<float>{}, ew::scale_bias<float>{inv_std, 0.f},
                                       ew::scale_bias<float>{gamma, beta}),
                       off, stream.s, x, m);
  });
}

TEST_CASE("residual add + relu: relu(x + r)", "[fusion]") {
  test_stream stream;
  for_sizes_and_offsets([&](std::size_t n, const std::array<std::size_t, 2>& off, std::uint64_t seed) {
    INFO("seed " << seed);
    const std::vector<float> x = inputs(n, seed), r = random_values<float>(n, seed + 1);
    check_fused<float>("add then relu", 0, std::make_tuple(ew::add<float>{}, ew::relu<float>{}), off,
                       stream.s, x, r);
  });
}

TEST_CASE("sigmoid(x) * 2 + 1", "[fusion]") {
  // Three stages (sigmoid, * 2, + 1) against three separate launches, bit for bit; against the CPU, each side
  // within 5 ulp of sigmoid (doubling is exact, adding 1 to a value in (0, 2) loses no relative accuracy)
  // plus one rounding: 12 ulp of each other. The two-stage form with one fma rounds once less; it is checked
  // against long double within 6 ulp.
  test_stream stream;
  for_sizes_and_offsets([&](std::size_t n, const std::array<std::size_t, 2>& off, std::uint64_t seed) {
    INFO("seed " << seed);
    const std::vector<float> x = inputs(n, seed);
    check_fused<float>("sigmoid, *2, +1", 12,
                       std::make_tuple(ew::sigmoid<float>{}, ew::scale_bias<float>{2.f, 0.f},
                                       ew::scale_bias<float>{1.f, 1.f}),
                       off, stream.s, x);
    const auto fused = ew::compose(ew::sigmoid<float>{}, ew::scale_bias<float>{2.f, 1.f});
    const std::vector<float> got = guarded_launch<float>(fused, off[0], off[1], stream.s, x);
    const unary_spec spec{
        "sigmoid(x) * 2 + 1", [](ldouble v) { return 2 / (1 + std::exp(-v)) + 1; }, 6, 6, 1, 0};
    std::size_t bad = 0;
    std::string first;
    for (std::size_t i = 0; i < n; ++i) {
      const std::string msg = check_unary_value<float>(spec, x[i], got[i]);
      if (!msg.empty() && bad++ == 0) first = msg;
    }
    INFO("compose(sigmoid, scale_bias{2, 1}), n=" << n << ": " << bad << " outside 6 ulp; first: " << first);
    CHECK(bad == 0);
  });
}

TEST_CASE("a __half chain kept in float rounds once: compose(cast<float>, sigmoid, scale_bias{2, 1})",
          "[fusion]") {
  test_stream stream;
  const std::vector<__half> all = functor_inputs<__half>(0, 0);  // every __half value
  for (std::size_t n : {std::size_t{31}, all.size(), std::size_t{1000003}}) {
    std::vector<__half> x(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = all[(i * 40503) % all.size()];
    for (const auto& off : offsets()) {
      // Against the CPU's float chain, each rounded once to __half: 1 ulp (the float values may differ by a
      // few float ulp, which moves a rounding of __half at most one step).
      check_fused<__half>(
          "cast<float>, sigmoid, scale_bias{2, 1} -> __half", 1,
          std::make_tuple(ew::cast<float>{}, ew::sigmoid<float>{}, ew::scale_bias<float>{2.f, 1.f}), off,
          stream.s, x);
      // And against long double: 1 ulp of __half.
      const auto fused =
          ew::compose(ew::cast<float>{}, ew::sigmoid<float>{}, ew::scale_bias<float>{2.f, 1.f});
      const std::vector<__half> got = guarded_launch<__half>(fused, off[0], off[1], stream.s, x);
      const unary_spec spec{
          "sigmoid(x) * 2 + 1", [](ldouble v) { return 2 / (1 + std::exp(-v)) + 1; }, 6, 6, 1, 0};
      std::size_t bad = 0;
      std::string first;
      for (std::size_t i = 0; i < n; ++i) {
        const std::string msg = check_unary_value<__half>(spec, x[i], got[i]);
        if (!msg.empty() && bad++ == 0) first = msg;
      }
      INFO("__half chain, n=" << n << " offsets " << off[0] << "," << off[1] << ": " << bad
                              << " outside 1 ulp; first: " << first);
      CHECK(bad == 0);
    }
  }
}

namespace {
/// The chain fma, clamp to [-6, 6], scale_bias{0.375, -1.25} as one float functor of 16-bit inputs: the
/// launcher rounds its result once.
template <class T>
struct chain_in_float {
  EW_HD float operator()(T a, T b, T c) const {
    float v = ::fmaf(ew::up(a), ew::up(b), ew::up(c));
    v = v < -6.f ? -6.f : (6.f < v ? 6.f : v);  // NaN stays NaN
    return ::fmaf(0.375f, v, -1.25f);
  }
};

template <class T>
void check_chain_rounds_once(cudaStream_t stream) {
  const std::vector<T> all = functor_inputs<T>(0, 0);  // every value
  const auto stages = std::make_tuple(ew::fma<T>{}, ew::clamp<T>{ew::convert<T>(-6.f), ew::convert<T>(6.f)},
                                      ew::scale_bias<T>{0.375f, -1.25f});
  for (std::size_t n : {std::size_t{31}, all.size(), std::size_t{1000003}}) {
    std::vector<T> a(n), b = random_values<T>(n, base_seed() + n, 0.25, 2.0),
                         c = random_values<T>(n, base_seed() + 2 * n);
    for (std::size_t i = 0; i < n; ++i) a[i] = all[(i * 40503) % all.size()];
    for (const auto& off : offsets()) {
      INFO("n=" << n << " offsets " << off[0] << "," << off[1]);
      const auto fused = std::apply([](auto... s) { return ew::compose(s...); }, stages);
      const auto per_stage = std::apply([](auto... s) { return ew::compose_per_stage(s...); }, stages);
      const std::vector<T> got = guarded_launch<T>(fused, off[0], off[1], stream, a, b, c);
      const std::vector<T> want = guarded_launch<T>(chain_in_float<T>{}, off[0], off[1], stream, a, b, c);
      const std::vector<T> got_per_stage = guarded_launch<T>(per_stage, off[0], off[1], stream, a, b, c);
      const std::vector<T> separate = gpu_unfused<T>(stages, off, stream, a, b, c);
      std::size_t wrong = 0, wrong_per_stage = 0;
      for (std::size_t i = 0; i < n; ++i) {
        wrong += !same_value(got[i], want[i]);
        wrong_per_stage += !same_value(got_per_stage[i], separate[i]);
      }
      CHECK(wrong == 0);
      CHECK(wrong_per_stage == 0);
    }
  }
}
}  // namespace

TEST_CASE("16-bit chains: compose computes in float and rounds once, compose_per_stage as separate launches",
          "[fusion]") {
  test_stream stream;
  check_chain_rounds_once<__half>(stream.s);
  check_chain_rounds_once<__nv_bfloat16>(stream.s);
}
