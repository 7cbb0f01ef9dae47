// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// The N-dimensional launch on the host: coalescing and planning (nd_layout.cuh) on known shapes; then, over
// hundreds of random shapes, operand layouts (padded, permuted, broadcast, offset, inner strides of 2 and
// 3) and operand kinds, the dispatcher's own checks and plan (`nd_call`) and every thread of the grid it
// would launch through the kernel's body (`nd_grid_thread`, or the 1-D body where the call coalesces to
// one contiguous dimension), on host memory. Each output element must equal the op on its inputs and be
// stored exactly once, no other byte may change, and every vector access must be aligned to its size.
// Last, the bad arguments of an N-dimensional call, through `ew::elementwise` itself: each returns
// cudaErrorInvalidValue with its message before anything touches a device.

#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/nd_cases.cuh"
#include "../common/nd_simulate.cuh"
#include "../common/test_utils.cuh"

namespace {

using ew::detail::coalesce;
using ew::detail::make_nd_plan;
using ew::detail::nd_shape;

}  // namespace

TEST_CASE("coalesce: contiguous, broadcast, permuted and size-1 dimensions", "[nd]") {
  SECTION("a contiguous [4, 5, 6] with a row-major input is one dimension") {
    nd_shape<3, 2> s{3, {4, 5, 6}, {{30, 6, 1}, {30, 6, 1}}};
    const auto c = coalesce(s);
    REQUIRE(c.rank == 1);
    CHECK(c.extent[0] == 120);
    CHECK(c.stride[0][0] == 1);
    CHECK(c.stride[1][0] == 1);
  }
  SECTION("a row bias [1, C] over [R, C] stays two dimensions") {
    nd_shape<2, 3> s{2, {7, 9}, {{9, 1}, {9, 1}, {0, 1}}};
    const auto c = coalesce(s);
    REQUIRE(c.rank == 2);
    CHECK(c.extent[0] == 7);
    CHECK(c.extent[1] == 9);
    CHECK(c.stride[2][0] == 0);
    CHECK(c.stride[2][1] == 1);
  }
  SECTION("a per-channel [1, C, 1, 1] over NCHW merges H and W only") {
    nd_shape<4, 2> s{4, {2, 3, 4, 5}, {{60, 20, 5, 1}, {0, 1, 0, 0}}};
    const auto c = coalesce(s);
    REQUIRE(c.rank == 3);
    CHECK(c.extent[0] == 2);
    CHECK(c.extent[1] == 3);
    CHECK(c.extent[2] == 20);
    CHECK(c.stride[1][1] == 1);
    CHECK(c.stride[1][2] == 0);
  }
  SECTION("dimensions of extent 1 go, the rest merge across them") {
    nd_shape<4, 1> s{4, {3, 1, 1, 8}, {{8, 8, 8, 1}}};
    const auto c = coalesce(s);
    REQUIRE(c.rank == 1);
    CHECK(c.extent[0] == 24);
  }
  SECTION("a column-major output is reordered so that its stride-1 dimension is innermost") {
    nd_shape<2, 2> s{2, {5, 6}, {{1, 5}, {6, 1}}};  // y column-major, x row-major: a transpose
    const auto c = coalesce(s);
    REQUIRE(c.rank == 2);
    CHECK(c.extent[0] == 6);
    CHECK(c.extent[1] == 5);
    CHECK(c.stride[0][1] == 1);
    CHECK(c.stride[1][1] == 6);
  }
  SECTION("pitched rows do not merge") {
    nd_shape<2, 2> s{2, {4, 10}, {{10, 1}, {16, 1}}};
    CHECK(coalesce(s).rank == 2);
  }
  SECTION("a single element is rank 1 of extent 1") {
    nd_shape<3, 1> s{3, {1, 1, 1}, {{1, 1, 1}}};
    const auto c = coalesce(s);
    CHECK(c.rank == 1);
    CHECK(c.extent[0] == 1);
  }
}

TEST_CASE("nd_plan: slots per row follow the first output's alignment", "[nd]") {
  // [3, 10] f32 rows of pitch 12: every row starts at the same offset within its vectors.
  nd_shape<2, 1> s{2, {3, 10}, {{12, 1}}};
  auto p = make_nd_plan(s, 4, 2, 1, 1);  // the output starts 1 element past a vector boundary
  CHECK(p.head == 1);
  CHECK(p.rows == 3);
  CHECK(p.cols == 10);
  CHECK(p.slots == 3);      // columns [-1, 3), [3, 7), [7, 11)
  CHECK(p.items == 2 * 3);  // two groups of two rows
  // Pitch 10: rows start at different offsets; every row gets the slots of the worst case.
  nd_shape<2, 1> t{2, {3, 10}, {{10, 1}}};
  p = make_nd_plan(t, 4, 2, 1, 0);
  CHECK(p.head == -1);
  CHECK(p.slots == 4);
  p = make_nd_plan(t, 1, 4, 1, 0);
  CHECK(p.slots == 10);
  CHECK(p.items == 10);
  // Two slots per item, half the row's slots apart: 3 slots -> stride 2, items per row group 2.
  p = make_nd_plan(s, 4, 1, 2, 1);
  CHECK(p.slot_stride == 2);
  CHECK(p.items == 3 * 2);
}

