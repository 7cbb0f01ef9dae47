// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// The kernel's per-thread body (`elementwise_grid_thread`, the exact code each GPU thread runs) on the host,
// with vector_access.cuh's host twins of the vector loads and stores: every thread of a simulated grid,
// shaped by the launcher's own choices (vector_head, plan_paths with the default policy), over host arrays at
// many pointer offsets. Each output element must equal the functor applied to its own inputs, and no byte
// around the outputs may change. This catches what the schedule-only simulation cannot: lanes of a vector
// stored in the wrong order, a vector written to the wrong place, the wrong input read.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/test_utils.cuh"

namespace {

using ew::detail::no_vector_path;
using ew::detail::pointer_info;
using ew::detail::vector_head;

/// A host array of `n` elements of `T` at byte offset `offset` past a 256-byte boundary: a typed view of a
/// host guarded_buffer (tests/common/test_utils.cuh) with 768 guard bytes on each side.
template <class T>
struct host_array {
  ew_test::guarded_buffer buf;
  host_array(std::size_t n, std::size_t offset)
      : buf(n * sizeof(T), offset, ew_test::memory_kind::host, 768) {}
  T* data() const { return static_cast<T*>(buf.data()); }
  bool guards_intact() const { return buf.guards_intact(); }
};

/// Distinct bit patterns per element (no zeros), the same for every run of a seed.
template <class T>
void fill(T* p, std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> d(0.25, 8.0);
  for (std::size_t i = 0; i < n; ++i) {
    double v = d(rng);
    if (rng() & 1) v = -v;
    if constexpr (std::is_integral_v<T>) {
      p[i] = static_cast<T>(static_cast<long long>(v * 1000.0));
    } else if constexpr (std::is_same_v<T, float3>) {
      p[i] = make_float3(static_cast<float>(v), static_cast<float>(v * 3), static_cast<float>(-v));
    } else {
      p[i] = ew::convert<T>(v);
    }
  }
}

template <std::size_t... K>
std::tuple<std::integral_constant<std::size_t, K>...> index_tuple(std::index_sequence<K...>) {
  return {};
}

/// Runs the whole simulated grid the launcher would launch for `op` on `n` elements, one output, inputs
/// `In...` at the given element offsets (output first), and checks every output element against
/// `want(inputs...)` and the guards. Returns whether the launch took the whole-tile path
/// (`launch_shape::whole_tiles`). `fill_input` fills each input array (pointer, count, seed).
template <int Vec, int Unroll, class Out, class... In, class Op, class Want, class Fill>
bool run_body_against(Op op, std::size_t n, const std::vector<std::size_t>& offsets, Want want_of,
                      Fill fill_input) {
  host_array<Out> out(n, offsets[0] * sizeof(Out));
  auto make_inputs = [&](auto... k) {
    return std::tuple<host_array<In>...>{host_array<In>(n, offsets[1 + k] * sizeof(In))...};
  };
  auto ins = std::apply(make_inputs, index_tuple(std::index_sequence_for<In...>{}));
  std::apply(
      [&](auto&... a) {
        std::uint64_t s = 1;
        (fill_input(a.data(), n, ew_test::base_seed() + 101 * s++), ...);
      },
      ins);
  std::memset(static_cast<void*>(out.data()), ew_test::poison_byte, n * sizeof(Out));

  std::vector<pointer_info> all{ew::detail::info_of(out.data())};
  std::apply([&](auto&... a) { (all.push_back(ew::detail::info_of(a.data())), ...); }, ins);

  const int head = ew::detail::is_vectorizable_v<Out> && (ew::detail::is_vectorizable_v<In> && ...)
                       ? vector_head(all.data(), static_cast<int>(all.size()), Vec)
                       : no_vector_path;
  using out_ptrs = cuda::std::tuple<Out*>;
  using in_ptrs = cuda::std::tuple<const In*...>;
  using in_operands = cuda::std::tuple<ew::detail::contiguous_input<In>...>;
  const in_operands in_tuple =
      ew::detail::as_operands(std::apply([](auto&... a) { return in_ptrs(a.data()...); }, ins));
  // The launcher's plan for these pointers, then every thread of its grid through the kernel's body.
  constexpr int V =
      ew::detail::is_vectorizable_v<Out> && (ew::detail::is_vectorizable_v<In> && ...) ? Vec : 1;
  const auto plan = ew::detail::plan_paths<V, Unroll>(n, head, ew::tuning::policy_for_cc(90));
  for (std::size_t b = 0; b < plan.shape.blocks; ++b) {
    for (std::size_t th = 0; th < plan.shape.block_threads; ++th) {
      ew::detail::elementwise_grid_thread<Op, V, Unroll, ew::detail::scalar_unroll<Vec, Unroll>>(
          op, plan.part, plan.shape, out_ptrs(out.data()), in_tuple, b, th);
    }
  }

  std::size_t wrong = 0, first = n;
  for (std::size_t i = 0; i < n; ++i) {
    const Out want = std::apply([&](auto&... a) { return want_of(a.data()[i]...); }, ins);
    if (!ew_test::same_bits(out.data()[i], want)) {
      if (wrong++ == 0) first = i;
    }
  }
  INFO("n=" << n << " head=" << head << " first wrong element " << first);
  REQUIRE(wrong == 0);
  REQUIRE(out.guards_intact());
  std::apply([&](auto&... a) { REQUIRE((a.guards_intact() && ...)); }, ins);
  return plan.shape.whole_tiles;
}

/// `run_body_against` with the functor's result converted by `ew::convert` as the reference, inputs from
/// `fill`.
template <int Vec, int Unroll, class Out, class... In, class Op>
bool run_body(Op op, std::size_t n, const std::vector<std::size_t>& offsets) {
  return run_body_against<Vec, Unroll, Out, In...>(
      op, n, offsets, [&](auto... x) { return ew::convert<Out>(op(x...)); },
      [](auto* p, std::size_t count, std::uint64_t seed) { fill(p, count, seed); });
}

struct add3 {
  EW_HD float3 operator()(float3 a, float3 b) const { return make_float3(a.x + b.x, a.y - b.y, a.z * b.z); }
};

/// An op that tells its lanes apart: any swap, shift or repeat of elements changes the result.
struct mix {
  EW_HD float operator()(__half a, float b) const { return ew::up(a) * 3.0f - b; }
};

}  // namespace

