// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// libew_cells_variants.so: probe builds of some of libew_cells.so's cells (bench/torch_cells/ew_cells.cu)
// under other launch policies, for bench/scripts/torch_cells.py --variant-lib: each function
// `ew_cells_<op>_<type>__<variant>` takes the arguments of `ew_cells_<op>_<type>` and is timed beside it as
// `ew.<variant>`. The variants (docs/PERFORMANCE.md, probe 8):
//
//   tri    the block shape of Inductor's 1-D pointwise kernels: 1024 elements a block of 128 threads, so
//          8 elements a thread of each input (2 vectors of a 4-byte type, 1 of a 2-byte type)
//   nopdl  ew's default shape, launched without programmatic stream serialization
//   t512   tiles of 512 vectors (unary ops: 256 threads x 2 vectors; binary: 512 threads x 1 of each)
//   lean   not ew's launcher: `lean_kernel` below, ew's tile and vector accesses without the rest
//
// and for the N-dimensional cells (bias_add, col_mul, channel_norm, transpose), `nd` shapes of the policy:
//
//   (the row variants below, gather included, leave out the vector-row kernel: what they shape is the
//   row kernel's or the gather path's launch, which change 23's vector-row kernel took over)
//   gather     no row kernel (the gather path for every row length)
//   novrow     no vector-row kernel: the row kernel and the gather path (ew's before change 23)
//   vr256, vr128u2, vr256u2   vector rows in blocks of 256 threads of 1 vector, 128 of 2, 256 of 2 (ew's:
//              128 of 1); vr128u2 and vr256u2 also for the --shapes cells' relu_nd (pitched and sliced
//              outputs), vr128u2 for add_nd (probe 16)
//   nosplit    rows that are not whole vectors on the 1-D kernel with gather operands (ew's before change
//              27, neither the split nor the wrap form; also for the --shapes cells' add_nd); padded
//              outputs of whole-vector rows still take the pitched form (change 34: before it, this
//              variant ran them on the whole-vector kernel, wrongly)
//   split64    the vector-row kernel's Split form from rows of 64 elements (ew's: 256), --shapes add_nd only
//   nowrap     short rows that are not whole vectors on the 1-D kernel with gather operands (ew's before
//              change 29), --shapes add_nd only
//   wrapall    every row that is not whole vectors, from 16 elements, in the Wrap form (none in the Split
//              form), --shapes add_nd only
//   nopad      padded outputs (pitched, column-sliced) whose rows are not whole vectors on the
//              N-dimensional kernel (ew's before change 28; since change 33 rows of whole vectors take the
//              pitched form whatever the knobs), --shapes add_nd and relu_nd only
//   vrone, vr256one   one vector-row kernel holding every set of broadcast arrays' body (ew's before change
//              26), blocks of 128 and 256 (vr256one: change 23 as it landed)
//   row256     row kernel blocks of 256 threads x 2 vectors (rows from 512 vectors)
//   rowu4      row kernel threads with 4 vectors in flight, chunks of 2048 vectors (rows from 512)
//   rowc512    row kernel chunks of 512 vectors
//   t64x128    tiles 64 a side, 128 threads, 8 blocks an SM (64 registers)
//   t128x512   tiles 128 a side, 512 threads, 2 blocks an SM
//   tl8        ew's tiles with 8 loads in flight a thread
//   tocc6      ew's tiles compiled for 6 blocks an SM (40 registers)
//   tocc12, tocc16   ew's tiles compiled for 12 and 16 blocks an SM (40 and 32 registers)
//   (the tile variants above that name a side apply it to every element size; the others leave 8-byte
//   elements in ew's wide tiles, `nd_kernel_shapes::wide_tiles`)
//   w64x128    8-byte elements in 64-side tiles of 128 threads, 8 an SM (ew's tiles before change 17)
//   w32x128, w32x32, w64x256   8-byte elements in 32-side tiles of 128 threads (8 an SM), of 32 threads
//              (32 an SM), and in 64-side tiles of 256 threads (4 an SM)
//   w32l8      ew's tiles, 8 loads in flight (all of a 32 x 32 f64 tile's 8 a thread)
//   w32x64o24, w32x64o8   ew's wide tiles compiled for 24 and 8 blocks an SM (probe 28)
//   w64x128l8  8-byte elements in 64-side tiles of 128 threads, 8 loads in flight (probe 28)
//   w32tg4, w32tg8   ew's wide tiles in groups of 4 and 8 along b (probe 28)
//   t32x64     tiles 32 a side, 64 threads, 16 blocks an SM
//   t64x64     tiles 64 a side, 64 threads, 16 blocks an SM
//   t128x128   tiles 128 a side, 128 threads, 8 blocks an SM (bf16: 32 KB of shared memory a block)
//   t128x256   tiles 128 a side, 256 threads, 4 blocks an SM; t128x256l8 the same with 8 loads in flight
//   t64x256    tiles 64 a side, 256 threads, 4 blocks an SM
//   tg4 ... tg64   ew's tiles in groups of 4, 8, 16, 64 along b (nd_kernel_shapes::tile_group)
//   rc256      row kernel chunks of 256 vectors (one pass of a block)
//   r256c512   row kernel blocks of 256 threads, chunks of 512 vectors (rows from 512)
//
// and for torch_fused_cells.py's bias + GELU (probe 22): vr128u2, vr256u2, vr256, novrow, rowu4; for its
// cast-transpose (fourteenth session): t64x128, t128x256m5, t128x256m6l2, t128x256l2, t128x512m3.

#include <cstdint>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime_api.h>

