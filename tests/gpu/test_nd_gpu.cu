// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Operands beyond contiguous pointers on the GPU (ctest gpu.nd): the index, constants and scalars in 1-D
// launches; N-dimensional launches of ranks 1 to 4 over random shapes and layouts (padded, permuted,
// broadcast, offset, inner strides of 2 and 3) against a CPU reference, direct and in graphs; the shapes
// users launch (a bias over [tokens, hidden], a column broadcast, per-channel normalisation of NCHW, pitched
// memory from cudaMallocPitch, a column slice of a wider matrix, a transposed read, in place); a scalar
// changed between graph replays. Every buffer is poisoned or filled with random values first, and every
// byte that is not an output element must come back unchanged.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/hardening_utils.cuh"
#include "../common/nd_cases.cuh"
#include "../common/test_utils.cuh"

using namespace ew_test;

namespace {

template <class T>
std::vector<T> random_values(std::int64_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<float> d(-4.0f, 4.0f);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = ew::convert<T>(d(rng));
  return v;
}
template <class T>
std::vector<T> poisoned(std::int64_t n) {
  std::vector<T> v(static_cast<std::size_t>(n));
  std::memset(static_cast<void*>(v.data()), poison_byte, v.size() * sizeof(T));
  return v;
}

/// out = a * 2 - b + (index % 97) * s (as in the host test).
struct mix_op {
  EW_HD float operator()(float a, __half b, std::int64_t i, float s) const {
    return a * 2.0f - __half2float(b) + static_cast<float>(i % 97) * s;
  }
};

/// Counts output elements that differ from `want_at(x)` and bytes outside the elements that changed.
template <int R, class T, class F>
void check_output(const std::int64_t (&e)[R], const nd::layout<R>& l, const std::vector<T>& before,
                  const std::vector<T>& got, F want_at) {
  std::vector<char> is_element(before.size(), 0);
  std::size_t wrong = 0, first = 0;
  nd::for_each_coordinate<R>(e, [&](const std::int64_t* x, std::int64_t linear) {
    const std::int64_t at = l.at(x);
    is_element[static_cast<std::size_t>(at)] = 1;
    if (!same_bits(got[static_cast<std::size_t>(at)], want_at(x, linear)) && wrong++ == 0)
      first = static_cast<std::size_t>(linear);
  });
  std::size_t changed = 0;
  for (std::size_t i = 0; i < before.size(); ++i) {
    if (!is_element[i] && std::memcmp(&before[i], &got[i], sizeof(T)) != 0) ++changed;
  }
  INFO("first wrong element (linear) " << first);
  CHECK(wrong == 0);
  CHECK(changed == 0);
}

template <int R>
void random_device_cases(int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  owned_stream stream;
  for (int n = 0; n < count; ++n) {
    std::int64_t e[R];
    nd::random_extents<R>(rng, e);
    if (n % 7 == 0) e[R - 1] = 1000 + static_cast<std::int64_t>(rng() % 300);  // many vectors per row
    for (;;) {  // at most 2^19 elements (rank 8 could otherwise reach 6^7 x 1300)
      std::int64_t total = 1, *largest = &e[0];
      for (auto& x : e) {
        total *= x;
        if (x > *largest) largest = &x;
      }
      if (total <= (std::int64_t{1} << 19)) break;
      *largest = (*largest + 1) / 2;
    }
    const auto ext = nd::to_extents<R>(e);
    const auto lo = nd::random_layout<R>(rng, e, false, true);
    const auto la = nd::random_layout<R>(rng, e, true, true);
    const auto lb = nd::random_layout<R>(rng, e, true, true);
    const int dim = static_cast<int>(rng() % (R + 1)) - 1;
    const launch_mode mode = n % 3 == 0 ? launch_mode::graph : launch_mode::direct;
    INFO("case " << n << " rank " << R << " " << mode_name(mode) << "\n out " << lo.describe() << "\n a "
                 << la.describe() << "\n b " << lb.describe() << "\n index dim " << dim);
    const auto ha = random_values<float>(la.buffer, rng);
    const auto hb = random_values<__half>(lb.buffer, rng);
    const auto ho = poisoned<float>(lo.buffer);
    device_array<float> da(ha.size(), n % 4), dout(ho.size(), n % 3), ds(1);
    device_array<__half> db(hb.size(), n % 5);
    da.upload(ha);
    db.upload(hb);
    dout.upload(ho);
    ds.upload({0.75f});
    auto issue = [&](cudaStream_t s) -> cudaError_t {
      const auto a = la.view(static_cast<const float*>(da.data()));
      const auto b = lb.view(static_cast<const __half*>(db.data()));
      const auto ins = ew::in(a, b, ew::index(dim), ew::scalar(static_cast<const float*>(ds.data())));
      if (lo.plain) return ew::elementwise(mix_op{}, ext, dout.data() + lo.offset, ins, s);
      return ew::elementwise(mix_op{}, ext, lo.view(dout.data()), ins, s);
    };
    EW_REQUIRE_CUDA(run_in_mode(mode, stream.get(), issue));
    check_output<R>(e, lo, ho, dout.download(), [&](const std::int64_t* x, std::int64_t linear) {
      return mix_op{}(ha[static_cast<std::size_t>(la.at(x))], hb[static_cast<std::size_t>(lb.at(x))],
                      dim < 0 ? linear : x[dim], 0.75f);
    });
    REQUIRE(dout.guards_intact());
  }
}

}  // namespace

