// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
// The f32 rows of the main sweep (one translation unit per type so they compile in parallel).
#include "sweep.cuh"

namespace ewb {
void register_sweep_f32() { register_sweep<float>(); }
}  // namespace ewb
