// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Operands whose value is a function of the element's row-major flat index (the random operands of
/// random.cuh: `input_arg<A>::read_as_index`) in N-dimensional launches. Each is launched as `ew::index()`,
/// which every N-dimensional kernel reads, and the op is wrapped (`index_mapped_op`) to turn that index
/// into the operand's value with the map its `input_arg` gives (`index_map`). So every kernel (contiguous,
/// gather, rows, vector rows, tiles, the N-dimensional one) takes them with no code of its own, and element
/// `i` has the value it has in a 1-D launch over a contiguous array of the launch's shape. The 1-D launch
/// reads them natively, a vector at a time. Their pointer (a key in device memory) is checked here, as the
/// planner no longer sees it.

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include "../functor.cuh"
#include "../operands.cuh"
#include "config.cuh"
#include "last_error.cuh"
#include "op_traits.cuh"
#include "operand.cuh"
#include "side_split.cuh"
#include "validate.cuh"

namespace ew {

struct discard_t;

namespace detail {

/// Whether input argument `A` is read as the flat index in N-dimensional launches.
template <class A, class = void>
inline constexpr bool reads_as_index_v = false;
template <class A>
inline constexpr bool reads_as_index_v<A, cuda::std::void_t<decltype(input_arg<A>::read_as_index)>> =
    input_arg<A>::read_as_index;

/// The map of an argument that is not read as the index: its value as it comes.
struct pass_through_map {
  template <class X>
  EW_HD X operator()(X x) const {
    return x;
  }
};

/// Argument `a` as an N-dimensional launch takes it: the flat index for a mapped operand, else itself.
template <class A>
auto launched_as(const A& a) {
  if constexpr (reads_as_index_v<A>) {
    return index_operand{-1};
  } else {
    return a;
  }
}

/// The map of argument `a`: its `input_arg`'s `index_map(a)` for a mapped operand, else the pass-through.
template <class A>
auto index_map_of(const A& a) {
  if constexpr (reads_as_index_v<A>) {
    return input_arg<A>::index_map(a);
  } else {
    return pass_through_map{};
  }
}

/// `Op` with argument `k` passed through `Map_k` first (the flat index to a mapped operand's value). Each
/// GPU thread holds its own copy, so a map may keep what it computed last (`mutable`) for the next element.
template <class Op, class... Map>
struct index_mapped_op {
  Op op;
  cuda::std::tuple<Map...> maps;

/// Takes part in overload resolution only where `Op` takes the mapped arguments (so the launcher's
/// "Op cannot be called with the input element types" reports a wrong input).
#pragma nv_exec_check_disable
  template <class... X, class = cuda::std::enable_if_t<sizeof...(X) == sizeof...(Map)>,
            class R = decltype(cuda::std::declval<const Op&>()(
                cuda::std::declval<const Map&>()(cuda::std::declval<X>())...))>
  EW_HD auto operator()(X... x) const {
    return call(cuda::std::index_sequence_for<X...>{}, x...);
  }

 private:
#pragma nv_exec_check_disable
  template <std::size_t... I, class... X>
  EW_HD auto call(cuda::std::index_sequence<I...>, X... x) const {
    return op(cuda::std::get<I>(maps)(x)...);
  }
};

template <class Op, class... Map>
struct user_op<index_mapped_op<Op, Map...>> {
  using type = user_op_t<Op>;
};

/// The bytes output `o` of a launch of `count` elements may write, added to `spans` at `k` (moved past
/// them): a side reduction's location (and an overwrite target's workspace), an array's span; nothing for
/// `ew::discard`.
template <class O>
void add_written_spans(const O& o, std::uint64_t count, byte_span* spans, int& k) {
  if constexpr (cuda::std::is_same_v<O, discard_t>) {
    return;
  } else if constexpr (is_reduce_target_v<O>) {
    pointer_info info[2] = {};
    reduce_location kinds[2] = {};
    int n = 0;
    target_locations(o, info, kinds, n);
    for (int i = 0; i < n; ++i) spans[k++] = byte_span{info[i].address, info[i].element_size};
  } else {
    spans[k++] = operand_span(o, count);
  }
}

/// The checks the planner would make of a mapped operand's element in memory (a random key), which it
/// no longer sees: not null, aligned, not written by any output, reachable by the device.
template <class... Out, class... In>
cudaError_t check_index_mapped(const cuda::std::tuple<Out...>& outs, const cuda::std::tuple<In...>& ins,
                               std::uint64_t count) {
  byte_span written[2 * sizeof...(Out)] = {};
  int k = 0;
  cuda::std::apply([&](const auto&... o) { (add_written_spans(o, count, written, k), ...); }, outs);
  cudaError_t err = cudaSuccess;
  auto check = [&](const auto& a) {
    using A = cuda::std::remove_cv_t<cuda::std::remove_reference_t<decltype(a)>>;
    if constexpr (reads_as_index_v<A> && input_arg<A>::memory == memory_kind::single) {
      if (err != cudaSuccess) return;
      const pointer_info p = input_arg<A>::info(a);
      if (p.address == 0) {
        err = fail(cudaErrorInvalidValue, "ew::elementwise: null pointer for a random operand's key");
        return;
      }
      if (p.address % p.alignment != 0) {
        err =
            fail(cudaErrorInvalidValue, "ew::elementwise: a random operand's key is not aligned to 16 bytes");
        return;
      }
      for (const byte_span& s : written) {
        if (s.bytes != 0 && ranges_overlap(s.address, s.bytes, p.address, p.element_size)) {
          err = fail(cudaErrorInvalidValue, "ew::elementwise: an output overlaps a random operand's key");
          return;
        }
      }
      err = check_device_access(&p, 1);
    }
  };
  cuda::std::apply([&](const auto&... a) { (check(a), ...); }, ins);
  return err;
}

/// Runs `next(op, ins)` with the mapped operands of `ins` launched as the flat index and `op` wrapped to
/// map it, once their pointers are checked against `outs`; as they are where there are none.
template <class Op, class... Out, class... In, class Next>
cudaError_t with_index_mapped_inputs(const Op& op, const cuda::std::tuple<Out...>& outs,
                                     const cuda::std::tuple<In...>& ins, std::uint64_t count, Next&& next) {
  if constexpr (!(reads_as_index_v<In> || ...)) {
    return next(op, ins);
  } else {
    if (count > 0) {
      const cudaError_t err = check_index_mapped(outs, ins, count);
      if (err != cudaSuccess) return err;
    }
    return cuda::std::apply(
        [&](const auto&... a) {
          using mapped = index_mapped_op<Op, decltype(index_map_of(a))...>;
          return next(mapped{op, {index_map_of(a)...}},
                      cuda::std::tuple<decltype(launched_as(a))...>(launched_as(a)...));
        },
        ins);
  }
}

}  // namespace detail
}  // namespace ew
