// Scratch: hot-mode per-kernel time in graph replay, with and without programmatic dependent launch.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <chrono>
#include <cub/device/device_transform.cuh>
#include <ew/elementwise.cuh>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1);} } while (0)

template <class F> double graph_us(F&& f, cudaStream_t s, int count = 200, int reps = 15) {
  cudaGraph_t g; cudaGraphExec_t ge;
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  for (int i = 0; i < count; ++i) f(s);
  CK(cudaStreamEndCapture(s, &g));
  CK(cudaGraphInstantiate(&ge, g, 0));
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  std::vector<float> t;
  for (int r = 0; r < reps + 2; ++r) {
    CK(cudaEventRecord(e0, s)); CK(cudaGraphLaunch(ge, s)); CK(cudaEventRecord(e1, s)); CK(cudaEventSynchronize(e1));
    float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); if (r >= 2) t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  CK(cudaGraphExecDestroy(ge)); CK(cudaGraphDestroy(g));
  return t[t.size() / 2] * 1e3 / count;
}
template <class F> double stream_us(F&& f, cudaStream_t s, int count = 200, int reps = 15) {
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  std::vector<float> t;
  for (int r = 0; r < reps + 2; ++r) {
    CK(cudaEventRecord(e0, s)); for (int i = 0; i < count; ++i) f(s); CK(cudaEventRecord(e1, s)); CK(cudaEventSynchronize(e1));
    float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); if (r >= 2) t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2] * 1e3 / count;
}

int main() {
  cudaStream_t s; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const size_t N = size_t(1) << 24;
  float *a, *b, *c; CK(cudaMalloc(&a, N * 4)); CK(cudaMalloc(&b, N * 4)); CK(cudaMalloc(&c, N * 4));
  CK(cudaMemset(a, 0x3c, N * 4)); CK(cudaMemset(b, 0x3c, N * 4));
  for (size_t n : {size_t(1) << 10, size_t(1) << 16, size_t(1) << 20, size_t(1) << 22, size_t(1) << 24}) {
    auto cubf = [&](cudaStream_t st) { CK(cub::DeviceTransform::Transform(cuda::std::make_tuple(a, b), c, (int64_t)n, ew::add<float>{}, st)); };
    ew::tuning::launch_policy plain{}, pdl{}; pdl.programmatic_launch = true;
    auto ewf = [&](cudaStream_t st) { CK((ew::detail::launch<4, 2, ew::tuning::cache_hint::normal, ew::tuning::cache_hint::normal>(ew::add<float>{}, n, ew::out(c), ew::in(a, b), st, &plain))); };
    auto ewp = [&](cudaStream_t st) { CK((ew::detail::launch<4, 2, ew::tuning::cache_hint::normal, ew::tuning::cache_hint::normal>(ew::add<float>{}, n, ew::out(c), ew::in(a, b), st, &pdl))); };
    const double cg = graph_us(cubf, s), eg = graph_us(ewf, s), pg = graph_us(ewp, s);
    const double cs = stream_us(cubf, s), es = stream_us(ewf, s), ps = stream_us(ewp, s);
    printf("add f32 n=%9zu graph: cub %.2f us, ew %.2f us (%.3fx cub), ew+pdl %.2f us (%.3fx cub) | stream: cub %.2f, ew %.2f, ew+pdl %.2f\n",
           n, cg, eg, eg / cg, pg, pg / cg, cs, es, ps);
  }
  { // dependent chain under PDL, in a graph and on a stream: c = a + b, then c = c + b, 49 times.
    const size_t n = (size_t(1) << 20) + 3;
    std::vector<float> one(n, 1.0f);
    CK(cudaMemcpy(a, one.data(), n * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(b, one.data(), n * 4, cudaMemcpyHostToDevice));
    ew::tuning::launch_policy pdl{}; pdl.programmatic_launch = true;
    for (int graph = 0; graph < 2; ++graph) {
      CK(cudaMemset(c, 0xff, n * 4));
      auto chain = [&](cudaStream_t st) {
        CK((ew::detail::launch<4, 2, ew::tuning::cache_hint::normal, ew::tuning::cache_hint::normal>(ew::add<float>{}, n, ew::out(c), ew::in(a, b), st, &pdl)));
        for (int i = 0; i < 49; ++i) CK((ew::detail::launch<4, 2, ew::tuning::cache_hint::normal, ew::tuning::cache_hint::normal>(ew::add<float>{}, n, ew::out(c), ew::in((const float*)c, b), st, &pdl)));
      };
      if (graph) { graph_us(chain, s, 1, 1); } else { chain(s); }
      CK(cudaStreamSynchronize(s));
      std::vector<float> got(n); CK(cudaMemcpy(got.data(), c, n * 4, cudaMemcpyDeviceToHost));
      size_t bad = 0; for (float x : got) bad += x != 51.0f;
      printf("pdl dependent chain (%s): %zu wrong of %zu\n", graph ? "graph" : "stream", bad, n);
    }
  }
  // host cost per call: calls into a capture (no GPU execution), wall clock.
  for (int rep = 0; rep < 3; ++rep) {
    const int calls = 2000; const size_t n = 1 << 16;
    auto host_ns = [&](auto&& f) {
      cudaGraph_t g; CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
      auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < calls; ++i) f(s);
      auto t1 = std::chrono::steady_clock::now();
      CK(cudaStreamEndCapture(s, &g)); CK(cudaGraphDestroy(g));
      return std::chrono::duration<double, std::nano>(t1 - t0).count() / calls;
    };
    const double ew_ns = host_ns([&](cudaStream_t st) { CK(ew::elementwise(ew::add<float>{}, n, c, ew::in(a, b), st)); });
    const double cub_ns = host_ns([&](cudaStream_t st) { CK(cub::DeviceTransform::Transform(cuda::std::make_tuple(a, b), c, (int64_t)n, ew::add<float>{}, st)); });
    printf("host cost per call (captured): ew %.0f ns, cub %.0f ns\n", ew_ns, cub_ns);
  }
  return 0;
}