namespace {
/// y = gelu(x + b) in bf16, computed in float: the transformer epilogue.
struct bias_gelu {
  EW_HD __nv_bfloat16 operator()(__nv_bfloat16 x, __nv_bfloat16 b) const {
    return ew::gelu<__nv_bfloat16>{}(ew::add<__nv_bfloat16>{}(x, b));
  }
};
/// Keeps the even elements: a position-dependent op.
struct even_mask {
  EW_HD float operator()(float v, std::int64_t i) const { return (i & 1) == 0 ? v : 0.0f; }
};
/// Adds the coordinates and the linear index.
struct add_coords {
  EW_HD float operator()(float v, std::int64_t r, std::int64_t c, std::int64_t lin) const {
    return v + static_cast<float>(r * 1000 + c) + static_cast<float>(lin % 3);
  }
};
/// (x - mean) * inv_std, per channel.
struct normalize {
  EW_HD float operator()(float x, float mean, float inv_std) const { return (x - mean) * inv_std; }
};
}  // namespace

TEST_CASE("N-d launches over random shapes, layouts and operand kinds match the CPU", "[nd]") {
  const std::uint64_t seed = base_seed();
  INFO("seed " << seed);
  random_device_cases<1>(40, seed + 11);
  random_device_cases<2>(120, seed + 12);
  random_device_cases<3>(100, seed + 13);
  random_device_cases<4>(80, seed + 14);
  random_device_cases<8>(12, seed + 18);  // ew::max_rank
}

TEST_CASE("index, constant and scalar operands in 1-D launches", "[nd]") {
  owned_stream stream;
  std::mt19937_64 rng(base_seed());
  for (std::size_t n : {std::size_t{1}, std::size_t{37}, std::size_t{4097}, std::size_t{1000003}}) {
    for (std::size_t off : {std::size_t{0}, std::size_t{3}}) {
      INFO("n " << n << " offset " << off);
      device_array<std::int64_t> seq(n, off);
      seq.poison();
      EW_REQUIRE_CUDA(ew::elementwise(ew::cast<std::int64_t>{}, n, seq.data(), ew::index(), stream.get()));
      EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.get()));
      const auto s = seq.download();
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < n; ++i) wrong += s[i] != static_cast<std::int64_t>(i);
      CHECK(wrong == 0);

      const auto hx = random_values<float>(static_cast<std::int64_t>(n), rng);
      device_array<float> x(n, off), y(n, (off + 1) % 4), z(n, off), scale(1);
      x.upload(hx);
      scale.upload({-1.25f});
      y.poison();
      z.poison();
      EW_REQUIRE_CUDA(
          ew::elementwise(ew::mul<float>{}, n, y.data(), ew::in(x.data(), ew::constant(0.5f)), stream.get()));
      EW_REQUIRE_CUDA(ew::elementwise(
          ew::fma<float>{}, n, z.data(),
          ew::in(x.data(), ew::scalar(static_cast<const float*>(scale.data())), ew::constant(3.0f)),
          stream.get()));
      EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.get()));
      const auto hy = y.download(), hz = z.download();
      std::size_t wy = 0, wz = 0;
      for (std::size_t i = 0; i < n; ++i) {
        wy += !same_bits(hy[i], ew::mul<float>{}(hx[i], 0.5f));
        wz += !same_bits(hz[i], ew::fma<float>{}(hx[i], -1.25f, 3.0f));
      }
      CHECK(wy == 0);
      CHECK(wz == 0);
      // Position-dependent: a mask of the even elements.
      y.poison();
      EW_REQUIRE_CUDA(ew::elementwise(even_mask{}, n, y.data(), ew::in(x.data(), ew::index()), stream.get()));
      EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.get()));
      const auto hm = y.download();
      std::size_t wm = 0;
      for (std::size_t i = 0; i < n; ++i) wm += !same_bits(hm[i], (i & 1) == 0 ? hx[i] : 0.0f);
      CHECK(wm == 0);
      REQUIRE(x.guards_intact());
      REQUIRE(y.guards_intact());
      REQUIRE(z.guards_intact());
    }
  }
}

