// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Probe 23 (issue 22): why a grid of blocks that loop over tiles runs the fused FP8 quantize with amax at
// 0.94-0.95 of the plain cast on the H200 at 2^28 (eighth session), and whether handing the tiles out
// dynamically removes it. The kernels here are not ew's launcher: each is the fused step
// `y = fp8_e4m3(x * scale)`, `amax = max |x|` (or the cast alone) over x of f32 or bf16 with ew's tile
// shape (128 threads, two 16-byte vectors of x a thread in flight), so that only the schedule differs:
// - `cast`: one tile a block, no amax (the bar);
// - `onetile_block`: one tile a block, the amax reduced over the block (shuffles, shared memory, a barrier)
//   and one atomic by thread 0 where it passes what the target held when the block began (ew's end);
// - `onetile_warp`: the same with each warp's `redux.sync` and atomic instead (change 58, no barrier);
// - `static`: one wave of resident blocks looping over the tiles grid-stride, warp ends;
// - `static_block`: the same with a block end, `seen` read at the block's start (ew's capped grid, one
//   wave); `static_fresh`: the target read again by thread 0 at the end, before the block reduction;
//   `static_pub`: the block's value after its first tile sent, and the target read again at the end;
//   `static2_block`, `static2_fresh`: two waves' blocks (ew's 32 an SM);
// - `static_chunk`: one wave, each block taking a run of consecutive tiles (not grid-stride);
// - `static_pipe`: one wave grid-stride, each thread loading its next tile before storing the current one;
// - `onetile_fresh`: one tile a block, the target read at the end only;
// - `ow_onetile`, `ow_wave`: an overwrite target's end as ew's (`block_overwrite_ordered`: the key's
//   atomic maximum and a ticket a block on one counter) over one tile a block (at most 8192 blocks, the
//   workspace's) or one looping wave; `_c32`: the ticket in two levels, 32 counters of the blocks' classes
//   and one of the classes; `_late`: the last tile's stores after the block's end (its ticket's fence then
//   waits for no store of that tile);
// - `dyn_warp`: one looping wave, each warp taking units of one tile's vectors from a counter (an atomic add
//   by lane 0, the next unit's taken while the current one is loaded), warp ends;
// - `dyn_block`: one looping wave, thread 0 taking whole tiles from the counter for the block (two shared
//   slots, one barrier a tile), warp ends.
// The counter is zeroed, untimed, before each launch. Timing: probe_timing.cuh's (median of 15 after 2
// warm-ups, L2 flushed before each, probe_timing.cuh), the implementations interleaved, rounds of all of
// them as the first argument says (2 by default; the median of the rounds' medians is printed, with their
// range). Every y is compared with `cast`'s bytes and every amax with the host's. Results and discussion:
// docs/PERFORMANCE.md, "Tenth session" (probe 23). Build: `ninja ew_probe_quant_schedule`, or nvcc -std=c++17
// -O3 -arch=sm_90 -Iinclude bench/probes/quant_schedule.cu -o quant_schedule
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

#include "probe_timing.cuh"