namespace {

using namespace ew_test::nd_sim;

/// out = a * 2 - b + (index % 97) * s: an array, a half-precision array, the index and a scalar.
struct mix_op {
  EW_HD float operator()(float a, __half b, std::int64_t i, float s) const {
    return a * 2.0f - __half2float(b) + static_cast<float>(i % 97) * s;
  }
};
/// Two outputs from a half array and a constant.
struct pair_op {
  EW_HD cuda::std::tuple<float, float> operator()(__half a, float c) const {
    return {__half2float(a) + c, __half2float(a) * c};
  }
};

/// How many simulated calls took each path (1-D, N-d vectorized, N-d element-wise), over all random cases.
std::map<std::string, int> paths_taken;
void count_path(const std::string& path) {
  if (path.rfind("1-D", 0) == 0)
    ++paths_taken["1-D"];
  else if (path.rfind("gather", 0) == 0)
    ++paths_taken["gather"];
  else if (path.rfind("tile", 0) == 0)
    ++paths_taken["tile"];
  else if (path.find("vec 1 ") != std::string::npos)
    ++paths_taken["N-d element-wise"];
  else if (path.find("N-d") == 0)
    ++paths_taken[path.find("head -1") != std::string::npos ? "N-d vectorized, per-row head"
                                                            : "N-d vectorized"];
}

template <int R, int VecRows = ew::tuning::default_nd_shapes.strided.vector_rows,
          int VecCols = ew::tuning::default_nd_shapes.strided.vector_cols>
void random_cases(int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (int n = 0; n < count; ++n) {
    std::int64_t e[R];
    ew_test::nd::random_extents<R>(rng, e);
    const auto ext = ew_test::nd::to_extents<R>(e);
    const int pick = static_cast<int>(rng() % 2);
    access_log log;
    current_log = &log;
    ew::detail::host_access_observer = &observe;
    if (pick == 0) {
      const auto lo = ew_test::nd::random_layout<R>(rng, e, false, true);
      const auto la = ew_test::nd::random_layout<R>(rng, e, true, true);
      const auto lb = ew_test::nd::random_layout<R>(rng, e, true, true);
      const int dim = static_cast<int>(rng() % (R + 1)) - 1;
      buffer<float> o(lo.buffer), a(la.buffer), s(1);
      buffer<__half> b(lb.buffer);
      fill_random(a.base, la.buffer, rng);
      fill_random(b.base, lb.buffer, rng);
      s.base[0] = 0.75f;
      std::memset(static_cast<void*>(o.base), ew_test::poison_byte,
                  static_cast<std::size_t>(lo.buffer) * sizeof(float));
      std::string path;
      auto run = [&](auto out_arg, auto a_arg, auto b_arg) {
        path = simulate<VecRows, VecCols>(
            mix_op{}, ext, cuda::std::make_tuple(out_arg),
            cuda::std::make_tuple(a_arg, b_arg, ew::index(dim), ew::scalar<float>(s.base)));
      };
      const float* ap = a.base + la.offset;
      const __half* bp = b.base + lb.offset;
      // Three operand forms, not all eight: pointers only, views only (a plain layout is also a view, of
      // row-major strides), and a pointer output and b with a view a. Each form of each operand meets the
      // other's in some instantiation; the operands are described one by one, so the other mixes add
      // instantiations (compile time) and no path.
      const auto av = la.view(static_cast<const float*>(a.base));
      const auto bv = lb.view(static_cast<const __half*>(b.base));
      const int form = static_cast<int>(rng() % 3);
      if (lo.plain && la.plain && lb.plain && form == 0)
        run(o.base + lo.offset, ap, bp);
      else if (lo.plain && lb.plain && form != 2)
        run(o.base + lo.offset, av, bp);
      else
        run(lo.view(o.base), av, bv);
      count_path(path);
      INFO("case " << n << " rank " << R << " path " << path << "\n out " << lo.describe() << "\n a "
                   << la.describe() << "\n b " << lb.describe() << "\n index dim " << dim
                   << "\n operand form " << form << " (0 pointers, 1 a view, 2 views)");
      std::size_t wrong = 0, twice = 0;
      std::map<std::uintptr_t, int> expected;
      ew_test::nd::for_each_coordinate<R>(e, [&](const std::int64_t* x, std::int64_t linear) {
        const std::int64_t idx = dim < 0 ? linear : x[dim];
        const float want = mix_op{}(a.base[la.at(x)], b.base[lb.at(x)], idx, 0.75f);
        float* p = o.base + lo.at(x);
        if (!ew_test::same_bits(*p, want)) ++wrong;
        for (std::size_t k = 0; k < sizeof(float); ++k) expected[reinterpret_cast<std::uintptr_t>(p) + k] = 1;
      });
      for (const auto& [addr, c] : log.stores) {
        if (c != 1 || expected.count(addr) == 0) ++twice;
      }
      CHECK(wrong == 0);
      CHECK(twice == 0);
      CHECK(log.stores.size() == expected.size());
      CHECK(log.misaligned == 0);
    } else {
      const auto l0 = ew_test::nd::random_layout<R>(rng, e, false, false);
      const auto l1 = ew_test::nd::random_layout<R>(rng, e, false, true);
      const auto la = ew_test::nd::random_layout<R>(rng, e, true, false);
      buffer<__half> o0(l0.buffer), a(la.buffer);
      buffer<float> o1(l1.buffer);
      fill_random(a.base, la.buffer, rng);
      std::memset(static_cast<void*>(o0.base), ew_test::poison_byte,
                  static_cast<std::size_t>(l0.buffer) * sizeof(__half));
      std::memset(static_cast<void*>(o1.base), ew_test::poison_byte,
                  static_cast<std::size_t>(l1.buffer) * sizeof(float));
      const std::string path = simulate<VecRows, VecCols>(
          pair_op{}, ext, cuda::std::make_tuple(l0.view(o0.base), l1.view(o1.base)),
          cuda::std::make_tuple(la.view(static_cast<const __half*>(a.base)), ew::constant(1.5f)));
      count_path(path);
      INFO("case " << n << " rank " << R << " path " << path << "\n out0 " << l0.describe() << "\n out1 "
                   << l1.describe() << "\n a " << la.describe());
      std::size_t wrong = 0, twice = 0;
      std::map<std::uintptr_t, int> expected;
      ew_test::nd::for_each_coordinate<R>(e, [&](const std::int64_t* x, std::int64_t) {
        const auto want = pair_op{}(a.base[la.at(x)], 1.5f);
        __half* p0 = o0.base + l0.at(x);
        float* p1 = o1.base + l1.at(x);
        if (!ew_test::same_bits(*p0, ew::convert<__half>(cuda::std::get<0>(want)))) ++wrong;
        if (!ew_test::same_bits(*p1, cuda::std::get<1>(want))) ++wrong;
        for (std::size_t k = 0; k < sizeof(__half); ++k)
          expected[reinterpret_cast<std::uintptr_t>(p0) + k] = 1;
        for (std::size_t k = 0; k < sizeof(float); ++k)
          expected[reinterpret_cast<std::uintptr_t>(p1) + k] = 1;
      });
      for (const auto& [addr, c] : log.stores) {
        if (c != 1 || expected.count(addr) == 0) ++twice;
      }
      CHECK(wrong == 0);
      CHECK(twice == 0);
      CHECK(log.stores.size() == expected.size());
      CHECK(log.misaligned == 0);
    }
    ew::detail::host_access_observer = nullptr;
    current_log = nullptr;
  }
}

}  // namespace