TEST_CASE("a graph replay reads the value an ew::scalar holds then", "[nd][graph]") {
  const std::int64_t rows = 301, cols = 333;
  const std::size_t n =
      static_cast<std::size_t>(rows * (cols + 7));  // x is also read as [rows, cols] rows of pitch cols + 7
  std::mt19937_64 rng(base_seed());
  const auto hx = random_values<float>(static_cast<std::int64_t>(n), rng);
  device_array<float> x(n, 1), y(n, 1), y2(static_cast<std::size_t>(rows * cols)), s(1);
  x.upload(hx);
  owned_stream stream;
  owned_graph g;
  cudaError_t ended = cudaSuccess;
  auto issue = [&](cudaStream_t st) {
    cudaError_t err = ew::elementwise(ew::mul<float>{}, n, y.data(),
                                      ew::in(x.data(), ew::scalar(static_cast<const float*>(s.data()))), st);
    if (err == cudaSuccess) {
      err = ew::elementwise(ew::mul<float>{}, ew::extents{rows, cols}, y2.data(),
                            ew::in(ew::strided(static_cast<const float*>(x.data()), ew::extents{rows, cols},
                                               ew::strides{cols + 7, 1}),
                                   ew::scalar(static_cast<const float*>(s.data()))),
                            st);
    }
    return err;
  };
  EW_REQUIRE_CUDA(capture(g, stream.get(), cudaStreamCaptureModeGlobal, issue, ended));
  EW_REQUIRE_CUDA(ended);
  for (float v : {2.0f, -0.5f, 7.25f}) {
    INFO("scalar " << v);
    s.upload({v});
    y.poison();
    y2.poison();
    EW_REQUIRE_CUDA(g.replay(stream.get()));
    EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.get()));
    const auto hy = y.download(), hy2 = y2.download();
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) wrong += !same_bits(hy[i], hx[i] * v);
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t c = 0; c < cols; ++c)
        wrong += !same_bits(hy2[static_cast<std::size_t>(r * cols + c)],
                            hx[static_cast<std::size_t>(r * (cols + 7) + c)] * v);
    CHECK(wrong == 0);
  }
}

namespace {

/// `y[r, c] = x[r, c] + b[c]` over [R, C] on the GPU, `x` `x_off` and `b` `b_off` elements past an
/// allocation's start, `y`'s rows `C + y_pad` apart (`x` laid out as `y` where `y_pad` is 0, dense where
/// not); the elements that differ from the host's `ew::add` (random bits, u8 too), and the padding
/// elements that lost their poison. `Policy`: the launch's (`void`: none named).
template <class T, class Policy = void>
std::size_t bias_rows_case(std::int64_t R, std::int64_t C, std::size_t x_off, std::size_t b_off,
                           std::mt19937_64& rng, cudaStream_t stream, std::int64_t y_pad = 0) {
  auto fill = [&](std::size_t n) {
    std::vector<T> v(n);
    if constexpr (std::is_integral_v<T>) {
      for (auto& e : v) e = static_cast<T>(rng() & 0xffu);
    } else {
      v = random_values<T>(static_cast<std::int64_t>(n), rng);
    }
    return v;
  };
  const std::int64_t pitch = C + y_pad;
  const auto hx = fill(static_cast<std::size_t>(R * C)), hb = fill(static_cast<std::size_t>(C));
  device_array<T> x(hx.size(), x_off), b(hb.size(), b_off), y(static_cast<std::size_t>(R * pitch));
  x.upload(hx);
  b.upload(hb);
  y.poison();
  const auto bias = ew::strided(static_cast<const T*>(b.data()), ew::extents{C}, ew::strides{1});
  const auto out = ew::strided(y.data(), ew::extents{R, C}, ew::strides{pitch, 1});
  const auto in = ew::in(static_cast<const T*>(x.data()), bias);
  if constexpr (std::is_void_v<Policy>) {
    EW_REQUIRE_CUDA(ew::elementwise(ew::add<T>{}, ew::extents{R, C}, out, in, stream));
  } else {
    EW_REQUIRE_CUDA(ew::elementwise<Policy>(ew::add<T>{}, ew::extents{R, C}, out, in, stream));
  }
  EW_REQUIRE_CUDA(cudaStreamSynchronize(stream));
  const auto hy = y.download();
  std::size_t wrong = 0;
  for (std::int64_t i = 0; i < R * pitch; ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (i % pitch >= C) {
      wrong += !holds_poison(hy[k]);
    } else {
      const auto at = static_cast<std::size_t>(i / pitch * C + i % pitch);
      wrong += !same_bits(hy[k], ew::add<T>{}(hx[at], hb[static_cast<std::size_t>(i % pitch)]));
    }
  }
  REQUIRE(y.guards_intact());
  return wrong;
}

/// ew's policy without the vector-row kernel's split and wrap forms (`vector_row_split_min_cols` and
/// `vector_row_wrap_min_cols` 0): padded outputs whose rows are whole vectors still take its pitched form.
struct no_split_policy {
  template <class Op>
  static constexpr ew::policy_entry entry() {
    ew::policy_entry e = ew::default_policy::entry<Op>();
    e.nd.vector_row_split_min_cols = 0;
    e.nd.vector_row_wrap_min_cols = 0;
    return e;
  }
};

/// ew's policy with the vector-row kernel's blocks of 64 threads, two vectors each.
struct two_vectors_a_thread_policy {
  template <class Op>
  static constexpr ew::policy_entry entry() {
    ew::policy_entry e = ew::default_policy::entry<Op>();
    e.nd.vector_row_threads = 64;
    e.nd.vector_row_unroll = 2;
    return e;
  }
};

}  // namespace

