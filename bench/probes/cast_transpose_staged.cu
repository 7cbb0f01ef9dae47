// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Probe 27 (issue 22): does staging x's tile in shared memory asynchronously, the next tile's copy in flight
// while the block computes the current one, take the FP8 cast-transpose (y8 [M, N] and yt8 [N, M] =
// e4m3(x * scale), amax = max |x|) to 0.90 of the copy's GB/s? ew's tile kernel reads x into registers in
// the compute phase and writes yt8 from shared memory in a third phase, one tile per block: its loads are
// in flight only while the block computes (ncu, session 14: 64 registers, 50% occupancy, DRAM at 72%, 9.4 of
// 21 cycles between a warp's instructions waiting on loads). Hand-written kernels, not ew's, to measure the
// idea before building it into the tile kernel:
//   copy      ew::elementwise(ew::identity) of x, 1-D (the bar's reference)
//   ct        ew's cast-transpose (cell_ops.cuh, the issue's cell)
//   ct_nopdl  the same with programmatic launch off
//   direct    the hand-written kernel without staging: x's loads into registers, one tile per block (the
//             layout's own cost)
//   s2, s3    x's tiles copied with cp.async (`__pipeline_memcpy_async`, L2 only) into 2 or 3 stages, the
//             grid resident (blocks an SM from the occupancy calculator), each block's tiles strided by the
//             grid, the next tiles' copies issued before the current tile is computed
//   s2cs      s2 with y8's and yt8's stores streaming (`__stcs`)
// Tiles of 128 x rows and 256 bytes of x's row (128 bf16 or 64 f32 elements); each thread converts 8 rows
// of 8 elements: y8's 8 bytes a row to memory, yt8's 8 bytes a column (8 rows) into a staged tile whose
// 8-byte chunks are XOR-swizzled by the column's group of 8 (no bank conflicts for bf16 on either side),
// then yt8's rows of 128 bytes to memory as 16-byte stores. The amax: each block's maximum to a partial,
// the last block to finish overwrites the amax with their maximum (no reset launch, as ew's).
// f32 and bf16 x at [8192, 8192] and [16384, 4096] (multiples of the tile), inputs uniform in [-4, 4),
// scale 48; median of 15, L2 flushed before each (probe_timing.cuh), rows interleaved over `rounds` (first
// argument, default 2; 0: each kernel once, untimed, for ncu); outputs poisoned before each sample; after
// each, every 61st element of y8 and yt8 checked against cuda_fp8.h's host conversion, and the amax exactly.
// Build: `ninja ew_probe_cast_transpose_staged` (bench/CMakeLists.txt).

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
#include "cast_transpose_staged.cuh"
#include "probe_timing.cuh"

namespace {

using namespace ewp;
using namespace ct_staged;
constexpr float scale = 48.0f;

/// ew's defaults with programmatic launch off: whether it is what sets the probes' timing of ew's
/// cast-transpose apart from ncu's and the cells' (the fifteenth session's notes).
struct no_programmatic_launch {
  template <class Op>
  static constexpr ew::policy_entry entry() {
    ew::policy_entry e{};
    e.launch = ew::tuning::policy_for_cc(90);
    e.launch.programmatic_launch = false;
    return e;
  }
};

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
  std::mt19937 rng(27);
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
  impls.push_back(
      {"ct", [&] { CK(ew_cells::cast_transpose<void>(y8.p, yt8.p, am.p, ws.p, x.p, M, N, scale)); }});
  impls.push_back(
      {"ct_nopdl", [&] {
         CK(ew_cells::cast_transpose<no_programmatic_launch>(y8.p, yt8.p, am.p, ws.p, x.p, M, N, scale));
       }});
  impls.push_back({"direct", [&] { CK((launch_ct<T, 0, false>(y8.p, yt8.p, am.p, x.p, M, N, scale))); }});
  impls.push_back({"s2", [&] { CK((launch_ct<T, 2, false>(y8.p, yt8.p, am.p, x.p, M, N, scale))); }});
  impls.push_back({"s3", [&] { CK((launch_ct<T, 3, false>(y8.p, yt8.p, am.p, x.p, M, N, scale))); }});
  impls.push_back({"s2cs", [&] { CK((launch_ct<T, 2, true>(y8.p, yt8.p, am.p, x.p, M, N, scale))); }});

  if (rounds == 0) {  // each kernel once, untimed, for ncu
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
  const auto us = time_rounds(
      impls, rounds,
      [&] {
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
  if (rounds > 0) std::printf("\n`vs copy` is GB/s over the copy's GB/s, each on its own bytes\n");
  return 0;
}
