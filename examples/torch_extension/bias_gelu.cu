// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// The ew launch behind the example extension: bias + GELU over [tokens, hidden] bf16, one kernel. Compiled
// by nvcc with PyTorch's flags (-D__CUDA_NO_HALF_OPERATORS__, -D__CUDA_NO_HALF_CONVERSIONS__,
// -D__CUDA_NO_BFLOAT16_CONVERSIONS__, -D__CUDA_NO_HALF2_OPERATORS__, --expt-relaxed-constexpr): ew's
// functors convert through cuda_bf16.h's functions, not the operators those flags remove. CI compiles this
// file with them (examples/CMakeLists.txt); test_extension.py builds it with torch.utils.cpp_extension.
#include "bias_gelu.cuh"

#include <cuda_bf16.h>

#include <ew/elementwise.cuh>

namespace ew_torch_example {

cudaError_t bias_gelu_bf16(const void* x, std::int64_t tokens, std::int64_t hidden, std::int64_t x_stride_t,
                           std::int64_t x_stride_h, const void* b, std::int64_t b_stride, void* y,
                           cudaStream_t stream, const char** message) {
  using bf16 = __nv_bfloat16;
  // [snippet]
  // x through PyTorch's strides, b broadcast over the tokens, y contiguous; ew coalesces what it can (a
  // contiguous x and y make a row broadcast) and checks every argument before it launches.
  const ew::extents shape{tokens, hidden};
  const auto xv = ew::strided(static_cast<const bf16*>(x), shape, ew::strides{x_stride_t, x_stride_h});
  const auto bv = ew::strided(static_cast<const bf16*>(b), ew::extents{hidden}, ew::strides{b_stride});
  const auto bias_gelu = ew::compose(ew::add<bf16>{}, ew::gelu<bf16>{});
  const cudaError_t err = ew::elementwise(bias_gelu, shape, static_cast<bf16*>(y), ew::in(xv, bv), stream);
  // [snippet]
  *message = ew::last_error_message();
  return err;
}

}  // namespace ew_torch_example
