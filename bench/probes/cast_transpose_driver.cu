// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// A driver for ncu: one cast-transpose function of a cells library (libew_cells.so's
// `ew_cells_cast_transpose_<type>`, or a variant's `ew_cells_cast_transpose_<type>__<variant>` from
// libew_cast_transpose_variants.so or libew_cast_transpose_staged.so), loaded with dlopen and called
// `reps` times on x of random finite values, so that ncu sees a variant's kernel alone, outside Python
// (the eighteenth session's profile of the buffered forms beside ew's direct reads, docs/PERFORMANCE.md):
//
//   ew_probe_cast_transpose_driver LIB FUNCTION f32|bf16 M N [REPS]
//   ncu --clock-control none -k regex:tile_elementwise --launch-skip 1 -c 1 --metrics ... \
//     ew_probe_cast_transpose_driver build-gpu/bench/libew_cast_transpose_variants.so \
//     ew_cells_cast_transpose_bf16__as3n2 bf16 8192 8192 2
//
// Each call's time by CUDA events is printed (warm L2: for ncu's sake, not a measurement), and every CUDA
// and library return code is checked (probe_timing.cuh's `CK`, `device_buf`). Build: `ninja
// ew_probe_cast_transpose_driver` (bench/CMakeLists.txt).

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include <ew/reduce.cuh>

#include "probe_timing.cuh"

namespace {

using namespace ewp;
using cast_transpose_fn = int (*)(void* y8, void* yt8, void* amax, void* ws, const void* x, std::int64_t M,
                                  std::int64_t N, float scale, cudaStream_t stream);

/// `reps` calls of `fn` on x of `T`, uniform in [-4, 4), each one's time printed.
template <class T>
int run(cast_transpose_fn fn, const char* name, const char* type, std::int64_t M, std::int64_t N, int reps) {
  const std::size_t n = static_cast<std::size_t>(M) * static_cast<std::size_t>(N);
  std::vector<T> hx(n);
  std::mt19937 gen(20261207);
  std::uniform_real_distribution<float> u(-4.0f, 4.0f);
  for (auto& v : hx) v = from_f<T>(u(gen));
  device_buf<T> x(n);
  device_buf<unsigned char> y8(n), yt8(n);
  device_buf<float> amax(1);
  device_buf<ew::reduction_workspace> ws(1);
  CK(cudaMemset(ws.p, 0, sizeof(ew::reduction_workspace)));  // a workspace starts zeroed (reduce.cuh)
  CK(cudaMemcpy(x.p, hx.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  CK(cudaEventCreate(&start));
  CK(cudaEventCreate(&stop));
  for (int r = 0; r < reps; ++r) {
    CK(cudaEventRecord(start));
    const int rc = fn(y8.p, yt8.p, amax.p, ws.p, x.p, M, N, 48.0f, nullptr);
    if (rc != 0) {
      std::fprintf(stderr, "%s returned %d\n", name, rc);
      return 1;
    }
    CK(cudaGetLastError());
    CK(cudaEventRecord(stop));
    CK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CK(cudaEventElapsedTime(&ms, start, stop));
    std::printf("%s %s [%lld, %lld] call %d: %.2f us\n", name, type, static_cast<long long>(M),
                static_cast<long long>(N), r, 1000.0 * ms);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 6) {
    std::fprintf(stderr, "usage: %s LIB FUNCTION f32|bf16 M N [REPS]\n", argv[0]);
    return 2;
  }
  void* lib = dlopen(argv[1], RTLD_NOW);
  if (lib == nullptr) {
    std::fprintf(stderr, "dlopen %s: %s\n", argv[1], dlerror());
    return 1;
  }
  const auto fn = reinterpret_cast<cast_transpose_fn>(dlsym(lib, argv[2]));
  if (fn == nullptr) {
    std::fprintf(stderr, "%s has no %s\n", argv[1], argv[2]);
    return 1;
  }
  const bool bf16 = std::strcmp(argv[3], "bf16") == 0;
  if (!bf16 && std::strcmp(argv[3], "f32") != 0) {
    std::fprintf(stderr, "type %s: f32 or bf16\n", argv[3]);
    return 2;
  }
  const std::int64_t M = std::atoll(argv[4]), N = std::atoll(argv[5]);
  const int reps = argc > 6 ? std::atoi(argv[6]) : 2;
  if (M <= 0 || N <= 0 || reps <= 0) {
    std::fprintf(stderr, "M, N and REPS must be positive\n");
    return 2;
  }
  return bf16 ? run<__nv_bfloat16>(fn, argv[2], argv[3], M, N, reps)
              : run<float>(fn, argv[2], argv[3], M, N, reps);
}
