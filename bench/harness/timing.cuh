// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Timing with CUDA events: the unit under test (`launch_fn`), the two modes (`mode`: cold, with the L2
/// flushed before every timed launch; hot, back-to-back launches replayed from a CUDA graph), the rerun
/// rule's knobs (`measure_options`), the `timer` that runs rounds and keeps the one with the lowest cv
/// (`measurement`), `capture_graph`, and `measure_copy_GBps`, the cudaMemcpyAsync reference bandwidth that
/// the benchmarks' results are compared against.

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <vector>

#include "stats.cuh"

namespace ewb {

class l2_flusher;  // l2_flush.cuh

/// One launch of the code under test on `stream`; throws `bench_failure` on any error. Must be
/// capturable into a CUDA graph (no synchronization) for hot mode.
using launch_fn = std::function<void(cudaStream_t)>;

enum class mode { cold, hot };

/// Repetitions per round in timer::measure_interleaved (each a block of samples of every function).
inline constexpr int interleave_repetitions = 3;
inline const char* mode_name(mode m) { return m == mode::cold ? "cold" : "hot"; }

struct measure_options {
  int min_samples = 10;         ///< samples per round (each sample: one launch cold, one graph replay hot)
  int small_sample_factor = 3;  ///< hot rows whose sample takes < 200 us get this many times more samples
  /// Cold rows of < 200 us get this many times more samples: their cv is about 6% on the H200 (2^20, flush
  /// before each launch; 2026-11-30 and 2026-12-01 runs), so 30 samples leave two medians of one row about
  /// 2% apart by chance, and 100 bring that near 1%.
  int small_cold_sample_factor = 10;
  int max_reruns = 2;                 ///< extra rounds when cv > cv_limit
  double cv_limit = 0.02;             ///< the rerun rule's threshold
  double hot_graph_seconds = 100e-6;  ///< hot mode: launches per graph chosen so a replay takes about this
  int hot_min_launches = 4;
  int hot_max_launches = 1000;
};

struct measurement {
  sample_stats stats;  ///< of the round kept (the one with the lowest cv)
  int rounds = 0;      ///< 1 + reruns
  bool noisy = false;  ///< cv still above the limit after every rerun
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
  /// Times several implementations of one cell interleaved, so that clock and thermal drift hit all of
  /// them alike: a round is `interleave_repetitions` repetitions, each timing a block of consecutive
  /// samples of every function, the first function rotating by repetition; every block starts with an
  /// untimed launch (cold) or replay (hot) of its own function. Samples of different functions are not
  /// interleaved one by one: on the H200 (2026-12-01) that made cub's hot 2^16 rows 13-15% slower with 7
  /// functions in the cell than with 3 or alone, while ew's moved by 2% (a timed replay that follows
  /// another function's graph pays for the switch; docs/BENCHMARKS.md, "Interleaving"). The rerun rule
  /// applies to the round as a whole: it is rerun while any function's cv is above the limit, and the round
  /// whose largest cv is lowest is kept for all. Result k is fns[k]'s.
  std::vector<measurement> measure_interleaved(mode m, const std::vector<launch_fn>& fns,
                                               double estimate_seconds, const measure_options& o);
  /// One round of `samples` samples of every function, in blocks as above; result[k][s] is fns[k]'s sample s.
  std::vector<std::vector<double>> cold_round(const std::vector<launch_fn>& fns, int samples);
  std::vector<std::vector<double>> hot_round(const std::vector<launch_fn>& fns, int launches, int samples);

 private:
  void ensure_events(int n);
  /// Waits for the stream, then each function's samples (event pair s * K + k), in seconds per launch.
  std::vector<std::vector<double>> elapsed_seconds(int functions, int samples, int launches_per_sample);
  cudaStream_t stream_;
  l2_flusher* flusher_;
  std::vector<cudaEvent_t> start_, stop_;
};

/// Captures `launches` calls of `fn` into an instantiated graph (the capture is always ended, even when
/// `fn` throws).
cudaGraphExec_t capture_graph(const launch_fn& fn, int launches, cudaStream_t stream);

// ------------------------------------------------------------------------------------------------
// Copy reference
// ------------------------------------------------------------------------------------------------

/// Device-to-device cudaMemcpyAsync bandwidth (read + write bytes / time, SI GB/s) of a `bytes` copy,
/// cold L2, median of `samples`.
double measure_copy_GBps(std::size_t bytes, int samples, cudaStream_t stream, l2_flusher& flusher,
                         sample_stats* stats = nullptr);

}  // namespace ewb
