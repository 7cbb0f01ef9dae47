// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Overwrite targets on the GPU (ctest gpu.reduce_overwrite): `ew::reduce_overwrite` with no reset before
// any launch, the location holding garbage (a larger value, NaN) each time: the FP8 scaling step from f32
// and bf16 at sizes from 1 to 2^26 (grids from one block to the capped one, blocks looping over tiles) and
// offsets 0 and 1, every code and the amax exact; max, min and integer sums exact; a float sum the same bits
// on every launch and within its rounding bound of a double sum; two targets of the same reduction and
// type in one launch (their block ends share static shared memory); one workspace through launches of
// alternating sizes, issued back to back with no wait between them (programmatic launch lets each start
// while the one before ends), its counter back at zero after them, and through sums, maxima and minima in
// turn; graphs replayed with inputs whose
// maximum falls (a combining target would keep the old one); N-dimensional launches (a broadcast bias, a
// transposed read, a strided output) with ew's grid and with one block a SM, so that every kernel's blocks
// loop over their work; the FP8 cast-transpose with amax (two output layouts); and a launch the checks
// refuse leaving the location as it was; grids of whole waves of resident blocks (a policy's
// `reduction_waves`). Inputs random,
// outputs poisoned.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/launch_helpers.cuh"
#include "../common/side_reduction_gpu.cuh"
#include "../common/test_utils.cuh"

using namespace ew_test;

namespace {

/// A zeroed `ew::reduction_workspace` in device memory, with its counter read back.
struct device_workspace {
  device_array<ew::reduction_workspace> a{1};
  device_workspace() {
    EW_REQUIRE_CUDA(cudaMemset(a.data(), 0, sizeof(ew::reduction_workspace)));
    EW_REQUIRE_CUDA(cudaDeviceSynchronize());
  }
  ew::reduction_workspace* p() const { return a.data(); }
  unsigned arrived() const {
    unsigned v = 1;
    EW_REQUIRE_CUDA(cudaMemcpy(&v, &a.data()->arrived, sizeof(v), cudaMemcpyDeviceToHost));
    return v;
  }
};

/// `(x, x, x, x * 1000 as an integer)`: four values to reduce and none to write.
struct ow_keep4 {
  EW_HD cuda::std::tuple<float, float, float, std::int64_t> operator()(float x) const {
    return {x, x, x, static_cast<std::int64_t>(x * 1000.0f)};
  }
};

/// `(x + b, x + b)`: a biased value written and reduced.
struct ow_bias_keep {
  EW_HD cuda::std::tuple<float, float> operator()(float x, float b) const { return {x + b, x + b}; }
};

/// `(x, 2 x, -x)`: three float parts for three amax targets.
struct ow_three_amax {
  EW_HD cuda::std::tuple<float, float, float> operator()(float x) const { return {x, 2.0f * x, -x}; }
};

/// ew's policy with another grid for launches with side reductions: at most `PerSm` blocks a SM, or with
/// `Waves` above 0 that many whole waves of the kernel's resident blocks (`launch_policy::reduction_waves`).
template <int PerSm, int Waves = 0>
struct reduction_grid {
  template <class Op>
  static constexpr ew::policy_entry entry() {
    ew::policy_entry e{};
    e.launch.reduction_blocks_per_sm = PerSm;
    e.launch.monotone_reduction_blocks_per_sm = PerSm;
    e.launch.overwrite_blocks_per_sm = PerSm;
    e.launch.reduction_waves = Waves;
    return e;
  }
};
/// One block a SM: every kernel's blocks loop.
using one_block_a_sm = reduction_grid<1>;
template <int Waves>
using whole_waves = reduction_grid<32, Waves>;

template <class T, class Policy = ew::default_policy>
void check_quantize_overwrite(std::size_t n, std::size_t off, std::uint64_t seed, device_workspace& ws) {
  INFO("n " << n << " offset " << off << " seed " << seed);
  device_array<T> dx(n, off);
  device_array<__nv_fp8_e4m3> dy(n, off);
  device_scalar<float> amax;
  const float scale = 448.0f / 300.0f;
  // Two launches: the second's inputs are smaller, so a location that kept the first's value would show.
  for (int launch = 0; launch < 2; ++launch) {
    const float range = launch == 0 ? 300.0f : 100.0f;
    const std::vector<T> x = random_inputs<T>(n, seed + static_cast<std::uint64_t>(launch), -range, range);
    dx.upload(x);
    dy.poison();
    amax.set(launch == 0 ? 1e30f : NAN);  // garbage, overwritten by the launch
    EW_REQUIRE_CUDA(ew::elementwise<Policy>(
        scale_and_keep<T>{scale}, n,
        ew::out(dy.data(), ew::reduce_overwrite<ew::reduction::amax>(amax.p(), ws.p())),
        static_cast<const T*>(dx.data())));
    EW_REQUIRE_CUDA(cudaDeviceSynchronize());
    REQUIRE(dy.guards_intact());
    float want_amax = 0.0f;
    const std::size_t wrong = wrong_fp8_codes(dy.download(), x, scale, want_amax);
    INFO("launch " << launch);
    CHECK(wrong == 0);
    CHECK(amax.get() == want_amax);
    CHECK(ws.arrived() == 0);
  }
}

}  // namespace

