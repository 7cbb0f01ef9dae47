// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Overwrite targets and the capped grid of launches with side reductions on the host (ctest
// host.reduce_overwrite): the grid cap's arithmetic; the last block's walk over the workspace slots (each
// slot once, in a fixed order, whatever the grid and block size); the order keys of max, min and amax (the
// larger key is the combined value's, every value and special of each type); every thread of simulated capped
// grids (several sizes, offsets, block sizes, caps down to one block) through the kernel body into overwrite
// targets whose locations hold garbage before each launch, against reductions computed here (max, min, amax
// and integer sums exactly, NaN included; a float sum close to a double sum); and the bad arguments through
// `ew::elementwise`, each rejected with its message before anything touches a device.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/side_reduction_sim.cuh"

namespace {

/// `(x * 2, x, x, x, x * 1000 as an integer)`: a value to write and four to reduce.
struct twice_and_keep4 {
  EW_HD cuda::std::tuple<float, float, float, float, std::int64_t> operator()(float x) const {
    return {x * 2.0f, x, x, x, static_cast<std::int64_t>(x * 1000.0f)};
  }
};

/// `(x, x)`: two values to reduce.
struct keep_two {
  EW_HD cuda::std::tuple<float, float> operator()(float x) const { return {x, x}; }
};

/// A zeroed workspace on the heap (64 KiB: too large for the stack of a test).
std::unique_ptr<ew::reduction_workspace> zeroed_workspace() {
  auto ws = std::make_unique<ew::reduction_workspace>();
  std::memset(ws.get(), 0, sizeof(ew::reduction_workspace));
  return ws;
}

}  // namespace

TEST_CASE("reduce_into's grid for max, min and amax follows the memory bandwidth an SM",
          "[reduce_overwrite]") {
  using ew::tuning::policy_for_device;
  // The cards measured (memory clock and bus width as CUDA reports them, tuning.cuh): the H100 SXM's 2619
  // MHz x 5120 bits, 3352 GB/s over 132 SMs, takes one tile a block; the H200's 6144-bit HBM3e (4.8 TB/s
  // nominal, about 36 GB/s an SM) keeps reduction_blocks_per_sm's 32 (-1).
  const int h100 = ew::detail::memory_gbps_of(2619000, 5120);
  CHECK(h100 == 3352);
  CHECK(policy_for_device(90, 132, h100).monotone_reduction_blocks_per_sm == 0);
  CHECK(policy_for_device(90, 132, ew::detail::memory_gbps_of(3200000, 6144))
            .monotone_reduction_blocks_per_sm == -1);
  CHECK(policy_for_device(90, 132, 4800).monotone_reduction_blocks_per_sm == -1);
  // The line: 30 GB/s an SM.
  CHECK(policy_for_device(90, 100, 2999).monotone_reduction_blocks_per_sm == 0);
  CHECK(policy_for_device(90, 100, 3000).monotone_reduction_blocks_per_sm == -1);
  // Unknown bandwidth or SM count: the cap stays. Nothing else of the policy moves.
  CHECK(policy_for_device(90, 132, 0).monotone_reduction_blocks_per_sm == -1);
  CHECK(policy_for_device(90, 0, 3352).monotone_reduction_blocks_per_sm == -1);
  CHECK(ew::detail::memory_gbps_of(0, 5120) == 0);
  CHECK(ew::detail::memory_gbps_of(2619000, 0) == 0);
  // A user's launch policy (what an ew::elementwise<Policy> entry carries) keeps ew's device choice while
  // its monotone cap is -1, and its own value otherwise.
  ew::tuning::launch_policy user{};
  user.reduction_blocks_per_sm = 16;
  CHECK(ew::tuning::with_device_choices(user, 132, h100).monotone_reduction_blocks_per_sm == 0);
  CHECK(ew::tuning::with_device_choices(user, 132, 4800).monotone_reduction_blocks_per_sm == -1);
  CHECK(ew::tuning::with_device_choices(user, 132, h100).reduction_blocks_per_sm == 16);
  user.monotone_reduction_blocks_per_sm = 8;
  CHECK(ew::tuning::with_device_choices(user, 132, h100).monotone_reduction_blocks_per_sm == 8);
  for (int cc : {80, 90, 100}) {
    const ew::tuning::launch_policy a = ew::tuning::policy_for_cc(cc), b = policy_for_device(cc, 132, h100);
    CHECK(b.reduction_blocks_per_sm == a.reduction_blocks_per_sm);  // a sum keeps its cap
    CHECK(b.overwrite_blocks_per_sm == a.overwrite_blocks_per_sm);
    CHECK(b.programmatic_launch == a.programmatic_launch);
    CHECK(b.tile_vectors == a.tile_vectors);
    CHECK(b.block_threads == a.block_threads);
    CHECK(b.reduction_waves == a.reduction_waves);
  }
}

