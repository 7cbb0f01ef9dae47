// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Side reductions: an output that is not an array but one value in device memory, into which the launch
/// reduces a part of the op's result in the same pass that writes the other outputs. The FP8 scaling step
/// `y = fp8(x * scale)` with `amax = max |x|` for the next scale is one launch:
///
/// @code
/// struct scale_and_keep {  // (x * scale, x): the first part is written as FP8, the second reduced
///   float scale;
///   EW_HD cuda::std::tuple<float, float> operator()(float x) const { return {x * scale, x}; }
/// };
/// ew::elementwise(scale_and_keep{s}, n, ew::out(y_fp8, ew::reduce_into<ew::reduction::amax>(d_amax)), x,
///                 stream);
/// @endcode
///
/// The reduction combines into the value already at the location (`*p = R(*p, v...)`), like `+=`: set it to
/// the reduction's identity before the first launch (`ew::reset_reduction`, or `cudaMemsetAsync(p, 0, ...)`
/// for `amax` and `sum`). Each thread reduces its elements in registers, each block its threads (warp
/// shuffles, then shared memory), and at most one atomic per block combines into `*p`: no allocation, no
/// extra launch, nothing graph capture forbids. For `max`, `min` and `amax` a block whose value does not
/// pass what `*p` held when the block began sends no atomic (it would change nothing); a `sum` always
/// sends one, so a sum over many blocks is bound by the atomics to one address (one per block: at 2^28 f32,
/// 262,144 blocks of 1024 elements). `max`, `min` and `amax` are exact, so the result is the same
/// whatever the order (NaN-propagating, as `torch.amax`: a NaN anywhere gives NaN). A floating `sum` is not
/// deterministic: the blocks' atomics land in any order, and float addition does not associate, so two runs
/// may differ in the last bits; integer sums are exact (wrapping) and deterministic.
///
/// `ew::reduce_overwrite<R>(p, ws)` is the other kind of target: the launch overwrites `*p` with the
/// reduction of its own values, so no reset runs before it. For a `sum` each block stores its partial
/// result in the workspace `ws` (`ew::reduction_workspace`, device memory the caller allocates once and
/// zeroes once), and the block that finishes last, which a counter in the workspace finds (and sets back to
/// zero for the next launch), combines the partials in a fixed order and stores the result. For `max`, `min`
/// and `amax` each block sends its partial to one word of the workspace as an atomic maximum of a key that
/// orders the values as the reduction does, and the last block exchanges the word for zero and stores its
/// value: one word read at the end instead of one a block. Nothing is allocated, no extra
/// launch runs, graph capture and replay work, and every reduction is deterministic run to run, a floating
/// `sum` included: the same launch (the same sizes, the pointers at the same alignment) on the same device
/// adds in the same order. A launch of no elements (an empty tensor, an expert with no tokens) stores the
/// reduction's identity, the reduction of no values (`max`: -inf, `min`: +inf, `amax` and `sum`: 0), with
/// a kernel of one thread: `*p` never holds a value left from an earlier launch. (An empty launch leaves
/// `ew::reduce_into` targets as they are, and launches nothing when it has no overwrite target.)

#include <cstdint>

#include <cuda_runtime_api.h>

#include <cuda/std/bit>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include "detail/math.cuh"
#include "detail/tuning.cuh"
#include "functor.cuh"

