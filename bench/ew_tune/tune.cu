// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// ew_tune: sweeps ew's launch parameters for one op, type and size, and says which beat ew's defaults by
// more than the measurement spread. See docs/BENCHMARKS.md.
//
//   ew_tune --op=add --type=f32 --n=268435456 [--mode=cold|hot] [--samples=10] [--top=8]
//           [--blocks=0,128,256,512] [--waves=0,1,2,4,8,16,64] [--seed=N]
//   ew_tune --op=all|add,relu,... --type=all|f32,f16,... --n=N [--mode=...] --emit-header=FILE
//           [--policy-name=NAME]
//   ew_tune --standard     add f32 2^28, relu f16 2^28, add f32 2^24 (cold), add f32 2^20 (hot)
//
// --op and --type take a list (or `all`: add, relu, clamp, scale_bias x f32, f16, bf16, f64); every pair is
// one case. --emit-header sweeps only what ew ships (no wave cap, plain loads) and writes a policy header
// (include/ew/policy.cuh): for each case, the fastest configuration if it beats ew's default by more than
// the spread of the final rounds, else ew's default; `ew::elementwise<NAME>(...)` then uses it on devices
// of the compute capability measured (every other device keeps ew's own run-time policy).
//
// Phases: (1) every block size x waves x (vector width, unroll) with ew's plain loads, each config checked
// against the host reference, then timed (median of --samples); (2) at the best shape with 16-byte vectors,
// each load hint ew does not ship (variant.cuh); (3) the top configs and ew's default re-measured
// interleaved, 3 rounds, for the final table: median, IQR, min..max, margin over the default, and whether
// the margin exceeds the spread. Configurations ew ships (plain loads, no wave cap) run through ew's own
// dispatcher; the others through the tuner's variant launcher, which launches the same kernel.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "checks.cuh"
#include "device.cuh"
#include "device_buffer.cuh"
#include "errors.cuh"
#include "l2_flush.cuh"
#include "stats.cuh"
#include "timing.cuh"

#include "tune.cuh"

namespace ewb {
namespace tune {

const char* hint_name(load_hint h) {
  switch (h) {
    case load_hint::normal:
      return "normal";
    case load_hint::streaming:
      return "streaming";
    case load_hint::no_allocate:
      return "no_allocate";
  }
  return "?";
}

namespace {

struct options {
  std::vector<std::string> ops = {"add"}, types = {"f32"};
  std::string emit_header;                      ///< --emit-header=FILE
  std::string policy_name = "ew_tuned_policy";  ///< --policy-name=NAME
  std::size_t n = std::size_t{1} << 28;
  mode m = mode::cold;
  int samples = 10;
  int top = 8;
  std::vector<int> blocks = {0, 128, 256, 512};      ///< 0: ew's automatic block size
  std::vector<int> waves = {0, 1, 2, 4, 8, 16, 64};  ///< 0: no cap, one tile per block
  std::uint64_t seed = 20261130;
  bool standard = false;
};

struct config {
  int block = 256;  ///< 0: ew's automatic block size (the policy's tile_vectors / vectors per thread)
  int waves = 0;
  int pdl = -1;  ///< programmatic launch: 1 on, 0 off, -1 as ew's policy says (or no such field)
  shape s;
  bool is_default = false;
  std::string label() const {
    std::ostringstream o;
    o << "block=" << (block == 0 ? std::string("auto") : std::to_string(block)) << " waves=" << waves
      << " vec=" << s.vec << " unroll=" << s.unroll;
    o << " load=" << hint_name(s.load);
    if (pdl >= 0) o << " pdl=" << pdl;
    return o.str();
  }
};

struct result {
  config c;
  sample_stats st;
  std::vector<double> samples;
};

struct tuner {
  const target& t;
  const options& o;
  std::size_t n;
  mode m;
  device_info dev;
  cudaStream_t stream;
  l2_flusher& flusher;
  timer& tm;
  device_buffer a, b, out, ref;
  double bytes = 0;
  double estimate = 0;
  int launches_hot = 1;

  tuner(const target& t_, const options& o_, std::size_t n_, mode m_, const device_info& dev_,
        cudaStream_t stream_, l2_flusher& flusher_, timer& tm_)
      : t(t_), o(o_), n(n_), m(m_), dev(dev_), stream(stream_), flusher(flusher_), tm(tm_) {}

