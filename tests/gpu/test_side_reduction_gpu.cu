// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Side reductions on the GPU (ctest gpu.side_reduction): the FP8 scaling step (`y = fp8(x * scale)` with
// `amax = max |x|`) from f32 and bf16 at sizes from 1 to 2^24 + 3 and element offsets 0 and 1, every output
// code against the FP8 reference and the amax exact; max, min and integer sums exact, a float sum within
// its rounding bound; several outputs, `ew::compose`, `ew::index()`, `ew::constant` and `ew::scalar`
// operands; N-dimensional launches (a broadcast bias, a transposed read); block sizes that leave a partial
// warp; NaN; the same bits on every launch shape (determinism of max, min, amax); graphs replayed with new
// inputs after `ew::reset_reduction`. Inputs are random, outputs poisoned, guard bands checked.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/fp8_reference.cuh"
#include "../common/launch_helpers.cuh"
#include "../common/side_reduction_gpu.cuh"
#include "../common/test_utils.cuh"

using namespace ew_test;

namespace {

template <class T>
void check_quantize(std::size_t n, std::size_t off, std::uint64_t seed) {
  INFO("n " << n << " offset " << off << " seed " << seed);
  const std::vector<T> x = random_inputs<T>(n, seed);
  device_array<T> dx(n, off);
  dx.upload(x);
  device_array<__nv_fp8_e4m3> dy(n, off);
  dy.poison();
  device_scalar<float> amax;
  amax.set(-1.0f);  // overwritten by the reset
  const float scale = 448.0f / 300.0f;
  EW_REQUIRE_CUDA(ew::reset_reduction(ew::reduce_into<ew::reduction::amax>(amax.p())));
  EW_REQUIRE_CUDA(ew::elementwise(scale_and_keep<T>{scale}, n,
                                  ew::out(dy.data(), ew::reduce_into<ew::reduction::amax>(amax.p())),
                                  static_cast<const T*>(dx.data())));
  EW_REQUIRE_CUDA(cudaDeviceSynchronize());
  REQUIRE(dy.guards_intact());
  float want_amax = 0.0f;
  CHECK(wrong_fp8_codes(dy.download(), x, scale, want_amax) == 0);
  CHECK(amax.get() == want_amax);
}

/// `(x * c, x, i)` over (x, index, constant): y written, max of x and sum of the index reduced.
struct mix3 {
  EW_HD cuda::std::tuple<float, float, std::int64_t> operator()(float x, std::int64_t i, float c) const {
    return {x * c, x, i};
  }
};

/// Ops with one array part and the rest reduced.
struct keep_both {
  EW_HD cuda::std::tuple<float, float> operator()(float v) const { return {v > 0 ? v : 0.0f, v}; }
};
struct copy_twice {
  EW_HD cuda::std::tuple<float, float, float> operator()(float v) const { return {v, v, v}; }
};
struct three {
  EW_HD cuda::std::tuple<float, float, float, float> operator()(float v) const { return {v, v, v, v}; }
};
struct add_keep {
  EW_HD cuda::std::tuple<float, float> operator()(float v, float c) const { return {v + c, v + c}; }
};
struct copy_keep {
  EW_HD cuda::std::tuple<float, float> operator()(float v) const { return {v, v}; }
};

}  // namespace

TEST_CASE("side_reduction: FP8 quantize with amax, f32 and bf16", "[side_reduction]") {
  for (std::size_t n : {1u, 31u, 4097u, 1000003u, (1u << 24) + 3u}) {
    for (std::size_t off : {0u, 1u}) {
      check_quantize<float>(n, off, base_seed() + n);
      check_quantize<__nv_bfloat16>(n, off, base_seed() + n + 1);
    }
  }
}