namespace {

constexpr int threads = 128;   // ew's block for a unary op
constexpr int per_thread = 2;  // vectors of x a thread has in flight
constexpr int tile_vectors = threads * per_thread;
constexpr float scale = 0.75f;

template <class T>
constexpr int vec_of = 16 / static_cast<int>(sizeof(T));

template <class T>
struct alignas(16) xvec {
  T v[vec_of<T>];
};
template <class T>
struct alignas(vec_of<T>) yvec {
  unsigned char b[vec_of<T>];
};

__device__ __forceinline__ float to_f(float v) { return v; }
__device__ __forceinline__ float to_f(__nv_bfloat16 v) { return __bfloat162float(v); }

/// One vector: y bytes, and the thread's amax bits (max of |x| bits, sign cleared).
template <class T>
__device__ __forceinline__ yvec<T> quant(const xvec<T>& x, unsigned& amax) {
  yvec<T> y;
#pragma unroll
  for (int j = 0; j < vec_of<T>; j += 2) {
    const float a = to_f(x.v[j]), b = to_f(x.v[j + 1]);
    const unsigned w = __nv_cvt_float2_to_fp8x2(make_float2(a * scale, b * scale), __NV_SATFINITE, __NV_E4M3);
    y.b[j] = static_cast<unsigned char>(w & 0xffu);
    y.b[j + 1] = static_cast<unsigned char>(w >> 8);
    const unsigned ua = __float_as_uint(a) & 0x7fffffffu, ub = __float_as_uint(b) & 0x7fffffffu;
    amax = max(amax, max(ua, ub));
  }
  return y;
}

/// Vectors `first + u * stride`, u < per_thread: loads first, then stores.
template <class T, bool Amax>
__device__ __forceinline__ void run_vectors(const xvec<T>* x, yvec<T>* y, unsigned first, unsigned stride,
                                            unsigned& amax) {
  xvec<T> r[per_thread];
#pragma unroll
  for (int u = 0; u < per_thread; ++u) r[u] = x[first + u * stride];
#pragma unroll
  for (int u = 0; u < per_thread; ++u) {
    unsigned a = 0;
    y[first + u * stride] = quant<T>(r[u], a);
    if (Amax) amax = max(amax, a);
  }
}

__device__ __forceinline__ void warp_end(unsigned amax, unsigned seen, unsigned* target) {
  const unsigned v = __reduce_max_sync(0xffffffffu, amax);
  if (threadIdx.x % 32u == 0 && v > seen) atomicMax(target, v);
}

/// `a` reduced over the block, in thread 0 (shuffles, one shared word a warp, a barrier, thread 0's loop):
/// ew's block reduction (block_reduce.cuh) for this probe's fixed block. Every thread must call it; a
/// second call needs a barrier before it (thread 0 reads the shared words last).
__device__ __forceinline__ unsigned block_amax(unsigned a) {
  __shared__ unsigned part[threads / 32];
  for (int off = 16; off > 0; off /= 2) a = max(a, __shfl_down_sync(0xffffffffu, a, off));
  if (threadIdx.x % 32u == 0) part[threadIdx.x / 32u] = a;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < threads / 32; ++w) a = max(a, part[w]);
  }
  return a;
}

/// The block's amax into `*target` by thread 0 (shuffles, shared memory, a barrier), unless it does not
/// pass `seen`; with `Fresh`, thread 0 loads the target again before the block reduction (its latency under
/// the reduction's) and compares with that.
template <bool Fresh>
__device__ __forceinline__ void block_end(unsigned a, unsigned seen, unsigned* target) {
  if (Fresh && threadIdx.x == 0) seen = *static_cast<volatile unsigned*>(target);
  a = block_amax(a);
  if (threadIdx.x == 0 && a > seen) atomicMax(target, a);
  __syncthreads();  // `static_pub` calls it twice: the shared words are written again
}

template <class T>
__global__ void __launch_bounds__(threads) cast_kernel(const xvec<T>* x, yvec<T>* y) {
  unsigned a = 0;
  run_vectors<T, false>(x, y, blockIdx.x * tile_vectors + threadIdx.x, threads, a);
}

template <class T>
__global__ void __launch_bounds__(threads)
    onetile_block_kernel(const xvec<T>* x, yvec<T>* y, unsigned* target) {
  const unsigned seen = threadIdx.x == 0 ? *static_cast<volatile unsigned*>(target) : 0u;
  unsigned a = 0;
  run_vectors<T, true>(x, y, blockIdx.x * tile_vectors + threadIdx.x, threads, a);
  block_end<false>(a, seen, target);
}

template <class T>
__global__ void __launch_bounds__(threads)
    onetile_warp_kernel(const xvec<T>* x, yvec<T>* y, unsigned* target) {
  const unsigned seen = threadIdx.x % 32u == 0 ? *static_cast<volatile unsigned*>(target) : 0u;
  unsigned a = 0;
  run_vectors<T, true>(x, y, blockIdx.x * tile_vectors + threadIdx.x, threads, a);
  warp_end(a, seen, target);
}

