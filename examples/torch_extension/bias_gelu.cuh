// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// The CUDA side of the example extension, as plain C++ with no PyTorch type: extension.cpp (compiled by the
// host compiler against PyTorch's headers) calls it with the tensors' pointers, sizes, strides and current
// stream. Keeping PyTorch out of the .cu file keeps its compile fast and lets CI build it without PyTorch.

#include <cstdint>

#include <cuda_runtime_api.h>

namespace ew_torch_example {

/// y = gelu(x + b) over a [tokens, hidden] bf16 tensor, one kernel, on `stream`. `x` is read through its
/// strides (in elements, any layout PyTorch gives: transposed, sliced, expanded), `b` is a [hidden] vector
/// with stride `b_stride` that broadcasts over the tokens, and `y` is a contiguous [tokens, hidden] tensor.
/// The pointers are bf16 (`at::BFloat16` and `__nv_bfloat16` share the layout). Returns ew's error;
/// `message` then says why (ew::last_error_message()).
cudaError_t bias_gelu_bf16(const void* x, std::int64_t tokens, std::int64_t hidden, std::int64_t x_stride_t,
                           std::int64_t x_stride_h, const void* b, std::int64_t b_stride, void* y,
                           cudaStream_t stream, const char** message);

}  // namespace ew_torch_example
