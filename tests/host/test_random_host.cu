// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Counter-based random numbers on the host (ctest host.random): Philox-4x32-10 against Random123's
// published known-answer vectors; the counter layout of an element; the 1-D operand's vectors equal to its
// elements at every vector width and every start (so the kernel's grid, vector width and alignment cannot
// change a value); the uniform and normal maps; dropout's threshold and scale; `ew::carry_last` chains; and
// the whole kernel body over simulated grids of several shapes giving the same mask.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

namespace {

bool same(const ew::philox_block& a, std::uint32_t x, std::uint32_t y, std::uint32_t z, std::uint32_t w) {
  return a.x == x && a.y == y && a.z == z && a.w == w;
}

}  // namespace

TEST_CASE("random: Philox-4x32-10 known answers (Random123 kat_vectors)", "[random]") {
  CHECK(same(ew::philox4x32_10({0, 0, 0, 0}, 0, 0), 0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u));
  CHECK(
      same(ew::philox4x32_10({0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}, 0xffffffffu, 0xffffffffu),
           0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu));
  CHECK(
      same(ew::philox4x32_10({0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}, 0xa4093822u, 0x299f31d0u),
           0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u));
}

TEST_CASE("random: element i is word i % 4 of block i / 4 of (seed, offset)", "[random]") {
  const ew::philox_seed key{0x0123456789abcdefull, 0xfedcba9876543210ull};
  const ew::philox_block b =
      ew::philox4x32_10({0x76543210u, 0xfedcba98u, 0x00000005u, 0x00000000u}, 0x89abcdefu, 0x01234567u);
  const auto r = ew::detail::input_arg<decltype(ew::random_bits(key))>::to_1d(ew::random_bits(key));
  CHECK(r.element(20) == b.x);
  CHECK(r.element(21) == b.y);
  CHECK(r.element(22) == b.z);
  CHECK(r.element(23) == b.w);
  // 64-bit element indices reach the counter's high word.
  const std::uint64_t big = (std::uint64_t(3) << 34) + 6;  // block 3 * 2^32 + 1, word 2
  const ew::philox_block hb = ew::philox4x32_10({0x76543210u, 0xfedcba98u, 1u, 3u}, 0x89abcdefu, 0x01234567u);
  CHECK(r.element(big) == hb.z);
}

TEST_CASE("random: 16-bit element i is half i % 2 of word (i / 2) % 4 of block i / 8", "[random]") {
  const ew::philox_seed key{0x0123456789abcdefull, 0xfedcba9876543210ull};
  const ew::philox_block b =
      ew::philox4x32_10({0x76543210u, 0xfedcba98u, 0x00000005u, 0x00000000u}, 0x89abcdefu, 0x01234567u);
  const auto r = ew::detail::input_arg<decltype(ew::random_bits16(key))>::to_1d(ew::random_bits16(key));
  static_assert(std::is_same_v<decltype(r.element(0)), std::uint16_t>);
  CHECK(r.element(40) == (b.x & 0xffffu));
  CHECK(r.element(41) == (b.x >> 16));
  CHECK(r.element(42) == (b.y & 0xffffu));
  CHECK(r.element(43) == (b.y >> 16));
  CHECK(r.element(44) == (b.z & 0xffffu));
  CHECK(r.element(45) == (b.z >> 16));
  CHECK(r.element(46) == (b.w & 0xffffu));
  CHECK(r.element(47) == (b.w >> 16));
  const std::uint64_t big = (std::uint64_t(3) << 35) + 13;  // block 3 * 2^32 + 1, word 2, high half
  const ew::philox_block hb = ew::philox4x32_10({0x76543210u, 0xfedcba98u, 1u, 3u}, 0x89abcdefu, 0x01234567u);
  CHECK(r.element(big) == (hb.z >> 16));
  // From memory: the same values.
  const ew::philox_seed stored = key;
  const auto m =
      ew::detail::input_arg<decltype(ew::random_bits16(&stored))>::to_1d(ew::random_bits16(&stored));
  for (std::size_t i = 0; i < 64; ++i) CHECK(m.element(i) == r.element(i));
}

