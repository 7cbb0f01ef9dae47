// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The functor library: one-line `__host__ __device__` ops for `ew::elementwise`.
///
/// Conventions, shared by every op so that adding one is one line:
/// - `Op<T>` takes and returns elements of type `T`; it computes in `ew::compute_t<T>` (`float` for `__half`,
///   `__nv_bfloat16`, `__nv_fp8_e4m3` and `__nv_fp8_e5m2`) and rounds once on return (`ew::up`, `ew::down`;
///   to FP8 saturating to the finite range, as `ew::convert` says).
/// - Transcendentals call `cuda::std`'s function of the compute type (CUDA's `expf` for float, `exp` for
///   double, on host and device: the host runs the C library's, the GPU CUDA's). Their maximum
///   errors (CUDA C++ Programming Guide, "Mathematical Functions") set the bounds the tests allow, stated in
///   tests/common/functor_reference.cuh.
/// - Integer `add`, `sub`, `mul`, `neg`, `abs`, `fma`, `axpby` and `scale_bias` wrap in two's complement;
/// they
///   never overflow into UB. Integer `div` truncates toward zero (as C++ and `torch.div(rounding_mode=
///   "trunc")`), gives 0 for a division by zero (PyTorch raises; a kernel cannot) and wraps `MIN / -1` to
///   `MIN`.
/// - Ops that only make sense for floating types (activations, `exp`, `log`, `sincos`, ...) fail to compile
///   for integer `T` with a static_assert naming the op.
/// - A NaN input gives a NaN output for every floating op (`relu`, `clamp`, `min`, `max` included, as in
///   PyTorch): comparisons are written so that NaN fails them and falls through to the input. (Not a
///   gradient: `relu_with_grad` gives 0 there, as PyTorch's backward does.)
/// - Where a textbook formula gives NaN at an infinity (`x * sigmoid(x)` at `-inf` is `-inf * 0`), the op
///   returns the limit instead: `silu`, `gelu`, `gelu_tanh` and `hardswish` of `-inf` are 0.
/// - Stateful ops are aggregates: `ew::clamp<float>{lo, hi}`, `ew::scale_bias<float>{alpha, beta}`. Their
///   scalar parameters are `compute_t<T>` (float for the 16-bit types), so they are not rounded to `T`; the
///   exception is `clamp`, whose bounds are `T` because its result is one of them.
/// - `fma` and `scale_bias` round once for every floating type, and so does `axpby` for the 16-bit ones: for
///   `__half` and `__nv_bfloat16` the exact value is rounded to odd at float (or double) precision and then
///   to 16 bits (`detail::mul_add_rounded`).
/// - The math behind the ops is in detail/math.cuh; each op below names what it matches.
/// - Ops with several results (`sincos`, `relu_with_grad`, `sigmoid_with_grad`) return
///   `cuda::std::tuple<T, T>`: launch them with `ew::out(p, q)`.

#include <cuda/std/tuple>
#include <cuda/std/type_traits>

#include "compose.cuh"
#include "detail/math.cuh"
#include "detail/math_float.cuh"
#include "detail/narrow_forms.cuh"
#include "functor.cuh"

