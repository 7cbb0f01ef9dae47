// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
// ew_tune's shape table for add on f16 (one translation unit per case, so they compile in parallel).
#include "tune.cuh"

namespace ewb {
namespace tune {
target target_add_f16() {
  return make_target<ew::add<__half>, __half>("add", [](__half a, __half b) { return round_to<__half>(widen(a) + widen(b)); }, 0.0);
}
}  // namespace tune
}  // namespace ewb
