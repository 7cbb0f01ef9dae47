// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// Probe 27's hand-written FP8 cast-transpose kernels (cast_transpose_staged.cu says what each does and why),
// shared by the probe and by libew_cast_transpose_staged.so (cast_transpose_staged_lib.cu), which
// torch_fused_cells.py times beside ew's launch (--variant-lib). One translation unit a binary: the amax's
// partials are this header's globals.

#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_pipeline_primitives.h>
#include <cuda_runtime.h>

#include <cub/block/block_reduce.cuh>
#include <cuda/functional>

#include <cstdint>

namespace ct_staged {

using fp8 = __nv_fp8_e4m3;

/// The tile of the hand-written kernels for x's type `T`.
template <class T>
struct tile_cfg {
  static constexpr int tm = 128;                         // x's rows a tile: yt8's row bytes
  static constexpr int row_bytes = 256;                  // x's bytes a tile row
  static constexpr int tn = row_bytes / int(sizeof(T));  // x's columns a tile: yt8's rows
  static constexpr int ni = tn / 8, mi = tm / 8;         // threads along a tile's rows and columns
  static constexpr int threads = ni * mi;                // 256 (bf16), 128 (f32)
  static constexpr int x_bytes = tm * row_bytes;         // 32 KiB a stage
  static constexpr int yt_bytes = tn * tm;               // the staged yt8 tile
  static constexpr int smem(int stages) { return stages * x_bytes + yt_bytes; }
};

/// 8 elements of x at `p` (16 or 32 bytes, aligned) as floats.
template <class T>
__device__ inline void load8(const T* p, float (&f)[8]) {
  if constexpr (sizeof(T) == 2) {
    const uint4 w = *reinterpret_cast<const uint4*>(p);
    const __nv_bfloat162* h = reinterpret_cast<const __nv_bfloat162*>(&w);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const float2 v = __bfloat1622float2(h[j]);
      f[2 * j] = v.x;
      f[2 * j + 1] = v.y;
    }
  } else {
    const float4 a = reinterpret_cast<const float4*>(p)[0], b = reinterpret_cast<const float4*>(p)[1];
    f[0] = a.x, f[1] = a.y, f[2] = a.z, f[3] = a.w, f[4] = b.x, f[5] = b.y, f[6] = b.z, f[7] = b.w;
  }
}

template <bool Streaming, class W, class P>
__device__ inline void store(P* p, W w) {
  if constexpr (Streaming) {
    __stcs(reinterpret_cast<W*>(p), w);
  } else {
    *reinterpret_cast<W*>(p) = w;
  }
}

constexpr int ct_max_blocks = 65536;
__device__ float ct_partials[ct_max_blocks];
__device__ unsigned ct_done;

