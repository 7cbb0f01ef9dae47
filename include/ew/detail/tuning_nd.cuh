// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The shapes of the N-dimensional launches' kernels as named constants (the gather path of the 1-D kernel,
/// the vector-row, row, tile and strided kernels; nd_paths.cuh chooses among them), each with the
/// measurement behind it (docs/PERFORMANCE.md). tuning.cuh holds the 1-D kernel's shape and the run-time
/// launch policy, and includes this file.

#include <cstddef>

#include "config.cuh"

namespace ew {
namespace tuning {

/// The N-dimensional kernel's shape (nd_kernel.cuh: launches whose outputs are not contiguous, or whose
/// inputs no other kernel takes).
struct strided_shape {
  /// A work item on the vectorized path is `vector_rows` rows of `vector_cols` vector slots, the slots a
  /// row's slots / cols apart (so each load of a warp is consecutive in memory). Probes 6 and 7 on the H200
  /// (2026-12-01, docs/PERFORMANCE.md, change 7), bias add over [2^16, 4096] against ew's 1-D relu on as
  /// many elements, 256-thread blocks, 4 per SM: 1 row x 2 slots 1.000 (f32) and 0.998 (bf16), 1 x 4 0.984
  /// and 0.987, 2 rows x 1 slot 0.940 and 0.917, 2 x 2 0.904 and 0.863; the per-channel fma over NCHW 0.865
  /// (1 x 2), 0.873 (1 x 4), 0.667 (2 x 1). Two slots of one row keep two loads in flight with one row's
  /// offsets. (Those are the probe's copy of the body, uniform head only; the library's kernel with this
  /// shape reached 0.896 and 0.838 on the bias, 0.702 on the channel fma: change 8's result.)
  int vector_rows = 1;
  int vector_cols = 2;
  /// Rows per work item on the element-by-element path (an innermost stride other than 0 or 1, a
  /// transposed read): four rows of one column, so that a thread's four reads of a transposed f32 input
  /// fall in one 16-byte half-sector, which the first brings into L1 for the other three. Eight spilled to
  /// local memory under the register cap below (CUDA 13.0: up to 290 bytes of spill stores per thread).
  int scalar_rows = 4;
  /// Threads per block: the 1-D kernel's block size for binary ops (256).
  int block_threads = 256;
  /// Resident blocks per SM the kernel is compiled for (`__launch_bounds__`): 4 of 256 threads caps it at
  /// 64 registers. Unbounded, ptxas gave it 82 to 98 (CUDA 13.0, sm_90, bias add and transposed reads), two
  /// blocks per SM: a quarter of the threads, and of the loads in flight, of the 1-D kernel.
  int min_blocks_per_sm = 4;
};

/// The shape of a tile launch (tile_kernel.cuh): square tiles of `side` elements, `block_threads` threads a
/// block, compiled for `min_blocks_per_sm` resident blocks an SM.
struct tile_shape {
  int side = 64;
  int block_threads = 128;
  int min_blocks_per_sm = 8;
};

/// Compile-time shapes of the kernels of N-dimensional launches (nd_paths.cuh chooses among them): the
/// gather path of the 1-D kernel, the vector-row kernel, the row kernel and the tile kernel. Part of a
/// policy's entry (policy.cuh: `policy_entry::nd`), so that a user's policy, and the probes, can try others
/// without editing ew; `dispatch_nd` checks a policy's values at compile time (`nd_kernel_shapes_error`).
struct nd_kernel_shapes {
  /// Vectors per thread per tile of the 1-D kernel with gather operands, whatever the number of inputs: a
  /// broadcast input (a bias, per-channel statistics) is read from L1 or L2, not from DRAM, so
  /// `kernel_shape::unroll_for`'s share of two loads among the inputs left one DRAM load in flight per
  /// thread behind a division and a dependent load: the bias add ran at 0.94 and per-channel statistics at
  /// 0.63 of the 1-D relu (H200, 2026-12-02, docs/PERFORMANCE.md change 10).
  int gather_unroll = 2;

  /// The N-dimensional kernel's shape.
  strided_shape strided{};

