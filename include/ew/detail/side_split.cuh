// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// A launch's outputs split into arrays and side-reduction targets (`side_split`, for overloads.cuh and
/// index_mapped.cuh): which positions are which, the op wrapped in `side_reducing_op` with an accumulator per
/// target (side_reduction.cuh), the arrays that stay; and what validate.cuh's checks of the targets read:
/// each target's memory locations (`target_locations`: the location, and an overwrite target's workspace)
/// and each operand's byte span (`operand_span`).

#include <cstddef>
#include <cstdint>

#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include "operand.cuh"
#include "partition.cuh"
#include "side_reduction.cuh"
#include "validate.cuh"

namespace ew {
namespace detail {

/// Positions `K` of the outputs `Out...` that are (`Side`) or are not reduce targets, as an index sequence.
template <bool Side, std::size_t K, class Seq, class... Out>
struct positions_of;
template <bool Side, std::size_t K, std::size_t... P>
struct positions_of<Side, K, cuda::std::index_sequence<P...>> {
  using type = cuda::std::index_sequence<P...>;
};
template <bool Side, std::size_t K, std::size_t... P, class First, class... Rest>
struct positions_of<Side, K, cuda::std::index_sequence<P...>, First, Rest...> {
  using type = typename positions_of<
      Side, K + 1,
      cuda::std::conditional_t<is_reduce_target_v<First> == Side, cuda::std::index_sequence<P..., K>,
                               cuda::std::index_sequence<P...>>,
      Rest...>::type;
};

/// The accumulator of a reduce target.
template <class A>
struct accumulator_of;
template <class R, class T>
struct accumulator_of<reduce_target<R, T>> {
  using type = side_accumulator<R, T>;
};
template <class R, class T>
struct accumulator_of<overwrite_target<R, T>> {
  using type = overwrite_accumulator<
      R, T, cuda::std::remove_pointer_t<decltype(cuda::std::declval<overwrite_target<R, T>>().workspace)>>;
};

/// A reduce target's memory locations into `info` and `kinds` from position `k` on (`k` moves past them):
/// the location (one element), and an overwrite target's workspace.
template <class R, class T>
void target_locations(const reduce_target<R, T>& t, pointer_info* info, reduce_location* kinds, int& k) {
  kinds[k] = reduce_location::combine;
  info[k++] = pointer_info{reinterpret_cast<std::uintptr_t>(t.ptr), sizeof(T), alignof(T), true};
}
template <class R, class T>
void target_locations(const overwrite_target<R, T>& t, pointer_info* info, reduce_location* kinds, int& k) {
  using W = cuda::std::remove_pointer_t<decltype(t.workspace)>;
  kinds[k] = reduce_location::overwrite;
  info[k++] = pointer_info{reinterpret_cast<std::uintptr_t>(t.ptr), sizeof(T), alignof(T), true};
  kinds[k] = reduce_location::workspace;
  info[k++] = pointer_info{reinterpret_cast<std::uintptr_t>(t.workspace), sizeof(W), alignof(W), true};
}

/// How many memory locations output argument `A` adds to the side reductions' check.
template <class A>
inline constexpr int num_locations_v = 0;
template <class R, class T>
inline constexpr int num_locations_v<reduce_target<R, T>> = 1;
template <class R, class T>
inline constexpr int num_locations_v<overwrite_target<R, T>> = 2;

/// A reduce target's accumulator, starting at the reduction's identity.
template <class R, class T>
side_accumulator<R, T> make_accumulator(const reduce_target<R, T>& t) {
  return side_accumulator<R, T>{t.ptr, R::template identity<T>(), R::template identity<T>()};
}
template <class R, class T>
typename accumulator_of<overwrite_target<R, T>>::type make_accumulator(const overwrite_target<R, T>& t) {
  return {t.ptr, t.workspace, R::template identity<T>()};
}

/// Outputs `Out...` split: the op wrapped for the arrays (`wrap`), and the arrays themselves (`arrays`).
template <class Op, class... Out>
struct side_split {
  using array_pos = typename positions_of<false, 0, cuda::std::index_sequence<>, Out...>::type;
  using side_pos = typename positions_of<true, 0, cuda::std::index_sequence<>, Out...>::type;
  static constexpr std::size_t num_side = side_pos::size();

  template <std::size_t... S>
  static auto wrap_impl(const Op& op, const cuda::std::tuple<Out...>& outs, cuda::std::index_sequence<S...>) {
    using wrapped = side_reducing_op<
        Op, array_pos, side_pos,
        typename accumulator_of<cuda::std::tuple_element_t<S, cuda::std::tuple<Out...>>>::type...>;
    return wrapped{op, {make_accumulator(cuda::std::get<S>(outs))...}};
  }
  static auto wrap(const Op& op, const cuda::std::tuple<Out...>& outs) {
    return wrap_impl(op, outs, side_pos{});
  }

  template <std::size_t... P>
  static auto arrays_impl(const cuda::std::tuple<Out...>& outs, cuda::std::index_sequence<P...>) {
    return cuda::std::tuple<cuda::std::tuple_element_t<P, cuda::std::tuple<Out...>>...>(
        cuda::std::get<P>(outs)...);
  }
  static auto arrays(const cuda::std::tuple<Out...>& outs) { return arrays_impl(outs, array_pos{}); }

  /// The memory locations of the reduce targets (`target_locations`), `num_locations` of them.
  static constexpr int num_locations = (num_locations_v<Out> + ... + 0);
  template <std::size_t... S>
  static void targets_impl(const cuda::std::tuple<Out...>& outs, pointer_info* info, reduce_location* kinds,
                           cuda::std::index_sequence<S...>) {
    int k = 0;
    (target_locations(cuda::std::get<S>(outs), info, kinds, k), ...);
  }
  static void targets(const cuda::std::tuple<Out...>& outs, pointer_info* info, reduce_location* kinds) {
    targets_impl(outs, info, kinds, side_pos{});
  }
};

/// The span of operand `a` (an output or an input argument) of a launch of `count` elements: a pointer is
/// `count` elements, a view its elements, an operand of one element (`ew::scalar`) that element, and an
/// operand that reads no memory nothing.
template <class A>
byte_span operand_span(const A& a, std::uint64_t count) {
  if constexpr (cuda::std::is_pointer_v<A>) {
    using T = cuda::std::remove_pointer_t<A>;
    const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(a);
    const std::uint64_t bytes = count > UINT64_MAX / sizeof(T) ? UINT64_MAX : count * sizeof(T);
    return byte_span{base, static_cast<std::size_t>(bytes > UINTPTR_MAX - base ? UINTPTR_MAX - base : bytes)};
  } else if constexpr (is_strided_view_v<A>) {
    return view_span(a);
  } else if constexpr (is_reduce_target_v<A>) {
    return byte_span{0, 0};  // checked against the others as a target
  } else if constexpr (input_arg<A>::memory == memory_kind::single) {
    const pointer_info i = input_arg<A>::info(a);
    return byte_span{i.address, i.element_size};
  } else {
    return byte_span{0, 0};
  }
}

}  // namespace detail
}  // namespace ew