TEST_CASE("reduce_overwrite: FP8 quantize with amax and no reset, f32 and bf16", "[reduce_overwrite]") {
  device_workspace ws;
  for (std::size_t n : {1u, 31u, 4097u, 1000003u, (1u << 24) + 3u, 1u << 26}) {
    for (std::size_t off : {0u, 1u}) {
      check_quantize_overwrite<float>(n, off, base_seed() + n, ws);
      check_quantize_overwrite<__nv_bfloat16>(n, off, base_seed() + n + 1, ws);
    }
  }
}

TEST_CASE("reduce_overwrite: grids of whole waves of the kernel's resident blocks (reduction_waves)",
          "[reduce_overwrite]") {
  // One wave: every block resident at once, each looping over its share of the tiles; three waves; and
  // sizes below one wave's blocks (the grid unchanged). The occupancy query's answer is cached per kernel.
  device_workspace ws;
  for (std::size_t n : {4097u, 1000003u, (1u << 24) + 3u}) {
    check_quantize_overwrite<float, whole_waves<1>>(n, 1, base_seed() + n, ws);
    check_quantize_overwrite<__nv_bfloat16, whole_waves<1>>(n, 0, base_seed() + n + 1, ws);
    check_quantize_overwrite<float, whole_waves<3>>(n, 0, base_seed() + n + 2, ws);
  }
}

TEST_CASE("reduce_overwrite: max, min, integer and float sums; a float sum the same bits every launch",
          "[reduce_overwrite]") {
  device_workspace ws[5];
  for (std::size_t n : {std::size_t{5}, std::size_t{70001}, (std::size_t{1} << 24) + 7}) {
    INFO("n " << n);
    const std::vector<float> x = random_inputs<float>(n, base_seed() + 7 + n, -50.0f, 50.0f);
    device_array<float> dx(n);
    dx.upload(x);
    float want_max = -INFINITY, want_min = INFINITY;
    std::int64_t want_isum = 0;
    double dsum = 0, abs_sum = 0;
    for (float v : x) {
      want_max = std::max(want_max, v);
      want_min = std::min(want_min, v);
      want_isum += static_cast<std::int64_t>(v * 1000.0f);
      dsum += v;
      abs_sum += std::fabs(v);
    }
    device_scalar<float> mx, mn, fsum;
    device_scalar<std::int64_t> isum;
    std::vector<float> sums;
    for (int launch = 0; launch < 5; ++launch) {
      mx.set(1e30f);
      mn.set(-1e30f);
      fsum.set(NAN);
      isum.set(-12345);
      EW_REQUIRE_CUDA(ew::elementwise(ow_keep4{}, n,
                                      ew::out(ew::reduce_overwrite<ew::reduction::max>(mx.p(), ws[0].p()),
                                              ew::reduce_overwrite<ew::reduction::min>(mn.p(), ws[1].p()),
                                              ew::reduce_overwrite<ew::reduction::sum>(fsum.p(), ws[2].p()),
                                              ew::reduce_overwrite<ew::reduction::sum>(isum.p(), ws[3].p())),
                                      static_cast<const float*>(dx.data())));
      EW_REQUIRE_CUDA(cudaDeviceSynchronize());
      CHECK(mx.get() == want_max);
      CHECK(mn.get() == want_min);
      CHECK(isum.get() == want_isum);
      sums.push_back(fsum.get());
      // Each float rounding adds at most 2^-24 of the sum of magnitudes below it; a thread adds some tens of
      // elements, then the block's tree and the last block's slots: 2^-16 of the magnitudes is far above.
      CHECK(std::fabs(static_cast<double>(sums.back()) - dsum) <= abs_sum * 0x1p-16);
      for (int k = 0; k < 4; ++k) CHECK(ws[k].arrived() == 0);
    }
    for (float s : sums) CHECK(std::memcmp(&s, &sums[0], sizeof(float)) == 0);
  }
}