TEST_CASE("reduce_overwrite: the grid of a launch with side reductions", "[reduce_overwrite]") {
  ew::tuning::launch_policy policy = ew::tuning::policy_for_cc(90);
  using ew::detail::side_reduction_blocks;
  constexpr auto into = ew::detail::side_grid::into;
  constexpr auto overwrite = ew::detail::side_grid::overwrite;
  constexpr auto monotone = ew::detail::side_grid::monotone_into;
  CHECK(policy.reduction_blocks_per_sm == 32);
  CHECK(policy.overwrite_blocks_per_sm == 16);
  CHECK(policy.monotone_reduction_blocks_per_sm == -1);
  CHECK(side_reduction_blocks(262144, 132, policy, monotone) == 4224);  // -1: reduction_blocks_per_sm's cap
  policy.monotone_reduction_blocks_per_sm = 0;                          // one tile a block for max/min/amax
  CHECK(side_reduction_blocks(262144, 132, policy, monotone) == 262144);
  CHECK(side_reduction_blocks(262144, 132, policy, into) == 4224);  // a sum keeps the cap
  CHECK(side_reduction_blocks(262144, 132, policy, overwrite) == 2112);
  policy.monotone_reduction_blocks_per_sm = 8;
  CHECK(side_reduction_blocks(262144, 132, policy, monotone) == 1056);
  policy.monotone_reduction_blocks_per_sm = -1;
  CHECK(side_reduction_blocks(262144, 132, policy, into) == 4224);       // 2^28 f32 on an H200, reduce_into
  CHECK(side_reduction_blocks(262144, 132, policy, overwrite) == 2112);  // the same with an overwrite target
  CHECK(side_reduction_blocks(1024, 132, policy, into) == 1024);         // fewer than the cap: unchanged
  CHECK(side_reduction_blocks(1, 132, policy, overwrite) == 1);
  policy.overwrite_blocks_per_sm = 32;
  CHECK(side_reduction_blocks(262144, 132, policy, overwrite) == 4224);
  CHECK(side_reduction_blocks(262144, 300, policy, overwrite) ==
        ew::reduction_workspace::capacity);  // 9600 > 8192
  CHECK(side_reduction_blocks(262144, 300, policy, into) == 9600);
  policy.reduction_blocks_per_sm = 0;  // no cap a SM: one tile a block, but never past the workspace
  policy.overwrite_blocks_per_sm = 0;
  CHECK(side_reduction_blocks(262144, 132, policy, into) == 262144);
  CHECK(side_reduction_blocks(262144, 132, policy, overwrite) == ew::reduction_workspace::capacity);
  CHECK(side_reduction_blocks(262144, 0, policy, into) == 262144);  // no SM count known: no cap a SM
  // Whole waves of the kernel's resident blocks, where the policy asks for them and the count is known.
  policy.reduction_blocks_per_sm = 32;
  policy.overwrite_blocks_per_sm = 16;
  policy.reduction_waves = 2;
  CHECK(side_reduction_blocks(262144, 132, policy, into, 12) == 2 * 12 * 132);  // 3168 (a quantize's 12)
  CHECK(side_reduction_blocks(262144, 132, policy, into, 0) == 4224);           // unknown: 32 a SM
  CHECK(side_reduction_blocks(2000, 132, policy, into, 12) == 2000);            // fewer: unchanged
  policy.reduction_waves = 4;
  CHECK(side_reduction_blocks(262144, 132, policy, overwrite, 16) ==
        ew::reduction_workspace::capacity);  // 8448
  policy.reduction_waves = 0;
  CHECK(side_reduction_blocks(262144, 132, policy, into, 12) == 4224);  // not asked for: 32 a SM
  // The capped shape leaves the whole-tile path (one tile a block) and keeps the block size.
  ew::detail::launch_shape s{262144, 128};
  s.whole_tiles = true;
  using op_t =
      decltype(ew::detail::side_split<twice_and_keep4, float*, ew::reduce_target<ew::reduction::max, float>>::
                   wrap(twice_and_keep4{},
                        cuda::std::tuple<float*, ew::reduce_target<ew::reduction::max, float>>{}));
  policy.reduction_blocks_per_sm = 32;
  const auto capped = ew::detail::side_reduction_shape<op_t>(s, 132, policy);
  CHECK(capped.blocks == 4224);
  CHECK(capped.block_threads == 128);
  CHECK_FALSE(capped.whole_tiles);
  const auto plain = ew::detail::side_reduction_shape<ew::relu<float>>(s, 132, policy);  // no reductions
  CHECK(plain.blocks == 262144);
  CHECK(plain.whole_tiles);
  policy.reduction_waves = 1;
  CHECK(ew::detail::side_reduction_shape<op_t>(s, 132, policy, 16).blocks == 2112);
  CHECK(ew::detail::side_reduction_shape<ew::relu<float>>(s, 132, policy, 16).blocks == 262144);
  policy.reduction_waves = 0;
  STATIC_REQUIRE(sizeof(ew::reduction_workspace) == 16 + 8 * ew::reduction_workspace::capacity);
  // The tile plan's shared-memory budget leaves room for the block ends' static words: 32 of each
  // accumulator's type and a flag.
  STATIC_REQUIRE(ew::detail::side_reduction_static_smem<op_t> == 32 * 4 + 16);
  STATIC_REQUIRE(ew::detail::side_reduction_static_smem<ew::relu<float>> == 0);
  STATIC_REQUIRE(ew::detail::is_output_arg<ew::overwrite_target<ew::reduction::sum, double>>::value);
}