namespace ew {

/// The reductions `ew::reduce_into` takes. Each is `combine(a, b)` (commutative, associative: exactly so
/// for `max`, `min`, `amax` and integer `sum`) with an `identity<T>()`, for value types float, double,
/// `std::int32_t`, `std::uint32_t`, `std::int64_t` and `std::uint64_t` (`amax`: floating only).
namespace reduction {

/// The largest value (IEEE maximum: NaN if any is NaN, `+0 > -0`). Identity: `-inf` (the lowest integer).
struct max {
  /// Moves a location one way only (so a value that does not pass what it holds changes nothing).
  static constexpr bool monotone = true;
  template <class T>
  EW_HD static constexpr T identity() {
    return cuda::std::numeric_limits<T>::has_infinity ? -cuda::std::numeric_limits<T>::infinity()
                                                      : cuda::std::numeric_limits<T>::lowest();
  }
  template <class T>
  EW_HD static T value(T v) {
    return v;
  }
  template <class T>
  EW_HD static T combine(T a, T b) {
    return detail::maximum(a, b);
  }
  /// `combine(acc, value(v))`: a thread's running value `acc` and one more value.
  template <class T>
  EW_HD static T accumulate(T acc, T v) {
    return combine(acc, value(v));
  }
};

/// The smallest value (IEEE minimum: NaN if any is NaN, `-0 < +0`). Identity: `+inf` (the largest integer).
struct min {
  static constexpr bool monotone = true;
  template <class T>
  EW_HD static constexpr T identity() {
    return cuda::std::numeric_limits<T>::has_infinity ? cuda::std::numeric_limits<T>::infinity()
                                                      : cuda::std::numeric_limits<T>::max();
  }
  template <class T>
  EW_HD static T value(T v) {
    return v;
  }
  template <class T>
  EW_HD static T combine(T a, T b) {
    return detail::minimum(a, b);
  }
  /// `combine(acc, value(v))`: a thread's running value `acc` and one more value.
  template <class T>
  EW_HD static T accumulate(T acc, T v) {
    return combine(acc, value(v));
  }
};

/// The sum (integers wrap). Identity: 0. Into an `ew::reduce_into` target not deterministic for floating
/// types (see the file's note); into an `ew::reduce_overwrite` one deterministic.
struct sum {
  static constexpr bool monotone = false;
  template <class T>
  EW_HD static constexpr T identity() {
    return T(0);
  }
  template <class T>
  EW_HD static T value(T v) {
    return v;
  }
  template <class T>
  EW_HD static T combine(T a, T b) {
    return detail::wrap_add(a, b);
  }
  /// `combine(acc, value(v))`: a thread's running value `acc` and one more value.
  template <class T>
  EW_HD static T accumulate(T acc, T v) {
    return combine(acc, value(v));
  }
};

/// The largest absolute value, `max |v|` (NaN if any is NaN), for floating value types: what per-tensor
/// FP8 scaling takes the next scale from. Identity: 0.
struct amax {
  static constexpr bool monotone = true;
  template <class T>
  EW_HD static constexpr T identity() {
    return T(0);
  }
  template <class T>
  EW_HD static T value(T v) {
    return cuda::std::fabs(v);
  }
  template <class T>
  EW_HD static T combine(T a, T b) {
    return detail::maximum(a, b);
  }
  /// `combine(acc, value(v))` for a thread's running value `acc`, which holds the identity (+0) or an
  /// earlier result of this call: +0, a positive value or a NaN with its sign bit clear. On such values and
  /// `|v|` the order of the floats is the order of their bits as unsigned integers (every NaN above +inf),
  /// so one integer maximum of the bits with `v`'s sign bit cleared does it: NaN-propagating, exact and
  /// independent of the order. The float `maximum` took about a dozen instructions and a branch an element
  /// in the fused FP8 quantize's loop (CUDA 13.0, sm_90; docs/PERFORMANCE.md, change 44).
  template <class T>
  EW_HD static T accumulate(T acc, T v) {
    if constexpr (cuda::std::is_floating_point_v<T>) {
      using U = cuda::std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
      constexpr U magnitude = ~(U(1) << (sizeof(T) * 8 - 1));
      const U a = cuda::std::bit_cast<U>(acc), b = cuda::std::bit_cast<U>(v) & magnitude;
      return cuda::std::bit_cast<T>(a < b ? b : a);
    } else {
      return combine(acc, value(v));
    }
  }
};

}  // namespace reduction

/// A side-reduction output: the launch reduces its part of the op's result into `*ptr` with `R`. Made by
/// `ew::reduce_into<R>(p)`.
template <class R, class T>
struct reduce_target {
  T* ptr;
};

/// A side-reduction output for `ew::out(...)`: the op's result part at this position is converted to `T`
/// and reduced with `R` (`ew::reduction::max`, `min`, `sum` or `amax`) into `*p`, combined with the value
/// already there. `p` is one element of device memory that no operand of the launch reads or writes
/// (checked); `T` is float, double, or a 32- or 64-bit integer. Works in 1-D and N-dimensional launches,
/// with any operands and `ew::compose`. A 1-D launch may have no array output (a reduction alone: `max |x|`
/// is `ew::elementwise(ew::abs<float>{}, n, ew::reduce_into<ew::reduction::max>(p), x)`); an
/// N-dimensional one needs one.
template <class R, class T>
constexpr reduce_target<R, T> reduce_into(T* p) {
  static_assert(cuda::std::is_same_v<R, reduction::max> || cuda::std::is_same_v<R, reduction::min> ||
                    cuda::std::is_same_v<R, reduction::sum> || cuda::std::is_same_v<R, reduction::amax>,
                "ew::reduce_into<R>: R must be ew::reduction::max, min, sum or amax");
  static_assert(cuda::std::is_same_v<T, float> || cuda::std::is_same_v<T, double> ||
                    cuda::std::is_same_v<T, std::int32_t> || cuda::std::is_same_v<T, std::uint32_t> ||
                    cuda::std::is_same_v<T, std::int64_t> || cuda::std::is_same_v<T, std::uint64_t>,
                "ew::reduce_into: the location must be float, double, or a 32- or 64-bit integer (the types "
                "with atomics)");
  static_assert(!cuda::std::is_same_v<R, reduction::amax> || cuda::std::is_floating_point_v<T>,
                "ew::reduce_into<ew::reduction::amax>: the location must be float or double");
  return reduce_target<R, T>{p};
}

/// The device memory an `ew::reduce_overwrite` target works in: a counter of the blocks that have finished
/// and one partial result per block (a `sum`), or one word that every block's partial reaches as an atomic
/// maximum of its order key (`max`, `min`, `amax`). Allocate it once (`cudaMalloc(&ws,
/// sizeof(ew::reduction_workspace))`) and zero it once (`cudaMemset(ws, 0,
/// sizeof(ew::reduction_workspace))`); every launch leaves the counter and the word at zero again, so the
/// same workspace serves any number of launches, graph replays included, one after
/// another in stream order. Two launches that may run at the same time (different streams, no event
/// between them) need two workspaces, as does each target of one launch. 64 KiB and 16 bytes.
struct reduction_workspace {
  /// The most blocks a launch may have (`tuning::reduction_workspace_blocks`); ew caps the grid at it.
  static constexpr unsigned capacity = tuning::reduction_workspace_blocks;
  /// Blocks of the current launch that have stored their partial, modulo the grid (0 between launches).
  unsigned arrived;
  unsigned reserved;
  /// The running order key of a `max`, `min` or `amax` launch (zero between launches). A word of its own:
  /// a `sum`'s launch leaves its slots as they are, so a slot cannot hold it when launches of both kinds
  /// share the workspace (change 46 kept it in `partial[0]`, and an amax after a sum read the sum's bits).
  unsigned long long key;
  /// Block `b`'s partial result in `partial[b]`, its bits in the word's low bytes (a `sum`).
  unsigned long long partial[capacity];
};

/// A side-reduction output that overwrites its location: made by `ew::reduce_overwrite<R>(p, ws)`.
template <class R, class T>
struct overwrite_target {
  T* ptr;
  reduction_workspace* workspace;
};

/// A side-reduction output for `ew::out(...)` whose launch overwrites `*p` with `R` over the op's result
/// part at this position (converted to `T`), whatever `*p` held before: no `ew::reset_reduction`, no
/// memset (a launch of no elements stores the reduction's identity, with a kernel of one thread). `ws` is a
/// zeroed `ew::reduction_workspace` (see there) that no other target and no launch that may run at the same
/// time uses. Deterministic for every reduction and type, a floating `sum` included. `R`, `T` and where it
/// works as for `ew::reduce_into`; `p` and `ws` may not overlap any operand, target or workspace of the
/// launch (checked).
template <class R, class T>
constexpr overwrite_target<R, T> reduce_overwrite(T* p, reduction_workspace* ws) {
  static_assert(cuda::std::is_same_v<R, reduction::max> || cuda::std::is_same_v<R, reduction::min> ||
                    cuda::std::is_same_v<R, reduction::sum> || cuda::std::is_same_v<R, reduction::amax>,
                "ew::reduce_overwrite<R>: R must be ew::reduction::max, min, sum or amax");
  static_assert(cuda::std::is_same_v<T, float> || cuda::std::is_same_v<T, double> ||
                    cuda::std::is_same_v<T, std::int32_t> || cuda::std::is_same_v<T, std::uint32_t> ||
                    cuda::std::is_same_v<T, std::int64_t> || cuda::std::is_same_v<T, std::uint64_t>,
                "ew::reduce_overwrite: the location must be float, double, or a 32- or 64-bit integer");
  static_assert(!cuda::std::is_same_v<R, reduction::amax> || cuda::std::is_floating_point_v<T>,
                "ew::reduce_overwrite<ew::reduction::amax>: the location must be float or double");
  return overwrite_target<R, T>{p, ws};
}

}  // namespace ew