TEST_CASE("side_reduction: several reductions, operands and compose in one launch", "[side_reduction]") {
  const std::size_t n = 777777;
  const std::vector<float> x = random_inputs<float>(n, base_seed() + 5);
  device_array<float> dx(n, 3), dy(n, 3);
  dx.upload(x);
  dy.poison();
  device_scalar<float> mx;
  device_scalar<std::int64_t> isum;
  device_scalar<float> mn;
  device_scalar<float> c;
  c.set(0.5f);
  EW_REQUIRE_CUDA(ew::reset_reduction(ew::reduce_into<ew::reduction::max>(mx.p())));
  EW_REQUIRE_CUDA(ew::reset_reduction(ew::reduce_into<ew::reduction::sum>(isum.p())));
  EW_REQUIRE_CUDA(ew::reset_reduction(ew::reduce_into<ew::reduction::min>(mn.p())));
  // Index and constant operands, two reductions.
  EW_REQUIRE_CUDA(
      ew::elementwise(mix3{}, n,
                      ew::out(dy.data(), ew::reduce_into<ew::reduction::max>(mx.p()),
                              ew::reduce_into<ew::reduction::sum>(isum.p())),
                      ew::in(static_cast<const float*>(dx.data()), ew::index(), ew::constant(2.0f))));
  EW_REQUIRE_CUDA(cudaDeviceSynchronize());
  REQUIRE(dy.guards_intact());
  const auto y = dy.download();
  float want_max = -INFINITY, want_min = INFINITY;
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    want_max = std::max(want_max, x[i]);
    want_min = std::min(want_min, x[i] * 0.5f);
    wrong += y[i] != x[i] * 2.0f;
  }
  CHECK(wrong == 0);
  CHECK(mx.get() == want_max);
  CHECK(isum.get() == static_cast<std::int64_t>(n) * static_cast<std::int64_t>(n - 1) / 2);
  // A compose chain with a scalar operand: y = relu(x * s), min of x * s reduced.
  EW_REQUIRE_CUDA(ew::elementwise(ew::compose(ew::mul<float>{}, keep_both{}), n,
                                  ew::out(dy.data(), ew::reduce_into<ew::reduction::min>(mn.p())),
                                  ew::in(static_cast<const float*>(dx.data()), ew::scalar(c.p()))));
  EW_REQUIRE_CUDA(cudaDeviceSynchronize());
  CHECK(mn.get() == want_min);
  const auto y2 = dy.download();
  std::size_t wrong2 = 0;
  for (std::size_t i = 0; i < n; ++i) wrong2 += y2[i] != std::max(x[i] * 0.5f, 0.0f);
  CHECK(wrong2 == 0);
}

TEST_CASE("side_reduction: a float sum within its rounding bound, integer sums exact", "[side_reduction]") {
  const std::size_t n = 5000011;
  const std::vector<float> x = random_inputs<float>(n, base_seed() + 9, -1.0f, 1.0f);
  device_array<float> dx(n), dy(n);
  dx.upload(x);
  device_scalar<float> s;
  device_scalar<double> sd;
  EW_REQUIRE_CUDA(ew::reset_reduction(ew::reduce_into<ew::reduction::sum>(s.p())));
  EW_REQUIRE_CUDA(ew::reset_reduction(ew::reduce_into<ew::reduction::sum>(sd.p())));
  EW_REQUIRE_CUDA(ew::elementwise(copy_twice{}, n,
                                  ew::out(dy.data(), ew::reduce_into<ew::reduction::sum>(s.p()),
                                          ew::reduce_into<ew::reduction::sum>(sd.p())),
                                  static_cast<const float*>(dx.data())));
  EW_REQUIRE_CUDA(cudaDeviceSynchronize());
  double want = 0, abs_sum = 0;
  for (float v : x) {
    want += v;
    abs_sum += std::fabs(v);
  }
  // Each partial sum rounds at most once per addition: |error| <= (adds on a path) * eps * sum |x|, with
  // at most ~2^12 additions on any path from an element to the total (threads, warps, blocks).
  CHECK(std::fabs(s.get() - want) <= 4096.0 * 5.96e-8 * abs_sum);
  CHECK(std::fabs(sd.get() - want) <= 1e-9 * abs_sum);
}

