// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Side reductions on the host (ctest host.side_reduction): the launcher's split of the outputs and the op
// it wraps; every thread of simulated grids (several sizes, offsets, vector widths, block sizes) through the
// kernel body, each thread's partial folded into the location as the block's atomic would, against a
// reference reduction (max, min and amax exactly, NaN included; integer sums exactly); and the bad
// arguments through `ew::elementwise`, each rejected with its message before anything touches a device.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/side_reduction_sim.cuh"

namespace {

/// `(x * 2, x)`: a value to write and one to reduce.
struct twice_and_keep {
  EW_HD cuda::std::tuple<float, float> operator()(float x) const { return {x * 2.0f, x}; }
};
/// `(x * 2, x, x, x)`: a value to write and three to reduce.
struct twice_and_keep3 {
  EW_HD cuda::std::tuple<float, float, float, float> operator()(float x) const { return {x * 2.0f, x, x, x}; }
};
/// `(x + 1, x as an integer)`.
struct plus_one_and_int {
  EW_HD cuda::std::tuple<float, std::int64_t> operator()(float x) const {
    return {x + 1.0f, static_cast<std::int64_t>(x * 1000.0f)};
  }
};

/// `(y, v) -> (y, v, v)`: one array part and two to reduce.
struct three_parts {
  EW_HD cuda::std::tuple<float, float, float> operator()(cuda::std::tuple<float, float> t) const {
    return {cuda::std::get<0>(t), cuda::std::get<1>(t), cuda::std::get<1>(t)};
  }
};

}  // namespace

TEST_CASE("side_reduction: the split keeps the arrays and wraps the op", "[side_reduction]") {
  float y = 0, r = 0;
  auto outs = cuda::std::make_tuple(&y, ew::reduce_into<ew::reduction::max>(&r));
  using split = ew::detail::side_split<twice_and_keep, float*, ew::reduce_target<ew::reduction::max, float>>;
  STATIC_REQUIRE(split::num_side == 1);
  const auto arrays = split::arrays(outs);
  STATIC_REQUIRE(std::is_same_v<std::remove_const_t<decltype(arrays)>, cuda::std::tuple<float*>>);
  CHECK(cuda::std::get<0>(arrays) == &y);
  const auto op = split::wrap(twice_and_keep{}, outs);
  CHECK(op(3.0f) == 6.0f);  // returns the array part only
  CHECK(op(-5.0f) == -10.0f);
  CHECK(cuda::std::get<0>(op.acc).acc == 3.0f);  // the max so far
  op.host_finish(0, 0);
  CHECK(r == 3.0f);
  // Identities.
  CHECK(ew::reduction::max::identity<float>() == -INFINITY);
  CHECK(ew::reduction::min::identity<double>() == INFINITY);
  CHECK(ew::reduction::max::identity<std::int32_t>() == std::numeric_limits<std::int32_t>::min());
  CHECK(ew::reduction::sum::identity<std::uint64_t>() == 0);
  CHECK(ew::reduction::amax::identity<float>() == 0.0f);
}

