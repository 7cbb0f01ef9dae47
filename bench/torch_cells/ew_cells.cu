// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// libew_cells.so: issues 21 to 23's cells as plain C functions over raw device pointers, so that Python
// reaches ew through ctypes (bench/scripts/torch_cells.py) and times it beside eager PyTorch and
// torch.compile in one process, without building a PyTorch extension. Each function is one ew::elementwise
// call through ew's public API on `stream` (last argument) and returns its cudaError_t as an int;
// ew_cells_last_error() says why a call failed. Suffixes: f32 (float), f16 (__half), bf16 (__nv_bfloat16).
// Pointers are void* so that ctypes passes tensor.data_ptr() as is; the shapes are row-major and contiguous
// unless a comment says otherwise.
//
//   bias_add_T(y, x, b, R, C)                    y[r, c] = x[r, c] + b[c]          (b: strides {0, 1})
//   col_mul_T(y, x, col, R, C)                   y[r, c] = x[r, c] * col[r]        (col: strides {1, 0})
//   channel_norm_T(y, x, mean, inv_std, N, C, H, W)  y = (x - mean[c]) * inv_std[c] over NCHW, in float,
//                                                    rounded once          (mean, inv_std: {0, 1, 0, 0})
//   transpose_T(y, x, R, C)                      y[c, r] = x[r, c], y [C, R]       (x read as {1, C})
//   permute4_T(y, x, D0, D1, D2, D3, P0, P1, P2, P3)  y = x.permute(P).contiguous(), x [D0, D1, D2, D3]
//                                                    row-major (NCHW -> NHWC is P = {0, 2, 3, 1})
//   copy_T(y, x, n), relu_T(y, x, n)             1-D references over n elements
//   add_T(y, a, b, n), clamp_T(y, x, n, lo, hi), scale_bias_T(y, x, n, alpha, beta)   1-D cells
//   add_nd_T(y, a, b, rank, e, ys, as, bs)       y = a + b over extents e[rank], each a view with its own
//                                                strides (elements; 0 broadcasts): odd extents, ranks 2 to
//                                                5, scalar broadcasts (the torch cells' --shapes)
//   relu_nd_T(y, x, rank, e, ys, xs)             y = relu(x), each a view: pitched outputs, sliced inputs

#include <cstdint>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <ew/elementwise.cuh>

#include "cell_ops.cuh"

