// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The tile kernel: an N-dimensional launch whose outputs are contiguous and where some input runs along
/// another dimension than the outputs (a transposed copy, NCHW to NHWC, `permute(0, 2, 1, 3)`). Each block
/// takes a square tile (`nd_kernel_shapes::tile_for`, tuning.cuh) of elements of two dimensions: `a`,
/// the outputs' innermost, and `b`, along which those inputs are contiguous (stride 1). It first stages those
/// inputs' tiles in shared memory with 16-byte loads along `b`, transposed (`stage`, `staged_layout`), then
/// computes and writes the outputs with 16-byte stores along `a`, reading each output vector's staged inputs
/// with one shared-memory load and every other input directly (`compute`). Both phases are
/// `__host__ __device__`: the host tests run every thread of simulated blocks, phase by phase, over a buffer
/// that stands for the shared memory.

#include <cstddef>
#include <cstdint>

#include <cuda/std/array>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include <nv/target>

#include "../functor.cuh"
#include "config.cuh"
#include "kernel.cuh"
#include "nd_kernel.cuh"
#include "side_reduction.cuh"
#include "tile_copies.cuh"
#include "tile_layout.cuh"
#include "tile_slots.cuh"
#include "tile_stage.cuh"
#include "tuning.cuh"
#include "vector_access.cuh"

namespace ew {
namespace detail {

/// What one thread of a tile block does (`Vec` elements per output access, tiles and blocks of
/// `Shape::value`, a `tuning::tile_shape`, the other shapes `S::value`, a `tuning::nd_kernel_shapes`); `Outs`
/// a tuple of `tile_array<T, R>`, `Ins` of `tile_array<const T, R>`, `tile_affine<R>` and `tile_uniform`.
template <class Op, int Vec, class Shape, class S, int R, class Outs, class Ins>
struct tile_thread {
  static constexpr std::size_t num_in = cuda::std::tuple_size<Ins>::value;
  static constexpr std::size_t num_out = cuda::std::tuple_size<Outs>::value;
  static constexpr int side = Shape::value.side;
  static constexpr int threads = Shape::value.block_threads;
  template <std::size_t K>
  using in_t = typename cuda::std::tuple_element_t<K, Ins>::value_type;
  template <std::size_t K>
  using out_t = typename cuda::std::tuple_element_t<K, Outs>::value_type;

  // The buffers of asynchronous copies and the copies (tile_copies.cuh).
  using copies = tile_copies<Vec, side, threads, R, S::value.tile_async_stages, Ins>;
  static constexpr int copy_stages = copies::copy_stages;
  static constexpr unsigned copied_stage_bytes = copies::copied_stage_bytes;
  /// The dynamic shared memory of a launch of plan `p` whose staged tiles take `smem` bytes, with the
  /// buffers of asynchronous copies where they fit `max_smem` (`tile_copies::plan_copies`).
  static std::size_t plan_copies(tile_plan<R>& p, std::size_t smem, std::size_t max_smem) {
    return copies::plan_copies(p, smem, max_smem);
  }

  Op op;
  Outs outs;
  Ins ins;
  const tile_plan<R>& p;

  /// Phase 1 of the tile at `q` (`tile_origin`): every staged input's tile into `smem`, in a launch of
  /// form `Form` (`tile_form_of`; a `direct_reads` launch stages none).
#pragma nv_exec_check_disable
  template <tile_form Form>
  EW_HD void stage(const tile_place<R>& q, unsigned char* smem, int thread) {
    const unsigned t = static_cast<unsigned>(thread);
    if constexpr (Form == tile_form::general) {
      stage_all<tile_path::general, 1>(q, smem, t);
    } else if constexpr (Form == tile_form::vector) {
      if (path_of(q) == tile_path::vector_full) {
        p.stage_split == 1 ? stage_all<tile_path::vector_full, 1>(q, smem, t)
                           : stage_all<tile_path::vector_full, 2>(q, smem, t);
      } else {
        p.stage_split == 1 ? stage_all<tile_path::vector_edge, 1>(q, smem, t)
                           : stage_all<tile_path::vector_edge, 2>(q, smem, t);
      }
    }
  }

