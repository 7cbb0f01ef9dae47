// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// A tile block's compute slots (tile_kernel.cuh): the tile's `side` rows of `side / Vec` vectors along
/// `a`, the outputs' innermost dimension, dealt to `Threads` threads in turn. Where each slot lies on each
/// path (`tile_path`), how a slot's input vectors are read (from a staged tile, from memory directly, from
/// a buffer of asynchronous copies, or computed for the index and constants) and how its results are
/// written (to memory, or into a transposed output's staged tile). All of it is static and
/// `__host__ __device__`, as the kernel's phases are: the host tests run it over simulated blocks.

#include <cstddef>
#include <cstdint>

#include <cuda/std/array>

#include "../functor.cuh"
#include "config.cuh"
#include "nd_kernel.cuh"
#include "tile_layout.cuh"
#include "tile_stage.cuh"
#include "vector_access.cuh"

namespace ew {
namespace detail {

/// The compute slots of a tile of `Side` by `Side` elements under `Threads` threads, `Vec` elements a
/// slot, in a launch of rank `R`; `tile_thread` takes its slots, reads and writes from here.
template <int Vec, int Side, int Threads, int R>
struct tile_slots {
  static constexpr int side = Side;
  static constexpr int threads = Threads;

  /// Where a thread's compute slot `k` is in the tile: row `bl` (along `b`), first element `al` along `a`,
  /// `n` elements inside the tile, and whether it is one (`active`).
  struct compute_slot {
    unsigned bl, al;
    int n;
    bool active;
  };
  static constexpr unsigned per_row = side / Vec;
  static constexpr unsigned compute_slots = side * per_row;
  static constexpr int per_thread_slots = static_cast<int>((compute_slots + threads - 1) / threads);
  /// An operand's offset of the tile's first element (`a0` along `a`, `b0` along `b`, the batch
  /// coordinates `coord` of a launch of rank `rank`): the base every slot's offset is taken from. An array
  /// (`tile_array`) or the index (`tile_affine`): both hold `stride`, `a` and `b`; a uniform operand: 0.
  template <class O>
  EW_HD static std::int64_t base_of(const O& o, const std::int64_t (&coord)[R], std::int64_t a0,
                                    std::int64_t b0, int rank) {
    return row_offset(o.stride, coord, rank) + a0 * o.a + b0 * o.b;
  }
  template <class Uniform>
  EW_HD static std::int64_t base_of(const tile_uniform<Uniform>&, const std::int64_t (&)[R], std::int64_t,
                                    std::int64_t, int) {
    return 0;
  }
  template <tile_path Path>
  EW_HD static compute_slot slot_of(unsigned thread, int k, int na, int nb) {
    const unsigned s = thread + static_cast<unsigned>(k * threads);
    // With whole rows a pass (`threads % per_row == 0`), slot `thread + k * threads` is `thread`'s column,
    // `k * threads / per_row` rows further: constant steps from the thread's first slot.
    const unsigned bl = threads % per_row == 0
                            ? thread / per_row + static_cast<unsigned>(k) * (threads / per_row)
                            : s / per_row;
    const unsigned al = (threads % per_row == 0 ? thread : s) % per_row * Vec;
    if constexpr (Path == tile_path::vector_full) {  // `k` past the thread's slots: a last, short chunk
      return {bl, al, Vec, k < per_thread_slots && (compute_slots % threads == 0 || s < compute_slots)};
    } else if constexpr (Path == tile_path::vector_edge) {  // `na` whole vectors (`vector_tiles`)
      return {bl, al, Vec, s < compute_slots && static_cast<int>(bl) < nb && static_cast<int>(al) < na};
    } else {
      const int n = na - static_cast<int>(al) < Vec ? na - static_cast<int>(al) : Vec;
      return {bl, al, n, s < compute_slots && static_cast<int>(bl) < nb && n > 0};
    }
  }

