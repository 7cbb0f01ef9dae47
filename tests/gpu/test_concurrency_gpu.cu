// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Concurrency on the GPU (ctest gpu.concurrency): host threads launching at once, each on its own stream
// (a created one or its per-thread default stream), directly and through graphs they capture at the same
// time; the first launch of a kernel raced from every thread (its programmatic-wait query and lazy module
// load happen concurrently, in direct mode and under capture); and threads sharing one stream. Worker threads
// make no Catch2 assertion (Catch2 is not thread-safe): each records its first failure, and the main
// thread asserts after joining.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <sstream>
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

constexpr int threads = 8;
constexpr std::size_t max_n = (std::size_t{1} << 20) + 7;
constexpr std::size_t max_offset = 7;
constexpr std::size_t region_bytes = (max_n + max_offset) * 8;

// Functors used only here: the tests below make their kernels' first launch happen from every thread at
// once. Their constants are powers of two, so the host reference gives the same bits whether or not the
// device compiler fuses the multiply and the add.
struct cold_vector_op {
  EW_HD
  float operator()(float a, float b) const { return a * 0.25f - b; }
};
struct cold_scalar_op {
  EW_HD
  float operator()(float a, float b) const { return a + b * 4.0f; }
};
struct cold_in_capture_op {
  EW_HD
  float operator()(float a, float b) const { return a - b * 0.5f; }
};

/// One thread's stream and guarded buffers (allocated on the main thread), and its first failure.
struct worker {
  guarded_buffer a, b, c;
  cudaStream_t stream = nullptr;
  bool own_stream = false;
  std::string error;

  void init(bool per_thread_stream) {
    REQUIRE(a.init(region_bytes, 0) == cudaSuccess);
    REQUIRE(b.init(region_bytes, 0) == cudaSuccess);
    REQUIRE(c.init(region_bytes, 0) == cudaSuccess);
    if (per_thread_stream) {
      stream = cudaStreamPerThread;  // resolves to the calling thread's own stream
    } else {
      REQUIRE(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess);
      own_stream = true;
    }
  }
  ~worker() {
    if (own_stream) cudaStreamDestroy(stream);
  }
  /// Records the first failure; returns false.
  bool failed(const std::string& what) {
    if (error.empty()) error = what;
    return false;
  }
};

/// Runs `c = op(a, b)` on n elements of T at element offset `off` in the worker's buffers, in `mode`, and
/// checks the result, the poisoned bytes around it and the guard bands. No Catch2 inside.
template <class T, class Op, class Ref>
bool binary_job(worker& w, const char* name, Op op, Ref ref, std::uint64_t ulps, std::size_t n,
                std::size_t off, launch_mode mode, std::uint64_t seed) {
  std::ostringstream where;
  where << name << " " << type_name<T>() << " n=" << n << " offset " << off << " " << mode_name(mode)
        << " seed " << seed << ": ";
  const cudaStream_t s = w.stream;
  T* const a = static_cast<T*>(w.a.data()) + off;
  T* const b = static_cast<T*>(w.b.data()) + off;
  T* const c = static_cast<T*>(w.c.data()) + off;
  std::vector<T> ha(n), hb(n);
  for (std::size_t i = 0; i < n; ++i) {
    ha[i] = input_value<T>(seed, i);
    hb[i] = input_value<T>(seed + 1, i);
  }
  cudaError_t err = put(a, ha.data(), n * sizeof(T), s);
  if (err == cudaSuccess) err = put(b, hb.data(), n * sizeof(T), s);
  if (err == cudaSuccess) err = cudaMemsetAsync(w.c.data(), poison_byte, region_bytes, s);
  if (err != cudaSuccess) return w.failed(where.str() + "set-up: " + cudaGetErrorString(err));

  if (mode == launch_mode::direct) {
    err = ew::elementwise(op, n, c, ew::in<T, T>(a, b), s);
    if (err == cudaSuccess) err = cudaStreamSynchronize(s);
  } else {
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    err = cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
    if (err == cudaSuccess) {
      const cudaError_t issued = ew::elementwise(op, n, c, ew::in<T, T>(a, b), s);
      err = cudaStreamEndCapture(s, &graph);
      if (issued != cudaSuccess) err = issued;
    }
    if (err == cudaSuccess) err = cudaGraphInstantiate(&exec, graph, 0);
    if (err == cudaSuccess) err = cudaGraphLaunch(exec, s);
    if (err == cudaSuccess) err = cudaStreamSynchronize(s);
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
  }
  if (err != cudaSuccess) {
    return w.failed(where.str() + "launch: " + cudaGetErrorString(err) + " / " + ew::last_error_message());
  }

  // The output, the poisoned offset gap before it and up to 4 KiB of poison after it.
  const std::size_t window = std::min(region_bytes, (off + n) * sizeof(T) + 4096);
  std::vector<unsigned char> got(window);
  err = get(got.data(), w.c.data(), window, s);
  if (err != cudaSuccess) return w.failed(where.str() + "read-back: " + cudaGetErrorString(err));
  for (std::size_t i = 0; i < n; ++i) {
    T v;
    std::memcpy(&v, got.data() + (off + i) * sizeof(T), sizeof(T));
    if (ulp_distance<T>(v, ref(ha[i], hb[i])) > ulps) {
      std::ostringstream e;
      e << "element " << i << " got " << to_double(v) << " want " << to_double(ref(ha[i], hb[i]));
      return w.failed(where.str() + e.str());
    }
  }
  for (std::size_t k = 0; k < window; ++k) {
    if (k >= off * sizeof(T) && k < (off + n) * sizeof(T)) continue;
    if (got[k] != poison_byte)
      return w.failed(where.str() + "byte " + std::to_string(k) + " outside the output written");
  }
  bool ok_a = false, ok_b = false, ok_c = false;
  w.a.guards_intact(s, ok_a);
  w.b.guards_intact(s, ok_b);
  w.c.guards_intact(s, ok_c);
  if (!ok_a || !ok_b || !ok_c) return w.failed(where.str() + "guard band overwritten");
  return true;
}

