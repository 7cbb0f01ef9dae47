// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Programmatic dependent launch must never let ew read stale data: producer (sm_90, triggers its
// dependents before it writes x) -> ew: y = x + 1 -> ew: z = 2 y -> consumer (sm_90, waits, counts
// z != 2 (value + 1)), 100 times, directly and in a graph. ew's kernels come from the test build: sm_90
// machine code, or, run with CUDA_FORCE_PTX_JIT=1, compute_80 PTX JIT-compiled on the H200, whose image has
// no griddepcontrol.wait, so ew must not ask for programmatic launch. Without that check, the compute_80
// image read 51,380,224 stale elements of 52,428,800.

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/test_utils.cuh"
#include "pdl_producer.cuh"

using ew_test::device_array;
using ew_test::launch_mode;

namespace {

/// Checks that the kernel image that runs is the one the build and the environment ask for: with
/// CUDA_FORCE_PTX_JIT=1 the driver JIT-compiles the build's lowest PTX (compute_80: scripts/gpu_check.sh's
/// PTX run), otherwise it runs the machine code for this device where the build has it (sm_90 on an H200).
/// Without this, a PTX run that silently ran machine code would pass for one that tested the PTX path.
void check_image(int ptx_version) {
#if defined(EW_TEST_LOWEST_PTX) && defined(EW_TEST_SASS_ARCHS)
  const char* forced = std::getenv("CUDA_FORCE_PTX_JIT");
  if (forced != nullptr && std::strcmp(forced, "1") == 0) {
    REQUIRE(ptx_version == EW_TEST_LOWEST_PTX);
    return;
  }
  int device = 0, major = 0, minor = 0;
  EW_REQUIRE_CUDA(cudaGetDevice(&device));
  EW_REQUIRE_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  EW_REQUIRE_CUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  const int cc = major * 10 + minor;
  for (int arch : std::initializer_list<int>{EW_TEST_SASS_ARCHS}) {
    if (arch == cc) REQUIRE(ptx_version == cc);
  }
#else
  (void)ptx_version;
#endif
}

}  // namespace

TEST_CASE("programmatic launch: an early-triggering producer, two ew launches, a waiting consumer", "[pdl]") {
  // 2^20 elements: 1024 blocks, which trigger their dependents implicitly as they exit; 2^16: 64 blocks,
  // at most one per SM, which trigger early (tuning::early_trigger).
  const std::size_t n = GENERATE(std::size_t{1} << 20, std::size_t{1} << 16);
  INFO("n = " << n);
  device_array<float> x(n), y(n), z(n);
  unsigned long long* mismatches = nullptr;
  EW_REQUIRE_CUDA(cudaMalloc(&mismatches, sizeof(unsigned long long)));
  cudaStream_t stream = nullptr;
  EW_REQUIRE_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  int ptx = 0;
  {
    cudaFuncAttributes attr{};
    // The kernel ew launches for float scale_bias (16-byte vectors, 2 per thread), to say which image ran.
    EW_REQUIRE_CUDA(cudaFuncGetAttributes(
        &attr, ew::detail::elementwise_kernel<ew::scale_bias<float>, 4, 2, ew::detail::scalar_unroll<4, 2>,
                                              cuda::std::tuple<float*>,
                                              cuda::std::tuple<ew::detail::contiguous_input<float>>>));
    ptx = attr.ptxVersion;
  }
  INFO("ew kernel image: PTX version " << ptx);
  check_image(ptx);
  for (launch_mode mode : {launch_mode::direct, launch_mode::graph}) {
    INFO("mode " << ew_test::mode_name(mode));
    EW_REQUIRE_CUDA(cudaMemsetAsync(mismatches, 0, sizeof(unsigned long long), stream));
    EW_REQUIRE_CUDA(cudaMemsetAsync(x.data(), 0, n * sizeof(float), stream));
    EW_REQUIRE_CUDA(cudaMemsetAsync(y.data(), 0, n * sizeof(float), stream));
    for (int rep = 0; rep < 100; ++rep) {
      const float value = static_cast<float>(rep + 1) * 3.0f;
      EW_REQUIRE_CUDA(ew_test::run_in_mode(mode, stream, [&](cudaStream_t s) {
        cudaError_t err = ew_test::launch_early_trigger_producer(x.data(), n, value, s);
        if (err == cudaSuccess)
          err = ew::elementwise(ew::scale_bias<float>{1.0f, 1.0f}, n, y.data(), x.data(), s);
        if (err == cudaSuccess)
          err = ew::elementwise(ew::scale_bias<float>{2.0f, 0.0f}, n, z.data(), y.data(), s);
        if (err == cudaSuccess)
          err = ew_test::launch_waiting_consumer(z.data(), n, 2.0f * (value + 1.0f), mismatches, s);
        return err;
      }));
    }
    unsigned long long bad = 1;
    EW_REQUIRE_CUDA(cudaMemcpy(&bad, mismatches, sizeof(bad), cudaMemcpyDeviceToHost));
    REQUIRE(bad == 0);
    const std::vector<float> last = z.download();
    std::size_t wrong = 0;
    for (float v : last) wrong += v != 2.0f * (300.0f + 1.0f);
    REQUIRE(wrong == 0);
  }
  EW_REQUIRE_CUDA(cudaStreamDestroy(stream));
  EW_REQUIRE_CUDA(cudaFree(mismatches));
}
