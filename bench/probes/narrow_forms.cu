// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Probe 24 (issue 23): the 16-bit catalog ops that ran below 0.97 of relu on the H200 (eighth session),
// under their forms and launch shapes, in one process beside ew's relu over as many elements:
//   erf       ew::erf (change 60: one float form, t P(t^2) / Q(t^2))
//   erf_libm  the form before change 60: CUDA's erff, rounded once (`down(erf(up(x)))`)
//   gelu      ew::gelu (detail::gelu_narrow)
//   sin       ew::sin (change 62: detail::sin_cos_narrow, a reduction by pi and r P(r^2))
//   sin_libm  the form before change 62: CUDA's sinf, rounded once
//   cos, cos_libm  the same for cos
// each through ew's 1-D launch with its default shape (2 vectors a thread, 128 threads) and with one vector
// a thread (`_v1`: a policy with `loads_in_flight = 1`, 256 threads; fewer elements a thread to interleave,
// so fewer registers and more resident warps, at half the bytes in flight a thread). bf16 and f16 at 2^26 and
// 2^28, inputs uniform in [-4, 4). Median of 15 launches, L2 flushed before each (probe_timing.cuh)
// (probe_timing.cuh), every row `rounds` times interleaved (the first argument, default 2; 0: each kernel
// once at 2^26, untimed, for ncu); each result checked against the host's ew functor within 1 ulp (the same
// code, but the host's exact division and exp2 stand for the GPU's approximate instructions, which move a
// near-tie by one ulp: 67 of 1.1 M f16 erf values on the first run; the tests prove the bounds), and the
// `_libm` forms against ew's op within 1 ulp.
// Build: `ninja ew_probe_narrow_forms` (bench/CMakeLists.txt); ptxas's registers: add `-Xptxas=-v`.

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <ew/elementwise.cuh>

#include "probe_timing.cuh"

namespace {

using namespace ewp;

/// The pre-change-60 erf of a 16-bit type: CUDA's erff, one rounding.
template <class T>
struct erf_libm {
  EW_HD T operator()(T x) const { return ew::down<T>(cuda::std::erf(ew::up(x))); }
};

/// The pre-change-62 sin and cos of a 16-bit type: CUDA's sinf and cosf, one rounding.
template <class T>
struct sin_libm {
  EW_HD T operator()(T x) const { return ew::down<T>(cuda::std::sin(ew::up(x))); }
};
template <class T>
struct cos_libm {
  EW_HD T operator()(T x) const { return ew::down<T>(cuda::std::cos(ew::up(x))); }
};

/// ew's defaults with one 16-byte vector a thread.
struct one_vector_policy {
  template <class Op>
  static constexpr ew::policy_entry entry() {
    ew::policy_entry e{};
    e.shape.loads_in_flight = 1;
    return e;
  }
};

template <class T>
std::uint16_t bits(T v) {
  std::uint16_t b;
  std::memcpy(&b, &v, 2);
  return b;
}

template <class T>
void run(const char* type, int log2n, int rounds) {
  const std::size_t n = std::size_t{1} << log2n;
  device_buf<T> x(n), y(n);
  std::vector<T> hx(n), hy(n);
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-4.0f, 4.0f);
  for (auto& v : hx) v = ew::down<T>(u(rng));
  CK(cudaMemcpy(x.p, hx.data(), n * sizeof(T), cudaMemcpyHostToDevice));

  struct impl {
    std::string name;
    std::function<void()> launch;
    std::function<T(T)> host;  // what each element must be
  };
  const auto add = [&](std::vector<impl>& v, const char* name, auto op) {
    using Op = decltype(op);
    v.push_back({name, [=, &x, &y] { CK(ew::elementwise(op, n, y.p, x.p)); }, [op](T a) { return op(a); }});
    v.push_back({std::string(name) + "_v1",
                 [=, &x, &y] { CK(ew::elementwise<one_vector_policy>(Op{}, n, y.p, x.p)); },
                 [op](T a) { return op(a); }});
  };
  std::vector<impl> impls;
  add(impls, "relu", ew::relu<T>{});
  add(impls, "erf", ew::erf<T>{});
  add(impls, "erf_libm", erf_libm<T>{});
  add(impls, "gelu", ew::gelu<T>{});
  add(impls, "sin", ew::sin<T>{});
  add(impls, "sin_libm", sin_libm<T>{});
  add(impls, "cos", ew::cos<T>{});
  add(impls, "cos_libm", cos_libm<T>{});

  if (rounds == 0) {  // each kernel once, untimed, for ncu (`ew_probe_narrow_forms 0`)
    for (const impl& m : impls) m.launch();
    CK(cudaDeviceSynchronize());
    return;
  }
  const auto check = [&](std::size_t i) {
    CK(cudaMemcpy(hy.data(), y.p, n * sizeof(T), cudaMemcpyDeviceToHost));
    std::size_t bad = 0, far = 0;
    for (std::size_t e = 0; e < n; e += 61) {
      const int d = int(bits(hy[e])) - int(bits(impls[i].host(hx[e])));
      const bool exact = impls[i].name.rfind("relu", 0) == 0;  // no approximate instruction in it
      bad += exact ? d != 0 : d > 1 || d < -1;
      const std::string& nm = impls[i].name;
      if (nm.find("_libm") != std::string::npos) {  // the library's form against ew's, within 1 ulp
        const T want = nm.rfind("erf", 0) == 0   ? ew::erf<T>{}(hx[e])
                       : nm.rfind("sin", 0) == 0 ? ew::sin<T>{}(hx[e])
                                                 : ew::cos<T>{}(hx[e]);
        const int de = int(bits(hy[e])) - int(bits(want));
        far += de > 1 || de < -1;
      }
    }
    if (bad != 0 || far != 0) {
      std::printf("%s %s 2^%d: %zu elements more than 1 ulp from the host's, %zu from ew's op\n", type,
                  impls[i].name.c_str(), log2n, bad, far);
      std::exit(1);
    }
  };
  const auto us = time_rounds(
      impls, rounds, [&] { CK(cudaMemsetAsync(y.p, 0xff, n * sizeof(T))); }, check);
  const std::string size = "2^" + std::to_string(log2n);
  print_rows(type, size.c_str(), impls, us, [&](std::size_t) { return 2.0 * n * sizeof(T); });
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 2;
  if (rounds > 0) begin_table("relu");
  for (int e : {26, 28}) {
    if (rounds == 0 && e != 26) break;
    run<__nv_bfloat16>("bf16", e, rounds);
    run<__half>("f16", e, rounds);
  }
  return 0;
}
