// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
// ew_tune's shape table for relu on f32 (one translation unit per case, so they compile in parallel).
#include "tune.cuh"

namespace ewb {
namespace tune {
target target_relu_f32() {
  return make_target<ew::relu<float>, float>("relu", [](float x, float) { return widen(x) < 0 ? round_to<float>(host_compute_t<float>(0)) : x; }, 0.0);
}
}  // namespace tune
}  // namespace ewb