TEST_CASE("side_reduction: NaN and signed zeros through the atomics", "[side_reduction]") {
  std::vector<float> x = random_inputs<float>(100000, base_seed() + 2);
  x[77777] = NAN;
  device_array<float> dx(x.size()), dy(x.size());
  dx.upload(x);
  device_scalar<float> am, mx, mn;
  EW_REQUIRE_CUDA(ew::reset_reduction(ew::reduce_into<ew::reduction::amax>(am.p())));
  EW_REQUIRE_CUDA(ew::reset_reduction(ew::reduce_into<ew::reduction::max>(mx.p())));
  EW_REQUIRE_CUDA(ew::reset_reduction(ew::reduce_into<ew::reduction::min>(mn.p())));
  EW_REQUIRE_CUDA(ew::elementwise(
      three{}, x.size(),
      ew::out(dy.data(), ew::reduce_into<ew::reduction::amax>(am.p()),
              ew::reduce_into<ew::reduction::max>(mx.p()), ew::reduce_into<ew::reduction::min>(mn.p())),
      static_cast<const float*>(dx.data())));
  EW_REQUIRE_CUDA(cudaDeviceSynchronize());
  CHECK(std::isnan(am.get()));
  CHECK(std::isnan(mx.get()));
  CHECK(std::isnan(mn.get()));
  // Only zeros of both signs, and negative values: max is +0 / the largest negative, min -0.
  std::vector<float> z(70000, -0.0f);
  for (std::size_t i = 0; i < z.size(); i += 3) z[i] = 0.0f;
  device_array<float> dz(z.size()), dzy(z.size());
  dz.upload(z);
  EW_REQUIRE_CUDA(ew::reset_reduction(ew::reduce_into<ew::reduction::max>(mx.p())));
  EW_REQUIRE_CUDA(ew::reset_reduction(ew::reduce_into<ew::reduction::min>(mn.p())));
  EW_REQUIRE_CUDA(ew::reset_reduction(ew::reduce_into<ew::reduction::amax>(am.p())));
  EW_REQUIRE_CUDA(ew::elementwise(
      three{}, z.size(),
      ew::out(dzy.data(), ew::reduce_into<ew::reduction::amax>(am.p()),
              ew::reduce_into<ew::reduction::max>(mx.p()), ew::reduce_into<ew::reduction::min>(mn.p())),
      static_cast<const float*>(dz.data())));
  EW_REQUIRE_CUDA(cudaDeviceSynchronize());
  CHECK((mx.get() == 0.0f && !std::signbit(mx.get())));
  CHECK((mn.get() == 0.0f && std::signbit(mn.get())));
  std::vector<float> neg = random_inputs<float>(50000, base_seed() + 3, -9.0f, -1.0f);
  device_array<float> dn(neg.size()), dny(neg.size());
  dn.upload(neg);
  EW_REQUIRE_CUDA(ew::reset_reduction(ew::reduce_into<ew::reduction::max>(mx.p())));
  EW_REQUIRE_CUDA(ew::reset_reduction(ew::reduce_into<ew::reduction::min>(mn.p())));
  EW_REQUIRE_CUDA(ew::reset_reduction(ew::reduce_into<ew::reduction::amax>(am.p())));
  EW_REQUIRE_CUDA(ew::elementwise(
      three{}, neg.size(),
      ew::out(dny.data(), ew::reduce_into<ew::reduction::amax>(am.p()),
              ew::reduce_into<ew::reduction::max>(mx.p()), ew::reduce_into<ew::reduction::min>(mn.p())),
      static_cast<const float*>(dn.data())));
  EW_REQUIRE_CUDA(cudaDeviceSynchronize());
  float want_max = -INFINITY, want_min = INFINITY;
  for (float v : neg) {
    want_max = std::max(want_max, v);
    want_min = std::min(want_min, v);
  }
  CHECK(mx.get() == want_max);
  CHECK(mn.get() == want_min);
  CHECK(am.get() == -want_min);
}

