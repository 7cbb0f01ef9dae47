// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#include "stats.cuh"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace ewb {

sample_stats compute_stats(std::vector<double> t) {
  sample_stats s;
  s.samples = static_cast<int>(t.size());
  if (t.empty()) return s;
  std::sort(t.begin(), t.end());
  auto quantile = [&](double q) {
    const double pos = q * static_cast<double>(t.size() - 1);
    const std::size_t lo = static_cast<std::size_t>(pos);
    const std::size_t hi = std::min(lo + 1, t.size() - 1);
    return t[lo] + (t[hi] - t[lo]) * (pos - static_cast<double>(lo));
  };
  s.median = quantile(0.5);
  s.p25 = quantile(0.25);
  s.p75 = quantile(0.75);
  s.min = t.front();
  s.max = t.back();
  double sum = 0;
  for (double x : t) sum += x;
  s.mean = sum / static_cast<double>(t.size());
  double var = 0;
  for (double x : t) var += (x - s.mean) * (x - s.mean);
  var = t.size() > 1 ? var / static_cast<double>(t.size() - 1) : 0;
  s.cv = s.mean > 0 ? std::sqrt(var) / s.mean : 0;
  return s;
}

}  // namespace ewb