namespace {

template <class Input, int Vec>
void check_vectors(const Input& in) {
  for (std::size_t start = 0; start < 12; ++start) {
    const auto v = in.template vector<Vec>(start + 1000);
    for (int j = 0; j < Vec; ++j) {
      INFO("Vec " << Vec << " start " << start << " j " << j);
      const auto e = in.element(start + 1000 + static_cast<std::size_t>(j));
      if constexpr (std::is_same_v<decltype(e), const float>) {
        CHECK(std::memcmp(&e, &v.elements.v[j], sizeof(float)) == 0);
      } else {
        CHECK(e == v.elements.v[j]);
      }
    }
  }
}

template <class Input>
void check_all_widths(const Input& in) {
  check_vectors<Input, 1>(in);
  check_vectors<Input, 2>(in);
  check_vectors<Input, 4>(in);
  check_vectors<Input, 8>(in);
  check_vectors<Input, 16>(in);
}

}  // namespace

TEST_CASE("random: a vector of any width at any start equals its elements", "[random]") {
  const ew::philox_seed key{42, 7};
  check_all_widths(ew::detail::random_input<ew::random_kind::bits, false>{key, nullptr});
  check_all_widths(ew::detail::random_input<ew::random_kind::bits16, false>{key, nullptr});
  check_all_widths(ew::detail::random_input<ew::random_kind::uniform, false>{key, nullptr});
  check_all_widths(ew::detail::random_input<ew::random_kind::normal, false>{key, nullptr});
  // Read from memory: the same values as by value.
  const ew::philox_seed stored = key;
  const ew::detail::random_input<ew::random_kind::bits, true> from_memory{{}, &stored};
  const ew::detail::random_input<ew::random_kind::bits, false> by_value{key, nullptr};
  for (std::size_t i = 0; i < 64; ++i) CHECK(from_memory.element(i) == by_value.element(i));
}

namespace {

/// Element `i`'s value from first principles (random.cuh's documented stream, not its code): Philox block
/// `i / 4` of counter (offset, i / 4) and key seed, word `i % 4`; uniform as the word's top 24 bits times
/// 2^-24; normal by Box-Muller in double from the pair of words (0, 1) or (2, 3), cosine on the pair's first
/// lane and sine on its second.
double reference_value(ew::random_kind kind, const ew::philox_seed& key, std::uint64_t i) {
  const std::uint64_t q = kind == ew::random_kind::bits16 ? i / 8 : i / 4;
  const ew::philox_block b =
      ew::philox4x32_10({static_cast<std::uint32_t>(key.offset), static_cast<std::uint32_t>(key.offset >> 32),
                         static_cast<std::uint32_t>(q), static_cast<std::uint32_t>(q >> 32)},
                        static_cast<std::uint32_t>(key.seed), static_cast<std::uint32_t>(key.seed >> 32));
  const std::uint32_t words[4] = {b.x, b.y, b.z, b.w};
  if (kind == ew::random_kind::bits16) {  // the low half of word (i / 2) % 4 first
    const std::uint32_t w = words[(i / 2) % 4];
    return i % 2 == 0 ? (w & 0xffffu) : (w >> 16);
  }
  const int lane = static_cast<int>(i % 4);
  if (kind == ew::random_kind::bits) return words[lane];
  if (kind == ew::random_kind::uniform) return static_cast<double>(words[lane] >> 8) * 0x1p-24;
  const std::uint32_t a = words[lane & 2], c = words[(lane & 2) + 1];
  const double u1 = (static_cast<double>(a >> 8) + 1.0) * 0x1p-24, u2 = static_cast<double>(c >> 8) * 0x1p-24;
  const double r = std::sqrt(-2.0 * std::log(u1)), t = 6.283185307179586476925 * u2;
  return r * (lane % 2 == 0 ? std::cos(t) : std::sin(t));
}

template <ew::random_kind K, int Vec>
void check_lanes_against_blocks(const ew::philox_seed& key, std::uint64_t start) {
  const ew::detail::random_input<K, false> in{key, nullptr};
  const auto v = in.template vector<Vec>(start);
  for (int j = 0; j < Vec; ++j) {
    const double want = reference_value(K, key, start + static_cast<std::uint64_t>(j));
    const double got = static_cast<double>(v.elements.v[j]);
    const double got_element = static_cast<double>(in.element(start + static_cast<std::uint64_t>(j)));
    INFO("kind " << static_cast<int>(K) << " Vec " << Vec << " start " << start << " lane " << j);
    if (K == ew::random_kind::normal) {
      // float log, sqrt and sincospi against double: a few float ulps of values below 6.
      CHECK(std::fabs(got - want) <= 4e-6 * (1.0 + std::fabs(want)));
      CHECK(std::fabs(got_element - want) <= 4e-6 * (1.0 + std::fabs(want)));
    } else {
      CHECK(got == want);
      CHECK(got_element == want);
    }
  }
}

template <ew::random_kind K>
void check_every_width(const ew::philox_seed& key, std::uint64_t start) {
  check_lanes_against_blocks<K, 1>(key, start);
  check_lanes_against_blocks<K, 2>(key, start);
  check_lanes_against_blocks<K, 4>(key, start);
  check_lanes_against_blocks<K, 8>(key, start);
  check_lanes_against_blocks<K, 16>(key, start);
}

}  // namespace

