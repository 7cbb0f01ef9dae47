// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Probe 11 (issue 21): what of the vector-row kernel costs its 3 to 6% against probe 10's flat kernel and
// ew's own 1-D relu on the bf16 broadcast cells. Probe 10's flat kernel (one vector a thread, the row by a
// 32-bit division by multiplication, `__ldg` loads, no programmatic-launch wait) with ew's parts added one
// at a time, `Mode` bits:
//   1  ew's loads: the vector through `ew::detail::load_vector` (inline `ld.global.v4`, default caching),
//      the broadcast elements as plain loads, no `__restrict__` (probe 10: `ld.global.nc` throughout)
//   2  the programmatic-launch wait at the top (`griddepcontrol.wait`; the launch does not ask for it, so
//      it returns at once, as in ew's timed launches that follow a memset)
//   4  x's address from the row's coordinates (`row * cols + col`), as the vector-row kernel finds an
//      array's offset, instead of the vector's own index
// beside ew's launch of the cell (the vector-row kernel in blocks of 256 and of 128 threads) and ew's 1-D
// relu over as many elements. Median of 15 launches, L2 flushed before each (probe_timing.cuh)
// (probe_timing.cuh); the sequence twice, interleaved. `once` as the first argument runs every launch once,
// untimed (for ncu). Every result is checked against a host reference.
// Build: `ninja ew_probe_vector_row_parts` (bench/CMakeLists.txt).

#include <cuda_bf16.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <type_traits>
#include <vector>

#include <ew/elementwise.cuh>

#include "cell_ops.cuh"
#include "probe_timing.cuh"

