// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Errors on the GPU (ctest gpu.errors): calls ew rejects (null, overlapping, misaligned or mismatched
// pointers) return cudaErrorInvalidValue, write nothing and capture nothing, directly and under capture; a
// launch that CUDA refuses returns CUDA's error and leaves ew usable; and the cost of the debug-only pointer
// check next to a launch, printed. Guard bands are checked after every launch.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/functor_reference.cuh"
#include "../common/hardening_utils.cuh"
#include "../common/test_utils.cuh"

using namespace ew_test;

namespace {

struct split2 {
  EW_HD
  cuda::std::tuple<float, float> operator()(float a, float b) const { return {a + b, a - b}; }
};
struct widen {
  EW_HD
  float operator()(__half x) const { return __half2float(x); }
};

}  // namespace

TEST_CASE("rejected calls return cudaErrorInvalidValue, write nothing and capture nothing",
          "[errors][guard][graph]") {
  const std::uint64_t seed = base_seed();
  INFO("seed " << seed);
  abc_fixture f(100003, seed);
  owned_stream stream;
  const std::size_t n = f.n;
  float* const a = f.da.data();
  float* const b = f.db.data();
  float* const c = f.dc.data();
  const float* const null_in = nullptr;
  struct bad_call {
    const char* what;
    std::function<cudaError_t(cudaStream_t)> call;
  };
  // Every range below stays inside its own array, so a call that was wrongly let through would show up as a
  // changed array rather than as a fault.
  const std::vector<bad_call> calls{
      {"null output",
       [&](cudaStream_t s) {
         return ew::elementwise(ew::add<float>{}, n, static_cast<float*>(nullptr), ew::in(a, b), s);
       }},
      {"null input",
       [&](cudaStream_t s) { return ew::elementwise(ew::add<float>{}, n, c, ew::in(a, null_in), s); }},
      {"output one element past its input",
       [&](cudaStream_t s) {
         return ew::elementwise(ew::relu<float>{}, n - 1, a + 1, static_cast<const float*>(a), s);
       }},
      {"input one element past the output",
       [&](cudaStream_t s) {
         return ew::elementwise(ew::relu<float>{}, n - 1, c, static_cast<const float*>(c + 1), s);
       }},
      {"output partially over the second input",
       [&](cudaStream_t s) {
         return ew::elementwise(ew::add<float>{}, n - 1, c, ew::in<float, float>(a, c + 1), s);
       }},
      {"in place on one input, partial overlap with the other",
       [&](cudaStream_t s) {
         return ew::elementwise(ew::add<float>{}, n - 1, c, ew::in<float, float>(c, c + 1), s);
       }},
      {"two outputs overlap",
       [&](cudaStream_t s) { return ew::elementwise(split2{}, n - 1, ew::out(c, c + 1), ew::in(a, b), s); }},
      {"two outputs the same",
       [&](cudaStream_t s) { return ew::elementwise(split2{}, n, ew::out(c, c), ew::in(a, b), s); }},
      {"output not aligned to its element",
       [&](cudaStream_t s) {
         return ew::elementwise(ew::relu<float>{}, n - 1,
                                reinterpret_cast<float*>(reinterpret_cast<char*>(c) + 2),
                                static_cast<const float*>(a), s);
       }},
      {"in place with a different element size",
       [&](cudaStream_t s) { return ew::elementwise(widen{}, n, c, reinterpret_cast<const __half*>(c), s); }},
  };
  for (const bad_call& bad : calls) {
    for (launch_mode mode : {launch_mode::direct, launch_mode::graph}) {
      INFO(bad.what << ", " << mode_name(mode));
      if (mode == launch_mode::direct) {
        REQUIRE(bad.call(stream.get()) == cudaErrorInvalidValue);
        REQUIRE(std::string(ew::last_error_message()).rfind("ew::elementwise: ", 0) == 0);
        EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.get()));
      } else {
        owned_graph g;
        cudaError_t ended = cudaSuccess;
        // Global mode: the strictest; a rejected call must not have made any call capture forbids.
        REQUIRE(capture(g, stream.get(), cudaStreamCaptureModeGlobal, bad.call, ended) ==
                cudaErrorInvalidValue);
        REQUIRE(ended == cudaSuccess);
        REQUIRE(g.nodes() == 0);
      }
      f.require_untouched();
    }
  }
  // The stream, the context and the message are fine afterwards.
  EW_REQUIRE_CUDA(ew::elementwise(ew::add<float>{}, n, c, ew::in(a, b), stream.get()));
  REQUIRE(std::string(ew::last_error_message()).empty());
  EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.get()));
  require_equal(f.dc.download(), [&](std::size_t i) { return ref_add(f.a[i], f.b[i]); });
  f.require_guards();
}

