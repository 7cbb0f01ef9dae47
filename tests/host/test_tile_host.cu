// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// The kernels an N-dimensional launch with contiguous outputs takes, on the host: `fast_divmod` against
// the division operator; the gather operands' offsets against the strides; the choice of kernel on known
// shapes; and the tile kernel's two phases over every thread of simulated blocks for transposes and
// permutes of several element types, tile-sized and not, offset and aligned, with broadcast and index
// operands beside the permuted input. Each output element must equal the op on its inputs and be stored
// exactly once, and every vector access must be aligned. And the staged tile's shared-memory layout: one
// place for every element, and the banks each warp's stores and loads meet.

#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/nd_simulate.cuh"
#include "../common/test_utils.cuh"

using namespace ew_test::nd_sim;

TEST_CASE("fast_divmod: numerators below 2^31 against the division operator", "[nd][tile]") {
  std::mt19937_64 rng(ew_test::base_seed());
  std::vector<std::uint32_t> divisors = {1,       2,           3,           5,           7,          64,
                                         1000,    3136,        4096,        65535,       65536,      65537,
                                         1000003, 0x40000000u, 0x40000001u, 0x7ffffffeu, 0x7fffffffu};
  for (int k = 0; k < 300; ++k) {
    divisors.push_back(std::max<std::uint32_t>(1, static_cast<std::uint32_t>(rng() >> (33 + rng() % 31))));
  }
  std::size_t wrong = 0;
  for (std::uint32_t d : divisors) {
    const ew::detail::fast_divmod f(d);
    std::vector<std::uint32_t> ns = {0u, 1u, d - 1, d, 0x3fffffffu, 0x40000000u, 0x7ffffffeu, 0x7fffffffu};
    if (d < 0x40000000u) ns.insert(ns.end(), {d + 1, 2 * d - 1, 2 * d});
    for (std::uint32_t m = 1; m < 8 && static_cast<std::uint64_t>(d) * m < 0x80000000u; ++m) {
      ns.insert(ns.end(), {d * m - 1, d * m});  // the quotient's every step near the first multiples
    }
    for (int k = 0; k < 2000; ++k) ns.push_back(static_cast<std::uint32_t>(rng() >> 33));
    for (std::uint32_t n : ns) {
      std::uint32_t q, r;
      f.divmod(n, q, r);
      if (q != n / d || r != n % d) ++wrong;
    }
  }
  CHECK(wrong == 0);
}

TEST_CASE("gather_map: offsets and columns against the strides", "[nd][tile]") {
  std::mt19937_64 rng(ew_test::base_seed() + 1);
  std::size_t wrong = 0;
  for (int c = 0; c < 300; ++c) {
    ew::detail::nd_shape<4, 1> s{};
    s.rank = 1 + static_cast<int>(rng() % 4);
    std::int64_t n = 1;
    for (int d = 0; d < s.rank; ++d) {
      s.extent[d] = 1 + static_cast<std::int64_t>(rng() % (d == s.rank - 1 ? 300 : 40));
      s.stride[0][d] = rng() % 4 == 0 ? 0 : static_cast<std::int64_t>(rng() % 5000);
      n *= s.extent[d];
    }
    const auto m = ew::detail::make_gather_map(s, 0);
    for (int k = 0; k < 200; ++k) {
      const std::int64_t i = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n));
      std::int64_t r = i, want = 0, want_col = 0;
      for (int d = s.rank - 1; d >= 0; --d) {
        const std::int64_t x = r % s.extent[d];
        if (d == s.rank - 1) want_col = x;
        want += x * s.stride[0][d];
        r /= s.extent[d];
      }
      std::int64_t col = -1;
      if (m.offset(static_cast<std::uint64_t>(i), col) != want || col != want_col) ++wrong;
    }
  }
  CHECK(wrong == 0);
}

namespace {

template <int R>
std::string path_name(ew::detail::nd_path p) {
  switch (p) {
    case ew::detail::nd_path::contiguous:
      return "contiguous";
    case ew::detail::nd_path::gather:
      return "gather";
    case ew::detail::nd_path::tile:
      return "tile";
    default:
      return "rows";
  }
}

/// The kernel `ew::elementwise(op, e, out, in...)` would take, with `b` for the tile kernel.
template <int R, class Out, class... In>
std::string chosen(const ew::extents<R>& e, const Out& out, const In&... in) {
  using outs = cuda::std::tuple<Out>;
  using ins = cuda::std::tuple<In...>;
  ew::detail::nd_call<4, R, outs, ins> call;
  REQUIRE(call.prepare(e, outs{out}, ins{in...}) == cudaSuccess);
  std::string s = path_name<R>(call.path);
  if (call.path == ew::detail::nd_path::tile) s += " b " + std::to_string(call.tile_b);
  return s;
}

const float* cf(std::uintptr_t a) { return reinterpret_cast<const float*>(a); }
float* f(std::uintptr_t a) { return reinterpret_cast<float*>(a); }

}  // namespace

TEST_CASE("N-d launch: the kernel each layout takes", "[nd][tile]") {
  const std::uintptr_t x = std::uintptr_t{1} << 40, y = std::uintptr_t{2} << 40, b = std::uintptr_t{3} << 40;
  // Contiguous: the 1-D launch.
  CHECK(chosen(ew::extents{64, 100}, f(y), cf(x)) == "contiguous");
  // A bias, a column, per-channel statistics, a sliced input: gather operands.
  CHECK(chosen(ew::extents{64, 100}, f(y), cf(x), ew::strided(cf(b), ew::extents{100}, ew::strides{1})) ==
        "gather");
  CHECK(chosen(ew::extents{64, 100}, f(y), cf(x),
               ew::strided(cf(b), ew::extents{64, 1}, ew::strides{1, 0})) == "gather");
  CHECK(chosen(ew::extents{8, 16, 7, 7}, f(y), cf(x),
               ew::strided(cf(b), ew::extents{8, 16, 7, 7}, ew::strides{0, 1, 0, 0})) == "gather");
  CHECK(chosen(ew::extents{64, 100}, f(y), ew::strided(cf(x), ew::extents{64, 100}, ew::strides{128, 1})) ==
        "gather");
  CHECK(chosen(ew::extents{64, 100}, f(y), ew::index(1)) == "gather");
  // A transposed read, NCHW to NHWC, heads permuted: tiles.
  CHECK(chosen(ew::extents{100, 64}, f(y), ew::strided(cf(x), ew::extents{100, 64}, ew::strides{1, 100})) ==
        "tile b 0");
  CHECK(chosen(ew::extents{4, 7, 9, 16}, f(y),
               ew::strided(cf(x), ew::extents{4, 7, 9, 16}, ew::strides{1008, 9, 1, 63})) ==
        "tile b 1" /* dimensions 1 and 2 coalesce: [4, 63, 16] */);
  CHECK(chosen(ew::extents{2, 5, 3, 8}, f(y),
               ew::strided(cf(x), ew::extents{2, 5, 3, 8}, ew::strides{120, 8, 40, 1})) ==
        "gather" /* permute(0, 2, 1, 3): the innermost dimension stays, read along it */);
  // Gather maps are 32-bit: from 2^31 elements, or an input whose offsets pass 2^31, the N-dimensional
  // kernel.
  CHECK(chosen(ew::extents{(std::int64_t{1} << 15) + 1, std::int64_t{1} << 16}, f(y), cf(x),
               ew::strided(cf(b), ew::extents{std::int64_t{1} << 16}, ew::strides{1})) == "rows");
  CHECK(chosen(ew::extents{std::int64_t{1} << 15, std::int64_t{1} << 16}, f(y), cf(x),
               ew::strided(cf(b), ew::extents{std::int64_t{1} << 16}, ew::strides{1})) == "gather");
  CHECK(chosen(ew::extents{4, 100}, f(y),
               ew::strided(cf(x), ew::extents{4, 100}, ew::strides{std::int64_t{1} << 30, 1})) == "rows");
  // A pitched output whose rows are whole vectors: the vector-row kernel (its pitched form); one whose
  // rows are not, and short, or an input strided along every dimension: the N-dimensional kernel.
  CHECK(chosen(ew::extents{64, 100}, ew::strided(f(y), ew::extents{64, 100}, ew::strides{128, 1}), cf(x)) ==
        "gather");
  CHECK(chosen(ew::extents{64, 101}, ew::strided(f(y), ew::extents{64, 101}, ew::strides{128, 1}), cf(x)) ==
        "rows");
  CHECK(chosen(ew::extents{64, 100}, f(y), ew::strided(cf(x), ew::extents{64, 100}, ew::strides{400, 2})) ==
        "rows");
}

