// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#include "harness.cuh"

#include <cuda/std/version>

#include <cmath>
#include <cstdio>
#include <ctime>
#include <sstream>

namespace ewb {

void throw_cuda(cudaError_t err, const char* expr, const char* file, int line) {
  std::ostringstream s;
  s << "CUDA error " << cudaGetErrorName(err) << " (" << cudaGetErrorString(err) << ") from " << expr << " at "
    << file << ":" << line;
  throw bench_failure(s.str());
}

bool have_device(std::string& why) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    why = std::string("cudaGetDeviceCount: ") + cudaGetErrorString(err);
    (void)cudaGetLastError();
    return false;
  }
  if (count == 0) {
    why = "cudaGetDeviceCount found 0 devices";
    return false;
  }
  return true;
}

std::string cuda_version_string(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

std::string cccl_version_string() {
  return std::to_string(CCCL_MAJOR_VERSION) + "." + std::to_string(CCCL_MINOR_VERSION) + "." +
         std::to_string(CCCL_PATCH_VERSION);
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

device_info query_device() {
  device_info d;
  EWB_CHECK(cudaGetDevice(&d.device));
  cudaDeviceProp prop{};
  EWB_CHECK(cudaGetDeviceProperties(&prop, d.device));
  d.name = prop.name;
  d.global_mem_bytes = prop.totalGlobalMem;
  int v = 0, major = 0, minor = 0;
  EWB_CHECK(cudaDeviceGetAttribute(&d.sm_count, cudaDevAttrMultiProcessorCount, d.device));
  EWB_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, d.device));
  EWB_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, d.device));
  d.cc = major * 10 + minor;
  EWB_CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrL2CacheSize, d.device));
  d.l2_bytes = static_cast<std::size_t>(v);
  EWB_CHECK(cudaDriverGetVersion(&d.driver_version));
  EWB_CHECK(cudaRuntimeGetVersion(&d.runtime_version));

  // The datasheet peak from the memory clock and bus width. CUDA 13 dropped cudaDeviceProp::memoryClockRate
  // but kept the attribute; a driver that does not report it gets a peak of 0 and says so.
  const cudaError_t e1 = cudaDeviceGetAttribute(&d.mem_clock_khz, cudaDevAttrMemoryClockRate, d.device);
  const cudaError_t e2 = cudaDeviceGetAttribute(&d.bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, d.device);
  (void)cudaGetLastError();
  std::ostringstream note;
  if (e1 != cudaSuccess || e2 != cudaSuccess || d.mem_clock_khz <= 0 || d.bus_width_bits <= 0) {
    d.peak_GBps = 0;
    note << "datasheet peak unavailable: cudaDevAttrMemoryClockRate -> "
         << (e1 == cudaSuccess ? std::to_string(d.mem_clock_khz) : cudaGetErrorString(e1))
         << ", cudaDevAttrGlobalMemoryBusWidth -> "
         << (e2 == cudaSuccess ? std::to_string(d.bus_width_bits) : cudaGetErrorString(e2))
         << "; pct_of_peak is reported as 0";
  } else {
    d.peak_GBps = static_cast<double>(d.mem_clock_khz) * 1e3 * d.bus_width_bits * 2.0 / 8.0 / 1e9;
    note << d.mem_clock_khz << " kHz x " << d.bus_width_bits << " bit x 2 (DDR) / 8 = " << d.peak_GBps
         << " GB/s";
  }
  d.peak_note = note.str();
  return d;
}

// ------------------------------------------------------------------------------------------------

device_buffer::~device_buffer() { release(); }

void device_buffer::release() {
  if (ptr != nullptr) {
    (void)cudaFree(ptr);  // nothing to do about a failure in a destructor
    ptr = nullptr;
    bytes = 0;
  }
}

void device_buffer::ensure(std::size_t b) {
  if (b <= bytes) return;
  if (ptr != nullptr) {
    EWB_CHECK(cudaDeviceSynchronize());  // the old buffer may still be in use by queued work
    EWB_CHECK(cudaFree(ptr));
    ptr = nullptr;
    bytes = 0;
  }
  EWB_CHECK(cudaMalloc(&ptr, b));
  bytes = b;
}

// ------------------------------------------------------------------------------------------------

