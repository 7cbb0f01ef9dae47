// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The implementations ew_bench times side by side, each as one launch on a stream that throws
/// `ewb::bench_failure` on error:
/// - `ew`: `ew::elementwise`;
/// - `v0`, `v1`, `v3`: the seeds' kernels (shared/seeds/000): one thread per element with 256-thread
///   blocks; a grid-stride loop over SMs x 32 blocks of 256; the same loop over 16-byte vectors (float4
///   for f32, generalized to 16 bytes for every type) with a scalar tail, aligned pointers only;
/// - `cub`: `cub::DeviceTransform::Transform` from the CCCL the binary is built with (ew_bench: the
///   toolkit's; ew_bench_cccl_pypi: the wheel pinned in scripts/fetch_cccl.sh), with ew's functor;
/// - `cub_native`: the same call with the functor a CUB user writes: T's own arithmetic
///   (`cuda::std::plus<T>`; native `__half`/`__nv_bfloat16` compares, multiplies and adds), below;
/// - `thrust`: `thrust::transform` on `thrust::cuda::par_nosync`, the functor wrapped by
///   `cuda::proclaim_copyable_arguments` (without it thrust asks CUB for stable argument addresses and
///   takes a slower path).
///
/// Every implementation but cub_native calls the same ew functor, so they compute bit-identical results.

#include <ew/elementwise.cuh>

#include <cub/device/device_transform.cuh>
#include <cuda/functional>
#include <cuda/std/tuple>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/transform.h>

#include <climits>
#include <string>

#include "errors.cuh"

#ifdef EWB_EXPECT_CCCL_VERSION
// ew_bench_cccl_pypi: the CCCL of EW_BENCH_CCCL_INCLUDE_DIR must be the one compiled against, not the
// toolkit's.
static_assert(CCCL_VERSION == EWB_EXPECT_CCCL_VERSION,
              "built against another CCCL than EW_BENCH_CCCL_INCLUDE_DIR");
#endif

namespace ewb {

enum class impl { ew, v0, v1, v3, cub, cub_native, thrust };

/// In the order the sweep registers them (and the slot each writes).
inline constexpr impl all_impls[] = {impl::ew, impl::cub, impl::cub_native, impl::thrust,
                                     impl::v0, impl::v1,  impl::v3};

inline const char* impl_name(impl i) {
  switch (i) {
    case impl::ew:
      return "ew";
    case impl::cub_native:
      return "cub_native";
    case impl::v0:
      return "v0";
    case impl::v1:
      return "v1";
    case impl::v3:
      return "v3";
    case impl::cub:
      return "cub";
    case impl::thrust:
      return "thrust";
  }
  return "?";
}

/// v3 works on 16-byte vectors and needs every pointer aligned to 16 bytes.
inline bool impl_supports_misaligned(impl i) { return i != impl::v3; }

inline constexpr int seed_block_threads = 256;

// ------------------------------------------------------------------------------------------------
// The functors a CUB user writes (add is cuda::std::plus<T>): T's own operators, which on __half and
// __nv_bfloat16 are the native 16-bit instructions.
// ------------------------------------------------------------------------------------------------

template <class T>
struct native_relu {
  __host__ __device__ T operator()(T x) const { return x < T(0.0f) ? T(0.0f) : x; }
};

template <class T>
struct native_clamp {
  T lo, hi;
  __host__ __device__ T operator()(T x) const { return x < lo ? lo : (hi < x ? hi : x); }
};

template <class T>
struct native_scale_bias {
  T scale, bias;
  __host__ __device__ T operator()(T x) const { return x * scale + bias; }
};

// ------------------------------------------------------------------------------------------------
// The seeds' kernels
// ------------------------------------------------------------------------------------------------

/// v0: one thread per element.
template <class F, class T, class... In>
__global__ void __launch_bounds__(seed_block_threads) v0_kernel(F f, std::size_t n, T* out, const In*... in) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = f(in[i]...);
}

/// v1: grid-stride loop.
template <class F, class T, class... In>
__global__ void __launch_bounds__(seed_block_threads) v1_kernel(F f, std::size_t n, T* out, const In*... in) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    out[i] = f(in[i]...);
  }
}

/// 16 bytes of `T`, aligned to 16: float4 for f32, double2 for f64, 8 halves for f16/bf16.
template <class T>
struct alignas(16) pack16 {
  static constexpr int size = static_cast<int>(16 / sizeof(T));
  T v[size];
};

/// v3: grid-stride loop over 16-byte vectors, then a scalar tail. Pointers must be 16-byte aligned.
template <class F, class T>
__global__ void __launch_bounds__(seed_block_threads)
    v3_unary_kernel(F f, std::size_t n, T* out, const T* a) {
  constexpr int W = pack16<T>::size;
  const std::size_t idx = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t nv = n / W;
  const pack16<T>* a4 = reinterpret_cast<const pack16<T>*>(a);
  pack16<T>* o4 = reinterpret_cast<pack16<T>*>(out);
  for (std::size_t i = idx; i < nv; i += stride) {
    const pack16<T> x = a4[i];
    pack16<T> r;
#pragma unroll
    for (int j = 0; j < W; ++j) r.v[j] = f(x.v[j]);
    o4[i] = r;
  }
  for (std::size_t i = nv * W + idx; i < n; i += stride) out[i] = f(a[i]);
}

