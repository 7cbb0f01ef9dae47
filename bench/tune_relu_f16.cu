// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
// ew_tune's shape table for relu on f16 (one translation unit per case, so they compile in parallel).
#include "tune.cuh"

namespace ewb {
namespace tune {
target target_relu_f16() {
  return make_target<ew::relu<__half>, __half>("relu", [](__half x, __half) { return widen(x) < 0 ? round_to<__half>(host_compute_t<__half>(0)) : x; }, 0.0);
}
}  // namespace tune
}  // namespace ewb