namespace {

/// out = a + c * 0.5 + (index % 13): a permuted input, a broadcast one and the index.
template <class T>
struct tile_op {
  EW_HD T operator()(T a, T c, std::int64_t i) const {
    return ew::convert<T>(ew::convert<float>(a) + ew::convert<float>(c) * 0.5f + static_cast<float>(i % 13));
  }
};

/// `y = tile_op(permute(x), c, index)` for the launch's extents `e` (row-major output at `out_off`), `x`
/// stored with its dimensions in `order` (outermost first) at `x_off`, `c` broadcast along every
/// dimension but `cdim`; the kernels' shapes `S::value` (ew's own by default).
template <class T, int R, class S = ew::tuning::default_nd_shapes_t>
std::string permute_case(const std::int64_t (&e)[R], const int (&order)[R], std::int64_t x_off,
                         std::int64_t out_off, int cdim, std::uint64_t seed, bool expect_tile = true) {
  std::int64_t n = 1;
  for (int d = 0; d < R; ++d) n *= e[d];
  std::int64_t xs[R];
  std::int64_t step = 1;
  for (int i = R - 1; i >= 0; --i) {
    xs[order[i]] = step;
    step *= e[order[i]];
  }
  buffer<T> x(n + x_off + 8), y(n + out_off + 8), c(e[cdim] + 8);
  std::mt19937_64 rng(seed);
  fill_random(x.base, n + x_off + 8, rng);
  fill_random(c.base, e[cdim] + 8, rng);
  std::memset(static_cast<void*>(y.base), ew_test::poison_byte,
              static_cast<std::size_t>(n + out_off + 8) * sizeof(T));
  ew::extents<R> ext;
  ew::strides<R> xstr, cstr;
  for (int d = 0; d < R; ++d) {
    ext.v[d] = e[d];
    xstr.v[d] = xs[d];
    cstr.v[d] = d == cdim ? 1 : 0;
  }
  access_log log;
  current_log = &log;
  ew::detail::host_access_observer = &observe;
  const std::string path = simulate<ew::tuning::default_nd_shapes.strided.vector_rows,
                                    ew::tuning::default_nd_shapes.strided.vector_cols, S>(
      tile_op<T>{}, ext, cuda::std::make_tuple(y.base + out_off),
      cuda::std::make_tuple(ew::strided(static_cast<const T*>(x.base + x_off), ext, xstr),
                            ew::strided(static_cast<const T*>(c.base), ext, cstr), ew::index()));
  ew::detail::host_access_observer = nullptr;
  current_log = nullptr;
  std::string shape;
  for (int d = 0; d < R; ++d) shape += std::to_string(e[d]) + (d + 1 < R ? "x" : "");
  INFO("shape " << shape << " x_off " << x_off << " out_off " << out_off << " cdim " << cdim << " size "
                << sizeof(T) << " path " << path);
  std::size_t wrong = 0;
  std::int64_t x_coord[R] = {};
  for (std::int64_t i = 0; i < n; ++i) {
    std::int64_t r = i, xo = 0;
    for (int d = R - 1; d >= 0; --d) {
      x_coord[d] = r % e[d];
      r /= e[d];
      xo += x_coord[d] * xs[d];
    }
    const T want = tile_op<T>{}(x.base[x_off + xo], c.base[x_coord[cdim]], i);
    if (!ew_test::same_bits(y.base[out_off + i], want)) ++wrong;
  }
  std::size_t twice = 0;
  for (const auto& [addr, cnt] : log.stores) {
    const auto lo = reinterpret_cast<std::uintptr_t>(y.base + out_off);
    if (cnt != 1 || addr < lo || addr >= lo + static_cast<std::uintptr_t>(n) * sizeof(T)) ++twice;
  }
  CHECK(wrong == 0);
  CHECK(twice == 0);
  CHECK(log.stores.size() == static_cast<std::size_t>(n) * sizeof(T));
  CHECK(log.misaligned == 0);
  if (expect_tile) {
    CHECK(path.rfind("tile", 0) == 0);
    CHECK(path.find("staged inputs") != std::string::npos);  // y runs along `a`: x is the staged one
  }
  return path;
}

}  // namespace

TEST_CASE("tile kernel body on the host: transposes and permutes, at and past tile edges", "[nd][tile]") {
  std::uint64_t seed = ew_test::base_seed();
  for (std::int64_t rows : {1, 3, 64, 65, 130}) {
    for (std::int64_t cols : {2, 63, 64, 129}) {
      for (std::int64_t off : {0, 1}) {
        const std::int64_t e[2] = {cols, rows};  // y[cols, rows] = x[rows, cols]^T
        // A single row is no transpose: the launch coalesces it to one dimension.
        permute_case<float, 2>(e, {1, 0}, off, off % 2 == 0 ? 0 : 3, 0, ++seed, rows > 1);
        permute_case<__nv_bfloat16, 2>(e, {1, 0}, off, 0, 1, ++seed, rows > 1);
      }
    }
  }
  const std::int64_t big[2] = {200, 150};
  permute_case<double, 2>(big, {1, 0}, 1, 0, 1, ++seed);
  permute_case<__nv_fp8_e4m3, 2>(big, {1, 0}, 0, 0, 0, ++seed);
  permute_case<std::int8_t, 2>(big, {1, 0}, 3, 5, 1, ++seed);
  // NCHW -> NHWC, NHWC -> NCHW, attention heads (0, 2, 1, 3) with an odd last extent, a 3-D swap.
  const std::int64_t nhwc[4] = {2, 9, 11, 70};
  permute_case<float, 4>(nhwc, {0, 3, 1, 2}, 0, 0, 3, ++seed);
  const std::int64_t nchw[4] = {2, 70, 9, 11};
  permute_case<__nv_bfloat16, 4>(nchw, {0, 2, 3, 1}, 2, 0, 1, ++seed);
  const std::int64_t d3[3] = {3, 67, 66};
  permute_case<__half, 3>(d3, {0, 2, 1}, 0, 1, 2, ++seed);
  const std::int64_t d5[5] = {2, 3, 5, 66, 7};
  permute_case<float, 5>(d5, {1, 0, 4, 2, 3}, 0, 0, 4, ++seed);
}

