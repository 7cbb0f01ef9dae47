// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#include "bench.cuh"

#include <cuda/std/version>

#include <algorithm>
#include <cstdio>
#include <regex>
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
  return {std::size_t{1} << 16, std::size_t{1} << 20, std::size_t{1} << 22,
          std::size_t{1} << 24, std::size_t{1} << 26, std::size_t{1} << 28};
}

std::string row_name(const std::string& op, const std::string& type, const std::string& impl, mode m,
                     std::size_t offset, std::size_t n) {
  return op + "/" + type + "/" + impl + "/" + mode_name(m) + "/" + align_name(offset) + "/" +
         std::to_string(n);
}

namespace {

/// A row as registered: the row, and whether the run's filter selects it.
struct entry {
  row r;
  bool selected = false;
  bool reported = false;
};

/// The rows of one cell, and the measurements made for those that have not been reported yet.
struct cell_state {
  std::vector<std::shared_ptr<entry>> members;
  std::map<const entry*, measurement> measured;
  std::map<const entry*, int> timed_with;  ///< how many other rows shared the measurement's round
  std::map<const entry*, std::string> errors;
};

std::vector<std::shared_ptr<entry>>& queue() {
  static std::vector<std::shared_ptr<entry>> q;
  return q;
}

std::map<std::string, cell_state>& cells() {
  static std::map<std::string, cell_state> c;
  return c;
}

/// Checks one row's result right after an untimed launch (the outputs poisoned first).
void check_untimed(const row& r, cudaStream_t s) {
  r.poison(s);
  r.launch(s);
  EWB_CHECK(cudaStreamSynchronize(s));
  const check_result c = r.check(s);
  if (c.bad != 0) throw bench_failure("wrong result before timing: " + describe(c, r.n));
}

/// Measures `first` and every other selected, unreported row of its cell, interleaved.
void measure_cell(cell_state& c, entry& first) {
  run_env& e = env();
  std::vector<entry*> group;
  for (const auto& m : c.members) {
    if (m.get() == &first || (m->selected && !m->reported && c.measured.count(m.get()) == 0))
      group.push_back(m.get());
  }
  // Every member is prepared first (they share inputs and references), then checked on its own.
  std::vector<entry*> timed;
  for (entry* m : group) {
    try {
      m->r.prepare();
    } catch (const std::exception& ex) {
      c.errors[m] = ex.what();
    }
  }
  for (entry* m : group) {
    if (c.errors.count(m) != 0) continue;
    try {
      check_untimed(m->r, e.stream);
      m->r.poison(e.stream);
      timed.push_back(m);
    } catch (const std::exception& ex) {
      c.errors[m] = ex.what();
    }
  }
  if (timed.empty()) return;
  std::vector<launch_fn> fns;
  for (entry* m : timed) fns.push_back(m->r.launch);
  const double estimate = e.copy_GBps > 0 ? first.r.bytes / (e.copy_GBps * 1e9) : 1e-3;
  std::vector<measurement> ms;
  try {
    ms = e.tm->measure_interleaved(first.r.m, fns, estimate, e.opt.measure);
  } catch (const std::exception& ex) {
    for (entry* m : timed) c.errors[m] = ex.what();
    return;
  }
  for (std::size_t k = 0; k < timed.size(); ++k) {
    entry* m = timed[k];
    try {
      const check_result chk = m->r.check(e.stream);
      if (chk.bad != 0) throw bench_failure("wrong result after timing: " + describe(chk, m->r.n));
      c.measured[m] = ms[k];
      c.timed_with[m] = static_cast<int>(timed.size()) - 1;
    } catch (const std::exception& ex) {
      c.errors[m] = ex.what();
    }
  }
}

void run_entry(benchmark::State& state, entry& en) {
  run_env& e = env();
  const row& r = en.r;
  cell_state& c = cells()[r.cell];
  if (c.measured.count(&en) == 0 && c.errors.count(&en) == 0) measure_cell(c, en);
  en.reported = true;
  std::string error;
  measurement m;
  int together = 0;
  if (c.errors.count(&en) != 0) {
    error = c.errors[&en];
    c.errors.erase(&en);
  } else if (c.measured.count(&en) != 0) {
    m = c.measured[&en];
    together = c.timed_with[&en];
    c.measured.erase(&en);
    c.timed_with.erase(&en);
  } else {
    error = "not measured";
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
  state.counters["cccl_version"] = CCCL_VERSION;
  state.counters["interleaved_with"] = together;
  if (m.noisy) {
    std::ostringstream s;
    s.precision(3);
    s << r.name << " (cv " << 100.0 * m.stats.cv << "% after " << m.rounds << " rounds)";
    noisy_rows().push_back(s.str());
  }
}

}  // namespace

bool filter_selects(const std::string& spec_in, const std::string& name) {
  std::string spec = spec_in;
  if (spec.empty() || spec == "all") spec = ".";
  bool negative = false;
  if (spec[0] == '-') {
    spec.erase(0, 1);
    negative = true;
  }
  try {
    const std::regex re(spec, std::regex_constants::extended);
    return std::regex_search(name, re) != negative;
  } catch (const std::regex_error&) {
    return true;  // Google Benchmark reports the bad filter itself; measuring too much is harmless
  }
}

void register_row(row r) {
  if (r.cell.empty()) r.cell = r.name;
  auto en = std::make_shared<entry>();
  en->r = std::move(r);
  queue().push_back(std::move(en));
}

void commit_rows(bool reverse) {
  std::vector<std::shared_ptr<entry>> q = queue();
  if (reverse) std::reverse(q.begin(), q.end());
  const std::string spec = env().opt.filter;
  for (const auto& en : q) {
    // Google Benchmark matches the filter against the full name, with what it appends.
    en->selected = filter_selects(spec, en->r.name + "/iterations:1/manual_time");
    cells()[en->r.cell].members.push_back(en);
    benchmark::RegisterBenchmark(en->r.name.c_str(), [en](benchmark::State& st) { run_entry(st, *en); })
        ->Iterations(1)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
  }
}

prime_scratch& scratch(std::size_t bytes) {
  static prime_scratch p;
  if (p.a.bytes < bytes) {
    for (device_buffer* b : {&p.a, &p.b, &p.out, &p.tmp}) {
      b->ensure(bytes);
      EWB_CHECK(cudaMemset(b->ptr, 0, bytes));
    }
  }
  return p;
}

void prime_selected_rows(cudaStream_t stream) {
  std::map<std::string, const entry*> largest;
  for (const auto& en : queue()) {
    if (!en->selected || !en->r.prime) continue;
    const entry*& l = largest[en->r.prime_key];
    if (l == nullptr || l->r.n < en->r.n) l = en.get();
  }
  for (const auto& [key, en] : largest) {
    try {
      en->r.prime(en->r.n, stream);
      EWB_CHECK(cudaStreamSynchronize(stream));
    } catch (const std::exception& ex) {
      failures().push_back("prime " + key + ": " + ex.what());
      std::fprintf(stderr, "FAILED prime %s: %s\n", key.c_str(), ex.what());
    }
  }
  prime_scratch& p = scratch(0);
  p.a.release();
  p.b.release();
  p.out.release();
  p.tmp.release();
}

}  // namespace ewb