TEMPLATE_TEST_CASE(
    "side_reduction: amax's accumulate (an integer maximum of the bits) is max |v|, NaN sticking",
    "[side_reduction]", float, double) {
  // Against the definition computed apart from ew (std::fabs, std::isnan, comparisons of the magnitudes),
  // over the special values and random bit patterns of every class, in chains of 64 values from the
  // identity: after each step the running value is +0, the largest magnitude so far, or a NaN once any
  // value was NaN (its payload not specified).
  using T = TestType;
  using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  const T inf = std::numeric_limits<T>::infinity(), qnan = std::numeric_limits<T>::quiet_NaN();
  const T tiny = std::numeric_limits<T>::denorm_min(), big = std::numeric_limits<T>::max();
  std::vector<T> specials = {T(0),
                             -T(0),
                             T(1),
                             T(-1),
                             tiny,
                             -tiny,
                             big,
                             -big,
                             inf,
                             -inf,
                             qnan,
                             -qnan,
                             std::numeric_limits<T>::min(),
                             -std::numeric_limits<T>::min()};
  std::mt19937_64 rng(0x2026120503ull);
  std::uniform_int_distribution<int> pick(0, 9);
  for (int chain = 0; chain < 4000; ++chain) {
    T acc = ew::reduction::amax::identity<T>();
    T want = T(0);
    bool nan = false;
    for (int k = 0; k < 64; ++k) {
      T v;
      if (pick(rng) < 3) {
        v = specials[static_cast<std::size_t>(rng() % specials.size())];
      } else {
        const U bits = static_cast<U>(rng());  // any class: normal, subnormal, inf, NaN of either sign
        std::memcpy(&v, &bits, sizeof(T));
      }
      acc = ew::reduction::amax::accumulate(acc, v);
      if (std::isnan(v)) nan = true;
      if (!std::isnan(v) && std::fabs(v) > want) want = std::fabs(v);
      INFO("chain " << chain << " step " << k);
      if (nan) {
        REQUIRE(std::isnan(acc));
      } else {
        REQUIRE(!std::signbit(acc));
        REQUIRE(acc == want);
      }
    }
  }
  // The other reductions' accumulate is combine(acc, value(v)).
  CHECK(ew::reduction::max::accumulate(-INFINITY, -0.0f) == 0.0f);
  CHECK(std::signbit(ew::reduction::max::accumulate(-INFINITY, -0.0f)));
  CHECK(ew::reduction::min::accumulate(3, -4) == -4);
  CHECK(ew::reduction::sum::accumulate(std::uint32_t{0xffffffffu}, std::uint32_t{2}) == 1u);
}

namespace {

/// Simulates the 1-D launch of `op` over `x` (n elements at element offset `off`) into (y, reductions).
template <int Vec, int Unroll, class Op, class... Target>
void simulate(const Op& user_op, std::vector<float>& x, std::vector<float>& y, std::size_t off, std::size_t n,
              int block_threads, int sm_count, Target... targets) {
  const ew::detail::pointer_info info[2] = {ew::detail::info_of(y.data() + off),
                                            ew::detail::info_of(x.data() + off)};
  ew_test::run_simulated_grid<Vec, Unroll>(user_op, x.data() + off, n, block_threads,
                                           cuda::std::make_tuple(y.data() + off, targets...), info, sm_count,
                                           2);
}

}  // namespace

TEST_CASE("side_reduction: every simulated grid reduces every element once", "[side_reduction]") {
  std::mt19937_64 rng(0x51de);
  std::uniform_real_distribution<float> d(-100.0f, 100.0f);
  for (std::size_t n : {1u, 7u, 64u, 1000u, 4099u}) {
    for (std::size_t off : {0u, 1u, 3u}) {
      for (int bt : {32, 96, 100, 256}) {
        for (int sms : {0, 1}) {  // the plan's grid, and one capped at 2 blocks (blocks loop over tiles)
          std::vector<float> x(n + 8), y(n + 8, -7.0f);
          for (auto& v : x) v = d(rng);
          float mx = -INFINITY, mn = INFINITY, am = 0.0f;
          std::int64_t s = 0;
          for (std::size_t i = 0; i < n; ++i) {
            const float v = x[off + i];
            mx = std::max(mx, v);
            mn = std::min(mn, v);
            am = std::max(am, std::fabs(v));
          }
          for (std::size_t i = 0; i < n; ++i) s += static_cast<std::int64_t>(x[off + i] * 1000.0f);
          INFO("n " << n << " offset " << off << " block " << bt << " SMs " << sms);
          float r_max = ew::reduction::max::identity<float>(), r_min = ew::reduction::min::identity<float>();
          float r_amax = 0.0f;
          simulate<4, 2>(
              twice_and_keep3{}, x, y, off, n, bt, sms, ew::reduce_into<ew::reduction::max>(&r_max),
              ew::reduce_into<ew::reduction::min>(&r_min), ew::reduce_into<ew::reduction::amax>(&r_amax));
          CHECK(r_max == mx);
          CHECK(r_min == mn);
          CHECK(r_amax == am);
          bool written = true;
          for (std::size_t i = 0; i < n; ++i) written = written && y[off + i] == x[off + i] * 2.0f;
          CHECK(written);
          CHECK(y[off + n] == -7.0f);  // nothing past the end
          std::int64_t r_sum = 0;
          simulate<4, 4>(plus_one_and_int{}, x, y, off, n, bt, sms,
                         ew::reduce_into<ew::reduction::sum>(&r_sum));
          CHECK(r_sum == s);
        }
      }
    }
  }
}

