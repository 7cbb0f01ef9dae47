// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The measurement harness shared by ew_bench and ew_tune: CUDA error checks, device facts (L2 size,
/// datasheet peak), the L2 flush, cold and hot (CUDA graph) timing with CUDA events, sample statistics
/// with the rerun rule, deterministic random inputs, and the device-side comparison of an output against
/// a reference computed on the host.
///
/// Nothing here knows about Google Benchmark: ew_tune uses it without that library.

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace ewb {

// ------------------------------------------------------------------------------------------------
// Errors
// ------------------------------------------------------------------------------------------------

/// A CUDA call failed, or a result was wrong. Benchmarks catch it and report the row as an error.
struct bench_failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void throw_cuda(cudaError_t err, const char* expr, const char* file, int line);

/// Checks a CUDA call: on failure throws `bench_failure` with the error string, the call and where.
#define EWB_CHECK(expr)                                                                  \
  do {                                                                                   \
    const cudaError_t ewb_err_ = (expr);                                                 \
    if (ewb_err_ != cudaSuccess) ::ewb::throw_cuda(ewb_err_, #expr, __FILE__, __LINE__); \
  } while (0)

/// Checks the launch that just happened (`<<<>>>` reports its errors only through cudaGetLastError).
#define EWB_CHECK_LAUNCH() EWB_CHECK(cudaGetLastError())

// ------------------------------------------------------------------------------------------------
// Device facts
// ------------------------------------------------------------------------------------------------

struct device_info {
  int device = 0;
  std::string name;
  int sm_count = 0;
  int cc = 0;  ///< major * 10 + minor
  std::size_t l2_bytes = 0;
  std::size_t global_mem_bytes = 0;
  int mem_clock_khz = 0;
  int bus_width_bits = 0;
  double peak_GBps = 0;   ///< clock (kHz) x bus width (bits) x 2 (DDR) / 8; 0 when the attributes are missing
  std::string peak_note;  ///< how peak_GBps was computed, or why it is 0
  int driver_version = 0;
  int runtime_version = 0;
};

/// True when a CUDA device is usable; otherwise `why` says what cudaGetDeviceCount answered.
bool have_device(std::string& why);

/// Facts of the current device. Throws on a CUDA error.
device_info query_device();

/// "13.0" from 13000.
std::string cuda_version_string(int v);

/// "3.0.1": the CCCL this binary was compiled with.
std::string cccl_version_string();

/// UTC date and time, ISO 8601.
std::string utc_now();

// ------------------------------------------------------------------------------------------------
// Element types
// ------------------------------------------------------------------------------------------------

template <class T>
struct type_traits;
template <>
struct type_traits<float> {
  static constexpr const char* name = "f32";
  static constexpr double epsilon = 1.1920928955078125e-07;  // 2^-23
};
template <>
struct type_traits<double> {
  static constexpr const char* name = "f64";
  static constexpr double epsilon = 2.220446049250313e-16;  // 2^-52
};
template <>
struct type_traits<__half> {
  static constexpr const char* name = "f16";
  static constexpr double epsilon = 9.765625e-04;  // 2^-10
};
template <>
struct type_traits<__nv_bfloat16> {
  static constexpr const char* name = "bf16";
  static constexpr double epsilon = 7.8125e-03;  // 2^-7
};

template <class T>
__host__ __device__ inline double to_double(T x) {
  if constexpr (std::is_same_v<T, __half>) {
    return static_cast<double>(__half2float(x));
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return static_cast<double>(__bfloat162float(x));
  } else {
    return static_cast<double>(x);
  }
}

/// Rounds a float (or double for f64) to `T`, once, round to nearest even.
template <class T, class C>
inline T round_to(C x) {
  if constexpr (std::is_same_v<T, __half>) {
    return __float2half_rn(static_cast<float>(x));
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return __float2bfloat16_rn(static_cast<float>(x));
  } else {
    return static_cast<T>(x);
  }
}

/// The type ops compute in on the host reference: float for the 16-bit types (as ew and PyTorch do).
template <class T>
using host_compute_t = std::conditional_t<std::is_same_v<T, double>, double, float>;

template <class T>
inline host_compute_t<T> widen(T x) {
  return static_cast<host_compute_t<T>>(to_double(x));
}

// ------------------------------------------------------------------------------------------------
// Host helpers
// ------------------------------------------------------------------------------------------------

/// Runs `fn(begin, end)` over `[0, n)` split across the host's cores (at most 16 threads).
template <class Fn>
void parallel_for(std::size_t n, Fn&& fn) {
  unsigned threads = std::thread::hardware_concurrency();
  if (threads == 0) threads = 1;
  if (threads > 16) threads = 16;
  if (n < (std::size_t{1} << 16)) threads = 1;
  if (threads == 1) {
    fn(std::size_t{0}, n);
    return;
  }
  std::vector<std::thread> pool;
  const std::size_t chunk = (n + threads - 1) / threads;
  for (unsigned t = 0; t < threads; ++t) {
    const std::size_t b = std::min(n, t * chunk), e = std::min(n, b + chunk);
    pool.emplace_back([&fn, b, e] { fn(b, e); });
  }
  for (auto& th : pool) th.join();
}

/// Counter-based random bits: the same (seed, stream, index) gives the same value on every run.
inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// `n` random non-zero values of magnitude in [1/16, 4) with random sign, exactly representable in `T`.
template <class T>
void fill_random(T* out, std::size_t n, std::uint64_t seed, std::uint64_t stream) {
  const std::uint64_t base = mix64(seed ^ mix64(stream + 0x1234567ull));
  parallel_for(n, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      const std::uint64_t r = mix64(base + i);
      const double mag = 0.0625 + static_cast<double>(r >> 11) * (3.9375 / 9007199254740992.0);
      const double v = (r & 1) ? -mag : mag;
      out[i] = round_to<T>(static_cast<host_compute_t<T>>(v));
    }
  });
}

