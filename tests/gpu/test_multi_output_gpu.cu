// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Several outputs from one pass: ops that return a cuda::std::tuple, written through ew::out(p, q). The same
// edge sizes and offset patterns as tests/gpu/test_launcher_gpu.cu: aligned, the same misalignment for every
// pointer (vector path after a scalar head), and different offsets between the two outputs or between an
// output and the input (scalar path); outputs of different element types; in place; direct launches and
// CUDA graphs; guard bands and poisoned outputs checked after every launch; and the launcher's error rules
// (overlapping outputs, null, misaligned) with two outputs.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <utility>
#include <string>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/functor_reference.cuh"
#include "../common/launch_helpers.cuh"
#include "../common/test_utils.cuh"

using namespace ew_test;

namespace {

/// Element offsets (first output, second output, input) from 256-byte alignment.
using offsets3 = std::array<std::size_t, 3>;
const std::vector<offsets3>& offset_cases() {
  static const std::vector<offsets3> cases{
      {0, 0, 0},             // aligned: vector path
      {1, 1, 1},             // equally misaligned: scalar head, then vectors
      {3, 3, 3}, {0, 1, 0},  // the two outputs at different offsets: scalar path
      {1, 0, 1}, {2, 2, 0},  // outputs together, input elsewhere: scalar path
  };
  return cases;
}
/// The large size at three offset patterns keeps the run (and the sanitizer runs) short.
bool skip(std::size_t n, const offsets3& off) {
  return n > 100000 && off != offset_cases()[0] && off != offset_cases()[1] && off != offset_cases()[3];
}

/// Runs the unary two-output `op` over `x` in `mode`; returns both outputs, checking every guard and that
/// every element of both was written (an element that holds the poison is checked again after a launch over
/// a second poison: tests/common/test_utils.cuh).
template <class O0, class O1, class In, class Op>
std::pair<std::vector<O0>, std::vector<O1>> run_two(Op op, const std::vector<In>& x, const offsets3& off,
                                                    launch_mode mode, cudaStream_t stream) {
  const std::size_t n = x.size();
  device_array<In> din(n, off[2]);
  device_array<O0> d0(n, off[0]);
  device_array<O1> d1(n, off[1]);
  din.upload(x);
  auto run = [&](unsigned char byte) {
    d0.poison(byte);
    d1.poison(byte);
    EW_REQUIRE_CUDA(run_in_mode(mode, stream, [&](cudaStream_t s) {
      return ew::elementwise(op, n, ew::out(d0.data(), d1.data()), din.data(), s);
    }));
    REQUIRE(din.guards_intact());
    REQUIRE(d0.guards_intact());
    REQUIRE(d1.guards_intact());
    return std::pair<std::vector<O0>, std::vector<O1>>(d0.download(), d1.download());
  };
  const auto got = run(poison_byte);
  std::unique_ptr<std::pair<std::vector<O0>, std::vector<O1>>> again;
  auto rerun = [&]() -> const std::pair<std::vector<O0>, std::vector<O1>>& {
    if (!again)
      again = std::make_unique<std::pair<std::vector<O0>, std::vector<O1>>>(run(second_poison_byte));
    return *again;
  };
  REQUIRE(unwritten_elements(got.first, [&] { return rerun().first; }) == 0);
  REQUIRE(unwritten_elements(got.second, [&] { return rerun().second; }) == 0);
  return got;
}

/// Counts the elements where `ok(i)` fails and reports the first with `describe(i)`.
template <class Ok, class Describe>
void expect_all(std::size_t n, Ok&& ok, Describe&& describe) {
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!ok(i) && bad++ == 0) first = i;
  }
  if (bad != 0)
    FAIL_CHECK(bad << " wrong elements of " << n << ", first at " << first << ": " << describe(first));
}

}  // namespace

TEST_CASE("sincos writes sin and cos in one pass, at every edge size and offset", "[multi_output]") {
  using T = float;
  test_stream stream;
  for (launch_mode mode : {launch_mode::direct, launch_mode::graph}) {
    for (std::size_t n : edge_sizes()) {
      const std::uint64_t seed = base_seed() + n;
      const std::vector<T> x = functor_inputs<T>(n, seed);
      for (const auto& off : offset_cases()) {
        if (skip(n, off)) continue;
        INFO("n=" << n << " offsets " << off[0] << "," << off[1] << "," << off[2]
                  << " mode=" << mode_name(mode) << " seed=" << seed);
        const auto out = run_two<T, T>(ew::sincos<T>{}, x, off, mode, stream.s);
        const std::vector<T>& s = out.first;
        const std::vector<T>& c = out.second;
        expect_all(
            n, [&](std::size_t i) { return check_unary_value<T>(spec_sin, x[i], s[i]).empty(); },
            [&](std::size_t i) { return check_unary_value<T>(spec_sin, x[i], s[i]); });
        expect_all(
            n, [&](std::size_t i) { return check_unary_value<T>(spec_cos, x[i], c[i]).empty(); },
            [&](std::size_t i) { return check_unary_value<T>(spec_cos, x[i], c[i]); });
      }
    }
  }
}