  /// Vector-row launches (vector_row_kernel.cuh: a gather launch whose rows hold whole vectors, every input
  /// along them from a whole vector at each row or broadcast along them): `vector_row_threads` threads a
  /// block (0: no such launches; the row kernel and the 1-D kernel with gather operands take them), each
  /// with `vector_row_unroll` vectors and no loop. Probe 10 (H200, 2026-12-03, docs/PERFORMANCE.md change
  /// 23; bias and column over [2^14, 1000], per-channel over NCHW [32, 256, 56, 56], bf16 bias and column
  /// over [2^16, 4096]) had 1 or 2 vectors a thread in blocks of 128 or 256 within 1% of each other and 4
  /// vectors 2 to 6% behind; change 23's variants (the kernel itself, the ten bias, column and per-channel
  /// cells in one run) had blocks of 128 at 0.997 to 1.021 of 256 (geometric mean 1.007), 2 vectors a
  /// thread in blocks of 128 at 0.929 to 1.016 and in blocks of 256 at 0.915 to 1.009; change 24's
  /// (three runs) had blocks of 128 at 0.986 to 1.016 of 256, the bf16 bias [2^16, 4096] and per-channel
  /// cells +1 to 1.5% in every run, and ncu had them faster in each of 10 pairs (docs/PERFORMANCE.md
  /// change 26).
  int vector_row_threads = 128;
  int vector_row_unroll = 1;
  /// A vector-row kernel for each set of broadcast arrays (up to three arrays: 2^n kernels, the host picks
  /// the launch's), instead of one kernel that holds every set's body and picks it in each thread: no
  /// choice in the kernel, and each kernel's registers its own body's (change 26).
  bool vector_row_kernel_per_set = true;
  /// Rows that are not whole vectors (an odd extent innermost: a bias over [R, 1021], per-channel NCHW with
  /// H * W = 3135) take the vector-row kernel's `split` form from rows of this many elements (0: never;
  /// the 1-D kernel with gather operands takes them): each vector's row found once for every input, a
  /// vector that ends in the next row done element by element. With rows of this length or more at most
  /// one vector in 32 of a row does that, so a warp runs the element-by-element form at most once. Probe
  /// 13 (H200, 2026-12-04, docs/PERFORMANCE.md): from 64 elements instead, bias rows of 129 and 255
  /// elements ran 0.83 to 0.98 of this (the gather path), per-channel bf16 rows of 169 1.09 to 1.13.
  int vector_row_split_min_cols = 256;
  /// Rows shorter than that (or all, with `vector_row_split_min_cols` 0), and rows of any length where an
  /// input is read along them other than by the flat index (a bias), that are not whole vectors, from
  /// this many elements and a vector, outputs dense and aligned, take the vector-row kernel's `wrap` form
  /// (0: never; the 1-D kernel with gather operands takes them): every vector done the same way, an input
  /// along the rows read element by element from its row and the next, one broadcast along them as its
  /// two rows' elements; no vector done apart from its warp. Change 29 (H200, 2026-12-04,
  /// docs/PERFORMANCE.md): bias rows of 129 and 255 elements 1.31 and 1.26x the gather path (bf16), 1.05
  /// and 1.04x (f32), per-channel rows of 169 1.34x and 1.03x; bias rows of 1021 (`wrapall`) 1.04x
  /// (bf16) and 1.18x (u8) the split form, per-channel rows of 3135 0.93x (bf16), which keep the split form.
  /// Rows below 64 are not measured.
  int vector_row_wrap_min_cols = 64;
  /// Outputs whose rows are padded (pitched, or columns sliced from a wider array) and not whole vectors
  /// take the vector-row kernel's `split` form (rows from `vector_row_split_min_cols` elements) where the
  /// padding is at most this percentage of a row (0: never; the N-dimensional kernel takes them): its flat
  /// index runs over the outputs' memory, padding included, so a thread in the padding does nothing.
  /// (Rows of whole vectors take its `pitched` form at any padding, whatever these three knobs say:
  /// change 33.) Change 28 (H200,
  /// 2026-12-04, docs/PERFORMANCE.md), relu of [2^14, 1000] into rows 1250, 1500 and 2000 elements apart
  /// beside the N-dimensional kernel: 1.13 and 1.05x it (f32), 1.40 and 1.35x (bf16) at 25 and 50%,
  /// 0.88 and 0.90x at 100%.
  int vector_row_max_padding_percent = 50;

