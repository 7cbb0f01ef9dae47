// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#include "errors.cuh"

#include <sstream>

namespace ewb {

void throw_cuda(cudaError_t err, const char* expr, const char* file, int line) {
  std::ostringstream s;
  s << "CUDA error " << cudaGetErrorName(err) << " (" << cudaGetErrorString(err) << ") from " << expr
    << " at " << file << ":" << line;
  throw bench_failure(s.str());
}

}  // namespace ewb
