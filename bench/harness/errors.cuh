// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Error handling of the harness: `bench_failure`, the exception every harness function and benchmark row
/// throws on a failed CUDA call or a wrong result, and the `EWB_CHECK` / `EWB_CHECK_LAUNCH` macros that turn
/// a CUDA error code into one (with the error's name and string, the call and where it was made).

#include <cuda_runtime.h>

#include <stdexcept>

namespace ewb {

/// A CUDA call failed, or a result was wrong. Benchmarks catch it and report the row as an error.
struct bench_failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void throw_cuda(cudaError_t err, const char* expr, const char* file, int line);

/// Checks a CUDA call: on failure throws `bench_failure` with the error string, the call and where.
#define EWB_CHECK(expr)                                                                  \
  do {                                                                                   \
    const cudaError_t ewb_err_ = (expr);                                                 \
    if (ewb_err_ != cudaSuccess) ::ewb::throw_cuda(ewb_err_, #expr, __FILE__, __LINE__); \
  } while (0)

/// Checks the launch that just happened (`<<<>>>` reports its errors only through cudaGetLastError).
#define EWB_CHECK_LAUNCH() EWB_CHECK(cudaGetLastError())

}  // namespace ewb