template <class F, class T>
__global__ void __launch_bounds__(seed_block_threads)
    v3_binary_kernel(F f, std::size_t n, T* out, const T* a, const T* b) {
  constexpr int W = pack16<T>::size;
  const std::size_t idx = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t nv = n / W;
  const pack16<T>* a4 = reinterpret_cast<const pack16<T>*>(a);
  const pack16<T>* b4 = reinterpret_cast<const pack16<T>*>(b);
  pack16<T>* o4 = reinterpret_cast<pack16<T>*>(out);
  for (std::size_t i = idx; i < nv; i += stride) {
    const pack16<T> x = a4[i];
    const pack16<T> y = b4[i];
    pack16<T> r;
#pragma unroll
    for (int j = 0; j < W; ++j) r.v[j] = f(x.v[j], y.v[j]);
    o4[i] = r;
  }
  for (std::size_t i = nv * W + idx; i < n; i += stride) out[i] = f(a[i], b[i]);
}

/// SMs x 32: the seeds' grid for v1 and v3 (device 0's SM count, queried once).
inline int seed_grid_stride_blocks() {
  static const int blocks = [] {
    int dev = 0, sms = 0;
    EWB_CHECK(cudaGetDevice(&dev));
    EWB_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    return sms * 32;
  }();
  return blocks;
}

// ------------------------------------------------------------------------------------------------
// Launchers: one call each, errors thrown
// ------------------------------------------------------------------------------------------------

template <class F, class T, class... In>
void launch_ew(const F& f, std::size_t n, T* out, cudaStream_t s, const In*... in) {
  const cudaError_t err = ew::elementwise(f, n, out, ew::in(in...), s);
  if (err != cudaSuccess) {
    throw bench_failure(std::string("ew::elementwise: ") + cudaGetErrorString(err) + " (" +
                        ew::last_error_message() + ")");
  }
  EWB_CHECK_LAUNCH();
}

template <class F, class T, class... In>
void launch_v0(const F& f, std::size_t n, T* out, cudaStream_t s, const In*... in) {
  if (n == 0) return;
  const std::size_t blocks = (n + seed_block_threads - 1) / seed_block_threads;
  v0_kernel<F, T, In...><<<static_cast<unsigned>(blocks), seed_block_threads, 0, s>>>(f, n, out, in...);
  EWB_CHECK_LAUNCH();
}

template <class F, class T, class... In>
void launch_v1(const F& f, std::size_t n, T* out, cudaStream_t s, const In*... in) {
  if (n == 0) return;
  v1_kernel<F, T, In...><<<seed_grid_stride_blocks(), seed_block_threads, 0, s>>>(f, n, out, in...);
  EWB_CHECK_LAUNCH();
}

template <class F, class T, class... In>
void launch_v3(const F& f, std::size_t n, T* out, cudaStream_t s, const In*... in) {
  if (n == 0) return;
  if constexpr (sizeof...(In) == 1) {
    v3_unary_kernel<F, T><<<seed_grid_stride_blocks(), seed_block_threads, 0, s>>>(f, n, out, in...);
  } else {
    static_assert(sizeof...(In) == 2, "v3 baseline: unary or binary ops");
    v3_binary_kernel<F, T><<<seed_grid_stride_blocks(), seed_block_threads, 0, s>>>(f, n, out, in...);
  }
  EWB_CHECK_LAUNCH();
}

template <class F, class T, class... In>
void launch_cub(const F& f, std::size_t n, T* out, cudaStream_t s, const In*... in) {
  if (n > static_cast<std::size_t>(INT_MAX)) throw bench_failure("cub baseline: n does not fit in int");
  // int items: CUB picks 32-bit offsets, what a caller with an int count gets (and its fastest path).
  const cudaError_t err =
      cub::DeviceTransform::Transform(cuda::std::make_tuple(in...), out, static_cast<int>(n), f, s);
  if (err != cudaSuccess)
    throw bench_failure(std::string("cub::DeviceTransform::Transform: ") + cudaGetErrorString(err));
  EWB_CHECK_LAUNCH();
}

template <class F, class T, class... In>
void launch_thrust(const F& f, std::size_t n, T* out, cudaStream_t s, const In*... in) {
  const auto g = cuda::proclaim_copyable_arguments(f);
  const auto policy = thrust::cuda::par_nosync.on(s);
  const T* p[] = {in...};
  try {
    if constexpr (sizeof...(In) == 1) {
      thrust::transform(policy, p[0], p[0] + n, out, g);
    } else {
      static_assert(sizeof...(In) == 2, "thrust baseline: unary or binary ops");
      thrust::transform(policy, p[0], p[0] + n, p[1], out, g);
    }
  } catch (const std::exception& e) {
    throw bench_failure(std::string("thrust::transform: ") + e.what());
  }
  EWB_CHECK_LAUNCH();
}

template <class F, class T, class... In>
void launch_impl(impl i, const F& f, std::size_t n, T* out, cudaStream_t s, const In*... in) {
  switch (i) {
    case impl::ew:
      launch_ew(f, n, out, s, in...);
      return;
    case impl::v0:
      launch_v0(f, n, out, s, in...);
      return;
    case impl::v1:
      launch_v1(f, n, out, s, in...);
      return;
    case impl::v3:
      launch_v3(f, n, out, s, in...);
      return;
    case impl::cub:
    case impl::cub_native:
      launch_cub(f, n, out, s, in...);
      return;
    case impl::thrust:
      launch_thrust(f, n, out, s, in...);
      return;
  }
}

}  // namespace ewb
