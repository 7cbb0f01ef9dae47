// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Probe 25 (issue 22): dropout's random words, in one process beside ew's relu over as many elements:
//   relu          ew::relu, the bar (issue 22: bf16 dropout at >= 0.97 of it)
//   drop32        ew::dropout over ew::random_bits (one 32-bit word an element, four from a Philox block),
//                 the values alone (ew::discard)
//   drop16        the same over ew::random_bits16 (change 63: 16 bits an element, eight from a block)
//   drop32_mask, drop16_mask   with a bool mask (GB/s and the ratio count the mask's byte too)
// bf16 and f32 at 2^24, 2^26 and 2^28, p = 0.1, inputs uniform in [-4, 4). Median of 15 launches, L2
// flushed before each (probe_timing.cuh), every row `rounds` times interleaved (the first
// argument, default 2; 0: each kernel once at 2^26, untimed, for ncu); outputs poisoned before each launch
// and every 61st element of every launch checked against the host's ew::dropout over the host's operand (bit
// for bit: both are the same multiplication by the float scale), and the kept fraction within 6 standard
// deviations of 0.9.
// Build: `ninja ew_probe_dropout_words` (bench/CMakeLists.txt).

#include <cuda_bf16.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <ew/elementwise.cuh>

#include "probe_timing.cuh"

namespace {

using namespace ewp;

constexpr double p_drop = 0.1;

template <class T>
void run(const char* type, int log2n, int rounds) {
  const std::size_t n = std::size_t{1} << log2n;
  device_buf<T> x(n), y(n);
  device_buf<bool> mask(n);
  std::vector<T> hx(n), hy(n);
  std::vector<unsigned char> hm(n);
  std::mt19937 rng(25);
  std::uniform_real_distribution<float> u(-4.0f, 4.0f);
  for (auto& v : hx) v = from_f<T>(u(rng));
  CK(cudaMemcpy(x.p, hx.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  const ew::philox_seed key{0x20261206ull, 25};
  const ew::dropout<T> d(p_drop);
  const ew::detail::random_input<ew::random_kind::bits, false> w32{key, nullptr};
  const ew::detail::random_input<ew::random_kind::bits16, false> w16{key, nullptr};

  struct impl {
    std::string name;
    std::function<void()> launch;
    int words;  // 0: relu, 32 or 16
    bool with_mask;
  };
  std::vector<impl> impls;
  impls.push_back({"relu", [&] { CK(ew::elementwise(ew::relu<T>{}, n, y.p, x.p)); }, 0, false});
  impls.push_back(
      {"drop32",
       [&] { CK(ew::elementwise(d, n, ew::out(y.p, ew::discard), ew::in(x.p, ew::random_bits(key)))); }, 32,
       false});
  impls.push_back(
      {"drop16",
       [&] { CK(ew::elementwise(d, n, ew::out(y.p, ew::discard), ew::in(x.p, ew::random_bits16(key)))); }, 16,
       false});
  impls.push_back(
      {"drop32_mask",
       [&] { CK(ew::elementwise(d, n, ew::out(y.p, mask.p), ew::in(x.p, ew::random_bits(key)))); }, 32,
       true});
  impls.push_back(
      {"drop16_mask",
       [&] { CK(ew::elementwise(d, n, ew::out(y.p, mask.p), ew::in(x.p, ew::random_bits16(key)))); }, 16,
       true});

  if (rounds == 0) {  // each kernel once, untimed, for ncu (`ew_probe_dropout_words 0`)
    for (const impl& m : impls) m.launch();
    CK(cudaDeviceSynchronize());
    return;
  }
  const auto check = [&](std::size_t i) {
    const impl& m = impls[i];
    CK(cudaMemcpy(hy.data(), y.p, n * sizeof(T), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hm.data(), mask.p, n, cudaMemcpyDeviceToHost));
    std::size_t bad = 0, kept = 0, seen = 0;
    for (std::size_t e = 0; e < n; e += 61, ++seen) {
      T want;
      bool keep = false;
      if (m.words == 0) {
        want = ew::relu<T>{}(hx[e]);
      } else {
        const auto r2 = m.words == 32 ? d(hx[e], w32.element(e)) : d(hx[e], w16.element(e));
        want = cuda::std::get<0>(r2);
        keep = cuda::std::get<1>(r2);
        kept += keep;
      }
      bad += std::memcmp(&want, &hy[e], sizeof(T)) != 0;
      if (m.with_mask) bad += hm[e] != (keep ? 1 : 0);
    }
    const double mean = seen * (1 - p_drop), sd = std::sqrt(seen * p_drop * (1 - p_drop));
    if (bad != 0 || (m.words != 0 && std::fabs(kept - mean) > 6 * sd)) {
      std::printf("%s %s 2^%d: %zu sampled elements wrong, %zu of %zu kept\n", type, m.name.c_str(), log2n,
                  bad, kept, seen);
      std::exit(1);
    }
  };
  const auto us = time_rounds(
      impls, rounds,
      [&] {
        CK(cudaMemsetAsync(y.p, 0xff, n * sizeof(T)));
        CK(cudaMemsetAsync(mask.p, 0xee, n));
      },
      check);
  const std::string size = "2^" + std::to_string(log2n);
  print_rows(type, size.c_str(), impls, us,
             [&](std::size_t k) { return n * (2.0 * sizeof(T) + (impls[k].with_mask ? 1.0 : 0.0)); });
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 2;
  if (rounds > 0) begin_table("relu");
  for (int e : {24, 26, 28}) {
    if (rounds == 0 && e != 26) continue;
    run<__nv_bfloat16>("bf16", e, rounds);
    run<float>("f32", e, rounds);
  }
  if (rounds > 0)
    std::printf(
        "\n_mask rows: GB/s counts the mask's byte an element, and `vs relu` is GB/s over relu's GB/s\n");
  return 0;
}