TEST_CASE("reduce_overwrite: one workspace through launches of alternating sizes, back to back",
          "[reduce_overwrite]") {
  device_workspace ws;
  const std::size_t big = (std::size_t{1} << 22) + 1;
  const std::vector<float> x = random_inputs<float>(big, base_seed() + 41, -9.0f, 9.0f);
  device_array<float> dx(big);
  dx.upload(x);
  const std::size_t sizes[] = {1, big, 3, std::size_t{1} << 20, big, 1000, 2, 5000};
  constexpr int launches = 8;
  device_array<float> am(launches);
  am.poison();
  test_stream stream;
  for (int k = 0; k < launches; ++k) {  // no wait between them: each may start as the one before ends
    EW_REQUIRE_CUDA(ew::elementwise(ew::identity<float>{}, sizes[k],
                                    ew::reduce_overwrite<ew::reduction::amax>(am.data() + k, ws.p()),
                                    static_cast<const float*>(dx.data()), stream.s));
  }
  EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.s));
  const auto got = am.download();
  for (int k = 0; k < launches; ++k) {
    float want = 0.0f;
    for (std::size_t i = 0; i < sizes[k]; ++i) want = std::max(want, std::fabs(x[i]));
    INFO("launch " << k << " n " << sizes[k]);
    CHECK(got[static_cast<std::size_t>(k)] == want);
  }
  CHECK(ws.arrived() == 0);
}

TEST_CASE("reduce_overwrite: one workspace through sums, maxima and minima, back to back",
          "[reduce_overwrite]") {
  // A sum's launch leaves its slots as they are: the max, min and amax launches after it must not read
  // them (change 46 kept their key in slot 0; an amax after a negative sum read the sum's bits, H100 bench
  // rows, 2026-12-05).
  device_workspace ws;
  const std::size_t n = (std::size_t{1} << 20) + 3;
  const std::vector<float> xn = random_inputs<float>(n, base_seed() + 43, -2.0f, -1.0f);
  const std::vector<float> x = random_inputs<float>(n, base_seed() + 44, -9.0f, 9.0f);
  device_array<float> dxn(n), dx(n);
  dxn.upload(xn);
  dx.upload(x);
  device_array<float> r(8);
  r.poison();
  test_stream stream;
  const float* pn = dxn.data();
  const float* px = dx.data();
  for (int round = 0; round < 2; ++round) {  // no wait between the launches
    float* o = r.data() + 4 * round;
    EW_REQUIRE_CUDA(ew::elementwise(ew::identity<float>{}, n,
                                    ew::reduce_overwrite<ew::reduction::sum>(o, ws.p()), pn, stream.s));
    EW_REQUIRE_CUDA(ew::elementwise(ew::identity<float>{}, n,
                                    ew::reduce_overwrite<ew::reduction::amax>(o + 1, ws.p()), px, stream.s));
    EW_REQUIRE_CUDA(ew::elementwise(ew::identity<float>{}, n,
                                    ew::reduce_overwrite<ew::reduction::max>(o + 2, ws.p()), px, stream.s));
    EW_REQUIRE_CUDA(ew::elementwise(ew::identity<float>{}, n,
                                    ew::reduce_overwrite<ew::reduction::min>(o + 3, ws.p()), px, stream.s));
  }
  EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.s));
  const auto got = r.download();
  double sn = 0;
  float am = 0.0f, mx = -INFINITY, mn = INFINITY;
  for (float v : xn) sn += v;
  for (float v : x) {
    am = std::max(am, std::fabs(v));
    mx = std::max(mx, v);
    mn = std::min(mn, v);
  }
  for (int round = 0; round < 2; ++round) {
    INFO("round " << round);
    const std::size_t k = 4 * static_cast<std::size_t>(round);
    CHECK(std::fabs(got[k] - sn) <= 1e-5 * std::fabs(sn));
    CHECK(got[k + 1] == am);
    CHECK(got[k + 2] == mx);
    CHECK(got[k + 3] == mn);
  }
  CHECK(ws.arrived() == 0);
}