TEST_CASE("kernel body on the host: every element and no byte more, at every offset", "[kernel_body]") {
  const std::vector<std::size_t> sizes{1, 2, 3, 5, 8, 15, 16, 17, 31, 33, 255, 256, 257, 1023, 4097, 65537};
  for (std::size_t n : sizes) {
    for (std::size_t a = 0; a < 4; ++a) {
      for (std::size_t b = 0; b < 4; ++b) {
        INFO("n=" << n << " offsets " << a << "," << b);
        run_body<4, 2, float, float>(ew::relu<float>{}, n, {a, b});
        run_body<8, 1, __half, __half, __half>(ew::add<__half>{}, n, {a, b, a});
        run_body<4, 1, float, __half, float>(mix{}, n, {a, a, b});
        run_body<2, 2, double, double>(ew::scale_bias<double>{1.5, -0.25}, n, {a, b});
        run_body<16, 2, std::int8_t, float>(ew::cast<std::int8_t>{}, n, {b, a});
      }
    }
  }
  // Non-power-of-two elements take the scalar path and still cover everything exactly once.
  for (std::size_t n : sizes) run_body<1, 2, float3, float3, float3>(add3{}, n, {0, 1, 2});
}

TEST_CASE("kernel body on the host: launches of whole tiles take the 32-bit whole-tile path",
          "[kernel_body]") {
  // Tiles of 256 vectors: 1024 f32 elements (vectors of 4), 2048 f16, 4096 int8 (vectors of 16).
  for (std::size_t n : {std::size_t{1024}, std::size_t{8192}, std::size_t{1} << 20}) {
    INFO("n=" << n);
    CHECK(run_body<4, 2, float, float>(ew::relu<float>{}, n, {0, 0}));
    CHECK(run_body<8, 1, __half, __half, __half>(ew::add<__half>{}, 2 * n, {0, 0, 0}));
    CHECK(run_body<4, 1, float, __half, float>(mix{}, n, {0, 4, 0}));
    CHECK(run_body<16, 2, std::int8_t, float>(ew::cast<std::int8_t>{}, 4 * n, {0, 0}));
    // A head, a tail or pointers that cannot align together: the general path.
    CHECK_FALSE(run_body<4, 2, float, float>(ew::relu<float>{}, n, {1, 1}));
    CHECK_FALSE(run_body<4, 2, float, float>(ew::relu<float>{}, n + 4, {0, 0}));
    CHECK_FALSE(run_body<4, 2, float, float>(ew::relu<float>{}, n, {0, 1}));
  }
}

