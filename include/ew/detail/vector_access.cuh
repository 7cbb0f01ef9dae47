// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Aligned vector loads and stores of up to 16 bytes, with cache hints. Device only.

#include <cstdint>

#include <cuda/std/type_traits>

#include "../tuning.cuh"
#include "config.cuh"

namespace ew {
namespace detail {

/// `Vec` elements of `T`, aligned to their total size, which is what one vector access moves.
template <class T, int Vec>
struct alignas(sizeof(T) * Vec) aligned_vector {
  T v[Vec];
};

/// Unsigned integer type of `Bytes` bytes (1 to 16): the register type a vector access goes through.
template <int Bytes>
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
// thread: 6 st.global.v4 and 24 st.global.f32 in the PTX); PTX states the width and the cache operator
// outright.

template <tuning::cache_hint Hint>
__device__ __forceinline__ uint4 load_word(const uint4* p) {
  uint4 r;
  if constexpr (Hint == tuning::cache_hint::streaming) {
    asm("ld.global.cs.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(p));
  } else if constexpr (Hint == tuning::cache_hint::no_allocate) {
    asm("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];"
        : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
        : "l"(p));
  } else {
    asm("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(p));
  }
  return r;
}
template <tuning::cache_hint Hint>
__device__ __forceinline__ uint2 load_word(const uint2* p) {
  uint2 r;
  if constexpr (Hint == tuning::cache_hint::streaming) {
    asm("ld.global.cs.v2.u32 {%0, %1}, [%2];" : "=r"(r.x), "=r"(r.y) : "l"(p));
  } else if constexpr (Hint == tuning::cache_hint::no_allocate) {
    asm("ld.global.nc.L1::no_allocate.v2.u32 {%0, %1}, [%2];" : "=r"(r.x), "=r"(r.y) : "l"(p));
  } else {
    asm("ld.global.v2.u32 {%0, %1}, [%2];" : "=r"(r.x), "=r"(r.y) : "l"(p));
  }
  return r;
}
template <tuning::cache_hint Hint>
__device__ __forceinline__ unsigned load_word(const unsigned* p) {
  unsigned r;
  if constexpr (Hint == tuning::cache_hint::streaming) {
    asm("ld.global.cs.u32 %0, [%1];" : "=r"(r) : "l"(p));
  } else if constexpr (Hint == tuning::cache_hint::no_allocate) {
    asm("ld.global.nc.L1::no_allocate.u32 %0, [%1];" : "=r"(r) : "l"(p));
  } else {
    asm("ld.global.u32 %0, [%1];" : "=r"(r) : "l"(p));
  }
  return r;
}
template <tuning::cache_hint Hint, class W>
__device__ __forceinline__ W load_word(const W* p) {  // 1- and 2-byte words: head, tail, narrow types
  return Hint == tuning::cache_hint::streaming ? __ldcs(p) : *p;
}

template <tuning::cache_hint Hint>
__device__ __forceinline__ void store_word(uint4* p, uint4 w) {
  if constexpr (Hint == tuning::cache_hint::streaming) {
    asm volatile("st.global.cs.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(w.x), "r"(w.y), "r"(w.z), "r"(w.w)
                 : "memory");
  } else {
    asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(w.x), "r"(w.y), "r"(w.z), "r"(w.w)
                 : "memory");
  }
}
template <tuning::cache_hint Hint>
__device__ __forceinline__ void store_word(uint2* p, uint2 w) {
  if constexpr (Hint == tuning::cache_hint::streaming) {
    asm volatile("st.global.cs.v2.u32 [%0], {%1, %2};" ::"l"(p), "r"(w.x), "r"(w.y) : "memory");
  } else {
    asm volatile("st.global.v2.u32 [%0], {%1, %2};" ::"l"(p), "r"(w.x), "r"(w.y) : "memory");
  }
}
template <tuning::cache_hint Hint>
__device__ __forceinline__ void store_word(unsigned* p, unsigned w) {
  if constexpr (Hint == tuning::cache_hint::streaming) {
    asm volatile("st.global.cs.u32 [%0], %1;" ::"l"(p), "r"(w) : "memory");
  } else {
    asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(w) : "memory");
  }
}
template <tuning::cache_hint Hint, class W>
__device__ __forceinline__ void store_word(W* p, W w) {  // 1- and 2-byte words
  if constexpr (Hint == tuning::cache_hint::streaming) {
    __stcs(p, w);
  } else {
    *p = w;
  }
}

/// One vector access seen both as elements and as the register word it moves through. A union rather
/// than memcpy: with memcpy, NVVM split some 16-byte stores into four 4-byte ones (seen in the PTX of the
/// f32 add kernel, CUDA 13.0).
template <class T, int Vec>
union vector_word {
  aligned_vector<T, Vec> elements;
  typename raw_word<sizeof(T) * Vec>::type word;
};

/// Loads the `Vec` elements at `p`, which must be aligned to `Vec * sizeof(T)`, in one access.
template <tuning::cache_hint Hint, int Vec, class T>
__device__ __forceinline__ vector_word<T, Vec> load_vector(const T* p) {
  vector_word<T, Vec> u;
  u.word = load_word<Hint>(reinterpret_cast<const decltype(u.word)*>(p));
  return u;
}

/// Stores `Vec` elements at `p`, which must be aligned to `Vec * sizeof(T)`, in one access.
template <tuning::cache_hint Hint, int Vec, class T>
__device__ __forceinline__ void store_vector(T* p, const vector_word<T, Vec>& x) {
  store_word<Hint>(reinterpret_cast<decltype(x.word)*>(p), x.word);
}

}  // namespace detail
}  // namespace ew
