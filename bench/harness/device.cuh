// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Facts about the run for the benchmarks' context lines: the current device (`device_info`: name, SMs,
/// compute capability, L2 size, memory, the datasheet peak bandwidth and how it was computed, driver and
/// runtime versions), whether a device is usable at all (`have_device`, which the binaries ask first to
/// skip cleanly on a machine without one), version strings of CUDA and CCCL, and the UTC time of the run.

#include <cstddef>
#include <string>

namespace ewb {

struct device_info {
  int device = 0;
  std::string name;
  int sm_count = 0;
  int cc = 0;  ///< major * 10 + minor
  std::size_t l2_bytes = 0;
  std::size_t global_mem_bytes = 0;
  int mem_clock_khz = 0;
  int bus_width_bits = 0;
  double peak_GBps = 0;   ///< clock (kHz) x bus width (bits) x 2 (DDR) / 8; 0 when the attributes are missing
  std::string peak_note;  ///< how peak_GBps was computed, or why it is 0
  int driver_version = 0;
  int runtime_version = 0;
};

/// True when a CUDA device is usable; otherwise `why` says what cudaGetDeviceCount answered.
bool have_device(std::string& why);

/// Facts of the current device. Throws on a CUDA error.
device_info query_device();

/// "13.0" from 13000.
std::string cuda_version_string(int v);

/// "3.0.1": the CCCL this binary was compiled with.
std::string cccl_version_string();

/// UTC date and time, ISO 8601.
std::string utc_now();

}  // namespace ewb