namespace {

/// `x * scale` as a float result, for an FP8 output: the kernel body converts it, two lanes at a time
/// through the packed conversion (kernel.cuh's `fp8_pair_bits`).
struct scaled_to_float {
  float scale;
  EW_HD float operator()(float x) const { return x * scale; }
};

/// The same from a bf16 input.
struct scaled_bf16_to_float {
  float scale;
  EW_HD float operator()(__nv_bfloat16 x) const { return ew::up(x) * scale; }
};

/// Values over FP8's whole range and past it: a random sign, a power of two from 2^-20 to 2^11, a random
/// 23-bit mantissa; one element in 61 an infinity.
template <class T>
void fill_wide(T* p, std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t r = rng();
    float v = std::ldexp(1.0f + static_cast<float>(r & 0x7fffffu) * 0x1p-23f,
                         static_cast<int>((r >> 23) % 32) - 20);
    if (i % 61 == 60) v = INFINITY;
    if ((r >> 40) & 1) v = -v;
    p[i] = ew::convert<T>(v);
  }
}

/// An FP8 output through the whole simulated grid at vector width `Vec`, every element checked against
/// cuda_fp8.h's one-value conversion of the op's float result (not `ew::convert`, nor the packed pair).
template <int Vec, int Unroll, class Out, class In, class Op>
void run_fp8_body(Op op, std::size_t n, const std::vector<std::size_t>& offsets) {
  run_body_against<Vec, Unroll, Out, In>(
      op, n, offsets,
      [&](In x) {
        Out r;
        r.__x = __nv_cvt_float_to_fp8(op(x), __NV_SATFINITE,
                                      std::is_same_v<Out, __nv_fp8_e4m3> ? __NV_E4M3 : __NV_E5M2);
        return r;
      },
      [](In* p, std::size_t count, std::uint64_t seed) { fill_wide(p, count, seed); });
}

}  // namespace

TEST_CASE("kernel body on the host: FP8 outputs at every vector width, lanes in order",
          "[kernel_body][fp8]") {
  // Issue 22: a swap of the packed conversion's two bytes in the kernel's result path went unseen by the
  // host tests, which sent no FP8 output through the kernel body (and the host compiled the one-value
  // conversion there). Pairs of lanes now go through the same packing and unpacking on the host as on sm_89.
  for (std::size_t n :
       {std::size_t{1}, std::size_t{7}, std::size_t{64}, std::size_t{1000}, std::size_t{4099}}) {
    for (std::size_t a = 0; a < 3; ++a) {
      for (std::size_t b : {std::size_t{0}, std::size_t{1}, std::size_t{5}}) {
        INFO("n=" << n << " offsets " << a << "," << b);
        run_fp8_body<1, 2, __nv_fp8_e4m3, float>(scaled_to_float{1.0f}, n, {a, b});
        run_fp8_body<2, 2, __nv_fp8_e4m3, float>(scaled_to_float{1.0f}, n, {a, b});
        run_fp8_body<4, 2, __nv_fp8_e4m3, float>(scaled_to_float{0.5f}, n, {a, b});
        run_fp8_body<8, 1, __nv_fp8_e4m3, float>(scaled_to_float{3.0f}, n, {a, b});
        run_fp8_body<16, 1, __nv_fp8_e4m3, float>(scaled_to_float{1.0f}, n, {a, b});
        run_fp8_body<2, 1, __nv_fp8_e5m2, float>(scaled_to_float{64.0f}, n, {a, b});
        run_fp8_body<4, 2, __nv_fp8_e5m2, float>(scaled_to_float{64.0f}, n, {a, b});
        run_fp8_body<16, 2, __nv_fp8_e5m2, float>(scaled_to_float{0.25f}, n, {a, b});
        run_fp8_body<8, 2, __nv_fp8_e4m3, __nv_bfloat16>(scaled_bf16_to_float{2.0f}, n, {a, b});
        run_fp8_body<8, 1, __nv_fp8_e5m2, __nv_bfloat16>(scaled_bf16_to_float{64.0f}, n, {a, b});
      }
    }
  }
}