#include <ew/elementwise.cuh>

#include "../torch_cells/cell_ops.cuh"

namespace {

/// Inductor's 1-D block: 128 threads, 8 elements a thread of every input (`Arity` inputs of `T`).
template <class T, int Arity>
struct tri_policy {
  static constexpr int per_input = 8 * sizeof(T) / 16 > 0 ? static_cast<int>(8 * sizeof(T) / 16) : 1;
  template <class Op>
  static constexpr ew::policy_entry entry() {
    ew::policy_entry e{};
    e.shape.loads_in_flight = per_input * Arity;
    e.launch.tile_vectors = 128 * per_input;
    return e;
  }
};

template <class T, int Arity>
struct nopdl_policy {
  template <class Op>
  static constexpr ew::policy_entry entry() {
    ew::policy_entry e{};
    e.launch.programmatic_launch = false;
    return e;
  }
};

template <class T, int Arity>
struct t512_policy {
  template <class Op>
  static constexpr ew::policy_entry entry() {
    ew::policy_entry e{};
    e.launch.tile_vectors = 512;
    return e;
  }
};

/// A policy of ew's defaults but for the N-dimensional kernels' shapes `Nd::shapes()`.
template <class Nd>
struct nd_policy {
  template <class Op>
  static constexpr ew::policy_entry entry() {
    ew::policy_entry e{};
    e.nd = Nd::shapes();
    return e;
  }
};

/// A policy of ew's defaults but for the launch policy's knobs `Launch::tweak` (the side reductions' grid).
template <class Launch>
struct launch_variant_policy {
  template <class Op>
  static constexpr ew::policy_entry entry() {
    ew::policy_entry e{};
    Launch::tweak(e.launch);
    return e;
  }
};

#define EW_ND_VARIANT(name, ...)                             \
  struct name##_shapes {                                     \
    static constexpr ew::tuning::nd_kernel_shapes shapes() { \
      ew::tuning::nd_kernel_shapes s{};                      \
      __VA_ARGS__;                                           \
      return s;                                              \
    }                                                        \
  };
EW_ND_VARIANT(gather, s.row_min_vectors = 1 << 30; s.vector_row_threads = 0)
EW_ND_VARIANT(row256, s.row_block_threads = 256; s.row_min_vectors = 512; s.vector_row_threads = 0)
EW_ND_VARIANT(rowu4, s.row_unroll = 4; s.row_chunk_vectors = 2048; s.row_min_vectors = 512;
              s.vector_row_threads = 0)
EW_ND_VARIANT(rowc512, s.row_chunk_vectors = 512; s.vector_row_threads = 0)
EW_ND_VARIANT(t64x128, s.tile_side = 64; s.tile_block_threads = 128; s.tile_min_blocks_per_sm = 8)
EW_ND_VARIANT(t128x512, s.tile_side = 128; s.tile_block_threads = 512; s.tile_min_blocks_per_sm = 2)
EW_ND_VARIANT(tl8, s.tile_loads_in_flight = 8)
EW_ND_VARIANT(tocc6, s.tile_min_blocks_per_sm = 6)
EW_ND_VARIANT(tocc12, s.tile_min_blocks_per_sm = 12)
EW_ND_VARIANT(tocc16, s.tile_min_blocks_per_sm = 16)
EW_ND_VARIANT(t32x64, s.tile_side = 32; s.tile_block_threads = 64; s.tile_min_blocks_per_sm = 16)
EW_ND_VARIANT(t64x64, s.tile_side = 64; s.tile_block_threads = 64; s.tile_min_blocks_per_sm = 16)
EW_ND_VARIANT(t128x128, s.tile_side = 128; s.tile_block_threads = 128; s.tile_min_blocks_per_sm = 8)
EW_ND_VARIANT(t128x256, s.tile_side = 128; s.tile_block_threads = 256; s.tile_min_blocks_per_sm = 4)
EW_ND_VARIANT(t128x256l8, s.tile_side = 128; s.tile_block_threads = 256; s.tile_min_blocks_per_sm = 4;
              s.tile_loads_in_flight = 8)
EW_ND_VARIANT(t64x256, s.tile_side = 64; s.tile_block_threads = 256; s.tile_min_blocks_per_sm = 4)
EW_ND_VARIANT(t128x256m5, s.tile_side = 128; s.tile_block_threads = 256; s.tile_min_blocks_per_sm = 5)
EW_ND_VARIANT(t128x256m6l2, s.tile_side = 128; s.tile_block_threads = 256; s.tile_min_blocks_per_sm = 6;
              s.tile_loads_in_flight = 2)
EW_ND_VARIANT(t128x256l2, s.tile_side = 128; s.tile_block_threads = 256; s.tile_min_blocks_per_sm = 4;
              s.tile_loads_in_flight = 2)
EW_ND_VARIANT(t128x512m3, s.tile_side = 128; s.tile_block_threads = 512; s.tile_min_blocks_per_sm = 3)
// 8 loads in flight where the registers hold them without spilling (ptxas, 2026-12-07: 116 registers at 2
// blocks an SM, none spilled; 80 at 3, 6 bytes spilled; 64 at 4 spill 124 bytes).
EW_ND_VARIANT(t128x256m2l8, s.tile_side = 128; s.tile_block_threads = 256; s.tile_min_blocks_per_sm = 2;
              s.tile_loads_in_flight = 8)
EW_ND_VARIANT(t128x256m3l8, s.tile_side = 128; s.tile_block_threads = 256; s.tile_min_blocks_per_sm = 3;
              s.tile_loads_in_flight = 8)
