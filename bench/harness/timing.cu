// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#include "timing.cuh"

#include <algorithm>
#include <cmath>

#include "device_buffer.cuh"
#include "errors.cuh"
#include "l2_flush.cuh"

namespace ewb {

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