  /// Phase 2 of the tile at `q` in a launch of form `Form`: the outputs, from the staged tiles and the
  /// other inputs; a transposed output's tile into its staged tile in `smem`. In a `direct_reads` launch
  /// the full tiles read their inputs with no test, or from their buffer of asynchronous copies (`buffer`
  /// >= 0: `copy`), the edge tiles with a test a slot.
#pragma nv_exec_check_disable
  template <tile_form Form>
  EW_HD void compute(const tile_place<R>& q, unsigned char* smem, int thread, int buffer = -1) {
    const unsigned t = static_cast<unsigned>(thread);
    constexpr auto ins_seq = cuda::std::make_index_sequence<num_in>{};
    constexpr auto outs_seq = cuda::std::make_index_sequence<num_out>{};
    if constexpr (Form == tile_form::direct_reads) {
      if (path_of(q) == tile_path::vector_full) {
        if constexpr (copy_stages > 0) {
          if (buffer >= 0) {
            compute_impl<tile_path::vector_full, true, true>(q, smem, t, ins_seq, outs_seq,
                                                             copied_buffer(smem, buffer));
            return;
          }
        }
        compute_impl<tile_path::vector_full, true, false>(q, smem, t, ins_seq, outs_seq, nullptr);
      } else {
        compute_impl<tile_path::vector_edge, true, false>(q, smem, t, ins_seq, outs_seq, nullptr);
      }
    } else if constexpr (Form == tile_form::vector) {
      if (path_of(q) == tile_path::vector_full) {
        compute_impl<tile_path::vector_full, false, false>(q, smem, t, ins_seq, outs_seq, nullptr);
      } else {
        compute_impl<tile_path::vector_edge, false, false>(q, smem, t, ins_seq, outs_seq, nullptr);
      }
    } else {
      compute_impl<tile_path::general, false, false>(q, smem, t, ins_seq, outs_seq, nullptr);
    }
  }

  /// The asynchronous copies of tile `tile` (`tile_origin`), when it is a full tile (the others read
  /// directly) below `p.tiles`, into buffer `buffer` (`tile_plan::async_smem`): each array input's `side`
  /// rows of `side` elements along `a`, one vector a copy, the thread copying the vectors of its own
  /// compute slots (`slot_of`), which it alone reads back. Closes the thread's group of copies, also an
  /// empty one, so that every thread waits on the same count (`async_tile_order`).
#pragma nv_exec_check_disable
  EW_HD void copy(std::uint64_t tile, int buffer, unsigned char* smem, int thread) {
    if constexpr (copy_stages > 0) {
      if (tile < p.tiles) {
        const tile_place<R> q = tile_origin(p, tile);
        if (path_of(q) == tile_path::vector_full) {
          copies::copy_all(ins, q, p.rank, copied_buffer(smem, buffer), static_cast<unsigned>(thread),
                           cuda::std::make_index_sequence<num_in>{});
        }
      }
      async_commit();
    }
  }

  /// Phase 3 of the tile at `q` (`tile_plan::staged_outputs`) in a launch of form `Form`: each transposed
  /// output's staged tile to memory (`unstage_tile`).
#pragma nv_exec_check_disable
  template <tile_form Form>
  EW_HD void unstage(const tile_place<R>& q, const unsigned char* smem, int thread) {
    const unsigned t = static_cast<unsigned>(thread);
    if constexpr (Form == tile_form::general) {
      unstage_all<tile_path::general>(q, smem, t);
    } else {
      path_of(q) == tile_path::vector_full ? unstage_all<tile_path::vector_full>(q, smem, t)
                                           : unstage_all<tile_path::vector_edge>(q, smem, t);
    }
  }

  /// The path the tile at `q` takes. In a launch whose staged inputs and outputs take vectors everywhere
  /// (`tile_plan::vector_tiles`), a tile of `side` by `side` elements takes the path without bounds or
  /// alignment tests, one at an edge the path that tests each access's bounds only; both find every
  /// access with a 32-bit offset from the tile's first element. Other tiles take the general path.
  EW_HD tile_path path_of(const tile_place<R>& q) const {
    if (!p.vector_tiles) return tile_path::general;
    return q.na == side && q.nb == side ? tile_path::vector_full : tile_path::vector_edge;
  }

 private:
  EW_HD unsigned char* copied_buffer(unsigned char* smem, int buffer) const {
    return smem + p.async_smem + static_cast<unsigned>(buffer) * copied_stage_bytes;
  }
#pragma nv_exec_check_disable
  template <tile_path Path, int Split>
  EW_HD void stage_all(const tile_place<R>& q, unsigned char* smem, unsigned t) {
    cuda::std::apply([&](const auto&... in) { (stage_one<Path, Split>(in, q, smem, t), ...); }, ins);
  }
  template <tile_path Path, int Split, class In>
  EW_HD void stage_one(const In&, const tile_place<R>&, unsigned char*, unsigned) {}
#pragma nv_exec_check_disable
  template <tile_path Path>
  EW_HD void unstage_all(const tile_place<R>& q, const unsigned char* smem, unsigned t) {
    cuda::std::apply(
        [&](const auto&... out) { (unstage_tile<Path, side, threads>(out, q, p, smem, t), ...); }, outs);
  }
  template <tile_path Path, int Split, class T>
  EW_HD void stage_one(const tile_array<const T, R>& in, const tile_place<R>& q, unsigned char* smem,
                       unsigned thread) {
    stage_tile<Path, Split, side, threads, S::value.tile_loads_in_flight>(in, q, p, smem, thread);
  }