TEST_CASE("side_reduction: the same bits on every launch shape, partial warps included", "[side_reduction]") {
  const std::size_t n = 3000017;
  const std::vector<float> x = random_inputs<float>(n, base_seed() + 11);
  float want = 0;
  for (float v : x) want = std::max(want, std::fabs(v));
  device_array<float> dx(n + 8), dy(n + 8);
  std::vector<float> padded(n + 8, 0.0f);
  std::copy(x.begin(), x.end(), padded.begin() + 1);
  dx.upload(padded);
  device_scalar<float> am;
  using op_t = scale_and_keep<float>;
  using target_t = ew::reduce_target<ew::reduction::amax, float>;
  using split = ew::detail::side_split<op_t, float*, target_t>;
  for (int block_threads : {0, 33, 100, 512}) {
    for (std::size_t off : {0u, 1u}) {
      INFO("block threads " << block_threads << " offset " << off);
      EW_REQUIRE_CUDA(ew::reset_reduction(ew::reduce_into<ew::reduction::amax>(am.p())));
      // Through the dispatcher with a launch policy, as ew::elementwise<Policy> does.
      auto outs = cuda::std::make_tuple(dy.data() + off, ew::reduce_into<ew::reduction::amax>(am.p()));
      ew::tuning::launch_policy policy = ew::tuning::policy_for_cc(90);
      policy.block_threads = block_threads;
      const auto ins = cuda::std::make_tuple(static_cast<const float*>(dx.data()) + 1);
      EW_REQUIRE_CUDA((ew::detail::dispatch<4, 2>(split::wrap(op_t{1.0f}, outs), n, split::arrays(outs), ins,
                                                  0, block_threads > 0 ? &policy : nullptr)));
      EW_REQUIRE_CUDA(cudaDeviceSynchronize());
      CHECK(am.get() == want);
    }
  }
  // Scalar path (VecWidth 1) too.
  EW_REQUIRE_CUDA(ew::reset_reduction(ew::reduce_into<ew::reduction::amax>(am.p())));
  EW_REQUIRE_CUDA((ew::elementwise<op_t, 1>(op_t{1.0f}, n,
                                            ew::out(dy.data(), ew::reduce_into<ew::reduction::amax>(am.p())),
                                            static_cast<const float*>(dx.data()) + 1)));
  EW_REQUIRE_CUDA(cudaDeviceSynchronize());
  CHECK(am.get() == want);
}