namespace {

/// ew's tile shapes with 96 threads a block: a staging pass of the f32 tile (64 slots) does not divide
/// the block, so each thread finds its staging slots one by one (`staged_layout::slot_period`).
struct tiles_of_96_threads {
  static constexpr ew::tuning::nd_kernel_shapes value = [] {
    ew::tuning::nd_kernel_shapes s{};
    s.tile_block_threads = 96;
    return s;
  }();
};
static_assert(ew::tuning::nd_kernel_shapes_error(tiles_of_96_threads::value) == nullptr);

bool vector_tiles(const std::string& path) { return path.find("vector_tiles") != std::string::npos; }

}  // namespace

TEST_CASE("tile kernel: the vector paths take aligned launches of whole vectors, edge tiles too",
          "[nd][tile]") {
  std::uint64_t seed = ew_test::base_seed() + 5;
  // y[cols, rows] = x[rows, cols]^T; every stride and extent whole vectors and both arrays aligned: every
  // tile takes a vector path (the edge tiles of 136 columns and of 72 rows the one with bounds tests).
  for (std::int64_t cols : {128, 136}) {
    for (std::int64_t rows : {192, 72}) {
      const std::int64_t e[2] = {cols, rows};
      CHECK(vector_tiles(permute_case<float, 2>(e, {1, 0}, 0, 0, 0, ++seed)));
      CHECK(vector_tiles(permute_case<__nv_bfloat16, 2>(e, {1, 0}, 0, 0, 1, ++seed)));
      CHECK(vector_tiles(permute_case<double, 2>(e, {1, 0}, 0, 0, 0, ++seed)));
      CHECK(vector_tiles(permute_case<float, 2, tiles_of_96_threads>(e, {1, 0}, 0, 0, 1, ++seed)));
      CHECK(vector_tiles(permute_case<__nv_bfloat16, 2, tiles_of_96_threads>(e, {1, 0}, 0, 0, 0, ++seed)));
      // 1-byte elements: output rows of 72 are not whole vectors of 16; input rows of 136 are whole
      // halves, staged with 8-byte loads.
      const std::string path = permute_case<std::int8_t, 2>(e, {1, 0}, 0, 0, 1, ++seed);
      CHECK(vector_tiles(path) == (rows == 192));
      if (rows == 192) CHECK(path.find(cols == 128 ? "split 1" : "split 2") != std::string::npos);
    }
  }
  // Input rows of 1000 bytes (torch_cells' [2^14, 1000]) and of 129 doubles: 8-byte staging loads.
  const std::int64_t bytes_1000[2] = {1000, 64};
  CHECK(permute_case<std::int8_t, 2>(bytes_1000, {1, 0}, 0, 0, 0, ++seed).find("vector_tiles split 2") !=
        std::string::npos);
  const std::int64_t doubles_129[2] = {129, 66};
  CHECK(permute_case<double, 2>(doubles_129, {1, 0}, 0, 0, 1, ++seed).find("vector_tiles split 2") !=
        std::string::npos);
  const std::int64_t e[2] = {128, 192};
  // The input or the output off a vector, or a row of the output not whole vectors: the general path.
  CHECK_FALSE(vector_tiles(permute_case<float, 2>(e, {1, 0}, 1, 0, 0, ++seed)));
  CHECK_FALSE(vector_tiles(permute_case<float, 2>(e, {1, 0}, 0, 2, 0, ++seed)));
  CHECK_FALSE(vector_tiles(permute_case<__nv_bfloat16, 2>(e, {1, 0}, 8, 4, 1, ++seed)));
  const std::int64_t odd_rows[2] = {128, 130};
  CHECK_FALSE(vector_tiles(permute_case<float, 2>(odd_rows, {1, 0}, 0, 0, 0, ++seed)));
  const std::int64_t odd_cols[2] = {126, 192};
  CHECK_FALSE(vector_tiles(permute_case<__nv_bfloat16, 2>(odd_cols, {1, 0}, 0, 0, 0, ++seed)));
  // NCHW -> NHWC with C = 64, H * W = 3136 (ResNet's); and with C = 70, H * W = 99: no vectors.
  const std::int64_t nhwc[4] = {2, 56, 56, 64};
  CHECK(vector_tiles(permute_case<float, 4>(nhwc, {0, 3, 1, 2}, 0, 0, 3, ++seed)));
  const std::int64_t nhwc_odd[4] = {2, 9, 11, 70};
  CHECK_FALSE(vector_tiles(permute_case<float, 4>(nhwc_odd, {0, 3, 1, 2}, 0, 0, 3, ++seed)));
}

namespace {

/// out = a + b * c + (index % 7): a contiguous input, a row broadcast, a per-channel broadcast and the
/// index.
template <class T>
struct row_op {
  EW_HD T operator()(T a, T b, T c, std::int64_t i) const {
    return ew::convert<T>(ew::convert<float>(a) + ew::convert<float>(b) * ew::convert<float>(c) +
                          static_cast<float>(i % 7));
  }
};

/// `y[n, c, x] = row_op(a[n, c, x], b[x], s[c], index)` over [n, c, x], the output at `out_off` (its rows
/// `x + out_pad` elements apart: the padding must keep its poison), `b` at `b_off` and `a` at `a_off`;
/// returns the path the launch took; the kernels' shapes `S::value` (ew's own by default).
template <class T, class S = ew::tuning::default_nd_shapes_t>
std::string row_case(std::int64_t n, std::int64_t c, std::int64_t x, std::int64_t out_off, std::uint64_t seed,
                     std::int64_t b_off = 0, std::int64_t a_off = 0, std::int64_t out_pad = 0) {
  const std::int64_t total = n * c * x;
  const std::int64_t pitch = x + out_pad, span = n * c * pitch;
  buffer<T> a_buf(total + a_off + 8), b_buf(x + b_off + 8), s(c + 8), y(span + out_off + 8);
  T* const a = a_buf.base + a_off;
  T* const b = b_buf.base + b_off;
  std::mt19937_64 rng(seed);
  fill_random(a, total + 8, rng);
  fill_random(b_buf.base, x + b_off + 8, rng);
  fill_random(s.base, c + 8, rng);
  std::memset(static_cast<void*>(y.base), ew_test::poison_byte,
              static_cast<std::size_t>(span + out_off + 8) * sizeof(T));
  access_log log;
  current_log = &log;
  ew::detail::host_access_observer = &observe;
  const ew::extents<3> e{n, c, x};
  const std::string path = simulate<ew::tuning::default_nd_shapes.strided.vector_rows,
                                    ew::tuning::default_nd_shapes.strided.vector_cols, S>(
      row_op<T>{}, e,
      cuda::std::make_tuple(ew::strided(y.base + out_off, e, ew::strides{c * pitch, pitch, 1})),
      cuda::std::make_tuple(
          static_cast<const T*>(a), ew::strided(static_cast<const T*>(b), e, ew::strides{0, 0, 1}),
          ew::strided(static_cast<const T*>(s.base), e, ew::strides{0, 1, 0}), ew::index()));
  ew::detail::host_access_observer = nullptr;
  current_log = nullptr;
  INFO("shape " << n << "x" << c << "x" << x << " out_off " << out_off << " out_pad " << out_pad << " size "
                << sizeof(T) << " path " << path);
  std::size_t wrong = 0;
  for (std::int64_t i = 0; i < total; ++i) {
    const T want = row_op<T>{}(a[i], b[i % x], s.base[(i / x) % c], i);
    if (!ew_test::same_bits(y.base[out_off + i / x * pitch + i % x], want)) ++wrong;
  }
  // Every byte stored once, inside a row; the padding and the bytes around the output untouched.
  std::size_t twice = 0;
  const auto lo = reinterpret_cast<std::uintptr_t>(y.base + out_off);
  for (const auto& [addr, cnt] : log.stores) {
    const std::uintptr_t el = (addr - lo) / sizeof(T);
    if (cnt != 1 || addr < lo || el >= static_cast<std::uintptr_t>(span) ||
        el % static_cast<std::uintptr_t>(pitch) >= static_cast<std::uintptr_t>(x))
      ++twice;
  }
  std::size_t touched = 0;
  const auto* bytes = reinterpret_cast<const unsigned char*>(y.base);
  for (std::int64_t k = 0; k < (span + out_off + 8) * static_cast<std::int64_t>(sizeof(T)); ++k) {
    const std::int64_t el = k / static_cast<std::int64_t>(sizeof(T)) - out_off;
    const bool inside = el >= 0 && el < span && el % pitch < x;
    if (!inside && bytes[k] != ew_test::poison_byte) ++touched;
  }
  CHECK(wrong == 0);
  CHECK(twice == 0);
  CHECK(touched == 0);
  CHECK(log.stores.size() == static_cast<std::size_t>(total) * sizeof(T));
  CHECK(log.misaligned == 0);
  return path;
}

}  // namespace