namespace {

/// Reads `n` 16-byte words; writes only if their XOR is a value random data never gives, so the loads
/// cannot be optimized away. Default caching: the words stay in L2, clean.
__global__ void read_flush_kernel(const uint4* p, std::size_t n, uint4* sink) {
  uint4 acc = make_uint4(0, 0, 0, 0);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const uint4 w = p[i];
    acc.x ^= w.x;
    acc.y ^= w.y;
    acc.z ^= w.z;
    acc.w ^= w.w;
  }
  if (acc.x == 0x9e3779b9u && acc.y == 0x7f4a7c15u && acc.z == 0xf39cc060u && acc.w == 0x5cedc834u) *sink = acc;
}

}  // namespace

l2_flusher::l2_flusher(std::size_t l2_bytes) {
  bytes_ = 2 * (l2_bytes > 0 ? l2_bytes : (std::size_t{64} << 20));
  bytes_ = (bytes_ + 15) / 16 * 16;
  write_.ensure(bytes_);
  read_.ensure(bytes_);
  sink_.ensure(16);
  EWB_CHECK(cudaMemset(read_.ptr, 0x5a, bytes_));
  int dev = 0, sms = 0;
  EWB_CHECK(cudaGetDevice(&dev));
  EWB_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  blocks_ = sms * 4;
}

void l2_flusher::flush(cudaStream_t stream) {
  EWB_CHECK(cudaMemsetAsync(write_.ptr, 0, bytes_, stream));
  read_flush_kernel<<<blocks_, 512, 0, stream>>>(read_.as<const uint4>(), bytes_ / 16, sink_.as<uint4>());
  EWB_CHECK_LAUNCH();
}

// ------------------------------------------------------------------------------------------------

sample_stats compute_stats(std::vector<double> t) {
  sample_stats s;
  s.samples = static_cast<int>(t.size());
  if (t.empty()) return s;
  std::sort(t.begin(), t.end());
  auto quantile = [&](double q) {
    const double pos = q * static_cast<double>(t.size() - 1);
    const std::size_t lo = static_cast<std::size_t>(pos);
    const std::size_t hi = std::min(lo + 1, t.size() - 1);
    return t[lo] + (t[hi] - t[lo]) * (pos - static_cast<double>(lo));
  };
  s.median = quantile(0.5);
  s.p25 = quantile(0.25);
  s.p75 = quantile(0.75);
  s.min = t.front();
  s.max = t.back();
  double sum = 0;
  for (double x : t) sum += x;
  s.mean = sum / static_cast<double>(t.size());
  double var = 0;
  for (double x : t) var += (x - s.mean) * (x - s.mean);
  var = t.size() > 1 ? var / static_cast<double>(t.size() - 1) : 0;
  s.cv = s.mean > 0 ? std::sqrt(var) / s.mean : 0;
  return s;
}

timer::timer(cudaStream_t stream, l2_flusher* flusher) : stream_(stream), flusher_(flusher) {}

timer::~timer() {
  for (cudaEvent_t e : start_) (void)cudaEventDestroy(e);
  for (cudaEvent_t e : stop_) (void)cudaEventDestroy(e);
}

void timer::ensure_events(int n) {
  while (static_cast<int>(start_.size()) < n) {
    cudaEvent_t a = nullptr, b = nullptr;
    EWB_CHECK(cudaEventCreate(&a));
    start_.push_back(a);
    EWB_CHECK(cudaEventCreate(&b));
    stop_.push_back(b);
  }
}

std::vector<double> timer::elapsed_seconds(int samples, int launches_per_sample) {
  EWB_CHECK(cudaStreamSynchronize(stream_));
  std::vector<double> t(samples);
  for (int s = 0; s < samples; ++s) {
    float ms = 0;
    EWB_CHECK(cudaEventElapsedTime(&ms, start_[s], stop_[s]));
    t[s] = ms * 1e-3 / launches_per_sample;
  }
  return t;
}

std::vector<double> timer::cold_round(const launch_fn& fn, int samples) {
  ensure_events(samples);
  // Every sample is enqueued before the first is read back: the flush (tens of microseconds) gives the host
  // time to enqueue the next launch, so the timed launch never waits for the host.
  for (int s = 0; s < samples; ++s) {
    if (flusher_ != nullptr) flusher_->flush(stream_);
    EWB_CHECK(cudaEventRecord(start_[s], stream_));
    fn(stream_);
    EWB_CHECK(cudaEventRecord(stop_[s], stream_));
  }
  return elapsed_seconds(samples, 1);
}

