// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// The one Catch2 main of ew's test programs (host tests, GPU tests, debug tests), compiled once by the host
// compiler. Two options, removed before Catch2 sees the arguments, make a run that cannot mean anything
// here exit with 77, which ctest reports as skipped (SKIP_RETURN_CODE), never as passed:
//   --require-gpus N   the selected tests need N usable CUDA devices (ctest runs every GPU entry with it,
//                      the multi-device ones with 2);
//   --no-gpu           the selected tests need a machine without a usable CUDA device.
// Without either, every selected test runs. ctest passes v2's "-w NoTests"; built with Catch2 v3 it becomes
// v3's "-w UnmatchedTestSpec". Hidden tests ([.name]: the multi-device tests, those that need
// a machine without a GPU) stay out of a plain run and of one with only exclusions such as "~[large]"
// (which Catch2 v2 would otherwise let select hidden tests; main adds ~[.] to it).
// Catch2 v2 defines Catch::Session only in the unit that defines CATCH_CONFIG_RUNNER (v3 ignores it).
#define CATCH_CONFIG_RUNNER
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <list>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "catch.hpp"
#include "test_spec.hpp"

int main(int argc, char* argv[]) {
  std::vector<char*> args;
  std::list<std::string> kept;  // rewritten arguments (stable addresses)
  int required = 0;
  bool needs_no_gpu = false;
  for (int i = 0; i < argc; ++i) {
    if (i > 0 && std::strcmp(argv[i], "--require-gpus") == 0) {
      if (i + 1 >= argc || std::atoi(argv[i + 1]) < 1) {
        std::fprintf(stderr, "--require-gpus needs a device count of at least 1\n");
        return 2;
      }
      required = std::atoi(argv[++i]);
    } else if (i > 0 && std::strcmp(argv[i], "--no-gpu") == 0) {
      needs_no_gpu = true;
#if EW_TEST_CATCH2_MAJOR >= 3
    } else if (i > 0 && i + 1 < argc && std::strcmp(argv[i], "-w") == 0 &&
               std::strcmp(argv[i + 1], "NoTests") == 0) {
      // v2's "-w NoTests" (a filter that matches nothing fails the run) is "-w UnmatchedTestSpec" in v3.
      static char warn[] = "-w", unmatched[] = "UnmatchedTestSpec";
      args.push_back(warn);
      args.push_back(unmatched);
      ++i;
#endif
    } else {
      args.push_back(argv[i]);
    }
  }
  if (required > 0 || needs_no_gpu) {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) count = 0;
    cudaGetLastError();  // a failed query's error, so that it does not linger for the tests
    if (needs_no_gpu && count > 0) {
      std::printf("SKIPPED: the selected tests need a machine without a usable CUDA device (found %d)\n",
                  count);
      return 77;
    }
    if (count < required) {
      if (count == 0) {
        std::printf("SKIPPED: no usable CUDA device (%s)\n",
                    err != cudaSuccess ? cudaGetErrorString(err) : "0 devices");
      } else {
        std::printf("SKIPPED: the selected tests need %d GPUs, %d usable\n", required, count);
      }
      return 77;
    }
    if (required > 0) {
      cudaDeviceProp prop{};
      if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) {
        std::printf("device 0: %s, sm_%d%d, %d SMs (%d devices)\n", prop.name, prop.major, prop.minor,
                    prop.multiProcessorCount, count);
      }
    }
  }
  const std::vector<char*> spec = ew_test::keep_hidden_tests_hidden(args, kept);
  return Catch::Session().run(static_cast<int>(spec.size()), const_cast<char**>(spec.data()));
}
