// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Probe 18 (issue 21): what writing rows that end before their pitch costs any kernel. ew's relu into
// padded outputs (rows of 1000 that are 1024 to 2000 apart) runs at 0.91 to 0.96 of its 1-D relu over as
// many elements, even where every store is a whole aligned 16-byte vector (f32 rows 2000 apart). Here the
// simplest kernels that can do the copy are timed beside a dense copy of the same bytes:
// - `dense`: one 16-byte vector a thread, x to y, rows * cols elements (the floor);
// - `flat`: the same threads, each vector's row found by a 32-bit division and stored at
//   `row * pitch + col` in pieces of the rows' alignment (16 bytes where the pitch is a multiple of 16
//   bytes; what ew's pitched form does, without its operands or its op);
// - `block_row`: one block a row, its threads walking the row's vectors (the writes of a row in flight
//   together);
// - `memcpy2d`: cudaMemcpy2DAsync device to device, the toolkit's own;
// - `ew_relu_1d` and `ew_relu_nd`: ew's relu over rows * cols and into the padded rows.
// Same timing as the other N-d probes (probe_timing.cuh: median of 15 after 2 warm-ups, L2 flushed
// before each); the implementations are interleaved, three rounds. `--once` launches each
// once without timing (for ncu: DRAM bytes read and written, L2 write sectors). Every result is checked
// against x (the padding against its poison).
// Build: `ninja ew_probe_pitched_floor` (bench/CMakeLists.txt), or nvcc -std=c++17 -O3 -arch=sm_90 -Iinclude
// bench/probes/pitched_floor.cu -o pitched_floor
#include <cuda_bf16.h>

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

__global__ void dense_copy(const uint4* __restrict__ x, uint4* __restrict__ y, std::uint32_t nv) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nv) y[i] = x[i];
}

/// Stores the 16-byte `v` at `q` in pieces of `P` bytes.
template <int P>
__device__ __forceinline__ void store_pieces(char* q, uint4 v) {
  if constexpr (P == 16) {
    *reinterpret_cast<uint4*>(q) = v;
  } else if constexpr (P == 8) {
    reinterpret_cast<uint2*>(q)[0] = uint2{v.x, v.y};
    reinterpret_cast<uint2*>(q)[1] = uint2{v.z, v.w};
  } else {
    static_assert(P == 4, "pieces of 4, 8 or 16 bytes");
    reinterpret_cast<std::uint32_t*>(q)[0] = v.x;
    reinterpret_cast<std::uint32_t*>(q)[1] = v.y;
    reinterpret_cast<std::uint32_t*>(q)[2] = v.z;
    reinterpret_cast<std::uint32_t*>(q)[3] = v.w;
  }
}

template <int P>
__global__ void flat_pitched(const uint4* __restrict__ x, char* __restrict__ y, std::uint32_t vpr,
                             std::uint32_t nv, std::uint32_t pitch_bytes) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nv) return;
  const std::uint32_t row = i / vpr;
  const std::uint32_t col = i - row * vpr;
  store_pieces<P>(y + static_cast<std::size_t>(row) * pitch_bytes + col * 16u, x[i]);
}

template <int P>
__global__ void block_row_pitched(const uint4* __restrict__ x, char* __restrict__ y, std::uint32_t vpr,
                                  std::uint32_t pitch_bytes) {
  const std::uint32_t row = blockIdx.x;
  const uint4* src = x + static_cast<std::size_t>(row) * vpr;
  char* dst = y + static_cast<std::size_t>(row) * pitch_bytes;
  for (std::uint32_t c = threadIdx.x; c < vpr; c += blockDim.x) store_pieces<P>(dst + c * 16u, src[c]);
}

template <class T>
const char* type_name() {
  return std::is_same_v<T, float> ? "f32" : "bf16";
}

struct cell {
  std::uint32_t rows, cols, pitch;
};

