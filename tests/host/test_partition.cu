// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Host simulation of whole grids through the same head/body/tail partition and grid-stride schedule the
// kernel runs: every element is handled exactly once, every vector access is aligned, for every size,
// pointer offset, vector width, grid, block size and vectors per thread below.

#include <cstdint>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/test_utils.cuh"

namespace {

using ew::detail::launch_shape;
using ew::detail::make_partition;
using ew::detail::no_vector_path;
using ew::detail::partition;
using ew::detail::pointer_info;
using ew::detail::vector_head;

/// What one thread of the kernel walks, in the kernel's order (elementwise_grid_thread): its tiles, then its
/// scalar elements.
template <class Visitor>
void block_tile_schedule(const partition& p, const launch_shape& s, std::size_t b, std::size_t t,
                         Visitor& v) {
  ew::detail::tile_schedule(p, s, b, t, v);
  ew::detail::scalar_schedule(p, s, b, t, v);
}

/// Runs every thread of a grid of shape `s` over `p` through the kernel's schedule with visitor `v`.
template <class Visitor>
void run_grid(const partition& p, const launch_shape& s, Visitor& v) {
  for (std::size_t b = 0; b < s.blocks; ++b)
    for (std::size_t t = 0; t < s.block_threads; ++t) block_tile_schedule(p, s, b, t, v);
}

/// One element size for every pointer.
void simulate(std::size_t n, const std::vector<std::size_t>& byte_offsets, std::size_t element_size, int vec,
              std::size_t blocks, std::size_t block_threads, int per_thread);

/// Records what one simulated thread touches.
struct recorder {
  std::vector<std::uint8_t>& hits;
  const std::vector<pointer_info>& ptrs;
  const partition& p;
  int per_thread;
  std::size_t bad_alignment = 0;
  std::size_t out_of_range = 0;
  std::size_t scalars = 0;  ///< scalar elements this visitor saw (per thread when reset per thread)