TEST_CASE("reduce_overwrite: the last block combines every slot once, in a fixed order",
          "[reduce_overwrite]") {
  std::mt19937_64 rng(0x0de5);
  std::vector<unsigned long long> slots(ew::reduction_workspace::capacity);
  std::vector<std::uint64_t> values(slots.size());
  for (std::size_t b = 0; b < slots.size(); ++b) {
    values[b] = rng();
    slots[b] = ew::detail::to_word(values[b]);
  }
  for (unsigned count : {1u, 2u, 7u, 8u, 9u, 100u, 127u, 128u, 129u, 1023u, 1024u, 1025u, 4224u, 8192u}) {
    for (unsigned threads : {1u, 32u, 96u, 128u, 512u}) {
      std::uint64_t sum = 0, expect_sum = 0, mx = 0, expect_max = 0;
      for (unsigned b = 0; b < count; ++b) {
        expect_sum += values[b];
        expect_max = std::max(expect_max, values[b]);
      }
      for (unsigned t = 0; t < threads; ++t) {
        sum += ew::detail::combine_slots<ew::reduction::sum, std::uint64_t>(slots.data(), count, t, threads);
        mx = std::max(mx, ew::detail::combine_slots<ew::reduction::max, std::uint64_t>(slots.data(), count, t,
                                                                                       threads));
      }
      INFO("count " << count << " threads " << threads);
      CHECK(sum == expect_sum);  // wrapping: every slot once (a slot twice or none changes the sum)
      CHECK(mx == expect_max);
    }
  }
  // Floats in the low half of the word, doubles in all of it.
  CHECK(ew::detail::from_word<float>(ew::detail::to_word(-1.5f)) == -1.5f);
  CHECK(ew::detail::to_word(-1.5f) >> 32 == 0);
  CHECK(ew::detail::from_word<double>(ew::detail::to_word(-0.1)) == -0.1);
  CHECK(ew::detail::from_word<std::int32_t>(ew::detail::to_word(std::int32_t{-7})) == -7);
  // A float sum in one order: thread t's slots t, t + threads, ... left to right.
  std::vector<unsigned long long> fs(5);
  const float fv[5] = {1e8f, 1.0f, -1e8f, 1.0f, 0.5f};
  for (int b = 0; b < 5; ++b) fs[b] = ew::detail::to_word(fv[b]);
  CHECK(ew::detail::combine_slots<ew::reduction::sum, float>(fs.data(), 5, 0, 2) == ((1e8f + -1e8f) + 0.5f));
  CHECK(ew::detail::combine_slots<ew::reduction::sum, float>(fs.data(), 5, 1, 2) == 2.0f);
}