TEST_CASE("N-d kernel body on the host: random shapes, layouts and operand kinds", "[nd]") {
  const std::uint64_t seed = ew_test::base_seed();
  INFO("seed " << seed);
  random_cases<1>(60, seed + 1);
  random_cases<2>(150, seed + 2);
  random_cases<3>(150, seed + 3);
  random_cases<4>(120, seed + 4);
  // Other item shapes than ew's: several rows (the row-invariant operand shared across them) and slots.
  random_cases<2, 2, 2>(80, seed + 5);
  random_cases<3, 3, 1>(60, seed + 6);
  random_cases<2, 1, 3>(60, seed + 7);
  // Every path ran, each many times: a generator that stopped making one of them would fail here.
  for (const char* p :
       {"1-D", "gather", "tile", "N-d element-wise", "N-d vectorized", "N-d vectorized, per-row head"}) {
    INFO(p);
    CHECK(paths_taken[p] >= 20);
  }
}

TEST_CASE("N-d kernel body on the host: a bias over [rows, cols] at every pitch and offset", "[nd]") {
  // The vector path's edges: rows that start at different offsets within their vectors, a bias at
  // another offset than the rows, a column count that is not a multiple of the vector.
  for (std::int64_t rows : {1, 2, 3, 5}) {
    for (std::int64_t cols : {1, 3, 4, 8, 13, 33}) {
      for (std::int64_t pad : {0, 1, 3, 4}) {
        for (std::int64_t off : {0, 1, 2, 5}) {
          const std::int64_t ld = cols + pad;
          buffer<__nv_bfloat16> x(rows * ld + off + 8), y(rows * ld + off + 8), b(cols + 8);
          std::mt19937_64 rng(static_cast<std::uint64_t>(rows * 1000 + cols * 100 + pad * 10 + off));
          fill_random(x.base, rows * ld + off + 8, rng);
          fill_random(b.base, cols + 8, rng);
          std::memset(static_cast<void*>(y.base), ew_test::poison_byte,
                      static_cast<std::size_t>(rows * ld + off + 8) * 2);
          access_log log;
          current_log = &log;
          ew::detail::host_access_observer = &observe;
          const std::string path = simulate(
              ew::add<__nv_bfloat16>{}, ew::extents{rows, cols},
              cuda::std::make_tuple(ew::strided(y.base + off, ew::extents{rows, cols}, ew::strides{ld, 1})),
              cuda::std::make_tuple(ew::strided(static_cast<const __nv_bfloat16*>(x.base + off),
                                                ew::extents{rows, cols}, ew::strides{ld, 1}),
                                    ew::strided(static_cast<const __nv_bfloat16*>(b.base + (off + 1) % 3),
                                                ew::extents{cols}, ew::strides{1})));
          ew::detail::host_access_observer = nullptr;
          INFO("rows " << rows << " cols " << cols << " pad " << pad << " off " << off << " path " << path);
          std::size_t wrong = 0;
          for (std::int64_t r = 0; r < rows; ++r) {
            for (std::int64_t c = 0; c < cols; ++c) {
              const auto want = ew::add<__nv_bfloat16>{}(x.base[off + r * ld + c], b.base[(off + 1) % 3 + c]);
              if (!ew_test::same_bits(y.base[off + r * ld + c], want)) ++wrong;
            }
          }
          std::size_t bad = 0;
          for (const auto& [addr, n] : log.stores) {
            const std::int64_t el =
                static_cast<std::int64_t>(addr - reinterpret_cast<std::uintptr_t>(y.base)) / 2 - off;
            if (n != 1 || el < 0 || el % ld >= cols || el / ld >= rows) ++bad;
          }
          CHECK(wrong == 0);
          CHECK(bad == 0);
          CHECK(log.stores.size() == static_cast<std::size_t>(rows * cols * 2));
          CHECK(log.misaligned == 0);
        }
      }
    }
  }
}

