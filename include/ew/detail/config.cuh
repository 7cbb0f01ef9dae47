// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Macros shared by every ew header: execution-space qualifiers and the kernel declaration macro.

#include <cuda_runtime_api.h>

/// Marks a function callable from host and device code. Every functor in ew is `EW_HD`, which is what lets
/// the host tests run the exact code the GPU runs.
#define EW_HD __host__ __device__ __forceinline__

/// Declares an ew kernel. Hidden visibility keeps the template kernels of two shared libraries that both
/// include ew from resolving to one another's instantiations (the same reason cuco has CUCO_KERNEL and CUB
/// has CUB_DETAIL_KERNEL_ATTRIBUTES).
#if defined(_WIN32)
#define EW_KERNEL __global__
#else
#define EW_KERNEL __global__ __attribute__((visibility("hidden")))
#endif

/// Version of the library, as MAJOR * 10000 + MINOR * 100 + PATCH.
#define EW_VERSION 100
#define EW_VERSION_MAJOR (EW_VERSION / 10000)
#define EW_VERSION_MINOR (EW_VERSION / 100 % 100)
#define EW_VERSION_PATCH (EW_VERSION % 100)
