// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Sample statistics of a measurement: `sample_stats` (count, median, mean, min, max, quartiles and the
/// coefficient of variation that the timer's rerun rule tests) and `compute_stats`, which derives them from
/// a round's per-launch times.

#include <vector>

namespace ewb {

struct sample_stats {
  int samples = 0;
  double median = 0, mean = 0, min = 0, max = 0, p25 = 0, p75 = 0;  ///< seconds per launch
  double cv = 0;                                                    ///< stddev / mean
};

sample_stats compute_stats(std::vector<double> seconds);

}  // namespace ewb
