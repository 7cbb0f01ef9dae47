// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Two GPUs (ctest gpu.multi_device): results stay right when the current device changes between calls
// (ew's per-device caches are keyed by the device cudaGetDevice names at each call), when a kernel is
// first launched on the second device, and when two host threads drive two devices at once; direct and
// through graphs. Catch2 v2 has no skip status, so a test that cannot run must not return early (it would
// show as passed): the tests are hidden ([.multi_device], left out of a plain run), ctest runs them as
// gpu.multi_device, `ew_gpu_tests --require-gpus 2 "[multi_device]"`, which exits with 77 (skipped) on a
// machine with fewer than 2 GPUs before any test starts, and a test run there by name fails. The per-device
// logic itself is also tested without a GPU, in tests/host/test_device_cache.cu.

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/functor_reference.cuh"
#include "../common/hardening_utils.cuh"
#include "../common/test_utils.cuh"

using namespace ew_test;

namespace {

// Launched first on device 1, then on device 0.
struct first_on_second_device {
  EW_HD
  float operator()(float a, float b) const { return a * 0.5f + b; }
};

/// Fails the test unless 2 GPUs are usable (ctest's gpu.multi_device is skipped before it gets here).
void require_two_gpus() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < 2) {
    cudaGetLastError();
    FAIL("needs 2 GPUs, found " << count
                                << ": run with --require-gpus 2, which skips the run (exit 77) on "
                                   "such a machine; the per-device logic is covered by host.device_cache");
  }
}

/// Guarded arrays and a stream on one device. The destructor makes the device current again before the
/// members free their memory.
struct on_device {
  int device;
  std::unique_ptr<device_scope> scope;
  std::size_t n;
  std::vector<float> a, b;
  std::unique_ptr<device_array<float>> da, db, dc;
  std::unique_ptr<owned_stream> stream;

  on_device(int d, std::size_t n_, std::uint64_t seed, std::size_t off)
      : device(d), scope(std::make_unique<device_scope>(d)), n(n_) {
    a = random_values<float>(n, seed);
    b = random_values<float>(n, seed + 1);
    da = std::make_unique<device_array<float>>(n, off);
    db = std::make_unique<device_array<float>>(n, off);
    dc = std::make_unique<device_array<float>>(n, off);
    da->upload(a);
    db->upload(b);
    dc->poison();
    stream = std::make_unique<owned_stream>();
    settle();
    scope.reset();  // back to the device that was current
  }
  ~on_device() {
    cudaSetDevice(device);
    stream.reset();
    dc.reset();
    db.reset();
    da.reset();
  }
};

/// Checks c == a * 0.5 + b or a + b (per `first_op`) and the guards, with `d.device` current. The inputs are
/// in +-[0.25, 8), so no result is the poison (1.5e16): an unwritten element fails the comparison.
void require_result(on_device& d, bool first_op) {
  INFO("device " << d.device);
  device_scope scope(d.device);
  const std::vector<float> c = d.dc->download();
  std::size_t bad = 0;
  for (std::size_t i = 0; i < d.n; ++i) {
    const float want = first_op ? d.a[i] * 0.5f + d.b[i] : ref_add(d.a[i], d.b[i]);
    bad += !same_bits(c[i], want);
  }
  REQUIRE(bad == 0);
  REQUIRE(d.da->guards_intact());
  REQUIRE(d.db->guards_intact());
  REQUIRE(d.dc->guards_intact());
  d.dc->poison();
  settle();
}

}  // namespace

