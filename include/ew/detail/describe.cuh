// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Each argument of a launch described as the checker (validate.cuh) and the planner (plan.cuh) see it:
/// an `operand_desc`, its strides broadcast to the launch's shape (`describe_output`, `describe_input`),
/// with the checks only the argument itself can answer (a view's rank and extents, negative strides,
/// `ew::index(dim)` past the rank). In the configuration's namespace, as the checker.

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "config.cuh"
#include "last_error.cuh"
#include "operand.cuh"
#include "validate.cuh"

namespace ew {
namespace detail {
inline namespace EW_DETAIL_CONFIG_NAMESPACE {

/// Row-major strides of shape `e`, 0 along dimensions of extent 1 (as a view's are: `same_view` in
/// `check_operands` compares them). The extents must be checked already (`check_extents`).
template <int R>
void row_major(const extents<R>& e, std::int64_t (&s)[R]) {
  std::int64_t step = 1;
  for (int d = R - 1; d >= 0; --d) {
    s[d] = e[d] > 1 ? step : 0;
    step *= e[d] > 0 ? e[d] : 1;
  }
}

/// Whether input argument `A` has strides in the launch (an array or the index).
template <class A>
inline constexpr bool has_strides =
    input_arg<A>::memory == memory_kind::array || cuda::std::is_same_v<A, index_operand>;

template <int R, class T>
cudaError_t describe_output(T* p, const extents<R>& e, operand_desc<R>& o) {
  o = operand_desc<R>{reinterpret_cast<std::uintptr_t>(p), sizeof(T), alignof(T), true, false, {}};
  row_major(e, o.stride);
  return cudaSuccess;
}
template <int R, class T, int VR>
cudaError_t describe_output(const strided_view<T, VR>& v, const extents<R>& e, operand_desc<R>& o) {
  o = operand_desc<R>{reinterpret_cast<std::uintptr_t>(v.ptr), sizeof(T), alignof(T), true, false, {}};
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
cudaError_t describe_input(const T* p, const extents<R>& e, operand_desc<R>& o) {
  o = operand_desc<R>{reinterpret_cast<std::uintptr_t>(p), sizeof(T), alignof(T), false, false, {}};
  row_major(e, o.stride);
  return cudaSuccess;
}
template <int R, class T, int VR>
cudaError_t describe_input(const strided_view<const T, VR>& v, const extents<R>& e, operand_desc<R>& o) {
  o = operand_desc<R>{reinterpret_cast<std::uintptr_t>(v.ptr), sizeof(T), alignof(T), false, false, {}};
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
cudaError_t describe_input(const index_operand& x, const extents<R>& e, operand_desc<R>& o) {
  o = operand_desc<R>{0, sizeof(std::int64_t), alignof(std::int64_t), false, true, {}};
  if (x.dim >= R)
    return fail(cudaErrorInvalidValue, "ew::elementwise: ew::index(dim) with dim >= the launch's rank");
  if (x.dim < 0) {
    row_major(e, o.stride);
  } else {
    for (int d = 0; d < R; ++d) o.stride[d] = d == x.dim && e[d] > 1 ? 1 : 0;
  }
  return cudaSuccess;
}

}  // namespace EW_DETAIL_CONFIG_NAMESPACE
}  // namespace detail
}  // namespace ew