  /// Row launches (row_kernel.cuh: a gather launch whose rows hold whole vectors): 128 threads a block,
  /// two vectors in flight each, as the 1-D kernel for unary ops; a block takes up to `row_chunk_vectors`
  /// vectors of one row (4 a thread), the chunks of a row made equal. Probe 8 (H200, 2026-12-02,
  /// docs/PERFORMANCE.md, medians of 3 runs): chunks of 512 vectors ran the f32 bias, column and
  /// per-channel cells 1.5 to 1.7% faster than chunks of 1024 and the bf16 ones within 0.8% (either way);
  /// chunks of 256 (one pass of a block) gained up to 3.4% on f32 but cut rows of 392 vectors (bf16 NCHW
  /// 56 x 56) into two chunks of 196, each leaving a quarter of the block idle: 0.85. Blocks of 256
  /// threads gained as much on f32 but need rows of 512 vectors to fill one pass.
  int row_block_threads = 128;
  int row_unroll = 2;
  int row_chunk_vectors = 512;
  /// Rows of fewer vectors than this take the gather path: one pass of a block (`row_block_threads *
  /// row_unroll`). Measured on the H200 (2026-12-02, docs/PERFORMANCE.md change 10, step g) with rows
  /// from 64 vectors: the row kernel took the per-channel statistics of NCHW from 0.79 to 0.96 (f32) and
  /// 0.61 to 0.91 (bf16) of torch.compile and a bf16 column broadcast over [2^16, 4096] (512 vectors a
  /// row) from 0.87 to 0.99, but a bf16 bias over [2^14, 1000] (125 vectors a row: one vector a thread)
  /// from 0.93 to 0.87.
  int row_min_vectors = 256;