namespace {
/// `(x * 2, x * 2)` as float: one value for two FP8 outputs of different layouts.
template <class T>
struct twice_to_both {
  EW_HD cuda::std::tuple<float, float> operator()(T x) const {
    const float v = ew::convert<float>(x) * 2.0f;
    return {v, v};
  }
};

/// ew's shapes without the narrow-output tiles: the cast-transpose on the 64-side tiles (change 42).
struct no_narrow_output_tiles {
  static constexpr ew::tuning::nd_kernel_shapes value = [] {
    ew::tuning::nd_kernel_shapes s{};
    s.narrow_output_tiles = {0, 256, 4};
    return s;
  }();
};

/// ew's shapes with every tile read with the tests a slot (no `tile_plan::direct_reads`).
struct no_direct_reads {
  static constexpr ew::tuning::nd_kernel_shapes value = [] {
    ew::tuning::nd_kernel_shapes s{};
    s.tile_direct_reads = 0;
    return s;
  }();
};

/// ew's shapes with 3 reads in flight, direct or not: a thread's 8 or 16 slots a tile in rounds of 3, the
/// last one short.
struct reads_of_three {
  static constexpr ew::tuning::nd_kernel_shapes value = [] {
    ew::tuning::nd_kernel_shapes s{};
    s.tile_loads_in_flight = 3;
    s.tile_direct_reads = 3;
    return s;
  }();
};

/// ew's shapes with `Stages` buffers of asynchronous copies in the launches that read directly.
template <int Stages>
struct async_copies {
  static constexpr ew::tuning::nd_kernel_shapes value = [] {
    ew::tuning::nd_kernel_shapes s{};
    s.tile_async_stages = Stages;
    return s;
  }();
};

/// Checks that a simulated launch's `path` is the tile kernel on ew's first tiles (64 a side for 4-byte
/// arrays), not the narrow-output ones.
void check_first_tiles(const std::string& path) {
  INFO("path " << path);
  CHECK(path.find("tile") == 0);
  CHECK(path.find("side 64") != std::string::npos);
  CHECK(path.find("narrow-output") == std::string::npos);
}

/// The cast-transpose of an [M, N] x of `T` (`x_off` elements past a 16-byte boundary) into y and yt (yt
/// `off` bytes past one), simulated; checks every code, every store and the bytes around yt, and that
/// the full tiles read x with no tests a slot (`tile_plan::direct_reads`) where its vectors are aligned.
template <class T, class S = ew::tuning::default_nd_shapes_t>
void check_cast_transpose(std::int64_t M, std::int64_t N, std::size_t off, std::int64_t x_off = 0) {
  buffer<T> x_store(M * N + 8 + x_off);
  T* const x = x_store.base + x_off;
  std::mt19937_64 rng(static_cast<std::uint64_t>(M * 1000 + N));
  std::uniform_real_distribution<float> d(-200.0f, 200.0f);
  for (std::int64_t i = 0; i < M * N; ++i) x[i] = ew::convert<T>(d(rng));
  std::vector<__nv_fp8_e4m3> y(static_cast<std::size_t>(M * N)),
      yt_store(static_cast<std::size_t>(M * N) + 32);
  __nv_fp8_e4m3* yt = yt_store.data() + 16 + off;
  std::memset(static_cast<void*>(y.data()), ew_test::poison_byte, y.size());
  std::memset(static_cast<void*>(yt_store.data()), ew_test::poison_byte, yt_store.size());
  const ew::extents e{M, N};
  access_log log;
  current_log = &log;
  ew::detail::host_access_observer = &observe;
  constexpr auto vr = ew::tuning::default_nd_shapes.strided;
  const std::string path = simulate<vr.vector_rows, vr.vector_cols, S>(
      twice_to_both<T>{}, e,
      cuda::std::make_tuple(ew::strided(y.data(), e, ew::strides{N, 1}),
                            ew::strided(yt, e, ew::strides{1, M})),
      cuda::std::make_tuple(ew::strided(static_cast<const T*>(x), e, ew::strides{N, 1})));
  ew::detail::host_access_observer = nullptr;
  INFO("M " << M << " N " << N << " yt offset " << off << " x offset " << x_off << " path " << path);
  // Direct reads: a vector launch (yt and y aligned, N whole vectors) whose x is aligned too.
  const bool vector_tiles = path.find("vector_tiles") != std::string::npos;
  const bool direct = vector_tiles && x_off == 0 && S::value.tile_direct_reads > 0;
  CHECK((path.find("direct reads") != std::string::npos) == direct);
  // Asynchronous copies where the launch reads directly, the shapes ask for them and their buffers with
  // yt's staged tile fit the shared memory the simulation allows a block (`simulated_block_smem`): not f32's
  // 4 of 64 KiB.
  const std::size_t side = S::value.narrow_output_tiles.side != 0 ? 128 : 64;
  const bool fits =
      S::value.tile_async_stages * side * side * sizeof(T) + side * side <= simulated_block_smem;
  CHECK((path.find("async copies") != std::string::npos) ==
        (direct && S::value.tile_async_stages > 0 && fits));
  CHECK(path.find("staged inputs") == std::string::npos);  // x runs along `a`: no staging phase
  if (M > 1 && N > 1) {
    CHECK(path.find("staged outputs") != std::string::npos);
    // ew's shapes: 128-side tiles of 256 threads (tuning_nd.cuh, narrow_output_tiles); without them 64.
    const bool narrow = S::value.narrow_output_tiles.side != 0;
    CHECK(path.find(narrow ? "side 128 threads 256" : "side 64 threads 128") != std::string::npos);
    CHECK((path.find("(narrow-output tiles)") != std::string::npos) == narrow);
  }
  std::size_t wrong = 0;
  for (std::int64_t i = 0; i < M; ++i) {
    for (std::int64_t j = 0; j < N; ++j) {
      const unsigned char want = ew::convert<__nv_fp8_e4m3>(ew::convert<float>(x[i * N + j]) * 2.0f).__x;
      wrong += y[static_cast<std::size_t>(i * N + j)].__x != want;
      wrong += yt[j * M + i].__x != want;
    }
  }
  CHECK(wrong == 0);
  std::size_t outside = 0, twice = 0;
  const auto y0 = reinterpret_cast<std::uintptr_t>(y.data()), yt0 = reinterpret_cast<std::uintptr_t>(yt);
  const auto total = static_cast<std::uintptr_t>(M * N);
  for (const auto& [addr, n] : log.stores) {
    twice += n != 1;
    outside += !((addr >= y0 && addr < y0 + total) || (addr >= yt0 && addr < yt0 + total));
  }
  CHECK(outside == 0);
  CHECK(twice == 0);
  CHECK(log.stores.size() == static_cast<std::size_t>(2 * M * N));
  CHECK(log.misaligned == 0);
  std::size_t padding = 0;  // the bytes around yt keep the poison
  for (std::size_t b = 0; b < 16 + off; ++b) padding += yt_store[b].__x != ew_test::poison_byte;
  for (std::size_t b = 16 + off + static_cast<std::size_t>(M * N); b < yt_store.size(); ++b)
    padding += yt_store[b].__x != ew_test::poison_byte;
  CHECK(padding == 0);
}
}  // namespace