// Tagged [api_errors]: it makes CUDA API calls fail on purpose, which compute-sanitizer counts as errors;
// run the sanitizers with the filter ~[api_errors] (and ~[large]).
TEST_CASE("a launch CUDA refuses returns CUDA's error, and ew stays usable", "[errors][graph][api_errors]") {
  abc_fixture f(4099, base_seed());
  owned_stream stream;
  const std::size_t n = f.n;
  float* const a = f.da.data();
  float* const b = f.db.data();
  float* const c = f.dc.data();
  // Warm this kernel, so that the failing calls below get past the cached queries to the launch itself.
  EW_REQUIRE_CUDA(ew::elementwise(ew::add<float>{}, n, c, ew::in(a, b), stream.get()));
  EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.get()));
  const std::vector<float> c_before = f.dc.download();

  {
    // A capture invalidated by a forbidden call (synchronizing the capturing stream): the launch into it
    // fails (cudaErrorStreamCaptureInvalidated).
    EW_REQUIRE_CUDA(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal));
    const cudaError_t forbidden = cudaStreamSynchronize(stream.get());
    const cudaError_t launched = ew::elementwise(ew::add<float>{}, n, c, ew::in(a, b), stream.get());
    const std::string message = ew::last_error_message();
    cudaGraph_t graph = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(stream.get(), &graph);
    if (graph) cudaGraphDestroy(graph);
    cudaGetLastError();
    INFO("forbidden call -> " << cudaGetErrorName(forbidden) << ", ew -> " << cudaGetErrorName(launched)
                              << ", end capture -> " << cudaGetErrorName(ended));
    REQUIRE(forbidden != cudaSuccess);
    REQUIRE(launched != cudaSuccess);
    REQUIRE(message == cudaGetErrorString(launched));
    REQUIRE(ended != cudaSuccess);
  }
  {
    // Work on the legacy default stream while a blocking stream captures would need an implicit
    // dependency on the capture: the launch fails (cudaErrorStreamCaptureImplicit).
    owned_stream blocking(cudaStreamDefault);
    EW_REQUIRE_CUDA(cudaStreamBeginCapture(blocking.get(), cudaStreamCaptureModeThreadLocal));
    const cudaError_t launched = ew::elementwise(ew::add<float>{}, n, c, ew::in(a, b), nullptr);
    const std::string message = ew::last_error_message();
    cudaGraph_t graph = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(blocking.get(), &graph);
    if (graph) cudaGraphDestroy(graph);
    cudaGetLastError();
    INFO("ew -> " << cudaGetErrorName(launched) << ", end capture -> " << cudaGetErrorName(ended));
    REQUIRE(launched != cudaSuccess);
    REQUIRE(message == cudaGetErrorString(launched));
  }
  // Nothing ran, and ew still works on the same stream.
  EW_REQUIRE_CUDA(cudaDeviceSynchronize());
  REQUIRE(same_bytes(f.dc.download(), c_before));
  f.dc.poison();
  settle();
  EW_REQUIRE_CUDA(ew::elementwise(ew::mul<float>{}, n, c, ew::in(a, b), stream.get()));
  REQUIRE(std::string(ew::last_error_message()).empty());
  EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.get()));
  require_equal(f.dc.download(), [&](std::size_t i) { return ref_mul(f.a[i], f.b[i]); });
  f.require_guards();
}

