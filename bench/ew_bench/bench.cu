// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#include "bench.cuh"

#include <cstdio>
#include <exception>
#include <memory>
#include <sstream>

#include "checks.cuh"
#include "errors.cuh"
#include "timing.cuh"

namespace ewb {

run_env& env() {
  static run_env e;
  return e;
}

std::vector<std::string>& failures() {
  static std::vector<std::string> v;
  return v;
}

std::vector<std::string>& noisy_rows() {
  static std::vector<std::string> v;
  return v;
}

std::map<std::string, double>& results() {
  static std::map<std::string, double> m;
  return m;
}

workspace& ws() {
  static workspace w;
  return w;
}

std::vector<std::size_t> sweep_sizes() {
  std::vector<std::size_t> s;
  for (int e = 10; e <= 28; e += 2) s.push_back(std::size_t{1} << e);
  s.push_back(1000003);
  return s;
}

std::vector<std::size_t> misaligned_sizes() {
  if (env().opt.misaligned_all) return sweep_sizes();
  return {std::size_t{1} << 20, std::size_t{1} << 24, std::size_t{1} << 26};
}

std::string row_name(const std::string& op, const std::string& type, const std::string& impl, mode m,
                     std::size_t offset, std::size_t n) {
  return op + "/" + type + "/" + impl + "/" + mode_name(m) + "/" + align_name(offset) + "/" + std::to_string(n);
}

namespace {

void run_row(benchmark::State& state, const row& r) {
  run_env& e = env();
  measurement m;
  std::string error;
  try {
    r.prepare();
    r.poison(e.stream);
    r.launch(e.stream);
    EWB_CHECK(cudaStreamSynchronize(e.stream));
    check_result c = r.check(e.stream);
    if (c.bad != 0) throw bench_failure("wrong result before timing: " + describe(c, r.n));
    r.poison(e.stream);
    const double estimate = e.copy_GBps > 0 ? r.bytes / (e.copy_GBps * 1e9) : 1e-3;
    m = e.tm->measure(r.m, r.launch, estimate, e.opt.measure);
    c = r.check(e.stream);
    if (c.bad != 0) throw bench_failure("wrong result after timing: " + describe(c, r.n));
  } catch (const std::exception& ex) {
    error = ex.what();
  }
  if (!error.empty()) {
    failures().push_back(r.name + ": " + error);
    std::fprintf(stderr, "FAILED %s: %s\n", r.name.c_str(), error.c_str());
    state.SkipWithError(error.c_str());
    for (auto _ : state) {
    }
    return;
  }
  for (auto _ : state) state.SetIterationTime(m.stats.median);

  const double GBps = r.bytes / m.stats.median / 1e9;
  results()[r.name] = GBps;
  state.counters["GB/s"] = GBps;
  state.counters["pct_of_copy"] = e.copy_GBps > 0 ? 100.0 * GBps / e.copy_GBps : 0.0;
  state.counters["pct_of_peak"] = e.dev.peak_GBps > 0 ? 100.0 * GBps / e.dev.peak_GBps : 0.0;
  state.counters["elements"] = static_cast<double>(r.n);
  state.counters["bytes"] = r.bytes;
  state.counters["cv_pct"] = 100.0 * m.stats.cv;
  state.counters["min_us"] = m.stats.min * 1e6;
  state.counters["p25_us"] = m.stats.p25 * 1e6;
  state.counters["p75_us"] = m.stats.p75 * 1e6;
  state.counters["max_us"] = m.stats.max * 1e6;
  state.counters["samples"] = m.stats.samples;
  state.counters["rounds"] = m.rounds;
  state.counters["noisy"] = m.noisy ? 1 : 0;
  state.counters["launches_per_sample"] = m.launches_per_sample;
  if (m.noisy) {
    std::ostringstream s;
    s.precision(3);
    s << r.name << " (cv " << 100.0 * m.stats.cv << "% after " << m.rounds << " rounds)";
    noisy_rows().push_back(s.str());
  }
}

}  // namespace

void register_row(row r) {
  auto shared = std::make_shared<row>(std::move(r));
  benchmark::RegisterBenchmark(shared->name.c_str(), [shared](benchmark::State& st) { run_row(st, *shared); })
      ->Iterations(1)
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace ewb