  /// Tile launches (tile_kernel.cuh: an input that runs along another dimension than the outputs): square
  /// tiles of `tile_for(B).side` elements a side, `B` the largest element size of the launch's arrays.
  /// Up to 4-byte elements, `tile_block_threads` threads a block compiled for `tile_min_blocks_per_sm`, and
  /// 64 elements a side from 2-byte types up (a row of a tile is 128 or 256 bytes, 8 or 16 16-byte
  /// accesses on both sides), 128 for 1-byte types (rows of 128 bytes); 8-byte elements take `wide_tiles`.
  /// `tile_side`, when not 0, is the side for every size, with `tile_block_threads` and
  /// `tile_min_blocks_per_sm`. With blocks of 256 threads, 4 an SM, a 64 x 64 bf16 tile left each thread
  /// two loads in flight (0.64 of the 1-D copy, change 10), and 128 x 128 bf16 tiles (0.81 and 0.68) ran
  /// only 2 waves of them over a [2^14, 1000] transpose; probe 8 (medians of 3 runs) found 64 x 64 tiles of
  /// 128 threads, 8 blocks an SM, 13% faster there, 0.2% slower on bf16 [2^16, 4096], and on f32 4.7%
  /// faster at [2^16, 4096] and 1.1% slower at [2^14, 1000]. (32 x 32 tiles of 64 threads: f32 +4.3% on
  /// the small transpose but bf16 -26% on the large one; 64 x 64 of 64 threads, 16 an SM: f32 -11% on the
  /// small one.)
  int tile_side = 0;
  /// Threads per tile block: 8 vector accesses of a 64 x 64 4-byte tile per thread on each side, 4 of a
  /// 2-byte one.
  int tile_block_threads = 128;
  /// Resident tile blocks per SM the kernel is compiled for (`__launch_bounds__`): 8 of 128 threads caps it
  /// at 64 registers, as the N-dimensional kernel, and lets 8 tiles of up to 28 KB share an SM.
  int tile_min_blocks_per_sm = 8;
  /// Tiles of 8-byte elements (when `tile_side` is 0): 32 a side, 64 threads, 16 blocks an SM (64
  /// registers), 8 vector accesses a thread on each side in 8 KB of shared memory. A 64 x 64 f64 tile takes
  /// 32 KB, so that at most 7 blocks share an SM, each thread's 16 loads going in four rounds of four (ncu,
  /// [2^14, 1000]: 80 us against Inductor's 63, 34% occupancy); 32 x 32 tiles of 64 threads ran the f64
  /// transposes 2.8% ([2^16, 4096]) and 15.8% ([2^14, 1000]) faster (H200, 2026-12-03, docs/PERFORMANCE.md
  /// change 16b's variants).
  tile_shape wide_tiles{32, 64, 16};
  /// Tiles for a launch whose staged arrays are all outputs of 1-byte elements, beside 2- or 4-byte arrays,
  /// when `tile_side` is 0 (`side` 0: none): the FP8 cast-transpose (y8 and its transpose yt8 from x, change
  /// 42), whose x is read and y8 written along the rows and yt8 staged. 128 a side, so that each of yt8's
  /// tile rows is 128 bytes (64 left it half a cache line), 256 threads, 4 blocks an SM. Probe 26 (H100,
  /// 2026-12-06, docs/PERFORMANCE.md change 64), against ew's 1-D copy of x, [8192, 8192] and [16384, 4096]:
  /// ew's 64-side tiles 0.870 / 0.881 (bf16 x) and 0.911 / 0.915 (f32 x), these 0.914 / 0.912 and 0.942 /
  /// 0.940; 128 a side with 128 threads (8 an SM) 0.875 / 0.878 and 0.900 / 0.896, with 512 (2 an SM)
  /// 0.877 / 0.879 and 0.926 / 0.930; 64 a side with 256 threads 0.778 / 0.787 and 0.887 / 0.901. The
  /// issue's side-by-side cells (torch_fused_cells.py, H100, fourteenth session) and ncu show no gain of
  /// these over the 64-side tiles (0.84 of the copy for bf16 x, 0.90 for f32, before and after; ncu 103.4
  /// against 102.4 us; the cells 1% to 2% below the ninth session's, within their spread), and side by side
  /// in the cells (torch_fused_cells.py --variant-lib, t64x128, H100, fifteenth session) the 64-side tiles
  /// run at 0.995-1.004 of these: they stay, neither measurably better. A launch
  /// that also stages an input keeps the tiles above (a 128-side f32 tile would not fit the shared memory).
  tile_shape narrow_output_tiles{128, 256, 4};
  /// 16-byte loads a tile thread issues before it stores the first into shared memory: half of a 64 x 64
  /// 4-byte tile's share, all of a 2-byte one's; with 8 ptxas spilled 160 bytes under 64 registers (CUDA
  /// 13.0, 128 x 128 bf16 tiles), and probe 8 measured that at 0.45 to 0.52 of 4. Output vectors a thread
  /// reads every input of before it computes the first: this many shared among the inputs (4 for one input, 2
  /// for two, 1 from three: with 4 for two f32 inputs ptxas spilled 112 bytes).
  int tile_loads_in_flight = 4;
  /// In a full tile of a launch that reads its inputs straight from memory (`tile_plan::direct_reads`: no
  /// staged input, as in the narrow-output tiles' FP8 cast-transpose), a thread with at most this many
  /// reads a tile (output vectors times inputs) issues them all in one round; one with more reads in rounds
  /// of `tile_loads_in_flight` (`tile_direct_reads_for`). The cast-transpose on the H100 (2026-12-07,
  /// docs/PERFORMANCE.md change 65): bf16 x, 8 slots a thread, 2.3% faster in one round of 8 than in two
  /// of 4 with the tests a slot (64 registers, no spill; with the tests 8 spilled 124 bytes), 1% faster
  /// than two direct rounds of 4; f32 x, 16 slots, 3.3% slower in two rounds of 8 (spilled under 64
  /// registers) and 1.5% faster in four of 4. 0: every tile reads with the tests.
  int tile_direct_reads = 8;
  /// Buffers of asynchronous copies (0: none) in a `tile_plan::direct_reads` launch: the array inputs'
  /// full tiles copied into shared memory with cp.async (compute_80 and up), the next `tile_async_stages -
  /// 1` tiles' copies in flight while a tile is computed, in a grid of the resident blocks looping over the
  /// tiles (tile_kernel.cuh, `async_tile_order`); the compute phase reads each vector with one
  /// shared-memory load. A launch whose image was compiled for an older architecture, or whose buffers do
  /// not fit the device's shared memory a block, reads directly. 0: probe 27's hand-written cast-transpose
  /// with 3 such buffers ran 5-7% faster than ew's kernel (H100, 2026-12-06), but ew's with them ran the
  /// cells at 0.94-0.97 of its direct reads with 2 or 3 buffers compiled for the 2 blocks an SM that the
  /// buffers leave (bf16 and f32 x), 0.92-0.96 compiled for 4, 0.90-0.93 on 64-side tiles (H100,
  /// 2026-12-07, docs/PERFORMANCE.md change 65b). ncu put the loss in the instruction fetch (stall
  /// `no_instruction` 29 times the hand-written kernel's: the buffered kernel's loop is larger and spread
  /// over more code; docs/PERFORMANCE.md, eighteenth session). With the direct-reads launches' own kernel
  /// form (change 66) ew's direct reads run ahead of the hand-written buffered kernel (94.5 against 98.5 us,
  /// bf16 x [8192, 8192], ncu, H100) and its own buffered forms at 0.94 of them (the cells, nineteenth
  /// session).
  int tile_async_stages = 0;
  /// Tiles along `b` that run side by side (tile_kernel.cuh, `tile_plan`): the blocks resident at once
  /// cover `tile_group` tiles along `b` (the input rows' direction) times the rest along `a` (the output
  /// rows'), so that each input row is read in runs of `tile_group` tile rows, not one (128 bytes for
  /// bf16), and each output row still written in long runs. 1 is the plain order, `a` fastest: probe 9
  /// (H200, 2026-12-02, docs/PERFORMANCE.md) measured groups of 4, 8, 16 and 64 within -3.5% and +2.3% of
  /// it on the f32 and bf16 transposes, none better on all four.
  int tile_group = 1;

