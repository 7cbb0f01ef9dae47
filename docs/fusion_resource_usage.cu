// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Not built by CMake: the translation unit behind the register and spill numbers in docs/FUSION.md. It
// instantiates ew's kernel for a single op (relu, the reference) and for fused chains, float in and out;
// compile it with ptxas's resource report (the command is in FUSION.md) and read one line per kernel.
#include <ew/elementwise.cuh>

template <class Op, class... In>
void instantiate(Op op, In... in) {
  float* y = nullptr;
  (void)ew::elementwise(op, 0, y, ew::in(in...));
}

int main() {
  const float* x = nullptr;
  const float* r = nullptr;
  instantiate(ew::relu<float>{}, x);                                                         // single op
  instantiate(ew::compose(ew::sigmoid<float>{}, ew::scale_bias<float>{2.f, 1.f}), x);        // sigmoid(x) * 2 + 1
  instantiate(ew::compose(ew::add<float>{}, ew::relu<float>{}), x, r);                       // relu(x + r)
  instantiate(ew::gelu<float>{}, x);                                                         // exact GELU
  instantiate(ew::compose(ew::scale_bias<float>{1.5f, 0.25f}, ew::gelu_tanh<float>{}), x);   // gelu_tanh(a x + b)
  return 0;
}