  void scalar(std::size_t i) {
    if (i >= p.n) {
      ++out_of_range;
      return;
    }
    ++scalars;
    ++hits[i];
  }
  void vectors(std::size_t first, std::size_t stride) {
    for (int u = 0; u < per_thread; ++u) {
      const std::size_t v = first + static_cast<std::size_t>(u) * stride;
      const std::size_t e = p.head + v * static_cast<std::size_t>(p.vec);
      if (v >= p.vectors() || e + p.vec > p.n) {
        ++out_of_range;
        continue;
      }
      for (const auto& ptr : ptrs) {
        const std::uintptr_t addr = ptr.address + e * ptr.element_size;
        if (addr % (ptr.element_size * p.vec) != 0) ++bad_alignment;
      }
      for (int j = 0; j < p.vec; ++j) ++hits[e + j];
    }
  }
};

/// The head `vector_head` must find, by brute force: the smallest `h < vec` after which every pointer is
/// aligned to its own vector size (`vec` elements of its own size), or `no_vector_path`.
int brute_force_head(const std::vector<pointer_info>& ptrs, int vec) {
  for (int h = 0; h < vec; ++h) {
    bool ok = true;
    for (const auto& p : ptrs) {
      ok = ok && p.address % p.element_size == 0 &&
           (p.address + static_cast<std::size_t>(h) * p.element_size) % (p.element_size * vec) == 0;
    }
    if (ok) return h;
  }
  return no_vector_path;
}

/// Simulates a grid of `blocks` x `block_threads` (taking `per_thread` vectors per tile) over `n` elements
/// for pointers at the given byte offsets, each with its own element size; fails the test on the first
/// violation.
void simulate(std::size_t n, const std::vector<std::size_t>& byte_offsets,
              const std::vector<std::size_t>& sizes, int vec, std::size_t blocks, std::size_t block_threads,
              int per_thread) {
  std::vector<pointer_info> ptrs;
  for (std::size_t k = 0; k < byte_offsets.size(); ++k) {
    // Distinct 256-byte-aligned bases, then the offset, as cudaMalloc plus pointer arithmetic gives.
    ptrs.push_back(pointer_info{0x7f0000000000u + 0x100000u * k + byte_offsets[k], sizes[k]});
  }
  const int head = vector_head(ptrs.data(), static_cast<int>(ptrs.size()), vec);
  REQUIRE(head == brute_force_head(ptrs, vec));
  const int used_vec = head == no_vector_path ? 1 : vec;
  const std::size_t tile = block_threads * static_cast<std::size_t>(per_thread);
  const partition p =
      make_partition(n, head == no_vector_path ? 0 : static_cast<std::size_t>(head), used_vec, tile);
  REQUIRE(p.head < static_cast<std::size_t>(used_vec));
  REQUIRE(p.body_end() <= n);
  // Whole tiles only: the tail is shorter than one tile plus one vector.
  REQUIRE(n - p.body_end() < (tile + 1) * static_cast<std::size_t>(used_vec));
  REQUIRE(p.vectors() % tile == 0);

  std::vector<std::uint8_t> hits(n, 0);
  recorder rec{hits, ptrs, p, per_thread};
  const launch_shape shape{blocks, block_threads};
  run_grid(p, shape, rec);
  REQUIRE(rec.out_of_range == 0);
  REQUIRE(rec.bad_alignment == 0);
  std::size_t wrong = 0, first_wrong = n;
  for (std::size_t i = 0; i < n; ++i) {
    if (hits[i] != 1) {
      if (wrong++ == 0) first_wrong = i;
    }
  }
  INFO("first element not handled exactly once: " << first_wrong);
  REQUIRE(wrong == 0);
}

void simulate(std::size_t n, const std::vector<std::size_t>& byte_offsets, std::size_t element_size, int vec,
              std::size_t blocks, std::size_t block_threads, int per_thread) {
  simulate(n, byte_offsets, std::vector<std::size_t>(byte_offsets.size(), element_size), vec, blocks,
           block_threads, per_thread);
}

/// Counts the vector tiles each block takes (a visitor for `block_tile_schedule`), keyed by the tile's
/// first vector.
struct tile_counter {
  std::size_t tile;
  std::vector<std::vector<std::size_t>>& tiles_of_block;
  std::size_t block = 0;
  void scalar(std::size_t) {}
  void vectors(std::size_t first, std::size_t) {
    auto& t = tiles_of_block[block];
    const std::size_t id = first / tile;
    if (t.empty() || t.back() != id) t.push_back(id);
  }
};

}  // namespace

TEST_CASE("vector_head with mixed element sizes matches a brute-force search", "[partition]") {
  // Every pair of sizes {1, 2, 4, 8} at every byte offset 0..15, for every vector width the wider one allows:
  // the head must make every pointer aligned to its own vector, and the whole grid must still cover each
  // element once.
  for (std::size_t sa : {1, 2, 4, 8}) {
    for (std::size_t sb : {1, 2, 4, 8}) {
      for (int vec = 1; vec * (sa > sb ? sa : sb) <= 16; vec *= 2) {
        for (std::size_t oa = 0; oa < 16; ++oa) {
          for (std::size_t ob = 0; ob < 16; ++ob) {
            INFO("sizes " << sa << "," << sb << " offsets " << oa << "," << ob << " vec " << vec);
            std::vector<pointer_info> ptrs{{0x10000 + oa, sa}, {0x90000 + ob, sb}};
            REQUIRE(vector_head(ptrs.data(), 2, vec) == brute_force_head(ptrs, vec));
            if (oa % sa == 0 && ob % sb == 0) simulate(257, {oa, ob}, {sa, sb}, vec, 3, 32, 2);
          }
        }
      }
    }
  }
}