/// Starts `body(t)` on `threads` threads at once and joins them.
template <class Body>
void run_together(Body&& body) {
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      ready.fetch_add(1);
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      body(t);
    });
  }
  while (ready.load() < threads) std::this_thread::yield();
  go.store(true, std::memory_order_release);
  for (auto& th : pool) th.join();
}

void require_no_failures(const std::vector<worker>& workers) {
  for (std::size_t t = 0; t < workers.size(); ++t) {
    INFO("thread " << t << ": " << workers[t].error);
    CHECK(workers[t].error.empty());
  }
}

}  // namespace

TEST_CASE("threads launching at once on their own streams, directly and through graphs, all correct",
          "[concurrency][graph][guard]") {
  const std::uint64_t seed = base_seed();
  INFO("seed " << seed << " (EW_TEST_SEED replays)");
  std::vector<worker> workers(threads);
  for (int t = 0; t < threads; ++t) workers[t].init(t % 2 == 1);  // odd threads use cudaStreamPerThread
  constexpr int iterations = 24;
  run_together([&](int t) {
    worker& w = workers[t];
    for (int it = 0; it < iterations; ++it) {
      rng64 g(mix64(seed ^ mix64(static_cast<std::uint64_t>(t) << 32 | static_cast<std::uint64_t>(it))));
      const std::size_t n = g.chance(1, 12) ? max_n - g.below(8) : g.below(65537);
      const std::size_t off = g.chance(1, 2) ? 0 : g.below(max_offset + 1);
      const launch_mode mode = g.chance(1, 3) ? launch_mode::graph : launch_mode::direct;
      const std::uint64_t data_seed = g.next();
      bool ok = true;
      switch (g.below(5)) {
        case 0:
          ok = binary_job<float>(
              w, "add", ew::add<float>{}, [](float x, float y) { return ref_add(x, y); }, 0, n, off, mode,
              data_seed);
          break;
        case 1:
          ok = binary_job<double>(
              w, "mul", ew::mul<double>{}, [](double x, double y) { return ref_mul(x, y); }, 0, n, off, mode,
              data_seed);
          break;
        case 2:
          ok = binary_job<__half>(
              w, "sub", ew::sub<__half>{}, [](__half x, __half y) { return ref_sub(x, y); }, 0, n, off, mode,
              data_seed);
          break;
        case 3:
          ok = binary_job<std::int32_t>(
              w, "add", ew::add<std::int32_t>{}, [](std::int32_t x, std::int32_t y) { return ref_add(x, y); },
              0, n, off, mode, data_seed);
          break;
        default:
          ok = binary_job<__nv_bfloat16>(
              w, "mul", ew::mul<__nv_bfloat16>{},
              [](__nv_bfloat16 x, __nv_bfloat16 y) { return ref_mul(x, y); }, 0, n, off, mode, data_seed);
          break;
      }
      if (!ok) break;
    }
  });
  require_no_failures(workers);
}

