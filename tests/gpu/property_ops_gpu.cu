// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Half of the property test's op registry (the floating types), in its own translation unit so that it
// compiles in parallel with the other half (test_property_gpu.cu).

#include "../common/property_runner.cuh"

namespace ew_test {
namespace property {

void add_floating_ops(registry& r) {
  add_same_type_ops<float>(r);
  add_same_type_ops<double>(r);
  add_same_type_ops<__half>(r);
  add_same_type_ops<__nv_bfloat16>(r);
}

}  // namespace property
}  // namespace ew_test
