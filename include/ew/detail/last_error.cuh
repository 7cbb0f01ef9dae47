// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The calling thread's message slot behind `ew::last_error_message()` (error.cuh), and `fail`, which every
/// check that rejects a call goes through.

#include <cuda_runtime_api.h>

namespace ew {
namespace detail {

/// The calling thread's message slot. Holds string literals only: setting it never allocates.
inline const char*& message_slot() {
  static thread_local const char* message = "";
  return message;
}

/// Records `message` for this thread and returns `error`, so a check reads `return fail(err, "why")`.
inline cudaError_t fail(cudaError_t error, const char* message) {
  message_slot() = message;
  return error;
}

}  // namespace detail
}  // namespace ew
