// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Counter-based random numbers on the GPU (ctest gpu.random): ew's Philox words against cuRAND's own
// `curand4` after `curand_init(seed, q, 4 * offset)`, and `ew::random_bits16` as those words' halves; the
// same bits at every element whatever the vector width, block size, output offset and launch mode (direct
// or graph), and equal to the host's Philox; the key read from device memory, changed between graph
// replays; statistics of the uniform and normal operands (mean, variance, a chi-square on a histogram) and
// of dropout over 32-bit and 16-bit words (keep rate within its binomial bound, scaled values, the mask
// equal to the words' threshold), f32 and bf16; dropout at the end of an `ew::compose` chain. Every seed is
// printed with INFO, so a failure names it (EW_TEST_SEED replays).

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <curand_kernel.h>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/launch_helpers.cuh"
#include "../common/test_utils.cuh"

using namespace ew_test;

namespace {

__global__ void curand_blocks(std::uint64_t seed, std::uint64_t offset, const std::uint64_t* q,
                              std::size_t count, uint4* out) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  curandStatePhilox4_32_10_t state;
  curand_init(seed, q[i], 4 * offset, &state);
  out[i] = curand4(&state);
}

template <class T>
std::vector<T> run_random(std::size_t n, std::size_t off, const ew::philox_seed& key, int vec,
                          int block_threads, launch_mode mode, ew::random_kind kind) {
  device_array<T> dy(n, off);
  dy.poison();
  test_stream stream;
  EW_REQUIRE_CUDA(run_in_mode(mode, stream.s, [&](cudaStream_t s) -> cudaError_t {
    auto issue = [&](auto operand) -> cudaError_t {
      using op_t = ew::cast<T>;
      const auto outs = cuda::std::make_tuple(dy.data());
      const auto ins = cuda::std::make_tuple(operand);
      ew::tuning::launch_policy policy = ew::tuning::policy_for_cc(90);
      policy.block_threads = block_threads;
      const ew::tuning::launch_policy* pp = block_threads > 0 ? &policy : nullptr;
      switch (vec) {
        case 1:
          return ew::detail::dispatch<1, 4>(op_t{}, n, outs, ins, s, pp);
        case 2:
          return ew::detail::dispatch<2, 2>(op_t{}, n, outs, ins, s, pp);
        case 4:
          return ew::detail::dispatch<4, 4>(op_t{}, n, outs, ins, s, pp);
        default:
          return ew::elementwise(op_t{}, n, dy.data(), operand, s);
      }
    };
    if (kind == ew::random_kind::bits) return issue(ew::random_bits(key));
    if (kind == ew::random_kind::bits16) return issue(ew::random_bits16(key));
    if (kind == ew::random_kind::uniform) return issue(ew::random_uniform(key));
    return issue(ew::random_normal(key));
  }));
  REQUIRE(dy.guards_intact());
  return dy.download();
}

}  // namespace