namespace {

/// ew's kernel shapes without the vector-row kernel's wrap form: rows that are not whole vectors take the
/// split form from 256 elements, whatever their inputs.
struct split_only {
  static constexpr ew::tuning::nd_kernel_shapes value = [] {
    ew::tuning::nd_kernel_shapes s{};
    s.vector_row_wrap_min_cols = 0;
    return s;
  }();
};

/// ew's kernel shapes without the vector-row kernel's split and wrap forms.
struct no_split {
  static constexpr ew::tuning::nd_kernel_shapes value = [] {
    ew::tuning::nd_kernel_shapes s{};
    s.vector_row_split_min_cols = 0;
    s.vector_row_wrap_min_cols = 0;
    return s;
  }();
};

/// ew's kernel shapes without the vector-row kernel: the row kernel and the gather path take its launches.
struct no_vector_rows {
  static constexpr ew::tuning::nd_kernel_shapes value = [] {
    ew::tuning::nd_kernel_shapes s{};
    s.vector_row_threads = 0;
    return s;
  }();
};

}  // namespace

TEST_CASE("row kernel body on the host: rows of whole vectors, chunks, and the gather path beside it",
          "[nd][tile]") {
  std::uint64_t seed = ew_test::base_seed() + 7;
  // Rows of 256 to 2052 vectors: one chunk a row, several equal chunks.
  CHECK(row_case<float, no_vector_rows>(2, 3, 1024, 0, ++seed).rfind("row", 0) == 0);
  CHECK(row_case<float, no_vector_rows>(1, 2, 4100, 0, ++seed).rfind("row", 0) == 0);
  CHECK(row_case<float, no_vector_rows>(3, 1, 8208, 0, ++seed).rfind("row", 0) == 0);
  CHECK(row_case<__nv_bfloat16, no_vector_rows>(2, 5, 3136, 0, ++seed).rfind("row", 0) == 0);
  CHECK(row_case<double, no_vector_rows>(2, 2, 520, 0, ++seed).rfind("row", 0) == 0);
  // `b` one element off a vector: the row kernel with ew's shapes too (the vector-row kernel needs every
  // input's rows to start at whole vectors).
  CHECK(row_case<float>(2, 3, 1024, 0, ++seed, 1).rfind("row", 0) == 0);
  // A misaligned output, rows too short: the gather path (a short row that is not whole vectors: the
  // vector-row kernel's wrap form).
  CHECK(row_case<float>(2, 3, 1024, 1, ++seed).rfind("gather", 0) == 0);
  CHECK(row_case<float>(2, 3, 250, 0, ++seed).rfind("vector_row wrap", 0) == 0);
  CHECK(row_case<float, no_vector_rows>(4, 3, 1020, 0, ++seed).rfind("gather", 0) == 0);
  CHECK(row_case<float>(4, 3, 1020, 0, ++seed, 1).rfind("gather", 0) == 0);
}

TEST_CASE("vector-row kernel body on the host: whole-vector rows of any length, broadcasts as elements",
          "[nd][tile]") {
  std::uint64_t seed = ew_test::base_seed() + 12;
  // `b` along the rows, `s` broadcast along them (bit 2), the index: rows of 1 to 2052 vectors, every
  // element type; ranks 3 and 2 after coalescing (one channel).
  for (const std::int64_t x : {4, 8, 28, 1020, 1024, 8208}) {
    const std::string path = row_case<float>(2, 3, x, 0, ++seed);
    INFO(path);
    CHECK(path.rfind("vector_row", 0) == 0);
    CHECK(path.find(" broadcast 4") != std::string::npos);
  }
  CHECK(row_case<float>(3, 1, 1000, 0, ++seed).rfind("vector_row", 0) == 0);
  CHECK(row_case<__nv_bfloat16>(2, 5, 3136, 0, ++seed).rfind("vector_row", 0) == 0);
  CHECK(row_case<__nv_bfloat16>(7, 3, 1000, 0, ++seed).rfind("vector_row", 0) == 0);
  CHECK(row_case<double>(2, 2, 520, 0, ++seed).rfind("vector_row", 0) == 0);
  CHECK(row_case<double>(5, 3, 2, 0, ++seed).rfind("vector_row", 0) == 0);
  // The output 16 bytes on (aligned): still the vector-row kernel.
  CHECK(row_case<float>(2, 3, 1024, 4, ++seed).rfind("vector_row", 0) == 0);
}