  void prepare() {
    std::vector<unsigned char> ha, hb, hr;
    t.make_data(ha, hb, hr, n, o.seed);
    const std::size_t sz = n * t.elem_size + buffer_slack_bytes;
    a.ensure(sz);
    b.ensure(sz);
    out.ensure(sz);
    ref.ensure(sz);
    EWB_CHECK(cudaMemcpy(a.ptr, ha.data(), n * t.elem_size, cudaMemcpyHostToDevice));
    EWB_CHECK(cudaMemcpy(b.ptr, hb.data(), n * t.elem_size, cudaMemcpyHostToDevice));
    EWB_CHECK(cudaMemcpy(ref.ptr, hr.data(), n * t.elem_size, cudaMemcpyHostToDevice));
    bytes = static_cast<double>(t.arity + 1) * static_cast<double>(n) * static_cast<double>(t.elem_size);
  }

  launch_fn fn(const config& c) {
    const io x{out.ptr, a.ptr, b.ptr, n};
    // Start from ew's own policy for this device, so fields the sweep does not touch keep their defaults.
    variant_launch v{ew::tuning::policy_for_cc(dev.cc), c.waves};
    v.policy.block_threads = c.block;
    if (c.pdl >= 0) v.policy.programmatic_launch = c.pdl != 0;
    const shape_launch l = c.waves > 0 ? c.s.capped_launch : c.s.launch;
    return [x, v, l](cudaStream_t s) {
      const cudaError_t err = l(x, v, s);
      if (err != cudaSuccess) {
        throw bench_failure(std::string("launch: ") + cudaGetErrorString(err) + " (" +
                            ew::last_error_message() + ")");
      }
    };
  }

  void check(const config& c, const char* when) {
    const check_result r = t.compare(out.ptr, ref.ptr, n, t.rel_tol, stream);
    if (r.bad != 0)
      throw bench_failure("wrong result " + std::string(when) + " for " + c.label() + ": " + describe(r, n));
  }

  std::vector<double> time_once(const config& c, int samples) {
    const launch_fn f = fn(c);
    return (m == mode::cold ? tm.cold_round({f}, samples) : tm.hot_round({f}, launches_hot, samples)).front();
  }

