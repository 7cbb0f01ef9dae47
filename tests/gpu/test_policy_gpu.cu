// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Launch policies on the GPU (policy.cuh): `ew::elementwise<Policy>` computes exactly what
// `ew::elementwise` does, whatever the policy's vector width, loads in flight, block size, tile and
// programmatic launch, on this device's compute capability and on another's (where ew's own run-time policy
// applies); at edge sizes, aligned and misaligned, with guard bands and poisoned outputs
// (launch_helpers.cuh).

#include <array>
#include <cstdint>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/functor_reference.cuh"
#include "../common/launch_helpers.cuh"
#include "../common/test_utils.cuh"

using namespace ew_test;

namespace {

/// Far from ew's defaults: narrow vectors, many loads in flight, odd block sizes, small tiles. `Applies`:
/// the run-time part is marked for every device (measured_cc 0), or for compute capability 0.1, which no
/// device has (ew's own run-time policy applies, with this policy's kernel shape).
template <int Vec, int Loads, int Block, bool Pdl, bool Applies>
struct odd_policy {
  template <class Op>
  static constexpr ew::policy_entry entry() {
    ew::policy_entry e{};
    e.vec_width = Vec;
    e.shape.loads_in_flight = Loads;
    e.launch.block_threads = Block;
    e.launch.tile_vectors = 64;
    e.launch.programmatic_launch = Pdl;
    e.measured_cc = Applies ? 0 : 1;
    return e;
  }
};

/// Checks `ew::elementwise<Policy>(op)` against `ew::elementwise(op)` (bit for bit) and the CPU reference.
template <class Policy, class T, class Op, class Ref>
void check_policy(const char* what, Op op, Ref ref, cudaStream_t s) {
  for (std::size_t n : {std::size_t{1}, std::size_t{31}, std::size_t{4097}, std::size_t{1000003}}) {
    for (const std::array<std::size_t, 2>& off : {std::array<std::size_t, 2>{0, 0}, {1, 1}, {0, 3}}) {
      const std::uint64_t seed = base_seed() + n + 7 * off[1];
      INFO(what << " n=" << n << " offsets " << off[0] << "/" << off[1] << " seed " << seed);
      const std::vector<T> a = random_values<T>(n, seed), b = random_values<T>(n, seed + 1);
      std::vector<T> with, plain;
      if constexpr (std::is_invocable_v<Op, T, T>) {
        with = guarded_launch_with<Policy, T>(op, off[0], off[1], s, a, b);
        plain = guarded_launch<T>(op, off[0], off[1], s, a, b);
      } else {
        with = guarded_launch_with<Policy, T>(op, off[0], off[1], s, a);
        plain = guarded_launch<T>(op, off[0], off[1], s, a);
      }
      std::size_t bad = 0, first = n;
      for (std::size_t i = 0; i < n; ++i) {
        const T want = ref(a[i], b[i]);
        if ((!same_value(with[i], plain[i]) || !same_value(with[i], want)) && bad++ == 0) first = i;
      }
      INFO(bad << " differ, first at " << first);
      CHECK(bad == 0);
    }
  }
}

}  // namespace

TEST_CASE("a policy changes how, not what: every shape gives ew's results", "[policy]") {
  test_stream stream;
  const auto add_ref = [](float x, float y) { return x + y; };
  const auto relu_ref = [](__half x, __half) { return ew::relu<__half>{}(x); };
  const auto sb = ew::scale_bias<double>{1.5, -0.25};
  const auto sb_ref = [sb](double x, double) { return sb(x); };
  // The policy's run-time part applies.
  check_policy<odd_policy<2, 4, 96, true, true>, float>("add f32, vec 2, 4 loads, 96 threads",
                                                        ew::add<float>{}, add_ref, stream.s);
  check_policy<odd_policy<4, 1, 33, false, true>, __half>("relu f16, vec 4, 1 load, 33 threads, no PDL",
                                                          ew::relu<__half>{}, relu_ref, stream.s);
  check_policy<odd_policy<1, 8, 512, true, true>, double>(
      "scale_bias f64, scalar accesses, 8 loads, 512 threads", sb, sb_ref, stream.s);
  // Another architecture's: ew's own run-time policy with the policy's kernel shape.
  check_policy<odd_policy<2, 4, 96, true, false>, float>("add f32 on another architecture's policy",
                                                         ew::add<float>{}, add_ref, stream.s);
  check_policy<ew::default_policy, float>("add f32, ew::default_policy named", ew::add<float>{}, add_ref,
                                          stream.s);
}
