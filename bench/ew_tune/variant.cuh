// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Kernel variants that only the tuner builds. ew's shipped launcher has one load form, one tile per block
/// and the policy's block size; to measure the alternatives again the tuner launches ew's own kernel
/// (`ew::detail::elementwise_kernel`) itself, through the same plan (`ew::detail::plan_paths`), with:
/// - loads with a cache hint, as an operand kind of its own (`hinted_input`: the kernel takes any operand
///   that gives `element(i)` and `vector<Vec>(i)`, ew/detail/operand.cuh);
/// - a grid capped at `waves` times the resident blocks, whose blocks then loop over tiles.
/// Store hints and fewer vectors per thread than the unroll are gone from ew and not rebuilt here: probe 2
/// (docs/PERFORMANCE.md) found `.cs` stores no different beyond noise and the predicated partial-unroll
/// path slower (f16 add at 2^28: 3021 against 4298 GB/s).

#include <ew/elementwise.cuh>

#include <cstddef>
#include <cstring>

#include <cuda_runtime.h>

namespace ewb {
namespace tune {

/// How input loads are told to treat the cache.
enum class load_hint : int {
  normal = 0,       ///< `ld.global`: ew's only form.
  streaming = 1,    ///< `ld.global.cs`: evict-first.
  no_allocate = 2,  ///< `ld.global.nc.L1::no_allocate`: read-only path, not kept in L1.
};

const char* hint_name(load_hint h);

/// A contiguous input whose 16-byte vector loads carry hint `H` (narrower ones are ew's plain loads).
template <class T, load_hint H>
struct hinted_input {
  using value_type = T;
  const T* ptr;

  __device__ T element(std::size_t i) const { return ptr[i]; }
  template <int Vec>
  __device__ ew::detail::vector_word<T, Vec> vector(std::size_t i) const {
    if constexpr (H == load_hint::normal || sizeof(T) * Vec != 16) {
      return ew::detail::load_vector<Vec>(ptr + i);
    } else {
      ew::detail::vector_word<T, Vec> u;
      uint4 r;
      if constexpr (H == load_hint::streaming) {
        asm volatile("ld.global.cs.v4.u32 {%0, %1, %2, %3}, [%4];"
                     : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
                     : "l"(ptr + i)
                     : "memory");
      } else {
        asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];"
                     : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
                     : "l"(ptr + i)
                     : "memory");
      }
      u.word = r;
      return u;
    }
  }
};

/// The run-time part of a variant: ew's policy (block size, programmatic launch) and a grid cap.
struct variant_launch {
  ew::tuning::launch_policy policy;
  int waves = 0;  ///< 0: ew's grid (one tile per block); else at most waves x SMs x resident blocks per SM
};

/// Launches ew's kernel for `op` over `n` elements, `out[i] = op(ins[i]...)`, as variant `v`.
template <int Vec, int Unroll, load_hint H, class Op, class T, class... In>
cudaError_t launch_variant(const Op& op, std::size_t n, T* out, const variant_launch& v, cudaStream_t stream,
                           const In*... ins) {
  using out_ptrs = cuda::std::tuple<T*>;
  using operands = cuda::std::tuple<hinted_input<In, H>...>;
  constexpr auto kernel =
      &ew::detail::elementwise_kernel<Op, Vec, Unroll, ew::detail::scalar_unroll<Vec, Unroll>, out_ptrs,
                                      operands>;
  const ew::detail::pointer_info ptrs[] = {ew::detail::info_of(out), ew::detail::info_of(ins)...};
  const int head = ew::detail::vector_head(ptrs, static_cast<int>(sizeof...(In)) + 1, Vec);
  ew::detail::launch_plan plan = ew::detail::plan_paths<Vec, Unroll>(n, head, v.policy);
  int device = 0, sms = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err == cudaSuccess) err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (err != cudaSuccess) return err;
  if (v.waves > 0) {
    int per_sm = 0;
    err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel,
                                                        static_cast<int>(plan.shape.block_threads), 0);
    if (err != cudaSuccess) return err;
    const std::size_t cap = static_cast<std::size_t>(v.waves) * sms * (per_sm < 1 ? 1 : per_sm);
    if (plan.shape.blocks > cap) plan.shape.blocks = cap;
  }
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(plan.shape.blocks));
  config.blockDim = dim3(static_cast<unsigned>(plan.shape.block_threads));
  config.stream = stream;
  cudaLaunchAttribute attribute{};
  if (v.policy.programmatic_launch) {
    plan.shape.early_trigger = ew::tuning::early_trigger(plan.shape.blocks, sms);
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
  }
  return cudaLaunchKernelEx(&config, kernel, op, plan.part, plan.shape, out_ptrs(out),
                            operands{hinted_input<In, H>{ins}...});
}

}  // namespace tune
}  // namespace ewb