// ------------------------------------------------------------------------------------------------
// Device memory
// ------------------------------------------------------------------------------------------------

/// A device allocation that only grows.
struct device_buffer {
  void* ptr = nullptr;
  std::size_t bytes = 0;
  device_buffer() = default;
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer();
  /// Makes the buffer at least `b` bytes (its old contents are lost when it grows).
  void ensure(std::size_t b);
  void release();
  template <class T>
  T* as(std::size_t offset_elements = 0) const {
    return static_cast<T*>(ptr) + offset_elements;
  }
};

/// Extra elements every buffer gets, so a misaligned view (base + 1 element) still holds n elements.
inline constexpr std::size_t buffer_slack_bytes = 256;

// ------------------------------------------------------------------------------------------------
// L2 flush
// ------------------------------------------------------------------------------------------------

/// Evicts the device's L2 before a cold measurement: a cudaMemsetAsync over a buffer of 2x the L2 size
/// (pushing out whatever the previous launch left, dirty output lines included), then a read of another
/// 2x-L2 buffer, so that the L2 the timed launch finds holds only clean lines of unrelated data (the memset
/// alone would leave up to an L2 of dirty lines, whose write-back would be charged to the timed kernel).
class l2_flusher {
 public:
  explicit l2_flusher(std::size_t l2_bytes);
  /// Enqueues the flush on `stream`.
  void flush(cudaStream_t stream);
  std::size_t bytes() const { return bytes_; }

 private:
  std::size_t bytes_ = 0;
  device_buffer write_, read_, sink_;
  int blocks_ = 0;
};

// ------------------------------------------------------------------------------------------------
// Timing
// ------------------------------------------------------------------------------------------------

/// One launch of the code under test on `stream`; throws `bench_failure` on any error. Must be
/// capturable into a CUDA graph (no synchronization) for hot mode.
using launch_fn = std::function<void(cudaStream_t)>;

enum class mode { cold, hot };
inline const char* mode_name(mode m) { return m == mode::cold ? "cold" : "hot"; }

struct sample_stats {
  int samples = 0;
  double median = 0, mean = 0, min = 0, max = 0, p25 = 0, p75 = 0;  ///< seconds per launch
  double cv = 0;                                                      ///< stddev / mean
};

sample_stats compute_stats(std::vector<double> seconds);

struct measure_options {
  int min_samples = 10;          ///< samples per round (each sample: one launch cold, one graph replay hot)
  int small_sample_factor = 3;   ///< rows whose sample takes < 200 us get this many times more samples
  int max_reruns = 2;            ///< extra rounds when cv > cv_limit
  double cv_limit = 0.02;        ///< the rerun rule's threshold
  double hot_graph_seconds = 100e-6;  ///< hot mode: launches per graph chosen so a replay takes about this
  int hot_min_launches = 4;
  int hot_max_launches = 1000;
};

struct measurement {
  sample_stats stats;    ///< of the round kept (the one with the lowest cv)
  int rounds = 0;        ///< 1 + reruns
  bool noisy = false;    ///< cv still above the limit after every rerun
  int launches_per_sample = 1;
};