TEST_CASE("relu_with_grad into outputs of different types (float value, __half gradient)", "[multi_output]") {
  test_stream stream;
  for (std::size_t n : edge_sizes()) {
    const std::uint64_t seed = base_seed() + 5 * n;
    std::vector<float> x = random_values<float>(n, seed);
    const float corner[] = {0.0f, -0.0f, std::nanf(""), -std::numeric_limits<float>::infinity()};
    for (std::size_t i = 0; i < 4 && i < n; ++i) x[i] = corner[i];
    for (const auto& off : offset_cases()) {
      if (skip(n, off)) continue;
      INFO("n=" << n << " offsets " << off[0] << "," << off[1] << "," << off[2] << " seed=" << seed);
      const auto out =
          run_two<float, __half>(ew::relu_with_grad<float>{}, x, off, launch_mode::direct, stream.s);
      const std::vector<float>& y = out.first;
      const std::vector<__half>& dy = out.second;
      expect_all(
          n,
          [&](std::size_t i) {
            const bool value_ok = same_value(y[i], ref_relu(x[i]));
            const bool grad_ok = exact::bits_of(dy[i]) == (x[i] > 0.0f ? 0x3C00u : 0x0000u);  // f16 1 or +0
            return value_ok && grad_ok;
          },
          [&](std::size_t i) {
            return "x " + std::to_string(x[i]) + " -> (" + std::to_string(y[i]) + ", " +
                   std::to_string(to_double(dy[i])) + ")";
          });
    }
  }
}

TEST_CASE("sigmoid_with_grad on __half, value to __half and gradient to float", "[multi_output]") {
  test_stream stream;
  for (std::size_t n : {std::size_t{1}, std::size_t{129}, std::size_t{65536}, std::size_t{1000003}}) {
    // Every __half value, repeated.
    const std::vector<__half> all = functor_inputs<__half>(0, 0);
    std::vector<__half> x(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = all[(i * 7919) % all.size()];
    for (const auto& off : offset_cases()) {
      if (skip(n, off)) continue;
      INFO("n=" << n << " offsets " << off[0] << "," << off[1] << "," << off[2]);
      const auto out =
          run_two<__half, float>(ew::sigmoid_with_grad<__half>{}, x, off, launch_mode::direct, stream.s);
      const std::vector<__half>& s = out.first;
      const std::vector<float>& ds = out.second;
      // The op rounds both results to __half (its element type); the float output holds that __half exactly.
      auto as_half = [](float f) { return exact::round_to<__half>(exact::decode(f)); };
      expect_all(
          n,
          [&](std::size_t i) {
            return check_unary_value<__half>(spec_sigmoid_val, x[i], s[i]).empty() &&
                   check_unary_value<__half>(spec_sigmoid_grad, x[i], as_half(ds[i])).empty() &&
                   (std::isnan(ds[i]) || static_cast<long double>(ds[i]) == exact::to_ld(as_half(ds[i])));
          },
          [&](std::size_t i) {
            return check_unary_value<__half>(spec_sigmoid_val, x[i], s[i]) + " / " +
                   check_unary_value<__half>(spec_sigmoid_grad, x[i], as_half(ds[i]));
          });
    }
  }
}

TEST_CASE("a composed op with two inputs and two outputs: relu(a + b) and its gradient", "[multi_output]") {
  test_stream stream;
  const auto op = ew::compose(ew::add<float>{}, ew::relu_with_grad<float>{});
  for (std::size_t n : edge_sizes()) {
    const std::uint64_t seed = base_seed() + 11 * n;
    const std::vector<float> a = random_values<float>(n, seed), b = random_values<float>(n, seed + 1);
    for (const auto& off : offset_cases()) {
      if (skip(n, off)) continue;
      INFO("n=" << n << " offsets " << off[0] << "," << off[1] << "," << off[2] << " seed=" << seed);
      device_array<float> da(n, off[2]), db(n, off[2]), dy(n, off[0]), dg(n, off[1]);
      da.upload(a);
      db.upload(b);
      dy.poison();
      dg.poison();
      EW_REQUIRE_CUDA(
          ew::elementwise(op, n, ew::out(dy.data(), dg.data()), ew::in(da.data(), db.data()), stream.s));
      EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.s));
      REQUIRE(da.guards_intact());
      REQUIRE(db.guards_intact());
      REQUIRE(dy.guards_intact());
      REQUIRE(dg.guards_intact());
      const std::vector<float> y = dy.download(), g = dg.download();
      expect_all(
          n,
          [&](std::size_t i) {
            const float s = a[i] + b[i];
            return same_bits(y[i], s < 0 ? 0.0f : s) && g[i] == (s > 0 ? 1.0f : 0.0f);
          },
          [&](std::size_t i) { return std::to_string(a[i]) + " + " + std::to_string(b[i]); });
    }
  }
}