// ew's narrow-output tiles with the full tiles' reads as before change 65 (with a test a slot, 4 in flight:
// nodirect), 4 direct reads (dr4), 3 blocks an SM (n3: 80 registers) and 2 with 16 direct reads (n2dr16).
EW_ND_VARIANT(nodirect, s.tile_direct_reads = 0)
EW_ND_VARIANT(dr4, s.tile_direct_reads = 4)
EW_ND_VARIANT(n3, s.narrow_output_tiles = {128, 256, 3})
EW_ND_VARIANT(n2dr16, s.narrow_output_tiles = {128, 256, 2}; s.tile_direct_reads = 16)
// Change 65's asynchronous copies (nd_kernel_shapes::tile_async_stages): 2, 3 and 4 buffers on ew's
// narrow-output tiles (bf16 x: 32 KiB a buffer, f32 x: 64 KiB), and 3 on 64-side tiles of 128 threads
// (f32 x: 16 KiB a buffer).
EW_ND_VARIANT(as2, s.tile_async_stages = 2)
EW_ND_VARIANT(as3, s.tile_async_stages = 3)
EW_ND_VARIANT(as4, s.tile_async_stages = 4)
EW_ND_VARIANT(as3t64, s.tile_async_stages = 3; s.tile_side = 64; s.tile_block_threads = 128;
              s.tile_min_blocks_per_sm = 8)
// The same compiled for the blocks that the buffers leave resident (registers up to 128 a thread): 2 an SM
// on the narrow-output tiles (bf16 x: 80 or 112 KiB a block), 4 on the 64-side ones.
EW_ND_VARIANT(as2n2, s.tile_async_stages = 2; s.narrow_output_tiles = {128, 256, 2})
EW_ND_VARIANT(as3n2, s.tile_async_stages = 3; s.narrow_output_tiles = {128, 256, 2})
EW_ND_VARIANT(as3t64m4, s.tile_async_stages = 3; s.tile_side = 64; s.tile_block_threads = 128;
              s.tile_min_blocks_per_sm = 4)
EW_ND_VARIANT(tg4, s.tile_group = 4)
EW_ND_VARIANT(tg8, s.tile_group = 8)
EW_ND_VARIANT(tg16, s.tile_group = 16)
EW_ND_VARIANT(tg64, s.tile_group = 64)
EW_ND_VARIANT(w64x128, s.wide_tiles = {64, 128, 8})
EW_ND_VARIANT(w32x128, s.wide_tiles = {32, 128, 8})
EW_ND_VARIANT(w32x32, s.wide_tiles = {32, 32, 32})
EW_ND_VARIANT(w64x256, s.wide_tiles = {64, 256, 4})
EW_ND_VARIANT(w32l8, s.tile_loads_in_flight = 8)
// Probe 28 (twentieth session): ew's wide tiles compiled for 24 and 8 blocks an SM (40 and 128 registers),
// 64-side ones of 128 threads with 8 loads in flight, ew's in groups of 4 and 8 along b.
EW_ND_VARIANT(w32x64o24, s.wide_tiles = {32, 64, 24})
EW_ND_VARIANT(w32x64o8, s.wide_tiles = {32, 64, 8})
EW_ND_VARIANT(w64x128l8, s.wide_tiles = {64, 128, 8}; s.tile_loads_in_flight = 8)
EW_ND_VARIANT(w32tg4, s.tile_group = 4)
EW_ND_VARIANT(w32tg8, s.tile_group = 8)
EW_ND_VARIANT(rc256, s.row_chunk_vectors = 256; s.vector_row_threads = 0)
EW_ND_VARIANT(r256c512, s.row_block_threads = 256; s.row_chunk_vectors = 512; s.row_min_vectors = 512;
              s.vector_row_threads = 0)
EW_ND_VARIANT(novrow, s.vector_row_threads = 0)
EW_ND_VARIANT(vr256, s.vector_row_threads = 256)
EW_ND_VARIANT(vrone, s.vector_row_kernel_per_set = false)
EW_ND_VARIANT(vr256one, s.vector_row_threads = 256; s.vector_row_kernel_per_set = false)
EW_ND_VARIANT(vr128u2, s.vector_row_unroll = 2)
EW_ND_VARIANT(vr256u2, s.vector_row_threads = 256; s.vector_row_unroll = 2)
EW_ND_VARIANT(nosplit, s.vector_row_split_min_cols = 0; s.vector_row_wrap_min_cols = 0)
EW_ND_VARIANT(nowrap, s.vector_row_wrap_min_cols = 0)
EW_ND_VARIANT(wrapall, s.vector_row_split_min_cols = 0; s.vector_row_wrap_min_cols = 16)
EW_ND_VARIANT(split64, s.vector_row_split_min_cols = 64)
EW_ND_VARIANT(nopad, s.vector_row_max_padding_percent = 0)

using ew_cells::channel_norm;
using ew_cells::copy_of;
using ew_cells::extents_of;
using ew_cells::strides_of;

template <class P, class T>
int bias_add(void* y, const void* x, const void* b, std::int64_t R, std::int64_t C, cudaStream_t s) {
  const auto bias = ew::strided(static_cast<const T*>(b), ew::extents{R, C}, ew::strides{0, 1});
  return ew::elementwise<P>(ew::add<T>{}, ew::extents{R, C}, static_cast<T*>(y),
                            ew::in(static_cast<const T*>(x), bias), s);
}