TEST_CASE("the first launch of a kernel, raced from every thread, directly and under capture",
          "[concurrency][graph][guard]") {
  // Nothing launched these functors before: every thread hits the cold programmatic-wait cache (and CUDA's
  // lazy module load) at the same moment. Vector path (common offsets), scalar path (different offsets, with
  // a functor of its own, so its kernel is cold too), and a third functor whose first launches are all inside
  // concurrent captures.
  const std::uint64_t seed = base_seed();
  std::vector<worker> workers(threads);
  for (int t = 0; t < threads; ++t) workers[t].init(false);
  const std::size_t n = 100003;
  run_together([&](int t) {
    worker& w = workers[t];
    const std::uint64_t s = seed + static_cast<std::uint64_t>(t);
    if (binary_job<float>(
            w, "cold vector", cold_vector_op{}, [](float a, float b) { return a * 0.25f - b; }, 0, n, 0,
            launch_mode::direct, s)) {
      binary_job<float>(
          w, "cold in capture", cold_in_capture_op{}, [](float a, float b) { return a - b * 0.5f; }, 0, n, 3,
          launch_mode::graph, s + 100);
    }
  });
  require_no_failures(workers);
  // The scalar path: the output at another offset than the inputs.
  run_together([&](int t) {
    worker& w = workers[t];
    const std::size_t off = 1;
    float* const a = static_cast<float*>(w.a.data());
    float* const b = static_cast<float*>(w.b.data());
    float* const c = static_cast<float*>(w.c.data()) + off;
    std::vector<float> ha(n), hb(n), hc(n);
    for (std::size_t i = 0; i < n; ++i) {
      ha[i] = input_value<float>(seed + 7, i);
      hb[i] = input_value<float>(seed + 8, i);
    }
    cudaError_t err = put(a, ha.data(), n * sizeof(float), w.stream);
    if (err == cudaSuccess) err = put(b, hb.data(), n * sizeof(float), w.stream);
    if (err == cudaSuccess)
      err = ew::elementwise(cold_scalar_op{}, n, c, ew::in<float, float>(a, b), w.stream);
    if (err == cudaSuccess) err = get(hc.data(), c, n * sizeof(float), w.stream);
    if (err != cudaSuccess) {
      w.failed(std::string("cold scalar path: ") + cudaGetErrorString(err));
      return;
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (!same_bits(hc[i], ha[i] + hb[i] * 4.0f)) {
        w.failed("cold scalar path: element " + std::to_string(i) + " wrong");
        return;
      }
    }
    bool ok = false;
    w.c.guards_intact(w.stream, ok);
    if (!ok) w.failed("cold scalar path: guard band overwritten");
  });
  require_no_failures(workers);
}

TEST_CASE("threads sharing one stream: each thread's launches stay in its order", "[concurrency][guard]") {
  // Each thread issues c = a + b, then d = c * b, then c = d - a, 20 times, on one shared stream with no
  // synchronization; the stream runs them in issue order, so each thread's chain holds at the end.
  const std::uint64_t seed = base_seed();
  owned_stream shared;
  const std::size_t n = 65537;
  struct buffers {
    guarded_buffer a, b, c, d;
    std::vector<float> ha, hb;
    std::string error;
  };
  std::vector<buffers> bufs(threads);
  for (int t = 0; t < threads; ++t) {
    buffers& x = bufs[t];
    REQUIRE(x.a.init(n * sizeof(float), 4) == cudaSuccess);
    REQUIRE(x.b.init(n * sizeof(float), 4) == cudaSuccess);
    REQUIRE(x.c.init(n * sizeof(float), 4) == cudaSuccess);
    REQUIRE(x.d.init(n * sizeof(float), 4) == cudaSuccess);
    x.ha.resize(n);
    x.hb.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      x.ha[i] = input_value<float>(seed + 2 * t, i);
      x.hb[i] = input_value<float>(seed + 2 * t + 1, i);
    }
    REQUIRE(put(x.a.data(), x.ha.data(), n * sizeof(float), shared.get()) == cudaSuccess);
    REQUIRE(put(x.b.data(), x.hb.data(), n * sizeof(float), shared.get()) == cudaSuccess);
  }
  run_together([&](int t) {
    buffers& x = bufs[t];
    float* const a = static_cast<float*>(x.a.data());
    float* const b = static_cast<float*>(x.b.data());
    float* const c = static_cast<float*>(x.c.data());
    float* const d = static_cast<float*>(x.d.data());
    for (int it = 0; it < 20; ++it) {
      cudaError_t err = ew::elementwise(ew::add<float>{}, n, c, ew::in<float, float>(a, b), shared.get());
      if (err == cudaSuccess)
        err = ew::elementwise(ew::mul<float>{}, n, d, ew::in<float, float>(c, b), shared.get());
      if (err == cudaSuccess)
        err = ew::elementwise(ew::sub<float>{}, n, c, ew::in<float, float>(d, a), shared.get());
      if (err != cudaSuccess) {
        x.error = cudaGetErrorString(err);
        return;
      }
    }
  });
  EW_REQUIRE_CUDA(cudaStreamSynchronize(shared.get()));
  for (int t = 0; t < threads; ++t) {
    buffers& x = bufs[t];
    INFO("thread " << t << " " << x.error);
    REQUIRE(x.error.empty());
    std::vector<float> c(n);
    EW_REQUIRE_CUDA(get(c.data(), x.c.data(), n * sizeof(float), shared.get()));
    std::size_t bad = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const float want = ref_sub(ref_mul(ref_add(x.ha[i], x.hb[i]), x.hb[i]), x.ha[i]);
      bad += !same_bits(c[i], want);
    }
    REQUIRE(bad == 0);
    for (guarded_buffer* r : {&x.a, &x.b, &x.c, &x.d}) {
      bool ok = false;
      EW_REQUIRE_CUDA(r->guards_intact(shared.get(), ok));
      REQUIRE(ok);
    }
  }
}
