// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#include "device.cuh"

#include <cuda/std/version>

#ifdef EWB_EXPECT_CCCL_VERSION
static_assert(CCCL_VERSION == EWB_EXPECT_CCCL_VERSION,
              "built against another CCCL than EW_BENCH_CCCL_INCLUDE_DIR");
#endif
#include <cuda_runtime.h>

#include <ctime>
#include <sstream>

#include "errors.cuh"

namespace ewb {

bool have_device(std::string& why) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    why = std::string("cudaGetDeviceCount: ") + cudaGetErrorString(err);
    (void)cudaGetLastError();
    return false;
  }
  if (count == 0) {
    why = "cudaGetDeviceCount found 0 devices";
    return false;
  }
  return true;
}

std::string cuda_version_string(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

std::string cccl_version_string() {
  return std::to_string(CCCL_MAJOR_VERSION) + "." + std::to_string(CCCL_MINOR_VERSION) + "." +
         std::to_string(CCCL_PATCH_VERSION);
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

device_info query_device() {
  device_info d;
  EWB_CHECK(cudaGetDevice(&d.device));
  cudaDeviceProp prop{};
  EWB_CHECK(cudaGetDeviceProperties(&prop, d.device));
  d.name = prop.name;
  d.global_mem_bytes = prop.totalGlobalMem;
  int v = 0, major = 0, minor = 0;
  EWB_CHECK(cudaDeviceGetAttribute(&d.sm_count, cudaDevAttrMultiProcessorCount, d.device));
  EWB_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, d.device));
  EWB_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, d.device));
  d.cc = major * 10 + minor;
  EWB_CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrL2CacheSize, d.device));
  d.l2_bytes = static_cast<std::size_t>(v);
  EWB_CHECK(cudaDriverGetVersion(&d.driver_version));
  EWB_CHECK(cudaRuntimeGetVersion(&d.runtime_version));

  // The datasheet peak from the memory clock and bus width. CUDA 13 dropped cudaDeviceProp::memoryClockRate
  // but kept the attribute; a driver that does not report it gets a peak of 0 and says so.
  const cudaError_t e1 = cudaDeviceGetAttribute(&d.mem_clock_khz, cudaDevAttrMemoryClockRate, d.device);
  const cudaError_t e2 = cudaDeviceGetAttribute(&d.bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, d.device);
  (void)cudaGetLastError();
  std::ostringstream note;
  if (e1 != cudaSuccess || e2 != cudaSuccess || d.mem_clock_khz <= 0 || d.bus_width_bits <= 0) {
    d.peak_GBps = 0;
    note << "datasheet peak unavailable: cudaDevAttrMemoryClockRate -> "
         << (e1 == cudaSuccess ? std::to_string(d.mem_clock_khz) : cudaGetErrorString(e1))
         << ", cudaDevAttrGlobalMemoryBusWidth -> "
         << (e2 == cudaSuccess ? std::to_string(d.bus_width_bits) : cudaGetErrorString(e2))
         << "; pct_of_peak is reported as 0";
  } else {
    d.peak_GBps = static_cast<double>(d.mem_clock_khz) * 1e3 * d.bus_width_bits * 2.0 / 8.0 / 1e9;
    note << d.mem_clock_khz << " kHz x " << d.bus_width_bits << " bit x 2 (DDR) / 8 = " << d.peak_GBps
         << " GB/s";
  }
  d.peak_note = note.str();
  return d;
}

}  // namespace ewb