namespace {

using namespace ewp;
using ew::detail::fast_divmod;

enum class cell { channel, column, bias };

bool once = false;

template <class T>
struct vec16 {
  static constexpr int n = 16 / sizeof(T);
  T v[n];
};

template <int Mode, class T>
__device__ __forceinline__ vec16<T> load16(const T* p) {
  vec16<T> r;
  if constexpr ((Mode & 1) != 0) {
    const auto w = ew::detail::load_vector<vec16<T>::n>(p);
    std::memcpy(&r, &w, 16);
  } else {
    const uint4 u = __ldg(reinterpret_cast<const uint4*>(p));
    std::memcpy(&r, &u, 16);
  }
  return r;
}

template <int Mode, class T>
__device__ __forceinline__ T load1(const T* p) {
  if constexpr ((Mode & 1) != 0) {
    return *p;
  } else {
    return __ldg(p);
  }
}

template <class T>
__device__ __forceinline__ void store16(T* p, const vec16<T>& r) {
  uint4 u;
  std::memcpy(&u, &r, 16);
  *reinterpret_cast<uint4*>(p) = u;
}

template <cell K, class T, int Mode, int Threads>
__global__ void __launch_bounds__(Threads)
    flat_kernel(T* y, const T* x, const T* a, const T* b, fast_divmod vpr, fast_divmod channels,
                std::uint32_t vectors, std::uint32_t cols) {
  if constexpr ((Mode & 2) != 0) {
    NV_IF_TARGET(NV_PROVIDES_SM_90, (cudaGridDependencySynchronize();));
  }
  constexpr int n = vec16<T>::n;
  const std::uint32_t v = blockIdx.x * Threads + threadIdx.x;
  if (v >= vectors) return;
  std::uint32_t row, col;
  vpr.divmod(v, row, col);
  const std::uint32_t xi = (Mode & 4) != 0 ? row * cols + col * n : v * n;
  const vec16<T> xv = load16<Mode>(x + xi);
  T av{}, sv{};
  vec16<T> bv{};
  if constexpr (K == cell::channel) {
    const std::uint32_t c = row - channels.div(row) * channels.divisor;
    av = load1<Mode>(a + c);
    sv = load1<Mode>(b + c);
  } else if constexpr (K == cell::column) {
    av = load1<Mode>(a + row);
  } else {
    bv = load16<Mode>(a + std::size_t{col} * n);
  }
  vec16<T> r;
#pragma unroll
  for (int j = 0; j < n; ++j) {
    if constexpr (K == cell::channel) {
      r.v[j] = ew_cells::channel_norm<T>{}(xv.v[j], av, sv);
    } else if constexpr (K == cell::column) {
      r.v[j] = ew::mul<T>{}(xv.v[j], av);
    } else {
      r.v[j] = ew::add<T>{}(xv.v[j], bv.v[j]);
    }
  }
  store16(y + std::size_t{v} * n, r);
}

/// ew's defaults but for the vector-row kernel's block.
template <int Threads>
struct vector_rows_of {
  template <class Op>
  static constexpr ew::policy_entry entry() {
    ew::policy_entry e{};
    e.nd.vector_row_threads = Threads;
    return e;
  }
};

template <cell K, class T>
void run_cell(const char* name, std::int64_t rows, std::int64_t cols, std::int64_t channels) {
  constexpr int n = vec16<T>::n;
  const std::int64_t total = rows * cols;
  const std::int64_t bcount = K == cell::bias ? cols : K == cell::column ? rows : channels;
  std::mt19937 g(12345);
  std::uniform_real_distribution<float> d(-2.0f, 2.0f);
  std::vector<T> hx(total), ha(bcount), hb(bcount), hy(total);
  for (auto& v : hx) v = from_f<T>(d(g));
  for (auto& v : ha) v = from_f<T>(d(g));
  for (auto& v : hb) v = from_f<T>(d(g));
  device_buf<T> x(total), a(bcount), b(bcount), y(total);
  CK(cudaMemcpy(x.p, hx.data(), total * sizeof(T), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(a.p, ha.data(), bcount * sizeof(T), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(b.p, hb.data(), bcount * sizeof(T), cudaMemcpyHostToDevice));
  CK(cudaMemset(y.p, 0xff, total * sizeof(T)));
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
  auto check = [&](const char* what, bool relu) {
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hy.data(), y.p, total * sizeof(T), cudaMemcpyDeviceToHost));
    std::int64_t bad = 0;
    for (std::int64_t i = 0; i < total; ++i) {
      const T w = relu ? ew::relu<T>{}(hx[i]) : want(i);
      if (std::memcmp(&hy[i], &w, sizeof(T)) != 0) ++bad;
    }
    if (bad) std::printf("  %s %s: %lld wrong\n", name, what, static_cast<long long>(bad));
    CK(cudaMemset(y.p, 0xff, total * sizeof(T)));
    return bad == 0;
  };
  const double bytes = (2.0 * total + (K == cell::channel ? 2.0 : 1.0) * bcount) * sizeof(T);
  const ew::extents<2> e2{rows, cols};
  const ew::extents<3> e3{rows / channels, channels, cols};
  auto ew_cell = [&](auto policy) {
    using P = decltype(policy);
    return [&, e2, e3] {
      if constexpr (K == cell::channel) {
        const auto m = ew::strided(static_cast<const T*>(a.p), e3, ew::strides{0, 1, 0});
        const auto s = ew::strided(static_cast<const T*>(b.p), e3, ew::strides{0, 1, 0});
        CK(ew::elementwise<P>(ew_cells::channel_norm<T>{}, e3, y.p,
                              ew::in(static_cast<const T*>(x.p), m, s)));
      } else if constexpr (K == cell::column) {
        const auto c = ew::strided(static_cast<const T*>(a.p), e2, ew::strides{1, 0});
        CK(ew::elementwise<P>(ew::mul<T>{}, e2, y.p, ew::in(static_cast<const T*>(x.p), c)));
      } else {
        const auto c = ew::strided(static_cast<const T*>(a.p), e2, ew::strides{0, 1});
        CK(ew::elementwise<P>(ew::add<T>{}, e2, y.p, ew::in(static_cast<const T*>(x.p), c)));
      }
    };
  };
  struct entry {
    const char* what;
    std::function<void()> go;
    bool relu;
    std::vector<double> us;
  };
  std::vector<entry> es;
  es.push_back({"ew (256)", ew_cell(vector_rows_of<256>{}), false, {}});
  es.push_back({"ew (128)", ew_cell(vector_rows_of<128>{}), false, {}});
  es.push_back({"ew 1-D relu",
                [&] { CK(ew::elementwise(ew::relu<T>{}, total, y.p, static_cast<const T*>(x.p))); },
                true,
                {}});
  const std::uint32_t vectors = static_cast<std::uint32_t>(total / n);
  const fast_divmod vpr(static_cast<std::uint32_t>(cols / n)), ch(static_cast<std::uint32_t>(channels));
  auto flat = [&](auto mode_c, auto t_c, const char* what) {
    constexpr int Mode = decltype(mode_c)::value, Th = decltype(t_c)::value;
    const std::uint32_t blocks = (vectors + Th - 1) / Th;
    es.push_back({what,
                  [=, &y, &x, &a, &b] {
                    flat_kernel<K, T, Mode, Th><<<blocks, Th>>>(y.p, x.p, a.p, b.p, vpr, ch, vectors,
                                                                static_cast<std::uint32_t>(cols));
                    CK(cudaGetLastError());
                  },
                  false,
                  {}});
  };
  using T128 = std::integral_constant<int, 128>;
  using T256 = std::integral_constant<int, 256>;
  flat(std::integral_constant<int, 0>{}, T128{}, "flat (probe 10) x128");
  flat(std::integral_constant<int, 1>{}, T128{}, "+ew loads x128");
  flat(std::integral_constant<int, 3>{}, T128{}, "+ew loads +wait x128");
  flat(std::integral_constant<int, 7>{}, T128{}, "+ew loads +wait +coords x128");
  flat(std::integral_constant<int, 7>{}, T256{}, "+ew loads +wait +coords x256");
  for (auto& e : es) {
    e.go();
    if (!check(e.what, e.relu)) return;
  }
  if (once) return;
  for (int rep = 0; rep < 2; ++rep) {
    for (auto& e : es) e.us.push_back(time_us(e.go));
  }
  for (auto& e : es) {
    std::printf("%-32s %-30s", name, e.what);
    for (double us : e.us) std::printf(" %8.2f us %6.0f GB/s", us, bytes / us * 1e-3);
    std::printf("\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  once = argc > 1 && std::strcmp(argv[1], "once") == 0;
  CK(cudaMalloc(&flush_buf, flush_bytes));
  run_cell<cell::channel, __nv_bfloat16>("channel_norm/bf16/32x256x56x56", 32 * 256, 3136, 256);
  run_cell<cell::column, __nv_bfloat16>("col_mul/bf16/16384x1000", 16384, 1000, 1);
  run_cell<cell::bias, __nv_bfloat16>("bias_add/bf16/16384x1000", 16384, 1000, 1);
  run_cell<cell::bias, __nv_bfloat16>("bias_add/bf16/65536x4096", 65536, 4096, 1);
  run_cell<cell::channel, float>("channel_norm/f32/32x256x56x56", 32 * 256, 3136, 256);
  std::printf("done\n");
  return 0;
}
