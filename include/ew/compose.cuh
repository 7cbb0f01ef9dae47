// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// `ew::compose`: a chain of functors as one functor, so that one `ew::elementwise` launch runs the whole
/// chain with the intermediates in registers (one read per input, one write per output, instead of one of
/// each per stage).
///
/// @code
/// // y = relu(a + b): residual add, then ReLU, in one pass.
/// ew::elementwise(ew::compose(ew::add<float>{}, ew::relu<float>{}), n, y, ew::in(a, b), stream);
/// // y = sigmoid(x) * 2 + 1.
/// ew::elementwise(ew::compose(ew::sigmoid<float>{}, ew::scale_bias<float>{2.f, 1.f}), n, y, x, stream);
/// // Normalisation pre/post with scalars: y = (x - mean) * inv_std * gamma + beta.
/// ew::elementwise(ew::compose(ew::scale_bias<float>{inv_std, -mean * inv_std}, ew::scale_bias<float>{gamma,
/// beta}),
///                 n, y, x, stream);
/// @endcode

#include <cstddef>

#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include "detail/op_traits.cuh"
#include "functor.cuh"

namespace ew {
namespace detail {

/// Stands for the result of a chain that broke at some stage, so that one broken stage gives one error.
struct compose_broken {};

/// Fails when `Ok` is false. The stage number is in the type, so the compiler's "in instantiation of
/// compose_stage_check<N, false>" line names the stage (counted from 0, the first stage being stage 0).
template <std::size_t Stage, bool Ok>
struct compose_stage_check {
  static_assert(
      Ok,
      "ew::compose: stage N cannot take the result of stage N-1 (stages run left to right: compose(f, g, "
      "h)(x) is h(g(f(x))); every stage after the first is called with the previous stage's result, by "
      "value; N is the first template argument of ew::detail::compose_stage_check in this error)");
  static constexpr bool value = true;  // the assertion above has already said what is wrong
};

/// The result of calling `Stage` (as const) with an `R`, or `compose_broken` when it cannot be called.
template <class Stage, class R, bool = cuda::std::is_invocable_v<const Stage&, R>>
struct stage_result {
  using type = compose_broken;
};
template <class Stage, class R>
struct stage_result<Stage, R, true> {
  using type = cuda::std::decay_t<cuda::std::invoke_result_t<const Stage&, R>>;
};

/// What stages `K, K+1, ...` of a chain make of `R`, checking each (a hard error, with the message above,
/// when a stage cannot take what the one before it returns).
template <std::size_t K, class R, class... Stages>
struct chain_result {
  using type = R;
};
template <std::size_t K, class R, class Stage, class... Rest>
struct chain_result<K, R, Stage, Rest...> {
  static constexpr bool ok = cuda::std::is_same_v<R, compose_broken> ||
                             !cuda::std::is_same_v<typename stage_result<Stage, R>::type, compose_broken>;
  static_assert(compose_stage_check<K, ok>::value, "");
  using type = typename chain_result<K + 1, typename stage_result<Stage, R>::type, Rest...>::type;
};

/// What the stages after the first make of the first stage's result `R0`.
template <class R0, class First, class... Rest>
struct after_first {
  using type = typename chain_result<1, R0, Rest...>::type;
};

}  // namespace detail

namespace detail {

/// An ew op of a 16-bit or FP8 element type as a chain computes it (`ew::compose`): `mapped` where the op
/// has a form in its compute type (`type`, made by `make(op)`: `ew::add<__half>` is `ew::add<float>`), with
/// `declared` the element type its own form returns. ops.cuh specialises it for its ops; anything else
/// (ops with several results, `ew::cast`, your own functors) is not mapped and runs as it is.
template <class Stage, class = void>
struct compute_form {
  static constexpr bool mapped = false;
};

/// An op of one element type `T`, narrower than float, as its compute-type form: the same op of
/// `compute_t<T>` (`type`); the specialisation adds `make`, which copies the parameters
/// (`EW_DETAIL_COMPUTE_FORM`).
template <template <class> class Op, class T, class = void>
struct narrow_op_form {
  static constexpr bool mapped = false;
};
template <template <class> class Op, class T>
struct narrow_op_form<Op, T, cuda::std::enable_if_t<is_narrow_float_v<T>>> {
  static constexpr bool mapped = true;
  using declared = T;
  using type = Op<compute_t<T>>;
};

/// Declares the compute form of op template `ew::op` (in namespace `ew::detail`): the same op of
/// `compute_t<T>`, its parameters from `s` as listed (`s.alpha, s.beta`; none for a stateless op).
#define EW_DETAIL_COMPUTE_FORM(op, ...)                                               \
  template <class T>                                                                  \
  struct compute_form<::ew::op<T>, cuda::std::enable_if_t<is_narrow_float_v<T>>>      \
      : narrow_op_form<::ew::op, T> {                                                 \
    EW_HD static ::ew::op<compute_t<T>> make([[maybe_unused]] const ::ew::op<T>& s) { \
      return ::ew::op<compute_t<T>>{__VA_ARGS__};                                     \
    }                                                                                 \
  };

/// Declares the compute form of op template `ew::op` whose 16-bit and FP8 types compute through a float
/// form to the accuracy those types hold (detail/math_narrow.cuh): `form`, a functor of floats, made from
/// `s`'s parameters as listed. A chain keeps the op's speed and its error bound: the form's float result,
/// which the next stage may take unrounded, is within a small fraction of the type's rounding.
#define EW_DETAIL_NARROW_FORM(op, form, ...)                                                    \
  template <class T>                                                                            \
  struct compute_form<::ew::op<T>, cuda::std::enable_if_t<is_narrow_float_v<T>>> {              \
    static constexpr bool mapped = true;                                                        \
    using declared = T;                                                                         \
    using type = form;                                                                          \
    EW_HD static form make([[maybe_unused]] const ::ew::op<T>& s) { return form{__VA_ARGS__}; } \
  };

/// A chain's value between stages: `v` of type `V`, standing for the declared type `D` of the stage that
/// made it: `V` is `D` itself where it was rounded (or never needed to be), `compute_t<D>` where a mapped
/// stage left it unrounded.
template <class D, class V>
struct chain_value {
  V v;
};

/// The value as its declared type: rounded once, where it is not yet.
template <class D, class V>
EW_HD constexpr D realize(const chain_value<D, V>& x) {
  if constexpr (cuda::std::is_same_v<D, V>) {
    return x.v;
  } else {
    return down<D>(x.v);
  }
}

/// The argument a mapped stage of element type `T` computes on: an unrounded value as it is, anything else
/// converted to `T` first (as the stage's own call would) and widened.
template <class T, class D, class V>
EW_HD compute_t<T> compute_argument(const chain_value<D, V>& x) {
  if constexpr (!cuda::std::is_same_v<D, V> && cuda::std::is_same_v<V, compute_t<T>>) {
    return x.v;
  } else {
    return up(static_cast<T>(realize(x)));
  }
}

/// Stage `s` on chain value `x`: a mapped stage in its compute form, its result left unrounded; any other
/// stage on the value rounded to its declared type.
#pragma nv_exec_check_disable
template <class Stage, class D, class V>
EW_HD constexpr auto chain_step(const Stage& s, const chain_value<D, V>& x) {
  if constexpr (compute_form<Stage>::mapped) {
    using T = typename compute_form<Stage>::declared;
    return chain_value<T, compute_t<T>>{compute_form<Stage>::make(s)(compute_argument<T>(x))};
  } else {
    using R = cuda::std::decay_t<cuda::std::invoke_result_t<const Stage&, D>>;
    return chain_value<R, R>{s(realize(x))};
  }
}

/// The first stage on the launch's inputs: a mapped one in its compute form on the inputs converted to its
/// element type and widened.
#pragma nv_exec_check_disable
template <class Stage, class... Args>
EW_HD constexpr auto chain_start(const Stage& s, Args... args) {
  if constexpr (compute_form<Stage>::mapped) {
    using T = typename compute_form<Stage>::declared;
    return chain_value<T, compute_t<T>>{compute_form<Stage>::make(s)(up(static_cast<T>(args))...)};
  } else {
    using R = cuda::std::decay_t<cuda::std::invoke_result_t<const Stage&, Args...>>;
    return chain_value<R, R>{s(cuda::std::move(args)...)};
  }
}

}  // namespace detail

/// The functor `ew::compose` returns: the stages, stored by value (so they may carry state, like
/// `ew::scale_bias{alpha, beta}`), applied left to right, ew's ops of 16-bit and FP8 element types in their
/// compute type (float) with one rounding at the end. Trivially copyable when the stages are, so it can be
/// passed to a kernel; `__host__ __device__`, so the host tests run the same code as the GPU.
template <class... Stages>
struct composed {
  static_assert(sizeof...(Stages) >= 1, "ew::compose: needs at least one stage");

