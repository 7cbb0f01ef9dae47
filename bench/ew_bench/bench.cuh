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
#include <memory>
#include <set>
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
  bool misaligned_all = false;  ///< misaligned rows at every size, not only 2^16 and 2^20 to 2^28
  bool cold = true;
  bool hot = true;
  std::uint64_t seed = 20261130;
  bool reverse = false;  ///< register the rows in reverse order (for the self-check)
  std::string filter;    ///< the run's --benchmark_filter, as given
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
/// 2^16, 2^20, 2^22, 2^24, 2^26, 2^28: the cells of the CUB comparison (or every sweep size with
/// --ew_misaligned_all).
std::vector<std::size_t> misaligned_sizes();

inline const char* align_name(std::size_t offset) { return offset == 0 ? "aligned" : "misaligned"; }

std::string row_name(const std::string& op, const std::string& type, const std::string& impl, mode m,
                     std::size_t offset, std::size_t n);

// ------------------------------------------------------------------------------------------------
// Workspace: device buffers and the inputs/reference currently in them
// ------------------------------------------------------------------------------------------------

/// The buffers rows work in. Every row of a cell writes its own output (and temporary) slot, so that the
/// implementations timed interleaved in one cell can each be checked after timing; the references are kept
/// by op, so that rows of one cell may check against different ones.
struct workspace {
  device_buffer a, b;
  std::size_t need = 0;  ///< bytes each buffer must hold for the current inputs (set by ensure_inputs)
  std::string inputs_key;
  std::vector<unsigned char> ha, hb;  ///< host copies of the inputs (for the reference)
  std::map<std::string, std::unique_ptr<device_buffer>> refs;
  std::set<std::string> refs_ready;  ///< "op@inputs" of the references that hold the current inputs' values
  std::vector<std::unique_ptr<device_buffer>> outs, tmps;
  device_buffer& out(int slot) { return slot_buffer(outs, slot); }
  device_buffer& tmp(int slot) { return slot_buffer(tmps, slot); }
  device_buffer& ref(const std::string& op) {
    auto& p = refs[op];
    if (!p) p = std::make_unique<device_buffer>();
    return *p;
  }

 private:
  static device_buffer& slot_buffer(std::vector<std::unique_ptr<device_buffer>>& v, int slot) {
    while (static_cast<int>(v.size()) <= slot) v.push_back(std::make_unique<device_buffer>());
    return *v[static_cast<std::size_t>(slot)];
  }
};
workspace& ws();

/// Makes `ws().a` and `ws().b` hold `n` random inputs of type `T` starting `offset` elements into the
/// buffers (the same values for every row with this type and n), and output slot `slot` big enough.
template <class T>
void ensure_inputs(std::size_t n, std::size_t offset, int slot) {
  workspace& w = ws();
  const std::string key =
      std::string(type_traits<T>::name) + "/" + std::to_string(n) + "/" + std::to_string(offset);
  if (w.inputs_key != key) {
    w.inputs_key.clear();
    w.refs_ready.clear();
    const std::size_t bytes = n * sizeof(T);
    w.ha.resize(bytes);
    w.hb.resize(bytes);
    fill_random(reinterpret_cast<T*>(w.ha.data()), n, env().opt.seed, 1);
    fill_random(reinterpret_cast<T*>(w.hb.data()), n, env().opt.seed, 2);
    w.need = (n + offset) * sizeof(T) + buffer_slack_bytes;
    w.a.ensure(w.need);
    w.b.ensure(w.need);
    EWB_CHECK(cudaMemcpy(w.a.as<T>(offset), w.ha.data(), bytes, cudaMemcpyHostToDevice));
    EWB_CHECK(cudaMemcpy(w.b.as<T>(offset), w.hb.data(), bytes, cudaMemcpyHostToDevice));
    w.inputs_key = key;
  }
  w.out(slot).ensure(w.need);
}