TEST_CASE("cost of the debug-only pointer check next to a launch (printed, not asserted)", "[errors][cost]") {
  using clock = std::chrono::steady_clock;
  auto ns_per_call = [](int calls, auto&& f) {
    for (int i = 0; i < 100; ++i) f();  // warm up
    const auto t0 = clock::now();
    for (int i = 0; i < calls; ++i) f();
    return std::chrono::duration<double, std::nano>(clock::now() - t0).count() / calls;
  };
  device_array<float> dev(1 << 16);
  std::vector<float> pageable(1 << 16, 1.0f);
  float* pinned = nullptr;
  float* managed = nullptr;
  EW_REQUIRE_CUDA(cudaMallocHost(&pinned, (1 << 16) * sizeof(float)));
  EW_REQUIRE_CUDA(cudaMallocManaged(&managed, (1 << 16) * sizeof(float)));
  cudaPointerAttributes attr{};
  cudaMemoryType types[4] = {};
  const void* ptrs[4] = {dev.data() + 17, pageable.data() + 17, pinned + 17, managed + 17};
  double ns[4] = {};
  for (int k = 0; k < 4; ++k) {
    ns[k] = ns_per_call(20000, [&] { cudaPointerGetAttributes(&attr, ptrs[k]); });
    EW_REQUIRE_CUDA(cudaPointerGetAttributes(&attr, ptrs[k]));
    types[k] = attr.type;
  }
  owned_stream stream;
  cudaStreamCaptureStatus status{};
  const double capturing_ns = ns_per_call(20000, [&] { cudaStreamIsCapturing(stream.get(), &status); });
  int device = 0, pageable_access = 0;
  EW_REQUIRE_CUDA(cudaGetDevice(&device));
  EW_REQUIRE_CUDA(cudaDeviceGetAttribute(&pageable_access, cudaDevAttrPageableMemoryAccess, device));

  // Host time of one ew call (argument checks, cached queries, the launch) on a small array.
  device_array<float> x(1024), y(1024);
  x.upload(std::vector<float>(1024, 2.0f));
  settle();
  cudaError_t launch_err = cudaSuccess;
  const double launch_ns = ns_per_call(1000, [&] {
    const cudaError_t e =
        ew::elementwise(ew::add<float>{}, 1024, y.data(), ew::in(x.data(), x.data()), stream.get());
    if (e != cudaSuccess) launch_err = e;
  });
  EW_REQUIRE_CUDA(launch_err);
  EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.get()));
  std::printf(
      "cudaPointerGetAttributes, ns per call: device %.0f, pageable host %.0f, pinned host %.0f, managed "
      "%.0f\n"
      "cudaStreamIsCapturing (EW_DEBUG_SYNC, per launch): %.0f ns per call\n"
      "ew::elementwise host time (f32 add, 3 pointers, n=1024, default build): %.0f ns per call\n"
      "=> EW_CHECK_POINTERS adds one cudaPointerGetAttributes per pointer (~%.0f ns for 3 device pointers, "
      "%.0f%% of a call): debug only\n"
      "cudaDevAttrPageableMemoryAccess on device %d: %d (pageable host pointer reported as memory type %d)\n",
      ns[0], ns[1], ns[2], ns[3], capturing_ns, launch_ns, 3 * ns[0], 100.0 * 3 * ns[0] / launch_ns, device,
      pageable_access, static_cast<int>(types[1]));
  cudaFreeHost(pinned);
  cudaFree(managed);
  CHECK(types[0] == cudaMemoryTypeDevice);
  CHECK(types[2] == cudaMemoryTypeHost);
  CHECK(types[3] == cudaMemoryTypeManaged);
  require_equal(y.download(), [](std::size_t) { return 4.0f; });
  REQUIRE(y.guards_intact());
}