TEST_CASE("vector_head aligns every pointer or refuses", "[partition]") {
  for (std::size_t size : {1, 2, 4, 8}) {
    for (int vec = 1; vec * size <= 16; vec *= 2) {
      for (std::size_t off = 0; off < 16; off += size) {
        pointer_info p[2] = {{0x1000 + off, size}, {0x9000 + off, size}};
        const int head = vector_head(p, 2, vec);
        REQUIRE(head >= 0);
        REQUIRE(head < vec);
        REQUIRE((p[0].address + head * size) % (vec * size) == 0);
      }
    }
  }
  pointer_info misfit[2] = {{0x1000, 4}, {0x2004, 4}};
  REQUIRE(vector_head(misfit, 2, 4) == no_vector_path);
  REQUIRE(vector_head(misfit, 2, 1) == 0);  // scalar access is always aligned
  pointer_info unaligned[1] = {{0x1001, 4}};
  REQUIRE(vector_head(unaligned, 1, 4) == no_vector_path);
}

TEST_CASE("block-tile schedule covers each element once with aligned vectors", "[partition]") {
  // Small grids too (fewer threads than a head or tail holds, several blocks of one or a few threads), so a
  // head/tail loop that strode by the block instead of the grid would handle elements twice.
  const std::vector<std::pair<std::size_t, std::size_t>> grids{{1, 1},  {2, 1},  {3, 2},   {5, 3},
                                                               {1, 32}, {3, 64}, {7, 128}, {132, 256}};
  for (std::size_t element_size : {1, 2, 4, 8}) {
    for (int vec = 1; vec * element_size <= 16; vec *= 2) {
      for (std::size_t n : ew_test::edge_sizes()) {
        // Two pointers (an output and an input) at every pair of element-aligned byte offsets in 0..15 for
        // small n; for the large size a spread of pairs keeps the run short.
        std::vector<std::pair<std::size_t, std::size_t>> offsets;
        for (std::size_t a = 0; a < 16; a += element_size)
          for (std::size_t b = 0; b < 16; b += element_size)
            if (n < 100000 || (a == b) || (a == 0 && b == element_size)) offsets.push_back({a, b});
        for (auto [a, b] : offsets) {
          for (auto [blocks, threads] : grids) {
            for (int per_thread : {1, 2, 4}) {
              if (n > 100000 && (blocks * threads < 1024 || per_thread == 2)) continue;
              if (n > 300 && blocks * threads < 32) continue;
              INFO("n=" << n << " size=" << element_size << " vec=" << vec << " offsets=" << a << "," << b
                        << " grid=" << blocks << "x" << threads << " per_thread=" << per_thread);
              simulate(n, {a, b}, element_size, vec, blocks, threads, per_thread);
            }
          }
        }
      }
    }
  }
}

TEST_CASE("three pointers: one odd offset forces the scalar path", "[partition]") {
  for (std::size_t n : {4097u, 1000003u}) {
    simulate(n, {0, 0, 4}, 4, 4, 132, 256, 4);
    simulate(n, {12, 12, 12}, 4, 4, 132, 256, 2);
    simulate(n, {2, 2, 2}, 2, 8, 16, 128, 1);
  }
}

