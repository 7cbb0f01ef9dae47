// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// Shared by the host and GPU tests: random inputs, CPU references and error bounds, guarded device buffers,
// launch modes (direct or CUDA graph). Test code only.

#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <cuda_runtime.h>

#include <catch2/catch.hpp>

#include <ew/elementwise.cuh>

namespace ew_test {

/// Fails the current test with CUDA's message when `expr` is not cudaSuccess.
#define EW_REQUIRE_CUDA(expr)                                                                             \
  do {                                                                                                     \
    const cudaError_t ew_test_err_ = (expr);                                                               \
    INFO(#expr << " -> " << cudaGetErrorName(ew_test_err_) << ": " << cudaGetErrorString(ew_test_err_)     \
               << " / ew: " << ew::last_error_message());                                                  \
    REQUIRE(ew_test_err_ == cudaSuccess);                                                                  \
  } while (0)

/// Element types the core tests cover.
#define EW_TEST_FLOAT_TYPES float, double, __half, __nv_bfloat16
#define EW_TEST_ALL_TYPES float, double, __half, __nv_bfloat16, std::int32_t, std::int64_t

template <class T>
const char* type_name() {
  if constexpr (std::is_same_v<T, float>) return "f32";
  if constexpr (std::is_same_v<T, double>) return "f64";
  if constexpr (std::is_same_v<T, __half>) return "f16";
  if constexpr (std::is_same_v<T, __nv_bfloat16>) return "bf16";
  if constexpr (std::is_same_v<T, std::int32_t>) return "i32";
  if constexpr (std::is_same_v<T, std::int64_t>) return "i64";
  if constexpr (std::is_same_v<T, std::int8_t>) return "i8";
  if constexpr (std::is_same_v<T, std::uint8_t>) return "u8";
  return "?";
}

/// Seed for a test's random inputs: EW_TEST_SEED from the environment when set (to replay a failure), else
/// a fixed default. Tests print it with INFO so a failure names it.
inline std::uint64_t base_seed() {
  if (const char* s = std::getenv("EW_TEST_SEED")) return std::strtoull(s, nullptr, 0);
  return 0x5eed2026u;
}

/// `n` random values of `T`, none zero, in +-[lo, hi] (sign random for signed types).
template <class T>
std::vector<T> random_values(std::size_t n, std::uint64_t seed, double lo = 0.25, double hi = 8.0) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> mag(lo, hi);
  std::bernoulli_distribution neg(0.5);
  std::vector<T> v(n);
  for (auto& x : v) {
    double d = mag(rng);
    if constexpr (std::is_integral_v<T>) {
      d = std::floor(d * 1000.0) + 1.0;  // 251..8001, never zero
    }
    if (neg(rng)) d = -d;
    x = ew::convert<T>(d);
  }
  return v;
}

/// Distance in units in the last place between two floating values of `T` (0 when both are the same NaN
/// class or equal; max when exactly one is NaN). Integers: absolute difference.
template <class T>
std::uint64_t ulp_distance(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return a > b ? static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b)
                 : static_cast<std::uint64_t>(b) - static_cast<std::uint64_t>(a);
  } else {
    const double da = ew::convert<double>(a), db = ew::convert<double>(b);
    if (std::isnan(da) || std::isnan(db)) return std::isnan(da) && std::isnan(db) ? 0 : UINT64_MAX;
    if (da == db) return 0;  // also +0 == -0
    using bits_t = std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                      std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>;
    auto ordered = [](T x) {
      bits_t u;
      std::memcpy(&u, &x, sizeof(u));
      const bits_t sign = bits_t(1) << (8 * sizeof(bits_t) - 1);
      // Map the sign-magnitude encoding to a monotonic integer line.
      return (u & sign) ? static_cast<std::int64_t>(-static_cast<std::int64_t>(u & ~sign))
                        : static_cast<std::int64_t>(u);
    };
    const std::int64_t d = ordered(a) - ordered(b);
    return static_cast<std::uint64_t>(d < 0 ? -d : d);
  }
}

/// Bit-exact equality, so -0 != +0 and NaN payloads count.
template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// Device allocation with guard bands: `guard_bytes` of a known pattern before and after the usable
/// region, which starts `offset_bytes` past a 256-byte-aligned address. Tests check the guards after every
/// launch: a write outside the output shows up there.
class guarded_buffer {
 public:
  static constexpr std::size_t guard_bytes = 256;
  static constexpr unsigned char guard_pattern = 0xA5;

