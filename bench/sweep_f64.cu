// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
// The f64 rows of the main sweep (one translation unit per type so they compile in parallel).
#include "sweep.cuh"

namespace ewb {
void register_sweep_f64() { register_sweep<double>(); }
}  // namespace ewb
