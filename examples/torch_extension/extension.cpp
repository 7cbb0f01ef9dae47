// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// A PyTorch C++/CUDA extension that exposes one fused ew op: ew_example.bias_gelu(x, b) = gelu(x + b) for a
// bf16 CUDA tensor x of shape [tokens, hidden] (any strides) and a bf16 bias b of shape [hidden], on
// PyTorch's current stream, as one kernel. This file holds the PyTorch side (checks, the output, the
// stream); bias_gelu.cu holds the ew launch. Built by test_extension.py with torch.utils.cpp_extension.
#include <torch/extension.h>

#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

#include "bias_gelu.cuh"

namespace {

torch::Tensor bias_gelu(const torch::Tensor& x, const torch::Tensor& b) {
  TORCH_CHECK(x.is_cuda() && b.is_cuda(), "bias_gelu: x and b must be CUDA tensors");
  TORCH_CHECK(x.device() == b.device(), "bias_gelu: x and b must be on the same device");
  TORCH_CHECK(x.scalar_type() == torch::kBFloat16 && b.scalar_type() == torch::kBFloat16,
              "bias_gelu: x and b must be bfloat16");
  TORCH_CHECK(x.dim() == 2 && b.dim() == 1 && b.size(0) == x.size(1),
              "bias_gelu: x must be [tokens, hidden] and b [hidden]");
  const c10::cuda::CUDAGuard guard(x.device());
  torch::Tensor y = torch::empty(x.sizes(), x.options().memory_format(torch::MemoryFormat::Contiguous));
  if (y.numel() == 0) return y;
  const char* message = "";
  const cudaError_t err = ew_torch_example::bias_gelu_bf16(
      x.data_ptr(), x.size(0), x.size(1), x.stride(0), x.stride(1), b.data_ptr(), b.stride(0), y.data_ptr(),
      at::cuda::getCurrentCUDAStream().stream(), &message);
  TORCH_CHECK(err == cudaSuccess, "bias_gelu: ", cudaGetErrorName(err), ": ", message);
  return y;
}

}  // namespace

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("bias_gelu", &bias_gelu, "gelu(x + b) for bf16 x [tokens, hidden] and b [hidden], one ew kernel",
        pybind11::arg("x"), pybind11::arg("b"));
}