TEST_CASE("side_reduction: N-dimensional launches", "[side_reduction]") {
  const std::int64_t rows = 1000, cols = 1001;
  const std::vector<float> x = random_inputs<float>(static_cast<std::size_t>(rows * cols), base_seed() + 21);
  const std::vector<float> b = random_inputs<float>(static_cast<std::size_t>(cols), base_seed() + 22);
  device_array<float> dx(x.size()), db(b.size()), dy(x.size());
  dx.upload(x);
  db.upload(b);
  dy.poison();
  device_scalar<float> am;
  EW_REQUIRE_CUDA(ew::reset_reduction(ew::reduce_into<ew::reduction::amax>(am.p())));
  EW_REQUIRE_CUDA(ew::elementwise(
      add_keep{}, ew::extents{rows, cols}, ew::out(dy.data(), ew::reduce_into<ew::reduction::amax>(am.p())),
      ew::in(static_cast<const float*>(dx.data()),
             ew::strided(static_cast<const float*>(db.data()), ew::extents{1, cols}, ew::strides{0, 1}))));
  EW_REQUIRE_CUDA(cudaDeviceSynchronize());
  REQUIRE(dy.guards_intact());
  float want = 0;
  std::size_t wrong = 0;
  const auto y = dy.download();
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < cols; ++c) {
      const float v = x[static_cast<std::size_t>(r * cols + c)] + b[static_cast<std::size_t>(c)];
      want = std::max(want, std::fabs(v));
      wrong += y[static_cast<std::size_t>(r * cols + c)] != v;
    }
  }
  CHECK(wrong == 0);
  CHECK(am.get() == want);
  // Padded outputs (rows `pitch` apart, the padding poisoned and left so): rows of whole vectors (1000 of
  // 1024) and rows that are not (1001 of 1010), which without side reductions take the vector-row kernel's
  // pitched and split forms; with them, the N-dimensional kernel.
  for (const std::array<std::int64_t, 2>& cp : {std::array<std::int64_t, 2>{1000, 1024}, {1001, 1010}}) {
    const std::int64_t c = cp[0], pitch = cp[1], r = 512;
    INFO("cols " << c << " pitch " << pitch);
    device_array<float> dp(static_cast<std::size_t>(r * pitch));
    dp.poison();
    device_scalar<float> amp;
    EW_REQUIRE_CUDA(ew::reset_reduction(ew::reduce_into<ew::reduction::amax>(amp.p())));
    EW_REQUIRE_CUDA(ew::elementwise(
        add_keep{}, ew::extents{r, c},
        ew::out(ew::strided(dp.data(), ew::extents{r, c}, ew::strides{pitch, 1}),
                ew::reduce_into<ew::reduction::amax>(amp.p())),
        ew::in(ew::strided(static_cast<const float*>(dx.data()), ew::extents{r, c}, ew::strides{c, 1}),
               ew::strided(static_cast<const float*>(db.data()), ew::extents{1, c}, ew::strides{0, 1}))));
    EW_REQUIRE_CUDA(cudaDeviceSynchronize());
    REQUIRE(dp.guards_intact());
    const auto yp = dp.download();
    float want_p = 0;
    std::size_t wrong_p = 0, touched = 0;
    for (std::int64_t i = 0; i < r; ++i) {
      for (std::int64_t j = 0; j < pitch; ++j) {
        const float got = yp[static_cast<std::size_t>(i * pitch + j)];
        if (j >= c) {
          touched += !holds_poison(got);
          continue;
        }
        const float v = x[static_cast<std::size_t>(i * c + j)] + b[static_cast<std::size_t>(j)];
        want_p = std::max(want_p, std::fabs(v));
        wrong_p += !same_bits(got, v);
      }
    }
    CHECK(wrong_p == 0);
    CHECK(touched == 0);
    CHECK(amp.get() == want_p);
  }
  // A transposed read (the element-wise N-d path): y[r, c] = x[c, r] over a square block, max reduced.
  const std::int64_t s = 700;
  device_scalar<float> mx;
  EW_REQUIRE_CUDA(ew::reset_reduction(ew::reduce_into<ew::reduction::max>(mx.p())));
  EW_REQUIRE_CUDA(ew::elementwise(
      copy_keep{}, ew::extents{s, s}, ew::out(dy.data(), ew::reduce_into<ew::reduction::max>(mx.p())),
      ew::strided(static_cast<const float*>(dx.data()), ew::extents{s, s}, ew::strides{1, s})));
  EW_REQUIRE_CUDA(cudaDeviceSynchronize());
  float want_t = -INFINITY;
  for (std::int64_t i = 0; i < s * s; ++i) want_t = std::max(want_t, x[static_cast<std::size_t>(i)]);
  CHECK(mx.get() == want_t);
}