  cuda::std::tuple<Stages...> stages;

  /// `last(...(second(first(args...))))`, computed as `ew::compose` says. Takes part in overload
  /// resolution only when the first stage can be called with `args...` (so `ew::elementwise` reports a
  /// wrong number or type of inputs as such); a later stage that cannot take its predecessor's result is a
  /// compile error naming the stage. Returns what the last stage returns (its element type).
  // nv_exec_check_disable: a host-only stage (a plain lambda in a host test) may be composed and called on
  // the host; calling it on the device is still an error where that call is compiled.
#pragma nv_exec_check_disable
  template <class... Args, class First = cuda::std::tuple_element_t<0, cuda::std::tuple<Stages...>>,
            class R0 = cuda::std::decay_t<cuda::std::invoke_result_t<const First&, Args...>>>
  EW_HD constexpr auto operator()(Args... args) const -> typename detail::after_first<R0, Stages...>::type {
    if constexpr (sizeof...(Stages) == 1) {  // one stage is the stage itself (its own rounding)
      return cuda::std::get<0>(stages)(cuda::std::move(args)...);
    } else {
      return detail::realize(
          run<1>(detail::chain_start(cuda::std::get<0>(stages), cuda::std::move(args)...)));
    }
  }

 private:
#pragma nv_exec_check_disable
  template <std::size_t K, class V>
  EW_HD constexpr auto run(const V& x) const {
    if constexpr (K == sizeof...(Stages)) {
      return x;
    } else {
      return run<K + 1>(detail::chain_step(cuda::std::get<K>(stages), x));
    }
  }
};

/// The functor `ew::compose_per_stage` returns: as `composed`, but every stage runs as it is and returns
/// what its own type says (`ew::add<__half>` rounds to `__half` before the next stage).
template <class... Stages>
struct composed_per_stage {
  static_assert(sizeof...(Stages) >= 1, "ew::compose_per_stage: needs at least one stage");