TEST_CASE("N-d kernel body on the host: two outputs of different layouts (a cast-transpose)", "[nd]") {
  // y[M, N] row-major and yt[N, M], its transpose, from one x: what Transformer Engine's
  // fp8_cast_transpose_fused writes. The tile kernel stages yt's tiles through shared memory and stores
  // them along its rows: full tiles, edge tiles (96 = 64 + 32), and with yt one byte off its alignment the
  // general path; float x (4 elements a vector) and bf16 x (8).
  // ew's shapes take the narrow-output tiles (128 a side, 256 threads): full tiles, edge tiles (192 = 128
  // + 64), the general path; and without them the 64-side tiles.
  const std::pair<std::int64_t, std::int64_t> shapes[] = {{64, 96},   {33, 17},   {1, 40},   {40, 1},
                                                          {128, 192}, {130, 67},  {256, 64}, {96, 96},
                                                          {160, 48},  {256, 384}, {200, 130}};
  for (const auto& mn : shapes) {
    for (std::size_t off : {0u, 1u}) {
      check_cast_transpose<float>(mn.first, mn.second, off);
      check_cast_transpose<__nv_bfloat16>(mn.first, mn.second, off);
      check_cast_transpose<float, no_narrow_output_tiles>(mn.first, mn.second, off);
      check_cast_transpose<__nv_bfloat16, no_narrow_output_tiles>(mn.first, mn.second, off);
    }
  }
  // x off its vectors: full tiles read it with the tests (each slot's vector element by element); every
  // tile read with them (tile_direct_reads 0); and reads in rounds of 3, the last one short.
  for (const auto& mn : {std::pair<std::int64_t, std::int64_t>{128, 192}, {256, 384}, {200, 130}}) {
    check_cast_transpose<float>(mn.first, mn.second, 0, 1);
    check_cast_transpose<__nv_bfloat16>(mn.first, mn.second, 0, 3);
    check_cast_transpose<float, no_direct_reads>(mn.first, mn.second, 0);
    check_cast_transpose<__nv_bfloat16, no_direct_reads>(mn.first, mn.second, 0);
    check_cast_transpose<float, reads_of_three>(mn.first, mn.second, 0);
    check_cast_transpose<__nv_bfloat16, reads_of_three>(mn.first, mn.second, 0);
    check_cast_transpose<__nv_bfloat16, reads_of_three>(mn.first, mn.second, 0, 1);
  }
  // Full tiles copied asynchronously into 1 to 4 buffers, 2 blocks looping over up to 6 tiles each (edge
  // tiles read directly); x off its vectors, or buffers past a block's shared memory: no copies.
  for (const auto& mn :
       {std::pair<std::int64_t, std::int64_t>{128, 192}, {512, 384}, {384, 256}, {200, 130}}) {
    check_cast_transpose<float, async_copies<2>>(mn.first, mn.second, 0);
    check_cast_transpose<__nv_bfloat16, async_copies<3>>(mn.first, mn.second, 0);
    check_cast_transpose<__nv_bfloat16, async_copies<1>>(mn.first, mn.second, 1);
    check_cast_transpose<float, async_copies<3>>(mn.first, mn.second, 0, 1);
    check_cast_transpose<float, async_copies<4>>(mn.first, mn.second, 0);  // too large: direct reads
    check_cast_transpose<__nv_bfloat16, async_copies<4>>(mn.first, mn.second, 0);
  }
}