/// y = gelu(x + b), b over the columns (torch_fused_cells.py's bias_gelu cell; probe 22).
template <class P, class T>
int bias_gelu(void* y, const void* x, const void* b, std::int64_t R, std::int64_t C, cudaStream_t s) {
  return ew::elementwise<P>(
      ew::compose(ew::add<T>{}, ew::gelu<T>{}), ew::extents{R, C}, static_cast<T*>(y),
      ew::in(static_cast<const T*>(x), ew::broadcast(static_cast<const T*>(b), ew::extents{1, C})), s);
}

template <class P, class T>
int col_mul(void* y, const void* x, const void* col, std::int64_t R, std::int64_t C, cudaStream_t s) {
  const auto column = ew::strided(static_cast<const T*>(col), ew::extents{R, C}, ew::strides{1, 0});
  return ew::elementwise<P>(ew::mul<T>{}, ew::extents{R, C}, static_cast<T*>(y),
                            ew::in(static_cast<const T*>(x), column), s);
}

template <class P, class T>
int channel_norm_nchw(void* y, const void* x, const void* mean, const void* inv_std, std::int64_t N,
                      std::int64_t C, std::int64_t H, std::int64_t W, cudaStream_t s) {
  const ew::extents nchw{N, C, H, W};
  const auto per_channel = [&](const void* p) {
    return ew::strided(static_cast<const T*>(p), nchw, ew::strides{0, 1, 0, 0});
  };
  return ew::elementwise<P>(channel_norm<T>{}, nchw, static_cast<T*>(y),
                            ew::in(static_cast<const T*>(x), per_channel(mean), per_channel(inv_std)), s);
}

template <class P, class T>
int transpose(void* y, const void* x, std::int64_t R, std::int64_t C, cudaStream_t s) {
  const auto xt = ew::strided(static_cast<const T*>(x), ew::extents{C, R}, ew::strides{1, C});
  return ew::elementwise<P>(copy_of<T>{}, ew::extents{C, R}, static_cast<T*>(y), xt, s);
}

/// y = a + b over extents `e` of rank `R`, each a view (torch_cells.py's --shapes cells).
template <class P, class T, int R>
int add_nd(void* y, const void* a, const void* b, const std::int64_t* e, const std::int64_t* ys,
           const std::int64_t* as, const std::int64_t* bs, cudaStream_t s) {
  const auto ex = extents_of<R>(e);
  return ew::elementwise<P>(ew::add<T>{}, ex, ew::out(ew::strided(static_cast<T*>(y), ex, strides_of<R>(ys))),
                            ew::in(ew::strided(static_cast<const T*>(a), ex, strides_of<R>(as)),
                                   ew::strided(static_cast<const T*>(b), ex, strides_of<R>(bs))),
                            s);
}

/// y = relu(x) over extents `e` of rank 2, each a view (the pitched and sliced --shapes cells).
template <class P, class T>
int relu_nd(void* y, const void* x, const std::int64_t* e, const std::int64_t* ys, const std::int64_t* xs,
            cudaStream_t s) {
  const auto ex = extents_of<2>(e);
  return ew::elementwise<P>(ew::relu<T>{}, ex,
                            ew::out(ew::strided(static_cast<T*>(y), ex, strides_of<2>(ys))),
                            ew::in(ew::strided(static_cast<const T*>(x), ex, strides_of<2>(xs))), s);
}

/// Probe 8's lean kernel, for the 1-D cells only (`lean`): what ew's 1-D kernel does for a launch of whole
/// tiles and aligned pointers, without the rest: one tile of `Threads * Unroll` vectors a block, 32-bit
/// indices, no head, tail, scalar path, grid-stride loop or programmatic launch. Not ew's API: it exists
/// to measure what those cost.
template <int Threads, int Unroll, int Vec, class Op, class T, class... In>
__global__ void __launch_bounds__(Threads) lean_kernel(Op op, T* y, const In*... x) {
  const unsigned first = blockIdx.x * (Threads * Unroll) + threadIdx.x;
  cuda::std::tuple<ew::detail::vector_word<In, Vec>...> w[Unroll];
#pragma unroll
  for (int u = 0; u < Unroll; ++u)
    w[u] = cuda::std::make_tuple(ew::detail::load_vector<Vec>(x + (first + u * Threads) * Vec)...);
#pragma unroll
  for (int u = 0; u < Unroll; ++u) {
    ew::detail::vector_word<T, Vec> r;
    cuda::std::apply(
        [&](const auto&... v) {
#pragma unroll
          for (int j = 0; j < Vec; ++j) r.elements.v[j] = ew::convert<T>(op(v.elements.v[j]...));
        },
        w[u]);
    ew::detail::store_vector<Vec>(y + (first + u * Threads) * Vec, r);
  }
}

/// Launches `lean_kernel` with ew's default tile (256 vectors: 128 threads x 2 for one input, 256 x 1 for
/// two) over `n` elements, which must be whole tiles.
template <class T, class Op, class... In>
int lean(const Op& op, void* y, std::int64_t n, cudaStream_t s, const In*... x) {
  constexpr int vec = 16 / sizeof(T);
  constexpr int unroll = sizeof...(In) == 1 ? 2 : 1;
  constexpr int threads = 256 / unroll;
  const std::int64_t tile = std::int64_t{threads} * unroll * vec;
  if (n <= 0 || n % tile != 0 || n / tile > 0x7fffffff) return static_cast<int>(cudaErrorInvalidValue);
  lean_kernel<threads, unroll, vec>
      <<<static_cast<unsigned>(n / tile), threads, 0, s>>>(op, static_cast<T*>(y), x...);
  return static_cast<int>(cudaGetLastError());
}

