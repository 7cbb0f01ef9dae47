// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// ew_bench: ew beside cudaMemcpy, the seeds' kernels, cub::DeviceTransform and thrust::transform, timed
// the same way. See docs/BENCHMARKS.md. Google Benchmark's flags work as usual (--benchmark_filter,
// --benchmark_out=FILE --benchmark_out_format=json, ...); ew_bench adds:
//   --ew_samples=N          samples per round (default 10; rows of < 200 us get 3x as many hot, 10x cold)
//   --ew_max_reruns=N       extra rounds while cv > the limit (default 2)
//   --ew_cv_limit=PCT       the rerun rule's cv limit, percent (default 2)
//   --ew_misaligned_all     misaligned rows at every size (default: 2^16, 2^20, 2^22 ... 2^28)
//   --ew_modes=cold,hot     which modes to register (default both)
//   --ew_seed=N             input seed (default 20261130)
//   --ew_reverse            run the rows in reverse order (the self-check, bench/scripts/self_check.py)

#include <ew/elementwise.cuh>

#include <cuda/std/version>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <sstream>
#include <string>

#include "device.cuh"
#include "errors.cuh"
#include "l2_flush.cuh"
#include "stats.cuh"
#include "timing.cuh"

#include "bench.cuh"

namespace {

bool starts_with(const char* s, const char* prefix, const char** rest) {
  const std::size_t n = std::strlen(prefix);
  if (std::strncmp(s, prefix, n) != 0) return false;
  *rest = s + n;
  return true;
}

/// Takes ew_bench's own flags out of argv; returns false on a malformed one.
bool parse_flags(int& argc, char** argv, ewb::bench_options& o) {
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    const char* v = nullptr;
    const char* a = argv[i];
    if (starts_with(a, "--ew_samples=", &v)) {
      o.measure.min_samples = std::atoi(v);
      if (o.measure.min_samples < 1) return false;
    } else if (starts_with(a, "--ew_max_reruns=", &v)) {
      o.measure.max_reruns = std::atoi(v);
      if (o.measure.max_reruns < 0) return false;
    } else if (starts_with(a, "--ew_cv_limit=", &v)) {
      o.measure.cv_limit = std::atof(v) / 100.0;
    } else if (std::strcmp(a, "--ew_misaligned_all") == 0) {
      o.misaligned_all = true;
    } else if (starts_with(a, "--ew_modes=", &v)) {
      const std::string m = v;
      o.cold = m.find("cold") != std::string::npos;
      o.hot = m.find("hot") != std::string::npos;
      if (!o.cold && !o.hot) return false;
    } else if (starts_with(a, "--ew_seed=", &v)) {
      o.seed = std::strtoull(v, nullptr, 10);
    } else if (std::strcmp(a, "--ew_reverse") == 0) {
      o.reverse = true;
    } else if (std::strncmp(a, "--ew_", 5) == 0) {
      std::fprintf(stderr, "ew_bench: unknown flag %s\n", a);
      return false;
    } else {
      argv[out++] = argv[i];
    }
  }
  argc = out;
  argv[argc] = nullptr;
  return true;
}

std::string fmt(double v, int precision = 4) {
  std::ostringstream s;
  s.precision(precision);
  s << v;
  return s.str();
}

}  // namespace

namespace ewb {
/// Registers every row, in the order they run (consecutive rows share inputs; reversed with --ew_reverse,
/// host-cost rows last either way); returns the fusion note.
std::string register_all() {
  register_sweep_f32();
  register_sweep_f64();
  register_sweep_f16();
  register_sweep_bf16();
  std::string fusion = register_fusion();
  register_operands();
  register_fp8_random();
  register_catalog();
  commit_rows(env().opt.reverse);
  register_host_cost();
  return fusion;
}
}  // namespace ewb