TEST_CASE("random: ew's words are cuRAND's Philox stream", "[random]") {
  std::vector<std::uint64_t> qs;
  for (std::uint64_t q = 0; q < 4096; ++q) qs.push_back(q);
  for (std::uint64_t q : {std::uint64_t(1) << 32, (std::uint64_t(1) << 33) + 5, ~std::uint64_t(0) >> 2})
    qs.push_back(q);
  device_array<std::uint64_t> dq(qs.size());
  dq.upload(qs);
  device_array<uint4> dw(qs.size());
  for (std::uint64_t seed : {std::uint64_t(0), std::uint64_t(123456789), (std::uint64_t(1) << 63) + 1}) {
    for (std::uint64_t offset : {std::uint64_t(0), std::uint64_t(7), std::uint64_t(1) << 40}) {
      INFO("seed " << seed << " offset " << offset);
      curand_blocks<<<static_cast<unsigned>((qs.size() + 127) / 128), 128>>>(seed, offset, dq.data(),
                                                                             qs.size(), dw.data());
      EW_REQUIRE_CUDA(cudaGetLastError());
      EW_REQUIRE_CUDA(cudaDeviceSynchronize());
      const auto want = dw.download();
      // ew: 4096 contiguous blocks through the random operand; the far blocks through the host's element()
      // (bit-identical to the device's, as the next test checks).
      const std::size_t n = 4096 * 4;
      device_array<std::uint32_t> dy(n, 1);
      dy.poison();
      EW_REQUIRE_CUDA(
          ew::elementwise(ew::cast<std::uint32_t>{}, n, dy.data(), ew::random_bits({seed, offset})));
      EW_REQUIRE_CUDA(cudaDeviceSynchronize());
      const auto got = dy.download();
      std::size_t wrong = 0;
      for (std::size_t q = 0; q < 4096; ++q) {
        wrong += got[4 * q] != want[q].x || got[4 * q + 1] != want[q].y || got[4 * q + 2] != want[q].z ||
                 got[4 * q + 3] != want[q].w;
      }
      CHECK(wrong == 0);
      for (std::size_t k = 4096; k < qs.size(); ++k) {
        const ew::detail::random_input<ew::random_kind::bits, false> host{{seed, offset}, nullptr};
        CHECK(host.element(static_cast<std::size_t>(qs[k] * 4)) == want[k].x);
        CHECK(host.element(static_cast<std::size_t>(qs[k] * 4 + 3)) == want[k].w);
      }
    }
  }
}

TEST_CASE("random: ew::random_bits16 gives the halves of cuRAND's words, eight elements a block",
          "[random]") {
  const std::size_t blocks = 4096;
  std::vector<std::uint64_t> qs(blocks);
  for (std::uint64_t q = 0; q < blocks; ++q) qs[q] = q;
  device_array<std::uint64_t> dq(blocks);
  dq.upload(qs);
  device_array<uint4> dw(blocks);
  for (std::uint64_t offset : {std::uint64_t(0), std::uint64_t(9)}) {
    const std::uint64_t seed = base_seed() + 16;
    INFO("seed " << seed << " offset " << offset);
    curand_blocks<<<static_cast<unsigned>(blocks / 128), 128>>>(seed, offset, dq.data(), blocks, dw.data());
    EW_REQUIRE_CUDA(cudaGetLastError());
    EW_REQUIRE_CUDA(cudaDeviceSynchronize());
    const auto want = dw.download();
    const std::size_t n = blocks * 8;
    device_array<std::uint16_t> dy(n, 3);
    dy.poison();
    EW_REQUIRE_CUDA(
        ew::elementwise(ew::cast<std::uint16_t>{}, n, dy.data(), ew::random_bits16({seed, offset})));
    EW_REQUIRE_CUDA(cudaDeviceSynchronize());
    REQUIRE(dy.guards_intact());
    const auto got = dy.download();
    std::size_t wrong = 0;
    for (std::size_t q = 0; q < blocks; ++q) {
      const std::uint32_t w[4] = {want[q].x, want[q].y, want[q].z, want[q].w};
      for (std::size_t k = 0; k < 8; ++k) {
        wrong += got[8 * q + k] != static_cast<std::uint16_t>(w[k / 2] >> (16 * (k % 2)));
      }
    }
    CHECK(wrong == 0);
  }
}

