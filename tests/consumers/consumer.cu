// A program outside the ew source tree that uses ew through its CMake package or add_subdirectory.
// Building it is the test; with a GPU it also checks one result.
#include <cstdio>
#include <cstring>
#include <vector>

#include <ew/elementwise.cuh>

int main(int argc, char** argv) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    const bool ok = argc > 1 && std::strcmp(argv[1], "--no-gpu-ok") == 0;
    std::printf("consumer built against ew %d.%d.%d; no GPU, so nothing ran\n", EW_VERSION_MAJOR,
                EW_VERSION_MINOR, EW_VERSION_PATCH);
    return ok ? 0 : 1;
  }
  const std::size_t n = 1000;
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i) - 500.5f;
  float *dx = nullptr, *dy = nullptr;
  if (cudaMalloc(&dx, n * sizeof(float)) != cudaSuccess || cudaMalloc(&dy, n * sizeof(float)) != cudaSuccess)
    return 1;
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  if (ew::elementwise(ew::relu<float>{}, n, dy, dx) != cudaSuccess) return 1;
  std::vector<float> y(n);
  if (cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
  for (std::size_t i = 0; i < n; ++i) {
    if (y[i] != (x[i] < 0 ? 0.0f : x[i])) return 1;
  }
  cudaFree(dx);
  cudaFree(dy);
  std::printf("consumer ran relu on the GPU: ok\n");
  return 0;
}
