// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// The launcher on the GPU: every core op and type, at every edge size, at per-pointer element offsets
// (vectorized with a head, and the scalar path when offsets differ), in place, on a created stream and on
// stream 0, launched directly and through a CUDA graph. Random non-zero inputs, poisoned outputs (every
// element must be written: one that holds the poison is checked again over a second poison), guard bands
// checked after every launch, results against the CPU reference within the stated ULP bounds (0 for add,
// sub and mul of every type, 16-bit ones included: tests/common/functor_reference.cuh).

#include <array>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/functor_reference.cuh"
#include "../common/test_utils.cuh"

using namespace ew_test;

namespace {

/// Element offsets (output, first input, second input) from 256-byte alignment: aligned, the same
/// misalignment everywhere (vector path after a scalar head), and different ones (scalar path).
const std::vector<std::array<std::size_t, 3>>& offset_cases() {
  static const std::vector<std::array<std::size_t, 3>> cases{{0, 0, 0}, {1, 1, 1}, {3, 3, 3}, {7, 7, 7},
                                                             {0, 1, 0}, {2, 0, 1}, {0, 0, 5}};
  return cases;
}

/// Checks `got` against `want(i)` within `ulps`; reports the first mismatch with its seed.
template <class T, class Want>
void compare(const std::vector<T>& got, Want&& want, std::uint64_t ulps, std::uint64_t seed) {
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (ulp_distance<T>(got[i], want(i)) > ulps) {
      if (bad++ == 0) first = i;
    }
  }
  if (bad != 0) {
    FAIL_CHECK(bad << " wrong elements of " << got.size() << ", first at " << first << ": got "
                   << to_double(got[first]) << " want " << to_double(want(first)) << " (seed " << seed
                   << ")");
  }
}

/// Runs unary `op` over n elements at the given offsets and checks it against `ref`.
template <class T, class Op, class Ref>
void check_unary(Op op, Ref ref, std::uint64_t ulps, std::size_t n, std::size_t off_out, std::size_t off_in,
                 bool in_place, launch_mode mode, cudaStream_t stream, std::uint64_t seed) {
  const std::vector<T> x = random_values<T>(n, seed);
  device_array<T> din(n, off_in);
  device_array<T> dout(n, off_out);
  din.upload(x);
  T* out = in_place ? din.data() : dout.data();
  if (!in_place) dout.poison();
  auto issue = [&](cudaStream_t s) { return ew::elementwise(op, n, out, din.data(), s); };
  EW_REQUIRE_CUDA(run_in_mode(mode, stream, issue));
  const std::vector<T> got = in_place ? din.download() : dout.download();
  compare(
      got, [&](std::size_t i) { return ref(x[i]); }, ulps, seed);
  if (!in_place) {
    REQUIRE(unwritten_elements(got, [&] {
              dout.poison(second_poison_byte);
              EW_REQUIRE_CUDA(run_in_mode(mode, stream, issue));
              return dout.download();
            }) == 0);
  }
  REQUIRE(din.guards_intact());
  REQUIRE(dout.guards_intact());
}

/// Runs binary `op` over n elements at the given offsets and checks it against `ref`.
template <class T, class Op, class Ref>
void check_binary(Op op, Ref ref, std::uint64_t ulps, std::size_t n, const std::array<std::size_t, 3>& off,
                  bool in_place, launch_mode mode, cudaStream_t stream, std::uint64_t seed) {
  const std::vector<T> a = random_values<T>(n, seed), b = random_values<T>(n, seed + 1);
  device_array<T> da(n, off[1]), db(n, off[2]), dout(n, off[0]);
  da.upload(a);
  db.upload(b);
  T* out = in_place ? da.data() : dout.data();
  if (!in_place) dout.poison();
  auto issue = [&](cudaStream_t s) { return ew::elementwise(op, n, out, ew::in(da.data(), db.data()), s); };
  EW_REQUIRE_CUDA(run_in_mode(mode, stream, issue));
  const std::vector<T> got = in_place ? da.download() : dout.download();
  compare(
      got, [&](std::size_t i) { return ref(a[i], b[i]); }, ulps, seed);
  if (!in_place) {
    REQUIRE(unwritten_elements(got, [&] {
              dout.poison(second_poison_byte);
              EW_REQUIRE_CUDA(run_in_mode(mode, stream, issue));
              return dout.download();
            }) == 0);
  }
  REQUIRE(da.guards_intact());
  REQUIRE(db.guards_intact());
  REQUIRE(dout.guards_intact());
}

/// Every core op on T at size n and offsets `off`, in `mode`.
template <class T>
void check_all_ops(std::size_t n, const std::array<std::size_t, 3>& off, bool in_place, launch_mode mode,
                   cudaStream_t stream, std::uint64_t seed) {
  INFO(type_name<T>() << " n=" << n << " offsets=" << off[0] << "," << off[1] << "," << off[2]
                      << (in_place ? " in-place" : "") << " mode=" << mode_name(mode) << " seed=" << seed);
  check_binary<T>(ew::add<T>{}, ref_add<T>, arith_ulps<T>(), n, off, in_place, mode, stream, seed);
  check_binary<T>(ew::sub<T>{}, ref_sub<T>, arith_ulps<T>(), n, off, in_place, mode, stream, seed);
  check_binary<T>(ew::mul<T>{}, ref_mul<T>, arith_ulps<T>(), n, off, in_place, mode, stream, seed);
  check_unary<T>(ew::relu<T>{}, ref_relu<T>, 0, n, off[0], off[1], in_place, mode, stream, seed);
  const T lo = from_double<T>(-2.0), hi = from_double<T>(3.5);
  check_unary<T>(
      ew::clamp<T>{lo, hi}, [&](T x) { return ref_clamp(x, lo, hi); }, 0, n, off[0], off[1], in_place, mode,
      stream, seed);
  const double alpha = std::is_integral_v<T> ? 3.0 : 1.75, beta = std::is_integral_v<T> ? -7.0 : 0.5;
  const ew::scale_bias<T> sb{static_cast<ew::compute_t<T>>(alpha), static_cast<ew::compute_t<T>>(beta)};
  check_unary<T>(
      sb, [&](T x) { return ref_scale_bias(x, alpha, beta); }, fma_ulps<T>(), n, off[0], off[1], in_place,
      mode, stream, seed);
}

