// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// Helpers for the GPU tests of streams, graphs, threads, devices and errors: RAII handles for streams and
// graphs, capture with a chosen capture mode, stream-ordered copies that worker threads can use (no Catch2
// assertions inside; the guarded buffer they copy to is test_utils.cuh's guarded_buffer), a counter-based
// random generator, and a small fixture of three guarded float arrays. Test code only.
//
// Ordering rule these tests follow: cudaMemset and a pageable cudaMemcpy run on the legacy default stream
// and may still be in flight when they return, and a stream created with cudaStreamNonBlocking does not
// wait for the legacy stream. So every set-up that goes through device_array (upload, poison) is followed
// by `settle()` (a device synchronization) before a launch on another stream, and the stream-ordered
// helpers here copy on the launch's own stream.

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "catch.hpp"

#include "test_utils.cuh"

namespace ew_test {

/// Waits for all device work, so set-up on the legacy stream is done before a launch on any other stream.
inline void settle() { EW_REQUIRE_CUDA(cudaDeviceSynchronize()); }

/// A created stream, destroyed on scope exit.
class owned_stream {
 public:
  explicit owned_stream(unsigned flags = cudaStreamNonBlocking) {
    EW_REQUIRE_CUDA(cudaStreamCreateWithFlags(&s_, flags));
  }
  ~owned_stream() {
    if (s_) cudaStreamDestroy(s_);
  }
  owned_stream(const owned_stream&) = delete;
  owned_stream& operator=(const owned_stream&) = delete;
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

/// A captured graph and its executable, destroyed on scope exit.
struct owned_graph {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  owned_graph() = default;
  owned_graph(const owned_graph&) = delete;
  owned_graph& operator=(const owned_graph&) = delete;
  ~owned_graph() {
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
  }
  /// Nodes in the captured graph.
  std::size_t nodes() const {
    std::size_t count = 0;
    if (graph == nullptr || cudaGraphGetNodes(graph, nullptr, &count) != cudaSuccess) return SIZE_MAX;
    return count;
  }
  /// Instantiates (once) and launches the graph on `stream`, then waits for it.
  cudaError_t replay(cudaStream_t stream) {
    cudaError_t err = cudaSuccess;
    if (exec == nullptr) err = cudaGraphInstantiate(&exec, graph, 0);
    if (err == cudaSuccess) err = cudaGraphLaunch(exec, stream);
    if (err == cudaSuccess) err = cudaStreamSynchronize(stream);
    return err;
  }
};

/// Captures `issue(stream)` into `g.graph` with capture mode `mode`. Returns what `issue` returned; the
/// end-of-capture status goes to `ended`.
template <class F>
cudaError_t capture(owned_graph& g, cudaStream_t stream, cudaStreamCaptureMode mode, F&& issue,
                    cudaError_t& ended) {
  ended = cudaStreamBeginCapture(stream, mode);
  if (ended != cudaSuccess) return ended;
  const cudaError_t issued = issue(stream);
  ended = cudaStreamEndCapture(stream, &g.graph);
  return issued;
}

inline const char* capture_mode_name(cudaStreamCaptureMode m) {
  switch (m) {
    case cudaStreamCaptureModeGlobal:
      return "global";
    case cudaStreamCaptureModeThreadLocal:
      return "thread-local";
    default:
      return "relaxed";
  }
}

/// splitmix64: a counter-based generator, so that value `i` of a stream of random numbers costs one call
/// and any case can be recomputed from its seed alone.
inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// A small sequential generator on top of mix64.
class rng64 {
 public:
  explicit rng64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() { return mix64(state_++ * 0x2545f4914f6cdd1dull + 0x1234567ull); }
  /// Uniform in [0, n) (n > 0), with a bias too small to matter for test parameters.
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  /// True with probability `num / den`.
  bool chance(std::uint64_t num, std::uint64_t den) { return below(den) < num; }

 private:
  std::uint64_t state_;
};

/// Input value `i` of a stream seeded with `seed`: never zero, magnitude in [0.25, 8) for floating types
/// (a multiple of 1/64, rounded to T), integers in +-[1, 8001]; sign random.
template <class T>
T input_value(std::uint64_t seed, std::uint64_t i) {
  const std::uint64_t r = mix64(seed ^ mix64(i));
  const bool neg = (r >> 63) != 0;
  double d;
  if constexpr (std::is_integral_v<T>) {
    d = static_cast<double>(1 + (r % 8001));
  } else {
    d = 0.25 + static_cast<double>(r % (8 * 64 - 16)) / 64.0;  // 0.25 .. 7.984375
  }
  return ew::convert<T>(neg ? -d : d);
}

/// Copies `bytes` host->device on `stream` and waits.
inline cudaError_t put(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) {
  cudaError_t err = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream);
  return err == cudaSuccess ? cudaStreamSynchronize(stream) : err;
}
/// Copies `bytes` device->host on `stream` and waits.
inline cudaError_t get(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) {
  cudaError_t err = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream);
  return err == cudaSuccess ? cudaStreamSynchronize(stream) : err;
}

/// Inputs a, b and output c of n random floats, in guarded device arrays at element offset 1, uploaded and
/// settled.
struct abc_fixture {
  std::size_t n;
  std::vector<float> a, b, c;
  device_array<float> da, db, dc;
  abc_fixture(std::size_t n_, std::uint64_t seed)
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

/// Sets the current device for a scope and restores the previous one.
class device_scope {
 public:
  explicit device_scope(int device) {
    cudaGetDevice(&previous_);
    EW_REQUIRE_CUDA(cudaSetDevice(device));
  }
  ~device_scope() { cudaSetDevice(previous_); }
  device_scope(const device_scope&) = delete;
  device_scope& operator=(const device_scope&) = delete;

 private:
  int previous_ = 0;
};

}  // namespace ew_test