TEST_CASE("rows that are not whole vectors: inputs at every alignment, vectors across rows, a short last one",
          "[nd]") {
  // Rows from ew::tuning::nd_kernel_shapes::vector_row_wrap_min_cols elements take the vector-row kernel's
  // wrap form (`b` is read along the rows: every vector of it element by element from its row and the
  // next), `x` off a vector as two whole words shifted together, and R * C is not whole vectors. (The
  // split form, `b` from two shifted words, is the padded outputs' below.)
  owned_stream stream;
  std::mt19937_64 rng(base_seed() + 21);
  for (const std::size_t x_off : {0, 1}) {
    for (const std::size_t b_off : {0, 1, 3}) {
      INFO("x_off " << x_off << " b_off " << b_off);
      CHECK(bias_rows_case<std::uint8_t>(37, 1021, x_off, b_off, rng, stream.get()) == 0);
      CHECK(bias_rows_case<__nv_bfloat16>(29, 1021, x_off, b_off, rng, stream.get()) == 0);
      CHECK(bias_rows_case<__half>(7, 263, x_off, b_off, rng, stream.get()) == 0);
      CHECK(bias_rows_case<float>(31, 3135, x_off, b_off, rng, stream.get()) == 0);
      CHECK(bias_rows_case<double>(13, 777, x_off, b_off, rng, stream.get()) == 0);
      // Shorter rows.
      CHECK(bias_rows_case<std::uint8_t>(301, 129, x_off, b_off, rng, stream.get()) == 0);
      CHECK(bias_rows_case<__nv_bfloat16>(257, 255, x_off, b_off, rng, stream.get()) == 0);
      CHECK(bias_rows_case<__half>(99, 65, x_off, b_off, rng, stream.get()) == 0);
      CHECK(bias_rows_case<float>(131, 169, x_off, b_off, rng, stream.get()) == 0);
      CHECK(bias_rows_case<double>(67, 99, x_off, b_off, rng, stream.get()) == 0);
    }
  }
}

TEST_CASE("padded outputs: pitched rows and column slices, the padding untouched", "[nd]") {
  // Outputs whose rows are `C + pad` apart: rows of whole vectors take the vector-row kernel's pitched
  // form (stored in pieces of 1, 2, 4 or 8 elements, at any padding; one load a vector where `x` and `b`
  // are on vectors, shifted or element loads where not), the others its split form over the outputs'
  // memory (padding up to ew::tuning::nd_kernel_shapes::vector_row_max_padding_percent of a row) or, with
  // more, the N-dimensional kernel: vectors wholly in the padding, vectors that end in it or cross it into
  // the next row, `x` and `b` at every alignment.
  owned_stream stream;
  std::mt19937_64 rng(base_seed() + 22);
  for (const std::int64_t pad : {1, 2, 7, 24, 500, 1200}) {
    for (const std::size_t x_off : {0, 1}) {
      for (const std::size_t b_off : {0, 3}) {
        INFO("pad " << pad << " x_off " << x_off << " b_off " << b_off);
        CHECK(bias_rows_case<std::uint8_t>(37, 1021, x_off, b_off, rng, stream.get(), pad) == 0);
        CHECK(bias_rows_case<std::uint8_t>(19, 1024, x_off, b_off, rng, stream.get(), pad) == 0);
        CHECK(bias_rows_case<__nv_bfloat16>(29, 1000, x_off, b_off, rng, stream.get(), pad) == 0);
        CHECK(bias_rows_case<__half>(7, 263, x_off, b_off, rng, stream.get(), pad) == 0);
        CHECK(bias_rows_case<float>(31, 1024, x_off, b_off, rng, stream.get(), pad) == 0);
        CHECK(bias_rows_case<double>(13, 777, x_off, b_off, rng, stream.get(), pad) == 0);
      }
    }
    // A policy without the split form: the pitched form still, never the whole-vector one.
    CHECK(bias_rows_case<float, no_split_policy>(31, 1024, 0, 0, rng, stream.get(), pad) == 0);
    CHECK(bias_rows_case<__nv_bfloat16, no_split_policy>(29, 1000, 1, 3, rng, stream.get(), pad) == 0);
  }
  // Rows shorter than a warp's vectors (several rows a warp, each starting at its own offset in a vector),
  // and blocks of two vectors a thread.
  for (const std::int64_t pad : {1, 2, 3, 6, 10}) {
    INFO("pad " << pad);
    CHECK(bias_rows_case<__nv_bfloat16>(301, 64, 0, 0, rng, stream.get(), pad) == 0);
    CHECK(bias_rows_case<__half>(257, 8, 0, 0, rng, stream.get(), pad) == 0);
    CHECK(bias_rows_case<std::uint8_t>(129, 48, 0, 0, rng, stream.get(), pad) == 0);
    CHECK(bias_rows_case<float>(517, 8, 0, 0, rng, stream.get(), pad) == 0);
    CHECK(bias_rows_case<__nv_bfloat16, two_vectors_a_thread_policy>(301, 64, 0, 0, rng, stream.get(), pad) ==
          0);
    CHECK(bias_rows_case<__nv_bfloat16, two_vectors_a_thread_policy>(29, 1000, 0, 3, rng, stream.get(),
                                                                     pad) == 0);
  }
}

