// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// How side reductions (reduce.cuh) run. The launcher takes the `ew::reduce_into` outputs out of the
/// output list and wraps the op in `side_reducing_op`, which returns only the array outputs' parts and
/// folds the others into accumulators it carries: each GPU thread works on its own copy of the op (the
/// kernels hold it by value), so the accumulators live in that thread's registers. After its elements a
/// thread hands its copy back (`elementwise_grid_thread`, `nd_grid_thread`), and the kernel reduces the
/// block's copies (`block_finish`: warp shuffles, one shared word per warp) into one atomic per block
/// and reduction. An `ew::reduce_overwrite` target takes no atomic on the value: each block stores its
/// partial in the workspace, and the last block to finish (a ticket counter, `atomicInc` wrapping back to
/// zero) combines the partials in block order and overwrites the location (`block_overwrite`). Launches
/// with side reductions have a capped grid whose blocks loop over tiles (`side_reduction_blocks`). The host
/// tests fold each simulated thread's copy with `host_finish` and end the launch with `host_end`.

#include <cstddef>
#include <cstdint>

#include <cuda/std/bit>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include <nv/target>

#include "../functor.cuh"
#include "op_traits.cuh"
#include "operand.cuh"
#include "config.cuh"
#include "partition.cuh"
#include "tuning.cuh"
#include "validate.cuh"

namespace ew {

namespace reduction {
struct max;
struct min;
struct sum;
struct amax;
}  // namespace reduction
template <class R, class T>
struct reduce_target;
template <class R, class T>
struct overwrite_target;

namespace detail {

/// Whether output argument `A` is an `ew::reduce_into` target.
template <class A>
inline constexpr bool is_reduce_target_v = false;
template <class R, class T>
inline constexpr bool is_reduce_target_v<reduce_target<R, T>> = true;
template <class R, class T>
inline constexpr bool is_reduce_target_v<overwrite_target<R, T>> = true;

/// One `ew::reduce_into` reduction's accumulator: the thread's partial result and where it goes.
template <class R, class T>
struct side_accumulator {
  using reduction = R;
  using value_type = T;
  static constexpr bool overwrite = false;
  T* target;
  T acc;
  /// What `*target` held when the block began (thread 0 only, `prefetch`), for `monotone` reductions.
  T seen;

  template <class V>
  EW_HD void add(V v) {
    acc = R::combine(acc, R::value(convert<T>(v)));
  }
  EW_HD void merge(const side_accumulator& o) { acc = R::combine(acc, o.acc); }
};

/// One `ew::reduce_overwrite` reduction's accumulator: the thread's partial result, the location, and the
/// workspace `W` (`ew::reduction_workspace`, a template parameter so that this detail header needs only its
/// declaration).
template <class R, class T, class W>
struct overwrite_accumulator {
  using reduction = R;
  using value_type = T;
  static constexpr bool overwrite = true;
  T* target;
  W* workspace;
  T acc;

