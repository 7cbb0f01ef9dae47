// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// ew_bench's Google Benchmark glue: the run's environment (device, stream, flush, copy reference), the
/// data workspace shared by consecutive rows, and `register_row`, which turns a row (prepare, launch,
/// check) into one benchmark whose time is the median of the harness's samples.
///
/// Row names are `op/type/impl/mode/alignment/n`, e.g. `add/f32/ew/cold/aligned/268435456`; Google
/// Benchmark appends `/iterations:1/manual_time`.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "checks.cuh"
#include "device.cuh"
#include "device_buffer.cuh"
#include "element_types.cuh"
#include "errors.cuh"
#include "inputs.cuh"
#include "l2_flush.cuh"
#include "timing.cuh"

namespace ewb {

struct bench_options {
  measure_options measure;
  bool misaligned_all = false;  ///< misaligned rows at every size, not only 2^20, 2^24, 2^26
  bool cold = true;
  bool hot = true;
  std::uint64_t seed = 20261130;
};

/// Everything a row needs from the run; set up by main before the benchmarks run.
struct run_env {
  device_info dev;
  double copy_GBps = 0;  ///< cudaMemcpyAsync D2D of 1 GiB, read + write bytes, cold, median
  cudaStream_t stream = nullptr;
  l2_flusher* flusher = nullptr;
  timer* tm = nullptr;
  bench_options opt;
};
run_env& env();

/// Rows that failed (name: why) and rows whose cv stayed above the limit after every rerun.
std::vector<std::string>& failures();
std::vector<std::string>& noisy_rows();
/// GB/s of every row that ran, by name (for the end-of-run summary).
std::map<std::string, double>& results();

// ------------------------------------------------------------------------------------------------
// Sizes and names
// ------------------------------------------------------------------------------------------------

/// 2^10, 2^12, ..., 2^28 and 1000003.
std::vector<std::size_t> sweep_sizes();
/// 2^20, 2^24, 2^26 (or every sweep size with --ew_misaligned_all).
std::vector<std::size_t> misaligned_sizes();

inline const char* align_name(std::size_t offset) { return offset == 0 ? "aligned" : "misaligned"; }

std::string row_name(const std::string& op, const std::string& type, const std::string& impl, mode m,
                     std::size_t offset, std::size_t n);

// ------------------------------------------------------------------------------------------------
// Workspace: device buffers and the inputs/reference currently in them
// ------------------------------------------------------------------------------------------------

struct workspace {
  device_buffer a, b, out, ref, tmp;
  std::string inputs_key, ref_key;
  std::vector<unsigned char> ha, hb;  ///< host copies of the inputs (for the reference)
};
workspace& ws();

/// Makes `ws().a` and `ws().b` hold `n` random inputs of type `T` starting `offset` elements into the
/// buffers (the same values for every row with this type and n), and sizes every buffer for them.
template <class T>
void ensure_inputs(std::size_t n, std::size_t offset) {
  workspace& w = ws();
  const std::string key = std::string(type_traits<T>::name) + "/" + std::to_string(n) + "/" + std::to_string(offset);
  if (w.inputs_key == key) return;
  w.inputs_key.clear();
  w.ref_key.clear();
  const std::size_t bytes = n * sizeof(T);
  w.ha.resize(bytes);
  w.hb.resize(bytes);
  fill_random(reinterpret_cast<T*>(w.ha.data()), n, env().opt.seed, 1);
  fill_random(reinterpret_cast<T*>(w.hb.data()), n, env().opt.seed, 2);
  const std::size_t need = (n + offset) * sizeof(T) + buffer_slack_bytes;
  w.a.ensure(need);
  w.b.ensure(need);
  w.out.ensure(need);
  w.ref.ensure(need);
  EWB_CHECK(cudaMemcpy(w.a.as<T>(offset), w.ha.data(), bytes, cudaMemcpyHostToDevice));
  EWB_CHECK(cudaMemcpy(w.b.as<T>(offset), w.hb.data(), bytes, cudaMemcpyHostToDevice));
  w.inputs_key = key;
}

/// Makes `ws().ref` hold `ref(i)` for the current inputs, computed on the host; `key` names the op.
/// `fn(a, b, out, begin, end)` fills `out[begin, end)` from the host inputs.
template <class T, class Fn>
void ensure_reference(const std::string& key, std::size_t n, std::size_t offset, Fn fn) {
  workspace& w = ws();
  const std::string full = key + "@" + w.inputs_key;
  if (w.ref_key == full) return;
  w.ref_key.clear();
  std::vector<T> host(n);
  const T* a = reinterpret_cast<const T*>(w.ha.data());
  const T* b = reinterpret_cast<const T*>(w.hb.data());
  parallel_for(n, [&](std::size_t begin, std::size_t end) { fn(a, b, host.data(), begin, end); });
  EWB_CHECK(cudaMemcpy(w.ref.as<T>(offset), host.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  w.ref_key = full;
}

// ------------------------------------------------------------------------------------------------
// Rows
// ------------------------------------------------------------------------------------------------

/// One benchmark row. `prepare` fills the workspace (inputs, reference); `poison` fills the outputs with
/// NaN; `launch` runs the implementation once; `check` compares the outputs with the reference (and
/// synchronizes). The row is checked once before timing and once after (outputs poisoned in between, so the
/// timed launches themselves must have written the right values); a wrong result fails the row and the run.
struct row {
  std::string name;
  mode m = mode::cold;
  std::size_t n = 0;
  double bytes = 0;  ///< bytes per launch: inputs read once + outputs written once
  std::function<void()> prepare;
  std::function<void(cudaStream_t)> poison;
  launch_fn launch;
  std::function<check_result(cudaStream_t)> check;
};

void register_row(row r);

// ------------------------------------------------------------------------------------------------
// Registration entry points (one translation unit each, to compile in parallel)
// ------------------------------------------------------------------------------------------------

void register_sweep_f32();
void register_sweep_f64();
void register_sweep_f16();
void register_sweep_bf16();
/// Returns a note for the context: what the fusion rows use (or why there are none).
std::string register_fusion();
void register_host_cost();

}  // namespace ewb
