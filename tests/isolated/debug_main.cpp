// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Main for ew_debug_tests (the tests built with EW_DEBUG_SYNC). `--gpu` (removed before Catch2 sees the
// arguments) says the selected tests need a GPU: without a usable device the run then exits with 77, which
// ctest reports as skipped. `--no-gpu` says they need a machine without one: with a usable device the run
// exits with 77. Without either, every selected test runs; the [debug_host] ones run anywhere. The
// no-GPU test is hidden ([.debug_no_gpu]), so a plain run on a GPU machine leaves it out.
#define CATCH_CONFIG_RUNNER
#include <cstdio>
#include <cstring>
#include <list>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include <catch2/catch.hpp>

#include "../common/test_spec.hpp"

int main(int argc, char* argv[]) {
  std::vector<char*> args;
  std::list<std::string> kept;  // rewritten arguments (stable addresses)
  bool needs_gpu = false, needs_no_gpu = false;
  for (int i = 0; i < argc; ++i) {
    if (i > 0 && std::strcmp(argv[i], "--gpu") == 0) {
      needs_gpu = true;
    } else if (i > 0 && std::strcmp(argv[i], "--no-gpu") == 0) {
      needs_no_gpu = true;
    } else {
      args.push_back(argv[i]);
    }
  }
  if (needs_gpu || needs_no_gpu) {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    const bool usable = err == cudaSuccess && count > 0;
    if (needs_gpu && !usable) {
      std::printf("SKIPPED: no usable CUDA device (%s)\n",
                  err != cudaSuccess ? cudaGetErrorString(err) : "0 devices");
      return 77;
    }
    if (needs_no_gpu && usable) {
      std::printf("SKIPPED: needs a machine without a usable CUDA device (%d found)\n", count);
      return 77;
    }
  }
  const std::vector<char*> spec = ew_test::keep_hidden_tests_hidden(args, kept);
  return Catch::Session().run(static_cast<int>(spec.size()), const_cast<char**>(spec.data()));
}
