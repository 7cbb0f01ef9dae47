// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Runs both probes of odr_probe.cu (one unit built with EW_DEBUG_SYNC, one without, linked into this
// program in the order the build chose) and checks that each unit kept its own configuration.

#include <cstdio>

#include "odr_probe.cuh"

namespace {
const char* name(ew_odr::behaviour b) {
  switch (b) {
    case ew_odr::behaviour::default_config:
      return "default";
    case ew_odr::behaviour::debug_config:
      return "debug";
    default:
      return "unclear";
  }
}
}  // namespace

int main() {
  const ew_odr::behaviour d = ew_odr::probe_default(), g = ew_odr::probe_debug();
  const int failed = (d != ew_odr::behaviour::default_config) + (g != ew_odr::behaviour::debug_config);
  std::printf("unit built without EW_DEBUG_SYNC behaved as: %s (want default)\n", name(d));
  std::printf("unit built with EW_DEBUG_SYNC behaved as: %s (want debug)\n", name(g));
  std::printf("%d passed, %d failed\n", 2 - failed, failed);
  return failed == 0 ? 0 : 1;
}