namespace {

using ew_cells::channel_norm;
using ew_cells::copy_of;
using ew_cells::extents_of;
using ew_cells::scaled_twice_and_kept;
using ew_cells::strides_of;

template <class T>
int bias_add(void* y, const void* x, const void* b, std::int64_t R, std::int64_t C, cudaStream_t s) {
  const auto bias = ew::strided(static_cast<const T*>(b), ew::extents{R, C}, ew::strides{0, 1});
  return ew::elementwise(ew::add<T>{}, ew::extents{R, C}, ew::out(static_cast<T*>(y)),
                         ew::in(static_cast<const T*>(x), bias), s);
}

template <class T>
int col_mul(void* y, const void* x, const void* col, std::int64_t R, std::int64_t C, cudaStream_t s) {
  const auto column = ew::strided(static_cast<const T*>(col), ew::extents{R, C}, ew::strides{1, 0});
  return ew::elementwise(ew::mul<T>{}, ew::extents{R, C}, ew::out(static_cast<T*>(y)),
                         ew::in(static_cast<const T*>(x), column), s);
}

template <class T>
int channel_norm_nchw(void* y, const void* x, const void* mean, const void* inv_std, std::int64_t N,
                      std::int64_t C, std::int64_t H, std::int64_t W, cudaStream_t s) {
  const ew::extents nchw{N, C, H, W};
  const auto per_channel = [&](const void* p) {
    return ew::strided(static_cast<const T*>(p), nchw, ew::strides{0, 1, 0, 0});
  };
  return ew::elementwise(channel_norm<T>{}, nchw, ew::out(static_cast<T*>(y)),
                         ew::in(static_cast<const T*>(x), per_channel(mean), per_channel(inv_std)), s);
}

template <class T>
int transpose(void* y, const void* x, std::int64_t R, std::int64_t C, cudaStream_t s) {
  const auto xt = ew::strided(static_cast<const T*>(x), ew::extents{C, R}, ew::strides{1, C});
  return ew::elementwise(copy_of<T>{}, ew::extents{C, R}, ew::out(static_cast<T*>(y)), ew::in(xt), s);
}

template <class T>
int permute4(void* y, const void* x, const std::int64_t (&d)[4], const std::int64_t (&p)[4], cudaStream_t s) {
  const std::int64_t stride[4] = {d[1] * d[2] * d[3], d[2] * d[3], d[3], 1};
  for (int i = 0; i < 4; ++i) {
    if (p[i] < 0 || p[i] > 3) return static_cast<int>(cudaErrorInvalidValue);
  }
  const ew::extents e{d[p[0]], d[p[1]], d[p[2]], d[p[3]]};
  const auto xp = ew::strided(static_cast<const T*>(x), e,
                              ew::strides{stride[p[0]], stride[p[1]], stride[p[2]], stride[p[3]]});
  return ew::elementwise(copy_of<T>{}, e, ew::out(static_cast<T*>(y)), ew::in(xp), s);
}

template <class T, class Op>
int unary(const Op& op, void* y, const void* x, std::int64_t n, cudaStream_t s) {
  if (n < 0) return static_cast<int>(cudaErrorInvalidValue);
  return ew::elementwise(op, static_cast<std::size_t>(n), ew::out(static_cast<T*>(y)),
                         ew::in(static_cast<const T*>(x)), s);
}

template <class T>
int add(void* y, const void* a, const void* b, std::int64_t n, cudaStream_t s) {
  if (n < 0) return static_cast<int>(cudaErrorInvalidValue);
  return ew::elementwise(ew::add<T>{}, static_cast<std::size_t>(n), ew::out(static_cast<T*>(y)),
                         ew::in(static_cast<const T*>(a), static_cast<const T*>(b)), s);
}

template <class T, int R>
int add_nd(void* y, const void* a, const void* b, const std::int64_t* e, const std::int64_t* ys,
           const std::int64_t* as, const std::int64_t* bs, cudaStream_t s) {
  const auto ex = extents_of<R>(e);
  return ew::elementwise(ew::add<T>{}, ex, ew::out(ew::strided(static_cast<T*>(y), ex, strides_of<R>(ys))),
                         ew::in(ew::strided(static_cast<const T*>(a), ex, strides_of<R>(as)),
                                ew::strided(static_cast<const T*>(b), ex, strides_of<R>(bs))),
                         s);
}

template <class T, int R>
int relu_nd(void* y, const void* x, const std::int64_t* e, const std::int64_t* ys, const std::int64_t* xs,
            cudaStream_t s) {
  const auto ex = extents_of<R>(e);
  return ew::elementwise(ew::relu<T>{}, ex, ew::out(ew::strided(static_cast<T*>(y), ex, strides_of<R>(ys))),
                         ew::in(ew::strided(static_cast<const T*>(x), ex, strides_of<R>(xs))), s);
}

}  // namespace

#define EW_CELLS_API extern "C" __attribute__((visibility("default"))) int

// The cells of every type: the 1-D ones (issue 21's 1-D goal, and the copy and relu references).
#define EW_CELLS_1D(suffix, T)                                                                               \
  EW_CELLS_API ew_cells_relu_##suffix(void* y, const void* x, std::int64_t n, cudaStream_t s) {              \
    return unary<T>(ew::relu<T>{}, y, x, n, s);                                                              \
  }                                                                                                          \
  EW_CELLS_API ew_cells_add_##suffix(void* y, const void* a, const void* b, std::int64_t n,                  \
                                     cudaStream_t s) {                                                       \
    return add<T>(y, a, b, n, s);                                                                            \
  }                                                                                                          \
  EW_CELLS_API ew_cells_clamp_##suffix(void* y, const void* x, std::int64_t n, float lo, float hi,           \
                                       cudaStream_t s) {                                                     \
    return unary<T>(ew::clamp<T>{ew::down<T>(lo), ew::down<T>(hi)}, y, x, n, s);                             \
  }                                                                                                          \
  EW_CELLS_API ew_cells_scale_bias_##suffix(void* y, const void* x, std::int64_t n, float alpha, float beta, \
                                            cudaStream_t s) {                                                \
    using C = ew::compute_t<T>;                                                                              \
    return unary<T>(ew::scale_bias<T>{static_cast<C>(alpha), static_cast<C>(beta)}, y, x, n, s);             \
  }

