// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Host simulation of whole grids through the same head/body/tail partition and grid-stride schedule the
// kernel runs: every element is handled exactly once, every vector access is aligned, for every size,
// pointer offset, vector width, grid and block size below.

#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include <ew/elementwise.cuh>

#include "../common/test_utils.cuh"

namespace {

using ew::detail::block_tile_schedule;
using ew::detail::launch_shape;
using ew::detail::make_partition;
using ew::detail::no_vector_path;
using ew::detail::partition;
using ew::detail::pointer_info;
using ew::detail::vector_head;


/// Records what one simulated thread touches.
struct recorder {
  std::vector<std::uint8_t>& hits;
  const std::vector<pointer_info>& ptrs;
  const partition& p;
  std::size_t bad_alignment = 0;
  std::size_t out_of_range = 0;

  void scalar(std::size_t i) {
    if (i >= p.n) {
      ++out_of_range;
      return;
    }
    ++hits[i];
  }
  void vectors(std::size_t first, std::size_t stride, int count) {
    for (int u = 0; u < count; ++u) {
      const std::size_t v = first + static_cast<std::size_t>(u) * stride;
      const std::size_t e = p.head + v * static_cast<std::size_t>(p.vec);
      if (v >= p.vectors || e + p.vec > p.n) {
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

/// Simulates a grid of `blocks` x `block_threads` (taking `per_thread` vectors per tile) over `n` elements
/// for pointers at the given byte offsets; fails the test on the first violation.
void simulate(std::size_t n, const std::vector<std::size_t>& byte_offsets, std::size_t element_size, int vec,
              std::size_t blocks, std::size_t block_threads, int per_thread) {
  std::vector<pointer_info> ptrs;
  for (std::size_t k = 0; k < byte_offsets.size(); ++k) {
    // Distinct 256-byte-aligned bases, then the offset, as cudaMalloc plus pointer arithmetic gives.
    ptrs.push_back(pointer_info{0x7f0000000000u + 0x100000u * k + byte_offsets[k], element_size});
  }
  const int head = vector_head(ptrs.data(), static_cast<int>(ptrs.size()), vec);
  bool all_same = true;
  for (auto o : byte_offsets) all_same = all_same && (o / element_size) % vec == (byte_offsets[0] / element_size) % vec;
  REQUIRE((head != no_vector_path) == all_same);
  const int used_vec = head == no_vector_path ? 1 : vec;
  const partition p = make_partition(n, head == no_vector_path ? 0 : static_cast<std::size_t>(head), used_vec);
  REQUIRE(p.head < static_cast<std::size_t>(used_vec));
  REQUIRE(p.body_end() <= n);
  REQUIRE(n - p.body_end() < static_cast<std::size_t>(used_vec));

  std::vector<std::uint8_t> hits(n, 0);
  recorder rec{hits, ptrs, p};
  const launch_shape shape{blocks, block_threads, per_thread};
  for (std::size_t b = 0; b < blocks; ++b)
    for (std::size_t t = 0; t < block_threads; ++t) block_tile_schedule(p, shape, b, t, rec);
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

}  // namespace

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
  const std::vector<std::pair<std::size_t, std::size_t>> grids{{1, 32}, {3, 64}, {7, 128}, {132, 256}};
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

TEST_CASE("launch plan: one tile per block, unroll vectors per thread, optional wave cap", "[partition]") {
  using ew::detail::plan_launch;
  const ew::tuning::launch_policy policy{};  // block from tile_vectors, no wave cap, per_thread = unroll
  const std::size_t resident = 132 * 8;     // an H200 at full occupancy
  auto plan = [&](std::size_t n, std::size_t head, int vec, int unroll, ew::tuning::launch_policy pol) {
    return plan_launch(make_partition(n, head, vec), resident, unroll, pol);
  };
  REQUIRE(plan(1, 0, 4, 2, policy).blocks == 1);
  REQUIRE(plan(3, 1, 4, 2, policy).blocks == 1);  // all head and tail
  // Tiles of 256 vectors: 128 threads x 2 for unary ops, 256 x 1 for binary ones.
  const launch_shape unary = plan(4096, 0, 4, 2, policy);
  REQUIRE((unary.blocks == 4 && unary.block_threads == 128 && unary.per_thread == 2));
  const launch_shape binary = plan(4096, 0, 4, 1, policy);
  REQUIRE((binary.blocks == 4 && binary.block_threads == 256 && binary.per_thread == 1));
  const launch_shape big = plan(std::size_t{1} << 28, 0, 4, 2, policy);
  REQUIRE(big.blocks == (std::size_t{1} << 26) / 256);
  // A fixed block size and a wave cap: blocks then loop over tiles.
  ew::tuning::launch_policy capped = policy;
  capped.block_threads = 256;
  capped.waves = 2;
  const launch_shape c = plan(std::size_t{1} << 28, 0, 4, 4, capped);
  REQUIRE((c.blocks == 2 * resident && c.block_threads == 256 && c.per_thread == 4));
  ew::tuning::launch_policy pinned = policy;
  pinned.per_thread = 2;
  REQUIRE(plan(std::size_t{1} << 28, 0, 4, 4, pinned).per_thread == 2);
  REQUIRE(plan(std::size_t{1} << 28, 0, 4, 4, pinned).block_threads == 128);
  pinned.per_thread = 9;
  REQUIRE(plan(std::size_t{1} << 28, 0, 4, 4, pinned).per_thread == 4);  // never past the compiled unroll
  // Block sizes stay within [32, max_block_threads].
  ew::tuning::launch_policy tiny = policy;
  tiny.tile_vectors = 8;
  REQUIRE(plan(4096, 0, 4, 1, tiny).block_threads == 32);
  tiny.tile_vectors = 1 << 20;
  REQUIRE(plan(4096, 0, 4, 1, tiny).block_threads == ew::tuning::max_block_threads);
  // Sizes past 2^32 elements keep 64-bit arithmetic: the partition holds all of them.
  const partition huge = make_partition((std::size_t{1} << 33) + 5, 3, 16);
  REQUIRE(huge.vectors == ((std::size_t{1} << 33) + 2) / 16);
  REQUIRE(huge.n - huge.body_end() == 2);
}