struct stream_guard {
  cudaStream_t s = nullptr;
  stream_guard() { REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess); }
  ~stream_guard() { cudaStreamDestroy(s); }
};

}  // namespace

TEMPLATE_TEST_CASE("every op at every edge size and pointer offset", "[launcher]", EW_TEST_ALL_TYPES) {
  using T = TestType;
  stream_guard stream;
  const std::uint64_t seed = base_seed();
  for (launch_mode mode : {launch_mode::direct, launch_mode::graph}) {
    for (std::size_t n : edge_sizes()) {
      for (const auto& off : offset_cases()) {
        // The large size at three offset patterns keeps the run (and the sanitizer runs) short.
        if (n > 100000 && off != offset_cases()[0] && off != offset_cases()[2] && off != offset_cases()[4])
          continue;
        check_all_ops<T>(n, off, false, mode, stream.s, seed + n);
      }
    }
  }
}

TEMPLATE_TEST_CASE("in place: the output is the first input", "[launcher]", EW_TEST_ALL_TYPES) {
  using T = TestType;
  stream_guard stream;
  for (std::size_t n : {std::size_t{1}, std::size_t{17}, std::size_t{4097}, std::size_t{1000003}}) {
    for (std::size_t off : {0, 1, 3}) {
      check_all_ops<T>(n, {off, off, off}, true, launch_mode::direct, stream.s, base_seed() + 7 * n);
    }
  }
}

TEST_CASE("stream 0 works", "[launcher]") {
  check_all_ops<float>(1000003, {1, 1, 1}, false, launch_mode::direct, nullptr, base_seed());
}

TEST_CASE("results hold before and after a timed loop of launches", "[launcher]") {
  // The timed launches must give the right result too: check once before timing, time many launches, check
  // again.
  using T = float;
  const std::size_t n = (std::size_t{1} << 24) + 3;
  stream_guard stream;
  const std::vector<T> a = random_values<T>(n, base_seed()), b = random_values<T>(n, base_seed() + 1);
  device_array<T> da(n), db(n), dc(n);
  da.upload(a);
  db.upload(b);
  auto check = [&] {
    const std::vector<T> got = dc.download();
    compare(
        got, [&](std::size_t i) { return ref_add(a[i], b[i]); }, 0, base_seed());
  };
  dc.poison();
  EW_REQUIRE_CUDA(ew::elementwise(ew::add<T>{}, n, dc.data(), ew::in(da.data(), db.data()), stream.s));
  EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.s));
  check();
  cudaEvent_t start, stop;
  EW_REQUIRE_CUDA(cudaEventCreate(&start));
  EW_REQUIRE_CUDA(cudaEventCreate(&stop));
  dc.poison();
  EW_REQUIRE_CUDA(cudaEventRecord(start, stream.s));
  const int launches = 50;
  for (int i = 0; i < launches; ++i) {
    EW_REQUIRE_CUDA(ew::elementwise(ew::add<T>{}, n, dc.data(), ew::in(da.data(), db.data()), stream.s));
  }
  EW_REQUIRE_CUDA(cudaEventRecord(stop, stream.s));
  EW_REQUIRE_CUDA(cudaEventSynchronize(stop));
  float ms = 0;
  EW_REQUIRE_CUDA(cudaEventElapsedTime(&ms, start, stop));
  const double gbps = 3.0 * n * sizeof(T) * launches / (ms * 1e-3) / 1e9;
  std::printf("f32 add, n=%zu: %.1f GB/s over %d launches (not a benchmark; see ew_bench)\n", n, gbps,
              launches);
  check();
  REQUIRE(dc.guards_intact());
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
}

TEST_CASE("a dependent chain of launches stays exact (programmatic dependent launch)", "[launcher]") {
  // Each launch reads what the previous one wrote. With programmatic launch (on by default on sm_90) the
  // next kernel may start before the previous finishes; griddepcontrol.wait must keep the chain exact.
  stream_guard stream;
  for (std::size_t n : {std::size_t{1000}, (std::size_t{1} << 20) + 3}) {
    for (launch_mode mode : {launch_mode::direct, launch_mode::graph}) {
      const std::vector<float> ones(n, 1.0f);
      device_array<float> a(n), b(n), c(n);
      a.upload(ones);
      b.upload(ones);
      c.poison();
      const int links = 50;
      EW_REQUIRE_CUDA(run_in_mode(mode, stream.s, [&](cudaStream_t s) {
        cudaError_t err = ew::elementwise(ew::add<float>{}, n, c.data(), ew::in(a.data(), b.data()), s);
        for (int i = 1; i < links && err == cudaSuccess; ++i) {
          err = ew::elementwise(ew::add<float>{}, n, c.data(),
                                ew::in(static_cast<const float*>(c.data()), b.data()), s);
        }
        return err;
      }));
      const std::vector<float> got = c.download();
      INFO("n=" << n << " mode=" << mode_name(mode));
      compare(
          got, [&](std::size_t) { return static_cast<float>(links + 1); }, 0, 0);
      REQUIRE(c.guards_intact());
    }
  }
}