TEST_CASE(
    "N-d launch: the narrow-output tiles only for 1-byte outputs beside 2- and 4-byte arrays, staged "
    "alone",
    "[nd]") {
  using S = ew::tuning::default_nd_shapes_t;
  using f8 = __nv_fp8_e4m3;
  using ct_f32 = cuda::std::tuple<ew::strided_view<f8, 2>, ew::strided_view<f8, 2>>;
  using in_f32 = cuda::std::tuple<ew::strided_view<const float, 2>>;
  using in_bf16 = cuda::std::tuple<ew::strided_view<const __nv_bfloat16, 2>>;
  using in_f64 = cuda::std::tuple<ew::strided_view<const double, 2>>;
  using out_bf16 = cuda::std::tuple<ew::strided_view<__nv_bfloat16, 2>>;
  using in_u8 = cuda::std::tuple<ew::strided_view<const unsigned char, 2>>;
  using out_u8 = cuda::std::tuple<ew::strided_view<unsigned char, 2>>;
  CHECK(ew::detail::narrow_output_tiles_apply<S, ct_f32, in_f32>);
  CHECK(ew::detail::narrow_output_tiles_apply<S, ct_f32, in_bf16>);
  CHECK_FALSE(ew::detail::narrow_output_tiles_apply<S, ct_f32, in_f64>);    // 8-byte arrays: wide tiles
  CHECK_FALSE(ew::detail::narrow_output_tiles_apply<S, out_bf16, in_f32>);  // no 1-byte output
  CHECK_FALSE(ew::detail::narrow_output_tiles_apply<S, out_u8, in_u8>);  // 1-byte arrays alone: 128 already
  CHECK_FALSE(ew::detail::narrow_output_tiles_apply<no_narrow_output_tiles, ct_f32, in_f32>);
  CHECK(ew::tuning::nd_kernel_shapes_error(ew::tuning::default_nd_shapes) == nullptr);
  ew::tuning::nd_kernel_shapes bad{};
  bad.narrow_output_tiles = {96, 256, 4};
  CHECK(std::string(ew::tuning::nd_kernel_shapes_error(bad)).find("narrow_output_tiles") == 0);
  // A transposed f32 input into an FP8 output: the input is staged, so the plan keeps the 64-side tiles (a
  // 128-side f32 tile would not fit the shared memory).
  const std::int64_t M = 96, N = 160;
  buffer<float> x(M * N);
  std::vector<f8> y(static_cast<std::size_t>(M * N));
  for (std::int64_t i = 0; i < M * N; ++i) x.base[i] = static_cast<float>(i % 251) - 125.0f;
  const ew::extents e{M, N};
  const std::string path =
      simulate(ew::cast<f8>{}, e, cuda::std::make_tuple(ew::strided(y.data(), e, ew::strides{N, 1})),
               cuda::std::make_tuple(ew::strided(static_cast<const float*>(x.base), e, ew::strides{1, M})));
  check_first_tiles(path);
  std::size_t wrong = 0;
  for (std::int64_t i = 0; i < M; ++i) {
    for (std::int64_t j = 0; j < N; ++j) {
      wrong += y[static_cast<std::size_t>(i * N + j)].__x != ew::convert<f8>(x.base[j * M + i]).__x;
    }
  }
  CHECK(wrong == 0);
}

namespace {
/// `x * 2` as float, five times: one row-major and four transposed FP8 outputs.
struct twice_to_five {
  EW_HD cuda::std::tuple<float, float, float, float, float> operator()(float x) const {
    const float v = x * 2.0f;
    return {v, v, v, v, v};
  }
};
}  // namespace