TEST_CASE("the shapes users launch: bias, column broadcast, NCHW channels, pitched, slices, transposes",
          "[nd]") {
  owned_stream stream;
  std::mt19937_64 rng(base_seed() + 5);
  SECTION("bias over [tokens, hidden], bf16, hidden not a multiple of the vector, then fused with gelu") {
    for (std::int64_t hidden : {std::int64_t{1000}, std::int64_t{4096}, std::int64_t{1001}}) {
      const std::int64_t tokens = 517;
      INFO("hidden " << hidden);
      const auto hx = random_values<__nv_bfloat16>(tokens * hidden, rng);
      const auto hb = random_values<__nv_bfloat16>(hidden, rng);
      device_array<__nv_bfloat16> x(hx.size()), b(hb.size(), 3), y(hx.size());
      x.upload(hx);
      b.upload(hb);
      for (int fused = 0; fused < 2; ++fused) {
        y.poison();
        const auto bias =
            ew::strided(static_cast<const __nv_bfloat16*>(b.data()), ew::extents{hidden}, ew::strides{1});
        if (fused) {
          EW_REQUIRE_CUDA(ew::elementwise(bias_gelu{}, ew::extents{tokens, hidden}, y.data(),
                                          ew::in(x.data(), bias), stream.get()));
        } else {
          EW_REQUIRE_CUDA(ew::elementwise(ew::add<__nv_bfloat16>{}, ew::extents{tokens, hidden}, y.data(),
                                          ew::in(x.data(), bias), stream.get()));
        }
        EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.get()));
        const auto hy = y.download();
        std::size_t wrong = 0;
        for (std::int64_t t = 0; t < tokens; ++t) {
          for (std::int64_t h = 0; h < hidden; ++h) {
            const auto xi = hx[static_cast<std::size_t>(t * hidden + h)],
                       bi = hb[static_cast<std::size_t>(h)];
            const auto got = hy[static_cast<std::size_t>(t * hidden + h)];
            if (fused) {  // gelu's erf on the host may differ from the device's in the last float bit: 1 bf16
                          // ulp
              const float w = __bfloat162float(bias_gelu{}(xi, bi)), g = __bfloat162float(got);
              wrong += !(std::fabs(g - w) <= 0.0079f * std::fabs(w) + 1e-6f);
            } else {
              wrong += !same_bits(got, ew::add<__nv_bfloat16>{}(xi, bi));
            }
          }
        }
        CHECK(wrong == 0);
      }
    }
  }
  SECTION("column broadcast [R, 1] over [R, C], f32") {
    const std::int64_t R = 1031, C = 777;
    const auto hx = random_values<float>(R * C, rng);
    const auto hc = random_values<float>(R, rng);
    device_array<float> x(hx.size(), 1), col(hc.size()), y(hx.size(), 1);
    x.upload(hx);
    col.upload(hc);
    y.poison();
    EW_REQUIRE_CUDA(ew::elementwise(ew::mul<float>{}, ew::extents{R, C}, y.data(),
                                    ew::in(x.data(), ew::strided(static_cast<const float*>(col.data()),
                                                                 ew::extents{R, 1}, ew::strides{1, 0})),
                                    stream.get()));
    EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.get()));
    const auto hy = y.download();
    std::size_t wrong = 0;
    for (std::int64_t r = 0; r < R; ++r)
      for (std::int64_t c = 0; c < C; ++c)
        wrong += !same_bits(hy[static_cast<std::size_t>(r * C + c)],
                            hx[static_cast<std::size_t>(r * C + c)] * hc[static_cast<std::size_t>(r)]);
    CHECK(wrong == 0);
  }
  SECTION("per-channel normalisation of NCHW, mean and 1/std as [1, C, 1, 1] views") {
    const std::int64_t N = 3, C = 5, H = 37, W = 41;
    const auto hx = random_values<float>(N * C * H * W, rng);
    const auto hm = random_values<float>(C, rng), hs = random_values<float>(C, rng);
    device_array<float> x(hx.size()), m(hm.size()), s(hs.size()), y(hx.size(), 2);
    x.upload(hx);
    m.upload(hm);
    s.upload(hs);
    y.poison();
    const ew::extents shape{N, C, H, W};
    const auto channel = [](const float* p) {
      return ew::strided(p, ew::extents{1, 5, 1, 1}, ew::strides{0, 1, 0, 0});
    };
    EW_REQUIRE_CUDA(ew::elementwise(normalize{}, shape, y.data(),
                                    ew::in(x.data(), channel(m.data()), channel(s.data())), stream.get()));
    EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.get()));
    const auto hy = y.download();
    std::size_t wrong = 0;
    for (std::int64_t i = 0; i < N * C * H * W; ++i) {
      const std::size_t c = static_cast<std::size_t>((i / (H * W)) % C);
      wrong += !same_bits(hy[static_cast<std::size_t>(i)],
                          normalize{}(hx[static_cast<std::size_t>(i)], hm[c], hs[c]));
    }
    CHECK(wrong == 0);
  }
  SECTION("pitched input from cudaMallocPitch into a column slice of a wider matrix") {
    const std::int64_t rows = 300, cols = 513, ld = 1200, c0 = 101;
    float* pitched = nullptr;
    std::size_t pitch = 0;
    EW_REQUIRE_CUDA(cudaMallocPitch(reinterpret_cast<void**>(&pitched), &pitch, cols * sizeof(float), rows));
    const auto hx = random_values<float>(rows * static_cast<std::int64_t>(pitch / sizeof(float)), rng);
    EW_REQUIRE_CUDA(cudaMemcpy(pitched, hx.data(), hx.size() * sizeof(float), cudaMemcpyHostToDevice));
    const auto before = poisoned<float>(rows * ld);
    device_array<float> m(before.size());
    m.upload(before);
    const std::int64_t p = static_cast<std::int64_t>(pitch / sizeof(float));
    const cudaError_t err = ew::elementwise(
        ew::relu<float>{}, ew::extents{rows, cols},
        ew::strided(m.data() + c0, ew::extents{rows, cols}, ew::strides{ld, 1}),
        ew::strided(static_cast<const float*>(pitched), ew::extents{rows, cols}, ew::strides{p, 1}),
        stream.get());
    const cudaError_t synced = cudaStreamSynchronize(stream.get());
    cudaFree(pitched);
    EW_REQUIRE_CUDA(err);
    EW_REQUIRE_CUDA(synced);
    nd::layout<2> l;
    l.ext[0] = rows;
    l.ext[1] = cols;
    l.str[0] = ld;
    l.str[1] = 1;
    l.offset = c0;
    const std::int64_t e[2] = {rows, cols};
    check_output<2>(e, l, before, m.download(), [&](const std::int64_t* x, std::int64_t) {
      return ew::relu<float>{}(hx[static_cast<std::size_t>(x[0] * p + x[1])]);
    });
  }
  SECTION("a transposed read, f32 and bf16") {
    const std::int64_t R = 1025, C = 2051;  // y [R, C] = x^T, x [C, R] row-major
    const auto hx = random_values<float>(R * C, rng);
    device_array<float> x(hx.size()), y(hx.size());
    x.upload(hx);
    y.poison();
    EW_REQUIRE_CUDA(ew::elementwise(
        ew::cast<float>{}, ew::extents{R, C}, y.data(),
        ew::strided(static_cast<const float*>(x.data()), ew::extents{R, C}, ew::strides{1, R}),
        stream.get()));
    EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.get()));
    const auto hy = y.download();
    std::size_t wrong = 0;
    for (std::int64_t r = 0; r < R; ++r)
      for (std::int64_t c = 0; c < C; ++c)
        wrong += !same_bits(hy[static_cast<std::size_t>(r * C + c)], hx[static_cast<std::size_t>(c * R + r)]);
    CHECK(wrong == 0);
  }
  SECTION("tile kernel: a bf16 transpose, and NCHW to NHWC with a per-channel bias") {
    const std::int64_t R = 1000, C = 4099;  // y [R, C] = x^T, x [C, R] row-major
    const auto hx = random_values<__nv_bfloat16>(R * C, rng);
    device_array<__nv_bfloat16> x(hx.size(), 1), y(hx.size());
    x.upload(hx);
    y.poison();
    EW_REQUIRE_CUDA(ew::elementwise(
        ew::cast<__nv_bfloat16>{}, ew::extents{R, C}, y.data(),
        ew::strided(static_cast<const __nv_bfloat16*>(x.data()), ew::extents{R, C}, ew::strides{1, R}),
        stream.get()));
    EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.get()));
    const auto hy = y.download();
    std::size_t wrong = 0;
    for (std::int64_t r = 0; r < R; ++r)
      for (std::int64_t c = 0; c < C; ++c)
        wrong += !same_bits(hy[static_cast<std::size_t>(r * C + c)], hx[static_cast<std::size_t>(c * R + r)]);
    CHECK(wrong == 0);
    // y[n, h, w, c] = x[n, c, h, w] + bias[c]: the launch runs over NHWC, x read through its NCHW strides.
    const std::int64_t N = 3, Ch = 67, H = 29, W = 31;
    const auto hn = random_values<float>(N * Ch * H * W, rng);
    const auto hb = random_values<float>(Ch, rng);
    device_array<float> xn(hn.size()), bn(hb.size()), yn(hn.size(), 3);
    xn.upload(hn);
    bn.upload(hb);
    yn.poison();
    EW_REQUIRE_CUDA(ew::elementwise(
        ew::add<float>{}, ew::extents{N, H, W, Ch}, yn.data(),
        ew::in(ew::strided(static_cast<const float*>(xn.data()), ew::extents{N, H, W, Ch},
                           ew::strides{Ch * H * W, W, 1, H * W}),
               ew::strided(static_cast<const float*>(bn.data()), ew::extents{Ch}, ew::strides{1})),
        stream.get()));
    EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.get()));
    const auto hyn = yn.download();
    wrong = 0;
    for (std::int64_t n = 0; n < N; ++n)
      for (std::int64_t h = 0; h < H; ++h)
        for (std::int64_t w = 0; w < W; ++w)
          for (std::int64_t c = 0; c < Ch; ++c) {
            const float want = hn[static_cast<std::size_t>(((n * Ch + c) * H + h) * W + w)] +
                               hb[static_cast<std::size_t>(c)];
            wrong += !same_bits(hyn[static_cast<std::size_t>(((n * H + h) * W + w) * Ch + c)], want);
          }
    CHECK(wrong == 0);
  }
  SECTION("in place on a strided view, and the N-d coordinate operands") {
    const std::int64_t R = 129, C = 67, ld = 80;
    const auto hx = random_values<float>(R * ld, rng);
    device_array<float> x(hx.size());
    x.upload(hx);
    const auto view = ew::strided(x.data(), ew::extents{R, C}, ew::strides{ld, 1});
    EW_REQUIRE_CUDA(ew::elementwise(add_coords{}, ew::extents{R, C}, view,
                                    ew::in(view, ew::index(0), ew::index(1), ew::index()), stream.get()));
    EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.get()));
    const auto hy = x.download();
    std::size_t wrong = 0;
    for (std::int64_t r = 0; r < R; ++r) {
      for (std::int64_t c = 0; c < ld; ++c) {
        const std::size_t i = static_cast<std::size_t>(r * ld + c);
        const float want = c < C ? add_coords{}(hx[i], r, c, r * C + c) : hx[i];
        wrong += !same_bits(hy[i], want);
      }
    }
    CHECK(wrong == 0);
  }
}