namespace ew {

/// Rejects an integer `T` for an op that only makes sense on floating types.
#define EW_DETAIL_FLOATING_ONLY(T, name)                                  \
  static_assert(::ew::is_floating_v<T>,                                   \
                "ew::" name                                               \
                "<T>: T must be a floating type (float, double, __half, " \
                "__nv_bfloat16, __nv_fp8_e4m3, __nv_fp8_e5m2); this op has no integer version")

// --- Arithmetic (every element type) ----------------------------------------------------------------------

/// `a + b` (`torch.add`).
template <class T>
struct add {
  EW_HD T operator()(T a, T b) const { return down<T>(detail::wrap_add(up(a), up(b))); }
};

/// `a - b` (`torch.sub`).
template <class T>
struct sub {
  EW_HD T operator()(T a, T b) const { return down<T>(detail::wrap_sub(up(a), up(b))); }
};

/// `a * b` (`torch.mul`).
template <class T>
struct mul {
  EW_HD T operator()(T a, T b) const { return down<T>(detail::wrap_mul(up(a), up(b))); }
};

/// `a / b` (`torch.div`; integers as `rounding_mode="trunc"`, `x / 0 == 0`, `MIN / -1 == MIN`).
template <class T>
struct div {
  EW_HD T operator()(T a, T b) const { return down<T>(detail::divide(up(a), up(b))); }
};

/// `a * b + c`, rounded once for every floating type (C's `fma`).
template <class T>
struct fma {
  EW_HD T operator()(T a, T b, T c) const { return detail::mul_add_rounded<T>(a, b, c); }
};

/// `alpha * x + beta * y` (BLAS axpby): rounded once for `__half` and `__nv_bfloat16`; for float and double
/// `fma(alpha, x, beta * y)`, two roundings.
template <class T>
struct axpby {
  compute_t<T> alpha, beta;
  EW_HD T operator()(T x, T y) const { return detail::axpby_rounded<T>(alpha, x, beta, y); }
};

/// `alpha * x + beta`, rounded once for every floating type (an affine map: `x.mul(alpha).add(beta)` fused).
template <class T>
struct scale_bias {
  compute_t<T> alpha, beta;
  EW_HD T operator()(T x) const { return detail::mul_add_rounded<T>(alpha, x, beta); }
};

/// `-x` (`torch.neg`); integers wrap.
template <class T>
struct neg {
  EW_HD T operator()(T x) const { return down<T>(detail::negate(up(x))); }
};

/// `|x|` (`torch.abs`); `|-0| == +0`; integers wrap (`|MIN| == MIN`).
template <class T>
struct abs {
  EW_HD T operator()(T x) const { return down<T>(detail::absolute(up(x))); }
};

/// `min(a, b)`: NaN if either is NaN, `min(-0, +0) == -0` (`torch.minimum`).
template <class T>
struct min {
  EW_HD T operator()(T a, T b) const { return down<T>(detail::minimum(up(a), up(b))); }
};

/// `max(a, b)`: NaN if either is NaN, `max(-0, +0) == +0` (`torch.maximum`).
template <class T>
struct max {
  EW_HD T operator()(T a, T b) const { return down<T>(detail::maximum(up(a), up(b))); }
};

/// `min(max(x, lo), hi)` (`torch.clamp`); NaN stays NaN. Requires `lo <= hi`. The bounds are `T`, not
/// `compute_t<T>` (the one stateful op that keeps its parameters in `T`): the result is `x`, `lo` or `hi`
/// itself, never rounded.
template <class T>
struct clamp {
  T lo, hi;
  EW_HD T operator()(T x) const { return up(x) < up(lo) ? lo : (up(hi) < up(x) ? hi : x); }
};

/// Converts any element type to `To` with one rounding (`ew::convert`, `Tensor.to`): `ew::cast<float>{}` on
/// bf16 input gives float, `ew::cast<__nv_bfloat16>{}` rounds back to nearest even (integers too, from their
/// exact value). Floating to integer truncates toward zero and saturates, NaN giving 0 (`ew::convert`
/// states the rules); to `bool` it is `x != 0`. To FP8 (`ew::cast<__nv_fp8_e4m3>{}`) it saturates to the
/// finite range, NaN staying NaN; `ew::cast<__nv_fp8_e4m3, ew::saturation::none>{}` overflows to NaN
/// (e4m3) or infinity (e5m2) instead. `S` matters only for FP8 targets.
template <class To, saturation S = saturation::finite>
struct cast {
  template <class From>
  EW_HD To operator()(From x) const {
    return convert<To, S>(x);
  }
};

// --- Activations ------------------------------------------------------------------------------------------

/// `max(x, 0)` (`torch.relu`); NaN stays NaN, `-0` stays `-0`.
template <class T>
struct relu {
  EW_HD T operator()(T x) const { return detail::below_zero(up(x)) ? down<T>(compute_t<T>(0)) : x; }
};

/// `x > 0 ? x : slope * x` (`torch.nn.LeakyReLU`, default slope 0.01).
template <class T>
struct leaky_relu {
  EW_DETAIL_FLOATING_ONLY(T, "leaky_relu");
  compute_t<T> slope = compute_t<T>(0.01);
  EW_HD T operator()(T x) const { return up(x) > compute_t<T>(0) ? x : down<T>(up(x) * slope); }
};

/// `1 / (1 + exp(-x))` (`torch.sigmoid`), accurate in both tails. For 16-bit and FP8 `T` computed in float
/// to the accuracy the result holds (`detail::sigmoid_narrow`).
template <class T>
struct sigmoid {
  EW_DETAIL_FLOATING_ONLY(T, "sigmoid");
  EW_HD T operator()(T x) const {
    if constexpr (is_narrow_float_v<T>) {
      return down<T>(detail::sigmoid_narrow(up(x)));
    } else {
      return down<T>(detail::sigmoid(up(x)));
    }
  }
};

/// `tanh(x)` (`torch.tanh`).
template <class T>
struct tanh {
  EW_DETAIL_FLOATING_ONLY(T, "tanh");
  EW_HD T operator()(T x) const { return down<T>(cuda::std::tanh(up(x))); }
};

/// `x * sigmoid(x)` (`torch.nn.SiLU`, swish; Elfwing et al. 2017); `silu(-inf) == -0`. For 16-bit and FP8
/// `T` computed in float to the accuracy the result holds (`detail::x_sigmoid_narrow`).
template <class T>
struct silu {
  EW_DETAIL_FLOATING_ONLY(T, "silu");
  EW_HD T operator()(T x) const {
    if constexpr (is_narrow_float_v<T>) {
      return down<T>(detail::x_sigmoid_narrow(up(x), up(x)));
    } else {
      return down<T>(detail::x_sigmoid(up(x), up(x)));
    }
  }
};

/// `0.5 x (1 + erf(x / sqrt 2))` (exact GELU, `torch.nn.GELU()`; Hendrycks and Gimpel 2016);
/// `gelu(-inf) == -0`. For 16-bit and FP8 `T` computed in float to the accuracy the result holds
/// (`detail::gelu_narrow`), in about a third of float's instructions; 1 ulp of `T` either way. For float
/// without `erfcf` (`detail::gelu_float`: 47 instructions against 64, within the same 10 ulp).
template <class T>
struct gelu {
  EW_DETAIL_FLOATING_ONLY(T, "gelu");
  EW_HD T operator()(T x) const {
    if constexpr (is_narrow_float_v<T>) {
      return down<T>(detail::gelu_narrow(up(x)));
    } else if constexpr (cuda::std::is_same_v<T, float>) {
      return detail::gelu_float(x);
    } else {
      return detail::gelu(x);
    }
  }
};

/// `0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))` (`torch.nn.GELU(approximate="tanh")`). For 16-bit and
/// FP8 `T` computed in float to the accuracy the result holds (`detail::gelu_tanh_narrow`).
template <class T>
struct gelu_tanh {
  EW_DETAIL_FLOATING_ONLY(T, "gelu_tanh");
  EW_HD T operator()(T x) const {
    if constexpr (is_narrow_float_v<T>) {
      return down<T>(detail::gelu_tanh_narrow(up(x)));
    } else {
      return down<T>(detail::gelu_tanh(up(x)));
    }
  }
};

/// `x * relu6(x + 3) / 6` (`torch.nn.Hardswish`, MobileNetV3): 0 for `x <= -3`, `x` for `x >= 3`.
template <class T>
struct hardswish {
  EW_DETAIL_FLOATING_ONLY(T, "hardswish");
  EW_HD T operator()(T x) const {
    const compute_t<T> c = up(x);
    return c <= -3 ? down<T>(compute_t<T>(0)) : (c >= 3 ? x : down<T>(c * (c + 3) / 6));
  }
};

/// `relu6(x + 3) / 6` (`torch.nn.Hardsigmoid`): 0 for `x <= -3`, 1 for `x >= 3`.
template <class T>
struct hardsigmoid {
  EW_DETAIL_FLOATING_ONLY(T, "hardsigmoid");
  EW_HD T operator()(T x) const {
    const compute_t<T> c = up(x);
    return down<T>(c <= -3 ? compute_t<T>(0) : (c >= 3 ? compute_t<T>(1) : (c + 3) / 6));
  }
};

/// `log(1 + exp(beta x)) / beta`, and `x` where `beta x > threshold` (`torch.nn.Softplus`, defaults 1, 20).
/// For 16-bit and FP8 `T` computed in float to the accuracy the result holds (`detail::softplus_narrow`).
template <class T>
struct softplus {
  EW_DETAIL_FLOATING_ONLY(T, "softplus");
  compute_t<T> beta = 1, threshold = 20;
  EW_HD T operator()(T x) const {
    if constexpr (is_narrow_float_v<T>) {
      return down<T>(detail::softplus_narrow(up(x), beta, threshold));
    } else {
      return down<T>(detail::softplus(up(x), beta, threshold));
    }
  }
};

// --- Elementary functions ---------------------------------------------------------------------------------

/// `e^x` (`torch.exp`).
template <class T>
struct exp {
  EW_DETAIL_FLOATING_ONLY(T, "exp");
  EW_HD T operator()(T x) const { return down<T>(cuda::std::exp(up(x))); }
};

/// Natural logarithm (`torch.log`); `log(0) == -inf`, NaN below 0. For 16-bit and FP8 `T` computed in
/// float to the accuracy the result holds (`detail::log_narrow`).
template <class T>
struct log {
  EW_DETAIL_FLOATING_ONLY(T, "log");
  EW_HD T operator()(T x) const {
    if constexpr (is_narrow_float_v<T>) {
      return down<T>(detail::log_narrow(up(x)));
    } else {
      return down<T>(cuda::std::log(up(x)));
    }
  }
};

// --- Several results: launch with ew::out(p, q) -----------------------------------------------------------

/// `(sin x, cos x)` (C's `sincos`).
template <class T>
struct sincos {
  EW_DETAIL_FLOATING_ONLY(T, "sincos");
  EW_HD cuda::std::tuple<T, T> operator()(T x) const {
    if constexpr (is_narrow_float_v<T>) {  // sin and cos's forms for 16-bit and FP8 types
      return cuda::std::tuple<T, T>(down<T>(detail::sin_cos_narrow<false>(up(x))),
                                    down<T>(detail::sin_cos_narrow<true>(up(x))));
    } else {
      compute_t<T> s, c;
      detail::sin_cos(up(x), &s, &c);
      return cuda::std::tuple<T, T>(down<T>(s), down<T>(c));
    }
  }
};

/// `(relu(x), relu'(x))` for a backward pass: the derivative is 1 for `x > 0`, else 0 (0 at 0 and NaN, as
/// PyTorch's `threshold_backward`).
template <class T>
struct relu_with_grad {
  EW_HD cuda::std::tuple<T, T> operator()(T x) const {
    return cuda::std::tuple<T, T>(relu<T>{}(x), down<T>(compute_t<T>(up(x) > compute_t<T>(0) ? 1 : 0)));
  }
};

/// `(sigmoid(x), sigmoid'(x))`, the derivative as `e / (1 + e)^2` with `e = exp(-|x|)`, accurate in both
/// tails (`s (1 - s)` is 0 in float for x > 17).
template <class T>
struct sigmoid_with_grad {
  EW_DETAIL_FLOATING_ONLY(T, "sigmoid_with_grad");
  EW_HD cuda::std::tuple<T, T> operator()(T x) const {
    using C = compute_t<T>;
    const C c = up(x), e = cuda::std::exp(-cuda::std::fabs(c)), d = C(1) + e;
    return cuda::std::tuple<T, T>(down<T>((c >= C(0) ? C(1) : e) / d), down<T>(e / d / d));
  }
};

// EW_DETAIL_FLOATING_ONLY stays defined: ops_math.cuh states its ops' floating-only rule with it too.

// --- The ops' compute forms, for ew::compose (compose.cuh)
// ----------------------------------------------------

namespace detail {

EW_DETAIL_COMPUTE_FORM(add)
EW_DETAIL_COMPUTE_FORM(sub)
EW_DETAIL_COMPUTE_FORM(mul)
EW_DETAIL_COMPUTE_FORM(div)
EW_DETAIL_COMPUTE_FORM(fma)
EW_DETAIL_COMPUTE_FORM(axpby, s.alpha, s.beta)
EW_DETAIL_COMPUTE_FORM(scale_bias, s.alpha, s.beta)
EW_DETAIL_COMPUTE_FORM(neg)
EW_DETAIL_COMPUTE_FORM(abs)
EW_DETAIL_COMPUTE_FORM(min)
EW_DETAIL_COMPUTE_FORM(max)
EW_DETAIL_COMPUTE_FORM(clamp, up(s.lo), up(s.hi))
EW_DETAIL_COMPUTE_FORM(relu)
EW_DETAIL_COMPUTE_FORM(leaky_relu, s.slope)
EW_DETAIL_NARROW_FORM(sigmoid, sigmoid_narrow_form)
EW_DETAIL_COMPUTE_FORM(tanh)
EW_DETAIL_NARROW_FORM(silu, silu_narrow_form)
EW_DETAIL_NARROW_FORM(gelu, gelu_narrow_form)
EW_DETAIL_NARROW_FORM(gelu_tanh, gelu_tanh_narrow_form)
EW_DETAIL_COMPUTE_FORM(hardswish)
EW_DETAIL_COMPUTE_FORM(hardsigmoid)
EW_DETAIL_NARROW_FORM(softplus, softplus_narrow_form, s.beta, s.threshold)
EW_DETAIL_COMPUTE_FORM(exp)
EW_DETAIL_NARROW_FORM(log, log_narrow_form)

}  // namespace detail

}  // namespace ew