TEST_CASE("reduce_overwrite: two targets of one reduction and type, beside an ew::reduce_into one",
          "[reduce_overwrite]") {
  const std::size_t n = (std::size_t{1} << 24) + 9;
  const std::vector<float> x = random_inputs<float>(n, base_seed() + 43, -70.0f, 70.0f);
  device_array<float> dx(n);
  dx.upload(x);
  float want = 0.0f;
  for (float v : x) want = std::max(want, std::fabs(v));
  device_workspace ws1, ws2;
  device_scalar<float> a1, a2, a3;
  for (int launch = 0; launch < 3; ++launch) {
    a1.set(1e30f);
    a2.set(NAN);
    EW_REQUIRE_CUDA(ew::reset_reduction(ew::reduce_into<ew::reduction::amax>(a3.p())));
    EW_REQUIRE_CUDA(ew::elementwise(ow_three_amax{}, n,
                                    ew::out(ew::reduce_overwrite<ew::reduction::amax>(a1.p(), ws1.p()),
                                            ew::reduce_overwrite<ew::reduction::amax>(a2.p(), ws2.p()),
                                            ew::reduce_into<ew::reduction::amax>(a3.p())),
                                    static_cast<const float*>(dx.data())));
    EW_REQUIRE_CUDA(cudaDeviceSynchronize());
    INFO("launch " << launch);
    CHECK(a1.get() == want);
    CHECK(a2.get() == 2.0f * want);
    CHECK(a3.get() == want);
    CHECK(ws1.arrived() == 0);
    CHECK(ws2.arrived() == 0);
  }
}

TEST_CASE("reduce_overwrite: graphs replayed with falling maxima, no reset node", "[reduce_overwrite]") {
  const std::size_t n = 1 << 20;
  device_array<float> dx(n);
  device_array<__nv_fp8_e5m2> dy(n);
  device_scalar<float> am;
  device_workspace ws;
  test_stream stream;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  EW_REQUIRE_CUDA(cudaStreamBeginCapture(stream.s, cudaStreamCaptureModeThreadLocal));
  const cudaError_t launch =
      ew::elementwise(scale_and_keep<float>{0.5f}, n,
                      ew::out(dy.data(), ew::reduce_overwrite<ew::reduction::amax>(am.p(), ws.p())),
                      static_cast<const float*>(dx.data()), stream.s);
  EW_REQUIRE_CUDA(cudaStreamEndCapture(stream.s, &graph));
  EW_REQUIRE_CUDA(launch);
  EW_REQUIRE_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (int replay = 0; replay < 4; ++replay) {
    const float range = 100.0f / static_cast<float>(replay + 1);
    const std::vector<float> x =
        random_inputs<float>(n, base_seed() + 200 + static_cast<std::uint64_t>(replay), -range, range);
    dx.upload(x);
    EW_REQUIRE_CUDA(cudaGraphLaunch(exec, stream.s));
    EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.s));
    float want = 0;
    for (float v : x) want = std::max(want, std::fabs(v));
    INFO("replay " << replay);
    CHECK(am.get() == want);
    CHECK(ws.arrived() == 0);
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
}

