// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
// ew_tune's shape table for add on f32 (one translation unit per case, so they compile in parallel).
#include "tune.cuh"

namespace ewb {
namespace tune {
target target_add_f32() {
  return make_target<ew::add<float>, float>("add", [](float a, float b) { return round_to<float>(widen(a) + widen(b)); }, 0.0);
}
}  // namespace tune
}  // namespace ewb
