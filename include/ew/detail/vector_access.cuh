// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Vector loads and stores of up to 16 bytes. On the device they are inline PTX; on the
/// host the same functions copy bytes (`memcpy`), so the host tests can run the kernel's per-thread body
/// (kernel.cuh) over simulated grids and check what it computes and where it writes.

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <nv/target>

#include <cuda/std/type_traits>

#include "../functor.cuh"
#include "config.cuh"

namespace ew {
namespace detail {

/// True when `Bytes` is the size of a register word one access can move: 1, 2, 4, 8 or 16.
template <std::size_t Bytes>
inline constexpr bool is_word_size_v = Bytes == 1 || Bytes == 2 || Bytes == 4 || Bytes == 8 || Bytes == 16;

/// True when an array of `T` can take the vectorized path: its size is a power of two of at most 16 bytes,
/// so that vectors of it are whole register words. Other element types (`float3`, 12 bytes; anything over
/// 16 bytes) always take the scalar path, one element per access, at the element's own alignment.
template <class T>
inline constexpr bool is_vectorizable_v = is_word_size_v<sizeof(T)>;

/// True when a vector of `Vec` elements of `T` moves through one register word: its size is a word's, and
/// either it is a real vector (`Vec > 1`, which only the vectorized path uses, after `vector_head` aligned
/// every pointer to it) or `T` is aligned to its size (so every `T*` is aligned to the word). A single
/// element of an under-aligned type (a 16-byte struct aligned to 4) is copied as `T`, which is safe at any
/// address its alignment allows: as a 16-byte word it faulted (cudaErrorMisalignedAddress) on the scalar
/// path.
template <class T, int Vec>
inline constexpr bool uses_word_v = is_word_size_v<sizeof(T) * Vec> && (Vec > 1 || alignof(T) >= sizeof(T));

/// `Vec` elements of `T`, aligned to their total size when that is a register word's (which is what one
/// vector access moves), else to `T`'s own alignment (`Vec` is then 1: see `is_vectorizable_v`).
template <class T, int Vec>
struct alignas(is_word_size_v<sizeof(T) * Vec> ? sizeof(T) * Vec : alignof(T)) aligned_vector {
  T v[Vec];
};

/// Unsigned integer type of `Bytes` bytes (1, 2, 4, 8 or 16): the register type a vector access goes
/// through. Spelled out because the toolkit has no public one: `cuda::std` stops at 8-byte integers, and
/// CUB's `cub::UnitWord<T>` picks a word by alignment, not by size, for its own loads.
template <std::size_t Bytes>
struct raw_word;
template <>
struct raw_word<1> {
  using type = unsigned char;
};
template <>
struct raw_word<2> {
  using type = unsigned short;
};
template <>
struct raw_word<4> {
  using type = unsigned int;
};
template <>
struct raw_word<8> {
  using type = uint2;
};
template <>
struct raw_word<16> {
  using type = uint4;
};

// Loads and stores go through inline PTX for 4-, 8- and 16-byte words. Written as plain C++, NVVM split
// half of the 16-byte stores of an unrolled kernel into 4-byte ones (CUDA 13.0, f32 add, 4 vectors per
// thread: 6 st.global.v4 and 24 st.global.f32 in the PTX); PTX states the width outright. Every asm load is
// `volatile` with a "memory" clobber, like the stores: without them the compiler may treat a load as a pure
// function of its address and move it above the kernel's `griddepcontrol.wait` (kernel.cuh), the barrier
// that makes programmatic launch safe. (Plain C++ loads cannot cross that asm's own "memory" clobber.)
// Only default caching: the streaming (`.cs`) and read-only no-allocate variants lost 7 to 11% at 2^28 on
// the H200 (docs/PERFORMANCE.md, probe 2), so the shipped kernel has none; the tuner builds its own.

EW_HD uint4 load_word(const uint4* p) {
  uint4 r;
  NV_IF_TARGET(NV_IS_DEVICE,
               (asm volatile("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];"
                             : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
                             : "l"(p)
                             : "memory");),
               (std::memcpy(&r, p, sizeof(r));));
  return r;
}
EW_HD uint2 load_word(const uint2* p) {
  uint2 r;
  NV_IF_TARGET(NV_IS_DEVICE,
               (asm volatile("ld.global.v2.u32 {%0, %1}, [%2];"
                             : "=r"(r.x), "=r"(r.y)
                             : "l"(p)
                             : "memory");),
               (std::memcpy(&r, p, sizeof(r));));
  return r;
}
EW_HD unsigned load_word(const unsigned* p) {
  unsigned r;
  NV_IF_TARGET(NV_IS_DEVICE,
               (asm volatile("ld.global.u32 %0, [%1];"
                             : "=r"(r)
                             : "l"(p)
                             : "memory");),
               (std::memcpy(&r, p, sizeof(r));));
  return r;
}
template <class W>
EW_HD W load_word(const W* p) {  // 1- and 2-byte words: head, tail, narrow types
  W r;
  NV_IF_TARGET(NV_IS_DEVICE, (r = *p;), (std::memcpy(&r, p, sizeof(r));));
  return r;
}

/// The unsigned integer of `Bytes` bytes (1, 2, 4 or 8), `void` for other sizes.
template <std::size_t Bytes>
using unsigned_of_size_t = cuda::std::conditional_t<
    Bytes == 1, std::uint8_t,
    cuda::std::conditional_t<
        Bytes == 2, std::uint16_t,
        cuda::std::conditional_t<Bytes == 4, std::uint32_t,
                                 cuda::std::conditional_t<Bytes == 8, std::uint64_t, void>>>>;

/// One unsigned integer of 1, 2, 4 or 8 bytes from the global memory at address `a` (an address held as an
/// integer, which the compiler cannot see is global: a plain load of it is a generic `LD`).
template <class W>
EW_HD W load_global(std::uintptr_t a) {
  static_assert(cuda::std::is_unsigned_v<W> && sizeof(W) <= 8);
  W r;
  if constexpr (sizeof(W) == 1) {
    unsigned v;
    NV_IF_TARGET(NV_IS_DEVICE,
                 (asm volatile("ld.global.u8 %0, [%1];"
                               : "=r"(v)
                               : "l"(a)
                               : "memory");),
                 (unsigned char c; std::memcpy(&c, reinterpret_cast<const void*>(a), 1); v = c;));
    r = static_cast<W>(v);
  } else if constexpr (sizeof(W) == 2) {
    NV_IF_TARGET(NV_IS_DEVICE,
                 (asm volatile("ld.global.u16 %0, [%1];"
                               : "=h"(r)
                               : "l"(a)
                               : "memory");),
                 (std::memcpy(&r, reinterpret_cast<const void*>(a), sizeof(r));));
  } else if constexpr (sizeof(W) == 4) {
    r = load_word(reinterpret_cast<const unsigned*>(a));
  } else {
    NV_IF_TARGET(NV_IS_DEVICE,
                 (asm volatile("ld.global.u64 %0, [%1];"
                               : "=l"(r)
                               : "l"(a)
                               : "memory");),
                 (std::memcpy(&r, reinterpret_cast<const void*>(a), sizeof(r));));
  }
  return r;
}

EW_HD void store_word(uint4* p, uint4 w) {
  NV_IF_TARGET(NV_IS_DEVICE,
               (asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(w.x), "r"(w.y),
                             "r"(w.z), "r"(w.w)
                             : "memory");),
               (std::memcpy(p, &w, sizeof(w));));
}
EW_HD void store_word(uint2* p, uint2 w) {
  NV_IF_TARGET(NV_IS_DEVICE,
               (asm volatile("st.global.v2.u32 [%0], {%1, %2};" ::"l"(p), "r"(w.x), "r"(w.y)
                             : "memory");),
               (std::memcpy(p, &w, sizeof(w));));
}
EW_HD void store_word(unsigned* p, unsigned w) {
  NV_IF_TARGET(NV_IS_DEVICE,
               (asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(w)
                             : "memory");),
               (std::memcpy(p, &w, sizeof(w));));
}
template <class W>
EW_HD void store_word(W* p, W w) {  // 1- and 2-byte words
  NV_IF_TARGET(NV_IS_DEVICE, (*p = w;), (std::memcpy(p, &w, sizeof(w));));
}

