// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Host side of a launch: argument checks, the choice between the vectorized and the scalar path, grid
/// size, and the launch itself. Nothing here allocates, synchronizes (unless EW_DEBUG_SYNC is defined) or
/// does anything that CUDA graph capture forbids.

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>
#include <cuda/std/tuple>
#include <cuda/std/utility>

#include "../error.cuh"
#include "../tuning.cuh"
#include "arguments.cuh"
#include "config.cuh"
#include "device_cache.cuh"
#include "kernels.cuh"
#include "partition.cuh"

namespace ew {
namespace detail {
// The functions that EW_DEBUG_SYNC and EW_CHECK_POINTERS change, and all that call them, are in a namespace
// named after the configuration (config.cuh), so translation units built with and without them do not
// share definitions.
inline namespace EW_DETAIL_CONFIG_NAMESPACE {

/// The launch shape for partition `p`: `unroll` vectors per thread per tile (fewer if the policy pins it),
/// the policy's block size (or `tile_vectors / per_thread`, at least a warp), one tile per block unless the
/// policy's `waves` caps the grid at that many times `resident_blocks` (SMs x occupancy), in which case
/// blocks loop over tiles. Block sizes are clamped to `[1, max_block_threads]`: the kernels are compiled
/// for at most that many threads (`__launch_bounds__`), and a launch of more would fail.
EW_HD launch_shape plan_launch(const partition& p, std::size_t resident_blocks, int unroll,
                               const tuning::launch_policy& policy) {
  const int per_thread = policy.per_thread > 0 && policy.per_thread < unroll ? policy.per_thread : unroll;
  const int wanted = policy.block_threads > 0 ? policy.block_threads
                     : policy.tile_vectors / per_thread < 32 ? 32
                                                             : policy.tile_vectors / per_thread;
  const std::size_t bt = static_cast<std::size_t>(wanted > tuning::max_block_threads ? tuning::max_block_threads : wanted);
  const std::size_t units = p.vectors > 0 ? p.vectors : p.scalars();
  const std::size_t tile = bt * static_cast<std::size_t>(per_thread);
  std::size_t blocks = (units + tile - 1) / tile;
  if (policy.waves > 0 && blocks > resident_blocks * static_cast<std::size_t>(policy.waves)) {
    blocks = resident_blocks * static_cast<std::size_t>(policy.waves);
  }
  // The grid's x dimension holds 2^31 - 1 blocks; past that (2^31 blocks x 256 threads x 16 bytes =
  // 8 TiB of one array) the block loop covers the rest.
  if (blocks > 0x7fffffffu) blocks = 0x7fffffffu;
  return launch_shape{blocks < 1 ? 1 : blocks, bt, per_thread};
}

/// True when byte ranges `[a, a + a_bytes)` and `[b, b + b_bytes)` share a byte.
inline bool ranges_overlap(std::uintptr_t a, std::size_t a_bytes, std::uintptr_t b, std::size_t b_bytes) {
  return a < b + b_bytes && b < a + a_bytes;
}

/// Checks every pointer of a launch of `n` elements; returns cudaSuccess or cudaErrorInvalidValue with
/// the reason recorded for `ew::last_error_message()`. Outputs come first in `ptrs`.
inline cudaError_t check_pointers(const pointer_info* ptrs, int num_out, int num_ptrs, std::size_t n) {
  for (int k = 0; k < num_ptrs; ++k) {
    if (ptrs[k].address == 0) return fail(cudaErrorInvalidValue, "ew::elementwise: null pointer with n > 0");
    if (ptrs[k].address % ptrs[k].alignment != 0) {
      return fail(cudaErrorInvalidValue, "ew::elementwise: pointer not aligned to its element type (alignof)");
    }
    if (n > SIZE_MAX / ptrs[k].element_size || n * ptrs[k].element_size > UINTPTR_MAX - ptrs[k].address) {
      return fail(cudaErrorInvalidValue, "ew::elementwise: n elements do not fit in the address space");
    }
  }
  for (int o = 0; o < num_out; ++o) {
    const std::size_t o_bytes = n * ptrs[o].element_size;
    for (int k = 0; k < num_ptrs; ++k) {
      if (k == o) continue;
      const bool in_place = k >= num_out && ptrs[k].address == ptrs[o].address &&
                            ptrs[k].element_size == ptrs[o].element_size;
      if (!in_place && ranges_overlap(ptrs[o].address, o_bytes, ptrs[k].address, n * ptrs[k].element_size)) {
        return fail(cudaErrorInvalidValue,
                    k < num_out ? "ew::elementwise: two outputs overlap"
                                : "ew::elementwise: an output partially overlaps an input (only exact in-place "
                                  "aliasing, same address and element size, is allowed)");
      }
    }
  }
#if defined(EW_CHECK_POINTERS)
  // Debug only: one cudaPointerGetAttributes per pointer, a driver call (the [cost] GPU test prints what
  // it takes), so never on the default path. Memory CUDA does not know (plain malloc, the stack) is
  // device-accessible only where the device can read pageable host memory (HMM or ATS,
  // cudaDevAttrPageableMemoryAccess); elsewhere the kernel would fault on it and leave the context
  // unusable, so it is rejected here.
  int pageable_access = -1;  // unknown until a pointer needs it
  for (int k = 0; k < num_ptrs; ++k) {
    cudaPointerAttributes attr{};
    cudaError_t err = cudaPointerGetAttributes(&attr, reinterpret_cast<const void*>(ptrs[k].address));
    if (err != cudaSuccess) return fail(err, "ew::elementwise: cudaPointerGetAttributes failed");
    if (attr.type != cudaMemoryTypeUnregistered) continue;
    if (pageable_access < 0) {
      int device = 0;
      err = cudaGetDevice(&device);
      if (err == cudaSuccess) err = cudaDeviceGetAttribute(&pageable_access, cudaDevAttrPageableMemoryAccess, device);
      if (err != cudaSuccess) return fail(err, cudaGetErrorString(err));
    }
    if (pageable_access == 0) {
      return fail(cudaErrorInvalidValue,
                  "ew::elementwise: pointer is not device-accessible memory (EW_CHECK_POINTERS: not allocated "
                  "or registered with CUDA, and this device cannot access pageable host memory)");
    }
  }
#endif
  return cudaSuccess;
}

/// Run-time launch arguments shared by every kernel shape.
struct launch_args {
  int device;
  device_facts facts;
  tuning::launch_policy policy;
};

/// Resolves the current device, its facts and its launch policy.
inline cudaError_t current_launch_args(launch_args& args) {
  cudaError_t err = cudaGetDevice(&args.device);
  if (err == cudaSuccess) err = query_device_facts(args.device, args.facts);
  if (err != cudaSuccess) return fail(err, cudaGetErrorString(err));
  args.policy = tuning::policy_for_cc(args.facts.cc);
  return cudaSuccess;
}

/// Launches `Kernel` (at most `Unroll` vectors per thread) over partition `p`.
template <auto Kernel, int Unroll, class Op, class OutPtrs, class InPtrs>
cudaError_t launch_kernel(const launch_args& args, const Op& op, const partition& p, const OutPtrs& outs,
                          const InPtrs& ins, cudaStream_t stream) {
  // Resident blocks matter only when the policy caps the grid in waves (the default policy does not:
  // tuning.cuh says why); then the occupancy query is cached per device and kernel.
  std::size_t resident_blocks = 0;
  if (args.policy.waves > 0) {
    const int block_threads = static_cast<int>(plan_launch(p, 1, Unroll, args.policy).block_threads);
    int blocks_per_sm = 0;
    const cudaError_t occ = query_occupancy<Kernel>(args.device, block_threads, blocks_per_sm);
    if (occ != cudaSuccess) return fail(occ, cudaGetErrorString(occ));
    resident_blocks = static_cast<std::size_t>(args.facts.sm_count) * blocks_per_sm;
  }
  const launch_shape shape = plan_launch(p, resident_blocks, Unroll, args.policy);
  cudaError_t err = cudaSuccess;

  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(shape.blocks));
  config.blockDim = dim3(static_cast<unsigned>(shape.block_threads));
  config.stream = stream;
  cudaLaunchAttribute attribute{};
  bool programmatic = args.policy.programmatic_launch && args.facts.cc * 10 >= EW_DETAIL_PROGRAMMATIC_WAIT_ARCH;
  if (programmatic) {
    // Only an image with the wait may start before its predecessor ends (device_cache.cuh says why).
    err = query_programmatic_wait<Kernel>(args.device, programmatic);
    if (err != cudaSuccess) return fail(err, cudaGetErrorString(err));
  }
  if (programmatic) {
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
  }
  err = cudaLaunchKernelEx(&config, Kernel, op, p, shape, outs, ins);
  if (err != cudaSuccess) return fail(err, cudaGetErrorString(err));
#if defined(EW_DEBUG_SYNC)
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  err = cudaStreamIsCapturing(stream, &capture);
  if (err == cudaSuccess && capture == cudaStreamCaptureStatusNone) err = cudaStreamSynchronize(stream);
  if (err != cudaSuccess) return fail(err, cudaGetErrorString(err));
#endif
  return fail(cudaSuccess, "");
}

/// The vector width ew uses when the caller names none: 16 bytes for the widest element type, or 1 (the
/// scalar path) when an element type cannot be vectorized (`float3`, or over 16 bytes).
template <class... T>
inline constexpr int default_vec_width =
    !(is_vectorizable_v<T> && ...) || max_size<T...>() >= 16 ? 1 : static_cast<int>(16 / max_size<T...>());

/// Address, size and alignment of a typed pointer.
template <class T>
pointer_info info_of(const T* p) {
  return pointer_info{reinterpret_cast<std::uintptr_t>(p), sizeof(T), alignof(T)};
}

/// `ew::elementwise` with every compile-time choice explicit: `Vec` elements per vector access and the
/// kernel `Shape` (unroll, cache hints). The tuning binary calls this to sweep shapes; users call
/// `ew::elementwise`, which passes the tuned defaults.
template <int Vec, int Unroll, tuning::cache_hint Load, tuning::cache_hint Store, class Op, class... Out,
          class... In>
cudaError_t launch(const Op& op, std::size_t n, const outputs<Out...>& out, const inputs<In...>& in,
                   cudaStream_t stream, const tuning::launch_policy* policy = nullptr) {
  using out_ptrs = cuda::std::tuple<Out*...>;
  using in_ptrs = cuda::std::tuple<const In*...>;
  using result = typename op_result<Op, in_ptrs>::type;
  static_assert(sizeof...(Out) >= 1, "ew::elementwise: at least one output pointer is needed");
  static_assert(!cuda::std::is_void_v<result>,
                "ew::elementwise: Op cannot be called with the input element types (it must take one argument "
                "per input, by value, and return the output value)");
  static_assert(result_fits_outputs<result, Out...>(),
                "ew::elementwise: with N outputs, Op must return a tuple-like value of N elements");
  static_assert(Vec == 1 || Vec == 2 || Vec == 4 || Vec == 8 || Vec == 16,
                "ew::elementwise: VecWidth must be 1, 2, 4, 8 or 16");
  constexpr bool vectorizable = (is_vectorizable_v<Out> && ...) && (is_vectorizable_v<In> && ...);
  static_assert(Vec == 1 || vectorizable,
                "ew::elementwise: VecWidth > 1 needs every element type to be 1, 2, 4, 8 or 16 bytes; other sizes "
                "(float3, structs over 16 bytes) take the scalar path, which ew::vec_auto or VecWidth 1 selects");
  static_assert(Vec == 1 || Vec * max_size<Out..., In...>() <= tuning::vector_bytes,
                "ew::elementwise: VecWidth * sizeof(element) must be at most 16 bytes for every input and output "
                "type (one vector access moves at most 16 bytes)");
  static_assert(Unroll >= 1 && Unroll <= 16, "ew::elementwise: Unroll must be in [1, 16]");

  if (n == 0) return fail(cudaSuccess, "");

  constexpr int num_out = static_cast<int>(sizeof...(Out));
  constexpr int num_ptrs = static_cast<int>(sizeof...(Out) + sizeof...(In));
  pointer_info ptrs[num_ptrs];
  {
    int k = 0;
    cuda::std::apply([&](auto... p) { ((ptrs[k++] = info_of(p)), ...); }, out.ptrs);
    cuda::std::apply([&](auto... p) { ((ptrs[k++] = info_of(p)), ...); }, in.ptrs);
  }
  cudaError_t err = check_pointers(ptrs, num_out, num_ptrs, n);
  if (err != cudaSuccess) return err;

  launch_args args{};
  err = current_launch_args(args);
  if (err != cudaSuccess) return err;
  if (policy != nullptr) args.policy = *policy;

  if constexpr (vectorizable) {
    const int head = vector_head(ptrs, num_ptrs, Vec);
    if (head != no_vector_path) {
      constexpr auto kernel = &elementwise_kernel<Op, Vec, Unroll, Load, Store, out_ptrs, in_ptrs>;
      return launch_kernel<kernel, Unroll>(args, op, make_partition(n, static_cast<std::size_t>(head), Vec),
                                           out.ptrs, in.ptrs, stream);
    }
  }
  // The pointers sit at different offsets within a vector (or an element type has no vector form): every
  // access goes one element at a time, with as many loads in flight per thread as the vectorized path has
  // elements (capped at 16).
  constexpr int scalar_unroll = Unroll * Vec < 16 ? Unroll * Vec : 16;
  // Tiles keep the vectorized path's size in elements, so blocks get the same amount of work.
  constexpr auto kernel = &elementwise_kernel<Op, 1, scalar_unroll, Load, Store, out_ptrs, in_ptrs>;
  args.policy.tile_vectors *= Vec;
  return launch_kernel<kernel, scalar_unroll>(args, op, make_partition(n, 0, 1), out.ptrs, in.ptrs, stream);
}

/// `launch` with the tuned kernel shape; `VecWidth` 0 means `default_vec_width`.
template <int VecWidth, class Op, class... Out, class... In>
cudaError_t launch_default(const Op& op, std::size_t n, const outputs<Out...>& out, const inputs<In...>& in,
                           cudaStream_t stream) {
  constexpr int vec = VecWidth == 0 ? default_vec_width<Out..., In...> : VecWidth;
  constexpr tuning::kernel_shape shape = tuning::default_kernel_shape;
  constexpr int unroll = shape.unroll_for(static_cast<int>(sizeof...(In)));
  return launch<vec, unroll, shape.load, shape.store>(op, n, out, in, stream);
}

}  // namespace EW_DETAIL_CONFIG_NAMESPACE
}  // namespace detail
}  // namespace ew