namespace {
/// `2x` and `x + 1` of a bf16, in float, rounded to bf16.
struct two_bf16 {
  EW_HD cuda::std::tuple<__nv_bfloat16, __nv_bfloat16> operator()(__nv_bfloat16 v) const {
    const float f = ew::convert<float>(v);
    return {ew::convert<__nv_bfloat16>(f * 2.0f), ew::convert<__nv_bfloat16>(f + 1.0f)};
  }
};
/// (sin, cos) of a half, in float.
struct sincos_h {
  EW_HD cuda::std::tuple<float, float> operator()(__half v) const {
    return ew::sincos<float>{}(__half2float(v));
  }
};
}  // namespace

TEST_CASE("N-d launches: two 16-bit outputs into pitched rows", "[nd]") {
  // Both outputs' rows start off a vector (the pitched form's pieces), rows shorter and longer than a warp's
  // vectors.
  owned_stream stream;
  std::mt19937_64 rng(base_seed() + 10);
  for (const std::int64_t C : {64, 1000}) {
    for (const std::int64_t pad : {1, 2, 3, 6, 250}) {
      INFO("cols " << C << " pad " << pad);
      const std::int64_t R = 67, ld = C + pad;
      const auto hx = random_values<__nv_bfloat16>(R * C, rng);
      device_array<__nv_bfloat16> x(hx.size()), y1(static_cast<std::size_t>(R * ld)),
          y2(static_cast<std::size_t>(R * ld));
      x.upload(hx);
      y1.poison();
      y2.poison();
      const ew::extents<2> e{R, C};
      EW_REQUIRE_CUDA(ew::elementwise(two_bf16{}, e,
                                      ew::out(ew::strided(y1.data(), e, ew::strides{ld, 1}),
                                              ew::strided(y2.data(), e, ew::strides{ld, 1})),
                                      static_cast<const __nv_bfloat16*>(x.data()), stream.get()));
      EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.get()));
      const auto h1 = y1.download();
      const auto h2 = y2.download();
      std::size_t wrong = 0;
      for (std::int64_t i = 0; i < R * ld; ++i) {
        const auto k = static_cast<std::size_t>(i);
        if (i % ld >= C) {
          wrong += !holds_poison(h1[k]) + !holds_poison(h2[k]);
        } else {
          const auto want = two_bf16{}(hx[static_cast<std::size_t>(i / ld * C + i % ld)]);
          wrong += !same_bits(h1[k], cuda::std::get<0>(want)) + !same_bits(h2[k], cuda::std::get<1>(want));
        }
      }
      CHECK(wrong == 0);
      REQUIRE(y1.guards_intact());
      REQUIRE(y2.guards_intact());
    }
  }
}

