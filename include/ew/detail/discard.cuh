// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// How `ew::discard` outputs (arguments.cuh) are taken out of a launch: the op is wrapped to return only
/// the parts of its result that go to written outputs (`part_selecting_op`), and the outputs keep only
/// those. The dispatchers never see a discarded output; the compiler drops what only the discarded parts
/// needed.

#include <cstddef>

#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include "../functor.cuh"
#include "op_traits.cuh"

namespace ew {

struct discard_t;

namespace detail {

/// Whether output argument `A` is `ew::discard`.
template <class A>
inline constexpr bool is_discard_v = cuda::std::is_same_v<A, discard_t>;

/// The positions of the outputs `Out...` that are not `ew::discard`, from `K` on, appended to `Seq`.
template <std::size_t K, class Seq, class... Out>
struct kept_positions {
  using type = Seq;
};
template <std::size_t K, std::size_t... P, class First, class... Rest>
struct kept_positions<K, cuda::std::index_sequence<P...>, First, Rest...> {
  using type =
      typename kept_positions<K + 1,
                              cuda::std::conditional_t<is_discard_v<First>, cuda::std::index_sequence<P...>,
                                                       cuda::std::index_sequence<P..., K>>,
                              Rest...>::type;
};

/// `Op` with only the parts `K...` of its `N`-part result: the one part itself where one is kept, a tuple
/// of them where several are.
template <class Op, std::size_t N, class Keep>
struct part_selecting_op;
template <class Op, std::size_t N, std::size_t... K>
struct part_selecting_op<Op, N, cuda::std::index_sequence<K...>> {
  Op op;

#pragma nv_exec_check_disable
  template <class... X, class R = decltype(cuda::std::declval<const Op&>()(cuda::std::declval<X>()...))>
  EW_HD auto operator()(X... x) const {
    static_assert(tuple_size_or_zero<cuda::std::remove_cv_t<cuda::std::remove_reference_t<R>>>::value == N,
                  "ew::elementwise: with N outputs, ew::discard ones included, Op must return a tuple-like "
                  "value of N elements");
    auto r = op(x...);
    if constexpr (sizeof...(K) == 1) {
      return cuda::std::get<K...>(r);
    } else {
      return cuda::std::tuple<
          cuda::std::remove_cv_t<cuda::std::remove_reference_t<decltype(cuda::std::get<K>(r))>>...>(
          cuda::std::get<K>(r)...);
    }
  }
};

template <class Op, std::size_t N, class Keep>
struct user_op<part_selecting_op<Op, N, Keep>> {
  using type = user_op_t<Op>;
};

/// `without_discards` for the kept positions `K...`.
template <class Op, class... Out, std::size_t... K, class Next>
decltype(auto) without_discards_impl(const Op& op, const cuda::std::tuple<Out...>& outs,
                                     cuda::std::index_sequence<K...>, Next& next) {
  using selecting = part_selecting_op<Op, sizeof...(Out), cuda::std::index_sequence<K...>>;
  return next(selecting{op}, cuda::std::tuple<cuda::std::tuple_element_t<K, cuda::std::tuple<Out...>>...>(
                                 cuda::std::get<K>(outs)...));
}

/// Runs `next(op, outs)` with the `ew::discard` outputs taken out of `outs` and `op` wrapped to match; as
/// it is where there are none.
template <class Op, class... Out, class Next>
decltype(auto) without_discards(const Op& op, const cuda::std::tuple<Out...>& outs, Next&& next) {
  if constexpr (!(is_discard_v<Out> || ...)) {
    return next(op, outs);
  } else {
    using keep = typename kept_positions<0, cuda::std::index_sequence<>, Out...>::type;
    static_assert(keep::size() >= 1, "ew::elementwise: every output is ew::discard; a launch must write one");
    return without_discards_impl(op, outs, keep{}, next);
  }
}

}  // namespace detail
}  // namespace ew
