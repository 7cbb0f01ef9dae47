// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The checks of an N-dimensional launch: each operand described as the checks see it, its strides
/// broadcast to the launch's shape (`describe_output`, `describe_input`), the extents (`check_extents`),
/// and every operand against the others (`check_nd`). In the configuration's namespace: with
/// EW_CHECK_POINTERS the checks ask CUDA about every pointer.

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "config.cuh"
#include "last_error.cuh"
#include "operand.cuh"
#include "partition.cuh"
#include "validate.cuh"

namespace ew {
namespace detail {
inline namespace EW_DETAIL_CONFIG_NAMESPACE {

/// One strided operand of an N-dimensional launch (an output, an array input, or the index), as the
/// checks see it: its strides broadcast to the launch's rank.
template <int R>
struct nd_operand {
  std::uintptr_t address;  // 0 for the index
  std::size_t element_size;
  std::size_t alignment;
  bool output;
  bool affine;
  std::int64_t stride[R];
};

/// Row-major strides of shape `e`, 0 along dimensions of extent 1 (as a view's are: `same_view` in
/// `check_nd` compares them). The extents must be checked already (`check_extents`).
template <int R>
void row_major(const extents<R>& e, std::int64_t (&s)[R]) {
  std::int64_t step = 1;
  for (int d = R - 1; d >= 0; --d) {
    s[d] = e[d] > 1 ? step : 0;
    step *= e[d] > 0 ? e[d] : 1;
  }
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

/// Whether input argument `A` has strides in the launch (an array or the index).
template <class A>
inline constexpr bool has_strides =
    input_arg<A>::memory == memory_kind::array || cuda::std::is_same_v<A, index_operand>;

template <int R, class T>
cudaError_t describe_output(T* p, const extents<R>& e, nd_operand<R>& o) {
  o = nd_operand<R>{reinterpret_cast<std::uintptr_t>(p), sizeof(T), alignof(T), true, false, {}};
  row_major(e, o.stride);
  return cudaSuccess;
}
template <int R, class T, int VR>
cudaError_t describe_output(const strided_view<T, VR>& v, const extents<R>& e, nd_operand<R>& o) {
  o = nd_operand<R>{reinterpret_cast<std::uintptr_t>(v.ptr), sizeof(T), alignof(T), true, false, {}};
  if constexpr (VR != R) {
    return fail(cudaErrorInvalidValue, "ew::elementwise: an output view's rank differs from the launch's");
  } else {
    for (int d = 0; d < R; ++d) {
      if (v.shape[d] != e[d]) {
        return fail(cudaErrorInvalidValue,
                    "ew::elementwise: an output view's extents differ from the launch's");
      }
      if (v.step[d] < 0 && e[d] > 1) {
        return fail(cudaErrorInvalidValue, "ew::elementwise: negative strides are not supported");
      }
      o.stride[d] = e[d] > 1 ? v.step[d] : 0;
    }
    return cudaSuccess;
  }
}

template <int R, class T>
cudaError_t describe_input(const T* p, const extents<R>& e, nd_operand<R>& o) {
  o = nd_operand<R>{reinterpret_cast<std::uintptr_t>(p), sizeof(T), alignof(T), false, false, {}};
  row_major(e, o.stride);
  return cudaSuccess;
}
template <int R, class T, int VR>
cudaError_t describe_input(const strided_view<const T, VR>& v, const extents<R>& e, nd_operand<R>& o) {
  o = nd_operand<R>{reinterpret_cast<std::uintptr_t>(v.ptr), sizeof(T), alignof(T), false, false, {}};
  if constexpr (VR > R) {
    return fail(cudaErrorInvalidValue, "ew::elementwise: an input view has more dimensions than the launch");
  } else {
    for (int d = 0; d < R; ++d) {
      const int vd = d - (R - VR);  // right-aligned, as NumPy broadcasts
      if (vd < 0) {
        o.stride[d] = 0;
        continue;
      }
      const std::int64_t ve = v.shape[vd];
      if (ve < 0) return fail(cudaErrorInvalidValue, "ew::elementwise: negative extent in an input view");
      if (ve != e[d] && ve != 1) {
        return fail(
            cudaErrorInvalidValue,
            "ew::elementwise: an input view is not broadcastable to the launch's extents (each extent "
            "must equal the launch's or be 1)");
      }
      if (ve > 1 && v.step[vd] < 0) {
        return fail(cudaErrorInvalidValue, "ew::elementwise: negative strides are not supported");
      }
      o.stride[d] = ve > 1 ? v.step[vd] : 0;
    }
    return cudaSuccess;
  }
}
template <int R>
cudaError_t describe_input(const index_operand& x, const extents<R>& e, nd_operand<R>& o) {
  o = nd_operand<R>{0, sizeof(std::int64_t), alignof(std::int64_t), false, true, {}};
  if (x.dim >= R)
    return fail(cudaErrorInvalidValue, "ew::elementwise: ew::index(dim) with dim >= the launch's rank");
  if (x.dim < 0) {
    row_major(e, o.stride);
  } else {
    for (int d = 0; d < R; ++d) o.stride[d] = d == x.dim && e[d] > 1 ? 1 : 0;
  }
  return cudaSuccess;
}

/// The checks of a non-empty N-dimensional launch of shape `e` (checked by `check_extents`) over strided
/// operands `ops` (outputs first) and the scalar operands' elements `singles`: cudaSuccess, or
/// cudaErrorInvalidValue with the reason. With EW_CHECK_POINTERS, CUDA's view of every pointer last.
template <int R>
cudaError_t check_nd(const extents<R>& e, const nd_operand<R>* ops, int num_ops, int num_out,
                     const pointer_info* singles, int num_singles) {
  // Byte span of each array: [address, address + offset of the last element + element_size).
  auto span_bytes = [&](const nd_operand<R>& o, std::uint64_t& bytes) {
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
    const nd_operand<R>& o = ops[k];
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
                        : "ew::elementwise: an output overlaps an input (only exactly the same view, "
                          "in place, is allowed)");
      }
    }
    for (int k = 0; k < num_singles; ++k) {
      if (singles[k].address == 0)
        return fail(cudaErrorInvalidValue, "ew::elementwise: null ew::scalar pointer");
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

}  // namespace EW_DETAIL_CONFIG_NAMESPACE
}  // namespace detail
}  // namespace ew