/// Stages == 0: x straight into registers, tile `blockIdx.x` alone. Otherwise `Stages` buffers of x's tiles
/// filled by cp.async, the block's tiles `blockIdx.x + k * gridDim.x`.
template <class T, int Stages, bool Streaming>
__global__ void __launch_bounds__(tile_cfg<T>::threads)
    ct_kernel(const T* __restrict__ x, fp8* __restrict__ y, fp8* __restrict__ yt, float* amax, std::int64_t M,
              std::int64_t N, float s, std::int64_t tiles_n, std::int64_t tiles) {
  using C = tile_cfg<T>;
  extern __shared__ __align__(128) unsigned char smem[];
  unsigned char* ys = smem + Stages * C::x_bytes;
  const int tid = static_cast<int>(threadIdx.x);
  const int ni = tid % C::ni, mi = tid / C::ni;
  float am = 0.0f;
  const auto issue = [&](std::int64_t tile, int stage) {
    if constexpr (Stages > 0) {
      if (tile < tiles) {
        const std::int64_t m0 = tile / tiles_n * C::tm, n0 = tile % tiles_n * C::tn;
        const char* g = reinterpret_cast<const char*>(x + m0 * N + n0);
        unsigned char* d = smem + stage * C::x_bytes;
        for (int c = tid; c < C::x_bytes / 16; c += C::threads) {
          const int r = c / (C::row_bytes / 16), k = c % (C::row_bytes / 16);
          __pipeline_memcpy_async(d + r * C::row_bytes + k * 16,
                                  g + r * N * static_cast<std::int64_t>(sizeof(T)) + k * 16, 16);
        }
      }
      __pipeline_commit();  // also when empty, so that every iteration waits on the same count
    }
  };
  std::int64_t tile = blockIdx.x;
  for (int k = 0; k + 1 < Stages; ++k) issue(tile + k * std::int64_t{gridDim.x}, k);
  int stage = 0;
  for (; tile < tiles; tile += (Stages > 0 ? gridDim.x : tiles)) {
    const std::int64_t m0 = tile / tiles_n * C::tm, n0 = tile % tiles_n * C::tn;
    if constexpr (Stages > 0) {
      issue(tile + (Stages - 1) * std::int64_t{gridDim.x}, (stage + Stages - 1) % Stages);
      __pipeline_wait_prior(Stages - 1);
      __syncthreads();
    }
    const unsigned char* xs = smem + stage * C::x_bytes;
    std::uint64_t col[8] = {};  // column j's 8 bytes of yt8, rows mi * 8 ... + 7
#pragma unroll
    for (int r = 0; r < 8; ++r) {
      const int row = mi * 8 + r;
      float f[8];
      if constexpr (Stages > 0) {
        load8(reinterpret_cast<const T*>(xs + row * C::row_bytes) + ni * 8, f);
      } else {
        load8(x + (m0 + row) * N + n0 + ni * 8, f);
      }
      std::uint64_t q = 0;
#pragma unroll
      for (int j = 0; j < 8; j += 2) {
        am = fmaxf(am, fmaxf(fabsf(f[j]), fabsf(f[j + 1])));
        const __nv_fp8x2_storage_t p =
            __nv_cvt_float2_to_fp8x2(make_float2(f[j] * s, f[j + 1] * s), __NV_SATFINITE, __NV_E4M3);
        q |= static_cast<std::uint64_t>(p) << (8 * j);
      }
      store<Streaming>(y + (m0 + row) * N + n0 + ni * 8, q);
#pragma unroll
      for (int j = 0; j < 8; ++j) col[j] |= (q >> (8 * j) & 0xff) << (8 * r);
    }
    // yt8's staged tile: row `nl` (x's column n0 + nl) holds 16 chunks of 8 bytes (x's rows 8k ... 8k + 7),
    // chunk k at k ^ (nl / 8 % 16).
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const int nl = ni * 8 + j;
      *reinterpret_cast<std::uint64_t*>(ys + nl * C::tm + ((mi ^ (ni & 15)) * 8)) = col[j];
    }
    __syncthreads();
    for (int c = tid; c < C::yt_bytes / 16; c += C::threads) {
      const int nl = c / (C::tm / 16), c16 = c % (C::tm / 16);
      const int sw = nl / 8 % 16;
      uint4 w = *reinterpret_cast<const uint4*>(ys + nl * C::tm + ((c16 ^ (sw >> 1)) * 16));
      if (sw & 1) w = make_uint4(w.z, w.w, w.x, w.y);
      store<Streaming>(yt + (n0 + nl) * M + m0 + c16 * 16, w);
    }
    __syncthreads();
    if constexpr (Stages > 0) stage = (stage + 1) % Stages;
  }
  if constexpr (Stages > 0) __pipeline_wait_prior(0);
  // The amax: each block's to `ct_partials`, the last block to finish combines them and overwrites `amax`
  // (as ew's side reductions do, so that no launch needs a reset first).
  using block_reduce = cub::BlockReduce<float, C::threads>;
  __shared__ typename block_reduce::TempStorage reduce_storage;
  am = block_reduce(reduce_storage).Reduce(am, cuda::maximum<>{});  // thread 0's
  __shared__ bool last;
  if (tid == 0) {
    ct_partials[blockIdx.x] = am;
    __threadfence();
    last = atomicAdd(&ct_done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  am = 0.0f;
  for (unsigned b = tid; b < gridDim.x; b += C::threads) am = fmaxf(am, __ldcg(&ct_partials[b]));
  am = block_reduce(reduce_storage).Reduce(am, cuda::maximum<>{});
  if (tid == 0) {
    *amax = am;
    ct_done = 0;
  }
}

/// One launch of `ct_kernel<T, Stages, Streaming>` on `stream`: M a multiple of 128, N of the tile's
/// columns (`tile_cfg`), x 16-byte aligned; the grid the resident blocks (Stages > 0) or the tiles.
template <class T, int Stages, bool Streaming>
cudaError_t launch_ct(fp8* y8, fp8* yt8, float* amax, const T* x, std::int64_t M, std::int64_t N, float s,
                      cudaStream_t stream = nullptr) {
  using C = tile_cfg<T>;
  static int grid = 0;
  const int smem = C::smem(Stages);
  const auto kernel = ct_kernel<T, Stages, Streaming>;
  if (M % C::tm != 0 || N % C::tn != 0) return cudaErrorInvalidValue;
  const std::int64_t tiles_n = N / C::tn, tiles = M / C::tm * tiles_n;
  if (grid == 0) {
    cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    int per_sm = 0, sms = 0, dev = 0;
    if (e == cudaSuccess) e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e == cudaSuccess)
      e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, C::threads, smem);
    if (e != cudaSuccess) return e;
    grid = per_sm * sms;
  }
  const std::int64_t blocks = Stages > 0 ? (grid < tiles ? grid : tiles) : tiles;
  if (blocks > ct_max_blocks) return cudaErrorInvalidValue;
  kernel<<<static_cast<unsigned>(blocks), C::threads, smem, stream>>>(x, y8, yt8, amax, M, N, s, tiles_n,
                                                                      tiles);
  return cudaGetLastError();
}

}  // namespace ct_staged
