// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The vector-row kernel's loads and stores where a vector is not one aligned access
/// (vector_row_kernel.cuh): a run of elements that starts off a vector, a vector whose elements come from
/// two rows, a vector stored in pieces of its row's alignment. `__host__ __device__`, for the host tests.

#include <cstddef>
#include <cstdint>

#include <cuda/std/bit>
#include <cuda/std/type_traits>

#include "config.cuh"
#include "vector_access.cuh"

namespace ew {
namespace detail {

/// One input's share of one vector: `Vec` elements, or the one element of an array broadcast along the
/// row (`scalar`) where the body is compiled for it.
template <class T, int Vec>
struct vector_row_value {
  vector_word<T, Vec> w;
  T scalar;
};

/// The `Vec` elements at `base + at` of the run `[base, base + len)` (a row, or a flat array), which may
/// start anywhere in a vector: one vector load where they are a whole vector; off one, the two whole
/// vectors around them shifted together (`funnel_elements`) where both lie inside the run, and element by
/// element where not (a run's first and last vectors). No byte outside the run is read.
template <class T, int Vec>
EW_HD vector_word<T, Vec> load_run_vector(const T* base, std::uint32_t at, std::uint32_t len) {
  const T* q = base + at;
  const auto misaligned = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(q) % (sizeof(T) * Vec));
  if (misaligned != 0) {
    const std::uint32_t k = misaligned / static_cast<std::uint32_t>(sizeof(T));  // elements past a vector
    if constexpr (sizeof(T) * Vec == 16 && uses_word_v<T, Vec>) {
      if (at >= k && at - k + 2 * static_cast<std::uint32_t>(Vec) <= len)
        return funnel_elements<T, Vec>(load_vector<Vec>(q - k), load_vector<Vec>(q - k + Vec), k);
    }
    vector_word<T, Vec> w;
    EW_DETAIL_UNROLL
    for (int j = 0; j < Vec; ++j) w.elements.v[j] = q[j];
    return w;
  }
  return load_vector<Vec>(q);
}

/// An array broadcast along short rows (the `wrap` form), for the vector at column `col` of a row of
/// `cols` elements whose element is at `here` (the next row's at `there`): the row's element up to the
/// row's end, the next row's after it (read only where the vector reaches it: the last row has no next).
template <class T, int Vec>
EW_HD vector_word<T, Vec> load_two_rows_broadcast(const T* ptr, std::uint32_t here, std::uint32_t there,
                                                  std::uint32_t col, std::uint32_t cols) {
  const T a = ptr[here];
  const T b = col + static_cast<std::uint32_t>(Vec) > cols ? ptr[there] : a;
  vector_word<T, Vec> w;
  EW_DETAIL_UNROLL
  for (int j = 0; j < Vec; ++j) w.elements.v[j] = col + j < cols ? a : b;
  return w;
}

/// `Vec` elements of an array along short rows (the `wrap` form), the first `k` of them (at least one)
/// from element `from` on, the rest from element `next` on (the next row's first). Element `j` is loaded
/// from one of two addresses fixed for the vector, chosen by `j < k`, at the constant offset `j`: no index
/// arithmetic per element (the form before, an index per element widened to an address, took 7
/// instructions an element of the short bias bf16 in the SASS of CUDA 13.0), each load an `ld.global`
/// (`load_global`: from an address held as an integer, a plain load is a generic one). 8- and 16-bit
/// elements are packed into 32-bit words as they arrive.
template <class T, int Vec>
EW_HD vector_word<T, Vec> load_two_row_run(const T* ptr, std::uint32_t from, std::uint32_t next,
                                           std::uint32_t k) {
  // Element j is at a0 + j (j < k) or a1 + j (j >= k): a1 is `next` shifted back by k elements, in
  // unsigned address arithmetic (it may lie before the array; only a1 + j for j >= k is read).
  const std::uintptr_t a0 = reinterpret_cast<std::uintptr_t>(ptr + from);
  const std::uintptr_t a1 = reinterpret_cast<std::uintptr_t>(ptr) +
                            static_cast<std::uintptr_t>(next) * sizeof(T) -
                            static_cast<std::uintptr_t>(k) * sizeof(T);
  using U = unsigned_of_size_t<sizeof(T)>;
  const auto address = [&](int j) { return (static_cast<std::uint32_t>(j) < k ? a0 : a1) + j * sizeof(T); };
  const auto raw = [&](auto j) { return load_global<U>(address(j)); };  // generic: U may be void
  vector_word<T, Vec> w;
  if constexpr (cuda::std::is_void_v<U>) {  // no integer of its size: a plain (generic) load
    EW_DETAIL_UNROLL
    for (int j = 0; j < Vec; ++j) w.elements.v[j] = *reinterpret_cast<const T*>(address(j));
  } else if constexpr (sizeof(T) <= 2 && sizeof(T) * Vec == 16 && uses_word_v<T, Vec>) {
    constexpr int per_word = 4 / static_cast<int>(sizeof(T));
    std::uint32_t words[4];
    EW_DETAIL_UNROLL
    for (int q = 0; q < 4; ++q) {
      std::uint32_t v = 0;
      EW_DETAIL_UNROLL
      for (int e = 0; e < per_word; ++e) {
        v |= static_cast<std::uint32_t>(raw(q * per_word + e)) << (8 * sizeof(T) * e);
      }
      words[q] = v;
    }
    w.word.x = words[0];
    w.word.y = words[1];
    w.word.z = words[2];
    w.word.w = words[3];
  } else {
    EW_DETAIL_UNROLL
    for (int j = 0; j < Vec; ++j) w.elements.v[j] = cuda::std::bit_cast<T>(raw(j));
  }
  return w;
}

/// One vector of a padded output (the `pitched` form) stored at `q` in pieces of `piece` elements (a power
/// of two, at most `Vec`), each one aligned access: one 16-byte store where the rows start on a vector,
/// else as many as the rows' alignment asks (a row pitch of 1250 bf16 elements: four 4-byte stores).
/// 16-byte vectors are cut from their four 32-bit words (no element taken apart: an element-wise form took
/// the kernels of u8 from 32 to 44 registers, docs/PERFORMANCE.md change 33); others element by element.
template <class T, int Vec>
EW_HD void store_vector_pieces(T* q, const vector_word<T, Vec>& w, std::uint32_t piece) {
  const std::uint32_t bytes = piece * static_cast<std::uint32_t>(sizeof(T));
  if (piece >= static_cast<std::uint32_t>(Vec)) {
    store_vector<Vec>(q, w);
  } else if constexpr (sizeof(T) * Vec == 16 && uses_word_v<T, Vec>) {
    auto* b = reinterpret_cast<unsigned char*>(q);
    const std::uint32_t words[4] = {w.word.x, w.word.y, w.word.z, w.word.w};
    if (bytes == 8) {
      store_raw(b, uint2{words[0], words[1]});
      store_raw(b + 8, uint2{words[2], words[3]});
    } else if (bytes == 4) {
      EW_DETAIL_UNROLL
      for (int k = 0; k < 4; ++k) store_raw(b + 4 * k, words[k]);
    } else if (bytes == 2) {
      EW_DETAIL_UNROLL
      for (int k = 0; k < 8; ++k)
        store_raw(b + 2 * k, static_cast<unsigned short>(words[k / 2] >> (16 * (k % 2))));
    } else {
      EW_DETAIL_UNROLL
      for (int k = 0; k < 16; ++k)
        store_raw(b + k, static_cast<unsigned char>(words[k / 4] >> (8 * (k % 4))));
    }
  } else {
    EW_DETAIL_UNROLL
    for (int j = 0; j < Vec; ++j) {
      vector_word<T, 1> one;
      one.elements.v[0] = w.elements.v[j];
      store_vector<1>(q + j, one);
    }
  }
}

}  // namespace detail
}  // namespace ew