namespace {

/// For reduction R over T: every pair of `values` (and each value alone) through `order_key`: the larger
/// key is the key of `R::combine`, `from_order_key` gives the value back (NaN: a NaN), no value has key 0
/// but an integer identity, and key 0 gives the identity.
template <class R, class T>
void check_order_keys(const std::vector<T>& values) {
  using ew::detail::from_order_key;
  using ew::detail::order_key;
  auto same = [](T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
      return a == b && std::signbit(a) == std::signbit(b);
    } else {
      return a == b;
    }
  };
  CHECK(same(from_order_key<R, T>(0), R::template identity<T>()));
  std::size_t bad_round = 0, bad_zero = 0, bad_pair = 0;
  for (T a : values) {
    const unsigned long long ka = order_key<R>(a);
    bad_round += !same(from_order_key<R, T>(ka), a);
    if constexpr (std::is_floating_point_v<T>) bad_zero += ka == 0;
    for (T b : values) {
      const unsigned long long kb = order_key<R>(b);
      bad_pair += !same(from_order_key<R, T>(ka < kb ? kb : ka), R::combine(a, b));
    }
  }
  CHECK(bad_round == 0);
  CHECK(bad_zero == 0);
  CHECK(bad_pair == 0);
}

template <class T>
std::vector<T> key_values(std::uint64_t seed) {
  std::vector<T> v;
  using L = std::numeric_limits<T>;
  v.push_back(T(0));
  v.push_back(L::max());
  v.push_back(L::lowest());
  v.push_back(L::min());
  if constexpr (std::is_floating_point_v<T>) {
    for (T x : {T(-0.0), L::infinity(), -L::infinity(), L::quiet_NaN(), -L::quiet_NaN(), L::denorm_min(),
                -L::denorm_min(), T(1), T(-1), T(0.5), T(-2.25)}) {
      v.push_back(x);
    }
  } else if constexpr (std::is_signed_v<T>) {
    for (T x : {T(-1), T(1), T(L::min() + 1), T(L::max() - 1)}) v.push_back(x);
  } else {
    for (T x : {T(1), T(L::max() - 1), T(L::max() / 2 + 1)}) v.push_back(x);
  }
  std::mt19937_64 rng(seed);
  while (v.size() < 200) {
    using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    const U u = static_cast<U>(rng());
    T x;
    std::memcpy(&x, &u, sizeof x);
    v.push_back(x);
  }
  return v;
}

template <class T>
void check_order_keys_all_reductions(std::uint64_t seed) {
  const std::vector<T> v = key_values<T>(seed);
  check_order_keys<ew::reduction::max, T>(v);
  check_order_keys<ew::reduction::min, T>(v);
  if constexpr (std::is_floating_point_v<T>) {
    std::vector<T> m;  // amax reduces magnitudes: what the kernel hands it
    for (T x : v) m.push_back(std::isnan(x) ? x : std::fabs(x));
    check_order_keys<ew::reduction::amax, T>(m);
  }
}

}  // namespace

TEST_CASE("reduce_overwrite: order keys of max, min and amax", "[reduce_overwrite]") {
  check_order_keys_all_reductions<float>(1);
  check_order_keys_all_reductions<double>(2);
  check_order_keys_all_reductions<std::int32_t>(3);
  check_order_keys_all_reductions<std::uint32_t>(4);
  check_order_keys_all_reductions<std::int64_t>(5);
  check_order_keys_all_reductions<std::uint64_t>(6);
}

namespace {

/// Simulates `twice_and_keep4` over `x` (n elements at offset `off`) into `y` and four overwrite targets
/// (max, min, amax, integer sum) and a float sum, each location set to garbage first; returns the grid.
struct overwrite_results {
  float max, min, amax, sum;
  std::int64_t isum;
  std::size_t blocks;
};
overwrite_results simulate_overwrite(const std::vector<float>& x, std::vector<float>& y, std::size_t off,
                                     std::size_t n, int block_threads, int sm_count, int blocks_per_sm) {
  static std::unique_ptr<ew::reduction_workspace> ws[5] = {
      zeroed_workspace(), zeroed_workspace(), zeroed_workspace(), zeroed_workspace(), zeroed_workspace()};
  overwrite_results r{12345.0f, -12345.0f, NAN, 0.0f, 999, 0};
  float sum_garbage = 77.0f;
  const ew::detail::pointer_info info[2] = {ew::detail::info_of(y.data() + off),
                                            ew::detail::info_of(x.data() + off)};
  // The float sum rides on a second op: the same value as the max part.
  r.blocks = ew_test::run_simulated_grid<4, 2>(
      twice_and_keep4{}, x.data() + off, n, block_threads,
      cuda::std::make_tuple(y.data() + off, ew::reduce_overwrite<ew::reduction::max>(&r.max, ws[0].get()),
                            ew::reduce_overwrite<ew::reduction::min>(&r.min, ws[1].get()),
                            ew::reduce_overwrite<ew::reduction::amax>(&r.amax, ws[2].get()),
                            ew::reduce_overwrite<ew::reduction::sum>(&r.isum, ws[3].get())),
      info, sm_count, blocks_per_sm);
  const ew::detail::pointer_info x_info[1] = {ew::detail::info_of(x.data() + off)};
  ew_test::run_simulated_grid<4, 2>(
      ew::identity<float>{}, x.data() + off, n, block_threads,
      cuda::std::make_tuple(ew::reduce_overwrite<ew::reduction::sum>(&sum_garbage, ws[4].get())), x_info,
      sm_count, blocks_per_sm);
  r.sum = sum_garbage;
  return r;
}

}  // namespace