TEST_CASE("random: lane k of every vector is its own word of the Philox block it comes from", "[random]") {
  // Issue 22: the vector test above compares `vector()` with `element()`, which would share a swap of two
  // lanes; here both are checked against the block, word by word, for each kind at every width and start.
  for (const ew::philox_seed key :
       {ew::philox_seed{42, 7}, ew::philox_seed{0x0123456789abcdefull, 0xfedcba98ull}}) {
    for (std::uint64_t start : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{3},
                                std::uint64_t{5}, std::uint64_t{6}, std::uint64_t{7}, std::uint64_t{1002},
                                (std::uint64_t{3} << 34) + 1, (std::uint64_t{3} << 35) + 7}) {
      check_every_width<ew::random_kind::bits>(key, start);
      check_every_width<ew::random_kind::bits16>(key, start);
      check_every_width<ew::random_kind::uniform>(key, start);
      check_every_width<ew::random_kind::normal>(key, start);
    }
  }
}

TEST_CASE("random: uniform in [0, 1), normal from pairs, on the words' extremes", "[random]") {
  CHECK(ew::detail::uniform_of(0u) == 0.0f);
  CHECK(ew::detail::uniform_of(0xffffffffu) == 1.0f - 5.9604644775390625e-08f);
  CHECK(ew::detail::uniform_of(0xffffffffu) < 1.0f);
  // u1 = 1 (the largest word) gives radius 0; u1 = 2^-24 the largest, sqrt(-2 log 2^-24) = sqrt(48 log 2).
  CHECK(ew::detail::normal_of(0xffffffffu, 0u, false) == 0.0f);
  const double r_max = std::sqrt(48.0 * std::log(2.0));
  CHECK(std::fabs(ew::detail::normal_of(0u, 0u, false) - r_max) < 1e-5);
  CHECK(std::fabs(ew::detail::normal_of(0u, 0x40000000u, true) - r_max) < 1e-5);  // u2 = 1/4: sin = 1
}

TEST_CASE("random: dropout's threshold, scale and mask", "[random]") {
  const ew::dropout<float> d(0.25);
  CHECK(d.keep_below == 3221225472ull);  // 0.75 * 2^32
  CHECK(d.scale == 1.0f / 0.75f);
  CHECK(cuda::std::get<0>(d(2.0f, 3221225471u)) == 2.0f / 0.75f);
  CHECK(cuda::std::get<1>(d(2.0f, 3221225471u)) == true);
  CHECK(cuda::std::get<0>(d(2.0f, 3221225472u)) == 0.0f);
  CHECK(cuda::std::get<1>(d(2.0f, 3221225472u)) == false);
  CHECK(std::isnan(cuda::std::get<0>(d(NAN, 0xffffffffu))));  // x * 0, as PyTorch's x * mask * scale
  CHECK(ew::dropout<float>(0.0).keep_below == (std::uint64_t(1) << 32));  // keeps every word
  CHECK(ew::dropout<float>(1.0).keep_below == 0);
  CHECK(ew::dropout<float>(1.0).scale == 0.0f);
  CHECK(ew::dropout<float>(-3.0).keep_below == (std::uint64_t(1) << 32));  // clamped
  CHECK(ew::dropout<float>(NAN).keep_below == (std::uint64_t(1) << 32));
  const ew::dropout<__nv_bfloat16> h(0.5);
  CHECK(__bfloat162float(cuda::std::get<0>(h(__float2bfloat16(3.0f), 0u))) == 6.0f);
}