TEST_CASE("the current device changes between calls", "[.multi_device][graph][guard]") {
  require_two_gpus();
  int previous = 0;
  EW_REQUIRE_CUDA(cudaGetDevice(&previous));
  const std::uint64_t seed = base_seed();
  on_device d0(0, 1000003, seed, 1), d1(1, 1000003, seed + 10, 3);
  on_device* devs[2] = {&d0, &d1};
  // A kernel's first launch on device 1, then on device 0: the programmatic-wait cache is per device.
  for (int k : {1, 0}) {
    on_device& d = *devs[k];
    EW_REQUIRE_CUDA(cudaSetDevice(d.device));
    EW_REQUIRE_CUDA(ew::elementwise(first_on_second_device{}, d.n, d.dc->data(),
                                    ew::in(d.da->data(), d.db->data()), d.stream->get()));
    EW_REQUIRE_CUDA(cudaStreamSynchronize(d.stream->get()));
    require_result(d, true);
  }
  // Alternate devices on every call, directly and through graphs.
  for (int it = 0; it < 8; ++it) {
    on_device& d = *devs[it % 2];
    const launch_mode mode = it / 2 % 2 ? launch_mode::graph : launch_mode::direct;
    INFO("call " << it << " on device " << d.device << ", " << mode_name(mode));
    EW_REQUIRE_CUDA(cudaSetDevice(d.device));
    EW_REQUIRE_CUDA(run_in_mode(mode, d.stream->get(), [&](cudaStream_t s) {
      return ew::elementwise(ew::add<float>{}, d.n, d.dc->data(), ew::in(d.da->data(), d.db->data()), s);
    }));
    require_result(d, false);
  }
  // Both devices have their own facts in the cache.
  ew::detail::device_facts f0{}, f1{};
  EW_REQUIRE_CUDA(ew::detail::query_device_facts(0, f0));
  EW_REQUIRE_CUDA(ew::detail::query_device_facts(1, f1));
  cudaDeviceProp p0{}, p1{};
  EW_REQUIRE_CUDA(cudaGetDeviceProperties(&p0, 0));
  EW_REQUIRE_CUDA(cudaGetDeviceProperties(&p1, 1));
  REQUIRE(f0.sm_count == p0.multiProcessorCount);
  REQUIRE(f1.sm_count == p1.multiProcessorCount);
  REQUIRE(f0.cc == p0.major * 10 + p0.minor);
  REQUIRE(f1.cc == p1.major * 10 + p1.minor);
  EW_REQUIRE_CUDA(cudaSetDevice(previous));
}

// Not tagged [concurrency]: gpu.concurrency must not select it on a one-GPU machine.
TEST_CASE("two host threads drive two devices at once", "[.multi_device][graph][guard]") {
  require_two_gpus();
  const std::uint64_t seed = base_seed();
  const std::size_t n = 1 << 20;
  on_device d0(0, n, seed, 0), d1(1, n, seed + 10, 5);
  on_device* devs[2] = {&d0, &d1};
  std::string errors[2];
  std::atomic<int> ready{0};
  std::vector<std::thread> pool;
  for (int k = 0; k < 2; ++k) {
    pool.emplace_back([&, k] {
      on_device& d = *devs[k];
      cudaError_t err = cudaSetDevice(d.device);  // the current device is per host thread
      ready.fetch_add(1);
      while (ready.load() < 2) std::this_thread::yield();
      std::vector<float> c(d.n);
      for (int it = 0; it < 40 && err == cudaSuccess; ++it) {
        const cudaStream_t s = d.stream->get();
        if (it % 4 == 3) {
          // Through a graph captured on this thread.
          cudaGraph_t graph = nullptr;
          cudaGraphExec_t exec = nullptr;
          err = cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
          if (err == cudaSuccess) {
            const cudaError_t issued =
                ew::elementwise(ew::add<float>{}, d.n, d.dc->data(), ew::in(d.da->data(), d.db->data()), s);
            err = cudaStreamEndCapture(s, &graph);
            if (issued != cudaSuccess) err = issued;
          }
          if (err == cudaSuccess) err = cudaGraphInstantiate(&exec, graph, 0);
          if (err == cudaSuccess) err = cudaGraphLaunch(exec, s);
          if (exec) cudaGraphExecDestroy(exec);
          if (graph) cudaGraphDestroy(graph);
        } else {
          err = ew::elementwise(ew::add<float>{}, d.n, d.dc->data(), ew::in(d.da->data(), d.db->data()), s);
        }
        if (err == cudaSuccess)
          err = cudaMemcpyAsync(c.data(), d.dc->data(), d.n * sizeof(float), cudaMemcpyDeviceToHost, s);
        if (err == cudaSuccess) err = cudaStreamSynchronize(s);
        if (err == cudaSuccess) err = cudaMemsetAsync(d.dc->data(), poison_byte, d.n * sizeof(float), s);
        for (std::size_t i = 0; i < d.n && err == cudaSuccess; ++i) {
          if (!same_bits(c[i], ref_add(d.a[i], d.b[i]))) {
            errors[k] = "iteration " + std::to_string(it) + ", element " + std::to_string(i) + " wrong";
            return;
          }
        }
      }
      if (err == cudaSuccess) err = cudaStreamSynchronize(d.stream->get());
      if (err != cudaSuccess)
        errors[k] = std::string(cudaGetErrorName(err)) + ": " + ew::last_error_message();
    });
  }
  for (auto& t : pool) t.join();
  for (int k = 0; k < 2; ++k) {
    INFO("device " << k << ": " << errors[k]);
    CHECK(errors[k].empty());
    device_scope scope(k);
    REQUIRE(devs[k]->da->guards_intact());
    REQUIRE(devs[k]->db->guards_intact());
    REQUIRE(devs[k]->dc->guards_intact());
  }
}