TEST_CASE("vector-row kernel body on the host: rows that are not whole vectors (Split)", "[nd][tile]") {
  std::uint64_t seed = ew_test::base_seed() + 14;
  // Rows from `vector_row_split_min_cols` elements that are not whole vectors: vectors that end in the next
  // row, a last vector short of a whole one (n * c * x not a multiple of the width), `b` along the rows
  // at every alignment (one element off a vector, and not: each row's vectors start where the row does),
  // `s` broadcast, the index; ranks 3 and 2 after coalescing. The wrap form off (`split_only`): with it,
  // `b` would take it.
  static_assert(ew::tuning::default_nd_shapes.vector_row_split_min_cols == 256);
  for (const std::int64_t b_off : {0, 1}) {
    for (const std::int64_t x : {257, 1021, 1026, 3135}) {
      const std::string path = row_case<float, split_only>(3, 5, x, 0, ++seed, b_off);
      INFO(path);
      CHECK(path.rfind("vector_row split", 0) == 0);
      CHECK(path.find(" broadcast 4") != std::string::npos);
    }
    CHECK(row_case<__nv_bfloat16, split_only>(3, 5, 1021, 0, ++seed, b_off).rfind("vector_row split", 0) ==
          0);
    CHECK(row_case<__nv_bfloat16, split_only>(2, 7, 3135, 0, ++seed, b_off).rfind("vector_row split", 0) ==
          0);
    CHECK(row_case<__half, split_only>(1, 3, 263, 0, ++seed, b_off).rfind("vector_row split", 0) == 0);
    CHECK(row_case<double, split_only>(3, 1, 1001, 0, ++seed, b_off).rfind("vector_row split", 0) == 0);
  }
  // `a` (laid out as the output) off a vector: its vectors from two whole ones, element by element at its
  // ends.
  CHECK(row_case<float, split_only>(3, 5, 1021, 0, ++seed, 0, 1).rfind("vector_row split", 0) == 0);
  CHECK(row_case<__nv_bfloat16, split_only>(2, 7, 3135, 0, ++seed, 3, 5).rfind("vector_row split", 0) == 0);
  CHECK(row_case<double, split_only>(2, 3, 777, 0, ++seed, 1, 1).rfind("vector_row split", 0) == 0);
  // With ew's shapes `b` (read along the rows other than by the flat index) takes the wrap form at every
  // length; shorter rows: the wrap form; an output off a vector: the gather path.
  CHECK(row_case<float>(3, 5, 1021, 0, ++seed, 1).rfind("vector_row wrap", 0) == 0);
  CHECK(row_case<__nv_bfloat16>(2, 7, 3135, 0, ++seed).rfind("vector_row wrap", 0) == 0);
  CHECK(row_case<__nv_bfloat16>(3, 5, 255, 0, ++seed).rfind("vector_row wrap", 0) == 0);
  CHECK(row_case<float>(3, 5, 1021, 1, ++seed).rfind("gather", 0) == 0);
}

TEST_CASE("vector-row kernel body on the host: short rows that are not whole vectors (Wrap)", "[nd][tile]") {
  std::uint64_t seed = ew_test::base_seed() + 16;
  // Rows from `vector_row_wrap_min_cols` to `vector_row_split_min_cols` elements that are not whole
  // vectors: every vector reads `b` (along the rows, at every alignment) element by element from its row
  // and the next, `s` (broadcast along them) as its two rows' elements, the index by element; `a` laid
  // out as the output, at every alignment; a last vector short of a whole one; ranks 3 and 2.
  static_assert(ew::tuning::default_nd_shapes.vector_row_wrap_min_cols == 64);
  for (const std::int64_t b_off : {0, 1}) {
    for (const std::int64_t x : {65, 129, 169, 255}) {
      const std::string path = row_case<float>(3, 5, x, 0, ++seed, b_off, b_off);
      INFO(path);
      CHECK(path.rfind("vector_row wrap", 0) == 0);
    }
    CHECK(row_case<__nv_bfloat16>(3, 5, 129, 0, ++seed, b_off, 3).rfind("vector_row wrap", 0) == 0);
    CHECK(row_case<__nv_bfloat16>(2, 7, 169, 0, ++seed, b_off).rfind("vector_row wrap", 0) == 0);
    CHECK(row_case<__half>(1, 3, 71, 0, ++seed, b_off, 1).rfind("vector_row wrap", 0) == 0);
    CHECK(row_case<std::uint8_t>(3, 2, 255, 0, ++seed, b_off, 5).rfind("vector_row wrap", 0) == 0);
    CHECK(row_case<double>(3, 1, 99, 0, ++seed, b_off).rfind("vector_row wrap", 0) == 0);
    CHECK(row_case<double>(1, 1, 64, 0, ++seed, 1).rfind("vector_row wrap", 0) != 0);  // whole vectors
  }
  // Shorter rows, and padded outputs with short rows: not the vector-row kernel.
  CHECK(row_case<float>(3, 5, 63, 0, ++seed).rfind("gather", 0) == 0);
  CHECK(row_case<float>(3, 5, 129, 0, ++seed, 0, 0, 3).rfind("vector_row", 0) != 0);
}

TEST_CASE("vector-row kernel body on the host: padded outputs (pitched, column-sliced) in the split form",
          "[nd][tile]") {
  std::uint64_t seed = ew_test::base_seed() + 15;
  // Output rows `x + pad` apart, rows that are not whole vectors: padding of any length (vectors wholly in
  // it do nothing, vectors that end in it or cross it into the next row), `a` and `b` at every alignment, a
  // last vector that ends in the padding; padding of half a row (`vector_row_max_padding_percent`, 50).
  // Rows of whole vectors take the pitched form (next test case).
  static_assert(ew::tuning::default_nd_shapes.vector_row_max_padding_percent == 50);
  for (const std::int64_t pad : {1, 3, 8, 24, 128}) {
    for (const std::int64_t b_off : {0, 1}) {
      for (const std::int64_t x : {257, 1001, 1021}) {
        const std::string path = row_case<float>(3, 5, x, 0, ++seed, b_off, 0, pad);
        INFO(path);
        CHECK(path.rfind("vector_row split", 0) == 0);
      }
      CHECK(row_case<__nv_bfloat16>(2, 3, 1003, 8, ++seed, b_off, 3, pad).rfind("vector_row split", 0) == 0);
      CHECK(row_case<std::uint8_t>(1, 3, 1021, 16, ++seed, b_off, 1, pad).rfind("vector_row split", 0) == 0);
      CHECK(row_case<double>(2, 1, 777, 0, ++seed, b_off, 1, pad).rfind("vector_row split", 0) == 0);
    }
  }
  CHECK(row_case<float>(2, 3, 301, 0, ++seed, 0, 0, 150).rfind("vector_row split", 0) == 0);
  // Rows that are not whole vectors with more padding than half a row, or below
  // `vector_row_split_min_cols`, an output off a vector: the N-dimensional kernel.
  CHECK(row_case<float>(2, 3, 301, 0, ++seed, 0, 0, 151).rfind("vector_row", 0) != 0);
  CHECK(row_case<float>(2, 3, 251, 0, ++seed, 0, 0, 4).rfind("vector_row", 0) != 0);
  CHECK(row_case<float>(2, 3, 1000, 1, ++seed, 0, 0, 24).rfind("vector_row", 0) != 0);
}

