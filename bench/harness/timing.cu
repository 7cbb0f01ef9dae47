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

std::vector<std::vector<double>> timer::elapsed_seconds(int functions, int samples, int launches_per_sample) {
  EWB_CHECK(cudaStreamSynchronize(stream_));
  std::vector<std::vector<double>> t(functions, std::vector<double>(samples));
  for (int s = 0; s < samples; ++s) {
    for (int k = 0; k < functions; ++k) {
      float ms = 0;
      EWB_CHECK(cudaEventElapsedTime(&ms, start_[s * functions + k], stop_[s * functions + k]));
      t[k][s] = ms * 1e-3 / launches_per_sample;
    }
  }
  return t;
}

namespace {

/// The order of one cell's timed blocks: `reps` repetitions, each a block of consecutive samples of every
/// function, the start rotating by repetition (rep r starts with function r % K). Returns (function,
/// first sample, samples) triples in the order they run.
struct block {
  int fn, first, count;
};
std::vector<block> block_order(int K, int samples) {
  const int reps = std::min(interleave_repetitions, samples);
  std::vector<block> order;
  int first = 0;
  for (int r = 0; r < reps; ++r) {
    const int count = samples * (r + 1) / reps - samples * r / reps;
    for (int j = 0; j < K; ++j) order.push_back({(r + j) % K, first, count});
    first += count;
  }
  return order;
}

}  // namespace

std::vector<std::vector<double>> timer::cold_round(const std::vector<launch_fn>& fns, int samples) {
  const int K = static_cast<int>(fns.size());
  ensure_events(samples * K);
  // Every sample is enqueued before the first is read back: the flush (tens of microseconds) gives the host
  // time to enqueue the next launch, so the timed launch never waits for the host. Each block starts with
  // an untimed launch of its function, so that no timed launch is the first after another function's.
  for (const block& bl : block_order(K, samples)) {
    fns[bl.fn](stream_);
    for (int s = bl.first; s < bl.first + bl.count; ++s) {
      if (flusher_ != nullptr) flusher_->flush(stream_);
      EWB_CHECK(cudaEventRecord(start_[s * K + bl.fn], stream_));
      fns[bl.fn](stream_);
      EWB_CHECK(cudaEventRecord(stop_[s * K + bl.fn], stream_));
    }
  }
  return elapsed_seconds(K, samples, 1);
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

std::vector<std::vector<double>> timer::hot_round(const std::vector<launch_fn>& fns, int launches,
                                                  int samples) {
  const int K = static_cast<int>(fns.size());
  ensure_events(samples * K);
  struct graphs {
    std::vector<cudaGraphExec_t> e;
    ~graphs() {
      for (cudaGraphExec_t x : e) (void)cudaGraphExecDestroy(x);
    }
  } g;
  for (const launch_fn& fn : fns) {
    g.e.push_back(capture_graph(fn, launches, stream_));
    EWB_CHECK(cudaGraphUpload(g.e.back(), stream_));
  }
  // As in cold_round: blocks of consecutive samples, each after an untimed replay of its own graph.
  for (const block& bl : block_order(K, samples)) {
    EWB_CHECK(cudaGraphLaunch(g.e[bl.fn], stream_));
    for (int s = bl.first; s < bl.first + bl.count; ++s) {
      EWB_CHECK(cudaEventRecord(start_[s * K + bl.fn], stream_));
      EWB_CHECK(cudaGraphLaunch(g.e[bl.fn], stream_));
      EWB_CHECK(cudaEventRecord(stop_[s * K + bl.fn], stream_));
    }
  }
  return elapsed_seconds(K, samples, launches);
}

measurement timer::measure(mode m, const launch_fn& fn, double estimate_seconds, const measure_options& o) {
  return measure_interleaved(m, {fn}, estimate_seconds, o).front();
}

std::vector<measurement> timer::measure_interleaved(mode m, const std::vector<launch_fn>& fns,
                                                    double estimate_seconds, const measure_options& o) {
  const std::size_t K = fns.size();
  std::vector<measurement> r(K);
  int samples = o.min_samples < 1 ? 1 : o.min_samples;
  int launches = 1;
  if (m == mode::hot) {
    const double per = estimate_seconds > 2e-6 ? estimate_seconds : 2e-6;
    launches = static_cast<int>(std::ceil(o.hot_graph_seconds / per));
    launches = std::max(o.hot_min_launches, std::min(o.hot_max_launches, launches));
    if (per * launches < 200e-6) samples *= o.small_sample_factor;
  } else {
    if (estimate_seconds < 200e-6) samples *= o.small_cold_sample_factor;
  }
  double kept_cv = 0;
  bool have = false;
  int rounds = 0;
  for (int round = 0; round <= o.max_reruns; ++round) {
    const std::vector<std::vector<double>> t =
        m == mode::cold ? cold_round(fns, samples) : hot_round(fns, launches, samples);
    ++rounds;
    std::vector<sample_stats> s(K);
    double worst = 0;
    for (std::size_t k = 0; k < K; ++k) {
      s[k] = compute_stats(t[k]);
      worst = std::max(worst, s[k].cv);
    }
    if (!have || worst < kept_cv) {
      for (std::size_t k = 0; k < K; ++k) r[k].stats = s[k];
      kept_cv = worst;
      have = true;
    }
    if (kept_cv <= o.cv_limit) break;
  }
  for (measurement& x : r) {
    x.rounds = rounds;
    x.noisy = x.stats.cv > o.cv_limit;
    x.launches_per_sample = launches;
  }
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
  const sample_stats st = compute_stats(t.cold_round({copy}, samples).front());
  if (stats != nullptr) *stats = st;
  EWB_CHECK(cudaStreamSynchronize(stream));
  return 2.0 * static_cast<double>(bytes) / st.median / 1e9;
}

}  // namespace ewb