// The 1-D relu alone (the reference of the u8 and f64 --shapes cells).
#define EW_CELLS_RELU(suffix, T)                                                                \
  EW_CELLS_API ew_cells_relu_##suffix(void* y, const void* x, std::int64_t n, cudaStream_t s) { \
    return unary<T>(ew::relu<T>{}, y, x, n, s);                                                 \
  }

// The copies of every type: the 1-D reference, the transpose and the 4-D permutes.
#define EW_CELLS_COPIES(suffix, T)                                                                 \
  EW_CELLS_API ew_cells_copy_##suffix(void* y, const void* x, std::int64_t n, cudaStream_t s) {    \
    return unary<T>(copy_of<T>{}, y, x, n, s);                                                     \
  }                                                                                                \
  EW_CELLS_API ew_cells_transpose_##suffix(void* y, const void* x, std::int64_t R, std::int64_t C, \
                                           cudaStream_t s) {                                       \
    return transpose<T>(y, x, R, C, s);                                                            \
  }                                                                                                \
  EW_CELLS_API ew_cells_permute4_##suffix(                                                         \
      void* y, const void* x, std::int64_t d0, std::int64_t d1, std::int64_t d2, std::int64_t d3,  \
      std::int64_t p0, std::int64_t p1, std::int64_t p2, std::int64_t p3, cudaStream_t s) {        \
    return permute4<T>(y, x, {d0, d1, d2, d3}, {p0, p1, p2, p3}, s);                               \
  }

// The N-dimensional cells (f32 and bf16, as issue 21 measures them).
#define EW_CELLS_ND(suffix, T)                                                                               \
  EW_CELLS_API ew_cells_bias_add_##suffix(void* y, const void* x, const void* b, std::int64_t R,             \
                                          std::int64_t C, cudaStream_t s) {                                  \
    return bias_add<T>(y, x, b, R, C, s);                                                                    \
  }                                                                                                          \
  EW_CELLS_API ew_cells_col_mul_##suffix(void* y, const void* x, const void* col, std::int64_t R,            \
                                         std::int64_t C, cudaStream_t s) {                                   \
    return col_mul<T>(y, x, col, R, C, s);                                                                   \
  }                                                                                                          \
  EW_CELLS_API ew_cells_channel_norm_##suffix(void* y, const void* x, const void* mean, const void* inv_std, \
                                              std::int64_t N, std::int64_t C, std::int64_t H,                \
                                              std::int64_t W, cudaStream_t s) {                              \
    return channel_norm_nchw<T>(y, x, mean, inv_std, N, C, H, W, s);                                         \
  }

// The --shapes cells: y = a + b over ranks 2 to 5 (f32 and bf16) or rank 2 (the other types), and the
// pitched and sliced relu over rank 2 (ew itself coalesces; each rank is its own instantiation, as a user's).
#define EW_CELLS_ADD_ND(suffix, T, ...)                                                                   \
  EW_CELLS_API ew_cells_add_nd_##suffix(void* y, const void* a, const void* b, std::int64_t rank,         \
                                        const std::int64_t* e, const std::int64_t* ys,                    \
                                        const std::int64_t* as, const std::int64_t* bs, cudaStream_t s) { \
    switch (rank) { __VA_ARGS__ }                                                                         \
    return static_cast<int>(cudaErrorInvalidValue);                                                       \
  }
#define EW_CELLS_ADD_RANK(T, R) \
  case R:                       \
    return add_nd<T, R>(y, a, b, e, ys, as, bs, s);
#define EW_CELLS_RELU_ND(suffix, T)                                                                        \
  EW_CELLS_API ew_cells_relu_nd_##suffix(void* y, const void* x, std::int64_t rank, const std::int64_t* e, \
                                         const std::int64_t* ys, const std::int64_t* xs, cudaStream_t s) { \
    return rank == 2 ? relu_nd<T, 2>(y, x, e, ys, xs, s) : static_cast<int>(cudaErrorInvalidValue);        \
  }