TEST_CASE("random: dropout's 16-bit threshold (ew::random_bits16)", "[random]") {
  const ew::dropout<float> d(0.25);
  CHECK(d.keep_below16 == 49152u);  // 0.75 * 2^16
  CHECK(cuda::std::get<0>(d(2.0f, std::uint16_t{49151})) == 2.0f / 0.75f);
  CHECK(cuda::std::get<1>(d(2.0f, std::uint16_t{49151})) == true);
  CHECK(cuda::std::get<0>(d(2.0f, std::uint16_t{49152})) == 0.0f);
  CHECK(cuda::std::get<1>(d(2.0f, std::uint16_t{49152})) == false);
  // An int argument is a 32-bit word, as before the 16-bit form existed: 49152 < 0.75 * 2^32.
  CHECK(cuda::std::get<1>(d(2.0f, 49152)) == true);
  CHECK(ew::dropout<float>(0.1).keep_below16 == 58982u);  // round(0.9 * 65536) = round(58982.4)
  CHECK(ew::dropout<float>(0.0).keep_below16 == 65536u);  // keeps every 16-bit value, 0xffff too
  CHECK(cuda::std::get<1>(ew::dropout<float>(0.0)(1.0f, std::uint16_t{0xffff})) == true);
  CHECK(ew::dropout<float>(1.0).keep_below16 == 0u);
  CHECK(cuda::std::get<1>(ew::dropout<float>(1.0)(1.0f, std::uint16_t{0})) == false);
  CHECK(ew::dropout<float>(NAN).keep_below16 == 65536u);
  CHECK(ew::dropout<float>(7.0).keep_below16 == 0u);
  // Every p in steps of 2^-20: the threshold is the nearest multiple of 2^-16 to 1 - p.
  std::size_t off = 0;
  for (int k = 0; k <= (1 << 20); ++k) {
    const double p = std::ldexp(static_cast<double>(k), -20);
    const double keep = ew::dropout<float>(p).keep_below16 * 0x1p-16;
    off += std::fabs(keep - (1.0 - p)) > 0x1p-17;
  }
  CHECK(off == 0);
  // In a chain: carry_last passes the 16 bits along.
  const auto chain = ew::compose(ew::carry_last(ew::add<float>{}), ew::dropout<float>(0.5));
  CHECK(cuda::std::get<0>(chain(1.0f, 2.0f, std::uint16_t{32767})) == 6.0f);
  CHECK(cuda::std::get<1>(chain(1.0f, 2.0f, std::uint16_t{32768})) == false);
}

TEST_CASE("random: ew::carry_last passes the word through a chain to dropout", "[random]") {
  const auto chain = ew::compose(ew::carry_last(ew::add<float>{}), ew::carry_last(ew::relu<float>{}),
                                 ew::dropout<float>(0.5));
  const auto kept = chain(-1.0f, 3.0f, 0u);  // relu(2) kept: 4
  CHECK(cuda::std::get<0>(kept) == 4.0f);
  CHECK(cuda::std::get<1>(kept) == true);
  const auto dropped = chain(1.0f, 3.0f, 0xffffffffu);
  CHECK(cuda::std::get<0>(dropped) == 0.0f);
  CHECK(cuda::std::get<1>(dropped) == false);
}