TEST_CASE("random: the same value at every element on every launch shape", "[random]") {
  const ew::philox_seed key{base_seed(), 3};
  INFO("seed " << key.seed);
  const std::size_t n = 1000003;
  const ew::detail::random_input<ew::random_kind::bits, false> host{key, nullptr};
  const ew::detail::random_input<ew::random_kind::uniform, false> host_u{key, nullptr};
  const auto bits = run_random<std::uint32_t>(n, 0, key, 0, 0, launch_mode::direct, ew::random_kind::bits);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += bits[i] != host.element(i);
  CHECK(wrong == 0);
  const auto uni = run_random<float>(n, 0, key, 0, 0, launch_mode::direct, ew::random_kind::uniform);
  std::size_t wrong_u = 0;
  for (std::size_t i = 0; i < n; ++i) wrong_u += uni[i] != host_u.element(i);
  CHECK(wrong_u == 0);
  const auto normal = run_random<float>(n, 0, key, 0, 0, launch_mode::direct, ew::random_kind::normal);
  for (std::size_t off : {0u, 1u, 2u, 3u}) {
    for (int vec : {0, 1, 2, 4}) {
      for (int bt : {0, 96}) {
        for (launch_mode mode : {launch_mode::direct, launch_mode::graph}) {
          INFO("offset " << off << " vec " << vec << " block " << bt << " " << mode_name(mode));
          CHECK(run_random<std::uint32_t>(n, off, key, vec, bt, mode, ew::random_kind::bits) == bits);
          const auto nv = run_random<float>(n, off, key, vec, bt, mode, ew::random_kind::normal);
          CHECK(std::memcmp(nv.data(), normal.data(), n * sizeof(float)) == 0);
        }
      }
    }
  }
  // 16 bits an element: the host's values at every width, offset and mode.
  const ew::detail::random_input<ew::random_kind::bits16, false> host16{key, nullptr};
  const auto b16 = run_random<std::uint16_t>(n, 0, key, 0, 0, launch_mode::direct, ew::random_kind::bits16);
  std::size_t wrong16 = 0;
  for (std::size_t i = 0; i < n; ++i) wrong16 += b16[i] != host16.element(i);
  CHECK(wrong16 == 0);
  for (std::size_t off : {1u, 3u, 5u, 7u}) {
    for (int vec : {0, 1, 2, 4}) {
      for (launch_mode mode : {launch_mode::direct, launch_mode::graph}) {
        INFO("bits16 offset " << off << " vec " << vec << " " << mode_name(mode));
        CHECK(run_random<std::uint16_t>(n, off, key, vec, 96, mode, ew::random_kind::bits16) == b16);
      }
    }
  }
  // Another offset or seed: another stream.
  const auto other =
      run_random<std::uint32_t>(n, 0, {key.seed, 4}, 0, 0, launch_mode::direct, ew::random_kind::bits);
  std::size_t same_words = 0;
  for (std::size_t i = 0; i < n; ++i) same_words += other[i] == bits[i];
  CHECK(same_words < 10);
}

TEST_CASE("random: the key from device memory, changed between graph replays", "[random]") {
  const std::size_t n = 100003;
  device_array<ew::philox_seed> dkey(1);
  device_array<float> dy(n);
  test_stream stream;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  EW_REQUIRE_CUDA(cudaStreamBeginCapture(stream.s, cudaStreamCaptureModeThreadLocal));
  const cudaError_t launch =
      ew::elementwise(ew::cast<float>{}, n, dy.data(),
                      ew::random_uniform(static_cast<const ew::philox_seed*>(dkey.data())), stream.s);
  EW_REQUIRE_CUDA(cudaStreamEndCapture(stream.s, &graph));
  EW_REQUIRE_CUDA(launch);
  EW_REQUIRE_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (std::uint64_t offset = 0; offset < 3; ++offset) {
    const ew::philox_seed key{base_seed() + 1, offset};
    dkey.upload({key});
    EW_REQUIRE_CUDA(cudaGraphLaunch(exec, stream.s));
    EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.s));
    const auto got = dy.download();
    const ew::detail::random_input<ew::random_kind::uniform, false> host{key, nullptr};
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) wrong += got[i] != host.element(i);
    INFO("offset " << offset);
    CHECK(wrong == 0);
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
}