EW_CELLS_1D(f32, float)
EW_CELLS_1D(f16, __half)
EW_CELLS_1D(bf16, __nv_bfloat16)
EW_CELLS_COPIES(f32, float)
EW_CELLS_COPIES(f16, __half)
EW_CELLS_COPIES(bf16, __nv_bfloat16)
EW_CELLS_COPIES(u8, std::uint8_t)
EW_CELLS_COPIES(f64, double)
EW_CELLS_ND(f32, float)
EW_CELLS_ND(bf16, __nv_bfloat16)
EW_CELLS_ADD_ND(f32, float,
                EW_CELLS_ADD_RANK(float, 2) EW_CELLS_ADD_RANK(float, 3) EW_CELLS_ADD_RANK(float, 4)
                    EW_CELLS_ADD_RANK(float, 5))
EW_CELLS_ADD_ND(bf16, __nv_bfloat16,
                EW_CELLS_ADD_RANK(__nv_bfloat16, 2) EW_CELLS_ADD_RANK(__nv_bfloat16, 3)
                    EW_CELLS_ADD_RANK(__nv_bfloat16, 4) EW_CELLS_ADD_RANK(__nv_bfloat16, 5))
EW_CELLS_ADD_ND(f16, __half, EW_CELLS_ADD_RANK(__half, 2))
EW_CELLS_ADD_ND(u8, std::uint8_t, EW_CELLS_ADD_RANK(std::uint8_t, 2))
EW_CELLS_ADD_ND(f64, double, EW_CELLS_ADD_RANK(double, 2))
EW_CELLS_RELU_ND(f32, float)
EW_CELLS_RELU_ND(bf16, __nv_bfloat16)
EW_CELLS_RELU(u8, std::uint8_t)
EW_CELLS_RELU(f64, double)