TEST_CASE("launch plan: one tile per block, unroll vectors per thread, whole tiles vectorized",
          "[partition]") {
  using ew::detail::launch_plan;
  using ew::detail::plan_launch;
  const ew::tuning::launch_policy policy{};  // block size from tile_vectors
  REQUIRE(plan_launch(1, 0, 4, 2, policy).shape.blocks == 1);
  REQUIRE(plan_launch(3, 1, 4, 2, policy).shape.blocks == 1);  // all head and tail
  REQUIRE(plan_launch(3, 1, 4, 2, policy).part.tiles == 0);
  // Tiles of 256 vectors: 128 threads x 2 for unary ops, 256 x 1 for binary ones.
  const launch_plan unary = plan_launch(4096, 0, 4, 2, policy);
  REQUIRE((unary.shape.blocks == 4 && unary.shape.block_threads == 128 && unary.part.tile_vectors == 256));
  REQUIRE((unary.part.tiles == 4 && unary.part.scalars() == 0));
  const launch_plan binary = plan_launch(4096, 0, 4, 1, policy);
  REQUIRE((binary.shape.blocks == 4 && binary.shape.block_threads == 256 && binary.part.tile_vectors == 256));
  const launch_plan big = plan_launch(std::size_t{1} << 28, 0, 4, 2, policy);
  REQUIRE(big.shape.blocks == (std::size_t{1} << 26) / 256);
  // A partial tile goes element by element, and the grid grows so that each thread has at most one:
  // 4096 + 1000 elements of f32 in vectors of 4 = 4 tiles of 1024 elements and 1000 scalars, for which 8
  // blocks of 128 threads are needed.
  const launch_plan part = plan_launch(4096 + 1000, 0, 4, 2, policy);
  REQUIRE((part.part.tiles == 4 && part.part.scalars() == 1000 && part.shape.blocks == 8));
  // A fixed block size.
  ew::tuning::launch_policy fixed = policy;
  fixed.block_threads = 256;
  const launch_plan f = plan_launch(std::size_t{1} << 28, 0, 4, 4, fixed);
  REQUIRE((f.shape.blocks == (std::size_t{1} << 26) / 1024 && f.shape.block_threads == 256));
  REQUIRE(f.part.tile_vectors == 1024);
  // Block sizes stay within [32, max_block_threads].
  ew::tuning::launch_policy tiny = policy;
  tiny.tile_vectors = 8;
  REQUIRE(plan_launch(4096, 0, 4, 1, tiny).shape.block_threads == 32);
  tiny.tile_vectors = 1 << 20;
  REQUIRE(plan_launch(4096, 0, 4, 1, tiny).shape.block_threads == ew::tuning::max_block_threads);
  // Whole tiles only, one a block, below 2^32 elements: the kernel's 32-bit whole-tile path.
  REQUIRE(unary.shape.whole_tiles);
  REQUIRE(binary.shape.whole_tiles);
  REQUIRE(big.shape.whole_tiles);
  REQUIRE(f.shape.whole_tiles);
  REQUIRE_FALSE(part.shape.whole_tiles);                                    // a tail
  REQUIRE_FALSE(plan_launch(4096 + 4, 1, 4, 2, policy).shape.whole_tiles);  // a head
  REQUIRE_FALSE(plan_launch(4096, 0, 1, 2, policy).shape.whole_tiles);      // the scalar path
  REQUIRE_FALSE(plan_launch(1000, 0, 4, 2, policy).shape.whole_tiles);      // no whole tile
  REQUIRE(plan_launch((std::size_t{1} << 32) - 1024, 0, 4, 2, policy).shape.whole_tiles);
  REQUIRE_FALSE(plan_launch(std::size_t{1} << 32, 0, 4, 2, policy).shape.whole_tiles);  // 2^32 elements
  // Sizes past 2^32 elements keep 64-bit arithmetic: the partition holds all of them.
  const partition huge = make_partition((std::size_t{1} << 33) + 5, 3, 16, 256);
  REQUIRE(huge.tiles == ((std::size_t{1} << 33) + 2) / 16 / 256);
  REQUIRE(huge.n - huge.body_end() == ((std::size_t{1} << 33) + 2) - huge.tiles * 256 * 16);
  REQUIRE(huge.scalar_element(2) == 2);                // the head
  REQUIRE(huge.scalar_element(3) == huge.body_end());  // then the tail
}

