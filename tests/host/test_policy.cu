// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Launch policies without a GPU (policy.cuh): what counts as a policy, how a policy's entry becomes the
// kernel's compile-time shape (vector width, vectors per thread) and when its run-time part applies, that
// `ew::elementwise<Policy>` and `ew::elementwise<Op, VecWidth>` stay distinct overloads, and that a
// policy call checks its arguments exactly as the plain call does (no launch happens before the checks).

#include <string>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

namespace {

/// Tuned for add<float> only: 8-byte vectors, 4 loads in flight, 192 threads, no programmatic launch,
/// measured on sm_90; everything else gets ew's defaults.
struct add_tuned {
  template <class Op>
  static constexpr ew::policy_entry entry() {
    if constexpr (cuda::std::is_same_v<Op, ew::add<float>>) {
      ew::policy_entry e{};
      e.vec_width = 2;
      e.shape.loads_in_flight = 4;
      e.launch.block_threads = 192;
      e.launch.programmatic_launch = false;
      e.measured_cc = 90;
      return e;
    } else {
      return ew::default_policy::entry<Op>();
    }
  }
};

/// Has an `entry`, but not one that returns a policy_entry.
struct not_a_policy {
  template <class Op>
  static constexpr int entry() {
    return 0;
  }
};

}  // namespace

TEST_CASE("what counts as a launch policy", "[policy]") {
  STATIC_REQUIRE(ew::is_policy_v<ew::default_policy>);
  STATIC_REQUIRE(ew::is_policy_v<add_tuned>);
  STATIC_REQUIRE_FALSE(ew::is_policy_v<not_a_policy>);
  STATIC_REQUIRE(not_a_policy::entry<int>() == 0);
  STATIC_REQUIRE_FALSE(ew::is_policy_v<ew::add<float>>);
  STATIC_REQUIRE_FALSE(ew::is_policy_v<int>);
}

TEST_CASE("a policy entry picks the kernel's shape; the call's VecWidth wins over it", "[policy]") {
  constexpr ew::policy_entry d = ew::default_policy::entry<ew::add<float>>();
  STATIC_REQUIRE(d.vec_width == 0);
  STATIC_REQUIRE(d.shape.loads_in_flight == ew::tuning::default_kernel_shape.loads_in_flight);
  STATIC_REQUIRE(d.measured_cc == 0);
  // ew's defaults: 16 bytes of the widest type.
  STATIC_REQUIRE(ew::detail::launch_vec_width<0, d.vec_width, float, float, float> == 4);
  STATIC_REQUIRE(ew::detail::launch_vec_width<0, d.vec_width, double, float> == 2);
  // The tuned entry for add<float>, and the defaults for everything it was not tuned for.
  constexpr ew::policy_entry t = add_tuned::entry<ew::add<float>>();
  STATIC_REQUIRE(ew::detail::launch_vec_width<0, t.vec_width, float, float, float> == 2);
  STATIC_REQUIRE(t.shape.unroll_for(2) == 2);  // 4 loads over 2 inputs: 2 vectors of each
  STATIC_REQUIRE(t.shape.unroll_for(1) == 4);
  STATIC_REQUIRE(add_tuned::entry<ew::relu<float>>().vec_width == 0);
  STATIC_REQUIRE(add_tuned::entry<ew::relu<float>>().launch.block_threads == 0);
  // A policy's width that the call's types cannot take falls back to the default: 4 doubles do not fit in
  // 16 bytes, float3 has no vector form.
  STATIC_REQUIRE(ew::detail::launch_vec_width<0, 4, double, float, float> == 2);
  STATIC_REQUIRE(ew::detail::launch_vec_width<0, 4, float3, float> == 1);
  STATIC_REQUIRE(ew::detail::launch_vec_width<0, 1, float3, float> == 1);
  STATIC_REQUIRE(ew::detail::launch_vec_width<0, 8, __half, __half> == 8);
  // An explicit VecWidth overrides the policy's.
  STATIC_REQUIRE(ew::detail::launch_vec_width<1, t.vec_width, float, float, float> == 1);
}

TEST_CASE("a policy call checks its arguments before anything else", "[policy]") {
  float* null_out = nullptr;
  const float* null_in = nullptr;
  // n == 0: nothing to do, success, on any machine.
  REQUIRE(ew::elementwise<add_tuned>(ew::add<float>{}, 0, null_out, ew::in(null_in, null_in)) == cudaSuccess);
  // A null pointer with n > 0: rejected with a message, nothing launched (no device is needed to say so).
  REQUIRE(ew::elementwise<add_tuned>(ew::add<float>{}, 10, null_out, ew::in(null_in, null_in)) ==
          cudaErrorInvalidValue);
  CHECK(std::string(ew::last_error_message()).find("null") != std::string::npos);
  // A misaligned pointer (1 byte into a float): rejected the same way.
  alignas(16) static float storage[8] = {};
  float* odd = reinterpret_cast<float*>(reinterpret_cast<char*>(storage) + 1);
  REQUIRE(ew::elementwise<add_tuned>(ew::add<float>{}, 4, odd, ew::in(storage, storage)) ==
          cudaErrorInvalidValue);
  // The plain overload with an explicit Op and VecWidth is still the plain one.
  REQUIRE(ew::elementwise<ew::add<float>, 4>(ew::add<float>{}, 0, null_out, ew::in(null_in, null_in)) ==
          cudaSuccess);
  REQUIRE(ew::elementwise<ew::default_policy>(ew::relu<float>{}, 10, null_out, null_in) ==
          cudaErrorInvalidValue);
}

