// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Random operands in N-dimensional launches on the host (ctest host.random): the launch as
// `ew::elementwise(op, extents, ...)` prepares it (`detail::with_nd_operands`: the operand read as the flat
// index, the op wrapped to map it), then the grid its plan chooses, thread by thread (nd_simulate.cuh), on
// layouts that take each kernel: contiguous, padded output rows, a transposed input, a broadcast bias, a
// rank-3 view. Every element's value must be the one a 1-D launch gives the same flat index
// (random.cuh's `random_input::element`, itself checked against the Philox blocks in
// test_random_host.cu), dropout's value and mask with it, and the padding of the outputs untouched.

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/nd_simulate.cuh"

namespace {

using ew_test::nd_sim::buffer;

struct add_three_floats {
  EW_HD float operator()(float a, float b, float u) const { return a + b + u; }
};

/// `with_nd_operands`, then the simulated grid; returns the path the plan took.
template <int R, class Op, class Out, class In>
std::string run_random_nd(const Op& op, const ew::extents<R>& e, Out out, In in) {
  std::string path;
  const auto outs = ew::detail::output_tuple(out);
  const auto ins = ew::detail::input_tuple(in);
  const cudaError_t err =
      ew::detail::with_nd_operands(op, outs, ins, ew::detail::element_count(e),
                                   [&](const auto& o, const auto& written, const auto& launched) {
                                     path = ew_test::nd_sim::simulate(o, e, written, launched);
                                     return cudaSuccess;
                                   });
  REQUIRE(err == cudaSuccess);
  return path;
}

constexpr unsigned char random_nd_poison = 0xab;

/// Dropout of a [rows, cols] view `x` (row pitch `x_pitch`, column step `x_step`) into `y` (rows `y_pitch`
/// apart) with its mask, every element against the 1-D operand at the flat index `r * cols + c`.
template <ew::random_kind K = ew::random_kind::bits>
void check_dropout_2d(std::int64_t rows, std::int64_t cols, std::int64_t x_pitch, std::int64_t x_step,
                      std::int64_t y_pitch, const std::string& want_path) {
  INFO("rows " << rows << " cols " << cols << " x strides " << x_pitch << "," << x_step << " y pitch "
               << y_pitch);
  const ew::philox_seed key{20261204, 3};
  const ew::dropout<float> d(0.3);
  const ew::extents<2> e{rows, cols};
  const std::int64_t x_size = (rows - 1) * x_pitch + (cols - 1) * x_step + 1;
  buffer<float> x(x_size), y(rows * y_pitch);
  buffer<unsigned char> m(rows * y_pitch);
  std::mt19937_64 rng(7);
  ew_test::nd_sim::fill_random(x.base, x_size, rng);
  std::memset(y.base, random_nd_poison, static_cast<std::size_t>(rows * y_pitch) * sizeof(float));
  std::memset(m.base, random_nd_poison, static_cast<std::size_t>(rows * y_pitch));
  const auto xv = ew::strided(static_cast<const float*>(x.base), e, ew::strides{x_pitch, x_step});
  const auto yv = ew::strided(y.base, e, ew::strides{y_pitch, 1});
  const auto mv = ew::strided(m.base, e, ew::strides{y_pitch, 1});
  std::string path;
  if constexpr (K == ew::random_kind::bits16) {
    path = run_random_nd(d, e, ew::out(yv, mv), ew::in(xv, ew::random_bits16(key)));
  } else {
    path = run_random_nd(d, e, ew::out(yv, mv), ew::in(xv, ew::random_bits(key)));
  }
  INFO("path " << path << " kind " << static_cast<int>(K));
  CHECK(path.find(want_path) == 0);
  const ew::detail::random_input<K, false> words{key, nullptr};
  const std::uint64_t keep_below = K == ew::random_kind::bits16 ? d.keep_below16 : d.keep_below;
  std::size_t wrong = 0, padding = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < y_pitch; ++c) {
      const float got = y.base[r * y_pitch + c];
      const unsigned char keep = m.base[r * y_pitch + c];
      if (c >= cols) {
        float p;
        std::memset(&p, random_nd_poison, sizeof p);
        padding += std::memcmp(&got, &p, sizeof p) != 0 || keep != random_nd_poison;
        continue;
      }
      const bool want_keep = words.element(static_cast<std::size_t>(r * cols + c)) < keep_below;
      const float want = x.base[r * x_pitch + c * x_step] * (want_keep ? d.scale : 0.0f);  // -0 kept
      wrong += std::memcmp(&got, &want, sizeof got) != 0 || keep != (want_keep ? 1 : 0);
    }
  }
  CHECK(wrong == 0);
  CHECK(padding == 0);
}

}  // namespace