cudaGraphExec_t capture_graph(const launch_fn& fn, int launches, cudaStream_t stream) {
  EWB_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  try {
    for (int i = 0; i < launches; ++i) fn(stream);
  } catch (...) {
    cudaGraph_t g = nullptr;
    if (cudaStreamEndCapture(stream, &g) == cudaSuccess && g != nullptr) (void)cudaGraphDestroy(g);
    (void)cudaGetLastError();
    throw;
  }
  cudaGraph_t graph = nullptr;
  EWB_CHECK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec = nullptr;
  const cudaError_t err = cudaGraphInstantiate(&exec, graph, 0);
  (void)cudaGraphDestroy(graph);
  EWB_CHECK(err);
  return exec;
}

std::vector<double> timer::hot_round(const launch_fn& fn, int launches, int samples) {
  ensure_events(samples);
  cudaGraphExec_t exec = capture_graph(fn, launches, stream_);
  struct guard {
    cudaGraphExec_t e;
    ~guard() { (void)cudaGraphExecDestroy(e); }
  } g{exec};
  EWB_CHECK(cudaGraphUpload(exec, stream_));
  EWB_CHECK(cudaGraphLaunch(exec, stream_));  // warm-up replay: the graph's first launch costs more
  for (int s = 0; s < samples; ++s) {
    EWB_CHECK(cudaEventRecord(start_[s], stream_));
    EWB_CHECK(cudaGraphLaunch(exec, stream_));
    EWB_CHECK(cudaEventRecord(stop_[s], stream_));
  }
  return elapsed_seconds(samples, launches);
}

measurement timer::measure(mode m, const launch_fn& fn, double estimate_seconds, const measure_options& o) {
  measurement r;
  int samples = o.min_samples < 1 ? 1 : o.min_samples;
  if (m == mode::hot) {
    const double per = estimate_seconds > 2e-6 ? estimate_seconds : 2e-6;
    int launches = static_cast<int>(std::ceil(o.hot_graph_seconds / per));
    launches = std::max(o.hot_min_launches, std::min(o.hot_max_launches, launches));
    r.launches_per_sample = launches;
    if (per * launches < 200e-6) samples *= o.small_sample_factor;
  } else {
    if (estimate_seconds < 200e-6) samples *= o.small_sample_factor;
  }
  bool have = false;
  for (int round = 0; round <= o.max_reruns; ++round) {
    const std::vector<double> t =
        m == mode::cold ? cold_round(fn, samples) : hot_round(fn, r.launches_per_sample, samples);
    const sample_stats s = compute_stats(t);
    ++r.rounds;
    if (!have || s.cv < r.stats.cv) {
      r.stats = s;
      have = true;
    }
    if (r.stats.cv <= o.cv_limit) break;
  }
  r.noisy = r.stats.cv > o.cv_limit;
  return r;
}

// ------------------------------------------------------------------------------------------------

unsigned long long* compare_counters() {
  static device_buffer counters;
  counters.ensure(2 * sizeof(unsigned long long));
  return counters.as<unsigned long long>();
}

int compare_blocks() {
  static int blocks = 0;
  if (blocks == 0) {
    int dev = 0, sms = 0;
    EWB_CHECK(cudaGetDevice(&dev));
    EWB_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    blocks = sms * 8;
  }
  return blocks;
}

std::string describe(const check_result& r, std::size_t n) {
  std::ostringstream s;
  s.precision(9);
  s << r.bad << " of " << n << " elements wrong, first at index " << r.first << ": got " << r.got << ", want "
    << r.want;
  return s.str();
}

double measure_copy_GBps(std::size_t bytes, int samples, cudaStream_t stream, l2_flusher& flusher,
                         sample_stats* stats) {
  device_buffer src, dst;
  src.ensure(bytes);
  dst.ensure(bytes);
  EWB_CHECK(cudaMemsetAsync(src.ptr, 0x3c, bytes, stream));
  timer t(stream, &flusher);
  const launch_fn copy = [&](cudaStream_t s) {
    EWB_CHECK(cudaMemcpyAsync(dst.ptr, src.ptr, bytes, cudaMemcpyDeviceToDevice, s));
  };
  copy(stream);  // warm-up
  const sample_stats st = compute_stats(t.cold_round(copy, samples));
  if (stats != nullptr) *stats = st;
  EWB_CHECK(cudaStreamSynchronize(stream));
  return 2.0 * static_cast<double>(bytes) / st.median / 1e9;
}

}  // namespace ewb
