// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Probe 10 (issue 21): broadcasts along whole-vector rows as a flat launch. Each thread takes `U` vectors
// of the output in flat order (a block `U * threads` consecutive vectors, a thread's `threads` apart), finds
// each vector's row by a 32-bit division by multiplication and loads what the row broadcasts once a
// vector: what Inductor's kernels do for these cells (one block a tile, no loop). Beside it, ew's own
// launch of the same cell (row kernel or gather path) and ew's 1-D relu over as many elements, same
// timing as the other N-d probes (probe_timing.cuh: median of 15, L2 flushed before each sample).
// Cells: per-channel (x - mean[c]) * inv_std[c] over NCHW [32, 256, 56, 56], and x * col[r], x + b[c]
// over [16384, 1000] (bf16 and f32) and [65536, 4096] (bf16). Every result is checked against a host
// reference.
// Build: `ninja ew_probe_flat_rows` (bench/CMakeLists.txt), or nvcc -std=c++17 -O3 -arch=sm_90 -Iinclude
// -Ibench/torch_cells bench/probes/flat_rows.cu -o flat_rows
#include <cuda_bf16.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include <ew/elementwise.cuh>

#include "cell_ops.cuh"
#include "probe_timing.cuh"

namespace {
using namespace ewp;
using ew::detail::fast_divmod;

enum class cell { channel, column, bias };

template <class T>
struct vec16 {
  static constexpr int n = 16 / sizeof(T);
  T v[n];
};

template <class T>
__device__ __forceinline__ vec16<T> load16(const T* p) {
  const uint4 u = __ldg(reinterpret_cast<const uint4*>(p));
  vec16<T> r;
  std::memcpy(&r, &u, 16);
  return r;
}
template <class T>
__device__ __forceinline__ void store16(T* p, const vec16<T>& r) {
  uint4 u;
  std::memcpy(&u, &r, 16);
  *reinterpret_cast<uint4*>(p) = u;
}

/// The flat launch: vector `v` of the output (`v < vectors`), its row `v / vpr`.
template <cell K, class T, int U, int Threads>
__global__ void __launch_bounds__(Threads)
    flat_kernel(T* __restrict__ y, const T* __restrict__ x, const T* __restrict__ a, const T* __restrict__ b,
                fast_divmod vpr, fast_divmod channels, std::uint32_t vectors) {
  constexpr int n = vec16<T>::n;
  const std::uint32_t base = blockIdx.x * (U * Threads) + threadIdx.x;
  vec16<T> xv[U], bv[U];
  T av[U], sv[U];
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const std::uint32_t v = base + u * Threads;
    if (v < vectors) {
      xv[u] = load16(x + std::size_t{v} * n);
      std::uint32_t row, col;
      vpr.divmod(v, row, col);
      if constexpr (K == cell::channel) {
        const std::uint32_t c = row - channels.div(row) * channels.divisor;
        av[u] = a[c];
        sv[u] = b[c];
      } else if constexpr (K == cell::column) {
        av[u] = a[row];
      } else {
        bv[u] = load16(a + std::size_t{col} * n);
      }
    }
  }
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const std::uint32_t v = base + u * Threads;
    if (v < vectors) {
      vec16<T> r;
#pragma unroll
      for (int j = 0; j < n; ++j) {
        if constexpr (K == cell::channel) {
          r.v[j] = ew_cells::channel_norm<T>{}(xv[u].v[j], av[u], sv[u]);
        } else if constexpr (K == cell::column) {
          r.v[j] = ew::mul<T>{}(xv[u].v[j], av[u]);
        } else {
          r.v[j] = ew::add<T>{}(xv[u].v[j], bv[u].v[j]);
        }
      }
      store16(y + std::size_t{v} * n, r);
    }
  }
}

template <class T>
void fill(std::vector<T>& h, std::mt19937& g) {
  std::uniform_real_distribution<float> d(-2.0f, 2.0f);
  for (auto& v : h) v = from_f<T>(d(g));
}

