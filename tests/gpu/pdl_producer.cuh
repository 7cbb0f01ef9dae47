// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// Kernels of a PDL-aware library around ew's launches, compiled for sm_90 whatever the test build targets
// (tests/CMakeLists.txt: the ew_pdl_peers object library). Test code only.

#include <cstddef>

#include <cuda_runtime_api.h>

namespace ew_test {

/// Launches a producer that, as PDL-aware libraries do, lets the next kernel in `stream` launch at once
/// (cudaTriggerProgrammaticLaunchCompletion first) and only then writes `x[i] = value` for `i < n`, slowly.
/// A dependent kernel that starts early and does not wait for it reads stale `x`.
cudaError_t launch_early_trigger_producer(float* x, std::size_t n, float value, cudaStream_t stream);

/// Launches, with programmatic stream serialization, a consumer that waits for its predecessor
/// (cudaGridDependencySynchronize) and adds to `*mismatches` the number of `i < n` with `z[i] != want`.
cudaError_t launch_waiting_consumer(const float* z, std::size_t n, float want, unsigned long long* mismatches,
                                    cudaStream_t stream);

}  // namespace ew_test