TEST_CASE("reduce_overwrite: simulated capped grids overwrite what the locations held",
          "[reduce_overwrite]") {
  std::mt19937_64 rng(0x0ee1);
  std::uniform_real_distribution<float> d(-100.0f, 100.0f);
  for (std::size_t n : {1u, 7u, 64u, 1000u, 4099u, 70001u}) {
    for (std::size_t off : {0u, 1u}) {
      std::vector<float> x(n + 8), y(n + 8, -7.0f);
      for (auto& v : x) v = d(rng);
      float mx = -INFINITY, mn = INFINITY, am = 0.0f;
      std::int64_t s = 0;
      double ds = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const float v = x[off + i];
        mx = std::max(mx, v);
        mn = std::min(mn, v);
        am = std::max(am, std::fabs(v));
        s += static_cast<std::int64_t>(v * 1000.0f);
        ds += v;
      }
      double abs_sum = 0;
      for (std::size_t i = 0; i < n; ++i) abs_sum += std::fabs(x[off + i]);
      for (int bt : {32, 100, 256}) {
        // SMs x blocks a SM: the plan's grid (0), two blocks, one block, and 1 a SM on 3 SMs.
        const int caps[][2] = {{0, 32}, {1, 2}, {1, 1}, {3, 1}};
        for (const auto& cap : caps) {
          INFO("n " << n << " offset " << off << " block " << bt << " SMs " << cap[0] << " x " << cap[1]);
          const overwrite_results r = simulate_overwrite(x, y, off, n, bt, cap[0], cap[1]);
          if (cap[0] > 0) CHECK(r.blocks <= static_cast<std::size_t>(cap[0] * cap[1]));
          CHECK(r.max == mx);
          CHECK(r.min == mn);
          CHECK(r.amax == am);
          CHECK(r.isum == s);
          CHECK(std::fabs(r.sum - ds) <= 1e-6 * abs_sum + 1e-6);
          bool written = true;
          for (std::size_t i = 0; i < n; ++i) written = written && y[off + i] == x[off + i] * 2.0f;
          CHECK(written);
          CHECK(y[off + n] == -7.0f);
        }
      }
    }
  }
}

TEST_CASE("reduce_overwrite: one workspace for sums and maxima, one launch after another",
          "[reduce_overwrite]") {
  // A sum leaves its blocks' slots as they are; a max, min or amax must not read them (change 46 kept its
  // key in slot 0, and an amax after a negative sum took the sum's bits for a key: the H100's bench rows
  // got 54.4 for max |x| < 4, 2026-12-05).
  auto ws = zeroed_workspace();
  std::mt19937_64 rng(0x5a3e);
  std::uniform_real_distribution<float> neg(-2.0f, -1.0f), d(-1.0f, 1.0f);
  for (std::size_t n : {1000u, 70001u}) {
    std::vector<float> xn(n), x(n);
    for (auto& v : xn) v = neg(rng);
    for (auto& v : x) v = d(rng);
    float am = 0.0f, mx = -INFINITY, mn = INFINITY;
    for (float v : x) {
      am = std::max(am, std::fabs(v));
      mx = std::max(mx, v);
      mn = std::min(mn, v);
    }
    const ew::detail::pointer_info xn_info[1] = {ew::detail::info_of(xn.data())};
    const ew::detail::pointer_info x_info[1] = {ew::detail::info_of(x.data())};
    for (int round = 0; round < 2; ++round) {
      INFO("n " << n << " round " << round);
      float total = 1.0f, got_am = -1.0f, got_mx = 0.0f, got_mn = 0.0f;
      ew_test::run_simulated_grid<4, 2>(
          ew::identity<float>{}, xn.data(), n, 64,
          cuda::std::make_tuple(ew::reduce_overwrite<ew::reduction::sum>(&total, ws.get())), xn_info, 3, 2);
      CHECK(total < -static_cast<float>(n) * 0.99f);
      ew_test::run_simulated_grid<4, 2>(
          ew::identity<float>{}, x.data(), n, 64,
          cuda::std::make_tuple(ew::reduce_overwrite<ew::reduction::amax>(&got_am, ws.get())), x_info, 3, 2);
      CHECK(got_am == am);
      ew_test::run_simulated_grid<4, 2>(
          ew::identity<float>{}, x.data(), n, 64,
          cuda::std::make_tuple(ew::reduce_overwrite<ew::reduction::max>(&got_mx, ws.get())), x_info, 3, 2);
      CHECK(got_mx == mx);
      ew_test::run_simulated_grid<4, 2>(
          ew::identity<float>{}, x.data(), n, 64,
          cuda::std::make_tuple(ew::reduce_overwrite<ew::reduction::min>(&got_mn, ws.get())), x_info, 3, 2);
      CHECK(got_mn == mn);
      CHECK(ws->arrived == 0);
      CHECK(ws->key == 0);
    }
  }
}