TEST_CASE("N-d launch: the narrow-output tiles give way where their staged tiles pass the shared memory",
          "[nd]") {
  // Four transposed FP8 outputs: four 128-side staged tiles pass the limit, four 64-side ones fit, so the
  // dispatcher (and the simulator, as it) keeps ew's first tiles rather than the narrow-output ones.
  using f8 = __nv_fp8_e4m3;
  using S = ew::tuning::default_nd_shapes_t;
  constexpr int narrow_side = S::value.narrow_output_tiles.side;
  REQUIRE(4 * ew::detail::tile_stage_bytes<f8, narrow_side> > ew::tuning::tile_max_smem_bytes);
  REQUIRE(4 * ew::detail::tile_stage_bytes<f8, 64> <= ew::tuning::tile_max_smem_bytes);
  const std::int64_t M = 192, N = 136;
  buffer<float> x(M * N);
  for (std::int64_t i = 0; i < M * N; ++i) x.base[i] = static_cast<float>(i % 239) * 0.75f - 90.0f;
  std::vector<f8> y(static_cast<std::size_t>(M * N)), t0(y.size()), t1(y.size()), t2(y.size()), t3(y.size());
  for (auto* v : {&y, &t0, &t1, &t2, &t3})
    std::memset(static_cast<void*>(v->data()), ew_test::poison_byte, v->size());
  const ew::extents e{M, N};
  const ew::strides rm{N, 1}, tr{1, M};
  const std::string path =
      simulate(twice_to_five{}, e,
               cuda::std::make_tuple(ew::strided(y.data(), e, rm), ew::strided(t0.data(), e, tr),
                                     ew::strided(t1.data(), e, tr), ew::strided(t2.data(), e, tr),
                                     ew::strided(t3.data(), e, tr)),
               cuda::std::make_tuple(ew::strided(static_cast<const float*>(x.base), e, rm)));
  check_first_tiles(path);
  std::size_t wrong = 0;
  for (std::int64_t i = 0; i < M; ++i) {
    for (std::int64_t j = 0; j < N; ++j) {
      const unsigned char want = ew::convert<f8>(x.base[i * N + j] * 2.0f).__x;
      const auto t = static_cast<std::size_t>(j * M + i);
      wrong += y[static_cast<std::size_t>(i * N + j)].__x != want;
      wrong += (t0[t].__x != want) + (t1[t].__x != want) + (t2[t].__x != want) + (t3[t].__x != want);
    }
  }
  CHECK(wrong == 0);
}

namespace {

/// Fake device addresses: the checks never dereference them, and none of these calls gets to a device.
float* fake(std::uintptr_t a) { return reinterpret_cast<float*>(a); }
const float* cfake(std::uintptr_t a) { return reinterpret_cast<const float*>(a); }

void require_rejected(cudaError_t err, const char* why) {
  INFO("expected: " << why << " / got: " << ew::last_error_message());
  REQUIRE(err == cudaErrorInvalidValue);
  REQUIRE(std::string(ew::last_error_message()).find(why) != std::string::npos);
}

}  // namespace