TEST_CASE("random: uniform and normal statistics", "[random]") {
  const std::size_t n = std::size_t(1) << 24;
  const ew::philox_seed key{base_seed() + 77, 0};
  INFO("seed " << key.seed << " offset " << key.offset);
  const auto u = run_random<float>(n, 0, key, 0, 0, launch_mode::direct, ew::random_kind::uniform);
  double mean = 0, m2 = 0;
  std::vector<double> bins(256, 0.0);
  bool in_range = true;
  for (float v : u) {
    in_range = in_range && v >= 0.0f && v < 1.0f;
    mean += v;
    m2 += static_cast<double>(v) * v;
    bins[static_cast<std::size_t>(v * 256.0f)] += 1;
  }
  mean /= static_cast<double>(n);
  const double var = m2 / static_cast<double>(n) - mean * mean;
  CHECK(in_range);
  CHECK(std::fabs(mean - 0.5) < 6.0 * std::sqrt(1.0 / 12.0 / static_cast<double>(n)));
  CHECK(std::fabs(var - 1.0 / 12.0) < 6.0 * std::sqrt(1.0 / 180.0 / static_cast<double>(n)));
  double chi = 0;
  const double expect = static_cast<double>(n) / 256.0;
  for (double c : bins) chi += (c - expect) * (c - expect) / expect;
  // 255 degrees of freedom: mean 255, sd sqrt(510) = 22.6; 6 sd above.
  CHECK(chi < 255.0 + 6.0 * std::sqrt(510.0));

  const auto z = run_random<float>(n, 0, key, 0, 0, launch_mode::direct, ew::random_kind::normal);
  double zm = 0, z2 = 0;
  std::vector<double> zb(64, 0.0);
  bool finite = true;
  for (float v : z) {
    finite = finite && std::isfinite(v);
    zm += v;
    z2 += static_cast<double>(v) * v;
    const double p = 0.5 * std::erfc(-static_cast<double>(v) / std::sqrt(2.0));  // Phi(v)
    std::size_t k = static_cast<std::size_t>(p * 64.0);
    zb[k > 63 ? 63 : k] += 1;
  }
  zm /= static_cast<double>(n);
  const double zv = z2 / static_cast<double>(n) - zm * zm;
  CHECK(finite);
  CHECK(std::fabs(zm) < 6.0 / std::sqrt(static_cast<double>(n)));
  CHECK(std::fabs(zv - 1.0) < 6.0 * std::sqrt(2.0 / static_cast<double>(n)));
  double zchi = 0;
  const double zexp = static_cast<double>(n) / 64.0;
  for (double c : zb) zchi += (c - zexp) * (c - zexp) / zexp;
  CHECK(zchi < 63.0 + 6.0 * std::sqrt(126.0));
}

namespace {
template <class T, ew::random_kind K = ew::random_kind::bits>
void check_dropout(double p, std::size_t n, std::size_t off) {
  const ew::philox_seed key{base_seed() + static_cast<std::uint64_t>(p * 1000), 11};
  INFO("p " << p << " n " << n << " offset " << off << " seed " << key.seed << " kind "
            << static_cast<int>(K));
  const auto words = [&key] {
    if constexpr (K == ew::random_kind::bits16) {
      return ew::random_bits16(key);
    } else {
      return ew::random_bits(key);
    }
  };
  std::vector<T> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = ew::convert<T>(static_cast<float>((i % 1000) + 1) * 0.01f);
  device_array<T> dx(n, off), dy(n, off);
  device_array<bool> dm(n, off);
  dx.upload(x);
  dy.poison();
  dm.poison();
  const ew::dropout<T> op(p);
  EW_REQUIRE_CUDA(ew::elementwise(op, n, ew::out(dy.data(), dm.data()),
                                  ew::in(static_cast<const T*>(dx.data()), words())));
  EW_REQUIRE_CUDA(cudaDeviceSynchronize());
  REQUIRE(dy.guards_intact());
  REQUIRE(dm.guards_intact());
  const auto y = dy.download();
  const auto m = dm.download();
  const ew::detail::random_input<K, false> host{key, nullptr};
  const std::uint64_t keep_below = K == ew::random_kind::bits16 ? op.keep_below16 : op.keep_below;
  std::size_t kept = 0, wrong_mask = 0, wrong_value = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const bool want_keep = host.element(i) < keep_below;
    wrong_mask += m[i] != (want_keep ? 1 : 0);
    kept += m[i] == 1;
    const T want = want_keep ? ew::down<T>(ew::up(x[i]) * op.scale) : ew::convert<T>(0.0f);
    wrong_value += std::memcmp(&y[i], &want, sizeof(T)) != 0;
  }
  CHECK(wrong_mask == 0);
  CHECK(wrong_value == 0);
  // Without the mask (ew::discard): the same values, nothing else written.
  device_array<T> dy2(n, off);
  dy2.poison();
  EW_REQUIRE_CUDA(ew::elementwise(op, n, ew::out(dy2.data(), ew::discard),
                                  ew::in(static_cast<const T*>(dx.data()), words())));
  EW_REQUIRE_CUDA(cudaDeviceSynchronize());
  REQUIRE(dy2.guards_intact());
  const auto y2 = dy2.download();
  CHECK(std::memcmp(y2.data(), y.data(), n * sizeof(T)) == 0);
  const double q = 1.0 - p;
  const double sd = std::sqrt(static_cast<double>(n) * p * q);
  CHECK(std::fabs(static_cast<double>(kept) - static_cast<double>(n) * q) <= 6.0 * sd + 1.0);
}
}  // namespace

