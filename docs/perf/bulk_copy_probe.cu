// Scratch: does a bulk-copy (TMA, cp.async.bulk) tile load beat plain 16-byte loads on the H200?
// Aligned pointers, n a multiple of the tile: only the body is timed.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cub/device/device_transform.cuh>
#include <cuda/ptx>
#include <cuda_fp16.h>
#include <ew/elementwise.cuh>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1);} } while (0)

static void* flush_buf; static size_t flush_bytes;
static cudaEvent_t e0, e1;
template <class F> double time_ms(F&& f, int reps = 15) {
  std::vector<float> t;
  for (int r = 0; r < reps + 2; ++r) {
    CK(cudaMemsetAsync(flush_buf, r, flush_bytes));
    CK(cudaEventRecord(e0)); f(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaGetLastError());
    float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); if (r >= 2) t.push_back(ms);
  }
  std::sort(t.begin(), t.end()); return t[t.size() / 2];
}

__device__ __forceinline__ bool elect_one() {
  unsigned is_elected;
  asm volatile("{\n\t .reg .pred P; \n\t elect.sync _|P, %1;\n\t selp.b32 %0, 1, 0, P; \n}" : "=r"(is_elected) : "r"(~0u));
  return threadIdx.x < 32 && is_elected;
}

// One tile per block: block b owns vectors [b*tile, (b+1)*tile) of every input. K = vectors per thread.
template <class Op, class T, int K, int NIn, bool StoreVec>
__global__ void __launch_bounds__(512) bulk_kernel(Op op, T* out, const T* a, const T* b, std::size_t n) {
  constexpr int V = 16 / sizeof(T);
  extern __shared__ __align__(128) unsigned char smem[];
  __shared__ uint64_t bar;
  const int bt = blockDim.x;
  const std::size_t tile_elems = std::size_t(bt) * K * V;
  const std::size_t base = blockIdx.x * tile_elems;
  const unsigned bytes = unsigned(tile_elems * sizeof(T));
  if (elect_one()) {
    cuda::ptx::mbarrier_init(&bar, 1);
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
    cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, smem, a + base, bytes, &bar);
    if (NIn == 2) cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, smem + bytes, b + base, bytes, &bar);
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta, cuda::ptx::space_shared, &bar, bytes * NIn);
  }
  __syncthreads();
  while (!cuda::ptx::mbarrier_try_wait_parity(&bar, 0)) {}
  const uint4* sa = reinterpret_cast<const uint4*>(smem);
  const uint4* sb = reinterpret_cast<const uint4*>(smem + bytes);
#pragma unroll
  for (int u = 0; u < K; ++u) {
    const int vi = u * bt + threadIdx.x;
    uint4 x = sa[vi], y = NIn == 2 ? sb[vi] : x, r;
    const T* xe = reinterpret_cast<const T*>(&x); const T* ye = reinterpret_cast<const T*>(&y); T* re = reinterpret_cast<T*>(&r);
#pragma unroll
    for (int j = 0; j < V; ++j) {
      if constexpr (NIn == 2) re[j] = op(xe[j], ye[j]); else re[j] = op(xe[j]);
    }
    if (StoreVec) {
      reinterpret_cast<uint4*>(out + base)[vi] = r;
    }
  }
}

template <class T, int K, int NIn, class Op>
void run_bulk(const char* name, Op op, std::size_t n, T* c, const T* a, const T* b, int bt, double cub_ms) {
  constexpr int V = 16 / sizeof(T);
  const std::size_t tile = std::size_t(bt) * K * V;
  const int smem = int(tile * sizeof(T) * NIn);
  auto k = bulk_kernel<Op, T, K, NIn, true>;
  CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  const unsigned blocks = unsigned(n / tile);
  auto run = [&] { k<<<blocks, bt, smem>>>(op, c, a, b, n); };
  run(); CK(cudaDeviceSynchronize());
  int occ = 0; CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, k, bt, smem));
  const double ms = time_ms(run);
  const double bytes = (1.0 + NIn) * n * sizeof(T);
  printf("  bulk %-6s K=%d bt=%d smem=%6d occ=%2d  %8.2f us %7.1f GB/s %.3fx cub\n", name, K, bt, smem, occ, ms * 1e3, bytes / ms / 1e6, cub_ms / ms);
}

template <class T>
void suite(std::size_t n) {
  T *a, *b, *c;
  CK(cudaMalloc(&a, n * sizeof(T))); CK(cudaMalloc(&b, n * sizeof(T))); CK(cudaMalloc(&c, n * sizeof(T)));
  CK(cudaMemset(a, 0x3c, n * sizeof(T))); CK(cudaMemset(b, 0x3d, n * sizeof(T)));
  {
    auto cubrun = [&] { CK(cub::DeviceTransform::Transform(cuda::std::make_tuple(a, b), c, (int64_t)n, ew::add<T>{}, 0)); };
    cubrun(); CK(cudaDeviceSynchronize());
    const double cub_ms = time_ms(cubrun);
    auto ewrun = [&] { CK(ew::elementwise(ew::add<T>{}, n, c, ew::in(a, b))); };
    const double ew_ms = time_ms(ewrun);
    const double bytes = 3.0 * n * sizeof(T);
    printf("add %zuB n=%zu: cub %.1f GB/s, ew %.1f GB/s (%.3fx)\n", sizeof(T), n, bytes / cub_ms / 1e6, bytes / ew_ms / 1e6, cub_ms / ew_ms);
    for (int bt : {128, 256}) {
      run_bulk<T, 1, 2>("add", ew::add<T>{}, n, c, a, b, bt, cub_ms);
      run_bulk<T, 2, 2>("add", ew::add<T>{}, n, c, a, b, bt, cub_ms);
      run_bulk<T, 4, 2>("add", ew::add<T>{}, n, c, a, b, bt, cub_ms);
      run_bulk<T, 8, 2>("add", ew::add<T>{}, n, c, a, b, bt, cub_ms);
    }
  }
  {
    auto cubrun = [&] { CK(cub::DeviceTransform::Transform(cuda::std::make_tuple(a), c, (int64_t)n, ew::relu<T>{}, 0)); };
    cubrun(); CK(cudaDeviceSynchronize());
    const double cub_ms = time_ms(cubrun);
    auto ewrun = [&] { CK(ew::elementwise(ew::relu<T>{}, n, c, a)); };
    const double ew_ms = time_ms(ewrun);
    const double bytes = 2.0 * n * sizeof(T);
    printf("relu %zuB n=%zu: cub %.1f GB/s, ew %.1f GB/s (%.3fx)\n", sizeof(T), n, bytes / cub_ms / 1e6, bytes / ew_ms / 1e6, cub_ms / ew_ms);
    for (int bt : {128, 256}) {
      run_bulk<T, 2, 1>("relu", ew::relu<T>{}, n, c, a, b, bt, cub_ms);
      run_bulk<T, 4, 1>("relu", ew::relu<T>{}, n, c, a, b, bt, cub_ms);
      run_bulk<T, 8, 1>("relu", ew::relu<T>{}, n, c, a, b, bt, cub_ms);
    }
  }
  CK(cudaFree(a)); CK(cudaFree(b)); CK(cudaFree(c));
}

int main() {
  int l2; CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  flush_bytes = 2 * (std::size_t)l2; CK(cudaMalloc(&flush_buf, flush_bytes));
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  suite<float>(std::size_t(1) << 28);
  suite<double>(std::size_t(1) << 28);
  suite<__half>(std::size_t(1) << 28);
  suite<float>(std::size_t(1) << 24);
  return 0;
}