  cuda::std::tuple<Stages...> stages;

  /// `last(...(second(first(args...))))`, each stage rounding to its own type.
#pragma nv_exec_check_disable
  template <class... Args, class First = cuda::std::tuple_element_t<0, cuda::std::tuple<Stages...>>,
            class R0 = cuda::std::decay_t<cuda::std::invoke_result_t<const First&, Args...>>>
  EW_HD constexpr auto operator()(Args... args) const -> typename detail::after_first<R0, Stages...>::type {
    return run<1>(cuda::std::get<0>(stages)(cuda::std::move(args)...));
  }

 private:
#pragma nv_exec_check_disable
  template <std::size_t K, class R>
  EW_HD constexpr auto run(R r) const {
    if constexpr (K == sizeof...(Stages)) {
      return r;
    } else {
      return run<K + 1>(cuda::std::get<K>(stages)(cuda::std::move(r)));
    }
  }
};

namespace detail {
/// The checks both `ew::compose` and `ew::compose_per_stage` make of their stages (`ok`).
template <class... Stages>
struct stage_checks {
  static_assert(sizeof...(Stages) >= 1, "ew::compose: needs at least one stage");
  static_assert(!(detail::is_device_lambda_v<Stages> || ...), EW_DETAIL_DEVICE_LAMBDA_MESSAGE);
  static_assert(
      (!cuda::std::is_pointer_v<Stages> && ...),
      "ew::compose: stages must be function objects, not function pointers (a host function's address "
      "cannot be called on the GPU)");
  static constexpr bool ok = true;
};
}  // namespace detail

/// Chains functors into one: `ew::compose(f, g, h)(x...) == h(g(f(x...)))`.
///
/// The order is left to right, the order the data flows in (a pipeline, like `f | g | h`; the reverse of the
/// mathematical `h o g o f`). The first stage takes the launch's inputs, so it may take several
/// (`ew::compose(ew::add<float>{}, ew::relu<float>{})` is `relu(a + b)` over `ew::in(a, b)`); each later
/// stage takes one value, the previous stage's result. The last stage's result is what is written: a tuple of
/// N values for N outputs (`ew::compose(ew::add<float>{}, ew::relu_with_grad<float>{})`).
///
/// Stages are taken by value and stored in the result, so stateful stages keep their state; they must be
/// callable as const on the device: any ew functor, or your own struct with an `EW_HD` (`__host__
/// __device__`) call operator. ew never needs lambdas; with `--extended-lambda`, a `__host__ __device__`
/// lambda works as a stage, and a `__device__`-only one once wrapped in `cuda::proclaim_return_type<R>(...)`
/// (host code cannot see its result type otherwise; a bare one is a compile error that says this).
/// A stage that cannot take the previous stage's result fails to compile with the message "ew::compose: stage
/// N cannot take the result of stage N-1".
///
/// Rounding: ew's ops of 16-bit and FP8 element types (`ew::add<__half>`, `ew::scale_bias<__nv_bfloat16>`,
/// `ew::relu<__nv_fp8_e4m3>`, ...) compute in float between stages and the chain rounds once, to the last
/// stage's element type, as a fusing compiler does: `ew::compose(ew::add<__half>{}, ew::scale_bias<__half>{3,
/// 0})` is bit for bit `ew::convert<__half>((float(a) + float(b)) * 3 + 0)` with the float ops of each
/// stage (`fmaf` for `scale_bias`: alone, `fma`, `scale_bias` and `axpby` of 16-bit types round the exact
/// value once, but in a chain they take float's `fmaf` like the float functor would, and the chain rounds
/// that). Stages that are not ew ops of such a type (your own functors, ops with several results,
/// `ew::cast`, `ew::dropout`, a nested `ew::compose`) run as they are, on the value rounded to the type the
/// stage before them returns. So do rounding ops: `floor`, `round` and the others see the unrounded float,
/// as in a fusing compiler (`compose(mul<__half>, floor<__half>)` of 0.1 and 10 gives 0, where two launches
/// give 1); put `ew::cast<__half>{}` before one to round first. A one-stage chain is the stage itself. On
/// the GPU, nvcc may fuse a multiply and an add of neighbouring stages into one `fma` (its default
/// `-fmad=true`), as it does in any float code. `ew::compose_per_stage` rounds after every stage instead,
/// as separate launches (and eager PyTorch) do.
template <class... Stages>
EW_HD constexpr composed<Stages...> compose(Stages... stages) {
  static_assert(detail::stage_checks<Stages...>::ok, "");
  return composed<Stages...>{cuda::std::tuple<Stages...>(stages...)};
}

/// `ew::compose` with every stage rounding to its own type before the next (`ew::add<__half>` gives a
/// `__half`, which the next stage takes as it is): the results of one launch per stage, bit for bit.
template <class... Stages>
EW_HD constexpr composed_per_stage<Stages...> compose_per_stage(Stages... stages) {
  static_assert(detail::stage_checks<Stages...>::ok, "");
  return composed_per_stage<Stages...>{cuda::std::tuple<Stages...>(stages...)};
}

}  // namespace ew