/// Makes `ws().ref(op)` hold `ref(i)` for the current inputs, computed on the host; `op` names the op.
/// `fn(a, b, out, begin, end)` fills `out[begin, end)` from the host inputs.
template <class T, class Fn>
void ensure_reference(const std::string& op, std::size_t n, std::size_t offset, Fn fn) {
  workspace& w = ws();
  const std::string full = op + "@" + w.inputs_key;
  if (w.refs_ready.count(full) != 0) return;
  std::vector<T> host(n);
  const T* a = reinterpret_cast<const T*>(w.ha.data());
  const T* b = reinterpret_cast<const T*>(w.hb.data());
  parallel_for(n, [&](std::size_t begin, std::size_t end) { fn(a, b, host.data(), begin, end); });
  device_buffer& r = w.ref(op);
  r.ensure(w.need);
  EWB_CHECK(cudaMemcpy(r.as<T>(offset), host.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  w.refs_ready.insert(full);
}

// ------------------------------------------------------------------------------------------------
// Rows
// ------------------------------------------------------------------------------------------------

/// One benchmark row. `prepare` fills the workspace (inputs, reference, the row's output slot); `poison`
/// fills the row's outputs with NaN; `launch` runs the implementation once; `check` compares the outputs
/// with the reference (and synchronizes). The row is checked once before timing and once after (outputs
/// poisoned in between, so the timed launches themselves must have written the right values); a wrong
/// result fails the row and the run.
///
/// Rows with the same `cell` (the same op, type, mode, alignment and size; implementations differ) are
/// timed together, in interleaved blocks of samples (timer::measure_interleaved): when the first of them
/// runs, every row of the cell that the run selects is measured, and the others report that measurement when
/// their turn comes. Rows of one cell write distinct output slots (`slot`). `prime`, when set, calls the
/// implementation once on `prime_n` elements of scratch memory before any row runs: every instantiation with
/// the same `prime_key` is first called at the largest size of the run (CCCL 3.0.1's DeviceTransform
/// configures each instantiation once, on its first call, for that call's size).
struct row {
  std::string name;
  std::string cell;  ///< defaults to `name` (timed alone)
  int slot = 0;
  mode m = mode::cold;
  std::size_t n = 0;
  double bytes = 0;  ///< bytes per launch: inputs read once + outputs written once
  std::function<void()> prepare;
  std::function<void(cudaStream_t)> poison;
  launch_fn launch;
  std::function<check_result(cudaStream_t)> check;
  std::string prime_key;
  std::function<void(std::size_t prime_n, cudaStream_t)> prime;
};

/// Zeroed scratch memory for `row::prime`: four buffers of at least `bytes` each (freed after priming).
struct prime_scratch {
  device_buffer a, b, out, tmp;
};
prime_scratch& scratch(std::size_t bytes);

/// Queues a row; `commit_rows` registers the queue with Google Benchmark.
void register_row(row r);
/// Registers every queued row with Google Benchmark, in queue order or reversed (--ew_reverse), and
/// records which of them `selects` (the run's --benchmark_filter) picks.
void commit_rows(bool reverse);
/// Calls each selected row's `prime` once per `prime_key`, at the largest `n` among the selected rows of
/// that key. Run before the benchmarks.
void prime_selected_rows(cudaStream_t stream);
/// Whether Google Benchmark's --benchmark_filter (`spec`, as given) selects the row named `name`; the same
/// rule as Google Benchmark 1.7 (an extended regular expression searched in the full benchmark name, a
/// leading '-' negating it, "" and "all" selecting everything).
bool filter_selects(const std::string& spec, const std::string& name);

// ------------------------------------------------------------------------------------------------
// Registration entry points (one translation unit each, to compile in parallel)
// ------------------------------------------------------------------------------------------------

void register_sweep_f32();
void register_sweep_f64();
void register_sweep_f16();
void register_sweep_bf16();
/// Returns a note for the context: what the fusion rows use (or why there are none).
std::string register_fusion();
/// The operand rows of issue 12 (operands.cu): broadcasts, pitched and transposed views, the index,
/// constants and scalars, beside CUB with a counting iterator and ew's own 1-D ops.
void register_operands();
/// Throws a bench_failure naming ew's message when an ew launch returned an error; checks the launch.
void ew_ok(cudaError_t err);
/// Registers one cold-L2 row of cell `op/type/*/cold/aligned/n` (operands.cu): the operand and FP8/random
/// cells' rows.
void register_cold_row(const std::string& op, const std::string& type, const std::string& impl, int slot,
                       std::size_t n, double bytes, std::function<void()> prepare,
                       std::function<void(cudaStream_t)> poison_out, launch_fn launch,
                       std::function<check_result(cudaStream_t)> check);
/// The FP8 quantize-with-amax and dropout rows of issue 13 (fp8_random.cu).
void register_fp8_random();
/// The op catalog's rows of issue 23 (catalog.cu).
void register_catalog();
void register_host_cost();

}  // namespace ewb