TEST_CASE("reduce_overwrite: more tiles than the workspace has slots", "[reduce_overwrite]") {
  // 8193 tiles of 32 threads x 2 vectors x 4: the grid is capped at the workspace's 8192 blocks.
  const std::size_t n = 8193u * 256u;
  std::vector<float> x(n), y(n);
  std::mt19937_64 rng(0x51075);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  for (auto& v : x) v = d(rng);
  x[n - 1] = 5.0f;  // in the last tile, which block 0 takes on its second pass
  const overwrite_results r = simulate_overwrite(x, y, 0, n, 32, 0, 32);
  CHECK(r.blocks == ew::reduction_workspace::capacity);
  CHECK(r.max == 5.0f);
  CHECK(r.amax == 5.0f);
}

TEST_CASE("reduce_overwrite: NaN and signed zeros", "[reduce_overwrite]") {
  std::vector<float> x(3000), y(3000);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 17) - 8.0f;
  x[2024] = NAN;
  const overwrite_results r = simulate_overwrite(x, y, 0, x.size(), 64, 1, 2);
  CHECK(std::isnan(r.max));
  CHECK(std::isnan(r.min));
  CHECK(std::isnan(r.amax));
  CHECK(std::isnan(r.sum));
  std::vector<float> z(700, -0.0f), zy(700);
  z[350] = 0.0f;
  const overwrite_results zr = simulate_overwrite(z, zy, 0, z.size(), 32, 1, 2);
  CHECK((zr.max == 0.0f && !std::signbit(zr.max)));
  CHECK((zr.min == 0.0f && std::signbit(zr.min)));
}

