// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The float forms of math_narrow.cuh and math_narrow_poly.cuh as functors of floats: what a 16-bit or FP8
/// op of ops.cuh / ops_math.cuh computes, and its stage in a chain (`EW_DETAIL_NARROW_FORM`, compose.cuh).

#include "math_narrow.cuh"
#include "math_narrow_poly.cuh"

namespace ew {
namespace detail {

struct gelu_narrow_form {
  EW_HD float operator()(float x) const { return gelu_narrow(x); }
};
struct sigmoid_narrow_form {
  EW_HD float operator()(float x) const { return sigmoid_narrow(x); }
};
struct silu_narrow_form {
  EW_HD float operator()(float x) const { return x_sigmoid_narrow(x, x); }
};
struct gelu_tanh_narrow_form {
  EW_HD float operator()(float x) const { return gelu_tanh_narrow(x); }
};
struct softplus_narrow_form {
  float beta, threshold;
  EW_HD float operator()(float x) const { return softplus_narrow(x, beta, threshold); }
};
struct log_narrow_form {
  EW_HD float operator()(float x) const { return log_narrow(x); }
};
struct log2_narrow_form {
  EW_HD float operator()(float x) const { return log2_narrow(x); }
};
struct log1p_narrow_form {
  EW_HD float operator()(float x) const { return log1p_narrow(x); }
};
struct expm1_narrow_form {
  EW_HD float operator()(float x) const { return expm1_narrow(x); }
};
struct elu_narrow_form {
  float alpha;
  EW_HD float operator()(float x) const { return elu_narrow(x, alpha); }
};
struct selu_narrow_form {
  EW_HD float operator()(float x) const { return selu_narrow(x); }
};
struct mish_narrow_form {
  EW_HD float operator()(float x) const { return mish_narrow(x); }
};
struct logsigmoid_narrow_form {
  EW_HD float operator()(float x) const { return log_sigmoid_narrow(x); }
};
struct sin_narrow_form {
  EW_HD float operator()(float x) const { return sin_cos_narrow<false>(x); }
};
struct cos_narrow_form {
  EW_HD float operator()(float x) const { return sin_cos_narrow<true>(x); }
};
struct erf_narrow_form {
  EW_HD float operator()(float x) const { return erf_narrow(x); }
};
struct pow_narrow_form {
  EW_HD float operator()(float a, float b) const { return pow_narrow(a, b); }
};
struct geglu_narrow_form {
  EW_HD float operator()(float a, float b) const { return gelu_narrow(a) * b; }
};

}  // namespace detail
}  // namespace ew
