// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// libew_cast_transpose_staged.so: probe 27's hand-written cast-transpose kernels (cast_transpose_staged.cuh)
// as torch_fused_cells.py's variants (--variant-lib, --variants direct,s2,s3,s2cs), so that they are timed by
// the issue's method beside ew's launch and its copy, in one process. `ws` is unused (the kernels keep their
// amax partials in the library's globals: one stream at a time).

#include <cstdint>

#include "cast_transpose_staged.cuh"

#define EW_STAGED_API extern "C" __attribute__((visibility("default"))) int
#define EW_STAGED(suffix, T, v, stages, streaming)                                                           \
  EW_STAGED_API ew_cells_cast_transpose_##suffix##__##v(void* y8, void* yt8, void* am, void*, const void* x, \
                                                        std::int64_t M, std::int64_t N, float scale,         \
                                                        cudaStream_t s) {                                    \
    return static_cast<int>(ct_staged::launch_ct<T, stages, streaming>(                                      \
        static_cast<ct_staged::fp8*>(y8), static_cast<ct_staged::fp8*>(yt8), static_cast<float*>(am),        \
        static_cast<const T*>(x), M, N, scale, s));                                                          \
  }
#define EW_STAGED_BOTH(v, stages, streaming)  \
  EW_STAGED(f32, float, v, stages, streaming) \
  EW_STAGED(bf16, __nv_bfloat16, v, stages, streaming)

EW_STAGED_BOTH(direct, 0, false)
EW_STAGED_BOTH(s2, 2, false)
EW_STAGED_BOTH(s3, 3, false)
EW_STAGED_BOTH(s2cs, 2, true)

/// What torch_fused_cells.py asks every variants library for after a failed call (the kernels' errors are
/// their CUDA codes alone).
extern "C" __attribute__((visibility("default"))) const char* ew_cells_last_error() {
  return "a probe 27 kernel (no message)";
}