TEST_CASE("reduce_overwrite: a launch of no elements stores the identity, 1-D and N-d, direct and in a graph",
          "[reduce_overwrite]") {
  // An empty expert's tokens, an empty tensor: the overwrite locations hold the reduction of no values (max
  // -inf, min +inf, amax and sum 0), never what an earlier launch left; an ew::reduce_into location keeps its
  // value. The arrays of an empty launch may be null.
  device_workspace ws1, ws2, ws3;
  device_scalar<float> mx, mn, am;
  device_scalar<std::int64_t> total;
  const auto set_garbage = [&] {
    mx.set(123.0f);
    mn.set(-5.0f);
    am.set(77.0f);
    total.set(4242);
  };
  const auto outs = ew::out(ew::reduce_overwrite<ew::reduction::max>(mx.p(), ws1.p()),
                            ew::reduce_overwrite<ew::reduction::min>(mn.p(), ws2.p()),
                            ew::reduce_into<ew::reduction::amax>(am.p()),
                            ew::reduce_overwrite<ew::reduction::sum>(total.p(), ws3.p()));
  const auto check_identities = [&](const char* what) {
    INFO(what);
    CHECK(mx.get() == -std::numeric_limits<float>::infinity());
    CHECK(mn.get() == std::numeric_limits<float>::infinity());
    CHECK(am.get() == 77.0f);
    CHECK(total.get() == 0);
    CHECK(ws1.arrived() == 0);
  };
  set_garbage();
  EW_REQUIRE_CUDA(ew::elementwise(ow_keep4{}, 0, outs, static_cast<const float*>(nullptr)));
  EW_REQUIRE_CUDA(cudaDeviceSynchronize());
  check_identities("1-D, n = 0");
  // N-dimensional, an extent of 0: an array output (null) beside the targets.
  set_garbage();
  device_scalar<float> amax_nd;
  amax_nd.set(9.0f);
  device_workspace ws4;
  EW_REQUIRE_CUDA(ew::elementwise(
      ow_bias_keep{}, ew::extents{0, 64},
      ew::out(static_cast<float*>(nullptr), ew::reduce_overwrite<ew::reduction::amax>(amax_nd.p(), ws4.p())),
      ew::in(static_cast<const float*>(nullptr), static_cast<const float*>(nullptr))));
  EW_REQUIRE_CUDA(cudaDeviceSynchronize());
  CHECK(amax_nd.get() == 0.0f);
  // Captured into a graph and replayed: the identity each replay.
  test_stream stream;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  EW_REQUIRE_CUDA(cudaStreamBeginCapture(stream.s, cudaStreamCaptureModeThreadLocal));
  const cudaError_t launch =
      ew::elementwise(ow_keep4{}, 0, outs, static_cast<const float*>(nullptr), stream.s);
  EW_REQUIRE_CUDA(cudaStreamEndCapture(stream.s, &graph));
  EW_REQUIRE_CUDA(launch);
  EW_REQUIRE_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (int replay = 0; replay < 2; ++replay) {
    set_garbage();
    EW_REQUIRE_CUDA(cudaGraphLaunch(exec, stream.s));
    EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.s));
    check_identities("graph replay");
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  // A bad workspace is refused at n = 0 as at any n, and nothing is written.
  set_garbage();
  CHECK(ew::elementwise(ow_keep4{}, 0,
                        ew::out(ew::reduce_overwrite<ew::reduction::max>(mx.p(), nullptr),
                                ew::reduce_overwrite<ew::reduction::min>(mn.p(), ws2.p()),
                                ew::reduce_into<ew::reduction::amax>(am.p()),
                                ew::reduce_overwrite<ew::reduction::sum>(total.p(), ws3.p())),
                        static_cast<const float*>(nullptr)) == cudaErrorInvalidValue);
  EW_REQUIRE_CUDA(cudaDeviceSynchronize());
  CHECK(mx.get() == 123.0f);
  CHECK(total.get() == 4242);
}