TEST_CASE("side_reduction: NaN propagates through max, min and amax", "[side_reduction]") {
  std::vector<float> x(300, 1.0f), y(300);
  x[123] = NAN;
  float r_max = -INFINITY, r_min = INFINITY, r_amax = 0.0f;
  simulate<4, 2>(twice_and_keep3{}, x, y, 0, 300, 64, 0, ew::reduce_into<ew::reduction::max>(&r_max),
                 ew::reduce_into<ew::reduction::min>(&r_min), ew::reduce_into<ew::reduction::amax>(&r_amax));
  CHECK(std::isnan(r_max));
  CHECK(std::isnan(r_min));
  CHECK(std::isnan(r_amax));
  // Signed zeros: max(-0, +0) is +0, min is -0.
  std::vector<float> z = {-0.0f, 0.0f, -0.0f};
  std::vector<float> zy(3);
  float zmax = -INFINITY, zmin = INFINITY;
  simulate<1, 1>(ew::compose(twice_and_keep{}, three_parts{}), z, zy, 0, 3, 32, 0,
                 ew::reduce_into<ew::reduction::max>(&zmax), ew::reduce_into<ew::reduction::min>(&zmin));
  CHECK((zmax == 0.0f && !std::signbit(zmax)));
  CHECK((zmin == 0.0f && std::signbit(zmin)));
}

TEST_CASE("side_reduction: bad locations are rejected before anything runs", "[side_reduction]") {
  std::vector<float> buf(64);
  float* x = buf.data();
  float* y = buf.data() + 16;
  float scale = 2.0f;
  float r = 0;
  auto rejected = [](cudaError_t err, const char* what) {
    CHECK(err == cudaErrorInvalidValue);
    CHECK(std::string(ew::last_error_message()).find(what) != std::string::npos);
  };
  rejected(ew::elementwise(twice_and_keep{}, 8,
                           ew::out(y, ew::reduce_into<ew::reduction::max>(static_cast<float*>(nullptr))), x),
           "null pointer");
  rejected(ew::elementwise(twice_and_keep{}, 8, ew::out(y, ew::reduce_into<ew::reduction::max>(x + 3)), x),
           "overlaps an input or output");
  rejected(ew::elementwise(twice_and_keep{}, 8, ew::out(y, ew::reduce_into<ew::reduction::max>(y + 7)), x),
           "overlaps an input or output");
  rejected(
      ew::elementwise(ew::compose(ew::mul<float>{}, twice_and_keep{}), 8,
                      ew::out(y, ew::reduce_into<ew::reduction::max>(&scale)), ew::in(x, ew::scalar(&scale))),
      "overlaps an input or output");
  rejected(
      ew::elementwise(
          ew::compose(twice_and_keep{}, three_parts{}), 8,
          ew::out(y, ew::reduce_into<ew::reduction::max>(&r), ew::reduce_into<ew::reduction::min>(&r)), x),
      "two reduction locations overlap");
  unsigned char raw[16] = {};
  float* misaligned = reinterpret_cast<float*>(raw + 1);
  rejected(
      ew::elementwise(twice_and_keep{}, 8, ew::out(y, ew::reduce_into<ew::reduction::max>(misaligned)), x),
      "not aligned");
  // N-dimensional: a location inside a strided input view's span.
  rejected(ew::elementwise(twice_and_keep{}, ew::extents{2, 4},
                           ew::out(y, ew::reduce_into<ew::reduction::max>(x + 9)),
                           ew::strided(static_cast<const float*>(x), ew::extents{2, 4}, ew::strides{8, 1})),
           "overlaps an input or output");
  // Past the span of the view (element 12 > 8 + 3): accepted by this check (the launch then needs a device).
  const cudaError_t beside = ew::elementwise(
      twice_and_keep{}, ew::extents{2, 4}, ew::out(y, ew::reduce_into<ew::reduction::max>(x + 12)),
      ew::strided(static_cast<const float*>(x), ew::extents{2, 4}, ew::strides{8, 1}));
  CHECK(std::string(ew::last_error_message()).find("ew::reduce_into") == std::string::npos);
  (void)beside;
  // An empty launch checks nothing and changes nothing.
  CHECK(ew::elementwise(twice_and_keep{}, 0,
                        ew::out(y, ew::reduce_into<ew::reduction::max>(static_cast<float*>(nullptr))),
                        x) == cudaSuccess);
}

