// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The operand each kernel reads for each kind of argument, from the launch's coalesced shape (`nd_shape`,
/// row `k` of its strides for an argument with strides): `to_contiguous` (the 1-D kernel over one
/// contiguous dimension), `to_gather` (the 1-D kernel with gather operands, and the row kernel, which
/// takes the same), `to_tile` (the tile kernel) and `to_nd_input` / `to_nd_output` (the N-dimensional
/// kernel). An argument that reads no array (a constant, a scalar, any operand whose value is the same for
/// every element) is its 1-D operand (`input_arg<A>::to_1d`, operand.cuh) in every kernel: a new kind of it
/// needs only its `input_arg`. Arrays and the index, whose values follow the element's coordinates, have an
/// overload here for each kernel.

#include <cstdint>

#include <cuda/std/array>
#include <cuda/std/type_traits>

#include "describe.cuh"
#include "gather.cuh"
#include "nd_kernel.cuh"
#include "nd_layout.cuh"
#include "nd_paths.cuh"
#include "operand.cuh"
#include "tile_kernel.cuh"

namespace ew {
namespace detail {

/// The 1-D kernel's argument for an output or input that coalesced to one contiguous dimension: a view as
/// its pointer, the index as the 1-D index, anything else as it is.
template <class A>
A to_contiguous(const A& a) {
  return a;
}
template <class T, int VR>
T* to_contiguous(const strided_view<T, VR>& v) {
  return v.ptr;
}
inline index_operand to_contiguous(const index_operand&) { return index_operand{-1}; }

/// Row `k` of coalesced shape `c`'s strides as the N-dimensional kernel takes them: the outer dimensions'
/// (`outer`), the innermost (`inner`), and whether the outer ones are all 0 (`invariant`).
template <int R, int K>
void outer_and_inner(const nd_shape<R, K>& c, int k, std::int64_t (&outer)[R], std::int64_t& inner,
                     bool& invariant) {
  invariant = true;
  for (int d = 0; d < R; ++d) {
    outer[d] = d + 1 < c.rank ? c.stride[k][d] : 0;
    invariant = invariant && outer[d] == 0;
  }
  inner = c.stride[k][last_dimension(c)];
}

/// The N-dimensional kernel's operand for output `k` of coalesced shape `c`.
template <int R, int K, class T>
nd_output<T, R> to_nd_output(T* p, const nd_shape<R, K>& c, int k) {
  nd_output<T, R> o{p, {}, 0};
  bool invariant;
  outer_and_inner(c, k, o.stride, o.inner, invariant);
  return o;
}
template <int R, int K, class T, int VR>
nd_output<T, R> to_nd_output(const strided_view<T, VR>& v, const nd_shape<R, K>& c, int k) {
  return to_nd_output(v.ptr, c, k);
}

/// The N-dimensional kernel's operand for an input (with strides: row `k` of `c`).
template <int R, int K, class T>
nd_array_input<T, R> to_nd_input(const T* p, const nd_shape<R, K>& c, int k) {
  nd_array_input<T, R> o{p, {}, 0, false};
  outer_and_inner(c, k, o.stride, o.inner, o.invariant);
  return o;
}
template <int R, int K, class T, int VR>
nd_array_input<T, R> to_nd_input(const strided_view<const T, VR>& v, const nd_shape<R, K>& c, int k) {
  return to_nd_input(v.ptr, c, k);
}
template <int R, int K>
nd_affine_input<R> to_nd_input(const index_operand&, const nd_shape<R, K>& c, int k) {
  nd_affine_input<R> o{{}, 0, false};
  outer_and_inner(c, k, o.stride, o.inner, o.invariant);
  return o;
}
template <int R, int K, class A, cuda::std::enable_if_t<!has_strides<A>, int> = 0>
nd_uniform_input<decltype(input_arg<A>::to_1d(cuda::std::declval<A>()))> to_nd_input(const A& a,
                                                                                     const nd_shape<R, K>&,
                                                                                     int) {
  return {input_arg<A>::to_1d(a)};
}

/// The gather operand (gather.cuh) for an input: an array or the index found from the outputs' flat
/// index through row `k` of `c`, anything else its 1-D operand.
template <int R, int K, class T>
gather_input<T, R> to_gather(const T* p, const nd_shape<R, K>& c, int k) {
  return {p, make_gather_map(c, k), same_strides_as_output(c, k)};
}
template <int R, int K, class T, int VR>
gather_input<T, R> to_gather(const strided_view<const T, VR>& v, const nd_shape<R, K>& c, int k) {
  return to_gather(v.ptr, c, k);
}
template <int R, int K>
gather_affine<R> to_gather(const index_operand&, const nd_shape<R, K>& c, int k) {
  return {make_gather_map(c, k), same_strides_as_output(c, k)};
}
template <int R, int K, class A, cuda::std::enable_if_t<!has_strides<A>, int> = 0>
auto to_gather(const A& a, const nd_shape<R, K>&, int) {
  return input_arg<A>::to_1d(a);
}

/// The tile kernel's operand for an input of a launch tiled over dimensions `a` (the outputs' innermost)
/// and `b` of `c`: an array (staged in shared memory at byte `smem`, or read directly where `smem < 0`),
/// the index, or anything else as a `tile_uniform`.
template <int R, int K, class T>
tile_array<const T, R> to_tile(const T* p, const nd_shape<R, K>& c, int k, int b, int smem) {
  return make_tile_array(p, c, k, b, smem);
}
template <int R, int K, class T, int VR>
tile_array<const T, R> to_tile(const strided_view<const T, VR>& v, const nd_shape<R, K>& c, int k, int b,
                               int smem) {
  return to_tile(v.ptr, c, k, b, smem);
}
template <int R, int K>
tile_affine<R> to_tile(const index_operand&, const nd_shape<R, K>& c, int k, int b, int) {
  const tile_array<const char, R> t = make_tile_array(static_cast<const char*>(nullptr), c, k, b, -1);
  tile_affine<R> a{{}, t.a, t.b};
  for (int d = 0; d < R; ++d) a.stride[d] = t.stride[d];
  return a;
}
template <int R, int K, class A, cuda::std::enable_if_t<!has_strides<A>, int> = 0>
tile_uniform<decltype(input_arg<A>::to_1d(cuda::std::declval<A>()))> to_tile(const A& a,
                                                                             const nd_shape<R, K>&, int, int,
                                                                             int) {
  return {input_arg<A>::to_1d(a)};
}
/// The tile kernel's operand for output `k`: staged (`smem >= 0`, a transposed output, contiguous along
/// `b`) or written along `a`.
template <int R, int K, class A>
auto to_tile_output(const A& o, const nd_shape<R, K>& c, int k, int b, int smem) {
  return make_tile_array(to_contiguous(o), c, k, b, smem);
}

/// Row of the strided-operand table for each input (-1 for an operand without strides): after the
/// `NumOut` outputs, in order.
template <int NumOut, class... In>
constexpr cuda::std::array<int, sizeof...(In) + 1> strided_rows() {
  cuda::std::array<int, sizeof...(In) + 1> rows{};
  int next = NumOut;
  int i = 0;
  ((rows[i++] = has_strides<In> ? next++ : -1), ...);
  return rows;
}

}  // namespace detail
}  // namespace ew
