// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// Shared by the host and GPU tests: random inputs, ULP distance, output poison and the check for unwritten
// elements, the guarded buffer (device or host memory) and its typed device array, launch modes (direct or
// CUDA graph). The CPU references are in functor_reference.cuh. Test code only.

#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <cuda_runtime.h>

#include "catch.hpp"

#include <ew/elementwise.cuh>

#include "exact16.cuh"

namespace ew_test {

/// Fails the current test with CUDA's message when `expr` is not cudaSuccess.
#define EW_REQUIRE_CUDA(expr)                                                                          \
  do {                                                                                                 \
    const cudaError_t ew_test_err_ = (expr);                                                           \
    INFO(#expr << " -> " << cudaGetErrorName(ew_test_err_) << ": " << cudaGetErrorString(ew_test_err_) \
               << " / ew: " << ew::last_error_message());                                              \
    REQUIRE(ew_test_err_ == cudaSuccess);                                                              \
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
  if constexpr (std::is_same_v<T, std::int16_t>) return "i16";
  if constexpr (std::is_same_v<T, std::uint16_t>) return "u16";
  if constexpr (std::is_same_v<T, std::uint32_t>) return "u32";
  if constexpr (std::is_same_v<T, std::uint64_t>) return "u64";
  if constexpr (std::is_same_v<T, bool>) return "bool";
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

/// Distance in units in the last place between two floating values of `T` (0 when both are NaN or equal,
/// +0 and -0 included; max when exactly one is NaN), from the bit patterns alone (not through any conversion
/// of ew's). Integers: absolute difference.
template <class T>
std::uint64_t ulp_distance(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return a > b ? static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b)
                 : static_cast<std::uint64_t>(b) - static_cast<std::uint64_t>(a);
  } else {
    const bool nan_a = exact::is_nan(a), nan_b = exact::is_nan(b);
    if (nan_a || nan_b) return nan_a && nan_b ? 0 : UINT64_MAX;
    using bits_t = typename exact::format<T>::bits_t;
    auto ordered = [](T x) {
      const bits_t u = exact::bits_of(x);
      const bits_t sign = exact::sign_mask<T>();
      // Map the sign-magnitude encoding to a monotonic integer line (both zeros to 0).
      return (u & sign) ? -static_cast<std::int64_t>(u & ~sign) : static_cast<std::int64_t>(u);
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

/// Bit-exact equality of two arrays.
template <class T>
bool same_bytes(const std::vector<T>& x, const std::vector<T>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0;
}

/// Output poison: every byte of an output is set to `poison_byte` before a launch. 0x5A... is a NaN in no
/// type: 1.5e16 in f32 and bf16, 1.8e127 in f64, 203.25 in f16, 1515870810 in i32, 6.5e18 in i64, 90 in i8.
/// `second_poison_byte` (0xC3...: -391.5 in f32, -390 in bf16, -3.88 in f16, -2.8e18 in f64, negative
/// integers) is the one a second launch uses to tell a result equal to the first poison from an element that
/// was never written.
inline constexpr unsigned char poison_byte = 0x5A;
inline constexpr unsigned char second_poison_byte = 0xC3;

/// True when every byte of `v` is `byte`.
template <class T>
bool holds_poison(const T& v, unsigned char byte = poison_byte) {
  unsigned char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  for (unsigned char c : b)
    if (c != byte) return false;
  return true;
}

/// How many elements of `got` (an output poisoned with poison_byte before the launch that wrote it) were not
/// written. An element that differs from the poison was written. One that still holds it is either
/// unwritten or a result equal to the poison: `rerun()` poisons the same output with second_poison_byte,
/// repeats the same launch and returns the output again; a written element is the same deterministic result
/// again (still the first poison's bytes), an unwritten one now holds the second poison. rerun is called only
/// when some element holds the poison.
template <class T, class Rerun>
std::size_t unwritten_elements(const std::vector<T>& got, Rerun&& rerun) {
  std::vector<std::size_t> suspects;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (holds_poison(got[i])) suspects.push_back(i);
  if (suspects.empty()) return 0;
  const std::vector<T> again = rerun();
  std::size_t unwritten = 0;
  for (std::size_t i : suspects) unwritten += !(i < again.size() && holds_poison(again[i]));
  return unwritten;
}

/// Where a guarded_buffer's memory lives: on the device (cudaMalloc), or on the host (for the kernel body run
/// on the host).
enum class memory_kind { device, host };

/// The tests' one guarded buffer: `bytes` usable bytes starting `offset_bytes` past a 256-byte-aligned
/// address, with `guard` bytes (guard_bytes unless told otherwise, a multiple of 256) of guard_pattern before
/// the offset gap and after the region. The whole allocation is set to the pattern first, so every byte a
/// test or a sanitizer may read is initialized. Tests check the guards after every launch: a write outside
/// the region shows up there.
///
/// Two ways to use it. On the test's thread: construct it with its sizes (a failed allocation fails the
/// test) and check with guards_intact(), which copies on the legacy stream. From worker threads, which make
/// no Catch2 assertion: default-construct it, allocate with init(), which returns CUDA's error, and check
/// with guards_intact(stream, ok), which copies on the given stream.
class guarded_buffer {
 public:
  static constexpr std::size_t guard_bytes = 256;
  static constexpr unsigned char guard_pattern = 0xA5;

  guarded_buffer() = default;
  guarded_buffer(std::size_t bytes, std::size_t offset_bytes, memory_kind where = memory_kind::device,
                 std::size_t guard = guard_bytes) {
    if (set_up(bytes, offset_bytes, where, guard)) return;
    REQUIRE(cudaMalloc(&base_, total()) == cudaSuccess);
    REQUIRE(cudaMemset(base_, guard_pattern, total()) == cudaSuccess);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  }
  guarded_buffer(guarded_buffer&& other) noexcept
      : host_(std::move(other.host_)),
        base_(other.base_),
        where_(other.where_),
        bytes_(other.bytes_),
        offset_(other.offset_),
        guard_(other.guard_) {
    other.base_ = nullptr;
  }
  guarded_buffer(const guarded_buffer&) = delete;
  guarded_buffer& operator=(const guarded_buffer&) = delete;
  guarded_buffer& operator=(guarded_buffer&&) = delete;
  ~guarded_buffer() { release(); }

  /// Allocates the buffer (releasing any earlier allocation) and sets every byte to the guard pattern.
  cudaError_t init(std::size_t bytes, std::size_t offset_bytes, memory_kind where = memory_kind::device,
                   std::size_t guard = guard_bytes) {
    if (set_up(bytes, offset_bytes, where, guard)) return cudaSuccess;
    cudaError_t err = cudaMalloc(&base_, total());
    if (err == cudaSuccess) err = cudaMemset(base_, guard_pattern, total());
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    return err;
  }

  void* data() const { return static_cast<char*>(base_) + guard_ + offset_; }

  /// True when every guard byte (and the offset gap) still holds the pattern.
  bool guards_intact() const {
    std::vector<unsigned char> front(guard_ + offset_), back(guard_);
    if (where_ == memory_kind::device) {
      if (cudaMemcpy(front.data(), base_, front.size(), cudaMemcpyDeviceToHost) != cudaSuccess) return false;
      if (cudaMemcpy(back.data(), back_guard(), back.size(), cudaMemcpyDeviceToHost) != cudaSuccess) {
        return false;
      }
    } else {
      copy_host_guards(front, back);
    }
    return all_pattern(front) && all_pattern(back);
  }
  /// Sets `ok` to whether every guard byte (and the offset gap) still holds the pattern, copying on `stream`
  /// and waiting for it; returns CUDA's error (ok is false then). No Catch2 assertion.
  cudaError_t guards_intact(cudaStream_t stream, bool& ok) const {
    std::vector<unsigned char> front(guard_ + offset_), back(guard_);
    cudaError_t err = cudaSuccess;
    if (where_ == memory_kind::device) {
      err = cudaMemcpyAsync(front.data(), base_, front.size(), cudaMemcpyDeviceToHost, stream);
      if (err == cudaSuccess) {
        err = cudaMemcpyAsync(back.data(), back_guard(), back.size(), cudaMemcpyDeviceToHost, stream);
      }
      if (err == cudaSuccess) err = cudaStreamSynchronize(stream);
    } else {
      copy_host_guards(front, back);
    }
    ok = err == cudaSuccess && all_pattern(front) && all_pattern(back);
    return err;
  }

 private:
  /// Releases any earlier allocation and records the sizes; allocates and fills host memory, and returns
  /// whether it did (device memory is left to the caller).
  bool set_up(std::size_t bytes, std::size_t offset_bytes, memory_kind where, std::size_t guard) {
    release();
    where_ = where;
    bytes_ = bytes;
    offset_ = offset_bytes;
    guard_ = guard;
    if (where_ == memory_kind::device) return false;
    host_.assign(total() + 255, guard_pattern);
    const auto a = reinterpret_cast<std::uintptr_t>(host_.data());
    base_ = host_.data() + (256 - a % 256) % 256;
    return true;
  }
  std::size_t total() const { return guard_ + offset_ + bytes_ + guard_; }
  const void* back_guard() const { return static_cast<const char*>(data()) + bytes_; }
  void copy_host_guards(std::vector<unsigned char>& front, std::vector<unsigned char>& back) const {
    std::memcpy(front.data(), base_, front.size());
    std::memcpy(back.data(), back_guard(), back.size());
  }
  static bool all_pattern(const std::vector<unsigned char>& v) {
    for (unsigned char c : v)
      if (c != guard_pattern) return false;
    return true;
  }
  void release() {
    if (base_ != nullptr && where_ == memory_kind::device) cudaFree(base_);
    base_ = nullptr;
    host_.clear();
  }

  std::vector<unsigned char> host_;  // the host allocation (memory_kind::host)
  void* base_ = nullptr;             // the first front guard byte, 256-byte aligned
  memory_kind where_ = memory_kind::device;
  std::size_t bytes_ = 0, offset_ = 0, guard_ = guard_bytes;
};

/// The host type of a downloaded element: T itself, except bool, which comes back as its byte (a
/// std::vector<bool> has no contiguous storage, and a byte that is neither 0 nor 1, such as the poison, is no
/// valid bool).
template <class T>
using host_element_t = std::conditional_t<std::is_same_v<T, bool>, std::uint8_t, T>;

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
  std::vector<host_element_t<T>> download() const {
    static_assert(sizeof(host_element_t<T>) == sizeof(T), "");
    std::vector<host_element_t<T>> v(n_);
    REQUIRE(cudaMemcpy(v.data(), data(), n_ * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
    return v;
  }
  /// Fills the array with `byte` (poison_byte unless told otherwise): a value no test expects by chance, and
  /// no NaN, so that an element left unwritten shows as wrong even where the expected result is NaN. Where
  /// the poison could be a legitimate result, a test checks with unwritten_elements().
  void poison(unsigned char byte = poison_byte) {
    REQUIRE(cudaMemset(data(), byte, n_ * sizeof(T)) == cudaSuccess);
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

/// The sizes every launcher test covers: around warp, vector, block and tile boundaries, and one
/// large prime-ish size.
inline const std::vector<std::size_t>& edge_sizes() {
  static const std::vector<std::size_t> sizes{0,   1,   2,   3,   4,    5,    7,    8,
                                              15,  16,  17,  31,  32,   33,   127,  128,
                                              129, 255, 256, 257, 4095, 4096, 4097, 1000003};
  return sizes;
}

/// True when a CUDA device is usable.
inline bool has_gpu() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

/// The float whose bits are `bits`, on the host and the device.
__host__ __device__ inline float float_with_bits(std::uint32_t bits) {
  float x;
  memcpy(&x, &bits, sizeof x);
  return x;
}

/// The float whose bits are `base + i`: every float pattern from the index operand (`ew::index()`), for the
/// tests that run all 2^32 floats on the GPU.
struct float_from_bits {
  std::uint32_t base;
  __host__ __device__ float operator()(std::int64_t i) const {
    return float_with_bits(base + static_cast<std::uint32_t>(i));
  }
};

}  // namespace ew_test
