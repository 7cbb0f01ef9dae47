// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// What ew's launcher knows of each device (detail/device_cache.cuh) and the side reductions' grid caps it
// takes from them (`tuning::policy_for_device`): the SM count, the compute capability, the memory clock
// and bus width CUDA reports and the bandwidth ew computes from them, GB/s an SM, and the caps. Run it
// first on a card ew has not seen (docs/PERFORMANCE.md, change 61: the H100 SXM reports 2619 MHz x 5120
// bits, 3352 GB/s, 25.4 an SM; the H200's figures are to be read).
// Build: `ninja ew_probe_device_facts` (bench/CMakeLists.txt).

#include <cstdio>

#include <ew/elementwise.cuh>

int main() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("no CUDA device\n");
    return 1;
  }
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop{};
    ew::detail::device_facts f{};
    int clock_khz = 0, bus_bits = 0;
    if (cudaGetDeviceProperties(&prop, d) != cudaSuccess ||
        ew::detail::query_device_facts(d, f) != cudaSuccess ||
        cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, d) != cudaSuccess ||
        cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, d) != cudaSuccess) {
      std::printf("device %d: a query failed (%s)\n", d, ew::last_error_message());
      return 1;
    }
    const ew::tuning::launch_policy p = ew::tuning::policy_for_device(f.cc, f.sm_count, f.memory_gbps);
    std::printf(
        "device %d: %s, sm_%d, %d SMs, memory clock %d kHz, bus %d bits: %d GB/s, %.1f GB/s an SM; "
        "blocks an SM for reduce_into %d, for max/min/amax reduce_into %d (0: one tile a block; -1: the "
        "former), for reduce_overwrite %d\n",
        d, prop.name, f.cc, f.sm_count, clock_khz, bus_bits, f.memory_gbps,
        static_cast<double>(f.memory_gbps) / f.sm_count, p.reduction_blocks_per_sm,
        p.monotone_reduction_blocks_per_sm, p.overwrite_blocks_per_sm);
  }
  return 0;
}
