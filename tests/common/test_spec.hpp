// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// Shared by the test mains (host, GPU, debug). Test code only.

#include <cstring>
#include <list>
#include <string>
#include <vector>

namespace ew_test {

/// Catch2 v2 runs hidden tests ([.name]) for a test spec made only of exclusions ("~[large]"); the mains
/// pass every argument through here, which adds "~[.]" to such a spec so hidden tests stay hidden (the
/// multi-device tests, and those that need a machine without a GPU). `kept` owns the rewritten strings.
inline std::vector<char*> keep_hidden_tests_hidden(const std::vector<char*>& args,
                                                   std::list<std::string>& kept) {
  std::vector<char*> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (i > 0 && args[i][0] == '~' && std::strchr(args[i], ',') == nullptr) {
      kept.push_back(std::string(args[i]) + "~[.]");
      out.push_back(&kept.back()[0]);
    } else {
      out.push_back(args[i]);
    }
  }
  return out;
}

}  // namespace ew_test
