// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The one checker of a launch, run before anything is launched. Every launch, 1-D (rank 1) or
/// N-dimensional, is described as strided operands over its extents (`operand_desc`, describe.cuh) and
/// the scalar operands' elements, and checked here: the extents, null and alignment, the address space,
/// outputs that overlap themselves or each other, outputs over inputs (only exactly the same view, in
/// place), the scalar operands' elements, the reduction targets against every operand's bytes; with
/// EW_CHECK_POINTERS, CUDA's view of each pointer too.

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "config.cuh"
#include "last_error.cuh"
#include "operand.cuh"
#include "partition.cuh"

namespace ew {
namespace detail {

/// Address, size and alignment of a typed pointer.
template <class T>
pointer_info info_of(const T* p) {
  return pointer_info{reinterpret_cast<std::uintptr_t>(p), sizeof(T), alignof(T)};
}

/// One strided operand of a launch of rank `R` (an output, an array input, or the index), as the checks
/// and the planner see it: its strides broadcast to the launch's rank.
template <int R>
struct operand_desc {
  std::uintptr_t address;  // 0 for the index
  std::size_t element_size;
  std::size_t alignment;
  bool output;
  bool affine;
  std::int64_t stride[R];
};

/// The bytes an operand of a launch may touch: `[address, address + bytes)`; `bytes == 0` for none.
struct byte_span {
  std::uintptr_t address;
  std::size_t bytes;
};

/// The span of a strided view: from its lowest to its highest element (saturating at the address space's
/// end, so that an overflowing view, which the launch rejects anyway, overlaps everything after it).
template <class T, int Rank>
byte_span view_span(const strided_view<T, Rank>& v) {
  std::uint64_t lo = 0, hi = 0;  // element offsets below and above ptr
  for (int d = 0; d < Rank; ++d) {
    if (v.shape.v[d] <= 0) return byte_span{0, 0};
    const std::uint64_t e = static_cast<std::uint64_t>(v.shape.v[d] - 1);
    const std::int64_t st = v.step.v[d];
    const std::uint64_t mag = st < 0 ? 0 - static_cast<std::uint64_t>(st) : static_cast<std::uint64_t>(st);
    const std::uint64_t reach = mag != 0 && e > UINT64_MAX / mag ? UINT64_MAX : e * mag;
    std::uint64_t& side = st < 0 ? lo : hi;
    side = side > UINT64_MAX - reach ? UINT64_MAX : side + reach;
  }
  const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(v.ptr);
  const std::uint64_t lo_bytes = lo > UINT64_MAX / sizeof(T) ? UINT64_MAX : lo * sizeof(T);
  const std::uint64_t hi_bytes = hi >= UINT64_MAX / sizeof(T) ? UINT64_MAX : (hi + 1) * sizeof(T);
  const std::uintptr_t first = lo_bytes > base ? 0 : base - lo_bytes;
  const std::uint64_t total = lo_bytes > UINT64_MAX - hi_bytes ? UINT64_MAX : lo_bytes + hi_bytes;
  return byte_span{first,
                   static_cast<std::size_t>(total > UINTPTR_MAX - first ? UINTPTR_MAX - first : total)};
}

// The checks depend on EW_CHECK_POINTERS: in the configuration's namespace (config.cuh).
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

/// The extents of a launch: none negative, and their product in 64 bits (`elements`, 0 for an empty
/// launch). Checked before anything else, so that nothing computes with extents that overflow.
template <int R>
cudaError_t check_extents(const extents<R>& e, std::uint64_t& elements) {
  elements = 1;
  bool empty = false;
  for (int d = 0; d < R; ++d) {
    if (e[d] < 0) return fail(cudaErrorInvalidValue, "ew::elementwise: negative extent");
    if (e[d] == 0) empty = true;
  }
  if (empty) {
    elements = 0;
    return cudaSuccess;
  }
  for (int d = 0; d < R; ++d) {
    if (elements > static_cast<std::uint64_t>(INT64_MAX) / static_cast<std::uint64_t>(e[d])) {
      return fail(cudaErrorInvalidValue, "ew::elementwise: the product of the extents overflows");
    }
    elements *= static_cast<std::uint64_t>(e[d]);
  }
  return cudaSuccess;
}

/// The checks of a non-empty launch of shape `e` (checked by `check_extents`) over strided operands `ops`
/// (outputs first) and the scalar operands' elements `singles`: cudaSuccess, or cudaErrorInvalidValue
/// with the reason. With EW_CHECK_POINTERS, CUDA's view of every pointer last.
template <int R>
cudaError_t check_operands(const extents<R>& e, const operand_desc<R>* ops, int num_ops, int num_out,
                           const pointer_info* singles, int num_singles) {
  // Byte span of each array: [address, address + offset of the last element + element_size).
  auto span_bytes = [&](const operand_desc<R>& o, std::uint64_t& bytes) {
    std::uint64_t span = 0;  // offset of the last element, in elements
    for (int d = 0; d < R; ++d) {
      const std::uint64_t s = static_cast<std::uint64_t>(o.stride[d]);
      const std::uint64_t n = static_cast<std::uint64_t>(e[d] - 1);
      if (s != 0 && n > (static_cast<std::uint64_t>(INT64_MAX) - span) / s) return false;
      span += n * s;
    }
    if (span + 1 > SIZE_MAX / o.element_size) return false;
    bytes = (span + 1) * o.element_size;
    return bytes <= UINTPTR_MAX - o.address;
  };
  for (int k = 0; k < num_ops; ++k) {
    const operand_desc<R>& o = ops[k];
    if (o.affine) continue;
    if (o.address == 0)
      return fail(cudaErrorInvalidValue, "ew::elementwise: null pointer with a non-empty launch");
    if (o.address % o.alignment != 0) {
      return fail(cudaErrorInvalidValue,
                  "ew::elementwise: pointer not aligned to its element type (alignof)");
    }
    std::uint64_t bytes = 0;
    if (!span_bytes(o, bytes)) {
      return fail(cudaErrorInvalidValue,
                  "ew::elementwise: a view's elements do not fit in the address space");
    }
  }
  for (int o = 0; o < num_out; ++o) {
    // No two elements of an output in one place: its strides, sorted, each step past the span of the
    // dimensions inside it (this also rejects stride 0).
    int dims[R];
    int kept = 0;
    for (int d = 0; d < R; ++d) {
      if (e[d] > 1) dims[kept++] = d;
    }
    for (int i = 1; i < kept; ++i) {
      const int d = dims[i];
      int j = i;
      while (j > 0 && ops[o].stride[dims[j - 1]] > ops[o].stride[d]) {
        dims[j] = dims[j - 1];
        --j;
      }
      dims[j] = d;
    }
    std::uint64_t inside = 1;  // elements' span of the dimensions so far, in elements
    for (int i = 0; i < kept; ++i) {
      const std::uint64_t s = static_cast<std::uint64_t>(ops[o].stride[dims[i]]);
      if (s == 0) {
        return fail(cudaErrorInvalidValue,
                    "ew::elementwise: an output has a stride-0 dimension (several elements would be written "
                    "to one place)");
      }
      if (s < inside) {
        return fail(cudaErrorInvalidValue, "ew::elementwise: an output view overlaps itself");
      }
      inside = s * static_cast<std::uint64_t>(e[dims[i]] - 1) + inside;
    }
  }
  for (int o = 0; o < num_out; ++o) {
    std::uint64_t o_bytes = 0;
    span_bytes(ops[o], o_bytes);
    for (int k = 0; k < num_ops; ++k) {
      if (k == o || ops[k].affine) continue;
      std::uint64_t k_bytes = 0;
      span_bytes(ops[k], k_bytes);
      bool same_view =
          !ops[k].output && ops[k].address == ops[o].address && ops[k].element_size == ops[o].element_size;
      for (int d = 0; same_view && d < R; ++d) same_view = ops[k].stride[d] == ops[o].stride[d];
      if (!same_view && ranges_overlap(ops[o].address, o_bytes, ops[k].address, k_bytes)) {
        return fail(cudaErrorInvalidValue,
                    ops[k].output
                        ? "ew::elementwise: two outputs overlap"
                        : "ew::elementwise: an output overlaps an input (only exact in-place aliasing is "
                          "allowed: the same address, element size and strides)");
      }
    }
    for (int k = 0; k < num_singles; ++k) {
      if (singles[k].address == 0)
        return fail(cudaErrorInvalidValue, "ew::elementwise: null pointer in an ew::scalar operand");
      if (singles[k].address % singles[k].alignment != 0) {
        return fail(cudaErrorInvalidValue,
                    "ew::elementwise: ew::scalar pointer not aligned to its element type");
      }
      if (ranges_overlap(ops[o].address, o_bytes, singles[k].address, singles[k].element_size)) {
        return fail(cudaErrorInvalidValue,
                    "ew::elementwise: an output overlaps the element of an ew::scalar operand");
      }
    }
  }
  for (int k = 0; k < num_ops; ++k) {
    if (ops[k].affine) continue;
    const pointer_info p{ops[k].address, ops[k].element_size, ops[k].alignment};
    const cudaError_t err = check_device_access(&p, 1);
    if (err != cudaSuccess) return err;
  }
  return check_device_access(singles, num_singles);
}

/// The checks of a 1-D launch of `n` elements over `ptrs` (outputs first; a `single` pointer, a scalar
/// operand's element, counts as one element), as the rank-1 launch it is: cudaSuccess, or
/// cudaErrorInvalidValue with the reason recorded for `ew::last_error_message()`. `Capacity`: how many
/// pointers the checker's arrays hold, the caller's compile-time count (`dispatch` passes its own), so that
/// no launch is refused for its number of operands.
template <int Capacity>
cudaError_t check_pointers(const pointer_info* ptrs, int num_out, int num_ptrs, std::size_t n) {
  static_assert(Capacity >= 1, "check_pointers: Capacity must be at least 1");
  if (n > static_cast<std::size_t>(INT64_MAX)) {
    return fail(cudaErrorInvalidValue, "ew::elementwise: n elements do not fit in the address space");
  }
  if (num_ptrs < 0 || num_ptrs > Capacity || num_out < 0 || num_out > num_ptrs) {
    return fail(cudaErrorInvalidValue,
                "ew::elementwise: internal error: more operands than the checker holds");
  }
  operand_desc<1> ops[Capacity] = {};
  pointer_info singles[Capacity] = {};
  int num_ops = 0, num_singles = 0;
  for (int k = 0; k < num_ptrs; ++k) {
    if (ptrs[k].single) {
      singles[num_singles++] = ptrs[k];
    } else {
      ops[num_ops++] = operand_desc<1>{ptrs[k].address, ptrs[k].element_size, ptrs[k].alignment, k < num_out,
                                       false,           {n > 1 ? 1 : 0}};
    }
  }
  return check_operands(extents<1>{static_cast<std::int64_t>(n)}, ops, num_ops, num_out, singles,
                        num_singles);
}

/// What a memory location of a side reduction is: an `ew::reduce_into` target, an `ew::reduce_overwrite`
/// target, or an `ew::reduce_overwrite` target's workspace. Names the check's messages.
enum class reduce_location : unsigned char { combine, overwrite, workspace };

/// Checks the memory locations `targets` of a launch's side reductions (`kinds[t]` says what each is)
/// against each other and against the spans of its other operands: each must be non-null, aligned, and
/// touch no byte any operand reads or writes (a target inside an input would change under the loads;
/// inside an output, be overwritten), nor another location. cudaSuccess or cudaErrorInvalidValue with the
/// reason.
inline cudaError_t check_reduce_targets(const pointer_info* targets, const reduce_location* kinds,
                                        int num_targets, const byte_span* spans, int num_spans) {
  for (int t = 0; t < num_targets; ++t) {
    const reduce_location k = kinds[t];
    if (targets[t].address == 0) {
      return fail(cudaErrorInvalidValue, k == reduce_location::combine ? "ew::reduce_into: null pointer"
                                         : k == reduce_location::overwrite
                                             ? "ew::reduce_overwrite: null pointer"
                                             : "ew::reduce_overwrite: null workspace");
    }
    if (targets[t].address % targets[t].alignment != 0) {
      return fail(cudaErrorInvalidValue, k == reduce_location::combine
                                             ? "ew::reduce_into: pointer not aligned to its type"
                                         : k == reduce_location::overwrite
                                             ? "ew::reduce_overwrite: pointer not aligned to its type"
                                             : "ew::reduce_overwrite: workspace not aligned to 8 bytes");
    }
    for (int s = 0; s < num_spans; ++s) {
      const byte_span& o = spans[s];
      if (o.bytes != 0 && targets[t].address < o.address + o.bytes &&
          o.address < targets[t].address + targets[t].element_size) {
        return fail(cudaErrorInvalidValue,
                    k == reduce_location::combine
                        ? "ew::reduce_into: the location overlaps an input or output of the launch"
                    : k == reduce_location::overwrite
                        ? "ew::reduce_overwrite: the location overlaps an input or output of the launch"
                        : "ew::reduce_overwrite: the workspace overlaps an input or output of the launch");
      }
    }
    for (int u = 0; u < t; ++u) {
      if (targets[t].address < targets[u].address + targets[u].element_size &&
          targets[u].address < targets[t].address + targets[t].element_size) {
        return fail(
            cudaErrorInvalidValue,
            k == reduce_location::combine && kinds[u] == reduce_location::combine
                ? "ew::reduce_into: two reduction locations overlap"
                : "ew::reduce_overwrite: a reduction location or workspace overlaps another one (its own "
                  "target's included: each target needs a workspace of its own, apart from every location)");
      }
    }
  }
  return cudaSuccess;
}

}  // namespace EW_DETAIL_CONFIG_NAMESPACE
}  // namespace detail
}  // namespace ew
