// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The error model. Every ew call returns a `cudaError_t`; when ew itself rejected the call (before any
/// launch), `ew::last_error_message()` says why, on the calling thread, until that thread's next ew call.

#include "detail/last_error.cuh"

namespace ew {

/// Why the calling thread's most recent ew call failed: ew's own reason when it rejected the arguments
/// (e.g. "ew::elementwise: an output partially overlaps an input"), CUDA's error string when a CUDA call
/// failed, or "" when that call succeeded. The pointer stays valid for the life of the program.
inline const char* last_error_message() { return detail::message_slot(); }

}  // namespace ew
