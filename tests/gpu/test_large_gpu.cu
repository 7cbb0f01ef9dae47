// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Sizes past 32-bit indexing (ctest gpu.large; tag [large], which the sanitizer runs leave out): 2^31 + 17
// and 2^32 + 5 int8 elements (more than 2^31 and 2^32 elements) and 2^30 + 123457 floats (more than 4 GiB
// per array), at aligned, commonly misaligned and differently misaligned offsets, launched directly and
// through a graph. Inputs are made on the device from a hash of the index; the output starts as the
// expected value with one bit flipped, so an element ew does not write is caught. Checked in full on the
// device by a separate kernel that recomputes every element (and that the inputs were not written), and
// on the host at the first and last 10,000 elements, around 2^31 and 2^32, and every 4099th element; guard
// bands after every launch.

#include <array>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/hardening_utils.cuh"
#include "../common/test_utils.cuh"

using namespace ew_test;

namespace {

__host__ __device__ inline std::uint64_t hash64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// Input element i: any int8 value, or a float in [-32, 32) on a 1/64 grid (so sums are exact).
template <class T>
__host__ __device__ inline T input_at(std::uint64_t seed, std::size_t i) {
  const std::uint64_t h = hash64(seed ^ hash64(i));
  if constexpr (cuda::std::is_same_v<T, std::int8_t>) {
    return static_cast<std::int8_t>(static_cast<std::uint8_t>(h >> 56));
  } else {
    return static_cast<float>(static_cast<int>((h >> 40) % 4096) - 2048) / 64.0f;
  }
}

/// What ew::add<T> must give, written independently: wrapping for int8, exact for these floats.
template <class T>
__host__ __device__ inline T expected_at(std::uint64_t sa, std::uint64_t sb, std::size_t i) {
  const T a = input_at<T>(sa, i), b = input_at<T>(sb, i);
  if constexpr (cuda::std::is_same_v<T, std::int8_t>) {
    return static_cast<std::int8_t>(
        static_cast<std::uint8_t>(static_cast<std::uint8_t>(a) + static_cast<std::uint8_t>(b)));
  } else {
    return a + b;
  }
}

template <class T>
__host__ __device__ inline std::uint32_t bits_of(T v) {
  if constexpr (cuda::std::is_same_v<T, std::int8_t>) {
    return static_cast<std::uint8_t>(v);
  } else {
    std::uint32_t u;
    memcpy(&u, &v, sizeof(u));
    return u;
  }
}
template <class T>
__host__ __device__ inline T with_bits(std::uint32_t u) {
  if constexpr (cuda::std::is_same_v<T, std::int8_t>) {
    return static_cast<std::int8_t>(static_cast<std::uint8_t>(u));
  } else {
    T v;
    memcpy(&v, &u, sizeof(v));
    return v;
  }
}

constexpr unsigned grid = 4096, block = 256;

template <class T>
__global__ void fill_inputs(T* p, std::size_t n, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x) {
    p[i] = input_at<T>(seed, i);
  }
}

/// The expected output with its lowest bit flipped: never right, so an unwritten element shows.
template <class T>
__global__ void fill_wrong(T* p, std::size_t n, std::uint64_t sa, std::uint64_t sb) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x) {
    p[i] = with_bits<T>(bits_of(expected_at<T>(sa, sb, i)) ^ 1u);
  }
}

/// Counts wrong outputs and changed inputs; keeps the smallest wrong index.
template <class T>
__global__ void verify(const T* out, const T* a, const T* b, std::size_t n, std::uint64_t sa,
                       std::uint64_t sb, unsigned long long* bad, unsigned long long* first) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const bool ok = bits_of(out[i]) == bits_of(expected_at<T>(sa, sb, i)) &&
                    bits_of(a[i]) == bits_of(input_at<T>(sa, i)) &&
                    bits_of(b[i]) == bits_of(input_at<T>(sb, i));
    if (!ok) {
      atomicAdd(bad, 1ull);
      atomicMin(first, static_cast<unsigned long long>(i));
    }
  }
}

/// dst[k] = src[k * stride], k < count.
template <class T>
__global__ void gather(const T* src, std::size_t stride, std::size_t count, T* dst) {
  for (std::size_t k = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; k < count;
       k += std::size_t{gridDim.x} * blockDim.x) {
    dst[k] = src[k * stride];
  }
}

/// Host check of out[begin, end) against the expected values; returns the wrong count, first in `first`.
template <class T>
std::size_t host_check_range(const T* out, std::size_t begin, std::size_t end, std::uint64_t sa,
                             std::uint64_t sb, std::size_t& first) {
  std::vector<T> got(end - begin);
  EW_REQUIRE_CUDA(cudaMemcpy(got.data(), out + begin, got.size() * sizeof(T), cudaMemcpyDeviceToHost));
  std::size_t bad = 0;
  for (std::size_t i = begin; i < end; ++i) {
    if (bits_of(got[i - begin]) != bits_of(expected_at<T>(sa, sb, i)) && bad++ == 0) first = i;
  }
  return bad;
}

