// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Launch policies on the GPU (policy.cuh): `ew::elementwise<Policy>` computes exactly what
// `ew::elementwise` does, whatever the policy's vector width, loads in flight, block size, tile and
// programmatic launch, on this device's compute capability and on another's (where ew's own run-time policy
// applies); at edge sizes, aligned and misaligned, with guard bands and poisoned outputs
// (launch_helpers.cuh). N-dimensional launches under a policy's kernel shapes (`policy_entry::nd`) too.

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

namespace {

/// ew's defaults but for the N-dimensional kernels' shapes, far from ew's own: tiles 32 a side of 96
/// threads with two loads in flight, row chunks of 200 vectors for blocks of 96 threads with 3 vectors in
/// flight, rows from 8 vectors, 3 vectors a thread on the gather path, and the N-dimensional kernel in
/// blocks of 96 threads (2 an SM) with work items of 2 rows of one vector (3 rows element by element).
struct nd_odd_policy {
  template <class Op>
  static constexpr ew::policy_entry entry() {
    ew::policy_entry e{};
    e.nd.gather_unroll = 3;
    e.nd.row_block_threads = 96;
    e.nd.row_unroll = 3;
    e.nd.row_chunk_vectors = 200;
    e.nd.row_min_vectors = 8;
    e.nd.vector_row_threads = 0;  // the row kernel where ew's own takes the vector-row kernel
    e.nd.tile_side = 32;
    e.nd.tile_block_threads = 96;
    e.nd.tile_loads_in_flight = 2;
    e.nd.tile_group = 3;
    e.nd.strided = {2, 1, 3, 96, 2};
    return e;
  }
};

template <class T>
struct copy_op {
  EW_HD T operator()(T x) const { return x; }
};

/// `ew::elementwise<nd_odd_policy>(op, e, y, in)` against `ew::elementwise(op, e, y, in)` bit for bit, and
/// against `want(i)` for every flat output index `i`.
template <class T, int R, class Op, class In, class Want>
void check_nd_policy(const char* what, Op op, const ew::extents<R>& e, In in, Want want, cudaStream_t s) {
  std::int64_t n = 1;
  for (int d = 0; d < R; ++d) n *= e[d];
  INFO(what);
  device_array<T> with(static_cast<std::size_t>(n)), plain(static_cast<std::size_t>(n));
  with.poison();
  plain.poison();
  EW_REQUIRE_CUDA(ew::elementwise<nd_odd_policy>(op, e, with.data(), in, s));
  EW_REQUIRE_CUDA(ew::elementwise(op, e, plain.data(), in, s));
  EW_REQUIRE_CUDA(cudaStreamSynchronize(s));
  const std::vector<T> hw = with.download(), hp = plain.download();
  std::size_t bad = 0, first = static_cast<std::size_t>(n);
  for (std::size_t i = 0; i < hw.size(); ++i) {
    if ((!same_bits(hw[i], hp[i]) || !same_bits(hw[i], want(i))) && bad++ == 0) first = i;
  }
  INFO(bad << " differ, first at " << first);
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("N-d launches under a policy's kernel shapes give ew's results", "[policy][nd]") {
  test_stream stream;
  // Rows of 777 elements (gather: not whole vectors) and of 4096 (1024 vectors a row: the row kernel under
  // this policy, the vector-row kernel under ew's, bit for bit the same).
  for (const std::array<std::int64_t, 2>& rc : {std::array<std::int64_t, 2>{1031, 777}, {64, 4096}}) {
    const std::int64_t R = rc[0], C = rc[1];
    const auto hx = random_values<float>(static_cast<std::size_t>(R * C), base_seed() + 31);
    const auto hb = random_values<__nv_bfloat16>(static_cast<std::size_t>(R * C), base_seed() + 32);
    const auto hv = random_values<float>(static_cast<std::size_t>(R > C ? R : C), base_seed() + 33);
    device_array<float> x(hx.size()), v(hv.size());
    device_array<__nv_bfloat16> xb(hb.size());
    x.upload(hx);
    xb.upload(hb);
    v.upload(hv);
    const float* px = x.data();
    // Transposes (the tile kernel): y[c, r] = x[r, c].
    check_nd_policy<float>(
        "transpose f32", copy_op<float>{}, ew::extents{C, R},
        ew::strided(px, ew::extents{C, R}, ew::strides{1, C}),
        [&](std::size_t i) { return hx[(i % R) * C + i / R]; }, stream.s);
    check_nd_policy<__nv_bfloat16>(
        "transpose bf16", copy_op<__nv_bfloat16>{}, ew::extents{C, R},
        ew::strided(static_cast<const __nv_bfloat16*>(xb.data()), ew::extents{C, R}, ew::strides{1, C}),
        [&](std::size_t i) { return hb[(i % R) * C + i / R]; }, stream.s);
    // A bias along the rows (where rows are whole vectors, the row kernel here and the vector-row kernel by
    // default; else gather) and a column.
    const auto bias = ew::strided(static_cast<const float*>(v.data()), ew::extents{R, C}, ew::strides{0, 1});
    check_nd_policy<float>(
        "bias f32", ew::add<float>{}, ew::extents{R, C}, ew::in(px, bias),
        [&](std::size_t i) { return hx[i] + hv[i % C]; }, stream.s);
    const auto col = ew::strided(static_cast<const float*>(v.data()), ew::extents{R, C}, ew::strides{1, 0});
    check_nd_policy<float>(
        "column f32", ew::mul<float>{}, ew::extents{R, C}, ew::in(px, col),
        [&](std::size_t i) { return hx[i] * hv[i / C]; }, stream.s);
    // Rows of 64 elements (16 vectors): the row kernel under this policy, one row a block of 96 threads
    // (80 of them idle past the row); the vector-row kernel under ew's.
    const std::int64_t short_c = 64;
    const auto short_bias =
        ew::strided(static_cast<const float*>(v.data()), ew::extents{R, short_c}, ew::strides{0, 1});
    check_nd_policy<float>(
        "bias f32, short rows", ew::add<float>{}, ew::extents{R, short_c}, ew::in(px, short_bias),
        [&](std::size_t i) { return hx[i] + hv[i % short_c]; }, stream.s);
    // Every other element of each row (the N-dimensional kernel: strided along every dimension).
    const std::int64_t half = C / 2;
    check_nd_policy<float>(
        "every other element f32", copy_op<float>{}, ew::extents{R, half},
        ew::strided(px, ew::extents{R, half}, ew::strides{C, 2}),
        [&](std::size_t i) { return hx[(i / half) * C + i % half * 2]; }, stream.s);
  }
}
