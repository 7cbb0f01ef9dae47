// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Hardening on the GPU (ctest gpu.hardening): rejected calls write nothing and capture nothing; n == 0
// captures nothing; captured graphs replay with new data, on another stream, in every capture mode, and a
// kernel's first use may happen inside a capture; every kind of stream (non-blocking, blocking, legacy,
// per-thread) keeps ew's launches in order with the kernels and copies around them; a launch that CUDA
// refuses returns CUDA's error; and the cost of the debug-only pointer check, printed. Guard bands are
// checked after every launch.

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <ew/elementwise.cuh>

#include "../common/hardening_utils.cuh"
#include "../common/reference.cuh"
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

template <class T>
bool same_bytes(const std::vector<T>& x, const std::vector<T>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0;
}

/// Inputs a, b and output c of n floats, at element offset 1, uploaded and settled.
struct fixture {
  std::size_t n;
  std::vector<float> a, b, c;
  device_array<float> da, db, dc;
  fixture(std::size_t n_, std::uint64_t seed)
      : n(n_),
        a(random_values<float>(n_, seed)),
        b(random_values<float>(n_, seed + 1)),
        c(random_values<float>(n_, seed + 2)),
        da(n_, 1),
        db(n_, 1),
        dc(n_, 1) {
    da.upload(a);
    db.upload(b);
    dc.upload(c);
    settle();
  }
  /// Every array holds what was uploaded, and every guard band is intact.
  void require_untouched() const {
    REQUIRE(same_bytes(da.download(), a));
    REQUIRE(same_bytes(db.download(), b));
    REQUIRE(same_bytes(dc.download(), c));
    require_guards();
  }
  void require_guards() const {
    REQUIRE(da.guards_intact());
    REQUIRE(db.guards_intact());
    REQUIRE(dc.guards_intact());
  }
};

/// Checks `got[i] == want(i)` bit for bit (within `ulps`), reporting the first mismatch.
template <class T, class Want>
void require_equal(const std::vector<T>& got, Want&& want, std::uint64_t ulps = 0) {
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (ulp_distance<T>(got[i], want(i)) > ulps && bad++ == 0) first = i;
  }
  INFO(bad << " wrong of " << got.size() << ", first at " << first);
  REQUIRE(bad == 0);
}

}  // namespace

