// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Macros shared by ew's detail headers: the kernel declaration, the debug configuration's namespace, the
/// version. (`EW_HD`, which users write functors with, is in functor.cuh.)

#include <cuda_runtime_api.h>

/// `#pragma unroll` in code that is compiled for the device and, for the host tests, for the host, whose
/// compiler does not know the pragma.
#if defined(__CUDA_ARCH__)
#define EW_DETAIL_UNROLL _Pragma("unroll")
#else
#define EW_DETAIL_UNROLL
#endif

/// Declares an ew kernel. Hidden visibility keeps the template kernels of two shared libraries that both
/// include ew from resolving to one another's instantiations (the same reason cuco has CUCO_KERNEL and CUB
/// has CUB_DETAIL_KERNEL_ATTRIBUTES).
#if defined(_WIN32)
#define EW_KERNEL __global__
#else
#define EW_KERNEL __global__ __attribute__((visibility("hidden")))
#endif

/// Lowest `__CUDA_ARCH__` whose kernel images contain `griddepcontrol.wait` (kernel.cuh); the host checks a
/// kernel image's PTX version against it before it asks for programmatic launch (dispatch.cuh).
#define EW_DETAIL_PROGRAMMATIC_WAIT_ARCH 900

/// The debug configuration: EW_DEBUG_SYNC (synchronize after each launch) implies EW_CHECK_POINTERS (ask
/// CUDA about every pointer). Both change what ew's inline functions do, so the functions they change live
/// in an inline namespace named after the configuration: a program whose translation units were built with
/// and without them links each unit to its own definitions instead of whichever the linker saw first.
#if defined(EW_DEBUG_SYNC) && !defined(EW_CHECK_POINTERS)
#define EW_CHECK_POINTERS
#endif
#if defined(EW_DEBUG_SYNC)
#define EW_DETAIL_CONFIG_NAMESPACE config_debug_sync
#elif defined(EW_CHECK_POINTERS)
#define EW_DETAIL_CONFIG_NAMESPACE config_check_pointers
#else
#define EW_DETAIL_CONFIG_NAMESPACE config_default
#endif

/// Version of the library. These three lines are its only source: CMakeLists.txt reads them for project().
#define EW_VERSION_MAJOR 0
#define EW_VERSION_MINOR 1
#define EW_VERSION_PATCH 0
/// The same version as one number, MAJOR * 10000 + MINOR * 100 + PATCH.
#define EW_VERSION (EW_VERSION_MAJOR * 10000 + EW_VERSION_MINOR * 100 + EW_VERSION_PATCH)
