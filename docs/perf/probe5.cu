// Scratch probe 5: (a) fused sigmoid*2+1 vs relu at 2^24 cold by tile shape; (b) small-n hot clamp f16 by block size.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cub/device/device_transform.cuh>
#include <ew/elementwise.cuh>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1);} } while (0)
using H = ew::tuning::cache_hint;
static void* flush_buf; static size_t flush_bytes; static cudaEvent_t e0, e1;
template <class F> double cold_us(F&& f, int reps = 25) {
  std::vector<float> t;
  for (int r = 0; r < reps + 2; ++r) {
    CK(cudaMemsetAsync(flush_buf, r, flush_bytes));
    CK(cudaEventRecord(e0)); f(0); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
    float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); if (r >= 2) t.push_back(ms);
  }
  std::sort(t.begin(), t.end()); return t[t.size() / 2] * 1e3;
}
template <class F> double graph_us(F&& f, cudaStream_t s, int count = 200, int reps = 15) {
  cudaGraph_t g; cudaGraphExec_t ge;
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  for (int i = 0; i < count; ++i) f(s);
  CK(cudaStreamEndCapture(s, &g)); CK(cudaGraphInstantiate(&ge, g, 0));
  std::vector<float> t;
  for (int r = 0; r < reps + 2; ++r) {
    CK(cudaEventRecord(e0, s)); CK(cudaGraphLaunch(ge, s)); CK(cudaEventRecord(e1, s)); CK(cudaEventSynchronize(e1));
    float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); if (r >= 2) t.push_back(ms);
  }
  std::sort(t.begin(), t.end()); CK(cudaGraphExecDestroy(ge)); CK(cudaGraphDestroy(g));
  return t[t.size() / 2] * 1e3 / count;
}
template <int U, class Op, class T>
double run_cold(Op op, size_t n, T* y, const T* x, int bt) {
  ew::tuning::launch_policy p = ew::tuning::policy_for_cc(90); p.block_threads = bt;
  constexpr int V = 16 / sizeof(T);
  return cold_us([&](cudaStream_t s) { CK((ew::detail::launch<V, U, H::normal, H::normal>(op, n, ew::out(y), ew::in(x), s, &p))); });
}
template <int U, class Op, class T>
double run_hot(Op op, size_t n, T* y, const T* x, int bt, cudaStream_t st) {
  ew::tuning::launch_policy p = ew::tuning::policy_for_cc(90); p.block_threads = bt;
  constexpr int V = 16 / sizeof(T);
  return graph_us([&](cudaStream_t s) { CK((ew::detail::launch<V, U, H::normal, H::normal>(op, n, ew::out(y), ew::in(x), s, &p))); }, st);
}
int main() {
  int l2; CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  flush_bytes = 2 * (size_t)l2; CK(cudaMalloc(&flush_buf, flush_bytes));
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  cudaStream_t st; CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  const size_t N = size_t(1) << 26;
  float *x, *y; CK(cudaMalloc(&x, N * 4)); CK(cudaMalloc(&y, N * 4)); CK(cudaMemset(x, 0x3c, N * 4));
  const auto fused = ew::compose(ew::sigmoid<float>{}, ew::scale_bias<float>{2.f, 1.f});
  for (size_t n : {size_t(1) << 24, size_t(1) << 26}) {
    printf("n=%zu cold, f32 (us): shape  fused  relu  ratio(relu/fused)\n", n);
    auto row = [&](const char* name, double f, double r) { printf("  %-12s %7.2f %7.2f %.3f\n", name, f, r, r / f); };
    row("U1 bt256", run_cold<1>(fused, n, y, x, 256), run_cold<1>(ew::relu<float>{}, n, y, x, 256));
    row("U2 bt128", run_cold<2>(fused, n, y, x, 128), run_cold<2>(ew::relu<float>{}, n, y, x, 128));
    row("U2 bt256", run_cold<2>(fused, n, y, x, 256), run_cold<2>(ew::relu<float>{}, n, y, x, 256));
    row("U4 bt64", run_cold<4>(fused, n, y, x, 64), run_cold<4>(ew::relu<float>{}, n, y, x, 64));
    row("U4 bt128", run_cold<4>(fused, n, y, x, 128), run_cold<4>(ew::relu<float>{}, n, y, x, 128));
    row("U8 bt64", run_cold<8>(fused, n, y, x, 64), run_cold<8>(ew::relu<float>{}, n, y, x, 64));
    row("U2 bt512", run_cold<2>(fused, n, y, x, 512), run_cold<2>(ew::relu<float>{}, n, y, x, 512));
  }
  __half *hx, *hy; CK(cudaMalloc(&hx, N * 2)); CK(cudaMalloc(&hy, N * 2)); CK(cudaMemset(hx, 0x3c, N * 2));
  const ew::clamp<__half> cl{__float2half(-1.f), __float2half(1.f)};
  for (size_t n : {size_t(1) << 10, size_t(1) << 14, size_t(1) << 16, size_t(1) << 18, size_t(1) << 20}) {
    const double cub = graph_us([&](cudaStream_t s) { CK(cub::DeviceTransform::Transform(cuda::std::make_tuple(hx), hy, (int64_t)n, cl, s)); }, st);
    printf("clamp f16 hot n=%zu: cub %.2f us |", n, cub);
    for (int bt : {32, 64, 128}) printf(" U2 bt%d %.2f (%.3f)", bt, run_hot<2>(cl, n, hy, hx, bt, st), run_hot<2>(cl, n, hy, hx, bt, st) / cub);
    printf(" | U1 bt32 %.2f U1 bt128 %.2f\n", run_hot<1>(cl, n, hy, hx, 32, st), run_hot<1>(cl, n, hy, hx, 128, st));
  }
  const ew::clamp<float> clf{-1.f, 1.f};
  for (size_t n : {size_t(1) << 16, size_t(1) << 20}) {
    const double cub = graph_us([&](cudaStream_t s) { CK(cub::DeviceTransform::Transform(cuda::std::make_tuple(x), y, (int64_t)n, clf, s)); }, st);
    printf("clamp f32 hot n=%zu: cub %.2f us |", n, cub);
    for (int bt : {32, 64, 128}) printf(" U2 bt%d %.2f", bt, run_hot<2>(clf, n, y, x, bt, st));
    printf("\n");
  }
  return 0;
}