TEST_CASE("rejected calls return cudaErrorInvalidValue, write nothing and capture nothing",
          "[hardening][errors][guard][graph]") {
  const std::uint64_t seed = base_seed();
  INFO("seed " << seed);
  fixture f(100003, seed);
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

TEST_CASE("n == 0 launches nothing and captures nothing, with real or null pointers", "[hardening][graph]") {
  fixture f(1000, base_seed());
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
          "[hardening][graph][guard]") {
  for (cudaStreamCaptureMode cm :
       {cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal, cudaStreamCaptureModeRelaxed}) {
    INFO("capture mode " << capture_mode_name(cm));
    const std::uint64_t seed = base_seed() + static_cast<std::uint64_t>(cm);
    fixture f(262147, seed);
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

TEST_CASE("a kernel's first use may happen inside a capture", "[hardening][graph][guard]") {
  // Nothing has launched these functors' kernels before: CUDA's lazy module load (and any query ew makes
  // on a kernel's first launch) runs while the stream captures, in global mode (the strictest) and on the
  // per-thread default stream.
  const std::uint64_t seed = base_seed();
  fixture f(65537, seed);
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

namespace {

/// out[i] = 2 * in[i] (exact): plain kernels before and after ew's launches in the same stream.
template <class T>
__global__ void times_two(const T* in, T* out, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x) {
    out[i] = ew::convert<T>(ew::convert<float>(in[i]) * 2.0f);
  }
}

/// A plain kernel a2 = 2a, then ew c = a2 + b, then ew d = c * b, then a plain kernel e = 2d, all on one
/// stream with no synchronization between them: each step must see the previous one's output (ew launches
/// with programmatic stream serialization on sm_90, so its kernels may start early and must wait for
/// their inputs). In `mode`; on a legacy stream in direct mode the result is read back with a plain
/// cudaMemcpy and no stream synchronization (the legacy stream orders it after the kernels).
template <class T>
void check_chain(cudaStream_t stream, bool legacy, launch_mode mode, std::size_t n,
                 const std::array<std::size_t, 4>& off, std::uint64_t seed) {
  INFO(type_name<T>() << " n=" << n << " offsets " << off[0] << "," << off[1] << "," << off[2] << ","
                      << off[3]);
  const std::vector<T> a = random_values<T>(n, seed), b = random_values<T>(n, seed + 1);
  device_array<T> da(n, off[0]), db(n, off[1]), dc(n, off[2]), dd(n, off[3]), da2(n, 0), de(n, 0);
  da.upload(a);
  db.upload(b);
  for (device_array<T>* p : {&dc, &dd, &da2, &de}) p->poison();
  settle();
  auto issue = [&](cudaStream_t s) {
    times_two<<<64, 256, 0, s>>>(da.data(), da2.data(), n);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
      e = ew::elementwise(ew::add<T>{}, n, dc.data(), ew::in<T, T>(da2.data(), db.data()), s);
    if (e == cudaSuccess)
      e = ew::elementwise(ew::mul<T>{}, n, dd.data(), ew::in<T, T>(dc.data(), db.data()), s);
    if (e == cudaSuccess) {
      times_two<<<64, 256, 0, s>>>(dd.data(), de.data(), n);
      e = cudaGetLastError();
    }
    return e;
  };
  if (legacy && mode == launch_mode::direct) {
    EW_REQUIRE_CUDA(issue(stream));
  } else {
    EW_REQUIRE_CUDA(run_in_mode(mode, stream, issue));
  }
  const std::vector<T> e = de.download(), d = dd.download(), c = dc.download(), a2 = da2.download();
  require_equal(a2, [&](std::size_t i) { return from_double<T>(to_double(a[i]) * 2); });
  require_equal(
      c, [&](std::size_t i) { return ref_add(a2[i], b[i]); }, arith_ulps<T>());
  require_equal(
      d, [&](std::size_t i) { return ref_mul(c[i], b[i]); }, arith_ulps<T>());
  require_equal(e, [&](std::size_t i) { return from_double<T>(to_double(d[i]) * 2); });
  for (device_array<T>* p : {&da, &db, &dc, &dd, &da2, &de}) REQUIRE(p->guards_intact());
}

}  // namespace

TEST_CASE("the launcher works on every kind of stream, in order with the work around it",
          "[hardening][streams][graph][guard]") {
  owned_stream non_blocking(cudaStreamNonBlocking), blocking(cudaStreamDefault);
  struct kind {
    const char* name;
    cudaStream_t stream;
    bool legacy;  // the legacy default stream cannot be captured
  };
  const kind kinds[] = {{"created, cudaStreamNonBlocking", non_blocking.get(), false},
                        {"created, blocking", blocking.get(), false},
                        {"0 (legacy default stream)", nullptr, true},
                        {"cudaStreamLegacy", cudaStreamLegacy, true},
                        {"cudaStreamPerThread", cudaStreamPerThread, false}};
  const std::uint64_t seed = base_seed();
  for (const kind& k : kinds) {
    for (launch_mode mode : {launch_mode::direct, launch_mode::graph}) {
      if (k.legacy && mode == launch_mode::graph) continue;
      INFO("stream " << k.name << ", " << mode_name(mode) << ", seed " << seed);
      check_chain<float>(k.stream, k.legacy, mode, 1000003, {1, 1, 1, 1}, seed);  // vector path after a head
      check_chain<__half>(k.stream, k.legacy, mode, 4099, {0, 1, 2, 3}, seed + 1);  // scalar path
    }
  }
}

// Tagged [api_errors]: it makes CUDA API calls fail on purpose, which compute-sanitizer counts as errors;
// run the sanitizers with the filter ~[api_errors] (and ~[large]).
TEST_CASE("a launch CUDA refuses returns CUDA's error, and ew stays usable",
          "[hardening][errors][graph][api_errors]") {
  fixture f(4099, base_seed());
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

TEST_CASE("cost of the debug-only pointer check next to a launch (printed, not asserted)",
          "[hardening][cost]") {
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