TEST_CASE("vector-row kernel body on the host: rows of whole vectors into padded outputs (pitched)",
          "[nd][tile]") {
  std::uint64_t seed = ew_test::base_seed() + 16;
  // Rows of whole vectors run over their elements and store each vector in pieces that the row pitch
  // allows (`vector_row_plan::piece`): every piece width from one element to a whole vector, padding of
  // any length (more than a row too), short rows (below `vector_row_split_min_cols`), several rows a block
  // and several blocks a row. With `b_off` 0 every input starts each row on a whole vector (one load a
  // vector, `inputs_take_vectors`); with 1, `b` and `a` (but f32's) start off one (a funnel or element
  // loads).
  for (const std::int64_t pad : {1, 2, 4, 6, 8, 12, 250, 1000, 2000}) {
    for (const std::int64_t b_off : {0, 1}) {
      const char* const want =
          b_off == 0 ? "vector_row pitched row_vectors" : "vector_row pitched, inputs off";
      for (const std::int64_t x : {8, 64, 1000}) {
        CHECK(row_case<float>(3, 5, x, 0, ++seed, b_off, 0, pad).rfind(want, 0) == 0);
        CHECK(row_case<__nv_bfloat16>(2, 3, x, 8, ++seed, b_off, 3 * b_off, pad).rfind(want, 0) == 0);
      }
      CHECK(row_case<std::uint8_t>(2, 3, 1024, 16, ++seed, b_off, b_off, pad).rfind(want, 0) == 0);
      CHECK(row_case<double>(2, 3, 776, 0, ++seed, b_off, b_off, pad).rfind(want, 0) == 0);
    }
  }
  // Rows of one vector, many rows: the row division by 1.
  CHECK(row_case<float>(64, 9, 4, 0, ++seed, 0, 0, 3).rfind("vector_row pitched row_vectors", 0) == 0);
  // An input laid out as the padded output (in place), aligned but its rows a whole vector apart only every
  // fourth row (pitch 67 f32): each vector tests its address ("inputs off vectors").
  {
    const std::int64_t rows = 9, cols = 64, pitch = 67;
    buffer<float> y(rows * pitch + 8);
    std::mt19937_64 rng(++seed);
    fill_random(y.base, rows * pitch + 8, rng);
    const std::vector<float> before(y.base, y.base + rows * pitch + 8);
    access_log log;
    current_log = &log;
    ew::detail::host_access_observer = &observe;
    const ew::extents<2> e{rows, cols};
    const std::string path = simulate(
        ew::relu<float>{}, e, cuda::std::make_tuple(ew::strided(y.base, e, ew::strides{pitch, 1})),
        cuda::std::make_tuple(ew::strided(static_cast<const float*>(y.base), e, ew::strides{pitch, 1})));
    ew::detail::host_access_observer = nullptr;
    current_log = nullptr;
    INFO(path);
    CHECK(path.rfind("vector_row pitched, inputs off", 0) == 0);
    std::size_t wrong = 0;
    for (std::int64_t i = 0; i < rows * pitch + 8; ++i) {
      const bool inside = i < rows * pitch && i % pitch < cols;
      const float want = inside ? ew::relu<float>{}(before[static_cast<std::size_t>(i)])
                                : before[static_cast<std::size_t>(i)];
      wrong += !ew_test::same_bits(y.base[i], want);
    }
    CHECK(wrong == 0);
    CHECK(log.misaligned == 0);
    CHECK(log.stores.size() == static_cast<std::size_t>(rows * cols) * sizeof(float));
  }
  // Kernel shapes without the split form (`vector_row_split_min_cols` 0) still take the pitched form.
  CHECK(
      row_case<float, no_split>(3, 5, 1000, 0, ++seed, 0, 0, 24).rfind("vector_row pitched row_vectors", 0) ==
      0);
}

namespace {

/// Two results of `a + b` (in float), as `T1` and as `T2` times two.
template <class T1, class T2>
struct two_results_op {
  template <class A>
  EW_HD cuda::std::tuple<T1, T2> operator()(A a, A b) const {
    const float s = ew::convert<float>(a) + ew::convert<float>(b);
    return {ew::convert<T1>(s), ew::convert<T2>(s * 2.0f)};
  }
};

/// ew's kernel shapes with the vector-row kernel's blocks `Threads` threads of `Unroll` vectors.
template <int Threads, int Unroll>
struct vector_row_blocks {
  static constexpr ew::tuning::nd_kernel_shapes value = [] {
    ew::tuning::nd_kernel_shapes s{};
    s.vector_row_threads = Threads;
    s.vector_row_unroll = Unroll;
    return s;
  }();
};

/// `y1, y2 = two_results_op(a, b)` over `[rows, cols]` (`a` dense, `b` a bias), both outputs' rows `pitch`
/// elements apart, with the kernels' shapes `S::value`: checks every element of both, that each output
/// byte is stored once and the padding never, and returns the path.
template <class A, class T1, class T2, class S = ew::tuning::default_nd_shapes_t>
std::string two_pitched_outputs(std::int64_t rows, std::int64_t cols, std::int64_t pitch,
                                std::uint64_t seed) {
  const std::int64_t total = rows * cols, span = rows * pitch;
  buffer<A> a(total + 8), b(cols + 8);
  buffer<T1> y1(span + 8);
  buffer<T2> y2(span + 8);
  std::mt19937_64 rng(seed);
  fill_random(a.base, total + 8, rng);
  fill_random(b.base, cols + 8, rng);
  std::memset(static_cast<void*>(y1.base), ew_test::poison_byte,
              static_cast<std::size_t>(span + 8) * sizeof(T1));
  std::memset(static_cast<void*>(y2.base), ew_test::poison_byte,
              static_cast<std::size_t>(span + 8) * sizeof(T2));
  access_log log;
  current_log = &log;
  ew::detail::host_access_observer = &observe;
  const ew::extents<2> e{rows, cols};
  const std::string path = simulate<ew::tuning::default_nd_shapes.strided.vector_rows,
                                    ew::tuning::default_nd_shapes.strided.vector_cols, S>(
      two_results_op<T1, T2>{}, e,
      cuda::std::make_tuple(ew::strided(y1.base, e, ew::strides{pitch, 1}),
                            ew::strided(y2.base, e, ew::strides{pitch, 1})),
      cuda::std::make_tuple(static_cast<const A*>(a.base),
                            ew::strided(static_cast<const A*>(b.base), e, ew::strides{0, 1})));
  ew::detail::host_access_observer = nullptr;
  current_log = nullptr;
  INFO(rows << "x" << cols << " pitch " << pitch << " path " << path);
  std::size_t wrong = 0, padding = 0;
  for (std::int64_t i = 0; i < span + 8; ++i) {
    const std::int64_t row = i / pitch, col = i % pitch;
    const bool inside = i < span && col < cols;
    if (inside) {
      const auto want = two_results_op<T1, T2>{}(a.base[row * cols + col], b.base[col]);
      wrong += !ew_test::same_bits(y1.base[i], cuda::std::get<0>(want));
      wrong += !ew_test::same_bits(y2.base[i], cuda::std::get<1>(want));
    } else {
      const auto* b1 = reinterpret_cast<const unsigned char*>(y1.base + i);
      const auto* b2 = reinterpret_cast<const unsigned char*>(y2.base + i);
      for (std::size_t k = 0; k < sizeof(T1); ++k) padding += b1[k] != ew_test::poison_byte;
      for (std::size_t k = 0; k < sizeof(T2); ++k) padding += b2[k] != ew_test::poison_byte;
    }
  }
  std::size_t twice = 0;
  for (const auto& [addr, cnt] : log.stores) twice += cnt != 1;
  CHECK(wrong == 0);
  CHECK(padding == 0);
  CHECK(twice == 0);
  CHECK(log.stores.size() == static_cast<std::size_t>(total) * (sizeof(T1) + sizeof(T2)));
  CHECK(log.misaligned == 0);
  return path;
}

}  // namespace