  guarded_buffer(std::size_t bytes, std::size_t offset_bytes) : bytes_(bytes), offset_(offset_bytes) {
    total_ = guard_bytes + offset_ + bytes_ + guard_bytes;
    REQUIRE(cudaMalloc(&base_, total_) == cudaSuccess);
    REQUIRE(cudaMemset(base_, guard_pattern, total_) == cudaSuccess);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  }
  ~guarded_buffer() { cudaFree(base_); }
  guarded_buffer(const guarded_buffer&) = delete;
  guarded_buffer& operator=(const guarded_buffer&) = delete;

  void* data() const { return static_cast<char*>(base_) + guard_bytes + offset_; }

  /// True when every guard byte (and the offset gap) still holds the pattern.
  bool guards_intact() const {
    std::vector<unsigned char> front(guard_bytes + offset_), back(guard_bytes);
    if (cudaMemcpy(front.data(), base_, front.size(), cudaMemcpyDeviceToHost) != cudaSuccess) return false;
    if (cudaMemcpy(back.data(), static_cast<char*>(base_) + guard_bytes + offset_ + bytes_, back.size(),
                   cudaMemcpyDeviceToHost) != cudaSuccess) {
      return false;
    }
    for (unsigned char c : front)
      if (c != guard_pattern) return false;
    for (unsigned char c : back)
      if (c != guard_pattern) return false;
    return true;
  }

 private:
  void* base_ = nullptr;
  std::size_t bytes_, offset_, total_;
};

/// A guarded device array of `n` elements of `T` at an element offset `offset` from 256-byte alignment.
template <class T>
class device_array {
 public:
  device_array(std::size_t n, std::size_t offset = 0) : n_(n), buf_(n * sizeof(T), offset * sizeof(T)) {}
  T* data() const { return static_cast<T*>(buf_.data()); }
  std::size_t size() const { return n_; }
  void upload(const std::vector<T>& v) {
    REQUIRE(v.size() == n_);
    REQUIRE(cudaMemcpy(data(), v.data(), n_ * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess);
    // From pageable memory cudaMemcpy may return before the DMA lands, on the legacy stream, which a
    // cudaStreamNonBlocking stream does not wait for: finish it before a test launches on such a stream.
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  }
  std::vector<T> download() const {
    std::vector<T> v(n_);
    REQUIRE(cudaMemcpy(v.data(), data(), n_ * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
    return v;
  }
  /// Fills the array with 0xFF bytes: NaN for floating types, -1 for integers, never a valid result of the
  /// ops under test on the inputs random_values gives (so an element left unwritten is caught).
  void poison() {
    REQUIRE(cudaMemset(data(), 0xFF, n_ * sizeof(T)) == cudaSuccess);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);  // cudaMemset is asynchronous: see upload()
  }
  bool guards_intact() const { return buf_.guards_intact(); }

 private:
  std::size_t n_;
  guarded_buffer buf_;
};

/// How a test issues its launches: directly on a stream, or captured into a CUDA graph that is then
/// instantiated and replayed (what CUB's tests call launch variants).
enum class launch_mode { direct, graph };

inline const char* mode_name(launch_mode m) { return m == launch_mode::direct ? "direct" : "graph"; }

/// Runs `issue(stream)` (which returns a cudaError_t) in `mode` and waits for it. In graph mode the calls
/// are captured, so they must not synchronize or allocate; their return codes are checked at capture.
template <class F>
cudaError_t run_in_mode(launch_mode mode, cudaStream_t stream, F&& issue) {
  if (mode == launch_mode::direct) {
    cudaError_t err = issue(stream);
    if (err != cudaSuccess) return err;
    return cudaStreamSynchronize(stream);
  }
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  cudaError_t err = cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal);
  if (err != cudaSuccess) return err;
  const cudaError_t issued = issue(stream);
  err = cudaStreamEndCapture(stream, &graph);
  if (issued != cudaSuccess) {
    if (graph) cudaGraphDestroy(graph);
    return issued;
  }
  if (err != cudaSuccess) return err;
  err = cudaGraphInstantiate(&exec, graph, 0);
  if (err == cudaSuccess) err = cudaGraphLaunch(exec, stream);
  if (err == cudaSuccess) err = cudaStreamSynchronize(stream);
  if (exec) cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  return err;
}

/// The sizes every launcher test covers (issue 2): around warp, vector, block and tile boundaries, and one
/// large prime-ish size.
inline const std::vector<std::size_t>& edge_sizes() {
  static const std::vector<std::size_t> sizes{0,   1,   2,   3,   4,    5,    7,    8,   15,  16,  17,     31, 32,
                                              33,  127, 128, 129, 255, 256, 257, 4095, 4096, 4097, 1000003};
  return sizes;
}

/// True when a CUDA device is usable.
inline bool has_gpu() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

}  // namespace ew_test