TEST_CASE("side_reduction: graphs replayed with new inputs", "[side_reduction]") {
  const std::size_t n = 1 << 20;
  device_array<float> dx(n);
  device_array<__nv_fp8_e5m2> dy(n);
  device_scalar<float> am;
  test_stream stream;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  EW_REQUIRE_CUDA(cudaStreamBeginCapture(stream.s, cudaStreamCaptureModeThreadLocal));
  const cudaError_t reset = ew::reset_reduction(ew::reduce_into<ew::reduction::amax>(am.p()), stream.s);
  const cudaError_t launch = ew::elementwise(scale_and_keep<float>{0.5f}, n,
                                             ew::out(dy.data(), ew::reduce_into<ew::reduction::amax>(am.p())),
                                             static_cast<const float*>(dx.data()), stream.s);
  EW_REQUIRE_CUDA(cudaStreamEndCapture(stream.s, &graph));
  EW_REQUIRE_CUDA(reset);
  EW_REQUIRE_CUDA(launch);
  EW_REQUIRE_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (int replay = 0; replay < 3; ++replay) {
    const std::vector<float> x =
        random_inputs<float>(n, base_seed() + 100 + static_cast<std::uint64_t>(replay), -10.0f * (replay + 1),
                             10.0f * (replay + 1));
    dx.upload(x);
    EW_REQUIRE_CUDA(cudaGraphLaunch(exec, stream.s));
    EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.s));
    float want = 0;
    for (float v : x) want = std::max(want, std::fabs(v));
    INFO("replay " << replay);
    CHECK(am.get() == want);
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
}

namespace {
/// `(x, x * 1000 as an integer)`: two values to reduce and none to write.
struct min_and_int {
  EW_HD cuda::std::tuple<float, std::int64_t> operator()(float x) const {
    return {x, static_cast<std::int64_t>(x * 1000.0f)};
  }
};
}  // namespace

TEST_CASE("side_reduction: a 1-D launch that only reduces", "[side_reduction]") {
  // max |x| of a tensor, and the min and an integer sum of one pass, with no array output: against the
  // host, at aligned and misaligned starts, in direct launches and a graph.
  const std::size_t n = (std::size_t{1} << 24) + 7;
  const std::vector<float> x = random_inputs<float>(n + 4, base_seed() + 31, -50.0f, 50.0f);
  device_array<float> dx(n + 4);
  dx.upload(x);
  for (std::size_t off : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
    INFO("offset " << off);
    float want_amax = 0.0f, want_min = INFINITY;
    std::int64_t want_sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
      want_amax = std::max(want_amax, std::fabs(x[off + i]));
      want_min = std::min(want_min, x[off + i]);
      want_sum += static_cast<std::int64_t>(x[off + i] * 1000.0f);
    }
    device_scalar<float> amax, mn;
    device_scalar<std::int64_t> sum;
    const float* in = dx.data() + off;
    for (launch_mode mode : {launch_mode::direct, launch_mode::graph}) {
      EW_REQUIRE_CUDA(ew::reset_reduction(ew::reduce_into<ew::reduction::amax>(amax.p())));
      EW_REQUIRE_CUDA(ew::reset_reduction(ew::reduce_into<ew::reduction::min>(mn.p())));
      EW_REQUIRE_CUDA(ew::reset_reduction(ew::reduce_into<ew::reduction::sum>(sum.p())));
      EW_REQUIRE_CUDA(cudaDeviceSynchronize());
      test_stream stream;
      EW_REQUIRE_CUDA(run_in_mode(mode, stream.s, [&](cudaStream_t s) {
        cudaError_t err =
            ew::elementwise(ew::identity<float>{}, n, ew::reduce_into<ew::reduction::amax>(amax.p()), in, s);
        if (err == cudaSuccess)
          err = ew::elementwise(min_and_int{}, n,
                                ew::out(ew::reduce_into<ew::reduction::min>(mn.p()),
                                        ew::reduce_into<ew::reduction::sum>(sum.p())),
                                in, s);
        return err;
      }));
      CHECK(amax.get() == want_amax);
      CHECK(mn.get() == want_min);
      CHECK(sum.get() == want_sum);
    }
  }
}