namespace {

/// The N-dimensional launches of the test below with policy `P` (ew's, or one block a SM).
template <class P>
void check_nd_overwrite(const char* what) {
  INFO(what);
  // A bias broadcast along rows (the row and gather kernels), a transposed read (the tile kernel) and a
  // strided output (the N-dimensional kernel), large enough that ew's own grid is capped too.
  const std::int64_t rows = 4099, cols = 1031;
  const std::size_t n = static_cast<std::size_t>(rows * cols);
  const std::vector<float> x = random_inputs<float>(n, base_seed() + 51, -20.0f, 20.0f);
  const std::vector<float> b = random_inputs<float>(static_cast<std::size_t>(cols), base_seed() + 52);
  device_array<float> dx(n), db(static_cast<std::size_t>(cols)), dy(2 * n);
  dx.upload(x);
  db.upload(b);
  device_scalar<float> mx;
  device_workspace ws;
  const auto bias = ew::broadcast(static_cast<const float*>(db.data()), ew::extents{1, cols});
  const auto x_rows = static_cast<const float*>(dx.data());
  const auto x_transposed =
      ew::strided(static_cast<const float*>(dx.data()), ew::extents{rows, cols}, ew::strides{1, rows});
  for (int form = 0; form < 3; ++form) {
    INFO("form " << form);
    dy.poison();
    mx.set(form == 1 ? NAN : 1e30f);
    const auto target = ew::reduce_overwrite<ew::reduction::max>(mx.p(), ws.p());
    cudaError_t err = cudaSuccess;
    if (form == 0) {  // y = x + b
      err = ew::elementwise<P>(ow_bias_keep{}, ew::extents{rows, cols}, ew::out(dy.data(), target),
                               ew::in(x_rows, bias));
    } else if (form == 1) {  // y[r][c] = x[c][r] + b[c]
      err = ew::elementwise<P>(ow_bias_keep{}, ew::extents{rows, cols}, ew::out(dy.data(), target),
                               ew::in(x_transposed, bias));
    } else {  // y at a row pitch of 2 cols, every other element
      const auto y_strided = ew::strided(dy.data(), ew::extents{rows, cols}, ew::strides{2 * cols, 2});
      err = ew::elementwise<P>(ow_bias_keep{}, ew::extents{rows, cols}, ew::out(y_strided, target),
                               ew::in(x_rows, bias));
    }
    EW_REQUIRE_CUDA(err);
    EW_REQUIRE_CUDA(cudaDeviceSynchronize());
    REQUIRE(dy.guards_intact());
    const auto y = dy.download();
    float want = -INFINITY;
    std::size_t wrong = 0;
    for (std::int64_t r = 0; r < rows; ++r) {
      for (std::int64_t c = 0; c < cols; ++c) {
        const float xv =
            form == 1 ? x[static_cast<std::size_t>(c * rows + r)] : x[static_cast<std::size_t>(r * cols + c)];
        const float v = xv + b[static_cast<std::size_t>(c)];
        want = std::max(want, v);
        const std::size_t at = form == 2 ? static_cast<std::size_t>(r * 2 * cols + 2 * c)
                                         : static_cast<std::size_t>(r * cols + c);
        wrong += y[at] != v;
      }
    }
    CHECK(wrong == 0);
    CHECK(mx.get() == want);
    CHECK(ws.arrived() == 0);
  }
}

}  // namespace

TEST_CASE("reduce_overwrite: N-dimensional launches, every kernel, capped grids", "[reduce_overwrite]") {
  check_nd_overwrite<ew::default_policy>("ew's policy");
  check_nd_overwrite<one_block_a_sm>("one block a SM");
  check_nd_overwrite<whole_waves<1>>("one wave of resident blocks");
}