TEST_CASE("vector-row kernel body on the host: two outputs into pitched rows, other block shapes",
          "[nd][tile]") {
  // Rows of whole vectors into padded outputs whose rows do not start on a vector (the pitched form's
  // pieces): rows shorter than a warp's vectors and longer than a block's, rows that start at every offset
  // in a vector; two outputs whose vectors are 16 bytes, or one of 16 and one of 32 bytes; blocks of two
  // vectors a thread, blocks of three warps.
  std::uint64_t seed = ew_test::base_seed() + 19;
  for (const auto& [rows, cols, pitch] : {std::array<std::int64_t, 3>{37, 64, 66},
                                          {5, 1000, 1250},
                                          {40, 8, 10},
                                          {3, 1024, 1027},
                                          {70, 16, 18},
                                          {9, 256, 262}}) {
    CHECK(two_pitched_outputs<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16>(rows, cols, pitch, ++seed)
              .rfind("vector_row pitched", 0) == 0);
    CHECK(two_pitched_outputs<std::uint16_t, std::uint16_t, std::uint16_t>(rows, cols, pitch, ++seed)
              .rfind("vector_row pitched", 0) == 0);
    CHECK(
        two_pitched_outputs<float, float, float>(rows, cols, pitch, ++seed).rfind("vector_row pitched", 0) ==
        0);
    CHECK(two_pitched_outputs<__nv_bfloat16, __nv_bfloat16, float>(rows, cols, pitch, ++seed)
              .rfind("vector_row pitched", 0) == 0);
    CHECK(two_pitched_outputs<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, vector_row_blocks<64, 2>>(
              rows, cols, pitch, ++seed)
              .rfind("vector_row pitched", 0) == 0);
    CHECK(two_pitched_outputs<float, float, float, vector_row_blocks<96, 1>>(rows, cols, pitch, ++seed)
              .rfind("vector_row pitched", 0) == 0);
  }
  CHECK(two_pitched_outputs<std::uint8_t, std::uint8_t, std::uint8_t>(33, 64, 65, ++seed)
            .rfind("vector_row pitched", 0) == 0);
}

namespace {

/// out = a + b + c + d, in float.
struct sum4_op {
  EW_HD float operator()(float a, float b, float c, float d) const { return a + b + c + d; }
};

}  // namespace

TEST_CASE("vector-row kernel body on the host: four arrays (the body that tests each stride)", "[nd][tile]") {
  // y[n, c, x] = a[n, c, x] + b[x] + m[c] + r[n, c]: four arrays, more than `max_specialized_arrays`, so
  // that each vector tests whether an array is broadcast; f32 rows of 1 to 250 vectors.
  std::uint64_t seed = ew_test::base_seed() + 13;
  for (const std::int64_t x : {4, 12, 1000}) {
    const std::int64_t n = 3, c = 5, total = n * c * x;
    buffer<float> a(total + 8), b(x + 8), m(c + 8), r(n * c + 8), y(total + 8);
    std::mt19937_64 rng(++seed);
    fill_random(a.base, total + 8, rng);
    fill_random(b.base, x + 8, rng);
    fill_random(m.base, c + 8, rng);
    fill_random(r.base, n * c + 8, rng);
    std::memset(static_cast<void*>(y.base), ew_test::poison_byte,
                static_cast<std::size_t>(total + 8) * sizeof(float));
    access_log log;
    current_log = &log;
    ew::detail::host_access_observer = &observe;
    const ew::extents<3> e{n, c, x};
    const auto cf = [](const float* p) { return p; };
    const std::string path =
        simulate(sum4_op{}, e, cuda::std::make_tuple(y.base),
                 cuda::std::make_tuple(cf(a.base), ew::strided(cf(b.base), e, ew::strides{0, 0, 1}),
                                       ew::strided(cf(m.base), e, ew::strides{0, 1, 0}),
                                       ew::strided(cf(r.base), e, ew::strides{c, 1, 0})));
    ew::detail::host_access_observer = nullptr;
    current_log = nullptr;
    INFO("x " << x << " path " << path);
    CHECK(path.rfind("vector_row", 0) == 0);
    CHECK(path.find(" broadcast 12") != std::string::npos);
    std::size_t wrong = 0;
    for (std::int64_t i = 0; i < total; ++i) {
      const std::int64_t col = i % x, ch = (i / x) % c, row = i / x;
      const float want = a.base[i] + b.base[col] + m.base[ch] + r.base[row];
      if (!ew_test::same_bits(y.base[i], want)) ++wrong;
    }
    CHECK(wrong == 0);
    CHECK(log.stores.size() == static_cast<std::size_t>(total) * sizeof(float));
    CHECK(log.misaligned == 0);
  }
}

namespace {

/// Kernel shapes far from ew's: small tiles of few threads, two loads in flight, in groups of 3; short row
/// chunks of odd blocks with three vectors in flight; rows from 8 vectors; three vectors a thread on the
/// gather path; vector rows in blocks of 96 threads, three vectors each, one kernel choosing the body for
/// the set of broadcast arrays (ew's own: a kernel for each set), rows that are not whole vectors from 40
/// elements (the split form) and from 8 (the wrap form).
struct odd_shapes {
  static constexpr ew::tuning::nd_kernel_shapes value = [] {
    ew::tuning::nd_kernel_shapes s{};
    s.gather_unroll = 3;
    s.row_block_threads = 96;
    s.row_unroll = 3;
    s.row_chunk_vectors = 200;
    s.row_min_vectors = 8;
    s.vector_row_threads = 96;
    s.vector_row_unroll = 3;
    s.vector_row_kernel_per_set = false;
    s.vector_row_split_min_cols = 40;
    s.vector_row_wrap_min_cols = 8;
    s.tile_side = 32;
    s.tile_block_threads = 96;
    s.tile_loads_in_flight = 2;
    s.tile_group = 3;
    return s;
  }();
};
static_assert(ew::tuning::nd_kernel_shapes_error(odd_shapes::value) == nullptr);

}  // namespace

TEST_CASE("the tile, vector-row, row and gather kernels under a policy's shapes (policy_entry::nd)",
          "[nd][tile][policy]") {
  std::uint64_t seed = ew_test::base_seed() + 11;
  for (std::int64_t rows : {3, 32, 33, 100}) {
    for (std::int64_t cols : {2, 31, 64, 97}) {
      const std::int64_t e[2] = {cols, rows};
      permute_case<float, 2, odd_shapes>(e, {1, 0}, 1, 0, 0, ++seed);
      permute_case<__nv_bfloat16, 2, odd_shapes>(e, {1, 0}, 0, 0, 1, ++seed);
    }
  }
  const std::int64_t nchw[4] = {2, 7, 9, 35};
  permute_case<std::int8_t, 4, odd_shapes>(nchw, {0, 2, 3, 1}, 0, 0, 1, ++seed);
  // Vector rows of 8 and 401 vectors; with `b` off a vector, rows of 1025 to 392 vectors in chunks of up to
  // 200 (the row kernel: rows of one chunk, and of several, uneven ones).
  CHECK(row_case<float, odd_shapes>(2, 3, 32, 0, ++seed).rfind("vector_row", 0) == 0);
  CHECK(row_case<double, odd_shapes>(3, 2, 802, 0, ++seed).rfind("vector_row", 0) == 0);
  CHECK(row_case<float, odd_shapes>(2, 3, 32, 0, ++seed, 1).rfind("row", 0) == 0);
  CHECK(row_case<float, odd_shapes>(1, 2, 4100, 0, ++seed, 1).rfind("row", 0) == 0);
  CHECK(row_case<__nv_bfloat16, odd_shapes>(2, 5, 3136, 0, ++seed, 3).rfind("row", 0) == 0);
  // Rows shorter than 8 vectors with `b` off a vector, an output off a vector, rows of fewer than 8 elements
  // that are not whole vectors: the gather path, 3 vectors a thread; rows of 8 to 39: the wrap form.
  CHECK(row_case<float, odd_shapes>(4, 3, 28, 0, ++seed, 1).rfind("gather", 0) == 0);
  CHECK(row_case<float, odd_shapes>(2, 3, 1026, 2, ++seed).rfind("gather", 0) == 0);
  CHECK(row_case<float, odd_shapes>(2, 3, 39, 0, ++seed).rfind("vector_row wrap", 0) == 0);
  CHECK(row_case<__nv_bfloat16, odd_shapes>(3, 2, 9, 0, ++seed, 1, 1).rfind("vector_row wrap", 0) == 0);
  CHECK(row_case<float, odd_shapes>(2, 3, 7, 0, ++seed).rfind("gather", 0) == 0);
  // Rows of 40 elements and more that are not whole vectors, `b` gathered along them: the `wrap` kernel, 3
  // vectors a thread, one kernel choosing the set (many vectors end in the next row; the last ones short).
  CHECK(row_case<float, odd_shapes>(3, 5, 41, 0, ++seed).rfind("vector_row wrap", 0) == 0);
  CHECK(row_case<__nv_bfloat16, odd_shapes>(2, 3, 45, 0, ++seed, 1).rfind("vector_row wrap", 0) == 0);
  CHECK(row_case<double, odd_shapes>(1, 7, 43, 0, ++seed, 1).rfind("vector_row wrap", 0) == 0);
  // Padded outputs from rows of 40 elements, 3 vectors a thread.
  CHECK(row_case<float, odd_shapes>(3, 5, 41, 0, ++seed, 1, 0, 3).rfind("vector_row split", 0) == 0);
  CHECK(row_case<__nv_bfloat16, odd_shapes>(2, 3, 48, 0, ++seed, 0, 1, 8).rfind("vector_row pitched", 0) ==
        0);
}

