// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// How a block's partial results of a side reduction (side_reduction.cuh) reach the target: `block_reduce`
/// (warp shuffles, one shared word per warp; `redux.sync` on order keys for a monotone reduction of a
/// 4-byte type, `block_reduce_keys`) and then either one atomic per block (`block_combine_into`,
/// `atomic_combine`: floats' max and min through the integer atomics on their bits) or, for an
/// `ew::reduce_overwrite` target, either (a `sum`) the block's partial into its workspace slot, a ticket,
/// and the last block's combination of every slot in block order (`block_overwrite`, `combine_slots`), or
/// (`max`, `min`, `amax`) one atomic maximum of the partial's order key (`order_key`) on one workspace word,
/// a ticket, and the last block's exchange of that word for zero (`block_overwrite_ordered`).
/// `combine_slots`, the keys and the word conversions are `__host__ __device__`: the host tests' simulated
/// last block runs them.

#include <cuda/std/bit>
#include <cuda/std/type_traits>

#include <nv/target>

#include "../functor.cuh"
#include "config.cuh"

namespace ew {

namespace reduction {
struct min;
struct sum;
}  // namespace reduction

namespace detail {

/// A value's bits in the low bytes of a workspace word, and back.
template <class T>
EW_HD unsigned long long to_word(T v) {
  if constexpr (sizeof(T) == 8) {
    return cuda::std::bit_cast<unsigned long long>(v);
  } else {
    return cuda::std::bit_cast<unsigned>(v);
  }
}
template <class T>
EW_HD T from_word(unsigned long long w) {
  if constexpr (sizeof(T) == 8) {
    return cuda::std::bit_cast<T>(w);
  } else {
    return cuda::std::bit_cast<T>(static_cast<unsigned>(w));
  }
}

/// What thread `thread` of the last block (`threads` threads) combines of the `count` blocks' partials in
/// `slots`: slots `thread`, `thread + threads`, ... in that order (the identity when none). On the device
/// the loads go to L2 (`ld.global.cg`): the slots were written by other SMs, whose stores this SM's L1
/// does not see. Eight loads in flight before the first combine.
template <class R, class T>
EW_HD T combine_slots(const unsigned long long* slots, unsigned count, unsigned thread, unsigned threads) {
  T v = R::template identity<T>();
  unsigned b = thread;
  constexpr int batch = 8;
  for (; b + (batch - 1) * threads < count; b += batch * threads) {
    unsigned long long w[batch];
    EW_DETAIL_UNROLL
    for (int k = 0; k < batch; ++k) {
      NV_IF_TARGET(NV_IS_DEVICE, (w[k] = __ldcg(slots + b + k * threads);), (w[k] = slots[b + k * threads];));
    }
    EW_DETAIL_UNROLL
    for (int k = 0; k < batch; ++k) v = R::combine(v, from_word<T>(w[k]));
  }
  for (; b < count; b += threads) {
    unsigned long long w;
    NV_IF_TARGET(NV_IS_DEVICE, (w = __ldcg(slots + b);), (w = slots[b];));
    v = R::combine(v, from_word<T>(w));
  }
  return v;
}

/// The integer type of `T`'s size that a float's bits are compared in, signed or not.
template <class T, bool Signed>
using bits_of_t = cuda::std::conditional_t<sizeof(T) == 4, cuda::std::conditional_t<Signed, int, unsigned>,
                                           cuda::std::conditional_t<Signed, long long, unsigned long long>>;

/// A monotone reduction's (`max`, `min`, `amax`) value `v` as an unsigned key whose unsigned maximum is the
/// reduction: the key of `R::combine(a, b)` is the larger of the two keys (floats: the total order of the
/// bits, `+0 > -0`, with a NaN made the canonical NaN that `atomic_combine` stores, above every value for
/// `max` and `amax`, below every value for `min`; integers: offset binary). No value has key 0, but for
/// integers the identity: a zeroed word is "no value yet" (`from_order_key` gives the identity).
template <class R, class T>
EW_HD unsigned long long order_key(T v) {
  constexpr bool is_min = cuda::std::is_same_v<R, reduction::min>;
  using U = bits_of_t<T, false>;
  constexpr U sign = U(1) << (sizeof(T) * 8 - 1);
  U k;
  if constexpr (cuda::std::is_floating_point_v<T>) {
    U b = cuda::std::bit_cast<U>(v);
    if (v != v) b = is_min ? ~U(0) : ~sign;  // canonical NaN, as atomic_combine's
    k = (b & sign) != 0 ? U(~b) : U(b | sign);
  } else {
    k = cuda::std::is_signed_v<T> ? U(static_cast<U>(v) ^ sign) : static_cast<U>(v);
  }
  return is_min ? U(~k) : k;
}
/// The value of an `order_key`; a zero key (no value) gives `R`'s identity.
template <class R, class T>
EW_HD T from_order_key(unsigned long long key) {
  constexpr bool is_min = cuda::std::is_same_v<R, reduction::min>;
  using U = bits_of_t<T, false>;
  constexpr U sign = U(1) << (sizeof(T) * 8 - 1);
  if (key == 0) return R::template identity<T>();
  const U k = is_min ? U(~static_cast<U>(key)) : static_cast<U>(key);
  if constexpr (cuda::std::is_floating_point_v<T>) {
    return cuda::std::bit_cast<T>((k & sign) != 0 ? U(k & ~sign) : U(~k));
  } else {
    return static_cast<T>(cuda::std::is_signed_v<T> ? U(k ^ sign) : k);
  }
}

/// `*target = R(*target, v)` as one atomic, on the device. Floating `max` and `min` go through the integer
/// atomics on the bits: non-negative floats order as signed integers, negative ones in reverse as unsigned
/// ones, and the two ranges do not mix (a non-negative float's bits are a non-negative signed integer, below
/// every negative float's bits as unsigned). A NaN is stored as the all-ones quiet NaN of its side (positive
/// for max, negative for min), which every later value leaves in place.
template <class R, class T>
__device__ __forceinline__ void atomic_combine(T* target, T v) {
  if constexpr (cuda::std::is_same_v<R, reduction::sum>) {
    if constexpr (cuda::std::is_floating_point_v<T> || sizeof(T) == 4) {
      using A = cuda::std::conditional_t<cuda::std::is_floating_point_v<T>, T,
                                         cuda::std::conditional_t<cuda::std::is_signed_v<T>, int, unsigned>>;
      atomicAdd(reinterpret_cast<A*>(target), static_cast<A>(v));
    } else {  // 64-bit integers: wrapping addition is the same on the unsigned bits
      atomicAdd(reinterpret_cast<unsigned long long*>(target), static_cast<unsigned long long>(v));
    }
  } else {
    constexpr bool is_max = !cuda::std::is_same_v<R, reduction::min>;  // max and amax
    if constexpr (cuda::std::is_floating_point_v<T>) {
      using S = bits_of_t<T, true>;
      using U = bits_of_t<T, false>;
      constexpr U sign = U(1) << (sizeof(T) * 8 - 1);
      U b = cuda::std::bit_cast<U>(v);
      if (v != v) b = is_max ? ~sign : ~U(0);  // canonical NaN: above every value on its side
      const bool negative = (b & sign) != 0;
      if (is_max) {
        if (negative) {
          atomicMin(reinterpret_cast<U*>(target), b);
        } else {
          atomicMax(reinterpret_cast<S*>(target), static_cast<S>(b));
        }
      } else {
        if (negative) {
          atomicMax(reinterpret_cast<U*>(target), b);
        } else {
          atomicMin(reinterpret_cast<S*>(target), static_cast<S>(b));
        }
      }
    } else {
      using A = bits_of_t<T, cuda::std::is_signed_v<T>>;
      if (is_max) {
        atomicMax(reinterpret_cast<A*>(target), static_cast<A>(v));
      } else {
        atomicMin(reinterpret_cast<A*>(target), static_cast<A>(v));
      }
    }
  }
}

/// Whether `block_reduce<R, T>` can reduce a warp with one `redux.sync`: a monotone reduction (`max`, `min`,
/// `amax`) of a 4-byte type, whose `order_key`s are 32 bits and whose unsigned maximum is the reduction.
template <class R, class T>
inline constexpr bool reduces_by_keys_v = R::monotone && sizeof(T) == 4;

/// `block_reduce` of a block of whole warps for a reduction that `reduces_by_keys_v`: each warp's largest
/// `order_key` by one `redux.sync` (sm_80 on), one shared word a warp, warp 0's `redux.sync` over them, and
/// the value of the largest key: `R`'s result exactly, a NaN the canonical one that `atomic_combine` and
/// `order_key` make of every NaN anyway. The shuffle tree took five rounds of a shuffle under a computed
/// mask and a float maximum with its NaN and signed-zero tests: the fused FP8 quantize's block end was 263
/// instructions to the atomic, and is 60 this way (CUDA 13.0, sm_90; docs/PERFORMANCE.md, change 68).
template <class R, class T>
__device__ __forceinline__ T block_reduce_keys(T v) {
  __shared__ unsigned warp_key[32];
  unsigned k = __reduce_max_sync(0xffffffffu, static_cast<unsigned>(order_key<R>(v)));
  if (threadIdx.x % 32u == 0) warp_key[threadIdx.x / 32u] = k;
  __syncthreads();
  if (threadIdx.x < 32u) {  // warp 0 over the warps' keys (0, below every key, past the last warp)
    k = __reduce_max_sync(0xffffffffu, threadIdx.x < blockDim.x / 32u ? warp_key[threadIdx.x] : 0u);
  }
  return from_order_key<R, T>(k);
}

/// `v` reduced over the block with `R`, in thread 0 (the other threads get a partial value): warp
/// shuffles, one shared word per warp, thread 0's loop over them, always in the same order (a monotone
/// reduction of a 4-byte type over whole warps: `block_reduce_keys`). Every thread of the block must call
/// it; any block size up to 1024 threads, a partial last warp included. Ends with thread 0 reading the
/// shared words: a second call needs a barrier before it.
template <class R, class T>
__device__ __forceinline__ T block_reduce(T v) {
  if constexpr (reduces_by_keys_v<R, T>) {
    NV_IF_TARGET(NV_PROVIDES_SM_80, (if (blockDim.x % 32u == 0u) return block_reduce_keys<R, T>(v);))
  }
  __shared__ T warp_partial[32];
  const unsigned lane = threadIdx.x % 32u, warp = threadIdx.x / 32u;
  const unsigned left = blockDim.x - warp * 32u;
  const unsigned lanes = left < 32u ? left : 32u;
  const unsigned mask = lanes == 32u ? 0xffffffffu : (1u << lanes) - 1u;
  for (unsigned off = 16; off > 0; off /= 2) {
    const T other = __shfl_down_sync(mask, v, off);
    if (lane + off < lanes) v = R::combine(v, other);
  }
  if (lane == 0) warp_partial[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    const unsigned warps = (blockDim.x + 31u) / 32u;
    for (unsigned w = 1; w < warps; ++w) v = R::combine(v, warp_partial[w]);
  }
  return v;
}

/// Reduces `a.acc` over the block and combines the result into `*a.target` with one atomic (thread 0).
/// Every thread of the block must call it.
template <class Acc>
__device__ __forceinline__ void block_combine_into(const Acc& a) {
  using R = typename Acc::reduction;
  using T = typename Acc::value_type;
  const T v = block_reduce<R>(a.acc);
  if (threadIdx.x == 0) {
    // A max, min or amax can only move `*target` one way, and it held at least `a.seen` when the block
    // began: a block value that does not pass it would change nothing, so its atomic is left out (NaN
    // fails the comparison and goes through). One load per block, issued at the block's start, read here.
    // Without it, at 2^28 f32 every one of 262,144 blocks sent an atomic to the one address, and the
    // fused quantize ran at 0.63 of the plain cast on the H200 (docs/PERFORMANCE.md, change 9).
    if (!R::monotone ||
        !(R::combine(v, a.seen) == a.seen && v == v && a.seen == a.seen && !(v == T(0) && a.seen == T(0)))) {
      atomic_combine<R>(a.target, v);
    }
  }
  __syncthreads();  // warp_partial is reused by the next reduction of the same type
}

/// The block's ticket: `atomicInc(counter, last)` with acquire-release semantics at GPU scope
/// (`atom.acq_rel.gpu.inc`): its release orders the block's slot or key before it, and the last block's
/// acquire orders what it reads next (after a barrier, for the block's other threads) after every other
/// block's ticket. It replaces `__threadfence(); atomicInc(); __threadfence();`: sm_90 compiles it to
/// `MEMBAR.ALL.GPU`, the atomic and an L1 invalidate, without the fences' two `MEMBAR.SC.GPU`, and the
/// overwrite's end took 0.4-0.5 us less (H100, 2026-12-05: 5% of an amax over 2^20 elements, 1-2% at 2^24;
/// docs/PERFORMANCE.md, change 50).
__device__ __forceinline__ unsigned ticket_acq_rel(unsigned* counter, unsigned last) {
  unsigned old;
  asm volatile("atom.acq_rel.gpu.global.inc.u32 %0, [%1], %2;"
               : "=r"(old)
               : "l"(counter), "r"(last)
               : "memory");
  return old;
}

/// Reduces `a.acc` over the block into the block's workspace slot; the last block of the grid to do so
/// combines every slot in block order and overwrites `*a.target` (the CUDA samples' threadFenceReduction,
/// with the fences in the ticket): thread 0 stores the slot and takes a ticket (`ticket_acq_rel`, whose
/// release makes the store visible device-wide before the counter moves), which wraps the counter back to 0
/// at the grid's last block, so the workspace is ready for the next launch without a reset. Every thread of
/// the block must call it.
template <class Acc>
__device__ __forceinline__ void block_overwrite(const Acc& a) {
  using R = typename Acc::reduction;
  using T = typename Acc::value_type;
  __shared__ bool last;
  T v = block_reduce<R>(a.acc);
  if (threadIdx.x == 0) {
    a.workspace->partial[blockIdx.x] = to_word(v);
    last = ticket_acq_rel(&a.workspace->arrived, gridDim.x - 1u) == gridDim.x - 1u;
  }
  __syncthreads();  // thread 0's acquire, then the barrier: the block's reads of the slots come after
  if (last) {       // the same for every thread of the block
    v = block_reduce<R>(combine_slots<R, T>(a.workspace->partial, gridDim.x, threadIdx.x, blockDim.x));
    if (threadIdx.x == 0) *a.target = v;
  }
  __syncthreads();  // the shared words are reused by the next reduction of the same type
}

/// `block_overwrite` for a monotone reduction (`max`, `min`, `amax`), whose result does not depend on the
/// order of its values: thread 0 sends the block's `order_key` to one workspace word as an atomic maximum
/// (a reduction: nothing comes back) and takes its ticket (whose release orders the maximum before it); the
/// last block's thread 0 exchanges the word for zero (ready for the next launch) and stores its value. The
/// last block reads one word instead of one slot a block, and no block reduction follows. Exact and
/// deterministic: a maximum of keys. Every thread of the block must call it.
template <class Acc>
__device__ __forceinline__ void block_overwrite_ordered(const Acc& a) {
  using R = typename Acc::reduction;
  using T = typename Acc::value_type;
  const T v = block_reduce<R>(a.acc);
  if (threadIdx.x == 0) {
    unsigned long long* word = &a.workspace->key;
    atomicMax(word, order_key<R>(v));
    if (ticket_acq_rel(&a.workspace->arrived, gridDim.x - 1u) == gridDim.x - 1u) {
      *a.target = from_order_key<R, T>(atomicExch(word, 0ull));
    }
  }
  __syncthreads();  // the shared words are reused by the next reduction of the same type
}

}  // namespace detail
}  // namespace ew