/// One vector access seen both as elements and as the register word it moves through. A union rather
/// than memcpy on the device: with memcpy, NVVM split some 16-byte stores into four 4-byte ones (seen in
/// the PTX of the f32 add kernel, CUDA 13.0). Elements whose vectors are not a register word (`float3`,
/// or one under-aligned element: `uses_word_v`) have no word: they are copied element by element.
template <class T, int Vec, bool = uses_word_v<T, Vec>>
union vector_word {
  aligned_vector<T, Vec> elements;
  typename raw_word<sizeof(T) * Vec>::type word;
};
template <class T, int Vec>
union vector_word<T, Vec, false> {
  aligned_vector<T, Vec> elements;
};

/// Host simulations only (the host tests): when set, called with every vector load and store the host
/// twins below perform, and every element store of the N-dimensional kernel's outputs (nd_kernel.cuh), as
/// (address, bytes, is_store). The tests check with it that each output element is written exactly once
/// and that every vector access is aligned. Device code never calls it.
inline void (*host_access_observer)(const void* address, std::size_t bytes, bool is_store) = nullptr;

/// Reports an access to `host_access_observer`, on the host only.
EW_HD void observe_access(const void* p, std::size_t bytes, bool is_store) {
  NV_IF_TARGET(NV_IS_HOST, (if (host_access_observer != nullptr) host_access_observer(p, bytes, is_store);));
}

