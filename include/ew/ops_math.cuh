// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// More of the functor library (ops.cuh states the conventions they share: compute in `ew::compute_t<T>`,
/// round once, NaN in gives NaN out, floating types only where an op says so): elementary functions,
/// rounding to integers, `lerp` / `addcmul` / `addcdiv`, and the activations and gated pairs transformer
/// and CNN epilogues fuse. The error bound of each, per element type, is stated and tested in
/// tests/common/functor_reference.cuh; every one is exact or within a few ulp for float and double and
/// within 1 ulp (correctly rounded but for a rounding that falls the other way) for the 16-bit types.

#include <cuda/std/cmath>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include <nv/target>

#include "compose.cuh"
#include "ops.cuh"
#include "detail/math.cuh"
#include "detail/math_float.cuh"
#include "detail/narrow_forms.cuh"
#include "functor.cuh"

namespace ew {

namespace detail {
/// `1 / sqrt(x)`: CUDA's `rsqrtf` / `rsqrt` on the device (2 and 1 ulp), `1 / sqrt(x)` on the host.
template <class C>
EW_HD C reciprocal_sqrt(C x) {
  NV_IF_ELSE_TARGET(
      NV_IS_DEVICE,
      (
          if constexpr (cuda::std::is_same_v<C, float>) { return ::rsqrtf(x); } else { return ::rsqrt(x); }),
      (return C(1) / cuda::std::sqrt(x);));
}
/// `a^b`: C's `powf` / `pow` (CUDA's on the device), with C's `pow(x, 0) == 1` and `pow(1, y) == 1` made
/// explicit, so that they hold for signalling NaNs too (the host's C library gives NaN there).
EW_HD float power(float a, float b) { return b == 0.0f || a == 1.0f ? 1.0f : ::powf(a, b); }
EW_HD double power(double a, double b) { return b == 0.0 || a == 1.0 ? 1.0 : ::pow(a, b); }
/// `log(sigmoid(x)) = min(x, 0) - log1p(exp(-|x|))`: no overflow, no cancellation.
template <class C>
EW_HD C log_sigmoid(C x) {
  return (x < C(0) ? x : C(0)) - cuda::std::log1p(cuda::std::exp(-cuda::std::fabs(x)));
}
/// `x > 0 ? x : alpha * (e^x - 1)`, through `expm1` (exact near 0).
template <class C>
EW_HD C elu(C x, C alpha) {
  return x > C(0) ? x : alpha * cuda::std::expm1(x);
}
}  // namespace detail

// --- Elementary functions ---------------------------------------------------------------------------------

/// `sqrt(x)` (`torch.sqrt`): correctly rounded (IEEE; nvcc's default `-prec-sqrt=true`).
template <class T>
struct sqrt {
  EW_DETAIL_FLOATING_ONLY(T, "sqrt");
  EW_HD T operator()(T x) const { return down<T>(cuda::std::sqrt(up(x))); }
};

/// `1 / sqrt(x)` (`torch.rsqrt`).
template <class T>
struct rsqrt {
  EW_DETAIL_FLOATING_ONLY(T, "rsqrt");
  EW_HD T operator()(T x) const { return down<T>(detail::reciprocal_sqrt(up(x))); }
};

/// `1 / x` (`torch.reciprocal`), correctly rounded.
template <class T>
struct reciprocal {
  EW_DETAIL_FLOATING_ONLY(T, "reciprocal");
  EW_HD T operator()(T x) const { return down<T>(compute_t<T>(1) / up(x)); }
};

/// `x * x` (`torch.square`); integers wrap.
template <class T>
struct square {
  EW_HD T operator()(T x) const { return down<T>(detail::wrap_mul(up(x), up(x))); }
};

/// `2^x` (`torch.exp2`).
template <class T>
struct exp2 {
  EW_DETAIL_FLOATING_ONLY(T, "exp2");
  EW_HD T operator()(T x) const { return down<T>(cuda::std::exp2(up(x))); }
};

/// `log2(x)` (`torch.log2`). For 16-bit and FP8 `T` computed in float to the accuracy the result holds
/// (`detail::log2_narrow`).
template <class T>
struct log2 {
  EW_DETAIL_FLOATING_ONLY(T, "log2");
  EW_HD T operator()(T x) const {
    if constexpr (is_narrow_float_v<T>) {
      return down<T>(detail::log2_narrow(up(x)));
    } else {
      return down<T>(cuda::std::log2(up(x)));
    }
  }
};

/// `log(1 + x)` (`torch.log1p`), accurate near 0. For 16-bit and FP8 `T` computed in float to the accuracy
/// the result holds (`detail::log1p_narrow`).
template <class T>
struct log1p {
  EW_DETAIL_FLOATING_ONLY(T, "log1p");
  EW_HD T operator()(T x) const {
    if constexpr (is_narrow_float_v<T>) {
      return down<T>(detail::log1p_narrow(up(x)));
    } else {
      return down<T>(cuda::std::log1p(up(x)));
    }
  }
};

/// `e^x - 1` (`torch.expm1`), accurate near 0. For 16-bit and FP8 `T` computed in float to the accuracy
/// the result holds (`detail::expm1_narrow`).
template <class T>
struct expm1 {
  EW_DETAIL_FLOATING_ONLY(T, "expm1");
  EW_HD T operator()(T x) const {
    if constexpr (is_narrow_float_v<T>) {
      return down<T>(detail::expm1_narrow(up(x)));
    } else {
      return down<T>(cuda::std::expm1(up(x)));
    }
  }
};

/// `sin(x)` (`torch.sin`). For 16-bit and FP8 `T` computed in float to the accuracy the result holds
/// (`detail::sin_cos_narrow`).
template <class T>
struct sin {
  EW_DETAIL_FLOATING_ONLY(T, "sin");
  EW_HD T operator()(T x) const {
    if constexpr (is_narrow_float_v<T>) {
      return down<T>(detail::sin_cos_narrow<false>(up(x)));
    } else {
      return down<T>(cuda::std::sin(up(x)));
    }
  }
};

/// `cos(x)` (`torch.cos`). For 16-bit and FP8 `T` computed in float to the accuracy the result holds
/// (`detail::sin_cos_narrow`).
template <class T>
struct cos {
  EW_DETAIL_FLOATING_ONLY(T, "cos");
  EW_HD T operator()(T x) const {
    if constexpr (is_narrow_float_v<T>) {
      return down<T>(detail::sin_cos_narrow<true>(up(x)));
    } else {
      return down<T>(cuda::std::cos(up(x)));
    }
  }
};

/// The error function (`torch.erf`). For 16-bit and FP8 `T` computed in float to the accuracy the result
/// holds (`detail::erf_narrow`).
template <class T>
struct erf {
  EW_DETAIL_FLOATING_ONLY(T, "erf");
  EW_HD T operator()(T x) const {
    if constexpr (is_narrow_float_v<T>) {
      return down<T>(detail::erf_narrow(up(x)));
    } else {
      return down<T>(cuda::std::erf(up(x)));
    }
  }
};

/// `a^b` (`torch.pow`; C's `pow`: `pow(x, 0) == 1` and `pow(1, y) == 1` even for NaN). For 16-bit and FP8
/// `T` computed in float to the accuracy the result holds (`detail::pow_narrow`).
template <class T>
struct pow {
  EW_DETAIL_FLOATING_ONLY(T, "pow");
  EW_HD T operator()(T a, T b) const {
    if constexpr (is_narrow_float_v<T>) {
      return down<T>(detail::pow_narrow(up(a), up(b)));
    } else {
      return down<T>(detail::power(up(a), up(b)));
    }
  }
};

// --- Rounding to integers (exact)
// ---------------------------------------------------------------------------

/// The largest integer not above `x` (`torch.floor`).
template <class T>
struct floor {
  EW_DETAIL_FLOATING_ONLY(T, "floor");
  EW_HD T operator()(T x) const { return down<T>(cuda::std::floor(up(x))); }
};

/// The smallest integer not below `x` (`torch.ceil`).
template <class T>
struct ceil {
  EW_DETAIL_FLOATING_ONLY(T, "ceil");
  EW_HD T operator()(T x) const { return down<T>(cuda::std::ceil(up(x))); }
};

/// The nearest integer, halves to even (`torch.round`: 2.5 gives 2, -0.5 gives -0; C's `rint`).
template <class T>
struct round {
  EW_DETAIL_FLOATING_ONLY(T, "round");
  EW_HD T operator()(T x) const { return down<T>(cuda::std::rint(up(x))); }
};

/// `x` without its fraction, toward zero (`torch.trunc`).
template <class T>
struct trunc {
  EW_DETAIL_FLOATING_ONLY(T, "trunc");
  EW_HD T operator()(T x) const { return down<T>(cuda::std::trunc(up(x))); }
};

/// -1, 0 or 1 by the sign of `x` (`torch.sign`), integers too; `sign(-0) == -0`, and NaN stays NaN (ew's
/// rule for every floating op; `torch.sign` gives 0 there).
template <class T>
struct sign {
  EW_HD T operator()(T x) const {
    const compute_t<T> c = up(x);
    return c > compute_t<T>(0) ? down<T>(compute_t<T>(1))
                               : (detail::below_zero(c) ? down<T>(compute_t<T>(-1)) : x);
  }
};

// --- Arithmetic of several inputs
// ---------------------------------------------------------------------------

/// `a + w (b - a)`, as `torch.lerp` evaluates it: `b - (b - a)(1 - w)` where `|w| >= 0.5`, so that `w == 1`
/// gives `b` exactly; each multiply-add fused (`fma`), on the host as on the device.
template <class T>
struct lerp {
  EW_DETAIL_FLOATING_ONLY(T, "lerp");
  EW_HD T operator()(T a, T b, T w) const {
    const compute_t<T> ca = up(a), cb = up(b), cw = up(w), d = cb - ca;
    return down<T>(cuda::std::fabs(cw) < compute_t<T>(0.5) ? detail::mul_add(cw, d, ca)
                                                           : detail::mul_add(-d, compute_t<T>(1) - cw, cb));
  }
};

/// `a + value * b * c` (`torch.addcmul(a, b, c, value=value)`): `value * b`, then `fma(that, c, a)`.
template <class T>
struct addcmul {
  EW_DETAIL_FLOATING_ONLY(T, "addcmul");
  compute_t<T> value = 1;
  EW_HD T operator()(T a, T b, T c) const { return down<T>(detail::mul_add(value * up(b), up(c), up(a))); }
};

/// `a + value * b / c` (`torch.addcdiv(a, b, c, value=value)`): `value * b / c`, then added to `a` (no
/// multiply-add to fuse).
template <class T>
struct addcdiv {
  EW_DETAIL_FLOATING_ONLY(T, "addcdiv");
  compute_t<T> value = 1;
  EW_HD T operator()(T a, T b, T c) const { return down<T>(up(a) + value * up(b) / up(c)); }
};

// --- Activations
// ----------------------------------------------------------------------------------------------

/// `x > 0 ? x : alpha (e^x - 1)` (`torch.nn.ELU`, default alpha 1). For 16-bit and FP8 `T` computed in
/// float to the accuracy the result holds (`detail::elu_narrow`).
template <class T>
struct elu {
  EW_DETAIL_FLOATING_ONLY(T, "elu");
  compute_t<T> alpha = 1;
  EW_HD T operator()(T x) const {
    if constexpr (is_narrow_float_v<T>) {
      return down<T>(detail::elu_narrow(up(x), alpha));
    } else {
      return down<T>(detail::elu(up(x), alpha));
    }
  }
};

/// `scale * elu(x, alpha)` with PyTorch's constants (`torch.nn.SELU`; Klambauer et al. 2017); for 16-bit
/// and FP8 `T` through `detail::elu_narrow`.
template <class T>
struct selu {
  EW_DETAIL_FLOATING_ONLY(T, "selu");
  EW_HD T operator()(T x) const {
    if constexpr (is_narrow_float_v<T>) {
      return down<T>(detail::selu_narrow(up(x)));
    } else {
      using C = compute_t<T>;
      return down<T>(C(detail::selu_scale_d) * detail::elu(up(x), C(detail::selu_alpha_d)));
    }
  }
};

/// `x tanh(softplus(x))` (`torch.nn.Mish`; Misra 2019), softplus with PyTorch's threshold 20; `mish(-inf)
/// == -0`. For 16-bit and FP8 `T` computed in float to the accuracy the result holds
/// (`detail::mish_narrow`); for float from one `expf` and one division (`detail::mish_float`).
template <class T>
struct mish {
  EW_DETAIL_FLOATING_ONLY(T, "mish");
  EW_HD T operator()(T x) const {
    using C = compute_t<T>;
    const C c = up(x);
    if constexpr (is_narrow_float_v<T>) {
      return down<T>(detail::mish_narrow(c));
    } else if constexpr (cuda::std::is_same_v<T, float>) {
      return detail::mish_float(c);
    } else {
      // At -inf the limit, -0 (the formula gives -inf * 0).
      return down<T>(c < -cuda::std::numeric_limits<C>::max()
                         ? -C(0)
                         : c * cuda::std::tanh(detail::softplus(c, C(1), C(20))));
    }
  }
};

/// `x / (1 + |x|)` (`torch.nn.Softsign`); +-1 at +-inf.
template <class T>
struct softsign {
  EW_DETAIL_FLOATING_ONLY(T, "softsign");
  EW_HD T operator()(T x) const {
    const compute_t<T> c = up(x), m = cuda::std::fabs(c);
    // At the infinities the limits, +-1 (the formula gives inf / inf).
    return down<T>(m > cuda::std::numeric_limits<compute_t<T>>::max()
                       ? cuda::std::copysign(compute_t<T>(1), c)
                       : c / (compute_t<T>(1) + m));
  }
};

/// `log(sigmoid(x))` (`torch.nn.LogSigmoid`), as `min(x, 0) - log1p(e^-|x|)`: finite for every finite `x`.
/// For 16-bit and FP8 `T` computed in float to the accuracy the result holds (`detail::log_sigmoid_narrow`).
template <class T>
struct logsigmoid {
  EW_DETAIL_FLOATING_ONLY(T, "logsigmoid");
  EW_HD T operator()(T x) const {
    if constexpr (is_narrow_float_v<T>) {
      return down<T>(detail::log_sigmoid_narrow(up(x)));
    } else {
      return down<T>(detail::log_sigmoid(up(x)));
    }
  }
};

/// `silu(a) * b`, the SwiGLU gate (Shazeer 2020): `a` the gate's half, `b` the other.
template <class T>
struct swiglu {
  EW_DETAIL_FLOATING_ONLY(T, "swiglu");
  EW_HD T operator()(T a, T b) const { return down<T>(detail::x_sigmoid(up(a), up(a)) * up(b)); }
};

/// `gelu(a) * b` (exact GELU), the GEGLU gate (Shazeer 2020); GELU as `ew::gelu` computes it for `T`.
template <class T>
struct geglu {
  EW_DETAIL_FLOATING_ONLY(T, "geglu");
  EW_HD T operator()(T a, T b) const {
    if constexpr (is_narrow_float_v<T>) {
      return down<T>(detail::gelu_narrow(up(a)) * up(b));
    } else if constexpr (cuda::std::is_same_v<T, float>) {
      return detail::gelu_float(a) * b;
    } else {
      return detail::gelu(a) * b;
    }
  }
};

// --- Compute forms, for ew::compose (compose.cuh)
// -------------------------------------------------------------

namespace detail {
EW_DETAIL_COMPUTE_FORM(sqrt)
EW_DETAIL_COMPUTE_FORM(rsqrt)
EW_DETAIL_COMPUTE_FORM(reciprocal)
EW_DETAIL_COMPUTE_FORM(square)
EW_DETAIL_COMPUTE_FORM(exp2)
EW_DETAIL_NARROW_FORM(log2, log2_narrow_form)
EW_DETAIL_NARROW_FORM(log1p, log1p_narrow_form)
EW_DETAIL_NARROW_FORM(expm1, expm1_narrow_form)
EW_DETAIL_NARROW_FORM(sin, sin_narrow_form)
EW_DETAIL_NARROW_FORM(cos, cos_narrow_form)
EW_DETAIL_NARROW_FORM(erf, erf_narrow_form)
EW_DETAIL_NARROW_FORM(pow, pow_narrow_form)
EW_DETAIL_COMPUTE_FORM(floor)
EW_DETAIL_COMPUTE_FORM(ceil)
EW_DETAIL_COMPUTE_FORM(round)
EW_DETAIL_COMPUTE_FORM(trunc)
EW_DETAIL_COMPUTE_FORM(sign)
EW_DETAIL_COMPUTE_FORM(lerp)
EW_DETAIL_COMPUTE_FORM(addcmul, s.value)
EW_DETAIL_COMPUTE_FORM(addcdiv, s.value)
EW_DETAIL_NARROW_FORM(elu, elu_narrow_form, s.alpha)
EW_DETAIL_NARROW_FORM(selu, selu_narrow_form)
EW_DETAIL_NARROW_FORM(mish, mish_narrow_form)
EW_DETAIL_COMPUTE_FORM(softsign)
EW_DETAIL_NARROW_FORM(logsigmoid, logsigmoid_narrow_form)
EW_DETAIL_COMPUTE_FORM(swiglu)
EW_DETAIL_NARROW_FORM(geglu, geglu_narrow_form)
}  // namespace detail

}  // namespace ew