// Issues 22 and 23's fused cells (bench/scripts/torch_fused_cells.py), f32 and bf16 x:
//   fp8_cast_T(y8, x, n, scale)                    y8 = e4m3(x * scale)               (the bar's plain cast)
//   quant_amax_T(y8, amax, ws, x, n, scale)        y8 = e4m3(x * scale), *amax = max |x| (overwritten)
//   dropout_T(y, x, n, p, seed, offset)            y = dropout(x, p) keyed by (seed, offset, i), no mask
//   amax_T(amax, ws, x, n), sum_T(sum, ws, x, n)   max |x|, the float sum (overwritten, deterministic)
//   cast_transpose_T(y8, yt8, amax, ws, x, M, N, scale)  y8[M, N] and yt8[N, M] = e4m3(x * scale), amax
//   bias_gelu_T(y, x, b, R, C)                     y[r, c] = gelu(x[r, c] + b[c])
//   pow_T(y, a, e, n)                              y = pow(a, e) (issue 23's catalog op beside torch.compile)
// `ws` is a zeroed ew::reduction_workspace (ew_cells_workspace_bytes() bytes).
namespace {

template <class T>
struct scaled {
  float scale;
  EW_HD float operator()(T x) const { return ew::convert<float>(x) * scale; }
};
template <class T>
struct scaled_and_kept {
  float scale;
  EW_HD cuda::std::tuple<float, float> operator()(T x) const {
    const float v = ew::convert<float>(x);
    return {v * scale, v};
  }
};
template <class T>
struct as_float {
  EW_HD float operator()(T x) const { return ew::convert<float>(x); }
};

using fp8 = __nv_fp8_e4m3;
using ew::reduction::amax;
using ew::reduction::sum;

template <class T>
int cast_transpose(void* y8, void* yt8, void* am, void* ws, const void* x, std::int64_t M, std::int64_t N,
                   float scale, cudaStream_t s) {
  return ew_cells::cast_transpose<void>(static_cast<fp8*>(y8), static_cast<fp8*>(yt8),
                                        static_cast<float*>(am), static_cast<ew::reduction_workspace*>(ws),
                                        static_cast<const T*>(x), M, N, scale, s);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) std::int64_t ew_cells_workspace_bytes() {
  return static_cast<std::int64_t>(sizeof(ew::reduction_workspace));
}

#define EW_CELLS_FUSED(suffix, T)                                                                            \
  EW_CELLS_API ew_cells_fp8_cast_##suffix(void* y8, const void* x, std::int64_t n, float scale,              \
                                          cudaStream_t s) {                                                  \
    return ew::elementwise(scaled<T>{scale}, static_cast<std::size_t>(n), static_cast<fp8*>(y8),             \
                           static_cast<const T*>(x), s);                                                     \
  }                                                                                                          \
  EW_CELLS_API ew_cells_quant_amax_##suffix(void* y8, void* am, void* ws, const void* x, std::int64_t n,     \
                                            float scale, cudaStream_t s) {                                   \
    return ew::elementwise(scaled_and_kept<T>{scale}, static_cast<std::size_t>(n),                           \
                           ew::out(static_cast<fp8*>(y8),                                                    \
                                   ew::reduce_overwrite<amax>(static_cast<float*>(am),                       \
                                                              static_cast<ew::reduction_workspace*>(ws))),   \
                           static_cast<const T*>(x), s);                                                     \
  }                                                                                                          \
  EW_CELLS_API ew_cells_dropout_##suffix(void* y, const void* x, std::int64_t n, float p, std::int64_t seed, \
                                         std::int64_t offset, cudaStream_t s) {                              \
    const ew::philox_seed key{static_cast<std::uint64_t>(seed), static_cast<std::uint64_t>(offset)};         \
    return ew::elementwise(ew::dropout<T>{p}, static_cast<std::size_t>(n),                                   \
                           ew::out(static_cast<T*>(y), ew::discard),                                         \
                           ew::in(static_cast<const T*>(x), ew::random_bits(key)), s);                       \
  }                                                                                                          \
  EW_CELLS_API ew_cells_dropout16_##suffix(void* y, const void* x, std::int64_t n, float p,                  \
                                           std::int64_t seed, std::int64_t offset, cudaStream_t s) {         \
    const ew::philox_seed key{static_cast<std::uint64_t>(seed), static_cast<std::uint64_t>(offset)};         \
    return ew::elementwise(ew::dropout<T>{p}, static_cast<std::size_t>(n),                                   \
                           ew::out(static_cast<T*>(y), ew::discard),                                         \
                           ew::in(static_cast<const T*>(x), ew::random_bits16(key)), s);                     \
  }                                                                                                          \
  EW_CELLS_API ew_cells_amax_##suffix(void* am, void* ws, const void* x, std::int64_t n, cudaStream_t s) {   \
    return ew::elementwise(                                                                                  \
        as_float<T>{}, static_cast<std::size_t>(n),                                                          \
        ew::reduce_overwrite<amax>(static_cast<float*>(am), static_cast<ew::reduction_workspace*>(ws)),      \
        static_cast<const T*>(x), s);                                                                        \
  }                                                                                                          \
  EW_CELLS_API ew_cells_sum_##suffix(void* sm, void* ws, const void* x, std::int64_t n, cudaStream_t s) {    \
    return ew::elementwise(                                                                                  \
        as_float<T>{}, static_cast<std::size_t>(n),                                                          \
        ew::reduce_overwrite<sum>(static_cast<float*>(sm), static_cast<ew::reduction_workspace*>(ws)),       \
        static_cast<const T*>(x), s);                                                                        \
  }                                                                                                          \
  EW_CELLS_API ew_cells_cast_transpose_##suffix(void* y8, void* yt8, void* am, void* ws, const void* x,      \
                                                std::int64_t M, std::int64_t N, float scale,                 \
                                                cudaStream_t s) {                                            \
    return cast_transpose<T>(y8, yt8, am, ws, x, M, N, scale, s);                                            \
  }                                                                                                          \
  EW_CELLS_API ew_cells_bias_gelu_##suffix(void* y, const void* x, const void* b, std::int64_t R,            \
                                           std::int64_t C, cudaStream_t s) {                                 \
    return ew::elementwise(                                                                                  \
        ew::compose(ew::add<T>{}, ew::gelu<T>{}), ew::extents{R, C}, static_cast<T*>(y),                     \
        ew::in(static_cast<const T*>(x), ew::broadcast(static_cast<const T*>(b), ew::extents{1, C})), s);    \
  }                                                                                                          \
  EW_CELLS_API ew_cells_pow_##suffix(void* y, const void* a, const void* e, std::int64_t n,                  \
                                     cudaStream_t s) {                                                       \
    return ew::elementwise(ew::pow<T>{}, static_cast<std::size_t>(n), static_cast<T*>(y),                    \
                           ew::in(static_cast<const T*>(a), static_cast<const T*>(e)), s);                   \
  }

EW_CELLS_FUSED(f32, float)
EW_CELLS_FUSED(bf16, __nv_bfloat16)

/// Why the calling thread's last failed ew call failed (ew::last_error_message()).
extern "C" __attribute__((visibility("default"))) const char* ew_cells_last_error() {
  return ew::last_error_message();
}
