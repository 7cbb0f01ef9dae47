// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The tile kernel's operands (`tile_array`, `tile_affine`, `tile_uniform`) and its first phase,
/// `stage_tile`: a block's threads load a staged input's tile with 16-byte loads along `b` (or 8-byte
/// halves) and store it into shared memory transposed (tile_layout.cuh's `staged_layout`). The second
/// phase and the kernel are tile_kernel.cuh. `__host__ __device__`: the host tests run every thread.

#include <cstddef>
#include <cstdint>

#include <cuda/std/type_traits>

#include "../functor.cuh"
#include "config.cuh"
#include "nd_kernel.cuh"
#include "tile_layout.cuh"
#include "vector_access.cuh"

namespace ew {
namespace detail {

/// An array input or output of a tile launch: element `coord` is `ptr[row_offset(stride, coord)]`. `a` and
/// `b` are its strides along those dimensions. An input with `smem >= 0` is staged: contiguous along `b`
/// (`b == 1`), it is read through shared memory at byte offset `smem`.
template <class T, int R>
struct tile_array {
  using value_type = cuda::std::remove_const_t<T>;
  T* ptr;
  std::int64_t stride[R];
  std::int64_t a, b;
  int smem;
};

/// The index or one coordinate of a tile launch: `row_offset(stride, coord)`.
template <int R>
struct tile_affine {
  using value_type = std::int64_t;
  std::int64_t stride[R];
  std::int64_t a, b;
};

/// A constant or scalar operand (1-D kernel's) in a tile launch.
template <class Uniform>
struct tile_uniform {
  using value_type = typename Uniform::value_type;
  Uniform u;
};

/// Phase 1 of a tile block's thread `thread` for one staged input `in` (`in.smem >= 0`; others are not
/// staged) of the tile at `q` of plan `p`: its slots' loads along `b`, `Split` pieces each
/// (`tile_plan::stage_split`), at most `LoadsInFlight` before the first store, then their columns stored
/// into `smem` transposed (`staged_layout`). Tiles `Side` a side, `Threads` threads a block; `Path` says
/// which tests each access takes (`tile_path`).
template <tile_path Path, int Split, int Side, int Threads, int LoadsInFlight, class T, int R>
EW_HD void stage_tile(const tile_array<const T, R>& in, const tile_place<R>& q, const tile_plan<R>& p,
                      unsigned char* smem, unsigned thread) {
  constexpr int side = Side, threads = Threads;
  if (in.smem < 0) return;
  using L = staged_layout<T, side>;
  constexpr int v = L::stage_vec, pack = L::pack;
  constexpr unsigned slots = L::slots;
  constexpr int per_thread = (L::slots + threads - 1) / threads;
  constexpr bool every_slot = L::slots % threads == 0;  // no thread runs past the tile's slots
  constexpr bool vector = Path != tile_path::general, full = Path == tile_path::vector_full;
  // A staging load in `Split` pieces (`tile_plan::stage_split`).
  constexpr int piece = v / Split > 0 ? v / Split : 1;
  const int na = full ? side : q.na, nb = full ? side : q.nb;
  unsigned char* tile = smem + in.smem;
  const T* base = in.ptr + row_offset(in.stride, q.coord, p.rank) + q.a0 * in.a + q.b0;
  const int row = static_cast<int>(in.a);  // the vector paths': `vector_tiles` says it fits
  // Slots (of `pack` loads each) a thread loads before it stores the first.
  constexpr int slot_loads = LoadsInFlight / pack > 0 ? LoadsInFlight / pack : 1;
  constexpr int chunk = per_thread < slot_loads ? per_thread : slot_loads;
  unsigned w0 = 0, c0 = 0;
  L::stage_slot(thread, w0, c0);
  // Slot `thread + k * threads`'s word column `w` and vector `c` along `b`.
  const auto slot = [&](int k, unsigned s, unsigned& w, unsigned& c) {
    if constexpr (threads % L::slot_period == 0) {
      w = w0 + static_cast<unsigned>(k) * (threads / L::slot_period * L::slot_el);
      c = c0;
    } else {
      L::stage_slot(s, w, c);
    }
  };
  EW_DETAIL_UNROLL
  for (int k0 = 0; k0 < per_thread; k0 += chunk) {
    vector_word<T, v> x[chunk][pack];
    EW_DETAIL_UNROLL
    for (int k = 0; k < chunk; ++k) {   // every load of the chunk first
      if (k0 + k >= per_thread) break;  // a last, short chunk (`LoadsInFlight` not a divisor)
      const unsigned s = thread + static_cast<unsigned>((k0 + k) * threads);
      unsigned w = 0, c = 0;
      slot(k0 + k, s, w, c);
      const int bl = static_cast<int>(c) * v;
      EW_DETAIL_UNROLL
      for (int r = 0; r < pack; ++r) {
        const int al = static_cast<int>(w) * pack + r;
        if (vector) {
          const T* at = base + (al * row + bl);
          if constexpr (Split == 1 || v == 1) {
            if (full ? every_slot || s < slots : s < slots && al < na && bl < nb) {
              x[k][r] = load_vector<v>(at);
            } else {
              EW_DETAIL_UNROLL
              for (int j = 0; j < v; ++j) x[k][r].elements.v[j] = T{};  // past the tile: never read
            }
          } else {  // `Split` loads of whole words, each tested, into the vector's word
            using part_word = typename raw_word<sizeof(T) * piece>::type;
            union {
              vector_word<T, v> whole;
              part_word part[Split];
            } m;
            EW_DETAIL_UNROLL
            for (int i = 0; i < Split; ++i) {
              const bool in = full ? every_slot || s < slots : s < slots && al < na && bl + i * piece < nb;
              m.part[i] = in ? load_vector<piece>(at + i * piece).word : part_word{};
            }
            x[k][r] = m.whole;
          }
        } else if (s < slots && al < na) {
          const T* at = base + al * in.a + bl;
          if (bl + v <= nb && reinterpret_cast<std::uintptr_t>(at) % (sizeof(T) * v) == 0) {
            x[k][r] = load_vector<v>(at);
          } else {
            EW_DETAIL_UNROLL
            for (int j = 0; j < v; ++j) x[k][r].elements.v[j] = bl + j < nb ? at[j] : T{};
          }
        } else {
          EW_DETAIL_UNROLL
          for (int j = 0; j < v; ++j) x[k][r].elements.v[j] = T{};  // past the tile's rows: never read
        }
      }
    }
    EW_DETAIL_UNROLL
    for (int k = 0; k < chunk; ++k) {
      if (k0 + k >= per_thread) break;
      const unsigned s = thread + static_cast<unsigned>((k0 + k) * threads);
      unsigned w = 0, c = 0;
      slot(k0 + k, s, w, c);
      const unsigned bl = c * v;
      if ((full && every_slot) || (s < slots && static_cast<int>(w) * pack < na)) {
        // Rows bl to bl + v - 1 share their swizzle (`staged_layout`): one address, and constant steps.
        unsigned char* row0 = tile + L::word_index(bl, w) * L::word_bytes;
        EW_DETAIL_UNROLL
        for (int j = 0; j < v; ++j) {
          unsigned char* at = row0 + j * (L::row_words * L::word_bytes);
          if constexpr (pack > 1) {
            vector_word<T, pack> u;
            EW_DETAIL_UNROLL
            for (int r = 0; r < pack; ++r) u.elements.v[r] = x[k][r].elements.v[j];
            smem_put(at, u.word);
          } else {
            smem_put(at, x[k][0].elements.v[j]);
          }
        }
      }
    }
  }
}

/// Phase 3 of a tile block's thread `thread` for one staged output `out` (`out.smem >= 0`, transposed:
/// contiguous along `b`; others were written in phase 2) of the tile at `q` of plan `p`: the mirror of
/// `stage_tile`. Each of the thread's slots reads `stage_vec` words of its column from rows `b` on of the
/// staged tile (phase 2 stored them there, laid out as a staged input's), splits each word into its `pack`
/// elements along `a`, and stores the `pack` vectors along `b` to memory with 16-byte stores (the vector
/// paths: `tile_plan::vector_tiles` says they are whole there), or element by element where a vector is
/// cut by the tile's edge or misaligned (the general path).
template <tile_path Path, int Side, int Threads, class T, int R>
EW_HD void unstage_tile(const tile_array<T, R>& out, const tile_place<R>& q, const tile_plan<R>& p,
                        const unsigned char* smem, unsigned thread) {
  constexpr int side = Side, threads = Threads;
  if (out.smem < 0) return;
  using L = staged_layout<T, side>;
  constexpr int v = L::stage_vec, pack = L::pack;
  constexpr unsigned slots = L::slots;
  constexpr int per_thread = (L::slots + threads - 1) / threads;
  constexpr bool every_slot = L::slots % threads == 0;
  constexpr bool vector = Path != tile_path::general, full = Path == tile_path::vector_full;
  const int na = full ? side : q.na, nb = full ? side : q.nb;
  const unsigned char* tile = smem + out.smem;
  T* base = out.ptr + row_offset(out.stride, q.coord, p.rank) + q.a0 * out.a + q.b0;
  EW_DETAIL_UNROLL
  for (int k = 0; k < per_thread; ++k) {
    const unsigned s = thread + static_cast<unsigned>(k * threads);
    if (!(full && every_slot) && s >= slots) continue;
    unsigned w = 0, c = 0;
    L::stage_slot(s, w, c);
    const int bl = static_cast<int>(c) * v;
    if (!full && (static_cast<int>(w) * pack >= na || bl >= nb)) continue;
    vector_word<T, v> x[pack];
    // Rows bl to bl + v - 1 share their swizzle (`staged_layout`): one address, and constant steps.
    const unsigned char* row0 = tile + L::word_index(static_cast<unsigned>(bl), w) * L::word_bytes;
    EW_DETAIL_UNROLL
    for (int j = 0; j < v; ++j) {
      const unsigned char* at = row0 + j * (L::row_words * L::word_bytes);
      if constexpr (pack > 1) {
        vector_word<T, pack> u;
        u.word = smem_get<decltype(u.word)>(at);
        EW_DETAIL_UNROLL
        for (int r = 0; r < pack; ++r) x[r].elements.v[j] = u.elements.v[r];
      } else {
        x[0].elements.v[j] = smem_get<T>(at);
      }
    }
    EW_DETAIL_UNROLL
    for (int r = 0; r < pack; ++r) {
      const int al = static_cast<int>(w) * pack + r;
      if (!full && al >= na) continue;
      if (vector) {  // whole, aligned vectors along `b`, offsets in 32 bits
        store_vector<v>(base + (al * static_cast<int>(out.a) + bl), x[r]);
      } else {
        T* at = base + al * out.a + bl;
        if (bl + v <= nb && reinterpret_cast<std::uintptr_t>(at) % (sizeof(T) * v) == 0) {
          store_vector<v>(at, x[r]);
        } else {
          EW_DETAIL_UNROLL
          for (int j = 0; j < v; ++j) {
            if (bl + j < nb) {
              observe_access(at + j, sizeof(T), true);
              at[j] = x[r].elements.v[j];
            }
          }
        }
      }
    }
  }
}

}  // namespace detail
}  // namespace ew