TEST_CASE(
    "launch plan: the default policy gives each block at most one tile and each thread at most one "
    "scalar element",
    "[partition]") {
  // plan_launch's own plan, run through the kernel's schedule, for sizes that are not whole tiles: a grid
  // rounded down would give a block two tiles or a thread two scalar elements (two memory round trips).
  using ew::detail::launch_plan;
  using ew::detail::plan_launch;
  const ew::tuning::launch_policy policy = ew::tuning::policy_for_cc(90);
  for (int vec : {1, 4, 8}) {
    for (int unroll : {1, 2}) {
      for (std::size_t n : {1u, 3u, 255u, 1023u, 4096u + 7u, 65536u + 1000u, 1000003u}) {
        for (std::size_t head : {0u, 1u}) {
          const launch_plan plan = plan_launch(n, head % static_cast<std::size_t>(vec), vec, unroll, policy);
          const partition& p = plan.part;
          const launch_shape& s = plan.shape;
          INFO("n=" << n << " vec=" << vec << " unroll=" << unroll << " blocks=" << s.blocks);
          REQUIRE(p.tile_vectors == s.block_threads * static_cast<std::size_t>(unroll));
          std::vector<std::vector<std::size_t>> tiles(s.blocks);
          tile_counter c{p.tile_vectors, tiles};
          for (std::size_t b = 0; b < s.blocks; ++b) {
            c.block = b;
            for (std::size_t t = 0; t < s.block_threads; ++t) block_tile_schedule(p, s, b, t, c);
          }
          std::size_t used = 0;
          for (const auto& t : tiles) {
            REQUIRE(t.size() <= 1);
            used += t.size();
          }
          REQUIRE(used == p.tiles);
          // No idle blocks: every block has a tile or a scalar element.
          REQUIRE(s.blocks <= (p.tiles > 0 ? p.tiles : 1) + p.scalars() / s.block_threads + 1);
          std::vector<std::uint8_t> hits(n, 0);
          std::vector<pointer_info> ptrs{{0x10000 + p.head * 4, 4}};
          recorder rec{hits, ptrs, p, unroll};
          std::size_t most_scalars = 0;
          for (std::size_t b = 0; b < s.blocks; ++b) {
            for (std::size_t t = 0; t < s.block_threads; ++t) {
              rec.scalars = 0;
              block_tile_schedule(p, s, b, t, rec);
              most_scalars = rec.scalars > most_scalars ? rec.scalars : most_scalars;
            }
          }
          REQUIRE(most_scalars <= 1);
          REQUIRE(rec.out_of_range == 0);
          std::size_t wrong = 0;
          for (std::size_t i = 0; i < n; ++i) wrong += hits[i] != 1;
          REQUIRE(wrong == 0);
        }
      }
    }
  }
}

TEST_CASE("launch plan: block sizes clamped to what the kernels are compiled for, grid capped at 2^31 - 1",
          "[partition]") {
  using ew::detail::plan_launch;
  ew::tuning::launch_policy policy = ew::tuning::policy_for_cc(90);
  policy.block_threads = 4096;  // more than __launch_bounds__ allows: the launch would fail
  REQUIRE(plan_launch(1u << 20, 0, 4, 2, policy).shape.block_threads ==
          static_cast<std::size_t>(ew::tuning::max_block_threads));
  policy.block_threads = 1;
  REQUIRE(plan_launch(1u << 20, 0, 4, 2, policy).shape.block_threads == 1);
  // 2^45 elements: 2^43 vectors of 4, 2^35 tiles of 256, more than the grid's x dimension holds.
  const ew::tuning::launch_policy def = ew::tuning::policy_for_cc(90);
  const auto huge = plan_launch(std::size_t{1} << 45, 0, 4, 2, def);
  REQUIRE(huge.shape.blocks == 0x7fffffffu);
  REQUIRE(huge.shape.block_threads == 128);
  // The block loop then covers the rest: a small analogue (a grid capped below the tile count) still
  // handles every element once.
  simulate(100003, {0, 0}, 4, 4, 3, 32, 2);
}

TEST_CASE("programmatic launch triggers early only for grids of at most one block per SM", "[partition]") {
  REQUIRE(ew::tuning::early_trigger(1, 132));
  REQUIRE(ew::tuning::early_trigger(132, 132));
  REQUIRE_FALSE(ew::tuning::early_trigger(133, 132));
  REQUIRE_FALSE(ew::tuning::early_trigger(std::size_t{1} << 31, 132));
  // The default launch shape asks for nothing: only launch_kernel sets it, under programmatic launch.
  REQUIRE_FALSE(
      ew::detail::plan_launch(1u << 16, 0, 4, 2, ew::tuning::policy_for_cc(90)).shape.early_trigger);
}