TEST_CASE("reduce_overwrite: bad locations and workspaces are rejected before anything runs",
          "[reduce_overwrite]") {
  std::vector<float> buf(64);
  float* x = buf.data();
  float* y = buf.data() + 16;
  float r = 0, r2 = 0;
  auto ws = zeroed_workspace();
  auto ws2 = zeroed_workspace();
  auto rejected = [](cudaError_t err, const char* what) {
    CHECK(err == cudaErrorInvalidValue);
    CHECK(std::string(ew::last_error_message()).find(what) != std::string::npos);
  };
  using ew::reduction::max;
  using ew::reduction::sum;
  rejected(ew::elementwise(ew::abs<float>{}, 8,
                           ew::reduce_overwrite<max>(static_cast<float*>(nullptr), ws.get()), x),
           "ew::reduce_overwrite: null pointer");
  rejected(ew::elementwise(ew::abs<float>{}, 8, ew::reduce_overwrite<max>(&r, nullptr), x),
           "ew::reduce_overwrite: null workspace");
  auto* misaligned_ws = reinterpret_cast<ew::reduction_workspace*>(reinterpret_cast<char*>(ws.get()) + 4);
  rejected(ew::elementwise(ew::abs<float>{}, 8, ew::reduce_overwrite<max>(&r, misaligned_ws), x),
           "workspace not aligned to 8 bytes");
  rejected(ew::elementwise(ew::abs<float>{}, 8, ew::reduce_overwrite<max>(x + 3, ws.get()), x),
           "ew::reduce_overwrite: the location overlaps an input or output");
  // A workspace over an input, or over an output.
  auto* ws_over_input = reinterpret_cast<ew::reduction_workspace*>(x);
  rejected(ew::elementwise(ew::abs<float>{}, 8, ew::reduce_overwrite<max>(&r, ws_over_input), x),
           "the workspace overlaps an input or output");
  rejected(ew::elementwise(keep_two{}, 8,
                           ew::out(reinterpret_cast<float*>(ws.get()->partial + 3),
                                   ew::reduce_overwrite<max>(&r, ws.get())),
                           x),
           "the workspace overlaps an input or output");
  // One workspace for two targets; a location inside another target's workspace; an `ew::reduce_into`
  // location inside an overwrite target's workspace.
  rejected(ew::elementwise(
               keep_two{}, 8,
               ew::out(ew::reduce_overwrite<max>(&r, ws.get()), ew::reduce_overwrite<sum>(&r2, ws.get())), x),
           "each target needs a workspace of its own");
  float* inside_ws2 = reinterpret_cast<float*>(ws2->partial + 5);
  rejected(ew::elementwise(keep_two{}, 8,
                           ew::out(ew::reduce_overwrite<max>(&r, ws.get()),
                                   ew::reduce_overwrite<sum>(inside_ws2, ws2.get())),
                           x),
           "each target needs a workspace of its own");
  rejected(ew::elementwise(
               keep_two{}, 8,
               ew::out(ew::reduce_into<max>(inside_ws2), ew::reduce_overwrite<sum>(&r2, ws2.get())), x),
           "each target needs a workspace of its own");
  // N-dimensional: a workspace inside a strided input view's span (and nothing else: the view lies in a
  // buffer of its own, larger than the workspace, the output elsewhere).
  std::vector<unsigned long long> view_buf(sizeof(ew::reduction_workspace) / 8 + 64);
  const float* view_base = reinterpret_cast<const float*>(view_buf.data());
  auto* ws_in_view = reinterpret_cast<ew::reduction_workspace*>(view_buf.data() + 2);
  rejected(
      ew::elementwise(keep_two{}, ew::extents{2, 4}, ew::out(y, ew::reduce_overwrite<max>(&r, ws_in_view)),
                      ew::strided(view_base, ew::extents{2, 4}, ew::strides{8, 1})),
      "the workspace overlaps an input or output");
  // Past the view's last element (element 11 < 16 bytes x 2): accepted by this check.
  auto* ws_past_view = reinterpret_cast<ew::reduction_workspace*>(view_buf.data() + 8);
  const cudaError_t beside =
      ew::elementwise(keep_two{}, ew::extents{2, 4}, ew::out(y, ew::reduce_overwrite<max>(&r, ws_past_view)),
                      ew::strided(view_base, ew::extents{2, 4}, ew::strides{8, 1}));
  CHECK(std::string(ew::last_error_message()).find("ew::reduce_overwrite") == std::string::npos);
  (void)beside;
  // An empty launch writes its overwrite targets (the identity), so it checks them as any launch does; its
  // arrays it does not check (an empty tensor's pointer may be null), 1-D and N-dimensional.
  rejected(ew::elementwise(ew::abs<float>{}, 0, ew::reduce_overwrite<max>(&r, nullptr),
                           static_cast<const float*>(nullptr)),
           "ew::reduce_overwrite: null workspace");
  rejected(ew::elementwise(keep_two{}, 0,
                           ew::out(ew::reduce_into<max>(&r), ew::reduce_overwrite<sum>(&r, ws.get())), x),
           "ew::reduce_overwrite: a reduction location or workspace overlaps another one");
  rejected(ew::elementwise(keep_two{}, ew::extents{0, 4},
                           ew::out(static_cast<float*>(nullptr), ew::reduce_overwrite<max>(&r, nullptr)),
                           static_cast<const float*>(nullptr)),
           "ew::reduce_overwrite: null workspace");
  // With only ew::reduce_into targets an empty launch writes nothing, and checks nothing.
  CHECK(ew::elementwise(ew::abs<float>{}, 0, ew::reduce_into<max>(static_cast<float*>(nullptr)), x) ==
        cudaSuccess);
}