template <class T>
__global__ void __launch_bounds__(threads)
    static_kernel(const xvec<T>* x, yvec<T>* y, unsigned* target, unsigned tiles) {
  const unsigned seen = threadIdx.x % 32u == 0 ? *static_cast<volatile unsigned*>(target) : 0u;
  unsigned a = 0;
  for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x)
    run_vectors<T, true>(x, y, t * tile_vectors + threadIdx.x, threads, a);
  warp_end(a, seen, target);
}

/// `static` with a block end; `Fresh`: the target read again at the end; `Publish`: the block's value after
/// its first tile sent (block end) before the rest, and the target read again at the end.
template <class T, bool Fresh, bool Publish>
__global__ void __launch_bounds__(threads)
    static_block_kernel(const xvec<T>* x, yvec<T>* y, unsigned* target, unsigned tiles) {
  unsigned seen = threadIdx.x == 0 ? *static_cast<volatile unsigned*>(target) : 0u;
  unsigned a = 0;
  unsigned t = blockIdx.x;
  if (Publish && t < tiles) {
    run_vectors<T, true>(x, y, t * tile_vectors + threadIdx.x, threads, a);
    block_end<false>(a, seen, target);
    t += gridDim.x;
  }
  for (; t < tiles; t += gridDim.x) run_vectors<T, true>(x, y, t * tile_vectors + threadIdx.x, threads, a);
  block_end<Fresh || Publish>(a, seen, target);
}

/// One wave looping, block `b` taking the consecutive tiles `[b * k, (b + 1) * k)` (every block's own
/// stream) rather than grid-stride; block end.
template <class T>
__global__ void __launch_bounds__(threads)
    static_chunk_kernel(const xvec<T>* x, yvec<T>* y, unsigned* target, unsigned tiles) {
  const unsigned seen = threadIdx.x == 0 ? *static_cast<volatile unsigned*>(target) : 0u;
  unsigned a = 0;
  const unsigned k = (tiles + gridDim.x - 1) / gridDim.x;
  const unsigned end = min(tiles, (blockIdx.x + 1) * k);
  for (unsigned t = blockIdx.x * k; t < end; ++t)
    run_vectors<T, true>(x, y, t * tile_vectors + threadIdx.x, threads, a);
  block_end<false>(a, seen, target);
}

/// One wave looping grid-stride, each thread loading its next tile's vectors before it stores the current
/// one's (software-pipelined: 4 vectors a thread in flight across the tile boundary); block end.
template <class T>
__global__ void __launch_bounds__(threads)
    static_pipe_kernel(const xvec<T>* x, yvec<T>* y, unsigned* target, unsigned tiles) {
  const unsigned seen = threadIdx.x == 0 ? *static_cast<volatile unsigned*>(target) : 0u;
  unsigned a = 0;
  unsigned t = blockIdx.x;
  xvec<T> cur[per_thread], nxt[per_thread];
  if (t < tiles) {
#pragma unroll
    for (int u = 0; u < per_thread; ++u) cur[u] = x[t * tile_vectors + threadIdx.x + u * threads];
  }
  while (t < tiles) {
    const unsigned n = t + gridDim.x;
    if (n < tiles) {
#pragma unroll
      for (int u = 0; u < per_thread; ++u) nxt[u] = x[n * tile_vectors + threadIdx.x + u * threads];
    }
#pragma unroll
    for (int u = 0; u < per_thread; ++u) {
      unsigned b = 0;
      y[t * tile_vectors + threadIdx.x + u * threads] = quant<T>(cur[u], b);
      a = max(a, b);
      cur[u] = nxt[u];
    }
    t = n;
  }
  block_end<false>(a, seen, target);
}

/// ew's ticket (block_reduce.cuh): an acquire-release `atomicInc`.
__device__ __forceinline__ unsigned ticket(unsigned* counter, unsigned last) {
  return ew::detail::ticket_acq_rel(counter, last);
}