namespace {

/// Tells every operand apart: x * c + s - (i mod 1021), in double so that no rounding hides a wrong lane.
struct with_index {
  EW_HD double operator()(float x, std::int64_t i, float c, double s) const {
    return static_cast<double>(x) * c + s - static_cast<double>(i % 1021);
  }
};

/// The kernel body over a whole simulated grid with operands that are not arrays: `x` a host array at
/// element offset `x_off`, the element index, a constant, and a scalar read from host memory; the output at
/// `out_off`. The head and the vector path come from the memory operands alone (the output and `x`).
template <int Vec, int Unroll>
void run_index_body(std::size_t n, std::size_t out_off, std::size_t x_off) {
  host_array<double> out(n, out_off * sizeof(double));
  host_array<float> x(n, x_off * sizeof(float));
  fill(x.data(), n, ew_test::base_seed() + 7 * n + x_off);
  std::memset(static_cast<void*>(out.data()), ew_test::poison_byte, n * sizeof(double));
  const float c = 1.75f;
  const double s = 0.125;
  const pointer_info memory[] = {ew::detail::info_of(out.data()), ew::detail::info_of(x.data())};
  const int head = vector_head(memory, 2, Vec);
  using ins_t = cuda::std::tuple<ew::detail::contiguous_input<float>, ew::detail::index_input,
                                 ew::detail::constant_input<float>, ew::detail::scalar_input<double>>;
  const ins_t ins{{x.data()}, {}, {c}, {&s}};
  const auto plan = ew::detail::plan_paths<Vec, Unroll>(n, head, ew::tuning::policy_for_cc(90));
  for (std::size_t b = 0; b < plan.shape.blocks; ++b) {
    for (std::size_t th = 0; th < plan.shape.block_threads; ++th) {
      ew::detail::elementwise_grid_thread<with_index, Vec, Unroll, ew::detail::scalar_unroll<Vec, Unroll>>(
          with_index{}, plan.part, plan.shape, cuda::std::tuple<double*>(out.data()), ins, b, th);
    }
  }
  std::size_t wrong = 0, first = n;
  for (std::size_t i = 0; i < n; ++i) {
    const double want = with_index{}(x.data()[i], static_cast<std::int64_t>(i), c, s);
    if (!ew_test::same_bits(out.data()[i], want) && wrong++ == 0) first = i;
  }
  INFO("n=" << n << " offsets out " << out_off << " x " << x_off << " head " << head << " first wrong "
            << first);
  REQUIRE(wrong == 0);
  REQUIRE(out.guards_intact());
  REQUIRE(x.guards_intact());
}

}  // namespace

TEST_CASE("kernel body on the host: index, constant and scalar operands beside an array", "[kernel_body]") {
  STATIC_REQUIRE(std::is_same_v<ew::detail::index_input::value_type, std::int64_t>);
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{7}, std::size_t{33}, std::size_t{1023},
                        std::size_t{4097}, std::size_t{65537}}) {
    for (std::size_t a = 0; a < 2; ++a) {
      for (std::size_t b = 0; b < 4; ++b) {
        run_index_body<2, 2>(n, a, b);  // 16 bytes of double per vector
        run_index_body<1, 4>(n, a, b);  // the scalar path
      }
    }
  }
}

TEST_CASE("pointer checks: element alignment is alignof, not sizeof", "[kernel_body]") {
  struct alignas(4) quad {
    float a, b, c, d;
  };
  const pointer_info at_4_bytes = ew::detail::info_of(reinterpret_cast<const quad*>(std::uintptr_t{0x10004}));
  REQUIRE(at_4_bytes.element_size == 16);
  REQUIRE(at_4_bytes.alignment == 4);
  const pointer_info other{0x20004, 16, 4};
  const pointer_info ok[] = {at_4_bytes, other};
  REQUIRE(ew::detail::check_pointers<2>(ok, 1, 2, 100) == cudaSuccess);
  // Not on a vector boundary: the scalar path.
  REQUIRE(vector_head(ok, 2, 1) == no_vector_path);
  const pointer_info off_by_two[] = {{0x10002, 16, 4}, other};
  REQUIRE(ew::detail::check_pointers<2>(off_by_two, 1, 2, 100) == cudaErrorInvalidValue);
  REQUIRE(std::string(ew::last_error_message()).find("alignof") != std::string::npos);
  // float3: 12 bytes, aligned to 4; never vectorized.
  static_assert(!ew::detail::is_vectorizable_v<float3>);
  static_assert(ew::detail::default_vec_width<float3, float> == 1);
  static_assert(ew::detail::default_vec_width<float, __half> == 4);
}