TEST_CASE("reduce_overwrite: a launch of no elements stores the identity into overwrite locations only",
          "[reduce_overwrite]") {
  // What overwrite_identity_kernel runs (one thread), on the host: each ew::reduce_overwrite location takes
  // its reduction's identity, each ew::reduce_into location keeps what it held, no workspace changes.
  using ew::reduction::amax;
  using ew::reduction::max;
  using ew::reduction::min;
  using ew::reduction::sum;
  float m = 12345.f, mn = -7.f, kept = 99.f;
  std::int64_t total = 424242;
  auto ws1 = zeroed_workspace();
  auto ws2 = zeroed_workspace();
  auto ws3 = zeroed_workspace();
  ws2->partial[0] = 77;  // a leftover slot: not the empty launch's to change
  float y = 5.f;
  using outs_t = cuda::std::tuple<float*, ew::overwrite_target<max, float>, ew::overwrite_target<min, float>,
                                  ew::reduce_target<amax, float>, ew::overwrite_target<sum, std::int64_t>>;
  const outs_t outs{&y, ew::reduce_overwrite<max>(&m, ws1.get()), ew::reduce_overwrite<min>(&mn, ws2.get()),
                    ew::reduce_into<amax>(&kept), ew::reduce_overwrite<sum>(&total, ws3.get())};
  using split = ew::detail::side_split<twice_and_keep4, float*, ew::overwrite_target<max, float>,
                                       ew::overwrite_target<min, float>, ew::reduce_target<amax, float>,
                                       ew::overwrite_target<sum, std::int64_t>>;
  const auto op = split::wrap(twice_and_keep4{}, outs);
  STATIC_REQUIRE(ew::detail::has_overwrite_targets_v<std::decay_t<decltype(op)>>);
  // Which grid cap each mix of targets takes (side_reduction.cuh's side_grid_of): any overwrite target the
  // overwrite one; reduce_into targets of max, min and amax only the monotone one; a sum among them the
  // general one.
  namespace d = ew::detail;
  using acc_amax = d::accumulator_of<ew::reduce_target<amax, float>>::type;
  using acc_min = d::accumulator_of<ew::reduce_target<min, float>>::type;
  using acc_sum = d::accumulator_of<ew::reduce_target<sum, float>>::type;
  using acc_ow = d::accumulator_of<ew::overwrite_target<max, float>>::type;
  using one = cuda::std::index_sequence<1>;
  using two = cuda::std::index_sequence<1, 2>;
  using arr = cuda::std::index_sequence<0>;
  STATIC_REQUIRE(d::side_grid_of<std::decay_t<decltype(op)>> == d::side_grid::overwrite);
  STATIC_REQUIRE(d::side_grid_of<d::side_reducing_op<twice_and_keep4, arr, one, acc_amax>> ==
                 d::side_grid::monotone_into);
  STATIC_REQUIRE(d::side_grid_of<d::side_reducing_op<twice_and_keep4, arr, two, acc_amax, acc_min>> ==
                 d::side_grid::monotone_into);
  STATIC_REQUIRE(d::side_grid_of<d::side_reducing_op<twice_and_keep4, arr, one, acc_sum>> ==
                 d::side_grid::into);
  STATIC_REQUIRE(d::side_grid_of<d::side_reducing_op<twice_and_keep4, arr, two, acc_amax, acc_sum>> ==
                 d::side_grid::into);
  STATIC_REQUIRE(d::side_grid_of<d::side_reducing_op<twice_and_keep4, arr, two, acc_amax, acc_ow>> ==
                 d::side_grid::overwrite);
  using acc_max = d::accumulator_of<ew::reduce_target<max, float>>::type;
  using acc_ow_sum = d::accumulator_of<ew::overwrite_target<sum, float>>::type;
  STATIC_REQUIRE(d::side_grid_of<d::side_reducing_op<twice_and_keep4, arr, one, acc_max>> ==
                 d::side_grid::monotone_into);
  STATIC_REQUIRE(d::side_grid_of<d::side_reducing_op<twice_and_keep4, arr, one, acc_min>> ==
                 d::side_grid::monotone_into);
  STATIC_REQUIRE(d::side_grid_of<d::side_reducing_op<twice_and_keep4, arr, two, acc_sum, acc_ow_sum>> ==
                 d::side_grid::overwrite);
  op.write_identities();
  CHECK(m == -std::numeric_limits<float>::infinity());
  CHECK(mn == std::numeric_limits<float>::infinity());
  CHECK(kept == 99.f);
  CHECK(total == 0);
  CHECK(ws2->partial[0] == 77);
  CHECK(ws1->arrived == 0);
  CHECK(y == 5.f);
}