/// Times `fn` with CUDA events on `stream`. Cold: before each timed launch, outside the events, the L2 is
/// flushed; samples are the per-launch event times. Hot: `launches` back-to-back launches captured in a
/// CUDA graph, replayed between one pair of events; a sample is the replay time / launches. The round is
/// repeated while cv > cv_limit, up to max_reruns times, and the round with the lowest cv is kept.
/// `estimate_seconds` (a guess of one launch's time) sizes the sample count and the hot graph.
class timer {
 public:
  timer(cudaStream_t stream, l2_flusher* flusher);
  timer(const timer&) = delete;
  timer& operator=(const timer&) = delete;
  ~timer();
  measurement measure(mode m, const launch_fn& fn, double estimate_seconds, const measure_options& o);
  /// One round of `samples` samples.
  std::vector<double> cold_round(const launch_fn& fn, int samples);
  std::vector<double> hot_round(const launch_fn& fn, int launches, int samples);

 private:
  void ensure_events(int n);
  /// Waits for the stream, then sample s's time between its events, in seconds per launch.
  std::vector<double> elapsed_seconds(int samples, int launches_per_sample);
  cudaStream_t stream_;
  l2_flusher* flusher_;
  std::vector<cudaEvent_t> start_, stop_;
};

/// Captures `launches` calls of `fn` into an instantiated graph (the capture is always ended, even when
/// `fn` throws).
cudaGraphExec_t capture_graph(const launch_fn& fn, int launches, cudaStream_t stream);

// ------------------------------------------------------------------------------------------------
// Correctness
// ------------------------------------------------------------------------------------------------

struct check_result {
  unsigned long long bad = 0;    ///< elements outside tolerance
  unsigned long long first = 0;  ///< index of the first bad element
  double got = 0, want = 0;      ///< values at `first`
};

template <class T>
__global__ void compare_kernel(const T* got, const T* want, std::size_t n, double rel, double abs_tol,
                               unsigned long long* counters) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const double g = to_double(got[i]);
    const double w = to_double(want[i]);
    bool ok;
    if (w != w) {
      ok = g != g;  // NaN wanted: NaN got
    } else {
      const double d = g > w ? g - w : w - g;  // NaN got: d is NaN, the test below fails
      const double m = w < 0 ? -w : w;
      ok = d <= abs_tol + rel * m;
    }
    if (!ok) {
      atomicAdd(&counters[0], 1ull);
      atomicMin(&counters[1], static_cast<unsigned long long>(i));
    }
  }
}

/// Device scratch for compare_device's two counters (one per process).
unsigned long long* compare_counters();
int compare_blocks();

/// Compares `n` elements of `got` with `want` on the device, |got - want| <= abs + rel * |want|, NaN only
/// where NaN is wanted. Synchronizes `stream`.
template <class T>
check_result compare_device(const T* got, const T* want, std::size_t n, double rel, double abs_tol,
                            cudaStream_t stream) {
  check_result r;
  if (n == 0) return r;
  unsigned long long* c = compare_counters();
  const unsigned long long init[2] = {0ull, ~0ull};
  EWB_CHECK(cudaMemcpyAsync(c, init, sizeof(init), cudaMemcpyHostToDevice, stream));
  compare_kernel<T><<<compare_blocks(), 256, 0, stream>>>(got, want, n, rel, abs_tol, c);
  EWB_CHECK_LAUNCH();
  unsigned long long back[2] = {0, 0};
  EWB_CHECK(cudaMemcpyAsync(back, c, sizeof(back), cudaMemcpyDeviceToHost, stream));
  EWB_CHECK(cudaStreamSynchronize(stream));
  r.bad = back[0];
  if (r.bad != 0) {
    r.first = back[1];
    T g, w;
    EWB_CHECK(cudaMemcpy(&g, got + r.first, sizeof(T), cudaMemcpyDeviceToHost));
    EWB_CHECK(cudaMemcpy(&w, want + r.first, sizeof(T), cudaMemcpyDeviceToHost));
    r.got = to_double(g);
    r.want = to_double(w);
  }
  return r;
}

/// "3 of 1048576 elements wrong, first at 17: got nan, want 1.5".
std::string describe(const check_result& r, std::size_t n);

/// Fills `bytes` at `p` with 0xFF: NaN in every floating type ew benchmarks.
inline void poison(void* p, std::size_t bytes, cudaStream_t stream) {
  EWB_CHECK(cudaMemsetAsync(p, 0xFF, bytes, stream));
}

// ------------------------------------------------------------------------------------------------
// Copy reference
// ------------------------------------------------------------------------------------------------

/// Device-to-device cudaMemcpyAsync bandwidth (read + write bytes / time, SI GB/s) of a `bytes` copy,
/// cold L2, median of `samples`.
double measure_copy_GBps(std::size_t bytes, int samples, cudaStream_t stream, l2_flusher& flusher,
                         sample_stats* stats = nullptr);

}  // namespace ewb