  // A thread's compute slots of a tile, and their reads and writes (tile_slots.cuh).
  using slots = tile_slots<Vec, side, threads, R>;
  using compute_slot = typename slots::compute_slot;
  static constexpr int per_thread_slots = slots::per_thread_slots;
  template <tile_path Path>
  EW_HD static compute_slot slot_of(unsigned thread, int k, int na, int nb) {
    return slots::template slot_of<Path>(thread, k, na, nb);
  }

#pragma nv_exec_check_disable
  template <tile_path Path, bool Direct, bool Copied, std::size_t... I, std::size_t... O>
  EW_HD void compute_impl(const tile_place<R>& q, unsigned char* smem, unsigned thread,
                          cuda::std::index_sequence<I...>, cuda::std::index_sequence<O...>,
                          const unsigned char* copied) {
    const auto& coord = q.coord;
    const std::int64_t a0 = q.a0, b0 = q.b0;
    const int na = Path == tile_path::vector_full ? side : q.na;
    const int nb = Path == tile_path::vector_full ? side : q.nb;
    // Each operand's offset of the tile's first element, once.
    const std::int64_t in_base[num_in + 1] = {
        slots::base_of(cuda::std::get<I>(ins), coord, a0, b0, p.rank)..., 0};
    const std::int64_t out_base[num_out] = {
        slots::base_of(cuda::std::get<O>(outs), coord, a0, b0, p.rank)...};
    // An edge tile's reads (with a test a slot) keep the rounds with tests: 8 of them in flight spilled 96
    // bytes (ptxas, CUDA 13.0, the cast-transpose of bf16 x under 64 registers), and edge tiles are few.
    constexpr int in_flight = Direct && Path == tile_path::vector_full
                                  ? S::value.tile_direct_reads_for(static_cast<int>(num_in), per_thread_slots)
                                  : S::value.tile_reads_for(static_cast<int>(num_in));
    constexpr int chunk = per_thread_slots < in_flight ? per_thread_slots : in_flight;
    EW_DETAIL_UNROLL
    for (int k0 = 0; k0 < per_thread_slots; k0 += chunk) {
      cuda::std::tuple<cuda::std::array<vector_word<in_t<I>, Vec>, chunk>...> loaded;
      // Every read of the chunk first, input by input.
      (slots::template read<Path, Direct, Copied, chunk>(
           cuda::std::get<I>(ins), in_base[I], smem, thread, k0, na, nb, cuda::std::get<I>(loaded),
           Copied ? copied + copies::template copied_offset<I> : copied),
       ...);
      EW_DETAIL_UNROLL
      for (int k = 0; k < chunk; ++k) {
        const compute_slot c = slot_of<Path>(thread, k0 + k, na, nb);
        if (c.active) {
          cuda::std::tuple<vector_word<out_t<O>, Vec>...> results;
          if constexpr (Path != tile_path::general && (is_fp8_v<out_t<O>> || ...)) {
            // Whole vectors (`c.n` is `Vec`): every result first, then each output's conversion, as the
            // 1-D kernel does (kernel.cuh), so that FP8 outputs convert two at a time, a word at a time.
            using result_t = cuda::std::remove_cv_t<
                cuda::std::remove_reference_t<decltype(op(cuda::std::get<I>(loaded)[k].elements.v[0]...))>>;
            result_t r[Vec];
            EW_DETAIL_UNROLL
            for (int j = 0; j < Vec; ++j) r[j] = op(cuda::std::get<I>(loaded)[k].elements.v[j]...);
            (convert_results<O, num_out>(cuda::std::get<O>(results), r), ...);
          } else {
            EW_DETAIL_UNROLL
            for (int j = 0; j < Vec; ++j) {
              if (j < c.n) {
                auto r = op(cuda::std::get<I>(loaded)[k].elements.v[j]...);
                ((cuda::std::get<O>(results).elements.v[j] = convert<out_t<O>>(result_part<O, num_out>(r))),
                 ...);
              }
            }
          }
          (slots::template write<Path>(cuda::std::get<O>(outs), out_base[O], smem, c.bl, c.al, c.n,
                                       cuda::std::get<O>(results)),
           ...);
        }
      }
    }
  }
};

/// The order of one block's work over its tiles `first`, `first + step`, ... below `tiles` in a launch with
/// `Stages` buffers of asynchronous copies (`tile_plan::async_smem`): the copies of the next `Stages - 1`
/// tiles are in flight while a tile is computed. `copy(tile, buffer)` issues a tile's copies (none past the
/// last tile) and closes the thread's group of them; `wait()` waits for all groups but the last
/// `Stages - 1`; `work(tile, buffer)` does the tile from its buffer and ends with a barrier, after which
/// the buffer may be copied into again. The kernel runs this order in each thread, the host simulation
/// phase by phase over the block's threads. No barrier after the wait: each thread copies the vectors it
/// reads itself (`tile_thread::copy`).
#pragma nv_exec_check_disable
template <int Stages, class Copy, class Wait, class Work>
EW_HD void async_tile_order(std::uint64_t first, std::uint64_t step, std::uint64_t tiles, Copy&& copy,
                            Wait&& wait, Work&& work) {
  for (int k = 0; k + 1 < Stages; ++k) copy(first + static_cast<std::uint64_t>(k) * step, k);
  int buffer = 0;
  for (std::uint64_t tile = first; tile < tiles; tile += step) {
    copy(tile + static_cast<std::uint64_t>(Stages - 1) * step, buffer == 0 ? Stages - 1 : buffer - 1);
    wait();
    work(tile, buffer);
    buffer = buffer + 1 == Stages ? 0 : buffer + 1;
  }
}

/// The tile kernel: `outs[k][x] = op(ins[0][x], ...)[k]` over plan `p`, one tile per block, grid-stride
/// over the tiles when there are more than the grid (a launch with asynchronous copies: the resident
/// blocks, `async_tile_order`); `smem_bytes` of dynamic shared memory hold the staged tiles and the
/// copies' buffers. `Form`: the paths compiled (`tile_form`, `tile_form_of(p)`); the asynchronous copies
/// are the `direct_reads` form's alone. The programmatic-launch wait and trigger are the 1-D kernel's
/// (kernel.cuh says why).
#pragma nv_diagnostic push
#pragma nv_diag_suppress 1407
template <class Op, int Vec, class Shape, class S, int R, class Outs, class Ins, tile_form Form>
EW_KERNEL void __launch_bounds__(Shape::value.block_threads, Shape::value.min_blocks_per_sm)
    tile_elementwise_kernel(Op op, tile_plan<R> p, launch_shape s, Outs outs, Ins ins) {
  extern __shared__ __align__(16) unsigned char ew_tile_smem[];
  NV_IF_TARGET(NV_PROVIDES_SM_90, (cudaGridDependencySynchronize();
                                   if (s.early_trigger) cudaTriggerProgrammaticLaunchCompletion();));
  const int thread = static_cast<int>(threadIdx.x);
  auto tile_work = [&](auto& t, std::uint64_t tile, int buffer) {
    const tile_place<R> q = tile_origin(p, tile);
    if constexpr (Form != tile_form::direct_reads) {
      if (p.staged_inputs) {
        t.template stage<Form>(q, ew_tile_smem, thread);
        __syncthreads();
      }
    }
    t.template compute<Form>(q, ew_tile_smem, thread, buffer);
    __syncthreads();
    if (p.staged_outputs) {  // transposed outputs, from shared memory
      t.template unstage<Form>(q, ew_tile_smem, thread);
      __syncthreads();
    }
  };
  auto run = [&](auto& t) {
    constexpr int stages = S::value.tile_async_stages;
    if constexpr (Form == tile_form::direct_reads && stages > 0) {
      if (p.async_smem >= 0) {
        async_tile_order<stages>(
            blockIdx.x, gridDim.x, p.tiles,
            [&](std::uint64_t tile, int buffer) { t.copy(tile, buffer, ew_tile_smem, thread); },
            [] { async_wait<stages - 1>(); },
            [&](std::uint64_t tile, int buffer) { tile_work(t, tile, buffer); });
        return;
      }
    }
    for (std::uint64_t tile = blockIdx.x; tile < p.tiles; tile += gridDim.x) tile_work(t, tile, -1);
  };
  if constexpr (has_side_reductions_v<Op>) {
    tile_thread<Op, Vec, Shape, S, R, Outs, Ins> t{start_side_reductions(op), outs, ins, p};
    run(t);
    finish_side_reductions(t.op);
  } else {
    tile_thread<Op, Vec, Shape, S, R, Outs, Ins> t{op, outs, ins, p};
    run(t);
  }
}
#pragma nv_diagnostic pop

}  // namespace detail
}  // namespace ew