namespace {
/// `(x * s, x * s, x)`: the cast-transpose's op, the last part reduced with amax.
template <class T>
struct ow_cast_transpose {
  float scale;
  EW_HD cuda::std::tuple<float, float, float> operator()(T x) const {
    const float v = ew::convert<float>(x);
    return {v * scale, v * scale, v};
  }
};

/// ew's policy with `Stages` buffers of asynchronous copies in the tile launches that read directly
/// (`nd_kernel_shapes::tile_async_stages`: the cast-transpose's full tiles of x).
template <int Stages>
struct async_copies {
  template <class Op>
  static constexpr ew::policy_entry entry() {
    ew::policy_entry e{};
    e.nd.tile_async_stages = Stages;
    return e;
  }
};

template <class T, class Policy = ew::default_policy>
void check_cast_transpose(std::int64_t M, std::int64_t N, std::uint64_t seed) {
  INFO("M " << M << " N " << N);
  const std::size_t n = static_cast<std::size_t>(M * N);
  const std::vector<T> x = random_inputs<T>(n, seed, -4.0f, 4.0f);
  device_array<T> dx(n);
  dx.upload(x);
  device_array<__nv_fp8_e4m3> dy(n), dyt(n);
  dy.poison();
  dyt.poison();
  device_scalar<float> am;
  am.set(NAN);
  device_workspace ws;
  const float scale = 100.0f;
  const ew::extents e{M, N};
  EW_REQUIRE_CUDA(ew::elementwise<Policy>(
      ow_cast_transpose<T>{scale}, e,
      ew::out(ew::strided(dy.data(), e, ew::strides{N, 1}), ew::strided(dyt.data(), e, ew::strides{1, M}),
              ew::reduce_overwrite<ew::reduction::amax>(am.p(), ws.p())),
      ew::in(static_cast<const T*>(dx.data())), 0));
  EW_REQUIRE_CUDA(cudaDeviceSynchronize());
  REQUIRE(dy.guards_intact());
  REQUIRE(dyt.guards_intact());
  const auto y = dy.download();
  const auto yt = dyt.download();
  std::size_t wrong = 0;
  float want_amax = 0.0f;
  for (std::int64_t i = 0; i < M; ++i) {
    for (std::int64_t j = 0; j < N; ++j) {
      const float v = host_float(x[static_cast<std::size_t>(i * N + j)]);
      want_amax = std::max(want_amax, std::fabs(v));
      const unsigned char want = ew::convert<__nv_fp8_e4m3>(v * scale).__x;
      wrong += y[static_cast<std::size_t>(i * N + j)].__x != want;
      wrong += yt[static_cast<std::size_t>(j * M + i)].__x != want;
    }
  }
  CHECK(wrong == 0);
  CHECK(am.get() == want_amax);
  CHECK(ws.arrived() == 0);
}
}  // namespace

TEST_CASE("reduce_overwrite: FP8 cast-transpose with amax in one launch (fp8_cast_transpose_fused)",
          "[reduce_overwrite]") {
  check_cast_transpose<float>(1031, 2053, base_seed() + 71);
  check_cast_transpose<__nv_bfloat16>(1031, 2053, base_seed() + 72);
  check_cast_transpose<float>(4096, 4096, base_seed() + 73);
  check_cast_transpose<__nv_bfloat16>(1, 777, base_seed() + 74);
  // x's full tiles copied asynchronously (bf16: 32 KiB a buffer, f32: 64 KiB, past the 48 KiB a block
  // without the kernel's attribute raised), edge tiles read directly, the resident blocks looping.
  check_cast_transpose<float, async_copies<2>>(1031, 2053, base_seed() + 75);
  check_cast_transpose<__nv_bfloat16, async_copies<3>>(1031, 2053, base_seed() + 76);
  check_cast_transpose<__nv_bfloat16, async_copies<3>>(4096, 4096, base_seed() + 77);
  check_cast_transpose<float, async_copies<3>>(4096, 4096, base_seed() + 78);
}

TEST_CASE("reduce_overwrite: a refused launch leaves the location as it was", "[reduce_overwrite]") {
  const std::size_t n = 4096;
  device_array<float> dx(n);
  dx.upload(random_inputs<float>(n, base_seed() + 61));
  device_scalar<float> a, b;
  a.set(-3.0f);
  b.set(-4.0f);
  device_workspace ws;
  const cudaError_t err = ew::elementwise(ew_test::scale_and_keep<float>{1.0f}, n,
                                          ew::out(ew::reduce_overwrite<ew::reduction::max>(a.p(), ws.p()),
                                                  ew::reduce_overwrite<ew::reduction::min>(b.p(), ws.p())),
                                          static_cast<const float*>(dx.data()));
  CHECK(err == cudaErrorInvalidValue);
  CHECK(std::string(ew::last_error_message()).find("workspace of its own") != std::string::npos);
  EW_REQUIRE_CUDA(cudaDeviceSynchronize());
  CHECK(a.get() == -3.0f);
  CHECK(b.get() == -4.0f);
  CHECK(ws.arrived() == 0);
}