template <cell K, class T>
void run_cell(const char* name, std::int64_t rows, std::int64_t cols, std::int64_t channels) {
  constexpr int n = vec16<T>::n;
  const std::int64_t total = rows * cols;
  const std::int64_t bcount = K == cell::bias ? cols : K == cell::column ? rows : channels;
  std::mt19937 g(12345);
  std::vector<T> hx(total), ha(bcount), hb(bcount), hy(total);
  fill(hx, g);
  fill(ha, g);
  fill(hb, g);
  device_buf<T> x(total), a(bcount), b(bcount), y(total);
  CK(cudaMemcpy(x.p, hx.data(), total * sizeof(T), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(a.p, ha.data(), bcount * sizeof(T), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(b.p, hb.data(), bcount * sizeof(T), cudaMemcpyHostToDevice));
  auto want = [&](std::int64_t i) -> T {
    const std::int64_t r = i / cols, c = i % cols;
    if constexpr (K == cell::channel) {
      return ew_cells::channel_norm<T>{}(hx[i], ha[r % channels], hb[r % channels]);
    } else if constexpr (K == cell::column) {
      return ew::mul<T>{}(hx[i], ha[r]);
    } else {
      return ew::add<T>{}(hx[i], ha[c]);
    }
  };
  auto check = [&](const char* what) {
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hy.data(), y.p, total * sizeof(T), cudaMemcpyDeviceToHost));
    std::int64_t bad = 0;
    for (std::int64_t i = 0; i < total; ++i) {
      const T w = want(i);
      if (std::memcmp(&hy[i], &w, sizeof(T)) != 0) ++bad;
    }
    if (bad) std::printf("  %s %s: %lld wrong\n", name, what, static_cast<long long>(bad));
    CK(cudaMemset(y.p, 0xff, total * sizeof(T)));
    return bad == 0;
  };
  const double bytes = (2.0 * total + (K == cell::channel ? 2.0 : 1.0) * bcount) * sizeof(T);
  auto report = [&](const char* what, double us) {
    std::printf("%-34s %-22s %9.2f us %7.0f GB/s\n", name, what, us, bytes / us * 1e-3);
  };
  // ew's own launch of the cell.
  const ew::extents<2> e2{rows, cols};
  const ew::extents<3> e3{rows / channels, channels, cols};
  auto ew_cell = [&] {
    if constexpr (K == cell::channel) {
      const auto m = ew::strided(static_cast<const T*>(a.p), e3, ew::strides{0, 1, 0});
      const auto s = ew::strided(static_cast<const T*>(b.p), e3, ew::strides{0, 1, 0});
      CK(ew::elementwise(ew_cells::channel_norm<T>{}, e3, y.p, ew::in(static_cast<const T*>(x.p), m, s)));
    } else if constexpr (K == cell::column) {
      const auto c = ew::strided(static_cast<const T*>(a.p), e2, ew::strides{1, 0});
      CK(ew::elementwise(ew::mul<T>{}, e2, y.p, ew::in(static_cast<const T*>(x.p), c)));
    } else {
      const auto c = ew::strided(static_cast<const T*>(a.p), e2, ew::strides{0, 1});
      CK(ew::elementwise(ew::add<T>{}, e2, y.p, ew::in(static_cast<const T*>(x.p), c)));
    }
  };
  ew_cell();
  check("ew");
  const double t_ew = time_us(ew_cell);
  auto relu = [&] { CK(ew::elementwise(ew::relu<T>{}, total, y.p, static_cast<const T*>(x.p))); };
  const double t_relu = time_us(relu);
  const std::uint32_t vectors = static_cast<std::uint32_t>(total / n);
  const fast_divmod vpr(static_cast<std::uint32_t>(cols / n)), ch(static_cast<std::uint32_t>(channels));
  report("ew", t_ew);
  report("ew 1-D relu", t_relu);
  auto flat = [&](auto u_c, auto t_c, const char* what) {
    constexpr int U = decltype(u_c)::value, Th = decltype(t_c)::value;
    const std::uint32_t blocks = (vectors + U * Th - 1) / (U * Th);
    auto go = [&] {
      flat_kernel<K, T, U, Th><<<blocks, Th>>>(y.p, x.p, a.p, b.p, vpr, ch, vectors);
      CK(cudaGetLastError());
    };
    go();
    if (!check(what)) return;
    report(what, time_us(go));
  };
  using I = std::integral_constant<int, 1>;
  using I2 = std::integral_constant<int, 2>;
  using I4 = std::integral_constant<int, 4>;
  using T128 = std::integral_constant<int, 128>;
  using T256 = std::integral_constant<int, 256>;
  flat(I{}, T128{}, "flat u1 x128");
  flat(I2{}, T128{}, "flat u2 x128");
  flat(I4{}, T128{}, "flat u4 x128");
  flat(I{}, T256{}, "flat u1 x256");
  flat(I2{}, T256{}, "flat u2 x256");
  // Repeat ew's and relu last, interleaved with the best candidates above.
  report("ew (again)", time_us(ew_cell));
  report("ew 1-D relu (again)", time_us(relu));
}

}  // namespace

int main() {
  CK(cudaMalloc(&flush_buf, flush_bytes));
  run_cell<cell::channel, __nv_bfloat16>("channel_norm/bf16/32x256x56x56", 32 * 256, 3136, 256);
  run_cell<cell::channel, float>("channel_norm/f32/32x256x56x56", 32 * 256, 3136, 256);
  run_cell<cell::column, __nv_bfloat16>("col_mul/bf16/16384x1000", 16384, 1000, 1);
  run_cell<cell::column, float>("col_mul/f32/16384x1000", 16384, 1000, 1);
  run_cell<cell::bias, __nv_bfloat16>("bias_add/bf16/16384x1000", 16384, 1000, 1);
  run_cell<cell::bias, float>("bias_add/f32/16384x1000", 16384, 1000, 1);
  run_cell<cell::column, __nv_bfloat16>("col_mul/bf16/65536x4096", 65536, 4096, 1);
  run_cell<cell::bias, __nv_bfloat16>("bias_add/bf16/65536x4096", 65536, 4096, 1);
  std::printf("done\n");
  return 0;
}
