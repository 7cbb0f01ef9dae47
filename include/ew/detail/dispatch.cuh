// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Host side of a launch: the choice between the vectorized and the scalar path, and the launch itself,
/// after validate.cuh's checks and with launch_shape.cuh's size. Nothing here allocates, synchronizes
/// (unless EW_DEBUG_SYNC is defined) or does anything that CUDA graph capture forbids.

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>
#include <cuda/std/tuple>
#include <cuda/std/utility>

#include "config.cuh"
#include "device_cache.cuh"
#include "kernel.cuh"
#include "last_error.cuh"
#include "launch_shape.cuh"
#include "op_traits.cuh"
#include "operand.cuh"
#include "partition.cuh"
#include "side_reduction.cuh"
#include "tuning.cuh"
#include "validate.cuh"

namespace ew {
namespace detail {
// The functions that EW_DEBUG_SYNC and EW_CHECK_POINTERS change, and all that call them, are in a namespace
// named after the configuration (config.cuh), so translation units built with and without them do not
// share definitions.
inline namespace EW_DETAIL_CONFIG_NAMESPACE {

/// What follows every launch that was accepted: with EW_DEBUG_SYNC, waiting for `stream` (unless it is being
/// captured into a graph) and returning its error; cudaSuccess otherwise.
inline cudaError_t after_launch(cudaStream_t stream) {
#if defined(EW_DEBUG_SYNC)
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  cudaError_t err = cudaStreamIsCapturing(stream, &capture);
  if (err == cudaSuccess && capture == cudaStreamCaptureStatusNone) err = cudaStreamSynchronize(stream);
  if (err != cudaSuccess) return fail(err, cudaGetErrorString(err));
#else
  (void)stream;
#endif
  return fail(cudaSuccess, "");
}

/// Launches `Kernel` with plan `plan` (launch_shape.cuh), on a grid capped for side reductions.
/// `Kernel(op, part, shape, outs, ins)`, of either kernel: 1-D (`Part` a `partition`) or N-dimensional
/// (an `nd_plan`, nd_kernel.cuh).
/// `smem_bytes` of dynamic shared memory (the tile kernel's staged tiles).
template <auto Kernel, class Part, class Op, class OutPtrs, class Ins>
cudaError_t launch_kernel(const launch_args& args, const Part& part, launch_shape shape, const Op& op,
                          const OutPtrs& outs, const Ins& ins, cudaStream_t stream,
                          std::size_t smem_bytes = 0) {
  // With side reductions, a capped grid whose blocks loop over tiles (side_reduction.cuh), in whole waves
  // of the kernel's resident blocks where the policy asks for them.
  int resident_per_sm = 0;
  if constexpr (has_side_reductions_v<Op>) {
    if (args.policy.reduction_waves > 0) {
      const cudaError_t err = query_resident_blocks<Kernel>(
          args.device, static_cast<int>(shape.block_threads), smem_bytes, resident_per_sm);
      if (err != cudaSuccess) return fail(err, cudaGetErrorString(err));
    }
  }
  shape = side_reduction_shape<Op>(shape, args.facts.sm_count, args.policy, resident_per_sm);
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(shape.blocks));
  config.blockDim = dim3(static_cast<unsigned>(shape.block_threads));
  config.dynamicSmemBytes = smem_bytes;
  config.stream = stream;
  cudaLaunchAttribute attribute{};
  bool programmatic =
      args.policy.programmatic_launch && args.facts.cc * 10 >= EW_DETAIL_PROGRAMMATIC_WAIT_ARCH;
  if (programmatic) {
    // Only an image with the wait may start before its predecessor ends (device_cache.cuh says why).
    const cudaError_t err = query_programmatic_wait<Kernel>(args.device, programmatic);
    if (err != cudaSuccess) return fail(err, cudaGetErrorString(err));
  }
  if (programmatic) {
    shape.early_trigger = tuning::early_trigger(shape.blocks, args.facts.sm_count);
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
  }
  cudaError_t err = cudaLaunchKernelEx(&config, Kernel, op, part, shape, outs, ins);
  if (err != cudaSuccess) return fail(err, cudaGetErrorString(err));
  return after_launch(stream);
}

/// A launch of no elements: nothing, or for an op with `ew::reduce_overwrite` targets one thread that stores
/// the reductions' identities into their locations (`overwrite_identity_kernel`, side_reduction.cuh), since
/// an overwrite target holds the reduction of the launch's values, of none too. Its targets were checked
/// (overloads.cuh); the arrays of an empty launch are not (an empty tensor's pointer may be null).
template <class Op>
cudaError_t launch_empty(const Op& op, cudaStream_t stream) {
  if constexpr (has_overwrite_targets_v<Op>) {
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(1);
    config.blockDim = dim3(1);
    config.stream = stream;
    const cudaError_t err = cudaLaunchKernelEx(&config, &overwrite_identity_kernel<Op>, op);
    if (err != cudaSuccess) return fail(err, cudaGetErrorString(err));
    return after_launch(stream);
  } else {
    (void)op;
    (void)stream;
    return fail(cudaSuccess, "");
  }
}

/// The largest `sizeof` of `T...`. A fold rather than `cuda::std::max({sizeof(T)...})`: CCCL 3.0.1, the
/// toolkit's, has no public `<cuda/std/algorithm>`.
template <class... T>
inline constexpr std::size_t largest_size = [] {
  std::size_t m = 0;
  ((m = sizeof(T) > m ? sizeof(T) : m), ...);
  return m;
}();

/// The vector width ew uses when the caller names none: 16 bytes for the widest element type, or 1 (the
/// scalar path) when an element type cannot be vectorized (`float3`, or over 16 bytes).
template <class... T>
inline constexpr int default_vec_width =
    !(is_vectorizable_v<T> && ...) || largest_size<T...> >= 16 ? 1
                                                               : static_cast<int>(16 / largest_size<T...>);

/// Element type of output argument `A` (`T*`, or `strided_view<T, R>` in an N-dimensional launch).
template <class A>
struct output_arg;
template <class T>
struct output_arg<T*> {
  using value_type = T;
  static constexpr bool is_view = false;
};
template <class T, int Rank>
struct output_arg<strided_view<T, Rank>> {
  using value_type = T;
  static constexpr bool is_view = true;
};
template <class A>
using output_value_t = typename output_arg<A>::value_type;

/// The element type input argument `A` brings to the vector width and alignment of a launch: its own for an
/// array, `unsigned char` for an operand that reads no array (1 byte: never the widest, always vectorizable,
/// so that it changes neither).
template <class A>
using array_type_t =
    cuda::std::conditional_t<input_arg<A>::memory == memory_kind::array, input_value_t<A>, unsigned char>;

/// Inputs among `In...` that read an array: what the loads in flight are shared among
/// (`kernel_shape::unroll_for`); an index, constant or scalar operand takes none.
template <class... In>
inline constexpr int num_array_inputs = static_cast<int>(((input_arg<In>::memory == memory_kind::array) +
                                                          ... + 0));

/// The 1-D kernel over operands `ins` (operand.cuh, gather.cuh) with vector width `VecPath` (1: no vector
/// path, an element type has no vector form) of a launch planned for `Vec`: the vectorized path when every
/// array in `arrays` (outputs first) can be vector-aligned together, else the scalar one.
template <int VecPath, int Vec, int Unroll, class Op, class... Out, class Ins>
cudaError_t launch_1d_operands(const launch_args& args, const Op& op, std::size_t n,
                               const cuda::std::tuple<Out...>& outs, const Ins& ins,
                               const pointer_info* arrays, int num_arrays, cudaStream_t stream) {
  // Without a vector path (the pointers sit at different offsets within a vector, or an element type has
  // no vector form) every access goes one element at a time. Both paths are one kernel (kernel.cuh says
  // why), and plan_paths (launch_shape.cuh) plans either.
  constexpr auto kernel =
      &elementwise_kernel<Op, VecPath, Unroll, scalar_unroll<Vec, Unroll>, cuda::std::tuple<Out...>, Ins>;
  const int head = VecPath > 1 ? vector_head(arrays, num_arrays, VecPath) : no_vector_path;
  const launch_plan plan = plan_paths<VecPath, Unroll>(n, head, args.policy);
  return launch_kernel<kernel>(args, plan.part, plan.shape, op, outs, ins, stream);
}

/// The 1-D launch after the checks: the vectorized path when every array can be vector-aligned together
/// (`ptrs`, outputs first, holds their `pointer_info`), else the scalar one.
template <int Vec, int Unroll, class Op, class... Out, class... In>
cudaError_t launch_1d(const launch_args& args, const Op& op, std::size_t n,
                      const cuda::std::tuple<Out...>& outs, const cuda::std::tuple<In...>& ins,
                      const pointer_info* arrays, int num_arrays, cudaStream_t stream) {
  constexpr bool vectorizable =
      (is_vectorizable_v<output_value_t<Out>> && ...) && (is_vectorizable_v<array_type_t<In>> && ...);
  return launch_1d_operands < vectorizable ? Vec : 1, Vec,
         Unroll > (args, op, n, outs, as_operands(ins), arrays, num_arrays, stream);
}

/// The compile-time checks of a launch with outputs `Out...` and inputs `In...` (argument types).
template <int Vec, int Unroll, class Op, class OutTuple, class InTuple>
struct launch_static_checks;
template <int Vec, int Unroll, class Op, class... Out, class... In>
struct launch_static_checks<Vec, Unroll, Op, cuda::std::tuple<Out...>, cuda::std::tuple<In...>> {
  using result = typename op_result_of<Op, cuda::std::tuple<input_value_t<In>...>>::type;
  static_assert(sizeof...(Out) >= 1 || has_side_reductions_v<Op>,
                "ew::elementwise: at least one output is needed");
  static_assert(!is_device_lambda_v<Op>, EW_DETAIL_DEVICE_LAMBDA_MESSAGE);
  static_assert(
      is_device_lambda_v<Op> || !cuda::std::is_void_v<result>,
      "ew::elementwise: Op cannot be called with the input element types (it must take one argument "
      "per input, by value, and return the output value)");
  static_assert(is_device_lambda_v<Op> || result_fits_outputs<result, output_value_t<Out>...>(),
                "ew::elementwise: with N outputs, Op must return a tuple-like value of N elements");
  static_assert(Vec == 1 || Vec == 2 || Vec == 4 || Vec == 8 || Vec == 16,
                "ew::elementwise: VecWidth must be 1, 2, 4, 8 or 16");
  static constexpr bool vectorizable =
      (is_vectorizable_v<output_value_t<Out>> && ...) && (is_vectorizable_v<array_type_t<In>> && ...);
  static_assert(
      Vec == 1 || vectorizable,
      "ew::elementwise: VecWidth > 1 needs every element type to be 1, 2, 4, 8 or 16 bytes; other sizes "
      "(float3, structs over 16 bytes) take the scalar path, which ew::vec_auto or VecWidth 1 selects");
  static_assert(
      Vec == 1 || Vec * largest_size<output_value_t<Out>..., array_type_t<In>...> <= tuning::vector_bytes,
      "ew::elementwise: VecWidth * sizeof(element) must be at most 16 bytes for every input and output "
      "type (one vector access moves at most 16 bytes)");
  static_assert(Unroll >= 1 && Unroll <= 16, "ew::elementwise: Unroll must be in [1, 16]");
  static constexpr bool ok = true;
};

/// The dispatcher: checks the pointers, picks the vectorized path (a scalar head aligns every pointer) or
/// the scalar one, and launches. `ew::elementwise` with every compile-time choice explicit: `Vec` elements
/// per vector access, `Unroll` vectors per thread. The tuning binary calls this to sweep shapes; users call
/// `ew::elementwise`, which passes the tuned defaults (`dispatch_default`) or a policy's (policy.cuh).
/// `policy`, when given, replaces `tuning::policy_for_device` on devices of compute capability `policy_cc`
/// (every device when 0). Outputs are pointers; inputs pointers, index, constant or scalar operands.
template <int Vec, int Unroll, class Op, class... Out, class... In>
cudaError_t dispatch(const Op& op, std::size_t n, const cuda::std::tuple<Out*...>& outs,
                     const cuda::std::tuple<In...>& ins, cudaStream_t stream,
                     const tuning::launch_policy* policy = nullptr, int policy_cc = 0) {
  static_assert(!(input_arg<In>::is_view || ...),
                "ew::elementwise: an ew::strided view needs an N-dimensional launch: pass ew::extents{...} "
                "instead of n");
  static_assert(
      launch_static_checks<Vec, Unroll, Op, cuda::std::tuple<Out*...>, cuda::std::tuple<In...>>::ok);
  if (n == 0) return launch_empty(op, stream);

  // Every pointer the launch reads or writes, outputs first: arrays, then the scalar operands' elements.
  constexpr int num_out = static_cast<int>(sizeof...(Out));
  constexpr int num_arrays =
      num_out + static_cast<int>(((input_arg<In>::memory == memory_kind::array) + ... + 0));
  constexpr int num_ptrs =
      num_arrays + static_cast<int>(((input_arg<In>::memory == memory_kind::single) + ... + 0));
  pointer_info ptrs[num_ptrs > 0 ? num_ptrs : 1] = {};
  {
    int k = 0;
    cuda::std::apply([&](auto... p) { ((ptrs[k++] = info_of(p)), ...); }, outs);
    auto add = [&](const auto& a, memory_kind kind) {
      using A = cuda::std::remove_cv_t<cuda::std::remove_reference_t<decltype(a)>>;
      if constexpr (input_arg<A>::memory != memory_kind::none) {
        if (input_arg<A>::memory == kind) ptrs[k++] = input_arg<A>::info(a);
      }
    };
    cuda::std::apply([&](const auto&... a) { (add(a, memory_kind::array), ...); }, ins);
    cuda::std::apply([&](const auto&... a) { (add(a, memory_kind::single), ...); }, ins);
  }
  cudaError_t err = check_pointers<(num_ptrs > 0 ? num_ptrs : 1)>(ptrs, num_out, num_ptrs, n);
  if (err != cudaSuccess) return err;
  int dims_bad = 0;
  cuda::std::apply(
      [&](const auto&... a) {
        auto bad = [](const auto& x) {
          using A = cuda::std::remove_cv_t<cuda::std::remove_reference_t<decltype(x)>>;
          if constexpr (cuda::std::is_same_v<A, index_operand>) {
            return x.dim > 0 ? 1 : 0;
          } else {
            return 0;
          }
        };
        dims_bad = (bad(a) + ... + 0);
      },
      ins);
  if (dims_bad != 0) {
    return fail(cudaErrorInvalidValue, "ew::elementwise: ew::index(dim) with dim > 0 in a 1-D launch");
  }

  launch_args args{};
  err = current_launch_args(args);
  if (err != cudaSuccess) return err;
  if (policy != nullptr && (policy_cc == 0 || policy_cc == args.facts.cc)) args.use_policy(*policy);
  return launch_1d<Vec, Unroll>(args, op, n, outs, ins, ptrs, num_arrays, stream);
}

/// Whether a policy's vector width `PolicyVec` suits element types `T...`: 1 always; wider only when every
/// type has a vector form and `PolicyVec` of the widest fit in one 16-byte access.
template <int PolicyVec, class... T>
inline constexpr bool policy_vec_fits = PolicyVec == 1 ||
                                        ((is_vectorizable_v<T> && ...) &&
                                         PolicyVec * largest_size<T...> <= tuning::vector_bytes);

/// Vector width of a launch: the call's `VecWidth` when not 0 (checked by `dispatch`), else the policy's
/// `PolicyVec` when not 0 and it suits the element types (a policy tuned for `add<float>` into float may be
/// used with double outputs), else `default_vec_width` of the element types.
template <int VecWidth, int PolicyVec, class... T>
inline constexpr int launch_vec_width = VecWidth != 0 ? VecWidth
                                                      : (PolicyVec != 0 && policy_vec_fits<PolicyVec, T...>
                                                             ? PolicyVec
                                                             : default_vec_width<T...>);

/// `dispatch` with the tuned kernel shape; `VecWidth` 0 means `default_vec_width`.
template <int VecWidth, class Op, class... Out, class... In>
cudaError_t dispatch_default(const Op& op, std::size_t n, const cuda::std::tuple<Out*...>& outs,
                             const cuda::std::tuple<In...>& ins, cudaStream_t stream) {
  constexpr int vec = VecWidth == 0 ? default_vec_width<Out..., array_type_t<In>...> : VecWidth;
  constexpr tuning::kernel_shape shape = tuning::default_kernel_shape;
  constexpr int unroll = shape.unroll_for(num_array_inputs<In...>);
  return dispatch<vec, unroll>(op, n, outs, ins, stream);
}

}  // namespace EW_DETAIL_CONFIG_NAMESPACE
}  // namespace detail
}  // namespace ew
