// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// How side reductions (reduce.cuh) run. The launcher takes the `ew::reduce_into` outputs out of the
/// output list and wraps the op in `side_reducing_op`, which returns only the array outputs' parts and
/// folds the others into accumulators it carries: each GPU thread works on its own copy of the op (the
/// kernels hold it by value), so the accumulators live in that thread's registers. After its elements a
/// thread hands its copy back (`elementwise_grid_thread`, `nd_grid_thread`), and the kernel reduces the
/// block's copies (`block_finish`, block_reduce.cuh: warp shuffles, one shared word per warp) into one
/// atomic per block and reduction. An `ew::reduce_overwrite` target of a `sum` takes no atomic on the value:
/// each block stores its partial in the workspace, and the last block to finish (a ticket counter,
/// `atomicInc` wrapping back to zero) combines the partials in block order and overwrites the location
/// (`block_overwrite`); one of a `max`, `min` or `amax` sends each block's partial to one workspace word as
/// an atomic maximum of its order key, and the last block takes the word (`block_overwrite_ordered`).
/// Launches with side reductions have a capped grid whose blocks loop over tiles (`side_reduction_blocks`).
/// The host tests fold each simulated thread's copy with `host_finish` and end the launch with `host_end`.
/// Which outputs are targets, and the op's wrapping, are side_split.cuh's.

#include <cstddef>
#include <cstdint>

#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include "../functor.cuh"
#include "block_reduce.cuh"
#include "config.cuh"
#include "op_traits.cuh"
#include "partition.cuh"
#include "tuning.cuh"

namespace ew {

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
    acc = R::accumulate(acc, convert<T>(v));
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
    acc = R::accumulate(acc, convert<T>(v));
  }
  EW_HD void merge(const overwrite_accumulator& o) { acc = R::combine(acc, o.acc); }
};

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
  /// `ew::reduce_into` targets, into the block's workspace slot of the `ew::reduce_overwrite` ones of a
  /// `sum` (thread 0 first: it stores, the others combine), and into the workspace word of the others.
  void host_finish(std::size_t block, std::size_t thread) const {
    host_all(block, thread, cuda::std::index_sequence_for<Acc...>{});
  }

  /// The host tests' end of a simulated launch of `blocks` blocks of `threads`, after every thread's
  /// `host_finish`: the last block's part for each `ew::reduce_overwrite` target (`combine_slots` for each
  /// of its threads, combined in thread order; or the workspace word's value, the word zeroed), which
  /// overwrites the location.
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
    if constexpr (Ac::overwrite && Ac::reduction::monotone) {
      block_overwrite_ordered(a);
    } else if constexpr (Ac::overwrite) {
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
    if constexpr (Ac::overwrite && R::monotone) {  // the word's atomic maximum, per thread here
      unsigned long long& word = a.workspace->key;
      const unsigned long long key = order_key<R>(a.acc);
      if (word < key) word = key;
    } else if constexpr (Ac::overwrite) {
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
    if constexpr (Ac::overwrite && Ac::reduction::monotone) {
      *a.target = from_order_key<typename Ac::reduction, typename Ac::value_type>(a.workspace->key);
      a.workspace->key = 0;
    } else if constexpr (Ac::overwrite) {
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

/// Whether `Op` is a `side_reducing_op` whose targets are all `ew::reduce_into` ones of monotone reductions
/// (`max`, `min`, `amax`).
template <class Op>
inline constexpr bool has_only_monotone_into_targets_v = false;
template <class Op, class AP, class SP, class... Acc>
inline constexpr bool has_only_monotone_into_targets_v<side_reducing_op<Op, AP, SP, Acc...>> =
    ((!Acc::overwrite && Acc::reduction::monotone) && ...);

/// Which of `launch_policy`'s grid caps a launch with side reductions takes: `reduction_blocks_per_sm`
/// (`into`), `monotone_reduction_blocks_per_sm` (`monotone_into`: every target a `reduce_into` of `max`,
/// `min` or `amax`), `overwrite_blocks_per_sm` (`overwrite`: an `ew::reduce_overwrite` target among them).
enum class side_grid { into, monotone_into, overwrite };

/// `side_grid` of a `side_reducing_op` `Op`.
template <class Op>
inline constexpr side_grid side_grid_of = has_overwrite_targets_v<Op>            ? side_grid::overwrite
                                          : has_only_monotone_into_targets_v<Op> ? side_grid::monotone_into
                                                                                 : side_grid::into;

/// The grid of a launch of `blocks` blocks (one tile each) that has side reductions, on a device of
/// `sm_count` SMs: at most `policy`'s cap for `kind` blocks a SM (`reduction_blocks_per_sm`,
/// `monotone_reduction_blocks_per_sm` unless it is still -1, `overwrite_blocks_per_sm`; tuning.cuh says
/// why), or with `policy.reduction_waves` and the kernel's `resident_per_sm` blocks an SM known (above 0),
/// at most that many whole waves of them; and with an `ew::reduce_overwrite` target at most the
/// workspace's slots. The kernels' blocks loop over tiles.
EW_HD std::size_t side_reduction_blocks(std::size_t blocks, int sm_count, const tuning::launch_policy& policy,
                                        side_grid kind, int resident_per_sm = 0) {
  const bool overwrite = kind == side_grid::overwrite;
  const int kind_per_sm = overwrite ? policy.overwrite_blocks_per_sm
                          : kind == side_grid::monotone_into && policy.monotone_reduction_blocks_per_sm >= 0
                              ? policy.monotone_reduction_blocks_per_sm
                              : policy.reduction_blocks_per_sm;
  const int per_sm = policy.reduction_waves > 0 && resident_per_sm > 0
                         ? policy.reduction_waves * resident_per_sm
                         : kind_per_sm;
  std::size_t cap = per_sm > 0 && sm_count > 0
                        ? static_cast<std::size_t>(per_sm) * static_cast<std::size_t>(sm_count)
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
EW_HD launch_shape side_reduction_shape(launch_shape shape, int sm_count, const tuning::launch_policy& policy,
                                        int resident_per_sm = 0) {
  if constexpr (has_side_reductions_v<Op>) {
    const std::size_t blocks =
        side_reduction_blocks(shape.blocks, sm_count, policy, side_grid_of<Op>, resident_per_sm);
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

}  // namespace detail
}  // namespace ew