TEST_CASE("random: N-dimensional launches give element x the value of its flat index, on every kernel",
          "[random][nd]") {
  check_dropout_2d(33, 70, 70, 1, 70, "1-D");               // contiguous: the 1-D kernel
  check_dropout_2d(37, 129, 129, 1, 150, "N-d");            // padded output rows (too short for vector rows)
  check_dropout_2d(64, 1000, 1000, 1, 1024, "vector_row");  // padded output rows
  check_dropout_2d(64, 64, 1, 64, 64, "tile");              // a transposed input
  check_dropout_2d(19, 45, 90, 2, 45, "");                  // every other column of x: any kernel
  // 16 bits an element: the thread's last block serves eight consecutive flat indices.
  constexpr auto k16 = ew::random_kind::bits16;
  check_dropout_2d<k16>(33, 70, 70, 1, 70, "1-D");
  check_dropout_2d<k16>(37, 129, 129, 1, 150, "N-d");
  check_dropout_2d<k16>(64, 1000, 1000, 1, 1024, "vector_row");
  check_dropout_2d<k16>(64, 64, 1, 64, 64, "tile");
  check_dropout_2d<k16>(19, 45, 90, 2, 45, "");
  check_dropout_2d(1000, 3, 3, 1, 5, "");  // short padded rows
}

TEST_CASE("random: N-dimensional normal and uniform operands, broadcast and rank 3", "[random][nd]") {
  const ew::philox_seed key{99, 1};
  // y[a, b, c] = normal at the flat index + bias[c], y a [5, 7, 33] view with its middle dimension padded.
  const std::int64_t A = 5, B = 7, C = 33, pitch_b = 40, pitch_a = 8 * 40;
  const ew::extents<3> e{A, B, C};
  buffer<float> y(A * pitch_a), bias(C);
  std::mt19937_64 rng(3);
  ew_test::nd_sim::fill_random(bias.base, C, rng);
  std::memset(y.base, random_nd_poison, static_cast<std::size_t>(A * pitch_a) * sizeof(float));
  const auto yv = ew::strided(y.base, e, ew::strides{pitch_a, pitch_b, 1});
  const auto bv = ew::strided(static_cast<const float*>(bias.base), ew::extents<1>{C}, ew::strides{1});
  const std::string path = run_random_nd(ew::add<float>{}, e, yv, ew::in(ew::random_normal(key), bv));
  CHECK(path.find("N-d") == 0);
  const ew::detail::random_input<ew::random_kind::normal, false> normal{key, nullptr};
  std::size_t wrong = 0;
  for (std::int64_t a = 0; a < A; ++a) {
    for (std::int64_t b = 0; b < B; ++b) {
      for (std::int64_t c = 0; c < C; ++c) {
        const float want = normal.element(static_cast<std::size_t>((a * B + b) * C + c)) + bias.base[c];
        const float got = y.base[a * pitch_a + b * pitch_b + c];
        wrong += std::memcmp(&got, &want, sizeof got) != 0;
      }
    }
  }
  CHECK(wrong == 0);

  // uniform through a transposed output: y^T[c, r] = u(r * 17 + c) for a [40, 17] launch.
  const std::int64_t rows = 40, cols = 17;
  buffer<float> t(rows * cols);
  const ew::extents<2> e2{rows, cols};
  CHECK(run_random_nd(ew::cast<float>{}, e2, ew::strided(t.base, e2, ew::strides{1, rows}),
                      ew::random_uniform(key))
            .find("vector_row") == 0);
  const ew::detail::random_input<ew::random_kind::uniform, false> uniform{key, nullptr};
  wrong = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < cols; ++c) {
      wrong += t.base[c * rows + r] != uniform.element(static_cast<std::size_t>(r * cols + c));
    }
  }
  CHECK(wrong == 0);
}