TEST_CASE("N-d launches with two outputs of other types than the inputs", "[nd]") {
  owned_stream stream;
  std::mt19937_64 rng(base_seed() + 9);
  const std::int64_t R = 257, C = 129, ld = 136;
  const auto hx = random_values<__half>(R * ld, rng);
  device_array<__half> x(hx.size(), 1);
  device_array<float> s(static_cast<std::size_t>(R * C));
  device_array<__nv_bfloat16> c(static_cast<std::size_t>(R * ld));
  x.upload(hx);
  s.poison();
  c.poison();
  // sin into a row-major float array, cos into a padded bf16 view, from a padded half view.
  EW_REQUIRE_CUDA(ew::elementwise(
      sincos_h{}, ew::extents{R, C},
      ew::out(s.data(), ew::strided(c.data(), ew::extents{R, C}, ew::strides{ld, 1})),
      ew::strided(static_cast<const __half*>(x.data()), ew::extents{R, C}, ew::strides{ld, 1}),
      stream.get()));
  EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.get()));
  const auto hs = s.download();
  const auto hc = c.download();
  std::size_t wrong = 0;
  for (std::int64_t r = 0; r < R; ++r) {
    for (std::int64_t k = 0; k < C; ++k) {
      const auto want = ew::sincos<float>{}(__half2float(hx[static_cast<std::size_t>(r * ld + k)]));
      // sincos's device and host results may differ in the last bits (its tolerance is in the functor tests).
      wrong += std::fabs(hs[static_cast<std::size_t>(r * C + k)] - cuda::std::get<0>(want)) > 1e-6f;
      wrong += std::fabs(__bfloat162float(hc[static_cast<std::size_t>(r * ld + k)]) -
                         cuda::std::get<1>(want)) > 8e-3f;
    }
  }
  CHECK(wrong == 0);
}