namespace {

/// Runs the 1-D kernel body for every thread of a simulated grid of `n` elements with outputs at element
/// offset `off`: dropout of x into (y, mask) with vector width `Vec`, the launcher's own plan.
template <int Vec, int Unroll, ew::random_kind K = ew::random_kind::bits>
std::vector<unsigned char> simulated_mask(std::size_t n, std::size_t off, const ew::philox_seed& key,
                                          int block_threads) {
  std::vector<float> x(n + 16, 1.0f), y(n + 16, -1.0f);
  std::vector<unsigned char> mask(n + 16, 0xee);
  using op_t = ew::dropout<float>;
  const op_t op(0.3);
  auto outs = cuda::std::make_tuple(y.data() + off, mask.data() + off);
  auto ins = cuda::std::make_tuple(ew::detail::contiguous_input<float>{x.data() + off},
                                   ew::detail::random_input<K, false>{key, nullptr});
  ew::detail::pointer_info arrays[3] = {ew::detail::info_of(y.data() + off),
                                        ew::detail::info_of(mask.data() + off),
                                        ew::detail::info_of(x.data() + off)};
  const int head = ew::detail::vector_head(arrays, 3, Vec);
  ew::tuning::launch_policy policy = ew::tuning::policy_for_cc(90);
  policy.block_threads = block_threads;
  const auto plan = ew::detail::plan_paths<Vec, Unroll>(n, head, policy);
  for (std::size_t b = 0; b < plan.shape.blocks; ++b) {
    for (std::size_t t = 0; t < plan.shape.block_threads; ++t) {
      ew::detail::elementwise_grid_thread<op_t, Vec, Unroll, ew::detail::scalar_unroll<Vec, Unroll>>(
          op, plan.part, plan.shape, outs, ins, b, t);
    }
  }
  std::vector<unsigned char> m(mask.begin() + static_cast<std::ptrdiff_t>(off),
                               mask.begin() + static_cast<std::ptrdiff_t>(off + n));
  for (std::size_t i = 0; i < n; ++i) {
    const float want = m[i] ? 1.0f / 0.7f : 0.0f;
    if (y[off + i] != static_cast<float>(want)) m[i] = 0xff;  // marks a value that disagrees with its mask
  }
  return m;
}

}  // namespace

TEST_CASE("random: the kernel body gives the same mask on any grid, vector width and offset", "[random]") {
  const ew::philox_seed key{2026, 12};
  const std::size_t n = 3001;
  const auto want = simulated_mask<1, 1>(n, 0, key, 32);
  std::size_t kept = 0;
  for (unsigned char m : want) {
    REQUIRE(m <= 1);
    kept += m;
  }
  CHECK(kept > n / 2);  // keep 0.7
  CHECK(kept < n * 9 / 10);
  for (std::size_t off : {0u, 1u, 3u, 5u}) {
    INFO("offset " << off);
    CHECK(simulated_mask<4, 2>(n, off, key, 64) == want);
    CHECK(simulated_mask<4, 4>(n, off, key, 96) == want);
    CHECK(simulated_mask<2, 8>(n, off, key, 128) == want);
  }
}

TEST_CASE("random: the kernel body gives the same 16-bit mask on any grid, vector width and offset",
          "[random]") {
  const ew::philox_seed key{2026, 13};
  const std::size_t n = 3001;
  constexpr auto k16 = ew::random_kind::bits16;
  const auto want = simulated_mask<1, 1, k16>(n, 0, key, 32);
  // Element i's mask from first principles: half i % 2 of word (i / 2) % 4 of block i / 8, below
  // round(0.7 * 2^16) = 45875.
  const ew::philox_seed k = key;
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const ew::philox_block b =
        ew::philox4x32_10({static_cast<std::uint32_t>(k.offset), 0u, static_cast<std::uint32_t>(i / 8), 0u},
                          static_cast<std::uint32_t>(k.seed), 0u);
    const std::uint32_t words[4] = {b.x, b.y, b.z, b.w};
    const std::uint32_t h = (words[(i / 2) % 4] >> (16 * (i % 2))) & 0xffffu;
    wrong += want[i] != (h < 45875u ? 1 : 0);
  }
  CHECK(wrong == 0);
  for (std::size_t off : {0u, 1u, 3u, 5u, 7u}) {
    INFO("offset " << off);
    CHECK(simulated_mask<4, 2, k16>(n, off, key, 64) == want);
    CHECK(simulated_mask<8, 2, k16>(n, off, key, 96) == want);
    CHECK(simulated_mask<2, 8, k16>(n, off, key, 128) == want);
  }
}