TEST_CASE("a policy's N-dimensional kernel shapes are checked at compile time", "[policy]") {
  using ew::tuning::nd_kernel_shapes;
  using ew::tuning::nd_kernel_shapes_error;
  STATIC_REQUIRE(nd_kernel_shapes_error(ew::tuning::default_nd_shapes) == nullptr);
  STATIC_REQUIRE(nd_kernel_shapes_error(ew::policy_entry{}.nd) == nullptr);
  constexpr auto with = [](auto set) {
    nd_kernel_shapes s{};
    set(s);
    return nd_kernel_shapes_error(s) != nullptr;
  };
  STATIC_REQUIRE(with([](nd_kernel_shapes& s) { s.gather_unroll = 0; }));
  STATIC_REQUIRE(with([](nd_kernel_shapes& s) { s.strided.vector_rows = 0; }));
  STATIC_REQUIRE(with([](nd_kernel_shapes& s) { s.strided.vector_cols = 9; }));
  STATIC_REQUIRE(with([](nd_kernel_shapes& s) { s.strided.scalar_rows = 0; }));
  STATIC_REQUIRE(with([](nd_kernel_shapes& s) { s.strided.block_threads = 100; }));
  STATIC_REQUIRE(with([](nd_kernel_shapes& s) { s.strided.min_blocks_per_sm = 0; }));
  STATIC_REQUIRE_FALSE(with([](nd_kernel_shapes& s) { s.strided = {2, 1, 3, 96, 2}; }));
  STATIC_REQUIRE(with([](nd_kernel_shapes& s) { s.row_block_threads = 100; }));
  STATIC_REQUIRE(with([](nd_kernel_shapes& s) { s.row_unroll = 17; }));
  STATIC_REQUIRE(with([](nd_kernel_shapes& s) { s.row_chunk_vectors = 0; }));
  STATIC_REQUIRE(with([](nd_kernel_shapes& s) { s.tile_side = 48; }));
  STATIC_REQUIRE(with([](nd_kernel_shapes& s) { s.tile_side = 512; }));
  STATIC_REQUIRE(with([](nd_kernel_shapes& s) { s.tile_block_threads = 2048; }));
  STATIC_REQUIRE(with([](nd_kernel_shapes& s) { s.tile_min_blocks_per_sm = 0; }));
  STATIC_REQUIRE(with([](nd_kernel_shapes& s) { s.tile_loads_in_flight = 0; }));
  STATIC_REQUIRE(with([](nd_kernel_shapes& s) { s.tile_direct_reads = -1; }));
  STATIC_REQUIRE(with([](nd_kernel_shapes& s) { s.tile_direct_reads = 17; }));
  STATIC_REQUIRE_FALSE(with([](nd_kernel_shapes& s) { s.tile_direct_reads = 0; }));
  STATIC_REQUIRE(with([](nd_kernel_shapes& s) { s.tile_async_stages = -1; }));
  STATIC_REQUIRE(with([](nd_kernel_shapes& s) { s.tile_async_stages = 5; }));
  STATIC_REQUIRE_FALSE(with([](nd_kernel_shapes& s) { s.tile_async_stages = 4; }));
  STATIC_REQUIRE(with([](nd_kernel_shapes& s) { s.tile_group = 0; }));
  STATIC_REQUIRE_FALSE(with([](nd_kernel_shapes& s) { s.tile_group = 5; }));
  STATIC_REQUIRE_FALSE(with([](nd_kernel_shapes& s) { s.tile_side = 16; }));
  STATIC_REQUIRE(with([](nd_kernel_shapes& s) { s.wide_tiles.side = 24; }));
  STATIC_REQUIRE(with([](nd_kernel_shapes& s) { s.wide_tiles.block_threads = 48; }));
  STATIC_REQUIRE(with([](nd_kernel_shapes& s) { s.wide_tiles.min_blocks_per_sm = 33; }));
  // The tile shape follows the element size unless the policy names a side.
  constexpr nd_kernel_shapes d = ew::tuning::default_nd_shapes;
  STATIC_REQUIRE(d.tile_for(1).side == 128);
  STATIC_REQUIRE(d.tile_for(2).side == 64);
  STATIC_REQUIRE(d.tile_for(4).side == 64);
  STATIC_REQUIRE(d.tile_for(4).block_threads == 128);
  STATIC_REQUIRE(d.tile_for(8).side == 32);
  STATIC_REQUIRE(d.tile_for(8).block_threads == 64);
  STATIC_REQUIRE(d.tile_for(8).min_blocks_per_sm == 16);
  constexpr nd_kernel_shapes named = [] {
    nd_kernel_shapes s{};
    s.tile_side = 16;
    s.tile_block_threads = 96;
    return s;
  }();
  STATIC_REQUIRE(named.tile_for(8).side == 16);
  STATIC_REQUIRE(named.tile_for(8).block_threads == 96);
  STATIC_REQUIRE(named.tile_for(1).side == 16);
  STATIC_REQUIRE(ew::tuning::default_nd_shapes.tile_reads_for(1) == 4);
  STATIC_REQUIRE(ew::tuning::default_nd_shapes.tile_reads_for(2) == 2);
  STATIC_REQUIRE(ew::tuning::default_nd_shapes.tile_reads_for(3) == 1);
}