TEST_CASE("random: dropout keeps 1 - p within its binomial bound, f32 and bf16", "[random]") {
  for (double p : {0.1, 0.5, 0.9}) {
    check_dropout<float>(p, (std::size_t(1) << 22) + 7, 1);
    check_dropout<__nv_bfloat16>(p, (std::size_t(1) << 22) + 3, 0);
  }
  check_dropout<float>(0.0, 100000, 0);
  check_dropout<float>(1.0, 100000, 3);
}

TEST_CASE("random: dropout over ew::random_bits16 keeps 1 - p within its binomial bound, f32 and bf16",
          "[random]") {
  constexpr auto k16 = ew::random_kind::bits16;
  for (double p : {0.1, 0.5, 0.9}) {
    check_dropout<float, k16>(p, (std::size_t(1) << 22) + 7, 1);
    check_dropout<__nv_bfloat16, k16>(p, (std::size_t(1) << 22) + 3, 0);
    check_dropout<__nv_bfloat16, k16>(p, (std::size_t(1) << 20) + 5, 5);
  }
  check_dropout<__nv_bfloat16, k16>(0.0, 100000, 0);
  check_dropout<__nv_bfloat16, k16>(1.0, 100000, 3);
}

TEST_CASE("random: dropout at the end of a compose chain", "[random]") {
  const std::size_t n = 300007;
  const ew::philox_seed key{base_seed() + 5, 2};
  std::vector<float> x(n), b(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 97) - 48.0f;
    b[i] = static_cast<float>(i % 13) * 0.5f;
  }
  device_array<float> dx(n), db(n), dy(n), dy2(n), dsum(n);
  device_array<bool> dm(n), dm2(n);
  dx.upload(x);
  db.upload(b);
  const ew::dropout<float> d(0.2);
  EW_REQUIRE_CUDA(
      ew::elementwise(ew::compose(ew::carry_last(ew::add<float>{}), ew::carry_last(ew::relu<float>{}), d), n,
                      ew::out(dy.data(), dm.data()),
                      ew::in(static_cast<const float*>(dx.data()), static_cast<const float*>(db.data()),
                             ew::random_bits(key))));
  // The same in three launches.
  EW_REQUIRE_CUDA(
      ew::elementwise(ew::compose(ew::add<float>{}, ew::relu<float>{}), n, dsum.data(),
                      ew::in(static_cast<const float*>(dx.data()), static_cast<const float*>(db.data()))));
  EW_REQUIRE_CUDA(ew::elementwise(d, n, ew::out(dy2.data(), dm2.data()),
                                  ew::in(static_cast<const float*>(dsum.data()), ew::random_bits(key))));
  EW_REQUIRE_CUDA(cudaDeviceSynchronize());
  CHECK(dy.download() == dy2.download());
  CHECK(dm.download() == dm2.download());
}

namespace {
/// Dropout of `x` (rows x cols, rows `x_pitch` apart) into `y` and `mask` (rows `y_pitch` apart, or the
/// transpose where `transposed`), as one N-dimensional launch with the key read from `key` in device memory.
template <class T>
void dropout_nd(const ew::dropout<T>& d, const T* x, T* y, bool* mask, std::int64_t rows, std::int64_t cols,
                std::int64_t x_pitch, std::int64_t y_pitch, bool transposed, const ew::philox_seed* key) {
  const ew::extents<2> e{rows, cols};
  const ew::strides<2> ys = transposed ? ew::strides<2>{1, y_pitch} : ew::strides<2>{y_pitch, 1};
  EW_REQUIRE_CUDA(ew::elementwise(d, e, ew::out(ew::strided(y, e, ys), ew::strided(mask, e, ys)),
                                  ew::in(ew::strided(x, e, ew::strides{x_pitch, 1}), ew::random_bits(key))));
}
}  // namespace