template <class T>
void run(const cell& c, bool once, int rounds) {
  const std::size_t n = std::size_t{c.rows} * c.cols;
  const std::size_t ny = std::size_t{c.rows} * c.pitch;
  device_buf<T> x(n), y(ny);
  std::vector<T> hx(n);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  for (auto& v : hx) v = from_f<T>(u(rng));
  CK(cudaMemcpy(x.p, hx.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  const std::uint32_t row_bytes = c.cols * sizeof(T), pitch_bytes = c.pitch * sizeof(T);
  const bool whole_vectors = row_bytes % 16 == 0;
  const std::uint32_t nv = static_cast<std::uint32_t>(n * sizeof(T) / 16), vpr = row_bytes / 16;
  const int piece = pitch_bytes % 16 == 0 ? 16 : pitch_bytes % 8 == 0 ? 8 : pitch_bytes % 4 == 0 ? 4 : 0;
  const ew::extents ex{c.rows, c.cols};

  struct impl {
    std::string name;
    bool pitched;  // writes y as padded rows (else dense)
    std::function<void()> launch;
  };
  std::vector<impl> impls;
  if (n % (16 / sizeof(T)) == 0) {
    impls.push_back({"dense", false, [&] {
                       dense_copy<<<(nv + 127) / 128, 128>>>(reinterpret_cast<const uint4*>(x.p),
                                                             reinterpret_cast<uint4*>(y.p), nv);
                     }});
  }
  impls.push_back({"ew_relu_1d", false, [&] { CK(ew::elementwise(ew::relu<T>{}, n, y.p, x.p)); }});
  if (c.pitch != c.cols) {
    if (whole_vectors && piece != 0) {
      auto flat = [&](auto p) {
        constexpr int P = decltype(p)::value;
        flat_pitched<P><<<(nv + 127) / 128, 128>>>(reinterpret_cast<const uint4*>(x.p),
                                                   reinterpret_cast<char*>(y.p), vpr, nv, pitch_bytes);
      };
      auto block = [&](auto p) {
        constexpr int P = decltype(p)::value;
        block_row_pitched<P><<<c.rows, 128>>>(reinterpret_cast<const uint4*>(x.p),
                                              reinterpret_cast<char*>(y.p), vpr, pitch_bytes);
      };
      impls.push_back({"flat", true, [&, flat] {
                         if (piece == 16)
                           flat(std::integral_constant<int, 16>{});
                         else if (piece == 8)
                           flat(std::integral_constant<int, 8>{});
                         else
                           flat(std::integral_constant<int, 4>{});
                       }});
      impls.push_back({"block_row", true, [&, block] {
                         if (piece == 16)
                           block(std::integral_constant<int, 16>{});
                         else if (piece == 8)
                           block(std::integral_constant<int, 8>{});
                         else
                           block(std::integral_constant<int, 4>{});
                       }});
    }
    impls.push_back({"memcpy2d", true, [&] {
                       CK(cudaMemcpy2DAsync(y.p, pitch_bytes, x.p, row_bytes, row_bytes, c.rows,
                                            cudaMemcpyDeviceToDevice));
                     }});
    impls.push_back(
        {"ew_relu_nd", true, [&] {
           CK(ew::elementwise(ew::relu<T>{}, ex, ew::out(ew::strided(y.p, ex, ew::strides{c.pitch, 1})),
                              ew::in(ew::strided(static_cast<const T*>(x.p), ex, ew::strides{c.cols, 1}))));
         }});
  }

  // Check each once: y poisoned, then every written element against x (relu for the ew rows), the padding
  // untouched.
  std::vector<T> hy(ny);
  for (auto& m : impls) {
    CK(cudaMemset(y.p, 0xff, ny * sizeof(T)));
    m.launch();
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hy.data(), y.p, ny * sizeof(T), cudaMemcpyDeviceToHost));
    const bool relu = m.name.rfind("ew_relu", 0) == 0;
    const std::size_t pitch = m.pitched ? c.pitch : c.cols;
    std::size_t bad = 0;
    for (std::size_t r = 0; r < c.rows; ++r) {
      for (std::size_t k = 0; k < pitch && r * pitch + k < ny; ++k) {
        const T got = hy[r * pitch + k];
        T want;
        if (k < c.cols) {
          want = hx[r * c.cols + k];
          if (relu && static_cast<float>(want) < 0.0f) want = from_f<T>(0.0f);
        } else {
          std::memset(&want, 0xff, sizeof(T));
        }
        if (std::memcmp(&got, &want, sizeof(T)) != 0) ++bad;
      }
    }
    if (bad) {
      std::printf("CHECK FAILED %s %s %ux%u pitch %u: %zu wrong\n", m.name.c_str(), type_name<T>(), c.rows,
                  c.cols, c.pitch, bad);
      std::exit(2);
    }
  }
  if (once) {
    for (auto& m : impls) m.launch();
    CK(cudaDeviceSynchronize());
    return;
  }
  const double bytes = 2.0 * static_cast<double>(n) * sizeof(T);
  for (int r = 0; r < rounds; ++r) {
    std::vector<double> us;
    for (auto& m : impls) us.push_back(time_us(m.launch));
    for (std::size_t i = 0; i < impls.size(); ++i) {
      std::printf("| %s | %ux%u | %u | %s | %d | %.2f | %.0f | %.3f |\n", type_name<T>(), c.rows, c.cols,
                  c.pitch, impls[i].name.c_str(), r + 1, us[i], bytes / us[i] / 1e3, us[0] / us[i]);
    }
  }
}
}  // namespace

int main(int argc, char** argv) {
  bool once = argc > 1 && std::strcmp(argv[1], "--once") == 0;
  CK(cudaMalloc(&flush_buf, flush_bytes));
  const cell cells[] = {{16384, 1000, 1024}, {16384, 1000, 1250}, {16384, 1000, 1500}, {16384, 1000, 2000},
                        {65536, 1000, 2000}, {65536, 1000, 1250}, {16411, 1021, 1031}};
  std::printf("| type | rows x cols | pitch | impl | round | us | GB/s | first row's time / this |\n");
  std::printf("|---|---|---:|---|---:|---:|---:|---:|\n");
  for (const cell& c : cells) {
    run<float>(c, once, 3);
    run<__nv_bfloat16>(c, once, 3);
  }
  CK(cudaFree(flush_buf));
  return 0;
}