/// An overwrite target's end as ew's `block_overwrite_ordered`: the block's amax reduced, thread 0 sends
/// it to the key word (`words[2]`) as an atomic maximum and takes a ticket; the last block exchanges the
/// key for zero into `*target`. `Classes` above 1: the ticket in two levels, block `b` counting in
/// `words[4 + b % Classes]` (the blocks of its class), the last of a class in `words[3]` (the classes).
template <int Classes>
__device__ __forceinline__ void overwrite_end(unsigned a, unsigned* target, unsigned* words) {
  a = block_amax(a);
  if (threadIdx.x == 0) {
    atomicMax(words + 2, a);
    bool last;
    if (Classes <= 1) {
      last = ticket(words + 3, gridDim.x - 1u) == gridDim.x - 1u;
    } else {
      const unsigned c = blockIdx.x % Classes;
      const unsigned members = gridDim.x / Classes + (c < gridDim.x % Classes ? 1u : 0u);
      const unsigned classes = gridDim.x < Classes ? gridDim.x : Classes;
      last = ticket(words + 4 + c, members - 1u) == members - 1u &&
             ticket(words + 3, classes - 1u) == classes - 1u;
    }
    if (last) *target = atomicExch(words + 2, 0u);
  }
}

template <class T, int Classes>
__global__ void __launch_bounds__(threads)
    overwrite_kernel(const xvec<T>* x, yvec<T>* y, unsigned* target, unsigned* words, unsigned tiles) {
  unsigned a = 0;
  for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x)
    run_vectors<T, true>(x, y, t * tile_vectors + threadIdx.x, threads, a);
  overwrite_end<Classes>(a, target, words);
}

/// `overwrite_kernel<T, 1>` with the last tile's stores after the block's end: its vectors are loaded and
/// converted, the block's amax goes to the key and the ticket is taken, and only then are they stored, so
/// that the ticket's fence does not wait for them.
template <class T>
__global__ void __launch_bounds__(threads)
    overwrite_late_kernel(const xvec<T>* x, yvec<T>* y, unsigned* target, unsigned* words, unsigned tiles) {
  unsigned a = 0;
  unsigned t = blockIdx.x;
  for (; t + gridDim.x < tiles; t += gridDim.x)
    run_vectors<T, true>(x, y, t * tile_vectors + threadIdx.x, threads, a);
  yvec<T> last[per_thread];
  const bool has_last = t < tiles;
  if (has_last) {
    xvec<T> r[per_thread];
#pragma unroll
    for (int u = 0; u < per_thread; ++u) r[u] = x[t * tile_vectors + threadIdx.x + u * threads];
#pragma unroll
    for (int u = 0; u < per_thread; ++u) {
      unsigned b = 0;
      last[u] = quant<T>(r[u], b);
      a = max(a, b);
    }
  }
  overwrite_end<1>(a, target, words);
  if (has_last) {
#pragma unroll
    for (int u = 0; u < per_thread; ++u) y[t * tile_vectors + threadIdx.x + u * threads] = last[u];
  }
}

template <class T>
__global__ void __launch_bounds__(threads)
    onetile_fresh_kernel(const xvec<T>* x, yvec<T>* y, unsigned* target) {
  unsigned a = 0;
  run_vectors<T, true>(x, y, blockIdx.x * tile_vectors + threadIdx.x, threads, a);
  block_end<true>(a, 0u, target);
}

/// Units of one tile's vectors a warp: the warp's 32 lanes take them in 4 steps of 2 vectors a lane.
template <class T>
__global__ void __launch_bounds__(threads)
    dyn_warp_kernel(const xvec<T>* x, yvec<T>* y, unsigned* target, unsigned* counter, unsigned tiles) {
  const unsigned lane = threadIdx.x % 32u;
  const unsigned seen = lane == 0 ? *static_cast<volatile unsigned*>(target) : 0u;
  unsigned a = 0;
  unsigned next = lane == 0 ? atomicAdd(counter, 1u) : 0u;
  next = __shfl_sync(0xffffffffu, next, 0);
  while (next < tiles) {
    const unsigned unit = next;
    unsigned after = lane == 0 ? atomicAdd(counter, 1u) : 0u;  // in flight while this unit is loaded
#pragma unroll 1
    for (int step = 0; step < tile_vectors / (32 * per_thread); ++step)
      run_vectors<T, true>(x, y, unit * tile_vectors + step * 32 * per_thread + lane, 32, a);
    next = __shfl_sync(0xffffffffu, after, 0);
  }
  warp_end(a, seen, target);
}

