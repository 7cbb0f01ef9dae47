// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Probe 26 (issue 22): the FP8 cast-transpose (Transformer Engine's `fp8_cast_transpose_fused`: from x
// [M, N], y8 [M, N] and yt8 [N, M] = e4m3(x * scale) and amax = max |x|, one ew launch; the tile kernel
// stages yt8 through shared memory, change 42) under the tile kernel's shapes, beside ew's 1-D copy of x
// (issue 22's bar: 0.90 of its GB/s, each on its own bytes: x read, y8 and yt8 written for the
// cast-transpose; x read and written for the copy):
//   copy        ew::elementwise(ew::identity) of x into an array of x's type, 1-D
//   ct          ew's tile shape: since change 64 the narrow-output tiles (128 a side, 256 threads, 4 blocks
//               an SM: each of yt8's tile rows is 128 bytes)
//   ct_<v>      the same launch under `nd` tile shapes: t64x128 (ew's before change 64: 64 a side for 2-
//               and 4-byte x, 128 threads, 8 an SM; yt8's tile rows 64 bytes), t128x128 (128 threads),
//               t128x256 (256 threads, 4 an SM), t64x256, t128x512 (2 an SM), tl8 (8 loads in flight);
//               since the fourteenth session t128x256m8 (8 an SM), t128x128m16 (16 an SM), t128x256g8
//               and g32 (`tile_group` 8 and 32: the resident blocks' tiles in groups along x's rows, so
//               yt8's rows are written in longer runs), t128x256m5 (5 an SM: 48 registers),
//               t128x256m6l2 (6 an SM, 2 loads in flight), t128x256l2, t128x512m3 (3 an SM)
// f32 and bf16 x at [8192, 8192] and [16384, 4096], inputs uniform in [-4, 4), scale 48. Median of 15
// launches, L2 flushed before each as ew_bench does (probe_timing.cuh), every row `rounds` times
// interleaved (the first argument, default 2; 0: each kernel once on the first shape, untimed, for ncu);
// outputs poisoned before each launch; after each, every 61st element of y8 and of yt8 checked against
// cuda_fp8.h's host conversion of the host's x * scale, and the amax exactly.
// Build: `ninja ew_probe_cast_transpose_tiles` (bench/CMakeLists.txt).

#include <cuda_bf16.h>
#include <cuda_fp8.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <ew/elementwise.cuh>

#include "../torch_cells/cell_ops.cuh"
#include "probe_timing.cuh"