template <class T>
void check_large(std::size_t n, const std::array<std::size_t, 3>& off, std::uint64_t seed) {
  const std::uint64_t sa = seed, sb = seed + 1;
  INFO(type_name<T>() << " n=" << n << " (" << n * sizeof(T) << " bytes per array), element offsets out/a/b "
                      << off[0] << "/" << off[1] << "/" << off[2] << ", seed " << seed);
  const auto t0 = std::chrono::steady_clock::now();
  device_array<T> dout(n, off[0]), da(n, off[1]), db(n, off[2]);
  fill_inputs<<<grid, block>>>(da.data(), n, sa);
  fill_inputs<<<grid, block>>>(db.data(), n, sb);
  EW_REQUIRE_CUDA(cudaGetLastError());
  unsigned long long* counters = nullptr;  // bad count, first bad index
  EW_REQUIRE_CUDA(cudaMalloc(&counters, 2 * sizeof(unsigned long long)));
  const std::size_t stride = 4099, samples = (n + stride - 1) / stride;
  T* sampled = nullptr;
  EW_REQUIRE_CUDA(cudaMalloc(&sampled, samples * sizeof(T)));
  owned_stream stream;
  settle();

  for (launch_mode mode : {launch_mode::direct, launch_mode::graph}) {
    INFO(mode_name(mode));
    fill_wrong<<<grid, block>>>(dout.data(), n, sa, sb);
    EW_REQUIRE_CUDA(cudaGetLastError());
    settle();
    EW_REQUIRE_CUDA(run_in_mode(mode, stream.get(), [&](cudaStream_t s) {
      return ew::elementwise(ew::add<T>{}, n, dout.data(), ew::in(da.data(), db.data()), s);
    }));

    // In full, on the device.
    const unsigned long long init[2] = {0, ULLONG_MAX};
    EW_REQUIRE_CUDA(cudaMemcpy(counters, init, sizeof(init), cudaMemcpyHostToDevice));
    verify<<<grid, block>>>(dout.data(), da.data(), db.data(), n, sa, sb, counters, counters + 1);
    EW_REQUIRE_CUDA(cudaGetLastError());
    unsigned long long result[2] = {};
    EW_REQUIRE_CUDA(cudaMemcpy(result, counters, sizeof(result), cudaMemcpyDeviceToHost));
    INFO("device check: " << result[0] << " wrong, first at " << result[1]);
    REQUIRE(result[0] == 0);

    // Sampled, on the host, with the host's own arithmetic.
    std::size_t first = 0;
    const std::size_t w = 10000;
    REQUIRE(host_check_range(dout.data(), 0, w, sa, sb, first) == 0);
    REQUIRE(host_check_range(dout.data(), n - w, n, sa, sb, first) == 0);
    for (std::size_t mark : {std::size_t{1} << 31, std::size_t{1} << 32}) {
      if (n > mark + w) {
        INFO("around " << mark);
        REQUIRE(host_check_range(dout.data(), mark - w, mark + w, sa, sb, first) == 0);
      }
    }
    gather<<<grid, block>>>(dout.data(), stride, samples, sampled);
    EW_REQUIRE_CUDA(cudaGetLastError());
    std::vector<T> got(samples);
    EW_REQUIRE_CUDA(cudaMemcpy(got.data(), sampled, samples * sizeof(T), cudaMemcpyDeviceToHost));
    std::size_t bad = 0;
    for (std::size_t k = 0; k < samples; ++k) {
      if (bits_of(got[k]) != bits_of(expected_at<T>(sa, sb, k * stride)) && bad++ == 0) first = k * stride;
    }
    INFO("every " << stride << "th element: " << bad << " wrong, first at " << first);
    REQUIRE(bad == 0);

    REQUIRE(dout.guards_intact());
    REQUIRE(da.guards_intact());
    REQUIRE(db.guards_intact());
  }
  cudaFree(sampled);
  cudaFree(counters);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("large: %s n=%zu offsets %zu/%zu/%zu: direct and graph checked in %.2f s\n", type_name<T>(), n,
              off[0], off[1], off[2], s);
}

}  // namespace

TEST_CASE("more than 2^31 and 2^32 int8 elements", "[large][graph][guard]") {
  const std::size_t n31 = (std::size_t{1} << 31) + 17;
  check_large<std::int8_t>(n31, {0, 0, 0}, base_seed());  // vector path, no head
  check_large<std::int8_t>(n31, {5, 5, 5}, base_seed());  // vector path after an 11-element head
  check_large<std::int8_t>(n31, {1, 2, 3}, base_seed());  // scalar path
  check_large<std::int8_t>((std::size_t{1} << 32) + 5, {7, 7, 7}, base_seed() + 1);
}

TEST_CASE("more than 4 GiB per array: 2^30 + 123457 floats", "[large][graph][guard]") {
  const std::size_t n = (std::size_t{1} << 30) + 123457;
  check_large<float>(n, {0, 0, 0}, base_seed());
  check_large<float>(n, {3, 3, 3}, base_seed());
  check_large<float>(n, {1, 0, 2}, base_seed());
}