int main(int argc, char** argv) {
  std::string command;
  bool list_only = false;
  for (int i = 0; i < argc; ++i) {
    command += (i ? " " : "") + std::string(argv[i]);
    list_only = list_only || std::strncmp(argv[i], "--benchmark_list_tests", 22) == 0;
  }

  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::printf(
          "ew_bench: ew beside cudaMemcpy, the seeds' kernels, cub and thrust (docs/BENCHMARKS.md).\n"
          "Rows: op/type/impl/mode/alignment/n. ew_bench's own flags:\n"
          "  --ew_samples=N       samples per round (default 10; rows under 200 us get 3x hot, 10x cold)\n"
          "  --ew_max_reruns=N    extra rounds while cv > the limit (default 2)\n"
          "  --ew_cv_limit=PCT    cv limit of the rerun rule, percent (default 2)\n"
          "  --ew_misaligned_all  misaligned rows at every size (default 2^16, 2^20, 2^22 ... 2^28)\n"
          "  --ew_modes=cold,hot  modes to run (default both)\n"
          "  --ew_seed=N          input seed (default 20261130)\n"
          "  --ew_reverse         run the rows in reverse order (the self-check)\n"
          "Google Benchmark's flags follow.\n\n");
    }
  }
  benchmark::Initialize(&argc, argv);
  ewb::run_env& e = ewb::env();
  if (!parse_flags(argc, argv, e.opt)) return 2;
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  e.opt.filter = benchmark::GetBenchmarkFilter();

  std::string why;
  if (!ewb::have_device(why)) {
    if (list_only && command.find("--benchmark_list_tests=false") == std::string::npos) {
      // Listing the rows needs no device: registration only reads the options.
      ewb::register_all();
      benchmark::RunSpecifiedBenchmarks();
      benchmark::Shutdown();
      return 0;
    }
    std::printf("no CUDA device: skipping benchmarks (%s)\n", why.c_str());
    return 0;
  }

  int exit_code = 0;
  try {
    e.dev = ewb::query_device();
    EWB_CHECK(cudaStreamCreateWithFlags(&e.stream, cudaStreamNonBlocking));
    static ewb::l2_flusher flusher(e.dev.l2_bytes);
    static ewb::timer tm(e.stream, &flusher);
    e.flusher = &flusher;
    e.tm = &tm;

    // The copy reference: 1 GiB device to device, cold, median of 20.
    ewb::sample_stats copy_stats;
    e.copy_GBps = ewb::measure_copy_GBps(std::size_t{1} << 30, 20, e.stream, flusher, &copy_stats);

    const std::string runtime = ewb::cuda_version_string(e.dev.runtime_version);
    const std::string driver = ewb::cuda_version_string(e.dev.driver_version);
    std::printf("ew_bench: %s (sm_%d, %d SMs, L2 %zu MiB), driver CUDA %s, runtime CUDA %s, CCCL %s, ew %d\n",
                e.dev.name.c_str(), e.dev.cc, e.dev.sm_count, e.dev.l2_bytes >> 20, driver.c_str(),
                runtime.c_str(), ewb::cccl_version_string().c_str(), EW_VERSION);
    std::printf("ew_bench: datasheet peak: %s\n", e.dev.peak_note.c_str());
    std::printf(
        "ew_bench: copy reference: cudaMemcpyAsync D2D 1 GiB = %.1f GB/s (read+write, cold, median of %d, "
        "cv %.2f%%)\n",
        e.copy_GBps, copy_stats.samples, 100.0 * copy_stats.cv);
    std::printf("ew_bench: L2 flush: memset + read of 2 x %zu bytes; input seed %llu\n", flusher.bytes() / 2,
                static_cast<unsigned long long>(e.opt.seed));

    benchmark::AddCustomContext("gpu", e.dev.name);
    benchmark::AddCustomContext("gpu_cc", std::to_string(e.dev.cc));
    benchmark::AddCustomContext("gpu_sms", std::to_string(e.dev.sm_count));
    benchmark::AddCustomContext("gpu_l2_bytes", std::to_string(e.dev.l2_bytes));
    benchmark::AddCustomContext("driver_cuda_version", driver);
    benchmark::AddCustomContext("cuda_runtime_version", runtime);
    benchmark::AddCustomContext("cccl_version", ewb::cccl_version_string());
    benchmark::AddCustomContext("ew_version", std::to_string(EW_VERSION));
    benchmark::AddCustomContext("run_date_utc", ewb::utc_now());
    benchmark::AddCustomContext("command", command);
    benchmark::AddCustomContext("copy_GBps", fmt(e.copy_GBps, 6));
    benchmark::AddCustomContext("copy_reference",
                                "cudaMemcpyAsync D2D 1 GiB, read+write bytes, cold L2, median");
    benchmark::AddCustomContext("peak_GBps", fmt(e.dev.peak_GBps, 6));
    benchmark::AddCustomContext("peak_note", e.dev.peak_note);
    benchmark::AddCustomContext("l2_flush",
                                "cudaMemsetAsync over 2x L2, then a read of another 2x L2 buffer");
    benchmark::AddCustomContext("seed", std::to_string(e.opt.seed));
    benchmark::AddCustomContext("rerun_rule",
                                "samples=" + std::to_string(e.opt.measure.min_samples) + " (x" +
                                    std::to_string(e.opt.measure.small_sample_factor) + " hot, x" +
                                    std::to_string(e.opt.measure.small_cold_sample_factor) +
                                    " cold, under 200 us), cv limit " + fmt(100.0 * e.opt.measure.cv_limit) +
                                    "%, up to " + std::to_string(e.opt.measure.max_reruns) +
                                    " reruns, lowest-cv round kept");
    benchmark::AddCustomContext("bytes_counted", "inputs read once + outputs written once, SI GB/s");

    benchmark::AddCustomContext("cccl_version_number", std::to_string(CCCL_VERSION));
    benchmark::AddCustomContext("row_order",
                                e.opt.reverse ? "reversed (--ew_reverse)" : "registration order");
    benchmark::AddCustomContext(
        "interleaving",
        "the selected implementations of one op/type/mode/alignment/size are timed together: a "
        "round is 3 repetitions, each a block of consecutive samples of every implementation "
        "after an untimed launch of it, the first rotating by repetition; counter "
        "interleaved_with = how many others shared the round");
    benchmark::AddCustomContext(
        "priming",
        "before any row, each implementation instantiation (op/type/impl) is called once at the "
        "largest size the run selects for it (CCCL 3.0.1 DeviceTransform keeps its first call's "
        "configuration)");
    const std::string fusion_note = ewb::register_all();
    benchmark::AddCustomContext("fusion", fusion_note);
    std::printf("ew_bench: fusion rows: %s\n", fusion_note.c_str());
    ewb::prime_selected_rows(e.stream);

    benchmark::RunSpecifiedBenchmarks();

    std::printf("\new_bench: copy reference %.1f GB/s; datasheet peak %.1f GB/s\n", e.copy_GBps,
                e.dev.peak_GBps);
    // The harness check: rows with known figures elsewhere (copy ~4.2 TB/s, cub f32 add ~4.4 TB/s on the
    // H200).
    for (const char* name : {"copy/f32/memcpy/cold/aligned/268435456", "add/f32/cub/cold/aligned/268435456",
                             "add/f32/ew/cold/aligned/268435456"}) {
      const auto it = ewb::results().find(name);
      if (it != ewb::results().end()) {
        std::printf("ew_bench: harness check: %-40s %8.1f GB/s (%.1f%% of copy, %.1f%% of peak)\n", name,
                    it->second, e.copy_GBps > 0 ? 100.0 * it->second / e.copy_GBps : 0.0,
                    e.dev.peak_GBps > 0 ? 100.0 * it->second / e.dev.peak_GBps : 0.0);
      }
    }
    if (!ewb::noisy_rows().empty()) {
      std::printf("ew_bench: %zu rows stayed noisy (cv above %.1f%% after every rerun):\n",
                  ewb::noisy_rows().size(), 100.0 * e.opt.measure.cv_limit);
      for (const auto& r : ewb::noisy_rows()) std::printf("  noisy: %s\n", r.c_str());
    } else {
      std::printf("ew_bench: no noisy rows\n");
    }
    if (!ewb::failures().empty()) {
      std::printf("ew_bench: %zu rows FAILED:\n", ewb::failures().size());
      for (const auto& r : ewb::failures()) std::printf("  FAILED: %s\n", r.c_str());
      exit_code = 1;
    }
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "ew_bench: %s\n", ex.what());
    exit_code = 1;
  }
  benchmark::Shutdown();
  std::fflush(stdout);
  // Static buffers are freed at exit; with a sticky CUDA error that can fail, which changes nothing.
  return exit_code;
}