  /// The tile shape for arrays of at most `largest_bytes` bytes an element.
  constexpr tile_shape tile_for(std::size_t largest_bytes) const {
    if (tile_side == 0 && largest_bytes >= 8) return wide_tiles;
    return {tile_side > 0 ? tile_side : (largest_bytes <= 1 ? 128 : 64), tile_block_threads,
            tile_min_blocks_per_sm};
  }
  /// These shapes with `narrow_output_tiles` as the tiles of every element size.
  constexpr nd_kernel_shapes with_narrow_output_tiles() const {
    nd_kernel_shapes s = *this;
    s.tile_side = narrow_output_tiles.side;
    s.tile_block_threads = narrow_output_tiles.block_threads;
    s.tile_min_blocks_per_sm = narrow_output_tiles.min_blocks_per_sm;
    return s;
  }
  /// Output vectors a tile thread reads before it computes the first, for `num_inputs` inputs.
  constexpr int tile_reads_for(int num_inputs) const {
    return num_inputs <= 1 ? tile_loads_in_flight
                           : (tile_loads_in_flight / num_inputs > 0 ? tile_loads_in_flight / num_inputs : 1);
  }
  /// The same for the full tiles of a `tile_plan::direct_reads` launch whose threads have `slots` output
  /// vectors a tile: all of them at once where their reads are at most `tile_direct_reads`.
  constexpr int tile_direct_reads_for(int num_inputs, int slots) const {
    const int inputs = num_inputs > 1 ? num_inputs : 1;
    return slots * inputs <= tile_direct_reads ? slots : tile_reads_for(num_inputs);
  }
};

/// Shared memory the staged inputs of one tile launch may take, in bytes: the static limit, so that no
/// launch needs `cudaFuncSetAttribute`. A launch whose staged tiles need more takes the N-dimensional
/// kernel.
inline constexpr unsigned tile_max_smem_bytes = 48u * 1024u;

/// ew's N-dimensional kernel shapes.
inline constexpr nd_kernel_shapes default_nd_shapes{};

/// The kernels' template argument for their shapes, `S::value` (C++17 takes no class-type template
/// arguments): ew's own here; dispatch_nd.cuh makes one of a policy's entry.
struct default_nd_shapes_t {
  static constexpr nd_kernel_shapes value = default_nd_shapes;
};

/// Why `s` cannot be compiled, or nullptr: what a policy's `nd` entry is checked against (static_assert).
constexpr const char* nd_kernel_shapes_error(const nd_kernel_shapes& s) {
  auto pow2 = [](int v) { return v > 0 && (v & (v - 1)) == 0; };
  if (s.gather_unroll < 1 || s.gather_unroll > 16) return "gather_unroll must be in [1, 16]";
  const strided_shape& n = s.strided;
  if (n.vector_rows < 1 || n.vector_rows > 8 || n.vector_cols < 1 || n.vector_cols > 8)
    return "strided.vector_rows and strided.vector_cols must be in [1, 8]";
  if (n.scalar_rows < 1 || n.scalar_rows > 16) return "strided.scalar_rows must be in [1, 16]";
  if (n.block_threads < 32 || n.block_threads > 1024 || n.block_threads % 32 != 0)
    return "strided.block_threads must be a multiple of 32 in [32, 1024]";
  if (n.min_blocks_per_sm < 1 || n.min_blocks_per_sm > 32)
    return "strided.min_blocks_per_sm must be in [1, 32]";
  if (s.vector_row_threads != 0 &&
      (s.vector_row_threads < 32 || s.vector_row_threads > 1024 || s.vector_row_threads % 32 != 0))
    return "vector_row_threads must be 0 or a multiple of 32 in [32, 1024]";
  if (s.vector_row_unroll < 1 || s.vector_row_unroll > 16) return "vector_row_unroll must be in [1, 16]";
  if (s.vector_row_split_min_cols < 0) return "vector_row_split_min_cols must be >= 0";
  if (s.vector_row_max_padding_percent < 0) return "vector_row_max_padding_percent must be >= 0";
  if (s.vector_row_wrap_min_cols < 0) return "vector_row_wrap_min_cols must be >= 0";
  if (s.row_block_threads < 32 || s.row_block_threads > 1024 || s.row_block_threads % 32 != 0)
    return "row_block_threads must be a multiple of 32 in [32, 1024]";
  if (s.row_unroll < 1 || s.row_unroll > 16) return "row_unroll must be in [1, 16]";
  if (s.row_chunk_vectors < 1 || s.row_min_vectors < 1)
    return "row_chunk_vectors and row_min_vectors must be >= 1";
  if (s.tile_side != 0 && (!pow2(s.tile_side) || s.tile_side < 16 || s.tile_side > 256))
    return "tile_side must be 0 or a power of 2 in [16, 256]";
  if (s.tile_block_threads < 32 || s.tile_block_threads > 1024 || s.tile_block_threads % 32 != 0)
    return "tile_block_threads must be a multiple of 32 in [32, 1024]";
  if (s.tile_min_blocks_per_sm < 1 || s.tile_min_blocks_per_sm > 32)
    return "tile_min_blocks_per_sm must be in [1, 32]";
  const tile_shape& w = s.wide_tiles;
  if (!pow2(w.side) || w.side < 16 || w.side > 256)
    return "wide_tiles.side must be a power of 2 in [16, 256]";
  if (w.block_threads < 32 || w.block_threads > 1024 || w.block_threads % 32 != 0)
    return "wide_tiles.block_threads must be a multiple of 32 in [32, 1024]";
  if (w.min_blocks_per_sm < 1 || w.min_blocks_per_sm > 32)
    return "wide_tiles.min_blocks_per_sm must be in [1, 32]";
  const tile_shape& n8 = s.narrow_output_tiles;
  if (n8.side != 0 &&
      (!pow2(n8.side) || n8.side < 16 || n8.side > 256 || n8.block_threads < 32 || n8.block_threads > 1024 ||
       n8.block_threads % 32 != 0 || n8.min_blocks_per_sm < 1 || n8.min_blocks_per_sm > 32))
    return "narrow_output_tiles: side 0, or a power of 2 in [16, 256] with block_threads a multiple of 32 in "
           "[32, 1024] and min_blocks_per_sm in [1, 32]";
  if (s.tile_loads_in_flight < 1 || s.tile_loads_in_flight > 16)
    return "tile_loads_in_flight must be in [1, 16]";
  if (s.tile_direct_reads < 0 || s.tile_direct_reads > 16) return "tile_direct_reads must be in [0, 16]";
  if (s.tile_async_stages < 0 || s.tile_async_stages > 4) return "tile_async_stages must be in [0, 4]";
  if (s.tile_group < 1 || s.tile_group > 4096) return "tile_group must be in [1, 4096]";
  return nullptr;
}

}  // namespace tuning
}  // namespace ew
