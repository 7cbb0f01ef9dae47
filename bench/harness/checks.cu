// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#include "checks.cuh"

#include <sstream>

#include "device_buffer.cuh"

namespace ewb {

unsigned long long* compare_counters() {
  static device_buffer counters;
  counters.ensure(2 * sizeof(unsigned long long));
  return counters.as<unsigned long long>();
}

int compare_blocks() {
  static int blocks = 0;
  if (blocks == 0) {
    int dev = 0, sms = 0;
    EWB_CHECK(cudaGetDevice(&dev));
    EWB_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    blocks = sms * 8;
  }
  return blocks;
}

std::string describe(const check_result& r, std::size_t n) {
  std::ostringstream s;
  s.precision(9);
  s << r.bad << " of " << n << " elements wrong, first at index " << r.first << ": got " << r.got << ", want "
    << r.want;
  return s.str();
}

}  // namespace ewb