TEST_CASE("bad N-d arguments launch nothing, directly or under capture", "[nd][graph]") {
  owned_stream stream;
  const std::int64_t R = 64, C = 100;
  device_array<float> x(static_cast<std::size_t>(R * C)), y(static_cast<std::size_t>(R * C));
  std::mt19937_64 rng(base_seed() + 3);
  const auto hx = random_values<float>(R * C, rng);
  x.upload(hx);
  const auto before = poisoned<float>(R * C);
  y.upload(before);
  const float* cx = x.data();
  struct bad_call {
    const char* why;
    std::function<cudaError_t(cudaStream_t)> call;
  };
  const std::vector<bad_call> calls{
      {"not broadcastable",
       [&](cudaStream_t s) {
         return ew::elementwise(ew::add<float>{}, ew::extents{R, C}, y.data(),
                                ew::in(cx, ew::strided(cx, ew::extents{C - 1}, ew::strides{1})), s);
       }},
      {"stride-0 dimension",
       [&](cudaStream_t s) {
         return ew::elementwise(ew::relu<float>{}, ew::extents{R, C},
                                ew::strided(y.data(), ew::extents{R, C}, ew::strides{0, 1}), cx, s);
       }},
      {"overlaps an input",
       [&](cudaStream_t s) {
         return ew::elementwise(ew::relu<float>{}, ew::extents{R, C}, y.data(),
                                static_cast<const float*>(y.data() + 1), s);
       }},
      {"negative strides",
       [&](cudaStream_t s) {
         return ew::elementwise(ew::relu<float>{}, ew::extents{R, C}, y.data(),
                                ew::strided(cx + (R - 1) * C, ew::extents{R, C}, ew::strides{-C, 1}), s);
       }},
  };
  for (const bad_call& bad : calls) {
    for (launch_mode mode : {launch_mode::direct, launch_mode::graph}) {
      INFO(bad.why << ", " << mode_name(mode));
      if (mode == launch_mode::direct) {
        REQUIRE(bad.call(stream.get()) == cudaErrorInvalidValue);
      } else {
        owned_graph g;
        cudaError_t ended = cudaSuccess;
        REQUIRE(capture(g, stream.get(), cudaStreamCaptureModeGlobal, bad.call, ended) ==
                cudaErrorInvalidValue);
        REQUIRE(ended == cudaSuccess);
        REQUIRE(g.nodes() == 0);
      }
      REQUIRE(std::string(ew::last_error_message()).find(bad.why) != std::string::npos);
      EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.get()));
      const auto got = y.download();
      REQUIRE(std::memcmp(got.data(), before.data(), before.size() * sizeof(float)) == 0);
    }
  }
  // An empty launch captures nothing.
  owned_graph g;
  cudaError_t ended = cudaSuccess;
  EW_REQUIRE_CUDA(capture(
      g, stream.get(), cudaStreamCaptureModeGlobal,
      [&](cudaStream_t s) {
        return ew::elementwise(ew::relu<float>{}, ew::extents{R, std::int64_t{0}}, y.data(), cx, s);
      },
      ended));
  EW_REQUIRE_CUDA(ended);
  REQUIRE(g.nodes() == 0);
}

namespace {
/// `a + 2 b + c`, for the broadcast test below.
struct a_2b_c {
  EW_HD float operator()(float a, float b, float c) const { return a + b * 2.0f + c; }
};
}  // namespace

TEST_CASE("ew::broadcast and ew::strided without strides read as the explicit views do", "[nd]") {
  // y = x + b[c] + k[n, c, 1, 1]-style per-channel terms over NCHW [3, 5, 7, 9]: the bias from
  // ew::broadcast(b, {9}), the per-channel values from ew::broadcast(m, {5, 1, 1}), x through
  // ew::strided(x, e); against the same launch with the strides spelled out, bit for bit.
  owned_stream stream;
  const ew::extents<4> e{3, 5, 7, 9};
  const std::size_t n = 3 * 5 * 7 * 9;
  device_array<float> x(n), b(9), m(5), y1(n), y2(n);
  x.upload(random_values<float>(n, base_seed() + 41));
  b.upload(random_values<float>(9, base_seed() + 42));
  m.upload(random_values<float>(5, base_seed() + 43));
  y1.poison();
  y2.poison();
  const float* cx = x.data();
  const float* cb = b.data();
  const float* cm = m.data();
  EW_REQUIRE_CUDA(ew::elementwise(
      a_2b_c{}, e, y1.data(),
      ew::in(ew::strided(cx, e), ew::broadcast(cb, ew::extents{9}), ew::broadcast(cm, ew::extents{5, 1, 1})),
      stream.get()));
  EW_REQUIRE_CUDA(ew::elementwise(a_2b_c{}, e, y2.data(),
                                  ew::in(ew::strided(cx, e, ew::strides{315, 63, 9, 1}),
                                         ew::strided(cb, ew::extents{1, 1, 1, 9}, ew::strides{0, 0, 0, 1}),
                                         ew::strided(cm, ew::extents{1, 5, 1, 1}, ew::strides{0, 1, 0, 0})),
                                  stream.get()));
  EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.get()));
  const auto a1 = y1.download(), a2 = y2.download();
  CHECK(std::memcmp(a1.data(), a2.data(), n * sizeof(float)) == 0);
  const auto hx = x.download(), hb = b.download(), hm = m.download();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += a1[i] != hx[i] + hb[i % 9] * 2.0f + hm[(i / 63) % 5];
  CHECK(wrong == 0);
}
