// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Stream capture on the GPU (ctest gpu.capture): n == 0 launches nothing and captures nothing, with real or
// null pointers, and adds no node between two real launches; a captured launch replays with new data, on
// another stream, in every capture mode; and a kernel's first use (CUDA's lazy module load, ew's first
// queries for it) may happen inside a capture, in global mode and on the per-thread default stream. Guard
// bands are checked after every launch.

#include <cstdint>
#include <string>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/functor_reference.cuh"
#include "../common/hardening_utils.cuh"
#include "../common/test_utils.cuh"

using namespace ew_test;

namespace {

// Each used by one test only, inside a capture: their kernels' first launch (CUDA's lazy module load, and
// ew's first queries for them) happens while the stream is capturing.
struct first_used_in_global_capture {
  EW_HD
  float operator()(float a, float b) const { return a * 2.0f + b; }
};
struct first_used_in_thread_local_capture {
  EW_HD
  float operator()(float a) const { return a - 1.0f; }
};

}  // namespace

TEST_CASE("n == 0 launches nothing and captures nothing, with real or null pointers", "[capture][graph]") {
  abc_fixture f(1000, base_seed());
  owned_stream stream;
  float* const a = f.da.data();
  float* const b = f.db.data();
  float* const c = f.dc.data();
  auto empty_calls = [&](cudaStream_t s) {
    cudaError_t e = ew::elementwise(ew::add<float>{}, 0, c, ew::in(a, b), s);
    if (e == cudaSuccess) e = ew::elementwise(ew::relu<float>{}, 0, static_cast<float*>(nullptr), a, s);
    if (e == cudaSuccess) e = ew::elementwise(ew::add<float>{}, 0, c, ew::in<float, float>(c + 1, c), s);
    return e;
  };
  EW_REQUIRE_CUDA(empty_calls(stream.get()));
  REQUIRE(std::string(ew::last_error_message()).empty());
  EW_REQUIRE_CUDA(cudaStreamSynchronize(stream.get()));
  f.require_untouched();
  {
    owned_graph g;
    cudaError_t ended = cudaSuccess;
    EW_REQUIRE_CUDA(capture(g, stream.get(), cudaStreamCaptureModeGlobal, empty_calls, ended));
    EW_REQUIRE_CUDA(ended);
    REQUIRE(g.nodes() == 0);
    EW_REQUIRE_CUDA(g.replay(stream.get()));  // an empty graph instantiates and runs
    f.require_untouched();
  }
  {
    // Between two real launches, an n == 0 call adds no node.
    owned_graph g;
    cudaError_t ended = cudaSuccess;
    EW_REQUIRE_CUDA(capture(
        g, stream.get(), cudaStreamCaptureModeGlobal,
        [&](cudaStream_t s) {
          cudaError_t e = ew::elementwise(ew::add<float>{}, f.n, c, ew::in(a, b), s);
          if (e == cudaSuccess) e = empty_calls(s);
          if (e == cudaSuccess)
            e = ew::elementwise(ew::relu<float>{}, f.n, c, static_cast<const float*>(c), s);
          return e;
        },
        ended));
    EW_REQUIRE_CUDA(ended);
    REQUIRE(g.nodes() == 2);
    EW_REQUIRE_CUDA(g.replay(stream.get()));
    require_equal(f.dc.download(), [&](std::size_t i) { return ref_relu(ref_add(f.a[i], f.b[i])); });
    f.require_guards();
  }
}

TEST_CASE("a captured launch replays with new data, on another stream, in every capture mode",
          "[capture][graph][guard]") {
  for (cudaStreamCaptureMode cm :
       {cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal, cudaStreamCaptureModeRelaxed}) {
    INFO("capture mode " << capture_mode_name(cm));
    const std::uint64_t seed = base_seed() + static_cast<std::uint64_t>(cm);
    abc_fixture f(262147, seed);
    owned_stream s1, s2;
    owned_graph g;
    cudaError_t ended = cudaSuccess;
    EW_REQUIRE_CUDA(capture(
        g, s1.get(), cm,
        [&](cudaStream_t s) {
          return ew::elementwise(ew::add<float>{}, f.n, f.dc.data(), ew::in(f.da.data(), f.db.data()), s);
        },
        ended));
    EW_REQUIRE_CUDA(ended);
    REQUIRE(g.nodes() == 1);
    for (int rep = 0; rep < 3; ++rep) {
      INFO("replay " << rep);
      // The graph holds the pointers, not the data: new inputs, a poisoned output, then replay.
      const std::vector<float> a = random_values<float>(f.n, seed + 10 + rep);
      EW_REQUIRE_CUDA(put(f.da.data(), a.data(), f.n * sizeof(float), s1.get()));
      EW_REQUIRE_CUDA(cudaMemsetAsync(f.dc.data(), 0xFF, f.n * sizeof(float), s1.get()));
      EW_REQUIRE_CUDA(cudaStreamSynchronize(s1.get()));
      EW_REQUIRE_CUDA(g.replay(rep == 2 ? s2.get() : s1.get()));
      require_equal(f.dc.download(), [&](std::size_t i) { return ref_add(a[i], f.b[i]); });
      f.require_guards();
    }
  }
}

TEST_CASE("a kernel's first use may happen inside a capture", "[capture][graph][guard]") {
  // Nothing has launched these functors' kernels before: CUDA's lazy module load (and any query ew makes
  // on a kernel's first launch) runs while the stream captures, in global mode (the strictest) and on the
  // per-thread default stream.
  const std::uint64_t seed = base_seed();
  abc_fixture f(65537, seed);
  {
    owned_stream stream;
    owned_graph g;
    cudaError_t ended = cudaSuccess;
    EW_REQUIRE_CUDA(capture(
        g, stream.get(), cudaStreamCaptureModeGlobal,
        [&](cudaStream_t s) {
          return ew::elementwise(first_used_in_global_capture{}, f.n, f.dc.data(),
                                 ew::in(f.da.data(), f.db.data()), s);
        },
        ended));
    EW_REQUIRE_CUDA(ended);
    REQUIRE(g.nodes() == 1);
    EW_REQUIRE_CUDA(g.replay(stream.get()));
    require_equal(f.dc.download(), [&](std::size_t i) { return f.a[i] * 2.0f + f.b[i]; });
    f.require_guards();
  }
  {
    owned_graph g;
    cudaError_t ended = cudaSuccess;
    EW_REQUIRE_CUDA(capture(
        g, cudaStreamPerThread, cudaStreamCaptureModeThreadLocal,
        [&](cudaStream_t s) {
          return ew::elementwise(first_used_in_thread_local_capture{}, f.n, f.dc.data(),
                                 static_cast<const float*>(f.da.data()), s);
        },
        ended));
    EW_REQUIRE_CUDA(ended);
    REQUIRE(g.nodes() == 1);
    EW_REQUIRE_CUDA(g.replay(cudaStreamPerThread));
    require_equal(f.dc.download(), [&](std::size_t i) { return f.a[i] - 1.0f; });
    f.require_guards();
  }
}
