// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Streams on the GPU (ctest gpu.streams): on every kind of stream (created non-blocking, created blocking,
// the legacy default stream as 0 and as cudaStreamLegacy, the per-thread default stream), directly and in a
// graph where the stream can be captured, ew's launches stay in order with the plain kernels around them,
// at aligned and misaligned offsets. Guard bands are checked after every launch.

#include <array>
#include <cstdint>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/functor_reference.cuh"
#include "../common/hardening_utils.cuh"
#include "../common/test_utils.cuh"

using namespace ew_test;

namespace {

/// out[i] = 2 * in[i] (exact): plain kernels before and after ew's launches in the same stream.
template <class T>
__global__ void times_two(const T* in, T* out, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x) {
    out[i] = ew::convert<T>(ew::convert<float>(in[i]) * 2.0f);
  }
}

/// A plain kernel a2 = 2a, then ew c = a2 + b, then ew d = c * b, then a plain kernel e = 2d, all on one
/// stream with no synchronization between them: each step must see the previous one's output (ew launches
/// with programmatic stream serialization on sm_90, so its kernels may start early and must wait for
/// their inputs). In `mode`; on a legacy stream in direct mode the result is read back with a plain
/// cudaMemcpy and no stream synchronization (the legacy stream orders it after the kernels).
template <class T>
void check_chain(cudaStream_t stream, bool legacy, launch_mode mode, std::size_t n,
                 const std::array<std::size_t, 4>& off, std::uint64_t seed) {
  INFO(type_name<T>() << " n=" << n << " offsets " << off[0] << "," << off[1] << "," << off[2] << ","
                      << off[3]);
  const std::vector<T> a = random_values<T>(n, seed), b = random_values<T>(n, seed + 1);
  device_array<T> da(n, off[0]), db(n, off[1]), dc(n, off[2]), dd(n, off[3]), da2(n, 0), de(n, 0);
  da.upload(a);
  db.upload(b);
  for (device_array<T>* p : {&dc, &dd, &da2, &de}) p->poison();
  settle();
  auto issue = [&](cudaStream_t s) {
    times_two<<<64, 256, 0, s>>>(da.data(), da2.data(), n);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
      e = ew::elementwise(ew::add<T>{}, n, dc.data(), ew::in<T, T>(da2.data(), db.data()), s);
    if (e == cudaSuccess)
      e = ew::elementwise(ew::mul<T>{}, n, dd.data(), ew::in<T, T>(dc.data(), db.data()), s);
    if (e == cudaSuccess) {
      times_two<<<64, 256, 0, s>>>(dd.data(), de.data(), n);
      e = cudaGetLastError();
    }
    return e;
  };
  if (legacy && mode == launch_mode::direct) {
    EW_REQUIRE_CUDA(issue(stream));
  } else {
    EW_REQUIRE_CUDA(run_in_mode(mode, stream, issue));
  }
  const std::vector<T> e = de.download(), d = dd.download(), c = dc.download(), a2 = da2.download();
  require_equal(a2, [&](std::size_t i) { return from_double<T>(to_double(a[i]) * 2); });
  require_equal(
      c, [&](std::size_t i) { return ref_add(a2[i], b[i]); }, arith_ulps<T>());
  require_equal(
      d, [&](std::size_t i) { return ref_mul(c[i], b[i]); }, arith_ulps<T>());
  require_equal(e, [&](std::size_t i) { return from_double<T>(to_double(d[i]) * 2); });
  for (device_array<T>* p : {&da, &db, &dc, &dd, &da2, &de}) REQUIRE(p->guards_intact());
}

}  // namespace

TEST_CASE("the launcher works on every kind of stream, in order with the work around it",
          "[streams][graph][guard]") {
  owned_stream non_blocking(cudaStreamNonBlocking), blocking(cudaStreamDefault);
  struct kind {
    const char* name;
    cudaStream_t stream;
    bool legacy;  // the legacy default stream cannot be captured
  };
  const kind kinds[] = {{"created, cudaStreamNonBlocking", non_blocking.get(), false},
                        {"created, blocking", blocking.get(), false},
                        {"0 (legacy default stream)", nullptr, true},
                        {"cudaStreamLegacy", cudaStreamLegacy, true},
                        {"cudaStreamPerThread", cudaStreamPerThread, false}};
  const std::uint64_t seed = base_seed();
  for (const kind& k : kinds) {
    for (launch_mode mode : {launch_mode::direct, launch_mode::graph}) {
      if (k.legacy && mode == launch_mode::graph) continue;
      INFO("stream " << k.name << ", " << mode_name(mode) << ", seed " << seed);
      check_chain<float>(k.stream, k.legacy, mode, 1000003, {1, 1, 1, 1}, seed);  // vector path after a head
      check_chain<__half>(k.stream, k.legacy, mode, 4099, {0, 1, 2, 3}, seed + 1);  // scalar path
    }
  }
}
