// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// The per-device cache without a GPU: keyed by device, queried once per device and kept, errors never
// cached, devices past `cached_devices` queried on every call, and raced from many host threads (every
// answer is the right one for its device; a slot is never torn). The launcher's two caches (device facts,
// and each kernel's programmatic-launch wait) both go through `cached_or_query`, which these tests drive
// with a fake query; a kernel's resident blocks are kept with the block size and shared memory they were
// asked for (`pack_residency`).

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

namespace {

using ew::detail::cached_devices;
using ew::detail::cached_or_query;
using ew::detail::per_device_cache;

/// A word no two devices share, with both halves non-zero, so a torn or misrouted slot would show.
std::uint64_t word_for(int device) {
  return (static_cast<std::uint64_t>(0x5a5a0000u + device) << 32) | static_cast<std::uint32_t>(1000 + device);
}

/// `cached_or_query` with a fake query that counts its calls.
cudaError_t lookup(per_device_cache& cache, int device, std::uint64_t& word, std::atomic<int>& queries,
                   cudaError_t result = cudaSuccess) {
  return cached_or_query(cache, device, word, [&](std::uint64_t& w) {
    queries.fetch_add(1, std::memory_order_relaxed);
    if (result == cudaSuccess) w = word_for(device);
    return result;
  });
}

}  // namespace

TEST_CASE("an empty cache knows nothing; a slot holds what was put", "[device_cache]") {
  per_device_cache cache;
  for (int d = 0; d < cached_devices; ++d) REQUIRE(cache.get(d) == 0);
  cache.put(3, 42);
  REQUIRE(cache.get(3) == 42);
  REQUIRE(cache.get(2) == 0);
  REQUIRE(cache.get(4) == 0);
}

TEST_CASE("devices outside [0, cached_devices) have no slot: get says unknown, put is a no-op",
          "[device_cache]") {
  per_device_cache cache;
  for (int d : {-1, -100, cached_devices, cached_devices + 1, 1 << 30}) {
    cache.put(d, 7);
    REQUIRE(cache.get(d) == 0);
  }
  for (int d = 0; d < cached_devices; ++d) REQUIRE(cache.get(d) == 0);  // nothing spilled into a real slot
}

TEST_CASE("a device is queried once, then served from its own slot", "[device_cache]") {
  per_device_cache cache;
  std::atomic<int> queries{0};
  std::uint64_t w = 0;
  REQUIRE(lookup(cache, 0, w, queries) == cudaSuccess);
  REQUIRE(w == word_for(0));
  REQUIRE(queries == 1);
  REQUIRE(lookup(cache, 0, w, queries) == cudaSuccess);
  REQUIRE(w == word_for(0));
  REQUIRE(queries == 1);
  // Another device misses and gets its own answer; device 0's answer is untouched.
  REQUIRE(lookup(cache, 1, w, queries) == cudaSuccess);
  REQUIRE(w == word_for(1));
  REQUIRE(queries == 2);
  REQUIRE(lookup(cache, 0, w, queries) == cudaSuccess);
  REQUIRE(w == word_for(0));
  REQUIRE(queries == 2);
  // The last device with a slot is cached like the first.
  REQUIRE(lookup(cache, cached_devices - 1, w, queries) == cudaSuccess);
  REQUIRE(lookup(cache, cached_devices - 1, w, queries) == cudaSuccess);
  REQUIRE(w == word_for(cached_devices - 1));
  REQUIRE(queries == 3);
}

TEST_CASE("an error is returned and never cached", "[device_cache]") {
  per_device_cache cache;
  std::atomic<int> queries{0};
  std::uint64_t w = 0;
  REQUIRE(lookup(cache, 5, w, queries, cudaErrorInvalidDevice) == cudaErrorInvalidDevice);
  REQUIRE(cache.get(5) == 0);
  REQUIRE(lookup(cache, 5, w, queries) == cudaSuccess);  // queried again, and now kept
  REQUIRE(w == word_for(5));
  REQUIRE(queries == 2);
}

TEST_CASE("devices past cached_devices are queried on every call and still answered right",
          "[device_cache]") {
  per_device_cache cache;
  std::atomic<int> queries{0};
  std::uint64_t w = 0;
  for (int i = 1; i <= 3; ++i) {
    REQUIRE(lookup(cache, cached_devices, w, queries) == cudaSuccess);
    REQUIRE(w == word_for(cached_devices));
    REQUIRE(queries == i);
  }
}

TEST_CASE("device facts pack into one non-zero word and back", "[device_cache]") {
  using ew::detail::device_facts;
  for (device_facts f : {device_facts{132, 90, 3352}, device_facts{1, 10}, device_facts{0, 10, 0},
                         device_facts{0xffff, 0xffff, 0x7fffffff}, device_facts{148, 100, 8000}}) {
    const std::uint64_t w = ew::detail::pack_facts(f);
    REQUIRE(w != 0);
    const device_facts g = ew::detail::unpack_facts(w);
    REQUIRE(g.sm_count == f.sm_count);
    REQUIRE(g.cc == f.cc);
    REQUIRE(g.memory_gbps == f.memory_gbps);
  }
}

