// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once
//
// The functors of the torch cells that ew's catalog lacks, and the cast-transpose's launch, shared by
// libew_cells.so (ew_cells.cu), its policy variants (bench/probes/cells_variants.cu) and probe 26
// (bench/probes/cast_transpose_tiles.cu).

#include <cstdint>
#include <type_traits>

#include <cuda_fp8.h>

#include <ew/elementwise.cuh>

namespace ew_cells {

/// y = x: the copy (ew has no identity op).
template <class T>
struct copy_of {
  EW_HD T operator()(T x) const { return x; }
};

/// (x - mean) * inv_std in compute_t<T> (float for the 16-bit types), rounded once: what torch.compile's
/// kernel computes; eager PyTorch rounds x - mean to T first.
template <class T>
struct channel_norm {
  EW_HD T operator()(T x, T mean, T inv_std) const {
    return ew::down<T>((ew::up(x) - ew::up(mean)) * ew::up(inv_std));
  }
};

/// The FP8 cast-transpose's op: `(x * scale, x * scale, x)` in float, for y8, its transpose and the amax.
template <class T>
struct scaled_twice_and_kept {
  float scale;
  EW_HD cuda::std::tuple<float, float, float> operator()(T x) const {
    const float v = ew::convert<float>(x);
    return {v * scale, v * scale, v};
  }
};

/// The FP8 cast-transpose (Transformer Engine's `fp8_cast_transpose_fused`): from x [M, N], y8 [M, N] and
/// yt8 [N, M] = e4m3(x * scale) and `*am` = max |x| (overwritten; `ws` a zeroed reduction workspace), one
/// launch under policy `P` (void: ew's own).
template <class P, class T>
cudaError_t cast_transpose(__nv_fp8_e4m3* y8, __nv_fp8_e4m3* yt8, float* am, ew::reduction_workspace* ws,
                           const T* x, std::int64_t M, std::int64_t N, float scale,
                           cudaStream_t s = nullptr) {
  const ew::extents e{M, N};
  const auto out = ew::out(ew::strided(y8, e, ew::strides{N, 1}), ew::strided(yt8, e, ew::strides{1, M}),
                           ew::reduce_overwrite<ew::reduction::amax>(am, ws));
  const auto in = ew::in(ew::strided(x, e, ew::strides{N, 1}));
  if constexpr (std::is_void_v<P>) {
    return ew::elementwise(scaled_twice_and_kept<T>{scale}, e, out, in, s);
  } else {
    return ew::elementwise<P>(scaled_twice_and_kept<T>{scale}, e, out, in, s);
  }
}

// The views of the *_nd cells: rank R of the run-time rank's arrays (strides in elements).
template <int R>
ew::extents<R> extents_of(const std::int64_t* e) {
  ew::extents<R> x;
  for (int d = 0; d < R; ++d) x.v[d] = e[d];
  return x;
}
template <int R>
ew::strides<R> strides_of(const std::int64_t* s) {
  ew::strides<R> x;
  for (int d = 0; d < R; ++d) x.v[d] = s[d];
  return x;
}

}  // namespace ew_cells
