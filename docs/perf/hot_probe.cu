// Scratch: hot (graph replay) per-kernel time by block size and vectors per thread, with PDL.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cub/device/device_transform.cuh>
#include <ew/elementwise.cuh>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1);} } while (0)
template <class F> double graph_us(F&& f, cudaStream_t s, int count = 200, int reps = 21) {
  cudaGraph_t g; cudaGraphExec_t ge;
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  for (int i = 0; i < count; ++i) f(s);
  CK(cudaStreamEndCapture(s, &g)); CK(cudaGraphInstantiate(&ge, g, 0));
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  std::vector<float> t;
  for (int r = 0; r < reps + 2; ++r) {
    CK(cudaEventRecord(e0, s)); CK(cudaGraphLaunch(ge, s)); CK(cudaEventRecord(e1, s)); CK(cudaEventSynchronize(e1));
    float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); if (r >= 2) t.push_back(ms);
  }
  std::sort(t.begin(), t.end()); CK(cudaGraphExecDestroy(ge)); CK(cudaGraphDestroy(g));
  return t[t.size() / 2] * 1e3 / count;
}
using H = ew::tuning::cache_hint;
int main() {
  cudaStream_t s; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const size_t N = size_t(1) << 24;
  float *a, *b, *c; CK(cudaMalloc(&a, N * 4)); CK(cudaMalloc(&b, N * 4)); CK(cudaMalloc(&c, N * 4));
  CK(cudaMemset(a, 0x3c, N * 4)); CK(cudaMemset(b, 0x3c, N * 4));
  for (size_t n : {size_t(1) << 16, size_t(1) << 18, size_t(1) << 20, size_t(1) << 22}) {
    const double cg = graph_us([&](cudaStream_t st) { CK(cub::DeviceTransform::Transform(cuda::std::make_tuple(a, b), c, (int64_t)n, ew::add<float>{}, st)); }, s);
    const double cr = graph_us([&](cudaStream_t st) { CK(cub::DeviceTransform::Transform(cuda::std::make_tuple(a), c, (int64_t)n, ew::relu<float>{}, st)); }, s);
    printf("n=%zu cub add %.2f us, relu %.2f us\n", n, cg, cr);
    for (int pdl : {0, 1}) for (int bt : {64, 128, 256, 512}) for (int k : {1, 2}) {
      ew::tuning::launch_policy pol{}; pol.block_threads = bt; pol.per_thread = k; pol.programmatic_launch = pdl;
      const double e = graph_us([&](cudaStream_t st) { CK((ew::detail::launch<4, 2, H::normal, H::normal>(ew::add<float>{}, n, ew::out(c), ew::in(a, b), st, &pol))); }, s);
      const double r = graph_us([&](cudaStream_t st) { CK((ew::detail::launch<4, 2, H::normal, H::normal>(ew::relu<float>{}, n, ew::out(c), ew::in(a), st, &pol))); }, s);
      const double e1 = graph_us([&](cudaStream_t st) { CK((ew::detail::launch<4, 1, H::normal, H::normal>(ew::add<float>{}, n, ew::out(c), ew::in(a, b), st, &pol))); }, s);
      printf("  pdl=%d bt=%3d k=%d: add %.2f us (%.3fx cub)  relu %.2f us (%.3fx)  | U=1 add %.2f us (%.3fx)\n", pdl, bt, k, e, e / cg, r, r / cr, e1, e1 / cg);
    }
  }
  return 0;
}