TEST_CASE("random: dropout over strided views in N-dimensional launches, as over the contiguous array",
          "[random][nd]") {
  // Element (r, c) of an N-dimensional launch takes the word of its flat index r * cols + c: the values and
  // the mask of the 1-D launch over the contiguous array, on padded rows, a transposed output and the
  // kernels they take; the padding untouched.
  using T = __nv_bfloat16;
  const ew::dropout<T> d(0.25);
  device_array<ew::philox_seed> dkey(1);
  const ew::philox_seed key{base_seed() + 77, 5};
  dkey.upload(std::vector<ew::philox_seed>{key});
  struct shape {
    std::int64_t rows, cols, x_pitch, y_pitch;
    bool transposed;
  };
  for (const shape s :
       {shape{513, 1000, 1000, 1024, false}, shape{257, 1021, 1031, 1031, false}, shape{1000, 3, 5, 7, false},
        shape{640, 384, 384, 640, true}, shape{4096, 4096, 4100, 4096, false}}) {
    INFO("rows " << s.rows << " cols " << s.cols << " pitches " << s.x_pitch << "," << s.y_pitch
                 << (s.transposed ? " transposed" : ""));
    const std::size_t n = static_cast<std::size_t>(s.rows * s.cols);
    const std::size_t x_size = static_cast<std::size_t>(s.rows * s.x_pitch);
    const std::size_t y_size =
        static_cast<std::size_t>(s.transposed ? s.cols * s.y_pitch : s.rows * s.y_pitch);
    std::vector<T> hx(x_size), dense(n);
    for (std::size_t i = 0; i < x_size; ++i)
      hx[i] = ew::convert<T>(static_cast<float>(i % 1013) * 0.01f - 5.0f);
    for (std::int64_t r = 0; r < s.rows; ++r)
      for (std::int64_t c = 0; c < s.cols; ++c)
        dense[static_cast<std::size_t>(r * s.cols + c)] = hx[static_cast<std::size_t>(r * s.x_pitch + c)];
    device_array<T> dx(x_size), ddense(n), dy1(n), dy(y_size);
    device_array<bool> dm1(n), dm(y_size);
    dx.upload(hx);
    ddense.upload(dense);
    dy.poison();
    dm.poison();
    EW_REQUIRE_CUDA(
        ew::elementwise(d, n, ew::out(dy1.data(), dm1.data()),
                        ew::in(static_cast<const T*>(ddense.data()), ew::random_bits(dkey.data()))));
    dropout_nd(d, static_cast<const T*>(dx.data()), dy.data(), dm.data(), s.rows, s.cols, s.x_pitch,
               s.y_pitch, s.transposed, dkey.data());
    EW_REQUIRE_CUDA(cudaDeviceSynchronize());
    REQUIRE(dy.guards_intact());
    REQUIRE(dm.guards_intact());
    const auto y1 = dy1.download(), y = dy.download();
    const auto m1 = dm1.download(), m = dm.download();
    std::size_t wrong = 0, padding = 0;
    std::vector<bool> written(y_size, false);
    for (std::int64_t r = 0; r < s.rows; ++r) {
      for (std::int64_t c = 0; c < s.cols; ++c) {
        const std::size_t i = static_cast<std::size_t>(r * s.cols + c);
        const std::size_t at = static_cast<std::size_t>(s.transposed ? c * s.y_pitch + r : r * s.y_pitch + c);
        written[at] = true;
        wrong += std::memcmp(&y[at], &y1[i], sizeof(T)) != 0 || m[at] != m1[i];
      }
    }
    for (std::size_t k = 0; k < y_size; ++k)
      padding += !written[k] && (!holds_poison(y[k]) || m[k] != poison_byte);
    CHECK(wrong == 0);
    CHECK(padding == 0);
  }
}