template <class T>
__global__ void __launch_bounds__(threads)
    dyn_block_kernel(const xvec<T>* x, yvec<T>* y, unsigned* target, unsigned* counter, unsigned tiles) {
  __shared__ unsigned slot[2];
  const unsigned seen = threadIdx.x % 32u == 0 ? *static_cast<volatile unsigned*>(target) : 0u;
  unsigned a = 0;
  if (threadIdx.x == 0) slot[0] = atomicAdd(counter, 1u);
  __syncthreads();
  for (int k = 0;; k ^= 1) {
    const unsigned t = slot[k];
    if (t >= tiles) break;
    unsigned after = 0;
    if (threadIdx.x == 0) after = atomicAdd(counter, 1u);  // in flight while this tile is loaded
    run_vectors<T, true>(x, y, t * tile_vectors + threadIdx.x, threads, a);
    if (threadIdx.x == 0) slot[k ^ 1] = after;  // read after the barrier below
    __syncthreads();
  }
  warp_end(a, seen, target);
}

template <class T>
void run_type(const char* type, std::size_t log2n, int rounds) {
  const std::size_t n = std::size_t{1} << log2n;
  const std::size_t vectors = n / vec_of<T>;
  const unsigned tiles = static_cast<unsigned>(vectors / tile_vectors);
  std::vector<T> hx(n);
  std::mt19937 rng(1234 + static_cast<unsigned>(log2n));
  std::uniform_real_distribution<float> d(-300.f, 300.f);
  float want = 0;
  for (std::size_t i = 0; i < n; ++i) {
    hx[i] = ewp::from_f<T>(d(rng));
    want = std::fmax(want, std::fabs(ew::convert<float>(hx[i])));
  }
  ewp::device_buf<T> x(n);
  ewp::device_buf<unsigned char> yref(n), y(n);
  ewp::device_buf<unsigned> words(64);  // target, counter, the overwrite's key and tickets
  CK(cudaMemcpy(x.p, hx.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  // The overwrite's key and tickets start at zero, and each launch leaves them so.
  CK(cudaMemset(words.p, 0, 64 * sizeof(unsigned)));
  const auto* xv = reinterpret_cast<const xvec<T>*>(x.p);
  auto* yrv = reinterpret_cast<yvec<T>*>(yref.p);
  auto* yv = reinterpret_cast<yvec<T>*>(y.p);
  unsigned* target = words.p;
  unsigned* counter = words.p + 1;
  int dev = 0, sms = 0, resident = 0;
  CK(cudaGetDevice(&dev));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, static_kernel<T>, threads, 0));
  const unsigned wave = static_cast<unsigned>(sms * resident);
  int resident_pipe = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident_pipe, static_pipe_kernel<T>, threads, 0));
  const unsigned wave_pipe = static_cast<unsigned>(sms * resident_pipe);  // its own: 38 registers for bf16
  cast_kernel<T><<<tiles, threads>>>(xv, yrv);
  CK(cudaGetLastError());
  std::vector<unsigned char> ref(n), got(n);
  CK(cudaMemcpy(ref.data(), yref.p, n, cudaMemcpyDeviceToHost));

  struct impl {
    std::string name;
    bool amax;
    std::function<void()> launch;
  };
  std::vector<impl> impls = {
      {"cast", false, [&] { cast_kernel<T><<<tiles, threads>>>(xv, yv); }},
      {"onetile_block", true, [&] { onetile_block_kernel<T><<<tiles, threads>>>(xv, yv, target); }},
      {"onetile_warp", true, [&] { onetile_warp_kernel<T><<<tiles, threads>>>(xv, yv, target); }},
      {"static", true, [&] { static_kernel<T><<<wave, threads>>>(xv, yv, target, tiles); }},
      {"static_block", true,
       [&] { static_block_kernel<T, false, false><<<wave, threads>>>(xv, yv, target, tiles); }},
      {"static_fresh", true,
       [&] { static_block_kernel<T, true, false><<<wave, threads>>>(xv, yv, target, tiles); }},
      {"static_pub", true,
       [&] { static_block_kernel<T, true, true><<<wave, threads>>>(xv, yv, target, tiles); }},
      {"static2_block", true,
       [&] { static_block_kernel<T, false, false><<<2 * wave, threads>>>(xv, yv, target, tiles); }},
      {"static2_fresh", true,
       [&] { static_block_kernel<T, true, false><<<2 * wave, threads>>>(xv, yv, target, tiles); }},
      {"static_chunk", true, [&] { static_chunk_kernel<T><<<wave, threads>>>(xv, yv, target, tiles); }},
      {"static_pipe", true, [&] { static_pipe_kernel<T><<<wave_pipe, threads>>>(xv, yv, target, tiles); }},
      {"ow_onetile", true,
       [&] { overwrite_kernel<T, 1><<<std::min(tiles, 8192u), threads>>>(xv, yv, target, words.p, tiles); }},
      {"ow_onetile_c32", true,
       [&] { overwrite_kernel<T, 32><<<std::min(tiles, 8192u), threads>>>(xv, yv, target, words.p, tiles); }},
      {"ow_wave", true,
       [&] { overwrite_kernel<T, 1><<<std::min(tiles, wave), threads>>>(xv, yv, target, words.p, tiles); }},
      {"ow_onetile_late", true,
       [&] {
         overwrite_late_kernel<T><<<std::min(tiles, 8192u), threads>>>(xv, yv, target, words.p, tiles);
       }},
      {"ow_wave_late", true,
       [&] { overwrite_late_kernel<T><<<std::min(tiles, wave), threads>>>(xv, yv, target, words.p, tiles); }},
      {"ow_wave_c32", true,
       [&] { overwrite_kernel<T, 32><<<std::min(tiles, wave), threads>>>(xv, yv, target, words.p, tiles); }},
      {"onetile_fresh", true, [&] { onetile_fresh_kernel<T><<<tiles, threads>>>(xv, yv, target); }},
      {"dyn_warp", true, [&] { dyn_warp_kernel<T><<<wave, threads>>>(xv, yv, target, counter, tiles); }},
      {"dyn_block", true, [&] { dyn_block_kernel<T><<<wave, threads>>>(xv, yv, target, counter, tiles); }},
  };
  const double bytes = static_cast<double>(n) * (sizeof(T) + 1);
  std::vector<std::vector<double>> us(impls.size());
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t k = 0; k < impls.size(); ++k) {
      const bool overwrite = impls[k].name.rfind("ow_", 0) == 0;
      us[k].push_back(ewp::time_us(impls[k].launch, [&] {  // untimed, before each launch
        CK(cudaMemsetAsync(words.p, 0, 2 * sizeof(unsigned)));
        if (overwrite) CK(cudaMemsetAsync(words.p, 0xff, sizeof(unsigned)));  // the launch must replace it
        CK(cudaMemsetAsync(y.p, 0xff, n));
      }));
      // The last launch's results.
      CK(cudaMemcpy(got.data(), y.p, n, cudaMemcpyDeviceToHost));
      unsigned am = 0;
      CK(cudaMemcpy(&am, target, sizeof(unsigned), cudaMemcpyDeviceToHost));
      if (std::memcmp(got.data(), ref.data(), n) != 0 ||
          (impls[k].amax && am != __builtin_bit_cast(unsigned, want))) {
        std::printf("FAILED %s %s 2^%zu (amax %g, want %g)\n", impls[k].name.c_str(), type, log2n,
                    __builtin_bit_cast(float, am), want);
        std::exit(1);
      }
    }
  }
  double cast_us = 0;
  for (std::size_t k = 0; k < impls.size(); ++k) {
    std::sort(us[k].begin(), us[k].end());
    const double m = us[k][(us[k].size() - 1) / 2];
    if (k == 0) cast_us = m;
    std::printf("| %s | 2^%zu | %s | %.2f | %.0f | %.3f | %.2f-%.2f |\n", type, log2n, impls[k].name.c_str(),
                m, bytes / m / 1e3, cast_us / m, us[k].front(), us[k].back());
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 2;
  ewp::begin_table("cast");
  for (std::size_t e : {20, 24, 26, 28}) {
    run_type<float>("f32", e, rounds);
    run_type<__nv_bfloat16>("bf16", e, rounds);
  }
  return 0;
}