TEST_CASE("random: the N-dimensional index map keeps its last block and gives each element its word",
          "[random]") {
  const ew::philox_seed key{5, 8};
  const ew::detail::random_input<ew::random_kind::normal, false> in{key, nullptr};
  const auto map = ew::detail::input_arg<decltype(ew::random_normal(key))>::index_map(ew::random_normal(key));
  // In order, out of order, repeated, and past 2^32: always element(i), bit for bit.
  const std::int64_t order[] = {0, 1, 2, 3, 4, 9, 5, 5, 1000, 999, 3, (std::int64_t{1} << 33) + 2, 6};
  for (std::int64_t i : order) {
    INFO("i " << i);
    const float got = map(i), want = in.element(static_cast<std::size_t>(i));
    CHECK(std::memcmp(&got, &want, sizeof got) == 0);
  }
  // 16 bits an element: eight from a block, the same order.
  const ew::detail::random_input<ew::random_kind::bits16, false> in16{key, nullptr};
  const auto map16 =
      ew::detail::input_arg<decltype(ew::random_bits16(key))>::index_map(ew::random_bits16(key));
  const std::int64_t order16[] = {0, 7, 8, 1, 15, 16, 9, 9, 1000, 999, (std::int64_t{1} << 34) + 5, 6};
  for (std::int64_t i : order16) {
    INFO("i " << i);
    CHECK(map16(i) == in16.element(static_cast<std::size_t>(i)));
  }
}

TEST_CASE("random: N-dimensional launches with a broadcast input beside the random one", "[random][nd]") {
  // y = x + bias[c] + u: x [rows, cols] contiguous, y contiguous; odd and even rows.
  const ew::philox_seed key{1234, 0};
  for (std::int64_t cols : {std::int64_t{1021}, std::int64_t{1024}, std::int64_t{129}, std::int64_t{7}}) {
    const std::int64_t rows = 23;
    const ew::extents<2> e{rows, cols};
    buffer<float> x(rows * cols), bias(cols), y(rows * cols);
    std::mt19937_64 rng(11);
    ew_test::nd_sim::fill_random(x.base, rows * cols, rng);
    ew_test::nd_sim::fill_random(bias.base, cols, rng);
    std::memset(y.base, random_nd_poison, static_cast<std::size_t>(rows * cols) * sizeof(float));
    const auto bv = ew::strided(static_cast<const float*>(bias.base), e, ew::strides{0, 1});
    const add_three_floats op{};
    const std::string path =
        run_random_nd(op, e, y.base, ew::in(static_cast<const float*>(x.base), bv, ew::random_uniform(key)));
    const ew::detail::random_input<ew::random_kind::uniform, false> uniform{key, nullptr};
    std::size_t wrong = 0;
    for (std::int64_t i = 0; i < rows * cols; ++i) {
      const float want = x.base[i] + bias.base[i % cols] + uniform.element(static_cast<std::size_t>(i));
      wrong += std::memcmp(&y.base[i], &want, sizeof want) != 0;
    }
    INFO("cols " << cols << " path " << path);
    CHECK(wrong == 0);
  }
}

TEST_CASE("random: an N-dimensional launch checks a random operand's key in memory", "[random][nd]") {
  alignas(16) float y[64] = {};
  alignas(16) ew::philox_seed keys[2] = {};
  int launched = 0;
  auto launch = [&](const auto&, const auto&, const auto&) {
    ++launched;
    return cudaSuccess;
  };
  auto run = [&](const ew::philox_seed* key) {
    return ew::detail::with_nd_operands(ew::cast<float>{}, ew::detail::output_tuple(y),
                                        ew::detail::input_tuple(ew::random_uniform(key)), 64, launch);
  };
  CHECK(run(nullptr) == cudaErrorInvalidValue);
  CHECK(std::string(ew::last_error_message()).find("null pointer for a random operand's key") !=
        std::string::npos);
  CHECK(run(reinterpret_cast<const ew::philox_seed*>(reinterpret_cast<const char*>(keys) + 4)) ==
        cudaErrorInvalidValue);
  CHECK(std::string(ew::last_error_message()).find("not aligned") != std::string::npos);
  CHECK(run(reinterpret_cast<const ew::philox_seed*>(y + 60)) == cudaErrorInvalidValue);  // y's last 16 bytes
  CHECK(std::string(ew::last_error_message()).find("an output overlaps a random operand's key") !=
        std::string::npos);
  CHECK(launched == 0);
  CHECK(run(&keys[1]) == cudaSuccess);
  CHECK(launched == 1);
}