  /// Checks `c` once against the reference, then times one round.
  result measure(const config& c) {
    const launch_fn f = fn(c);
    poison(out.ptr, n * t.elem_size, stream);
    f(stream);
    EWB_CHECK(cudaStreamSynchronize(stream));
    check(c, "before timing");
    poison(out.ptr, n * t.elem_size, stream);
    result r{c, {}, time_once(c, o.samples)};
    check(c, "after timing");
    r.st = compute_stats(r.samples);
    return r;
  }
};

double gbps(const tuner& tu, double seconds) { return tu.bytes / seconds / 1e9; }

void print_row(const tuner& tu, int rank, const result& r, const result& def) {
  const double margin = (def.st.median - r.st.median) / def.st.median * 100.0;
  const double spread = (r.st.p75 - r.st.p25) / r.st.median * 100.0;
  std::printf(
      "%3d  %-72s %9.2f us %8.1f GB/s  IQR %8.2f..%-8.2f  min..max %8.2f..%-8.2f  spread %5.2f%%  vs default "
      "%+6.2f%%\n",
      rank, r.c.label().c_str(), r.st.median * 1e6, gbps(tu, r.st.median), r.st.p25 * 1e6, r.st.p75 * 1e6,
      r.st.min * 1e6, r.st.max * 1e6, spread, margin);
}

/// What one case found, for --emit-header: the fastest configuration ew ships (no wave cap, plain loads)
/// in the final rounds, and whether it beats ew's default by more than the spread.
struct outcome {
  const target* t = nullptr;
  config best;
  bool beats_default = false;
  double margin = 0, spread = 0, best_GBps = 0, default_GBps = 0;
};

/// One tuning case; throws bench_failure if a config computed a wrong result.
outcome run_case(const target& t, const options& o, std::size_t n, mode m, cudaStream_t stream,
                 l2_flusher& flusher, timer& tm, const device_info& dev) {
  const bool shippable_only = !o.emit_header.empty();
  std::printf("\n=== ew_tune: %s %s n=%zu %s L2 (%s) ===\n", t.op.c_str(), t.type.c_str(), n, mode_name(m),
              dev.name.c_str());
  tuner tu{t, o, n, m, dev, stream, flusher, tm};
  tu.prepare();
  tu.estimate = tu.bytes / 3.0e12;  // a guess for sizing the hot graph only
  {
    const double per = tu.estimate > 2e-6 ? tu.estimate : 2e-6;
    tu.launches_hot = std::max(4, std::min(1000, static_cast<int>(std::ceil(100e-6 / per))));
  }
  const ew::tuning::launch_policy dp = ew::tuning::policy_for_cc(dev.cc);
  config def;
  def.block = dp.block_threads;
  def.s = t.default_shape;
  def.is_default = true;
  std::printf(
      "ew default: %s (ew::tuning::default_kernel_shape, policy_for_cc(%d)); %.0f bytes per launch%s\n",
      def.label().c_str(), dev.cc, tu.bytes,
      m == mode::hot ? (", " + std::to_string(tu.launches_hot) + " launches per graph").c_str() : "");

  // Phase 1: block x waves x shape, plain loads.
  std::vector<result> all;
  all.push_back(tu.measure(def));
  for (int block : o.blocks) {
    for (int w : o.waves) {
      if (shippable_only && w != 0) continue;
      for (const shape& s : t.shapes) {
        config c;
        c.block = block;
        c.waves = w;
        c.s = s;
        all.push_back(tu.measure(c));
      }
    }
  }
  std::printf("phase 1: %zu configs (blocks x waves x vec x unroll, plain loads)\n", all.size());

  // Phase 2: load hints at the best 16-byte shape.
  auto by_median = [](const result& x, const result& y) { return x.st.median < y.st.median; };
  std::vector<result> sorted = all;
  std::sort(sorted.begin(), sorted.end(), by_median);
  const result* best16 = nullptr;
  for (const result& r : sorted) {
    if (r.c.s.vec == t.vec16) {
      best16 = &r;
      break;
    }
  }
  if (best16 != nullptr && !shippable_only) {
    const config base = best16->c;
    int swept = 0;
    for (const shape& s : t.hint_shapes) {
      if (s.unroll != base.s.unroll) continue;
      config c = base;
      c.s = s;
      c.is_default = false;
      all.push_back(tu.measure(c));
      ++swept;
    }
    std::printf("phase 2: %d hinted shapes at %s\n", swept, base.label().c_str());
  }

  // Phase 2b: programmatic dependent launch on and off at the best config so far.
  {
    sorted = all;
    std::sort(sorted.begin(), sorted.end(), by_median);
    const config base = sorted.front().c;
    for (int pdl : {0, 1}) {
      config c = base;
      c.pdl = pdl;
      c.is_default = false;
      all.push_back(tu.measure(c));
    }
    std::printf("phase 2b: programmatic launch off and on at %s\n", base.label().c_str());
  }

  // Phase 3: top configs and the default, interleaved, 3 rounds.
  sorted = all;
  std::sort(sorted.begin(), sorted.end(), by_median);
  std::vector<config> finalists;
  auto same = [](const config& x, const config& y) {
    return x.block == y.block && x.waves == y.waves && x.pdl == y.pdl && x.s.vec == y.s.vec &&
           x.s.unroll == y.s.unroll && x.s.load == y.s.load;
  };
  finalists.push_back(def);
  for (const result& r : sorted) {
    if (static_cast<int>(finalists.size()) >= o.top + 1) break;
    bool dup = false;
    for (const config& f : finalists) dup = dup || same(f, r.c);
    if (!dup) finalists.push_back(r.c);
  }
  std::vector<result> fin(finalists.size());
  for (std::size_t i = 0; i < finalists.size(); ++i) fin[i].c = finalists[i];
  for (int round = 0; round < 3; ++round) {
    for (result& r : fin) {
      poison(tu.out.ptr, n * t.elem_size, stream);
      const std::vector<double> s = tu.time_once(r.c, o.samples);
      tu.check(r.c, "in the final rounds");
      r.samples.insert(r.samples.end(), s.begin(), s.end());
    }
  }
  for (result& r : fin) r.st = compute_stats(r.samples);
  const result def_final = fin.front();
  std::sort(fin.begin(), fin.end(), by_median);

  std::printf("phase 3: top %d and the default, re-measured interleaved (3 rounds x %d samples):\n", o.top,
              o.samples);
  int rank = 1;
  for (const result& r : fin) print_row(tu, rank++, r, def_final);
  std::printf("  default: %s  %.2f us  %.1f GB/s\n", def_final.c.label().c_str(), def_final.st.median * 1e6,
              gbps(tu, def_final.st.median));

  const result& best = fin.front();
  const double margin = (def_final.st.median - best.st.median) / def_final.st.median;
  const double spread = std::max((best.st.p75 - best.st.p25) / best.st.median,
                                 (def_final.st.p75 - def_final.st.p25) / def_final.st.median);
  if (best.c.is_default || same(best.c, def_final.c)) {
    std::printf("verdict: ew's default is the fastest config measured.\n");
  } else if (margin <= spread) {
    std::printf(
        "verdict: best beats the default by %.2f%%, within the spread (%.2f%% IQR/median): keep the "
        "default.\n",
        100.0 * margin, 100.0 * spread);
  } else {
    std::printf("verdict: best beats the default by %.2f%%, more than the spread (%.2f%% IQR/median).\n",
                100.0 * margin, 100.0 * spread);
  }
  std::printf("to make the best ew's default, in include/ew/detail/tuning.cuh:\n");
  std::printf(
      "  kernel_shape: loads_in_flight = %d (this op has %d input%s: %d vector%s per input per thread)\n",
      best.c.s.unroll * t.arity, t.arity, t.arity > 1 ? "s" : "", best.c.s.unroll,
      best.c.s.unroll > 1 ? "s" : "");
  if (best.c.s.load != load_hint::normal || best.c.waves != 0) {
    std::printf(
        "  (load hint %s, waves %d: not in ew; ship them in include/ew/detail/vector_access.cuh and "
        "launch_shape.cuh first)\n",
        hint_name(best.c.s.load), best.c.waves);
  }
  std::printf("  policy_for_cc(%d): block_threads = %d%s", dev.cc, best.c.block,
              best.c.block == 0 ? " (auto: tile_vectors / vectors per thread)" : "");
  if (best.c.pdl >= 0) std::printf(", programmatic_launch = %s", best.c.pdl ? "true" : "false");
  std::printf("\n");
  if (best.c.s.vec != t.vec16) {
    std::printf(
        "  (vector width %d is narrower than ew's 16-byte default: pass it as ew::elementwise<Op, %d>, or "
        "change detail::default_vec_width)\n",
        best.c.s.vec, best.c.s.vec);
  }
  std::printf("  and cite this sweep (GPU, date, command) next to the constants.\n");
  outcome oc;
  oc.t = &t;
  oc.default_GBps = gbps(tu, def_final.st.median);
  oc.best = def_final.c;
  oc.best_GBps = oc.default_GBps;
  for (const result& r : fin) {  // sorted by median: the first that ew ships
    if (r.c.waves != 0 || r.c.s.load != load_hint::normal) continue;
    const double mg = (def_final.st.median - r.st.median) / def_final.st.median;
    const double sp = std::max((r.st.p75 - r.st.p25) / r.st.median,
                               (def_final.st.p75 - def_final.st.p25) / def_final.st.median);
    oc.best = r.c;
    oc.best_GBps = gbps(tu, r.st.median);
    oc.margin = mg;
    oc.spread = sp;
    oc.beats_default = !r.c.is_default && !same(r.c, def_final.c) && mg > sp;
    break;
  }
  std::fflush(stdout);
  return oc;
}

/// Writes `text` as `//` comment lines indented by `indent` spaces, words wrapped within 110 columns (the
/// project's limit, which scripts/check_format.sh holds every file to), continuation lines two spaces in.
void write_comment(std::FILE* f, int indent, const std::string& text) {
  constexpr std::size_t limit = 110;
  std::string line = std::string(static_cast<std::size_t>(indent), ' ') + "//";
  const std::string continuation = line + "  ";
  bool empty = true;
  std::stringstream words(text);
  std::string w;
  while (words >> w) {
    if (!empty && line.size() + 1 + w.size() > limit) {
      std::fprintf(f, "%s\n", line.c_str());
      line = continuation;
      empty = true;
    }
    line += " " + w;
    empty = false;
  }
  std::fprintf(f, "%s\n", line.c_str());
}

/// Writes the policy header of --emit-header (include/ew/policy.cuh describes what a policy is).
void write_header(const options& o, const std::vector<outcome>& cases, const device_info& dev, std::size_t n,
                  mode m, const std::string& command) {
  std::FILE* f = std::fopen(o.emit_header.c_str(), "w");
  if (f == nullptr) throw bench_failure("cannot write " + o.emit_header);
  const ew::tuning::launch_policy dp = ew::tuning::policy_for_cc(dev.cc);
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "Generated by ew_tune; do not edit. %s (sm_%d, %d SMs), %s, driver CUDA %s, CCCL %s, ew %d.",
                dev.name.c_str(), dev.cc, dev.sm_count, utc_now().c_str(),
                cuda_version_string(dev.driver_version).c_str(), cccl_version_string().c_str(), EW_VERSION);
  write_comment(f, 0, buf);
  write_comment(f, 0, "Command: " + command);
  std::snprintf(
      buf, sizeof buf,
      "Each entry: the fastest configuration ew ships (no wave cap, plain loads) at n = %zu, %s L2, if "
      "it beat ew's default by more than the spread (IQR / median) of the final rounds; else ew's "
      "default.",
      n, mode_name(m));
  write_comment(f, 0, buf);
  std::snprintf(
      buf, sizeof buf,
      "The run-time part applies on sm_%d only; other devices keep ew's own (include/ew/policy.cuh).",
      dev.cc);
  write_comment(f, 0, buf);
  write_comment(f, 0, "Use: ew::elementwise<" + o.policy_name + ">(op, n, out, in, stream).");
  std::fprintf(f, "#pragma once\n\n#include <ew/elementwise.cuh>\n\nstruct %s {\n", o.policy_name.c_str());
  std::fprintf(f, "  template <class Op>\n  static constexpr ew::policy_entry entry() {\n");
  bool first = true;
  for (const outcome& c : cases) {
    const target& t = *c.t;
    std::snprintf(buf, sizeof buf, "%s %s: %s %.1f GB/s, ew's default %.1f GB/s (%+.2f%%, spread %.2f%%)%s",
                  t.op.c_str(), t.type.c_str(), c.best.label().c_str(), c.best_GBps, c.default_GBps,
                  100.0 * c.margin, 100.0 * c.spread, c.beats_default ? "" : ": default kept");
    write_comment(f, 4, buf);
    if (!c.beats_default) continue;
    const int loads = c.best.s.unroll * t.arity;
    const bool pdl = c.best.pdl < 0 ? dp.programmatic_launch : c.best.pdl != 0;
    std::fprintf(f, "    %sif constexpr (cuda::std::is_same_v<Op, %s>) {\n", first ? "" : "} else ",
                 t.functor_type.c_str());
    std::fprintf(f, "      return make(%d, %d, %d, %s);\n", c.best.s.vec, loads, c.best.block,
                 pdl ? "true" : "false");
    first = false;
  }
  if (first) {
    std::fprintf(f, "    return ew::default_policy::entry<Op>();\n");
  } else {
    std::fprintf(f, "    } else {\n      return ew::default_policy::entry<Op>();\n    }\n");
  }
  std::fprintf(f, "  }\n\n private:\n");
  std::fprintf(f,
               "  static constexpr ew::policy_entry make(int vec, int loads, int block, bool pdl) {\n"
               "    ew::policy_entry e{};\n    e.vec_width = vec;\n    e.shape.loads_in_flight = loads;\n"
               "    e.launch.block_threads = block;\n    e.launch.programmatic_launch = pdl;\n"
               "    e.measured_cc = %d;\n    return e;\n  }\n};\n",
               dev.cc);
  std::fclose(f);
  std::printf("\new_tune: wrote %s (%zu cases)\n", o.emit_header.c_str(), cases.size());
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

bool parse_list(const char* s, std::vector<int>& out, int min_value = 1) {
  out.clear();
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const int v = std::atoi(item.c_str());
    if (v < min_value) return false;
    out.push_back(v);
  }
  return !out.empty();
}

bool parse(int argc, char** argv, options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* key, std::string& v) {
      const std::string k = std::string(key) + "=";
      if (a.compare(0, k.size(), k) != 0) return false;
      v = a.substr(k.size());
      return true;
    };
    std::string v;
    if (a == "--standard") {
      o.standard = true;
    } else if (value("--op", v)) {
      o.ops = split(v == "all" ? "add,relu,clamp,scale_bias" : v);
    } else if (value("--type", v)) {
      o.types = split(v == "all" ? "f32,f16,bf16,f64" : v);
    } else if (value("--emit-header", v)) {
      o.emit_header = v;
    } else if (value("--policy-name", v)) {
      o.policy_name = v;
    } else if (value("--n", v)) {
      o.n = std::strtoull(v.c_str(), nullptr, 10);
      if (o.n == 0) return false;
    } else if (value("--mode", v)) {
      if (v != "cold" && v != "hot") return false;
      o.m = v == "cold" ? mode::cold : mode::hot;
    } else if (value("--samples", v)) {
      o.samples = std::atoi(v.c_str());
      if (o.samples < 3) return false;
    } else if (value("--top", v)) {
      o.top = std::atoi(v.c_str());
      if (o.top < 1) return false;
    } else if (value("--blocks", v)) {
      if (!parse_list(v.c_str(), o.blocks, 0)) return false;
      for (int b : o.blocks) {
        if (b > ew::tuning::max_block_threads || b % 32 != 0) return false;  // 0 (auto) passes
      }
    } else if (value("--waves", v)) {
      if (!parse_list(v.c_str(), o.waves, 0)) return false;
    } else if (value("--seed", v)) {
      o.seed = std::strtoull(v.c_str(), nullptr, 10);
    } else {
      std::fprintf(stderr, "ew_tune: unknown argument %s\n", a.c_str());
      return false;
    }
  }
  return true;
}