template <class P, class T, class Op>
int unary(const Op& op, void* y, const void* x, std::int64_t n, cudaStream_t s) {
  if (n < 0) return static_cast<int>(cudaErrorInvalidValue);
  return ew::elementwise<P>(op, static_cast<std::size_t>(n), static_cast<T*>(y), static_cast<const T*>(x), s);
}

template <class P, class T>
int add(void* y, const void* a, const void* b, std::int64_t n, cudaStream_t s) {
  if (n < 0) return static_cast<int>(cudaErrorInvalidValue);
  return ew::elementwise<P>(ew::add<T>{}, static_cast<std::size_t>(n), static_cast<T*>(y),
                            ew::in(static_cast<const T*>(a), static_cast<const T*>(b)), s);
}

}  // namespace

#define EW_VARIANT_API extern "C" __attribute__((visibility("default"))) int

// EW_CELLS_VARIANTS_BIAS_GELU_ONLY (target ew_bias_gelu_variants): probe 22's functions alone, and
// EW_CELLS_VARIANTS_CAST_TRANSPOSE_ONLY (target ew_cast_transpose_variants) the cast-transpose's alone,
// EW_CELLS_VARIANTS_F64_TRANSPOSES_ONLY (target ew_f64_transpose_variants) the f64 transposes' alone (probe
// 28): libraries that build in a minute or two where the whole of this file takes half an hour (3 MB
// against 43, small enough to carry to the device beside a test bundle).
#if !defined(EW_CELLS_VARIANTS_BIAS_GELU_ONLY) && !defined(EW_CELLS_VARIANTS_CAST_TRANSPOSE_ONLY)

#define EW_VARIANTS_1D(suffix, T, v, P)                                                                     \
  EW_VARIANT_API ew_cells_relu_##suffix##__##v(void* y, const void* x, std::int64_t n, cudaStream_t s) {    \
    return unary<P<T, 1>, T>(ew::relu<T>{}, y, x, n, s);                                                    \
  }                                                                                                         \
  EW_VARIANT_API ew_cells_add_##suffix##__##v(void* y, const void* a, const void* b, std::int64_t n,        \
                                              cudaStream_t s) {                                             \
    return add<P<T, 2>, T>(y, a, b, n, s);                                                                  \
  }                                                                                                         \
  EW_VARIANT_API ew_cells_clamp_##suffix##__##v(void* y, const void* x, std::int64_t n, float lo, float hi, \
                                                cudaStream_t s) {                                           \
    return unary<P<T, 1>, T>(ew::clamp<T>{ew::down<T>(lo), ew::down<T>(hi)}, y, x, n, s);                   \
  }                                                                                                         \
  EW_VARIANT_API ew_cells_scale_bias_##suffix##__##v(void* y, const void* x, std::int64_t n, float alpha,   \
                                                     float beta, cudaStream_t s) {                          \
    using C = ew::compute_t<T>;                                                                             \
    return unary<P<T, 1>, T>(ew::scale_bias<T>{static_cast<C>(alpha), static_cast<C>(beta)}, y, x, n, s);   \
  }

#define EW_VARIANTS_1D_ALL(v, P)    \
  EW_VARIANTS_1D(f32, float, v, P)  \
  EW_VARIANTS_1D(f16, __half, v, P) \
  EW_VARIANTS_1D(bf16, __nv_bfloat16, v, P)

#ifndef EW_CELLS_VARIANTS_F64_TRANSPOSES_ONLY
EW_VARIANTS_1D_ALL(tri, tri_policy)
EW_VARIANTS_1D_ALL(nopdl, nopdl_policy)
EW_VARIANTS_1D_ALL(t512, t512_policy)
#endif  // EW_CELLS_VARIANTS_F64_TRANSPOSES_ONLY

#define EW_LEAN_1D(suffix, T)                                                                                \
  EW_VARIANT_API ew_cells_relu_##suffix##__lean(void* y, const void* x, std::int64_t n, cudaStream_t s) {    \
    return lean<T>(ew::relu<T>{}, y, n, s, static_cast<const T*>(x));                                        \
  }                                                                                                          \
  EW_VARIANT_API ew_cells_add_##suffix##__lean(void* y, const void* a, const void* b, std::int64_t n,        \
                                               cudaStream_t s) {                                             \
    return lean<T>(ew::add<T>{}, y, n, s, static_cast<const T*>(a), static_cast<const T*>(b));               \
  }                                                                                                          \
  EW_VARIANT_API ew_cells_clamp_##suffix##__lean(void* y, const void* x, std::int64_t n, float lo, float hi, \
                                                 cudaStream_t s) {                                           \
    return lean<T>(ew::clamp<T>{ew::down<T>(lo), ew::down<T>(hi)}, y, n, s, static_cast<const T*>(x));       \
  }                                                                                                          \
  EW_VARIANT_API ew_cells_scale_bias_##suffix##__lean(void* y, const void* x, std::int64_t n, float alpha,   \
                                                      float beta, cudaStream_t s) {                          \
    using C = ew::compute_t<T>;                                                                              \
    return lean<T>(ew::scale_bias<T>{static_cast<C>(alpha), static_cast<C>(beta)}, y, n, s,                  \
                   static_cast<const T*>(x));                                                                \
  }
#ifndef EW_CELLS_VARIANTS_F64_TRANSPOSES_ONLY
EW_LEAN_1D(f32, float)
EW_LEAN_1D(f16, __half)
EW_LEAN_1D(bf16, __nv_bfloat16)
#endif  // EW_CELLS_VARIANTS_F64_TRANSPOSES_ONLY