namespace {

/// Simulates a 1-D launch whose only outputs are the reductions `targets`, over `x` (n elements at element
/// offset `off`): no array output, the vector head from `x` alone.
template <int Vec, int Unroll, class Op, class... Target>
void simulate_reduction_alone(const Op& user_op, const std::vector<float>& x, std::size_t off, std::size_t n,
                              int block_threads, Target... targets) {
  STATIC_REQUIRE(cuda::std::tuple_size<decltype(ew::detail::side_split<Op, Target...>::arrays(
                     cuda::std::make_tuple(targets...)))>::value == 0);
  const ew::detail::pointer_info info[1] = {ew::detail::info_of(x.data() + off)};
  ew_test::run_simulated_grid<Vec, Unroll>(user_op, x.data() + off, n, block_threads,
                                           cuda::std::make_tuple(targets...), info);
}

/// `(x, x * 1000 as an integer)`: two values to reduce and none to write.
struct keep_and_int {
  EW_HD cuda::std::tuple<float, std::int64_t> operator()(float x) const {
    return {x, static_cast<std::int64_t>(x * 1000.0f)};
  }
};

}  // namespace

TEST_CASE("side_reduction: a launch that only reduces (no array output)", "[side_reduction]") {
  std::mt19937_64 rng(0x5eed);
  std::uniform_real_distribution<float> d(-100.0f, 100.0f);
  for (std::size_t n : {1u, 5u, 64u, 1000u, 4099u, 70001u}) {
    for (std::size_t off : {0u, 1u, 3u}) {
      std::vector<float> x(n + 8);
      for (auto& v : x) v = d(rng);
      float am = 0.0f, mn = INFINITY;
      std::int64_t s = 0;
      for (std::size_t i = 0; i < n; ++i) {
        am = std::max(am, std::fabs(x[off + i]));
        mn = std::min(mn, x[off + i]);
        s += static_cast<std::int64_t>(x[off + i] * 1000.0f);
      }
      INFO("n " << n << " offset " << off);
      // amax of x alone: the op's value itself, not a tuple.
      float r_amax = 0.0f;
      simulate_reduction_alone<4, 2>(ew::identity<float>{}, x, off, n, 256,
                                     ew::reduce_into<ew::reduction::amax>(&r_amax));
      CHECK(r_amax == am);
      // Two reductions of one pass.
      float r_min = INFINITY;
      std::int64_t r_sum = 0;
      simulate_reduction_alone<4, 4>(keep_and_int{}, x, off, n, 96,
                                     ew::reduce_into<ew::reduction::min>(&r_min),
                                     ew::reduce_into<ew::reduction::sum>(&r_sum));
      CHECK(r_min == mn);
      CHECK(r_sum == s);
    }
  }
}
