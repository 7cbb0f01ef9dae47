// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Launch policies: what `ew::elementwise` takes from tuning, as a type a user can replace.
///
/// @code
/// #include "my_tuned_policy.cuh"   // written by `ew_tune --emit-header=my_tuned_policy.cuh`
/// ew::elementwise<my_tuned_policy>(ew::add<float>{}, n, c, ew::in(a, b), stream);
/// @endcode
///
/// A policy is a type with a static member function template `entry<Op>()`, constexpr, returning the
/// `ew::policy_entry` for the functor type `Op` (`ew::add<float>`, a `compose` chain, a user's functor).
/// `ew::default_policy` is ew's own; a policy may return `ew::default_policy::entry<Op>()` for the ops it
/// was not tuned for. The compile-time parts of an entry (vector width, loads in flight) choose the kernel
/// instantiation; the run-time part (block size, tile, programmatic launch, the grid of launches with side
/// reductions) applies only on a device of the compute capability it was measured on (`measured_cc`), and
/// every other device gets ew's own `tuning::policy_for_device`: a tuned header is for the architecture it
/// came from, never a guess for others.

#include <cuda/std/type_traits>

#include "detail/tuning.cuh"

namespace ew {

/// One op's launch choices, as a policy returns them.
struct policy_entry {
  /// Elements per vector access; 0 = ew's default (16 bytes of the widest element type). A call whose
  /// element types cannot take this width (width x size over 16 bytes, or an element size with no vector
  /// form) gets ew's default width instead.
  int vec_width = 0;
  /// Loads in flight per thread (compile time).
  tuning::kernel_shape shape = tuning::default_kernel_shape;
  /// Block size, tile, programmatic launch and the grid of launches with side reductions (run time;
  /// tuning.cuh's `launch_policy` says what each does). Programmatic launch is only ever used on sm_90+.
  /// `monotone_reduction_blocks_per_sm` left at -1 keeps ew's choice for the device
  /// (`tuning::with_device_choices`).
  tuning::launch_policy launch = {};
  /// Compute capability (major * 10 + minor) that `launch` was measured on: on other devices ew uses
  /// `tuning::policy_for_device` instead. 0: every device.
  int measured_cc = 0;
  /// The kernels of N-dimensional launches (compile time): the gather path's loads in flight, the row
  /// kernel's block, the tile kernel's tile and block by element size, the N-dimensional kernel's work item
  /// and block (tuning.cuh says what each is and why ew's values are what they are). Checked at compile
  /// time.
  tuning::nd_kernel_shapes nd = tuning::default_nd_shapes;
};

/// ew's own policy, what `ew::elementwise` without one uses: the defaults of detail/tuning.cuh for every op.
struct default_policy {
  /// The entry for functor type `Op`: ew's defaults, on every device.
  template <class Op>
  static constexpr policy_entry entry() {
    return {};
  }
};

namespace detail {
struct policy_probe_op {};
template <class P, class = void>
struct is_policy : cuda::std::false_type {};
template <class P>
struct is_policy<P, cuda::std::void_t<decltype(P::template entry<policy_probe_op>())>>
    : cuda::std::is_same<decltype(P::template entry<policy_probe_op>()), policy_entry> {};
}  // namespace detail

/// Whether `P` is a launch policy: it has `static constexpr ew::policy_entry entry<Op>()`.
template <class P>
inline constexpr bool is_policy_v = detail::is_policy<P>::value;

}  // namespace ew