namespace {

using namespace ewp;
using fp8 = __nv_fp8_e4m3;
constexpr float scale = 48.0f;

/// ew's defaults but for the tile kernel's shape `Shapes::shapes()`.
template <class Shapes>
struct tile_policy {
  template <class Op>
  static constexpr ew::policy_entry entry() {
    ew::policy_entry e{};
    e.nd = Shapes::shapes();
    return e;
  }
};

#define EW_PROBE_TILES(name, ...)                            \
  struct name {                                              \
    static constexpr ew::tuning::nd_kernel_shapes shapes() { \
      ew::tuning::nd_kernel_shapes s{};                      \
      __VA_ARGS__;                                           \
      return s;                                              \
    }                                                        \
  };
EW_PROBE_TILES(t_default, (void)s)                       // ew's tiles
EW_PROBE_TILES(t64x128, s.narrow_output_tiles.side = 0)  // ew's tiles before change 64
EW_PROBE_TILES(t64x128s, s.tile_side = 64; s.tile_block_threads = 128; s.tile_min_blocks_per_sm = 8)
EW_PROBE_TILES(t128x128, s.tile_side = 128; s.tile_block_threads = 128; s.tile_min_blocks_per_sm = 8)
EW_PROBE_TILES(t128x256, s.tile_side = 128; s.tile_block_threads = 256; s.tile_min_blocks_per_sm = 4)
EW_PROBE_TILES(t64x256, s.tile_side = 64; s.tile_block_threads = 256; s.tile_min_blocks_per_sm = 4)
EW_PROBE_TILES(t128x512, s.tile_side = 128; s.tile_block_threads = 512; s.tile_min_blocks_per_sm = 2)
EW_PROBE_TILES(tl8, s.tile_loads_in_flight = 8)
EW_PROBE_TILES(t128x256m8, s.tile_side = 128; s.tile_block_threads = 256; s.tile_min_blocks_per_sm = 8)
EW_PROBE_TILES(t128x128m16, s.tile_side = 128; s.tile_block_threads = 128; s.tile_min_blocks_per_sm = 16)
EW_PROBE_TILES(t128x256m5, s.tile_side = 128; s.tile_block_threads = 256; s.tile_min_blocks_per_sm = 5)
EW_PROBE_TILES(t128x256m6l2, s.tile_side = 128; s.tile_block_threads = 256; s.tile_min_blocks_per_sm = 6;
               s.tile_loads_in_flight = 2)
EW_PROBE_TILES(t128x256l2, s.tile_side = 128; s.tile_block_threads = 256; s.tile_min_blocks_per_sm = 4;
               s.tile_loads_in_flight = 2)
EW_PROBE_TILES(t128x512m3, s.tile_side = 128; s.tile_block_threads = 512; s.tile_min_blocks_per_sm = 3)
EW_PROBE_TILES(t128x256g8, s.tile_side = 128; s.tile_block_threads = 256; s.tile_min_blocks_per_sm = 4;
               s.tile_group = 8)
EW_PROBE_TILES(t128x256g32, s.tile_side = 128; s.tile_block_threads = 256; s.tile_min_blocks_per_sm = 4;
               s.tile_group = 32)

template <class P, class T>
cudaError_t cast_transpose(fp8* y8, fp8* yt8, float* am, ew::reduction_workspace* ws, const T* x,
                           std::int64_t M, std::int64_t N) {
  return ew_cells::cast_transpose<P>(y8, yt8, am, ws, x, M, N, scale);
}

std::uint8_t fp8_bits(float v) {
  const __nv_fp8_e4m3 q(v);  // cuda_fp8.h's host conversion (satfinite, round to nearest even)
  std::uint8_t b;
  std::memcpy(&b, &q, 1);
  return b;
}

template <class T>
void run(const char* type, std::int64_t M, std::int64_t N, int rounds) {
  const std::size_t n = static_cast<std::size_t>(M * N);
  device_buf<T> x(n), xc(n);
  device_buf<fp8> y8(n), yt8(n);
  device_buf<float> am(1);
  device_buf<ew::reduction_workspace> ws(1);
  CK(cudaMemset(ws.p, 0, sizeof(ew::reduction_workspace)));
  std::vector<T> hx(n);
  std::mt19937 rng(26);
  std::uniform_real_distribution<float> u(-4.0f, 4.0f);
  float want_am = 0;
  for (auto& v : hx) {
    v = from_f<T>(u(rng));
    want_am = std::fmax(want_am, std::fabs(ew::convert<float>(v)));
  }
  CK(cudaMemcpy(x.p, hx.data(), n * sizeof(T), cudaMemcpyHostToDevice));

  struct impl {
    std::string name;
    std::function<void()> launch;
  };
  std::vector<impl> impls;
  impls.push_back({"copy", [&] { CK(ew::elementwise(ew::identity<T>{}, n, xc.p, x.p)); }});
  impls.push_back({"ct", [&] { CK(cast_transpose<void>(y8.p, yt8.p, am.p, ws.p, x.p, M, N)); }});
  const auto add = [&](const char* name, auto shapes) {
    using P = tile_policy<decltype(shapes)>;
    impls.push_back({name, [&] { CK(cast_transpose<P>(y8.p, yt8.p, am.p, ws.p, x.p, M, N)); }});
  };
  add("ct_t64x128", t64x128{});
  add("ct_t128x128", t128x128{});
  add("ct_t128x256", t128x256{});
  add("ct_t64x256", t64x256{});
  add("ct_t128x512", t128x512{});
  add("ct_tl8", tl8{});
  add("ct_t128x256m8", t128x256m8{});
  add("ct_t128x128m16", t128x128m16{});
  add("ct_t128x256m5", t128x256m5{});
  add("ct_t128x256m6l2", t128x256m6l2{});
  add("ct_t128x256l2", t128x256l2{});
  add("ct_t128x512m3", t128x512m3{});
  add("ct_t128x256g8", t128x256g8{});
  add("ct_t128x256g32", t128x256g32{});

  if (rounds == 0) {  // each kernel once, untimed, for ncu (`ew_probe_cast_transpose_tiles 0`)
    for (const impl& m : impls) m.launch();
    CK(cudaDeviceSynchronize());
    return;
  }
  std::vector<std::uint8_t> hy(n), hyt(n);
  const auto check = [&](std::size_t i) {
    if (i == 0) return;  // the copy: checked by the tests
    CK(cudaMemcpy(hy.data(), y8.p, n, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hyt.data(), yt8.p, n, cudaMemcpyDeviceToHost));
    float got_am = 0;
    CK(cudaMemcpy(&got_am, am.p, sizeof(float), cudaMemcpyDeviceToHost));
    std::size_t bad = 0;
    for (std::size_t e = 0; e < n; e += 61) {
      const std::size_t row = e / static_cast<std::size_t>(N), col = e % static_cast<std::size_t>(N);
      const std::uint8_t want = fp8_bits(ew::convert<float>(hx[e]) * scale);
      bad += hy[e] != want;
      bad += hyt[col * static_cast<std::size_t>(M) + row] != want;
    }
    if (bad != 0 || got_am != want_am) {
      std::printf("%s %s [%lld, %lld]: %zu sampled elements wrong, amax %g (want %g)\n", type,
                  impls[i].name.c_str(), static_cast<long long>(M), static_cast<long long>(N), bad, got_am,
                  want_am);
      std::exit(1);
    }
  };
  // EW_PROBE_NO_POISON=1: outputs not poisoned before each sample, as torch_fused_cells.py times them (a
  // timing experiment: the check after each row can then not tell its results from an earlier row's).
  const bool poison = std::getenv("EW_PROBE_NO_POISON") == nullptr;
  const auto us = time_rounds(
      impls, rounds,
      [&] {
        if (!poison) return;
        CK(cudaMemsetAsync(y8.p, 0xff, n));
        CK(cudaMemsetAsync(yt8.p, 0xff, n));
        CK(cudaMemsetAsync(am.p, 0xff, sizeof(float)));
        CK(cudaMemsetAsync(xc.p, 0xff, n * sizeof(T)));
      },
      check);
  const std::string size = std::to_string(M) + "x" + std::to_string(N);
  print_rows(type, size.c_str(), impls, us, [&](std::size_t k) {
    return static_cast<double>(n) * (k == 0 ? 2.0 * sizeof(T) : sizeof(T) + 2.0);
  });
}

/// A u8 transpose, yt [N, M] = x^T of x [M, N] (the transposes issue 21's cells had short of 0.90 of the copy
/// on the H200: 0.821 at [16384, 1000], NCHW <-> NHWC 0.849 / 0.859), under the same shapes: ew's (128 a
/// side for 1-byte arrays, 128 threads, 8 blocks an SM) and others, beside the 1-D copy; every 61st element
/// checked.
void run_u8_transpose(std::int64_t B, std::int64_t M, std::int64_t N, int rounds) {
  using T = unsigned char;
  const std::size_t n = static_cast<std::size_t>(B * M * N);
  device_buf<T> x(n), xc(n), yt(n);
  std::vector<T> hx(n), hyt(n);
  std::mt19937 rng(27);
  for (auto& v : hx) v = static_cast<T>(rng());
  CK(cudaMemcpy(x.p, hx.data(), n, cudaMemcpyHostToDevice));
  const ew::extents e{B, M, N};
  struct impl {
    std::string name;
    std::function<void()> launch;
  };
  std::vector<impl> impls;
  impls.push_back({"copy", [&] { CK(ew::elementwise(ew::identity<T>{}, n, xc.p, x.p)); }});
  const auto add = [&](const char* name, auto shapes) {
    using S = decltype(shapes);
    impls.push_back(
        {name, [&] {
           const auto out = ew::strided(yt.p, e, ew::strides{M * N, std::int64_t{1}, M});
           const auto in = ew::strided(static_cast<const T*>(x.p), e, ew::strides{M * N, N, std::int64_t{1}});
           if constexpr (std::is_void_v<S>) {
             CK(ew::elementwise(ew::identity<T>{}, e, out, in));
           } else {
             CK(ew::elementwise<tile_policy<S>>(ew::identity<T>{}, e, out, in));
           }
         }});
  };
  add("t", t_default{});
  add("t_t128x256", t128x256{});
  add("t_t128x512", t128x512{});
  add("t_t64x128", t64x128s{});
  add("t_t64x256", t64x256{});
  add("t_tl8", tl8{});
  const auto check = [&](std::size_t i) {
    if (i == 0) return;
    CK(cudaMemcpy(hyt.data(), yt.p, n, cudaMemcpyDeviceToHost));
    std::size_t bad = 0;
    const std::size_t mn = static_cast<std::size_t>(M * N);
    for (std::size_t q = 0; q < n; q += 61) {
      const std::size_t b = q / mn, row = q % mn / static_cast<std::size_t>(N),
                        col = q % static_cast<std::size_t>(N);
      bad += hyt[b * mn + col * static_cast<std::size_t>(M) + row] != hx[q];
    }
    if (bad != 0) {
      std::printf("u8 %s [%lld, %lld, %lld]: %zu sampled elements wrong\n", impls[i].name.c_str(),
                  static_cast<long long>(B), static_cast<long long>(M), static_cast<long long>(N), bad);
      std::exit(1);
    }
  };
  const auto us = time_rounds(
      impls, rounds,
      [&] {
        CK(cudaMemsetAsync(yt.p, 0xff, n));
        CK(cudaMemsetAsync(xc.p, 0xff, n));
      },
      check);
  const std::string size = std::to_string(B) + "x" + std::to_string(M) + "x" + std::to_string(N);
  print_rows("u8", size.c_str(), impls, us, [&](std::size_t) { return 2.0 * static_cast<double>(n); });
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 2;
  if (rounds > 0) begin_table("copy");
  const std::int64_t shapes[2][2] = {{8192, 8192}, {16384, 4096}};
  for (const auto& s : shapes) {
    run<__nv_bfloat16>("bf16", s[0], s[1], rounds);
    run<float>("f32", s[0], s[1], rounds);
    if (rounds == 0) break;
  }
  if (rounds > 0) {
    // u8 transposes under the same shapes (t64x128 here: 64-side tiles of 128 threads, 8 an SM)
    run_u8_transpose(1, 16384, 1000, rounds);
    run_u8_transpose(1, 65536, 4096, rounds);
    run_u8_transpose(32, 256, 3136, rounds);  // NCHW -> NHWC of [32, 256, 56, 56]
    std::printf("\n`vs copy` is GB/s over the copy's GB/s, each on its own bytes\n");
  }
  return 0;
}
