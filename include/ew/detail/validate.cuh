// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Checks of a launch's pointers before anything is launched: null, alignment to the element type, the
/// address space, and overlaps between outputs and inputs (only exact in-place aliasing is allowed); with
/// EW_CHECK_POINTERS, CUDA's view of each pointer too.

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "config.cuh"
#include "last_error.cuh"
#include "partition.cuh"

namespace ew {
namespace detail {

/// Address, size and alignment of a typed pointer.
template <class T>
pointer_info info_of(const T* p) {
  return pointer_info{reinterpret_cast<std::uintptr_t>(p), sizeof(T), alignof(T)};
}

// check_pointers depends on EW_CHECK_POINTERS: in the configuration's namespace (config.cuh).
inline namespace EW_DETAIL_CONFIG_NAMESPACE {

/// True when byte ranges `[a, a + a_bytes)` and `[b, b + b_bytes)` share a byte.
inline bool ranges_overlap(std::uintptr_t a, std::size_t a_bytes, std::uintptr_t b, std::size_t b_bytes) {
  return a < b + b_bytes && b < a + a_bytes;
}

/// With EW_CHECK_POINTERS (or EW_DEBUG_SYNC), CUDA's view of each of `ptrs`: memory a kernel cannot reach
/// is rejected. Without them, nothing (and cudaSuccess).
inline cudaError_t check_device_access(const pointer_info* ptrs, int num_ptrs) {
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
      if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&pageable_access, cudaDevAttrPageableMemoryAccess, device);
      if (err != cudaSuccess) return fail(err, cudaGetErrorString(err));
    }
    if (pageable_access == 0) {
      return fail(
          cudaErrorInvalidValue,
          "ew::elementwise: pointer is not device-accessible memory (EW_CHECK_POINTERS: not allocated "
          "or registered with CUDA, and this device cannot access pageable host memory)");
    }
  }
#endif
  (void)ptrs;
  (void)num_ptrs;
  return cudaSuccess;
}

/// Checks every pointer of a launch of `n` elements; returns cudaSuccess or cudaErrorInvalidValue with
/// the reason recorded for `ew::last_error_message()`. Outputs come first in `ptrs`; a `single` pointer
/// (a scalar operand) counts as one element.
inline cudaError_t check_pointers(const pointer_info* ptrs, int num_out, int num_ptrs, std::size_t n) {
  for (int k = 0; k < num_ptrs; ++k) {
    const std::size_t count = ptrs[k].single ? 1 : n;
    if (ptrs[k].address == 0) return fail(cudaErrorInvalidValue, "ew::elementwise: null pointer with n > 0");
    if (ptrs[k].address % ptrs[k].alignment != 0) {
      return fail(cudaErrorInvalidValue,
                  "ew::elementwise: pointer not aligned to its element type (alignof)");
    }
    if (count > SIZE_MAX / ptrs[k].element_size ||
        count * ptrs[k].element_size > UINTPTR_MAX - ptrs[k].address) {
      return fail(cudaErrorInvalidValue, "ew::elementwise: n elements do not fit in the address space");
    }
  }
  for (int o = 0; o < num_out; ++o) {
    const std::size_t o_bytes = n * ptrs[o].element_size;
    for (int k = 0; k < num_ptrs; ++k) {
      if (k == o) continue;
      const bool in_place = k >= num_out && !ptrs[k].single && ptrs[k].address == ptrs[o].address &&
                            ptrs[k].element_size == ptrs[o].element_size;
      const std::size_t k_bytes = (ptrs[k].single ? 1 : n) * ptrs[k].element_size;
      if (!in_place && ranges_overlap(ptrs[o].address, o_bytes, ptrs[k].address, k_bytes)) {
        return fail(cudaErrorInvalidValue,
                    k < num_out ? "ew::elementwise: two outputs overlap"
                    : ptrs[k].single
                        ? "ew::elementwise: an output overlaps the element of an ew::scalar operand"
                        : "ew::elementwise: an output partially overlaps an input (only exact in-place "
                          "aliasing, same address and element size, is allowed)");
      }
    }
  }
  return check_device_access(ptrs, num_ptrs);
}

}  // namespace EW_DETAIL_CONFIG_NAMESPACE
}  // namespace detail
}  // namespace ew