  // The vectors of slots k0 to k0 + Chunk - 1 of an input: from its staged tile, or from memory at
  // `in.ptr + base` (the tile's first element) plus the slot's offset (32 bits on the vector paths).
  // `Direct` (`tile_plan::direct_reads`): every slot's vector is whole and aligned, read from memory with
  // no test but the slot's own (none in a full tile), so that the chunk's loads issue in one straight
  // run. The form with a test a slot merged its paths' results element by element: 8 bf16 vectors in
  // flight took 64 registers of 16-bit halves and spilled 124 bytes (ptxas, CUDA 13.0); this form holds
  // them as 32 registers of words.
  // `Copied`: the full tile's vectors from its buffer of asynchronous copies at `copied` instead, where
  // the copy of slot (bl, al) lies at `(bl * side + al) * sizeof(T)` (`tile_copies::copy_one`).
  template <tile_path Path, bool Direct, bool Copied, int Chunk, class T>
  EW_HD static void read(const tile_array<const T, R>& in, std::int64_t base, const unsigned char* smem,
                         unsigned thread, int k0, int na, int nb,
                         cuda::std::array<vector_word<T, Vec>, Chunk>& u, const unsigned char* copied) {
    if constexpr (Copied) {
      EW_DETAIL_UNROLL
      for (int k = 0; k < Chunk; ++k) {
        const compute_slot c = slot_of<Path>(thread, k0 + k, na, nb);
        if (c.active) {
          const unsigned char* at = copied + (c.bl * side + c.al) * sizeof(T);
          if constexpr (uses_word_v<T, Vec>) {
            u[k].word = smem_get<typename raw_word<sizeof(T) * Vec>::type>(at);
          } else {
            EW_DETAIL_UNROLL
            for (int j = 0; j < Vec; ++j) u[k].elements.v[j] = smem_get<T>(at + j * sizeof(T));
          }
        }
      }
      return;
    }
    if constexpr (Direct) {
      const T* first = in.ptr + base;
      EW_DETAIL_UNROLL
      for (int k = 0; k < Chunk; ++k) {
        const compute_slot c = slot_of<Path>(thread, k0 + k, na, nb);
        if (c.active) {
          u[k] = load_vector<Vec>(first +
                                  (static_cast<int>(c.bl) * static_cast<int>(in.b) + static_cast<int>(c.al)));
        }
      }
      return;
    }
    if (in.smem >=
        0) {  // `Vec` elements along `a` of row `bl`, one shared-memory load where they make a word
      using L = staged_layout<T, side>;
      const unsigned char* tile = smem + in.smem;
      EW_DETAIL_UNROLL
      for (int k = 0; k < Chunk; ++k) {
        const compute_slot c = slot_of<Path>(thread, k0 + k, na, nb);
        if (!c.active) continue;
        if constexpr (uses_word_v<T, Vec> && Vec % L::pack == 0 && sizeof(T) * Vec <= 16) {
          u[k].word = smem_get<typename raw_word<sizeof(T) * Vec>::type>(tile + L::byte_offset(c.bl, c.al));
        } else {
          EW_DETAIL_UNROLL
          for (int j = 0; j < Vec; ++j)
            u[k].elements.v[j] = smem_get<T>(tile + L::byte_offset(c.bl, c.al + j));
        }
      }
      return;
    }
    const T* first = in.ptr + base;
    EW_DETAIL_UNROLL
    for (int k = 0; k < Chunk; ++k) {
      const compute_slot c = slot_of<Path>(thread, k0 + k, na, nb);
      if (!c.active) continue;
      const T* q = Path != tile_path::general ? first + (static_cast<int>(c.bl) * static_cast<int>(in.b) +
                                                         static_cast<int>(c.al) * static_cast<int>(in.a))
                                              : first + c.bl * in.b + c.al * in.a;
      if (c.n == Vec && in.a == 1 && reinterpret_cast<std::uintptr_t>(q) % (sizeof(T) * Vec) == 0) {
        u[k] = load_vector<Vec>(q);
      } else {
        EW_DETAIL_UNROLL
        for (int j = 0; j < Vec; ++j) u[k].elements.v[j] = j < c.n ? q[j * in.a] : T{};
      }
    }
  }
  template <tile_path Path, bool Direct, bool Copied, int Chunk>
  EW_HD static void read(const tile_affine<R>& in, std::int64_t base, const unsigned char*, unsigned thread,
                         int k0, int na, int nb, cuda::std::array<vector_word<std::int64_t, Vec>, Chunk>& u,
                         const unsigned char*) {
    EW_DETAIL_UNROLL
    for (int k = 0; k < Chunk; ++k) {
      const compute_slot c = slot_of<Path>(thread, k0 + k, na, nb);
      const std::int64_t first = base + c.bl * in.b + c.al * in.a;
      EW_DETAIL_UNROLL
      for (int j = 0; j < Vec; ++j) u[k].elements.v[j] = first + j * in.a;
    }
  }
  template <tile_path Path, bool Direct, bool Copied, int Chunk, class Uniform>
  EW_HD static void read(const tile_uniform<Uniform>& in, std::int64_t, const unsigned char*, unsigned, int,
                         int, int, cuda::std::array<vector_word<typename Uniform::value_type, Vec>, Chunk>& u,
                         const unsigned char*) {
    EW_DETAIL_UNROLL
    for (int k = 0; k < Chunk; ++k) u[k] = in.u.template vector<Vec>(0);
  }

  template <tile_path Path, class T>
  EW_HD static void write(const tile_array<T, R>& o, std::int64_t base, unsigned char* smem, unsigned bl,
                          unsigned al, int n, const vector_word<T, Vec>& w) {
    if (o.smem >=
        0) {  // a transposed output: into its staged tile, as a staged input lies (phase 3 stores it)
      using L = staged_layout<T, side>;
      unsigned char* tile = smem + o.smem;
      if constexpr (uses_word_v<T, Vec> && Vec % L::pack == 0 && sizeof(T) * Vec <= 16) {
        if (n == Vec) {
          smem_put(tile + L::byte_offset(bl, al), w.word);
          return;
        }
      }
      EW_DETAIL_UNROLL
      for (int j = 0; j < Vec; ++j) {
        if (j < n) smem_put(tile + L::byte_offset(bl, al + static_cast<unsigned>(j)), w.elements.v[j]);
      }
      return;
    }
    if constexpr (Path != tile_path::general) {  // `vector_tiles`: aligned, whole vectors, 32-bit offsets
      store_vector<Vec>(o.ptr + base + (static_cast<int>(bl) * static_cast<int>(o.b) + static_cast<int>(al)),
                        w);
      return;
    }
    T* q = o.ptr + base + bl * o.b + al;
    if (n == Vec && reinterpret_cast<std::uintptr_t>(q) % (sizeof(T) * Vec) == 0) {
      store_vector<Vec>(q, w);
    } else {
      EW_DETAIL_UNROLL
      for (int j = 0; j < Vec; ++j) {
        if (j < n) {
          observe_access(q + j, sizeof(T), true);
          q[j] = w.elements.v[j];
        }
      }
    }
  }
};

}  // namespace detail
}  // namespace ew