namespace {

/// Checks `staged_layout<T, Side>`: every element of the tile has its own place inside `bytes`; a warp's
/// staging stores (32 slots, one word of each at a time, `stage_slot`) and its compute loads of `Vec`
/// elements (consecutive output vectors of a row, as `tile_thread::compute` takes them) meet each bank at
/// most once per shared-memory wavefront (128 bytes). Returns the wavefronts over the ideal, summed.
template <class T, int Side, int Vec>
int layout_case() {
  using L = ew::detail::staged_layout<T, Side>;
  std::set<int> places;
  for (int b = 0; b < Side; ++b) {
    for (int a = 0; a < Side; ++a) {
      const int at = static_cast<int>(L::byte_offset(b, a));
      CHECK(at >= 0);
      CHECK(at + static_cast<int>(sizeof(T)) <= static_cast<int>(L::bytes));
      places.insert(at);
    }
  }
  CHECK(places.size() == static_cast<std::size_t>(Side) * Side);
  // The wavefronts a warp's access of `bytes` each from `at[lane]` takes: the most distinct 4-byte words
  // it meets in one bank (words at one address are one broadcast), times the access's 128-byte groups.
  const auto excess = [](const std::vector<int>& at, int bytes) {
    std::map<int, std::set<int>> bank_words;
    for (int x : at) {
      for (int k = 0; k < bytes; k += 4) bank_words[(x + k) / 4 % 32].insert((x + k) / 4);
    }
    std::size_t most = 0;
    for (const auto& [bank, words] : bank_words) most = std::max(most, words.size());
    const int ideal = static_cast<int>((at.size() * bytes + 127) / 128);
    return static_cast<int>(most) - ideal;
  };
  int over = 0;
  for (int warp = 0; warp * 32 < L::slots; ++warp) {  // staging: word j of each slot's `pack` rows
    for (int j = 0; j < L::stage_vec; ++j) {
      std::vector<int> at;
      for (int lane = 0; lane < 32 && warp * 32 + lane < L::slots; ++lane) {
        unsigned w = 0, c = 0;
        L::stage_slot(warp * 32 + lane, w, c);
        at.push_back(static_cast<int>(L::word_index(c * L::stage_vec + j, w) * L::word_bytes));
      }
      over += excess(at, L::word_bytes);
    }
  }
  constexpr int per_row = Side / Vec;
  for (int warp = 0; warp * 32 < Side * per_row; ++warp) {  // compute: one vector of Vec elements a lane
    std::vector<int> at;
    for (int lane = 0; lane < 32; ++lane) {
      const int s = warp * 32 + lane;
      at.push_back(static_cast<int>(L::byte_offset(s / per_row, s % per_row * Vec)));
    }
    over += excess(at, static_cast<int>(sizeof(T)) * Vec);
  }
  // Every staging slot is one (word column, vector along b) pair.
  std::set<std::pair<int, int>> slots;
  for (int s = 0; s < L::slots; ++s) {
    unsigned w = 0, c = 0;
    L::stage_slot(s, w, c);
    CHECK(w < static_cast<unsigned>(L::row_words));
    CHECK(c < static_cast<unsigned>(L::b_vectors));
    slots.insert({static_cast<int>(w), static_cast<int>(c)});
  }
  CHECK(slots.size() == static_cast<std::size_t>(L::slots));
  // A block of a multiple of `slot_period` threads: slot `t + k * threads` is slot `t`'s vector, `slot_el`
  // words a period further (`tile_thread::stage_one` takes them so).
  for (unsigned threads : {32u, 64u, 96u, 128u, 256u}) {
    if (threads % L::slot_period != 0) continue;
    for (unsigned t = 0; t < threads; ++t) {
      unsigned w0 = 0, c0 = 0;
      L::stage_slot(t, w0, c0);
      for (unsigned k = 0; t + k * threads < static_cast<unsigned>(L::slots); ++k) {
        unsigned w = 0, c = 0;
        L::stage_slot(t + k * threads, w, c);
        CHECK(w == w0 + k * (threads / L::slot_period * L::slot_el));
        CHECK(c == c0);
      }
    }
  }
  return over;
}

}  // namespace

TEST_CASE("tile kernel: the staged tile's shared-memory layout and its banks", "[nd][tile]") {
  // ew's tiles (64 a side, 128 for 1-byte types, 32 for 8-byte ones) meet no bank twice in a wavefront,
  // either way.
  CHECK(layout_case<float, 64, 4>() == 0);
  CHECK(layout_case<double, 32, 2>() == 0);
  CHECK(layout_case<__nv_bfloat16, 64, 8>() == 0);
  CHECK(layout_case<__half, 64, 8>() == 0);
  CHECK(layout_case<std::uint8_t, 128, 16>() == 0);
  CHECK(layout_case<double, 64, 2>() == 0);
  CHECK(layout_case<float, 128, 4>() == 0);
  CHECK(layout_case<__nv_bfloat16, 128, 8>() == 0);
  // Narrower outputs than the staged input's vectors (a bf16 input, f32 output: 4 elements a load).
  CHECK(layout_case<__nv_bfloat16, 64, 4>() == 0);
  CHECK(layout_case<std::uint8_t, 128, 4>() == 0);
  // Small tiles still give every element a place (their banks are not the point).
  layout_case<float, 16, 4>();
  layout_case<__nv_bfloat16, 16, 8>();
  layout_case<std::uint8_t, 16, 16>();
  layout_case<std::uint8_t, 32, 2>();
  layout_case<double, 16, 1>();
}