  template <class V>
  EW_HD void add(V v) {
    acc = R::combine(acc, R::value(convert<T>(v)));
  }
  EW_HD void merge(const overwrite_accumulator& o) { acc = R::combine(acc, o.acc); }
};

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

/// `v` reduced over the block with `R`, in thread 0 (the other threads get a partial value): warp
/// shuffles, one shared word per warp, thread 0's loop over them, always in the same order. Every thread
/// of the block must call it; any block size up to 1024 threads, a partial last warp included. Ends with
/// thread 0 reading the shared words: a second call needs a barrier before it.
template <class R, class T>
__device__ __forceinline__ T block_reduce(T v) {
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

/// Reduces `a.acc` over the block into the block's workspace slot; the last block of the grid to do so
/// combines every slot in block order and overwrites `*a.target` (the CUDA samples' threadFenceReduction):
/// thread 0 stores the slot, fences (the store is visible device-wide before the counter moves), and takes
/// a ticket with `atomicInc`, which wraps the counter back to 0 at the grid's last block, so the workspace
/// is ready for the next launch without a reset. Every thread of the block must call it.
template <class Acc>
__device__ __forceinline__ void block_overwrite(const Acc& a) {
  using R = typename Acc::reduction;
  using T = typename Acc::value_type;
  __shared__ bool last;
  T v = block_reduce<R>(a.acc);
  if (threadIdx.x == 0) {
    a.workspace->partial[blockIdx.x] = to_word(v);
    __threadfence();
    last = atomicInc(&a.workspace->arrived, gridDim.x - 1u) == gridDim.x - 1u;
  }
  __syncthreads();
  if (last) {         // the same for every thread of the block
    __threadfence();  // the other blocks' slots, stored before their tickets, are read after this one's
    v = block_reduce<R>(combine_slots<R, T>(a.workspace->partial, gridDim.x, threadIdx.x, blockDim.x));
    if (threadIdx.x == 0) *a.target = v;
  }
  __syncthreads();  // the shared words are reused by the next reduction of the same type
}

/// An op's result as the tuple of its parts: itself, or (`Single`) a tuple of the one value.
template <bool Single, class R>
EW_HD auto as_parts(R r) {
  if constexpr (Single) {
    return cuda::std::tuple<R>(r);
  } else {
    return r;
  }
}

/// The op of a launch with side reductions: `Op`'s result parts at positions `A...` are returned (one
/// value for one array output, a tuple for several, an empty tuple for none: a 1-D launch that only
/// reduces), those at `S...` go into the accumulators `Acc...`,
/// in order. The accumulators are `mutable`: the call stays const for the launcher's checks, and each
/// thread's copy of the op is its own.
template <class Op, class ArrayPos, class SidePos, class... Acc>
struct side_reducing_op;
template <class Op, std::size_t... A, std::size_t... S, class... Acc>
struct side_reducing_op<Op, cuda::std::index_sequence<A...>, cuda::std::index_sequence<S...>, Acc...> {
  Op op;
  mutable cuda::std::tuple<Acc...> acc;

#pragma nv_exec_check_disable
  template <class... X>
  EW_HD auto operator()(X... x) const {
    // One output (a reduction alone) takes the op's value itself, as an array output would.
    constexpr bool single =
        sizeof...(A) + sizeof...(S) == 1 && tuple_size_or_zero<decltype(op(x...))>::value == 0;
    auto r = as_parts<single>(op(x...));
    static_assert(
        tuple_size_or_zero<decltype(r)>::value == sizeof...(A) + sizeof...(S),
        "ew::elementwise: with N outputs, ew::reduce_into ones included, Op must return a tuple-like "
        "value of N elements");
    add_all(r, cuda::std::index_sequence_for<Acc...>{});
    if constexpr (sizeof...(A) == 0) {  // a reduction alone: nothing to write
      return cuda::std::tuple<>{};
    } else if constexpr (sizeof...(A) == 1) {
      return cuda::std::get<A...>(r);
    } else {
      return cuda::std::tuple<
          cuda::std::remove_cv_t<cuda::std::remove_reference_t<decltype(cuda::std::get<A>(r))>>...>(
          cuda::std::get<A>(r)...);
    }
  }

  /// Takes in the accumulators of another copy of the op (another path of the same thread).
  EW_HD void merge(const side_reducing_op& o) const { merge_all(o, cuda::std::index_sequence_for<Acc...>{}); }

  /// Thread 0 of a block reads what the monotone reductions' targets hold, at the block's start (after the
  /// programmatic-launch wait), so that `block_finish` can leave out atomics that would change nothing.
  __device__ __forceinline__ void prefetch() const { prefetch_all(cuda::std::index_sequence_for<Acc...>{}); }

  /// The block's reduction and its atomics; every thread of the block calls it (device only).
  __device__ __forceinline__ void block_finish() const { block_all(cuda::std::index_sequence_for<Acc...>{}); }

  /// What a launch of no elements does (`overwrite_identity_kernel`): each `ew::reduce_overwrite` location
  /// takes the reduction's identity, the reduction of no values; `ew::reduce_into` ones keep their value
  /// (combining the identity into them would change nothing). The workspaces are not touched.
  EW_HD void write_identities() const { identities_all(cuda::std::index_sequence_for<Acc...>{}); }

  /// The host tests' end of simulated thread `thread` of block `block`: its partials combined into the
  /// `ew::reduce_into` targets, and into the block's workspace slot of the `ew::reduce_overwrite` ones
  /// (thread 0 first: it stores, the others combine).
  void host_finish(std::size_t block, std::size_t thread) const {
    host_all(block, thread, cuda::std::index_sequence_for<Acc...>{});
  }

  /// The host tests' end of a simulated launch of `blocks` blocks of `threads`, after every thread's
  /// `host_finish`: the last block's part for each `ew::reduce_overwrite` target (`combine_slots` for each
  /// of its threads, combined in thread order), which overwrites the location.
  void host_end(std::size_t blocks, std::size_t threads) const {
    host_end_all(blocks, threads, cuda::std::index_sequence_for<Acc...>{});
  }

 private:
  template <class Ac>
  __device__ __forceinline__ static void prefetch_one(Ac& a) {
    if constexpr (!Ac::overwrite) {  // an overwritten location is not read
      a.seen = Ac::reduction::monotone && threadIdx.x == 0
                   ? *static_cast<volatile const typename Ac::value_type*>(a.target)
                   : Ac::reduction::template identity<typename Ac::value_type>();
    }
  }
  template <std::size_t... K>
  __device__ __forceinline__ void prefetch_all(cuda::std::index_sequence<K...>) const {
    (prefetch_one(cuda::std::get<K>(acc)), ...);
  }
  template <class Ac>
  __device__ __forceinline__ static void block_one(const Ac& a) {
    if constexpr (Ac::overwrite) {
      block_overwrite(a);
    } else {
      block_combine_into(a);
    }
  }
  template <std::size_t... K>
  __device__ __forceinline__ void block_all(cuda::std::index_sequence<K...>) const {
    (block_one(cuda::std::get<K>(acc)), ...);
  }
  template <class Ac>
  EW_HD static void identity_one(const Ac& a) {
    if constexpr (Ac::overwrite) *a.target = Ac::reduction::template identity<typename Ac::value_type>();
  }
  template <std::size_t... K>
  EW_HD void identities_all(cuda::std::index_sequence<K...>) const {
    (identity_one(cuda::std::get<K>(acc)), ...);
  }
  template <class Rt, std::size_t... K>
  EW_HD void add_all(Rt& r, cuda::std::index_sequence<K...>) const {
    constexpr std::size_t pos[] = {S...};
    (cuda::std::get<K>(acc).add(cuda::std::get<pos[K]>(r)), ...);
  }
  template <std::size_t... K>
  EW_HD void merge_all(const side_reducing_op& o, cuda::std::index_sequence<K...>) const {
    (cuda::std::get<K>(acc).merge(cuda::std::get<K>(o.acc)), ...);
  }
  template <class Ac>
  static void host_one(const Ac& a, std::size_t block, std::size_t thread) {
    using R = typename Ac::reduction;
    using T = typename Ac::value_type;
    if constexpr (Ac::overwrite) {
      unsigned long long& slot = a.workspace->partial[block];
      slot = to_word(thread == 0 ? a.acc : R::combine(from_word<T>(slot), a.acc));
    } else {
      *a.target = R::combine(*a.target, a.acc);
    }
  }
  template <std::size_t... K>
  void host_all(std::size_t block, std::size_t thread, cuda::std::index_sequence<K...>) const {
    (host_one(cuda::std::get<K>(acc), block, thread), ...);
  }
  template <class Ac>
  static void host_end_one(const Ac& a, std::size_t blocks, std::size_t threads) {
    if constexpr (Ac::overwrite) {
      using R = typename Ac::reduction;
      using T = typename Ac::value_type;
      T v = R::template identity<T>();
      for (std::size_t t = 0; t < threads; ++t) {
        v = R::combine(v, combine_slots<R, T>(a.workspace->partial, static_cast<unsigned>(blocks),
                                              static_cast<unsigned>(t), static_cast<unsigned>(threads)));
      }
      *a.target = v;
    }
  }
  template <std::size_t... K>
  void host_end_all(std::size_t blocks, std::size_t threads, cuda::std::index_sequence<K...>) const {
    (host_end_one(cuda::std::get<K>(acc), blocks, threads), ...);
  }
};

template <class Op, class AP, class SP, class... Acc>
struct user_op<side_reducing_op<Op, AP, SP, Acc...>> {
  using type = user_op_t<Op>;
};

/// Whether `Op` is a `side_reducing_op` (the kernels then hand each thread's copy back).
template <class Op>
inline constexpr bool has_side_reductions_v = false;
template <class Op, class AP, class SP, class... Acc>
inline constexpr bool has_side_reductions_v<side_reducing_op<Op, AP, SP, Acc...>> = true;

/// Whether `Op` is a `side_reducing_op` with an `ew::reduce_overwrite` target (its grid is then at most
/// `tuning::reduction_workspace_blocks`).
template <class Op>
inline constexpr bool has_overwrite_targets_v = false;
template <class Op, class AP, class SP, class... Acc>
inline constexpr bool has_overwrite_targets_v<side_reducing_op<Op, AP, SP, Acc...>> = (Acc::overwrite || ...);

/// The grid of a launch of `blocks` blocks (one tile each) that has side reductions, on a device of
/// `sm_count` SMs: at most `policy.reduction_blocks_per_sm` a SM (tuning.cuh says why), and with an
/// `ew::reduce_overwrite` target at most the workspace's slots. The kernels' blocks loop over tiles.
EW_HD std::size_t side_reduction_blocks(std::size_t blocks, int sm_count, const tuning::launch_policy& policy,
                                        bool overwrite) {
  std::size_t cap =
      policy.reduction_blocks_per_sm > 0 && sm_count > 0
          ? static_cast<std::size_t>(policy.reduction_blocks_per_sm) * static_cast<std::size_t>(sm_count)
          : blocks;
  if (overwrite && cap > tuning::reduction_workspace_blocks) cap = tuning::reduction_workspace_blocks;
  return blocks < cap ? blocks : (cap < 1 ? 1 : cap);
}

/// The static shared memory the block ends of `Op`'s side reductions may take, at most: 32 words of each
/// accumulator's type (`block_reduce`) and a flag (`block_overwrite`), 16 bytes for it with padding. The
/// tile kernel's plan leaves it out of its dynamic shared memory's budget (plan.cuh).
template <class Op>
inline constexpr unsigned side_reduction_static_smem = 0;
template <class Op, class AP, class SP, class... Acc>
inline constexpr unsigned side_reduction_static_smem<side_reducing_op<Op, AP, SP, Acc...>> =
    ((32u * sizeof(typename Acc::value_type) + 16u) + ... + 0u);

/// `shape` capped by `side_reduction_blocks` for an op with side reductions `Op` (unchanged without).
/// A capped grid is no longer one tile a block, so it leaves the whole-tile path.
template <class Op>
EW_HD launch_shape side_reduction_shape(launch_shape shape, int sm_count,
                                        const tuning::launch_policy& policy) {
  if constexpr (has_side_reductions_v<Op>) {
    const std::size_t blocks =
        side_reduction_blocks(shape.blocks, sm_count, policy, has_overwrite_targets_v<Op>);
    if (blocks < shape.blocks) {
      shape.blocks = blocks;
      shape.whole_tiles = false;
    }
  }
  return shape;
}

// Hidden visibility is ignored (nvcc warning 1407) for an op from an anonymous namespace, whose kernel
// has internal linkage: intended, as for the element-wise kernels (kernel.cuh).
#pragma nv_diagnostic push
#pragma nv_diag_suppress 1407
/// The kernel of a launch of no elements with `ew::reduce_overwrite` targets (one thread): the locations
/// take the identity, so that an overwrite target always holds the reduction of the launch's values, also
/// of none (an empty expert's tokens, an empty tensor), and never a value left from an earlier launch.
template <class Op>
EW_KERNEL void overwrite_identity_kernel(Op op) {
  op.write_identities();
}
#pragma nv_diagnostic pop

/// The kernel's end of a thread with side reductions: the block's reduction and atomics.
template <class Op>
__device__ __forceinline__ void finish_side_reductions(const Op& op) {
  if constexpr (has_side_reductions_v<Op>) op.block_finish();
}

/// The kernel's start: `op` with the targets' values read (thread 0), or `op` itself without reductions.
template <class Op>
__device__ __forceinline__ Op start_side_reductions(const Op& op) {
  Op local = op;
  if constexpr (has_side_reductions_v<Op>) local.prefetch();
  return local;
}

/// Positions `K` of the outputs `Out...` that are (`Side`) or are not reduce targets, as an index sequence.
template <bool Side, std::size_t K, class Seq, class... Out>
struct positions_of;
template <bool Side, std::size_t K, std::size_t... P>
struct positions_of<Side, K, cuda::std::index_sequence<P...>> {
  using type = cuda::std::index_sequence<P...>;
};
template <bool Side, std::size_t K, std::size_t... P, class First, class... Rest>
struct positions_of<Side, K, cuda::std::index_sequence<P...>, First, Rest...> {
  using type = typename positions_of<
      Side, K + 1,
      cuda::std::conditional_t<is_reduce_target_v<First> == Side, cuda::std::index_sequence<P..., K>,
                               cuda::std::index_sequence<P...>>,
      Rest...>::type;
};

/// The accumulator of a reduce target.
template <class A>
struct accumulator_of;
template <class R, class T>
struct accumulator_of<reduce_target<R, T>> {
  using type = side_accumulator<R, T>;
};
template <class R, class T>
struct accumulator_of<overwrite_target<R, T>> {
  using type = overwrite_accumulator<
      R, T, cuda::std::remove_pointer_t<decltype(cuda::std::declval<overwrite_target<R, T>>().workspace)>>;
};

/// A reduce target's memory locations into `info` and `kinds` from position `k` on (`k` moves past them):
/// the location (one element), and an overwrite target's workspace.
template <class R, class T>
void target_locations(const reduce_target<R, T>& t, pointer_info* info, reduce_location* kinds, int& k) {
  kinds[k] = reduce_location::combine;
  info[k++] = pointer_info{reinterpret_cast<std::uintptr_t>(t.ptr), sizeof(T), alignof(T), true};
}
template <class R, class T>
void target_locations(const overwrite_target<R, T>& t, pointer_info* info, reduce_location* kinds, int& k) {
  using W = cuda::std::remove_pointer_t<decltype(t.workspace)>;
  kinds[k] = reduce_location::overwrite;
  info[k++] = pointer_info{reinterpret_cast<std::uintptr_t>(t.ptr), sizeof(T), alignof(T), true};
  kinds[k] = reduce_location::workspace;
  info[k++] = pointer_info{reinterpret_cast<std::uintptr_t>(t.workspace), sizeof(W), alignof(W), true};
}

/// How many memory locations output argument `A` adds to the side reductions' check.
template <class A>
inline constexpr int num_locations_v = 0;
template <class R, class T>
inline constexpr int num_locations_v<reduce_target<R, T>> = 1;
template <class R, class T>
inline constexpr int num_locations_v<overwrite_target<R, T>> = 2;

/// A reduce target's accumulator, starting at the reduction's identity.
template <class R, class T>
side_accumulator<R, T> make_accumulator(const reduce_target<R, T>& t) {
  return side_accumulator<R, T>{t.ptr, R::template identity<T>(), R::template identity<T>()};
}
template <class R, class T>
typename accumulator_of<overwrite_target<R, T>>::type make_accumulator(const overwrite_target<R, T>& t) {
  return {t.ptr, t.workspace, R::template identity<T>()};
}

/// Outputs `Out...` split: the op wrapped for the arrays (`wrap`), and the arrays themselves (`arrays`).
template <class Op, class... Out>
struct side_split {
  using array_pos = typename positions_of<false, 0, cuda::std::index_sequence<>, Out...>::type;
  using side_pos = typename positions_of<true, 0, cuda::std::index_sequence<>, Out...>::type;
  static constexpr std::size_t num_side = side_pos::size();

  template <std::size_t... S>
  static auto wrap_impl(const Op& op, const cuda::std::tuple<Out...>& outs, cuda::std::index_sequence<S...>) {
    using wrapped = side_reducing_op<
        Op, array_pos, side_pos,
        typename accumulator_of<cuda::std::tuple_element_t<S, cuda::std::tuple<Out...>>>::type...>;
    return wrapped{op, {make_accumulator(cuda::std::get<S>(outs))...}};
  }
  static auto wrap(const Op& op, const cuda::std::tuple<Out...>& outs) {
    return wrap_impl(op, outs, side_pos{});
  }

  template <std::size_t... P>
  static auto arrays_impl(const cuda::std::tuple<Out...>& outs, cuda::std::index_sequence<P...>) {
    return cuda::std::tuple<cuda::std::tuple_element_t<P, cuda::std::tuple<Out...>>...>(
        cuda::std::get<P>(outs)...);
  }
  static auto arrays(const cuda::std::tuple<Out...>& outs) { return arrays_impl(outs, array_pos{}); }

  /// The memory locations of the reduce targets (`target_locations`), `num_locations` of them.
  static constexpr int num_locations = (num_locations_v<Out> + ... + 0);
  template <std::size_t... S>
  static void targets_impl(const cuda::std::tuple<Out...>& outs, pointer_info* info, reduce_location* kinds,
                           cuda::std::index_sequence<S...>) {
    int k = 0;
    (target_locations(cuda::std::get<S>(outs), info, kinds, k), ...);
  }
  static void targets(const cuda::std::tuple<Out...>& outs, pointer_info* info, reduce_location* kinds) {
    targets_impl(outs, info, kinds, side_pos{});
  }
};

/// The span of operand `a` (an output or an input argument) of a launch of `count` elements: a pointer is
/// `count` elements, a view its elements, an operand of one element (`ew::scalar`) that element, and an
/// operand that reads no memory nothing.
template <class A>
byte_span operand_span(const A& a, std::uint64_t count) {
  if constexpr (cuda::std::is_pointer_v<A>) {
    using T = cuda::std::remove_pointer_t<A>;
    const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(a);
    const std::uint64_t bytes = count > UINT64_MAX / sizeof(T) ? UINT64_MAX : count * sizeof(T);
    return byte_span{base, static_cast<std::size_t>(bytes > UINTPTR_MAX - base ? UINTPTR_MAX - base : bytes)};
  } else if constexpr (is_strided_view_v<A>) {
    return view_span(a);
  } else if constexpr (is_reduce_target_v<A>) {
    return byte_span{0, 0};  // checked against the others as a target
  } else if constexpr (input_arg<A>::memory == memory_kind::single) {
    const pointer_info i = input_arg<A>::info(a);
    return byte_span{i.address, i.element_size};
  } else {
    return byte_span{0, 0};
  }
}

}  // namespace detail
}  // namespace ew