/// Loads the `Vec` elements at `p`, which must be aligned to `Vec * sizeof(T)` when that is a word size, in
/// one access.
template <int Vec, class T>
EW_HD vector_word<T, Vec> load_vector(const T* p) {
  vector_word<T, Vec> u;
  observe_access(p, sizeof(T) * Vec, false);
  if constexpr (uses_word_v<T, Vec>) {
    u.word = load_word(reinterpret_cast<const decltype(u.word)*>(p));
  } else {
    for (int j = 0; j < Vec; ++j) u.elements.v[j] = p[j];
  }
  return u;
}

/// Stores word `w` (a `store_word` type) at `b`, which must be aligned to its size, in one access.
template <class W>
EW_HD void store_raw(unsigned char* b, W w) {
  observe_access(b, sizeof(W), true);
  store_word(reinterpret_cast<W*>(b), w);
}

/// Stores `Vec` elements at `p`, which must be aligned to `Vec * sizeof(T)` when that is a word size, in one
/// access.
template <int Vec, class T>
EW_HD void store_vector(T* p, const vector_word<T, Vec>& x) {
  if constexpr (uses_word_v<T, Vec>) {
    store_raw(reinterpret_cast<unsigned char*>(p), x.word);
  } else {
    observe_access(p, sizeof(T) * Vec, true);
    for (int j = 0; j < Vec; ++j) p[j] = x.elements.v[j];
  }
}

/// Elements `k` to `Vec - 1` of `a`, then elements `0` to `k - 1` of `b` (`0 < k < Vec`; 16-byte vectors):
/// the 32 bytes of `a` and `b` shifted right by `k` elements, a word at a time (by selects: no register is
/// indexed at run time). The vector-row kernel reads a run of elements that starts off a vector from the
/// two whole vectors around it this way (vector_row_access.cuh, `load_run_vector`).
template <class T, int Vec>
EW_HD vector_word<T, Vec> funnel_elements(const vector_word<T, Vec>& a, const vector_word<T, Vec>& b,
                                          std::uint32_t k) {
  static_assert(sizeof(T) * Vec == 16 && uses_word_v<T, Vec>, "funnel_elements: 16-byte vectors only");
  const std::uint32_t bytes = k * static_cast<std::uint32_t>(sizeof(T));
  const std::uint32_t w = bytes / 4, shift = (bytes % 4) * 8;
  const std::uint32_t words[8] = {a.word.x, a.word.y, a.word.z, a.word.w,
                                  b.word.x, b.word.y, b.word.z, b.word.w};
  std::uint32_t from[5];
  EW_DETAIL_UNROLL
  for (int j = 0; j < 5; ++j) {  // words[j + w]
    from[j] = w == 0 ? words[j] : (w == 1 ? words[j + 1] : (w == 2 ? words[j + 2] : words[j + 3]));
  }
  vector_word<T, Vec> r;
  std::uint32_t out[4];
  EW_DETAIL_UNROLL
  for (int j = 0; j < 4; ++j) {
    out[j] = static_cast<std::uint32_t>(
        ((static_cast<std::uint64_t>(from[j + 1]) << 32) | static_cast<std::uint64_t>(from[j])) >> shift);
  }
  r.word.x = out[0];
  r.word.y = out[1];
  r.word.z = out[2];
  r.word.w = out[3];
  return r;
}

}  // namespace detail
}  // namespace ew