TEST_CASE("N-d launch: bad arguments are rejected before anything runs", "[nd]") {
  const std::uintptr_t y = 0x100000, x = 0x200000, b = 0x300000;
  const ew::add<float> add{};
  const ew::relu<float> relu{};
  require_rejected(ew::elementwise(relu, ew::extents{4, -1}, fake(y), cfake(x)), "negative extent");
  require_rejected(
      ew::elementwise(relu, ew::extents{std::int64_t{1} << 40, std::int64_t{1} << 40}, fake(y), cfake(x)),
      "product of the extents overflows");
  require_rejected(ew::elementwise(add, ew::extents{4, 8}, fake(y),
                                   ew::in(cfake(x), ew::strided(cfake(b), ew::extents{3}, ew::strides{1}))),
                   "not broadcastable");
  require_rejected(
      ew::elementwise(add, ew::extents{4, 8}, fake(y),
                      ew::in(cfake(x), ew::strided(cfake(b), ew::extents{1, 4, 8}, ew::strides{0, 8, 1}))),
      "more dimensions than the launch");
  require_rejected(ew::elementwise(relu, ew::extents{4, 8},
                                   ew::strided(fake(y), ew::extents{4, 9}, ew::strides{9, 1}), cfake(x)),
                   "output view's extents differ");
  require_rejected(ew::elementwise(relu, ew::extents{4, 8},
                                   ew::strided(fake(y), ew::extents{32}, ew::strides{1}), cfake(x)),
                   "output view's rank differs");
  require_rejected(ew::elementwise(relu, ew::extents{4, 8}, fake(y),
                                   ew::strided(cfake(x), ew::extents{4, 8}, ew::strides{-8, 1})),
                   "negative strides");
  require_rejected(ew::elementwise(relu, ew::extents{4, 8},
                                   ew::strided(fake(y), ew::extents{4, 8}, ew::strides{0, 1}), cfake(x)),
                   "stride-0 dimension");
  require_rejected(ew::elementwise(relu, ew::extents{4, 8},
                                   ew::strided(fake(y), ew::extents{4, 8}, ew::strides{4, 1}), cfake(x)),
                   "overlaps itself");
  // An output over part of an input: rejected; exactly the same view (in place): accepted by the checks.
  require_rejected(ew::elementwise(relu, ew::extents{4, 8}, fake(y), cfake(y + 4 * sizeof(float))),
                   "overlaps an input");
  require_rejected(
      ew::elementwise(relu, ew::extents{4, 8}, ew::strided(fake(y), ew::extents{4, 8}, ew::strides{16, 1}),
                      ew::strided(cfake(y), ew::extents{4, 8}, ew::strides{8, 1})),
      "overlaps an input");
  {
    using outs = cuda::std::tuple<ew::strided_view<float, 2>>;
    using ins = cuda::std::tuple<ew::strided_view<const float, 2>>;
    ew::detail::nd_call<4, 2, outs, ins> call;
    CHECK(call.prepare(ew::extents{4, 8}, outs{ew::strided(fake(y), ew::extents{4, 8}, ew::strides{16, 1})},
                       ins{ew::strided(cfake(y), ew::extents{4, 8}, ew::strides{16, 1})}) == cudaSuccess);
  }
  // In place where the pointer and the view disagree only on the strides of extent-1 dimensions.
  {
    using outs = cuda::std::tuple<float*>;
    using ins = cuda::std::tuple<ew::strided_view<const float, 2>, ew::strided_view<const float, 1>>;
    ew::detail::nd_call<4, 2, outs, ins> call;
    CHECK(call.prepare(ew::extents{1, 8}, outs{fake(y)},
                       ins{ew::strided(cfake(y), ew::extents{1, 8}, ew::strides{8, 1}),
                           ew::strided(cfake(x), ew::extents{8}, ew::strides{1})}) == cudaSuccess);
  }
  {
    using outs = cuda::std::tuple<ew::strided_view<float, 2>>;
    using ins = cuda::std::tuple<const float*>;
    ew::detail::nd_call<4, 2, outs, ins> call;
    CHECK(call.prepare(ew::extents{1, 8}, outs{ew::strided(fake(y), ew::extents{1, 8}, ew::strides{99, 1})},
                       ins{cfake(y)}) == cudaSuccess);
  }
  // Extents whose product overflows are rejected before anything computes with them.
  require_rejected(
      ew::elementwise(relu, ew::extents{std::int64_t{1} << 40, std::int64_t{1} << 40, std::int64_t{1} << 40},
                      fake(y), cfake(x)),
      "product of the extents overflows");
  // Two column slices of one matrix: disjoint elements, but interleaved address ranges (conservative).
  require_rejected(ew::elementwise(ew::sincos<float>{}, ew::extents{4, 8},
                                   ew::out(ew::strided(fake(y), ew::extents{4, 8}, ew::strides{16, 1}),
                                           ew::strided(fake(y + 8 * sizeof(float)), ew::extents{4, 8},
                                                       ew::strides{16, 1})),
                                   cfake(x)),
                   "two outputs overlap");
  require_rejected(
      ew::elementwise(add, ew::extents{4, 8}, fake(y), ew::in(cfake(x), ew::scalar(cfake(y + 8)))),
      "ew::scalar");
  require_rejected(ew::elementwise(relu, ew::extents{4, 8}, fake(0), cfake(x)), "null pointer");
  require_rejected(ew::elementwise(relu, ew::extents{4, 8}, fake(y + 2), cfake(x)), "not aligned");
  require_rejected(ew::elementwise(ew::cast<float>{}, ew::extents{4, 8}, fake(y), ew::index(2)),
                   "dim >= the launch's rank");
  // 1-D launches: the index has one dimension, and a scalar may not sit in the output.
  require_rejected(ew::elementwise(ew::cast<float>{}, 32, fake(y), ew::index(1)),
                   "ew::index(dim) with dim > 0");
  require_rejected(ew::elementwise(add, 32, fake(y), ew::in(cfake(x), ew::scalar(cfake(y + 16)))),
                   "ew::scalar");
  require_rejected(ew::elementwise(add, 32, fake(y), ew::in(cfake(x), ew::scalar(cfake(0)))), "null pointer");
  // Empty launches succeed with nothing launched (and no device needed), whatever the pointers.
  CHECK(ew::elementwise(relu, ew::extents{0, 8}, fake(0), cfake(0)) == cudaSuccess);
  CHECK(ew::elementwise(relu, ew::extents{5, 0, 3}, fake(y), cfake(x)) == cudaSuccess);
}

TEST_CASE("views without strides: ew::strided(p, e) is row-major, ew::broadcast(p, e) broadcasts it",
          "[nd]") {
  // Row-major strides, 0 along extents of 1.
  const ew::strides<4> s = ew::row_major_strides(ew::extents{2, 3, 1, 5});
  CHECK(s[0] == 15);
  CHECK(s[1] == 5);
  CHECK(s[2] == 0);
  CHECK(s[3] == 1);
  float y[6 * 7] = {};
  const auto v = ew::strided(y, ew::extents{6, 7});
  CHECK(v.ptr == y);
  CHECK(v.step[0] == 7);
  CHECK(v.step[1] == 1);
  // A bias over the columns and per-row values over the rows, through the simulated grid: y[r, c] =
  // b[c] * 1000 + k[r], from a [7] array and a [6, 1] array.
  buffer<float> b(7), k(6), out(6 * 7);
  for (int c = 0; c < 7; ++c) b.base[c] = static_cast<float>(c + 1);
  for (int r = 0; r < 6; ++r) k.base[r] = static_cast<float>(r);
  const ew::fma<float> op{};
  access_log log;
  current_log = &log;
  ew::detail::host_access_observer = &observe;
  const ew::extents<2> e{6, 7};
  const auto thousand = ew::broadcast(static_cast<const float*>(b.base), ew::extents{7});
  const auto rows = ew::broadcast(static_cast<const float*>(k.base), ew::extents{6, 1});
  std::vector<float> ks(6 * 7, 1000.0f);
  simulate(op, e, cuda::std::make_tuple(out.base),
           cuda::std::make_tuple(thousand, static_cast<const float*>(ks.data()), rows));
  ew::detail::host_access_observer = nullptr;
  current_log = nullptr;
  for (int r = 0; r < 6; ++r) {
    for (int c = 0; c < 7; ++c) CHECK(out.base[r * 7 + c] == static_cast<float>((c + 1) * 1000 + r));
  }
}