TEST_CASE("the memory bandwidth from the clock and the bus, as deviceQuery computes it", "[device_cache]") {
  using ew::detail::memory_gbps_of;
  CHECK(memory_gbps_of(2619000, 5120) == 3352);  // H100 SXM 80GB: 2619 MHz, 5120 bits
  CHECK(memory_gbps_of(1593000, 5120) == 2039);  // A100 SXM 80GB
  CHECK(memory_gbps_of(0, 5120) == 0);
  CHECK(memory_gbps_of(2619000, 0) == 0);
  CHECK(memory_gbps_of(-1, 5120) == 0);
  CHECK(memory_gbps_of(2147483647, 2147483647) == 2147483647);  // clamped, never past int
}

TEST_CASE("a kernel's resident blocks pack with their block size and shared memory, and answer only for them",
          "[device_cache]") {
  using ew::detail::pack_residency;
  using ew::detail::unpack_residency;
  for (int threads : {1, 128, 256, 1024}) {
    for (std::size_t smem : {std::size_t{0}, std::size_t{16384}, std::size_t{232448}}) {
      for (int blocks : {0, 1, 12, 32}) {
        INFO(threads << " threads, " << smem << " bytes, " << blocks << " blocks");
        const std::uint64_t w = pack_residency(threads, smem, blocks);
        REQUIRE(w != 0);
        int got = -1;
        REQUIRE(unpack_residency(w, threads, smem, got));
        REQUIRE(got == blocks);
        got = -1;
        REQUIRE_FALSE(unpack_residency(w, threads + 32, smem, got));  // another block size: ask again
        REQUIRE_FALSE(unpack_residency(w, threads, smem + 16, got));  // other shared memory: ask again
        REQUIRE(got == -1);
      }
    }
  }
  int got = -1;
  REQUIRE_FALSE(unpack_residency(0, 128, 0, got));  // an empty slot knows nothing
}

TEST_CASE(
    "the cache raced from many threads: every answer is right, each device queried at most once "
    "per thread",
    "[device_cache]") {
  per_device_cache cache;
  std::atomic<int> queries{0};
  std::atomic<int> wrong{0};
  std::atomic<bool> go{false};
  constexpr int threads = 16;
  constexpr int rounds = 20000;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      for (int i = 0; i < rounds; ++i) {
        const int device = (i * 7 + t) % cached_devices;
        std::uint64_t w = 0;
        if (lookup(cache, device, w, queries) != cudaSuccess || w != word_for(device)) {
          wrong.fetch_add(1, std::memory_order_relaxed);
        }
      }
    });
  }
  go.store(true, std::memory_order_release);
  for (auto& th : pool) th.join();
  REQUIRE(wrong == 0);
  // A thread that stored a slot reads its own store (or an equal one) from then on.
  REQUIRE(queries <= threads * cached_devices);
  for (int d = 0; d < cached_devices; ++d) REQUIRE(cache.get(d) == word_for(d));
}

TEST_CASE("query_device_facts: real devices give sane facts, invalid ones an error that is not cached",
          "[device_cache]") {
  int count = 0;
  const bool gpu = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
  ew::detail::device_facts facts{-1, -1};
  if (gpu) {
    for (int d = 0; d < count; ++d) {
      INFO("device " << d);
      REQUIRE(ew::detail::query_device_facts(d, facts) == cudaSuccess);
      REQUIRE(facts.sm_count > 0);
      REQUIRE(facts.cc >= 10);
      // The bandwidth is what the two attributes give (0 where a driver reports no clock or bus).
      int clock_khz = -1, bus_bits = -1;
      REQUIRE(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, d) == cudaSuccess);
      REQUIRE(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, d) == cudaSuccess);
      REQUIRE(facts.memory_gbps == ew::detail::memory_gbps_of(clock_khz, bus_bits));
      // And the launcher's policy for the device is policy_for_device's for these facts.
      if (d == 0) {
        REQUIRE(cudaSetDevice(0) == cudaSuccess);
        ew::detail::launch_args args{};
        REQUIRE(ew::detail::current_launch_args(args) == cudaSuccess);
        const ew::tuning::launch_policy want =
            ew::tuning::policy_for_device(facts.cc, facts.sm_count, facts.memory_gbps);
        REQUIRE(args.policy.monotone_reduction_blocks_per_sm == want.monotone_reduction_blocks_per_sm);
        REQUIRE(args.policy.reduction_blocks_per_sm == want.reduction_blocks_per_sm);
        REQUIRE(args.policy.programmatic_launch == want.programmatic_launch);
      }
      ew::detail::device_facts again{-1, -1};
      REQUIRE(ew::detail::query_device_facts(d, again) == cudaSuccess);  // from the cache now
      REQUIRE(again.sm_count == facts.sm_count);
      REQUIRE(again.cc == facts.cc);
      REQUIRE(again.memory_gbps == facts.memory_gbps);
    }
  }
  // No such device (and, without a GPU, no device at all): an error, twice, and `facts` left alone.
  for (int d : {count, cached_devices, cached_devices + 5}) {
    facts = ew::detail::device_facts{-1, -1};
    INFO("device " << d);
    REQUIRE(ew::detail::query_device_facts(d, facts) != cudaSuccess);
    REQUIRE(ew::detail::query_device_facts(d, facts) != cudaSuccess);
    REQUIRE(facts.sm_count == -1);
  }
  cudaGetLastError();  // the failed attribute queries left the runtime's last error set
}
