// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Host cost of one call (the target: within 0.3 us of a bare <<<>>> launch): the wall-clock time the
// calling thread spends in `calls` back-to-back calls of f32 add at n = 2^16 on one stream, divided by
// `calls`, then a synchronize outside the clock. Median over samples. Rows:
//   hostcost.add/f32/ew/host/aligned/65536        ew::elementwise
//   hostcost.add/f32/bare_v0/host/aligned/65536   a bare <<<>>> launch of the seed v0 kernel, grid
//                                                 precomputed
//   hostcost.add/f32/cub/host/aligned/65536       cub::DeviceTransform::Transform
//   hostcost.add/f32/thrust/host/aligned/65536    thrust::transform (par_nosync)
// 100 calls of a ~2 us kernel never fill the launch queue, so the clock sees the host side only.

#include <chrono>
#include <memory>
#include <sstream>

#include "checks.cuh"
#include "errors.cuh"
#include "stats.cuh"

#include "bench.cuh"
#include "impls.cuh"

namespace ewb {
namespace {

constexpr std::size_t host_n = std::size_t{1} << 16;
constexpr int calls_per_sample = 100;
constexpr int host_samples = 30;

enum class host_impl { ew, bare_v0, cub, thrust };

const char* host_impl_name(host_impl h) {
  switch (h) {
    case host_impl::ew:
      return "ew";
    case host_impl::bare_v0:
      return "bare_v0";
    case host_impl::cub:
      return "cub";
    case host_impl::thrust:
      return "thrust";
  }
  return "?";
}

void run_host_row(benchmark::State& state, host_impl h, const std::string& name) {
  run_env& e = env();
  sample_stats st;
  std::string error;
  try {
    ensure_inputs<float>(host_n, 0, 0);
    ensure_reference<float>("hostcost.add", host_n, 0,
                            [](const float* a, const float* b, float* o, std::size_t x, std::size_t y) {
                              for (std::size_t k = x; k < y; ++k) o[k] = a[k] + b[k];
                            });
    float* out = ws().out(0).as<float>();
    const float* a = ws().a.as<const float>();
    const float* b = ws().b.as<const float>();
    const ew::add<float> f{};
    const unsigned blocks = static_cast<unsigned>((host_n + seed_block_threads - 1) / seed_block_threads);
    cudaStream_t s = e.stream;
    // Each call as a user would write it: the return code checked, no extra cudaGetLastError (the bare
    // launch has none either; errors are collected after each sample).
    const auto g = cuda::proclaim_copyable_arguments(f);
    const auto policy = thrust::cuda::par_nosync.on(s);
    cudaError_t status = cudaSuccess;
    auto one_call = [&] {
      cudaError_t err = cudaSuccess;
      switch (h) {
        case host_impl::ew:
          err = ew::elementwise(f, host_n, out, ew::in(a, b), s);
          break;
        case host_impl::bare_v0:
          v0_kernel<ew::add<float>, float, float, float>
              <<<blocks, seed_block_threads, 0, s>>>(f, host_n, out, a, b);
          break;
        case host_impl::cub:
          err = cub::DeviceTransform::Transform(cuda::std::make_tuple(a, b), out, static_cast<int>(host_n), f,
                                                s);
          break;
        case host_impl::thrust:
          thrust::transform(policy, a, a + host_n, b, out, g);
          break;
      }
      if (err != cudaSuccess && status == cudaSuccess) status = err;
    };
    auto check_status = [&] {
      EWB_CHECK(status);
      EWB_CHECK_LAUNCH();
    };
    // Correctness and warm-up (first-call caches, module loading) before the clock.
    poison(out, host_n * sizeof(float), s);
    one_call();
    check_status();
    EWB_CHECK(cudaStreamSynchronize(s));
    const check_result c =
        compare_device(out, ws().ref("hostcost.add").as<const float>(), host_n, 0.0, 0.0, s);
    if (c.bad != 0) throw bench_failure("wrong result before timing: " + describe(c, host_n));
    for (int i = 0; i < calls_per_sample; ++i) one_call();
    check_status();
    poison(out, host_n * sizeof(float), s);  // the timed calls must write the result themselves
    EWB_CHECK(cudaStreamSynchronize(s));

    std::vector<double> t;
    for (int smp = 0; smp < host_samples; ++smp) {
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < calls_per_sample; ++i) one_call();
      const auto t1 = std::chrono::steady_clock::now();
      check_status();
      EWB_CHECK(cudaStreamSynchronize(s));
      t.push_back(std::chrono::duration<double>(t1 - t0).count() / calls_per_sample);
    }
    const check_result c2 =
        compare_device(out, ws().ref("hostcost.add").as<const float>(), host_n, 0.0, 0.0, s);
    if (c2.bad != 0) throw bench_failure("wrong result after timing: " + describe(c2, host_n));
    st = compute_stats(t);
  } catch (const std::exception& ex) {
    error = ex.what();
  }
  if (!error.empty()) {
    failures().push_back(name + ": " + error);
    state.SkipWithError(error.c_str());
    for (auto _ : state) {
    }
    return;
  }
  for (auto _ : state) state.SetIterationTime(st.median);
  state.counters["host_us_per_call"] = st.median * 1e6;
  state.counters["cv_pct"] = 100.0 * st.cv;
  state.counters["min_us"] = st.min * 1e6;
  state.counters["max_us"] = st.max * 1e6;
  state.counters["samples"] = st.samples;
  state.counters["calls_per_sample"] = calls_per_sample;
  state.counters["elements"] = static_cast<double>(host_n);
}

}  // namespace

void register_host_cost() {
  for (host_impl h : {host_impl::ew, host_impl::bare_v0, host_impl::cub, host_impl::thrust}) {
    const std::string name =
        "hostcost.add/f32/" + std::string(host_impl_name(h)) + "/host/aligned/" + std::to_string(host_n);
    benchmark::RegisterBenchmark(name.c_str(), [h, name](benchmark::State& st) { run_host_row(st, h, name); })
        ->Iterations(1)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
  }
}

}  // namespace ewb