#define EW_VARIANTS_ND(suffix, T, v)                                                                        \
  EW_VARIANT_API ew_cells_bias_add_##suffix##__##v(void* y, const void* x, const void* b, std::int64_t R,   \
                                                   std::int64_t C, cudaStream_t s) {                        \
    return bias_add<nd_policy<v##_shapes>, T>(y, x, b, R, C, s);                                            \
  }                                                                                                         \
  EW_VARIANT_API ew_cells_col_mul_##suffix##__##v(void* y, const void* x, const void* col, std::int64_t R,  \
                                                  std::int64_t C, cudaStream_t s) {                         \
    return col_mul<nd_policy<v##_shapes>, T>(y, x, col, R, C, s);                                           \
  }                                                                                                         \
  EW_VARIANT_API ew_cells_channel_norm_##suffix##__##v(void* y, const void* x, const void* mean,            \
                                                       const void* inv_std, std::int64_t N, std::int64_t C, \
                                                       std::int64_t H, std::int64_t W, cudaStream_t s) {    \
    return channel_norm_nchw<nd_policy<v##_shapes>, T>(y, x, mean, inv_std, N, C, H, W, s);                 \
  }

#define EW_VARIANTS_TRANSPOSE(suffix, T, v)                                                                 \
  EW_VARIANT_API ew_cells_transpose_##suffix##__##v(void* y, const void* x, std::int64_t R, std::int64_t C, \
                                                    cudaStream_t s) {                                       \
    return transpose<nd_policy<v##_shapes>, T>(y, x, R, C, s);                                              \
  }

#define EW_VARIANTS_ROWS(v)     \
  EW_VARIANTS_ND(f32, float, v) \
  EW_VARIANTS_ND(bf16, __nv_bfloat16, v)
#define EW_VARIANTS_TILES(v)           \
  EW_VARIANTS_TRANSPOSE(f32, float, v) \
  EW_VARIANTS_TRANSPOSE(bf16, __nv_bfloat16, v)
// The same over 1- and 8-byte elements too (u8 tiles are 128 a side by default).
#define EW_VARIANTS_TILES_ALL(v)             \
  EW_VARIANTS_TILES(v)                       \
  EW_VARIANTS_TRANSPOSE(u8, std::uint8_t, v) \
  EW_VARIANTS_TRANSPOSE(f64, double, v)

#ifndef EW_CELLS_VARIANTS_F64_TRANSPOSES_ONLY
EW_VARIANTS_ROWS(gather)
EW_VARIANTS_ROWS(row256)
EW_VARIANTS_ROWS(rowu4)
EW_VARIANTS_ROWS(rowc512)
EW_VARIANTS_TILES_ALL(t64x128)
EW_VARIANTS_TILES(t128x512)
EW_VARIANTS_TILES_ALL(tl8)
EW_VARIANTS_TILES(tocc6)
EW_VARIANTS_TILES_ALL(tocc12)
EW_VARIANTS_TILES_ALL(tocc16)
EW_VARIANTS_TILES_ALL(t32x64)
EW_VARIANTS_TILES(t64x64)
EW_VARIANTS_TILES(t128x128)
EW_VARIANTS_TILES(t128x256)
EW_VARIANTS_TILES(t128x256l8)
EW_VARIANTS_TILES(t64x256)
EW_VARIANTS_TILES(tg4)
EW_VARIANTS_TILES(tg8)
EW_VARIANTS_TILES(tg16)
EW_VARIANTS_TILES(tg64)
EW_VARIANTS_ROWS(rc256)
EW_VARIANTS_ROWS(r256c512)
EW_VARIANTS_ROWS(novrow)
EW_VARIANTS_ROWS(vr256)
EW_VARIANTS_ROWS(vrone)
EW_VARIANTS_ROWS(vr256one)
EW_VARIANTS_ROWS(vr128u2)
EW_VARIANTS_ROWS(vr256u2)
// The --shapes cells' y = a + b at ranks 2 and 4 (odd rows: the bias over [R, 1021], per-channel NCHW).
#define EW_VARIANTS_ADD_ND(suffix, T, v)                                                        \
  EW_VARIANT_API ew_cells_add_nd_##suffix##__##v(                                               \
      void* y, const void* a, const void* b, std::int64_t rank, const std::int64_t* e,          \
      const std::int64_t* ys, const std::int64_t* as, const std::int64_t* bs, cudaStream_t s) { \
    if (rank == 2) return add_nd<nd_policy<v##_shapes>, T, 2>(y, a, b, e, ys, as, bs, s);       \
    if (rank == 4) return add_nd<nd_policy<v##_shapes>, T, 4>(y, a, b, e, ys, as, bs, s);       \
    return static_cast<int>(cudaErrorInvalidValue);                                             \
  }
#define EW_VARIANTS_RELU_ND(suffix, T, v)                                                        \
  EW_VARIANT_API ew_cells_relu_nd_##suffix##__##v(void* y, const void* x, std::int64_t rank,     \
                                                  const std::int64_t* e, const std::int64_t* ys, \
                                                  const std::int64_t* xs, cudaStream_t s) {      \
    return rank == 2 ? relu_nd<nd_policy<v##_shapes>, T>(y, x, e, ys, xs, s)                     \
                     : static_cast<int>(cudaErrorInvalidValue);                                  \
  }