TEST_CASE("two outputs in place: the first output is the input", "[multi_output]") {
  test_stream stream;
  for (std::size_t n : {std::size_t{1}, std::size_t{17}, std::size_t{4097}, std::size_t{1000003}}) {
    for (std::size_t off : {0, 1, 3}) {
      INFO("n=" << n << " offset " << off);
      const std::vector<float> x = random_values<float>(n, base_seed() + n);
      device_array<float> dx(n, off), dg(n, off);
      dx.upload(x);
      dg.poison();
      EW_REQUIRE_CUDA(ew::elementwise(ew::relu_with_grad<float>{}, n, ew::out(dx.data(), dg.data()),
                                      dx.data(), stream.s));
      EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.s));
      REQUIRE(dx.guards_intact());
      REQUIRE(dg.guards_intact());
      const std::vector<float> y = dx.download(), g = dg.download();
      expect_all(
          n, [&](std::size_t i) { return y[i] == ref_relu(x[i]) && g[i] == (x[i] > 0 ? 1.0f : 0.0f); },
          [&](std::size_t i) { return std::to_string(x[i]); });
    }
  }
}

TEST_CASE("two outputs follow the launcher's error rules", "[multi_output]") {
  test_stream stream;
  const std::size_t n = 4097;
  device_array<float> dx(n), d0(2 * n), d1(n);
  dx.upload(random_values<float>(n, base_seed()));
  d0.poison();
  d1.poison();
  const ew::sincos<float> op{};
  // n == 0: nothing to do, success, nothing written (even with null pointers).
  CHECK(ew::elementwise(op, 0, ew::out(d0.data(), d1.data()), dx.data(), stream.s) == cudaSuccess);
  CHECK(ew::elementwise(op, 0, ew::out<float, float>(nullptr, nullptr), static_cast<const float*>(nullptr),
                        stream.s) == cudaSuccess);
  // The two outputs overlap (the second starts inside the first): rejected, nothing launched.
  CHECK(ew::elementwise(op, n, ew::out(d0.data(), d0.data() + n / 2), dx.data(), stream.s) ==
        cudaErrorInvalidValue);
  // The same output twice is an overlap too.
  CHECK(ew::elementwise(op, n, ew::out(d1.data(), d1.data()), dx.data(), stream.s) == cudaErrorInvalidValue);
  // A null second output.
  CHECK(ew::elementwise(op, n, ew::out(d0.data(), static_cast<float*>(nullptr)), dx.data(), stream.s) ==
        cudaErrorInvalidValue);
  // A second output not aligned to its element.
  float* misaligned = reinterpret_cast<float*>(reinterpret_cast<char*>(d1.data()) + 2);
  CHECK(ew::elementwise(op, n - 1, ew::out(d0.data(), misaligned), dx.data(), stream.s) ==
        cudaErrorInvalidValue);
  EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.s));
  // Nothing was written by the rejected launches: every element still holds the poison.
  const std::vector<float> o0 = d0.download(), o1 = d1.download();
  std::size_t written = 0;
  for (float v : o0) written += !holds_poison(v);
  for (float v : o1) written += !holds_poison(v);
  CHECK(written == 0);
  CHECK(d0.guards_intact());
  CHECK(d1.guards_intact());
  // And a valid launch after them works.
  EW_REQUIRE_CUDA(ew::elementwise(op, n, ew::out(d0.data(), d1.data()), dx.data(), stream.s));
  EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.s));
  const std::vector<float> s0 = d0.download();
  CHECK(std::isfinite(s0[0]));
  CHECK(!holds_poison(s0[n - 1]));
}

