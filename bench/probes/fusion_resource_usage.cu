// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Not built by CMake: the translation unit behind the register and spill numbers in docs/FUSION.md. It
// instantiates ew's kernel (both paths: vectorized and scalar) for single ops, the references, and for fused
// chains, float in and out; compile it with ptxas's resource report (the command is in FUSION.md) and read
// one "Used N registers" line per kernel.
#include <ew/elementwise.cuh>

template <class Op, class... In>
void instantiate(Op op, In... in) {
  float* y = nullptr;
  (void)ew::elementwise(op, 0, y, ew::in(in...));
}

int main() {
  const float* x = nullptr;
  const float* r = nullptr;
  // Single ops: the references.
  instantiate(ew::relu<float>{}, x);
  instantiate(ew::add<float>{}, x, r);
  instantiate(ew::sigmoid<float>{}, x);
  // Fused.
  instantiate(ew::compose(ew::sigmoid<float>{}, ew::scale_bias<float>{2.f, 1.f}), x);  // sigmoid(x) * 2 + 1
  // The same as three stages.
  instantiate(
      ew::compose(ew::sigmoid<float>{}, ew::scale_bias<float>{2.f, 0.f}, ew::scale_bias<float>{1.f, 1.f}), x);
  instantiate(ew::compose(ew::add<float>{}, ew::relu<float>{}), x, r);                 // relu(x + r)
  instantiate(ew::gelu<float>{}, x);                                                   // exact GELU
  instantiate(ew::compose(ew::scale_bias<float>{1.5f, 0.25f}, ew::gelu<float>{}), x);  // gelu(a x + b)
  instantiate(ew::compose(ew::sigmoid<float>{}, ew::tanh<float>{}), x);                // tanh(sigmoid(x))
  // Two outputs.
  float* s = nullptr;
  float* c = nullptr;
  (void)ew::elementwise(ew::sincos<float>{}, 0, ew::out(s, c), x);
  return 0;
}