EW_VARIANTS_ROWS(nosplit)
EW_VARIANTS_ADD_ND(f32, float, nosplit)
EW_VARIANTS_ADD_ND(bf16, __nv_bfloat16, nosplit)
EW_VARIANTS_ADD_ND(f16, __half, nosplit)
EW_VARIANTS_ADD_ND(u8, std::uint8_t, nosplit)
EW_VARIANTS_ADD_ND(f64, double, nosplit)
EW_VARIANTS_ADD_ND(f32, float, split64)
EW_VARIANTS_ADD_ND(bf16, __nv_bfloat16, split64)
EW_VARIANTS_ADD_ND(f32, float, nopad)
EW_VARIANTS_ADD_ND(f32, float, nowrap)
EW_VARIANTS_ADD_ND(bf16, __nv_bfloat16, nowrap)
EW_VARIANTS_ADD_ND(f32, float, wrapall)
EW_VARIANTS_ADD_ND(bf16, __nv_bfloat16, wrapall)
EW_VARIANTS_ADD_ND(u8, std::uint8_t, wrapall)
EW_VARIANTS_ADD_ND(bf16, __nv_bfloat16, nopad)
EW_VARIANTS_RELU_ND(f32, float, nopad)
EW_VARIANTS_RELU_ND(bf16, __nv_bfloat16, nopad)
// Two vectors a thread for the pitched and split forms (probe 16).
EW_VARIANTS_RELU_ND(f32, float, vr128u2)
EW_VARIANTS_RELU_ND(bf16, __nv_bfloat16, vr128u2)
EW_VARIANTS_RELU_ND(f32, float, vr256u2)
EW_VARIANTS_RELU_ND(bf16, __nv_bfloat16, vr256u2)
EW_VARIANTS_ADD_ND(f32, float, vr128u2)
EW_VARIANTS_ADD_ND(bf16, __nv_bfloat16, vr128u2)
EW_VARIANTS_ADD_ND(u8, std::uint8_t, vr128u2)
#endif  // EW_CELLS_VARIANTS_F64_TRANSPOSES_ONLY
EW_VARIANTS_TRANSPOSE(f64, double, w64x128)
EW_VARIANTS_TRANSPOSE(f64, double, w32x128)
EW_VARIANTS_TRANSPOSE(f64, double, w32x32)
EW_VARIANTS_TRANSPOSE(f64, double, w64x256)
EW_VARIANTS_TRANSPOSE(f64, double, w32l8)
EW_VARIANTS_TRANSPOSE(f64, double, w32x64o24)
EW_VARIANTS_TRANSPOSE(f64, double, w32x64o8)
EW_VARIANTS_TRANSPOSE(f64, double, w64x128l8)
EW_VARIANTS_TRANSPOSE(f64, double, w32tg4)
EW_VARIANTS_TRANSPOSE(f64, double, w32tg8)
#endif  // neither EW_CELLS_VARIANTS_BIAS_GELU_ONLY nor EW_CELLS_VARIANTS_CAST_TRANSPOSE_ONLY

#if !defined(EW_CELLS_VARIANTS_CAST_TRANSPOSE_ONLY) && !defined(EW_CELLS_VARIANTS_F64_TRANSPOSES_ONLY)

// Probe 22: torch_fused_cells.py's bias + GELU over [8192, 8192] (--variant-lib) under the vector-row
// kernel's other shapes and the row kernel.
#define EW_VARIANTS_BIAS_GELU(v)                                                                     \
  EW_VARIANT_API ew_cells_bias_gelu_f32__##v(void* y, const void* x, const void* b, std::int64_t R,  \
                                             std::int64_t C, cudaStream_t s) {                       \
    return bias_gelu<nd_policy<v##_shapes>, float>(y, x, b, R, C, s);                                \
  }                                                                                                  \
  EW_VARIANT_API ew_cells_bias_gelu_bf16__##v(void* y, const void* x, const void* b, std::int64_t R, \
                                              std::int64_t C, cudaStream_t s) {                      \
    return bias_gelu<nd_policy<v##_shapes>, __nv_bfloat16>(y, x, b, R, C, s);                        \
  }
EW_VARIANTS_BIAS_GELU(vr128u2)
EW_VARIANTS_BIAS_GELU(vr256u2)
EW_VARIANTS_BIAS_GELU(vr256)
EW_VARIANTS_BIAS_GELU(novrow)
EW_VARIANTS_BIAS_GELU(rowu4)

/// Change 54's before, beside it in the same run: `ew::gelu<float>` as it was (CUDA's `erfcf` with the
/// argument's correction, `detail::gelu`), under ew's default policy (f32 only: bf16's GELU is unchanged).
struct gelu_erfc_f32 {
  EW_HD float operator()(float x) const { return ew::detail::gelu(x); }
};
EW_VARIANT_API ew_cells_bias_gelu_f32__erfc(void* y, const void* x, const void* b, std::int64_t R,
                                            std::int64_t C, cudaStream_t s) {
  return ew::elementwise(
      ew::compose(ew::add<float>{}, gelu_erfc_f32{}), ew::extents{R, C}, static_cast<float*>(y),
      ew::in(static_cast<const float*>(x), ew::broadcast(static_cast<const float*>(b), ew::extents{1, C})),
      s);
}

#endif  // neither EW_CELLS_VARIANTS_CAST_TRANSPOSE_ONLY nor EW_CELLS_VARIANTS_F64_TRANSPOSES_ONLY