const target* find_target(const std::vector<target>& ts, const std::string& op, const std::string& type) {
  for (const target& t : ts) {
    if (t.op == op && t.type == type) return &t;
  }
  return nullptr;
}

}  // namespace
}  // namespace tune
}  // namespace ewb

int main(int argc, char** argv) {
  using namespace ewb;
  using namespace ewb::tune;
  options o;
  const bool ok = parse(argc, argv, o);

  std::string why;
  if (!have_device(why)) {
    std::printf("no CUDA device: skipping benchmarks (%s)\n", why.c_str());
    return 0;
  }
  if (ok && o.standard && !o.emit_header.empty()) {
    std::fprintf(stderr,
                 "ew_tune: --emit-header takes --op/--type/--n/--mode, not --standard (whose cases differ "
                 "in size and mode, and one policy entry per op and type can hold only one of them)\n");
    return 2;
  }
  if (!ok || argc < 2) {
    std::fprintf(stderr,
                 "usage: ew_tune --op=all|add,relu,clamp,scale_bias --type=all|f32,f16,bf16,f64 --n=N "
                 "[--mode=cold|hot]\n"
                 "               [--samples=10] [--top=8] [--blocks=0,128,256,512] [--waves=0,1,2,4,8,16,64] "
                 "[--seed=N]\n"
                 "               [--emit-header=FILE [--policy-name=NAME]]\n"
                 "       ew_tune --standard\n");
    return 2;
  }

  try {
    const std::vector<target> targets = all_targets();
    const device_info dev = query_device();
    cudaStream_t stream = nullptr;
    EWB_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    l2_flusher flusher(dev.l2_bytes);
    timer tm(stream, &flusher);
    std::string command;
    for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
    std::printf("ew_tune: %s (sm_%d, %d SMs), driver CUDA %s, runtime CUDA %s, CCCL %s, ew %d, %s\n",
                dev.name.c_str(), dev.cc, dev.sm_count, cuda_version_string(dev.driver_version).c_str(),
                cuda_version_string(dev.runtime_version).c_str(), cccl_version_string().c_str(), EW_VERSION,
                utc_now().c_str());
    std::printf("ew_tune: command: %s\n", command.c_str());
    std::printf(
        "ew_tune: cold = L2 flushed (memset + read of 2x L2) before each timed launch; hot = launches "
        "replayed in a CUDA graph; times are per launch; seed %llu\n",
        static_cast<unsigned long long>(o.seed));

    struct job {
      std::string op, type;
      std::size_t n;
      mode m;
    };
    std::vector<job> jobs;
    if (o.standard) {
      jobs = {{"add", "f32", std::size_t{1} << 28, mode::cold},
              {"relu", "f16", std::size_t{1} << 28, mode::cold},
              {"add", "f32", std::size_t{1} << 24, mode::cold},
              {"add", "f32", std::size_t{1} << 20, mode::hot}};
    } else {
      for (const std::string& op : o.ops) {
        for (const std::string& type : o.types) jobs.push_back({op, type, o.n, o.m});
      }
    }
    for (const job& j : jobs) {
      if (find_target(targets, j.op, j.type) == nullptr) {
        std::fprintf(stderr,
                     "ew_tune: no table for %s %s (built: %s; cmake -DEW_TUNE_CASES=all builds every case)\n",
                     j.op.c_str(), j.type.c_str(), built_cases());
        return 2;
      }
    }
    std::vector<outcome> outcomes;
    for (const job& j : jobs) {
      outcomes.push_back(
          run_case(*find_target(targets, j.op, j.type), o, j.n, j.m, stream, flusher, tm, dev));
    }
    if (!o.emit_header.empty()) write_header(o, outcomes, dev, o.n, o.m, command);
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "ew_tune: FAILED: %s\n", ex.what());
    return 1;
  }
  return 0;
}