namespace {
/// Three parts `(2x, x, -x)`, for `ew::discard` beside an array and a side reduction.
struct three_parts {
  EW_HD cuda::std::tuple<float, float, float> operator()(float x) const { return {2.0f * x, x, -x}; }
};

/// Whether two host arrays hold the same bytes.
template <class T>
bool same_bytes_of(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}
}  // namespace

TEST_CASE("ew::discard: the written part the same as with both outputs, 1-D and N-dimensional",
          "[multi_output][discard]") {
  using T = float;
  test_stream stream;
  const ew::sincos<T> op{};
  for (std::size_t n : edge_sizes()) {
    for (std::size_t off : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
      if (n > 100000 && off != 0) continue;
      const std::uint64_t seed = base_seed() + 31 * n + off;
      INFO("n=" << n << " offset " << off << " seed=" << seed);
      const std::vector<T> x = functor_inputs<T>(n, seed);
      device_array<T> dx(n, off), ds(n, off), dc(n, off), d1(n, off + 1), d2(n, off);
      dx.upload(x);
      EW_REQUIRE_CUDA(ew::elementwise(op, n, ew::out(ds.data(), dc.data()), dx.data(), stream.s));
      d1.poison();
      d2.poison();
      EW_REQUIRE_CUDA(ew::elementwise(op, n, ew::out(d1.data(), ew::discard), dx.data(), stream.s));
      EW_REQUIRE_CUDA(ew::elementwise(op, n, ew::out(ew::discard, d2.data()), dx.data(), stream.s));
      EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.s));
      CHECK(same_bytes_of(d1.download(), ds.download()));
      CHECK(same_bytes_of(d2.download(), dc.download()));
      REQUIRE(d1.guards_intact());
      REQUIRE(d2.guards_intact());
      REQUIRE(dx.guards_intact());
    }
  }
  // N-dimensional: [37, 129] into rows 150 apart, the sine alone; the padding keeps its poison.
  const std::int64_t rows = 37, cols = 129, pitch = 150;
  const std::vector<T> x = functor_inputs<T>(static_cast<std::size_t>(rows * cols), base_seed() + 3);
  device_array<T> dx(x.size()), ds(x.size()), dc(x.size()), dp(static_cast<std::size_t>(rows * pitch));
  dx.upload(x);
  dp.poison();
  const ew::extents<2> shape{rows, cols};
  EW_REQUIRE_CUDA(ew::elementwise(op, x.size(), ew::out(ds.data(), dc.data()), dx.data(), stream.s));
  EW_REQUIRE_CUDA(ew::elementwise(op, shape,
                                  ew::out(ew::strided(dp.data(), shape, ew::strides{pitch, 1}), ew::discard),
                                  static_cast<const T*>(dx.data()), stream.s));
  EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.s));
  const std::vector<T> s = ds.download(), p = dp.download();
  std::size_t wrong = 0, padding_written = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < pitch; ++c) {
      const T got = p[static_cast<std::size_t>(r * pitch + c)];
      if (c < cols) {
        wrong += std::memcmp(&got, &s[static_cast<std::size_t>(r * cols + c)], sizeof(T)) != 0;
      } else {
        padding_written += !holds_poison(got);
      }
    }
  }
  CHECK(wrong == 0);
  CHECK(padding_written == 0);
  CHECK(dp.guards_intact());
}

TEST_CASE("ew::discard beside a side reduction", "[multi_output][discard][side_reduction]") {
  test_stream stream;
  const std::size_t n = 100003;
  const std::vector<float> x = random_values<float>(n, base_seed() + 17);
  device_array<float> dx(n, 1), dy(n, 1), dm(1);
  dx.upload(x);
  dy.poison();
  const auto target = ew::reduce_into<ew::reduction::max>(dm.data());
  EW_REQUIRE_CUDA(ew::reset_reduction(target, stream.s));
  EW_REQUIRE_CUDA(
      ew::elementwise(three_parts{}, n, ew::out(dy.data(), ew::discard, target), dx.data(), stream.s));
  EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.s));
  const std::vector<float> y = dy.download();
  float want_max = -INFINITY;
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    wrong += y[i] != 2.0f * x[i];
    want_max = std::max(want_max, -x[i]);
  }
  CHECK(wrong == 0);
  CHECK(dm.download()[0] == want_max);
  CHECK(dy.guards_intact());
}