#if !defined(EW_CELLS_VARIANTS_BIAS_GELU_ONLY) && !defined(EW_CELLS_VARIANTS_F64_TRANSPOSES_ONLY)
// torch_fused_cells.py's cast-transpose (--variant-lib; cell_ops.cuh's `cast_transpose`: y8 [M, N] and
// yt8 [N, M] = e4m3(x * scale), the amax overwritten) under the tile kernel's other shapes: t64x128
// (ew's tiles before change 64), t128x256m5 (5 blocks an SM: 48 registers), t128x256m6l2 (6 an SM, 2
// loads in flight), t128x256l2, t128x512m3 (3 blocks of 512 threads an SM), t128x256m2l8 and t128x256m3l8
// (8 loads in flight, 2 or 3 blocks an SM); and ew's narrow-output tiles with other reads (change 65):
// nodirect, dr4, n3, n2dr16, and x's full tiles copied asynchronously: as2, as3, as4, as3t64, as2n2,
// as3n2, as3t64m4.
// One function of the cast-transpose under policy `P`, named `ew_cells_cast_transpose_<suffix>__<v>`.
#define EW_VARIANTS_CAST_TRANSPOSE_UNDER(suffix, T, v, P)                                                  \
  EW_VARIANT_API ew_cells_cast_transpose_##suffix##__##v(void* y8, void* yt8, void* am, void* ws,          \
                                                         const void* x, std::int64_t M, std::int64_t N,    \
                                                         float scale, cudaStream_t s) {                    \
    return ew_cells::cast_transpose<P>(static_cast<__nv_fp8_e4m3*>(y8), static_cast<__nv_fp8_e4m3*>(yt8),  \
                                       static_cast<float*>(am), static_cast<ew::reduction_workspace*>(ws), \
                                       static_cast<const T*>(x), M, N, scale, s);                          \
  }
// Both x types of variant `v` under policy `P`; `EW_VARIANTS_CAST_TRANSPOSE_BOTH`: under `v`'s shapes.
#define EW_VARIANTS_CAST_TRANSPOSE_BOTH_UNDER(v, P)  \
  EW_VARIANTS_CAST_TRANSPOSE_UNDER(f32, float, v, P) \
  EW_VARIANTS_CAST_TRANSPOSE_UNDER(bf16, __nv_bfloat16, v, P)
#define EW_VARIANTS_CAST_TRANSPOSE_BOTH(v) EW_VARIANTS_CAST_TRANSPOSE_BOTH_UNDER(v, nd_policy<v##_shapes>)
EW_VARIANTS_CAST_TRANSPOSE_BOTH(t64x128)
EW_VARIANTS_CAST_TRANSPOSE_BOTH(t128x256m5)
EW_VARIANTS_CAST_TRANSPOSE_BOTH(t128x256m6l2)
EW_VARIANTS_CAST_TRANSPOSE_BOTH(t128x256l2)
EW_VARIANTS_CAST_TRANSPOSE_BOTH(t128x512m3)
EW_VARIANTS_CAST_TRANSPOSE_BOTH(t128x256m2l8)
EW_VARIANTS_CAST_TRANSPOSE_BOTH(t128x256m3l8)
EW_VARIANTS_CAST_TRANSPOSE_BOTH(nodirect)
EW_VARIANTS_CAST_TRANSPOSE_BOTH(dr4)
EW_VARIANTS_CAST_TRANSPOSE_BOTH(n3)
EW_VARIANTS_CAST_TRANSPOSE_BOTH(n2dr16)
EW_VARIANTS_CAST_TRANSPOSE_BOTH(as2)
EW_VARIANTS_CAST_TRANSPOSE_BOTH(as3)
EW_VARIANTS_CAST_TRANSPOSE_BOTH(as4)
EW_VARIANTS_CAST_TRANSPOSE_BOTH(as3t64)
EW_VARIANTS_CAST_TRANSPOSE_BOTH(as2n2)
EW_VARIANTS_CAST_TRANSPOSE_BOTH(as3n2)
EW_VARIANTS_CAST_TRANSPOSE_BOTH(as3t64m4)
// The grid of the cast-transpose, whose amax is an overwrite target (`overwrite_blocks_per_sm`, 16 an SM:
// 2,112 blocks looping over 4,096 tiles at [8192, 8192], so the resident blocks read two places of x at
// once): ob32, one tile a block (32 an SM, above the tiles); rw1 and rw2, one or two whole waves of the
// resident blocks (`reduction_waves`), whose blocks loop over neighbouring tiles.
#define EW_LAUNCH_VARIANT(name, ...)                                           \
  struct name##_launch {                                                       \
    static constexpr void tweak(ew::tuning::launch_policy& l) { __VA_ARGS__; } \
  };
EW_LAUNCH_VARIANT(ob32, l.overwrite_blocks_per_sm = 32)
EW_LAUNCH_VARIANT(rw1, l.reduction_waves = 1)
EW_LAUNCH_VARIANT(rw2, l.reduction_waves = 2)
EW_VARIANTS_CAST_TRANSPOSE_BOTH_UNDER(ob32, launch_variant_policy<ob32_launch>)
EW_VARIANTS_CAST_TRANSPOSE_BOTH_UNDER(rw1, launch_variant_policy<rw1_launch>)
EW_VARIANTS_CAST_TRANSPOSE_BOTH_UNDER(rw2, launch_variant_policy<rw2_launch>)
#endif  // neither EW_CELLS_VARIANTS_BIAS_GELU_ONLY nor EW_CELLS_VARIANTS_F64_TRANSPOSES_ONLY

/// Why the calling thread's last failed ew call failed (ew::last_error_message()).
extern "C" __attribute__((visibility("default"))) const char* ew_cells_last_error() {
  return ew::last_error_message();
}
