// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Element types that are not 1, 2, 4, 8 or 16 bytes (float3, a 24-byte struct) and a 16-byte struct aligned
// to 4 bytes only: they take the scalar path (or, for the under-aligned struct at a 16-byte-aligned address,
// the vectorized one), at every edge size and element offset, directly and in a graph, with guard bands and
// poisoned outputs. The reference is plain host arithmetic on the same values.

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/test_utils.cuh"

using namespace ew_test;

namespace {

/// 16 bytes, aligned to 4: arrays of it may start at any 4-byte boundary.
struct quad {
  float a, b, c, d;
};
static_assert(sizeof(quad) == 16 && alignof(quad) == 4, "quad is meant to be under-aligned");

/// 24 bytes, over the 16 a vector access moves.
struct triple {
  double x, y, z;
};

struct add_float3 {
  EW_HD float3 operator()(float3 p, float3 q) const { return make_float3(p.x + q.x, p.y - q.y, p.z * q.z); }
};
struct rotate_quad {
  EW_HD quad operator()(quad q) const { return quad{q.d, q.a * 2.0f, q.b + 1.0f, -q.c}; }
};
struct scale_triple {
  EW_HD triple operator()(triple t, float s) const { return triple{t.x * s, t.y + s, t.z - t.x}; }
};

float value(std::mt19937_64& rng) {
  return static_cast<float>(static_cast<int>(rng() % 2001) - 1000) / 64.0f;
}

template <class T>
bool bytes_equal(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

}  // namespace

TEST_CASE("element types of any size: float3, an under-aligned 16-byte struct, a 24-byte struct",
          "[element_types]") {
  static_assert(ew::detail::default_vec_width<float3> == 1, "float3 takes the scalar path");
  // A created stream: the legacy stream 0 cannot be captured into a graph.
  cudaStream_t stream = nullptr;
  EW_REQUIRE_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (launch_mode mode : {launch_mode::direct, launch_mode::graph}) {
    for (std::size_t n : edge_sizes()) {
      if (n == 0) continue;
      for (std::size_t off : {0u, 1u, 3u}) {
        INFO("n=" << n << " offset=" << off << " mode " << mode_name(mode));
        std::mt19937_64 rng(base_seed() + n * 7 + off);
        {
          std::vector<float3> p(n), q(n);
          for (std::size_t i = 0; i < n; ++i) {
            p[i] = make_float3(value(rng), value(rng), value(rng));
            q[i] = make_float3(value(rng), value(rng), value(rng));
          }
          device_array<float3> dp(n, off), dq(n, 0), dy(n, off == 0 ? 2 : off);
          dp.upload(p);
          dq.upload(q);
          dy.poison();
          EW_REQUIRE_CUDA(run_in_mode(mode, stream, [&](cudaStream_t s) {
            return ew::elementwise(add_float3{}, n, dy.data(), ew::in(dp.data(), dq.data()), s);
          }));
          const std::vector<float3> y = dy.download();
          std::size_t wrong = 0;
          for (std::size_t i = 0; i < n; ++i) wrong += !bytes_equal(y[i], add_float3{}(p[i], q[i]));
          REQUIRE(wrong == 0);
          REQUIRE(dp.guards_intact());
          REQUIRE(dq.guards_intact());
          REQUIRE(dy.guards_intact());
        }
        {
          // Element offsets 0 and 1 from a 256-byte boundary: 16-byte aligned (vector path) and 4 bytes past
          // it (off * 16 bytes is aligned; the extra 4 comes from a float offset below).
          std::vector<quad> x(n);
          for (auto& e : x) e = quad{value(rng), value(rng), value(rng), value(rng)};
          for (std::size_t byte_shift : {0u, 4u}) {
            guarded_buffer bin(n * sizeof(quad), off * sizeof(quad) + byte_shift);
            guarded_buffer bout(n * sizeof(quad), byte_shift);
            quad* in = static_cast<quad*>(bin.data());
            quad* out = static_cast<quad*>(bout.data());
            EW_REQUIRE_CUDA(cudaMemcpy(in, x.data(), n * sizeof(quad), cudaMemcpyHostToDevice));
            EW_REQUIRE_CUDA(cudaMemset(out, 0x7B, n * sizeof(quad)));
            EW_REQUIRE_CUDA(cudaDeviceSynchronize());
            EW_REQUIRE_CUDA(run_in_mode(
                mode, stream, [&](cudaStream_t s) { return ew::elementwise(rotate_quad{}, n, out, in, s); }));
            std::vector<quad> y(n);
            EW_REQUIRE_CUDA(cudaMemcpy(y.data(), out, n * sizeof(quad), cudaMemcpyDeviceToHost));
            std::size_t wrong = 0;
            for (std::size_t i = 0; i < n; ++i) wrong += !bytes_equal(y[i], rotate_quad{}(x[i]));
            INFO("byte shift " << byte_shift);
            REQUIRE(wrong == 0);
            REQUIRE(bin.guards_intact());
            REQUIRE(bout.guards_intact());
          }
        }
        {
          std::vector<triple> t(n);
          std::vector<float> s(n);
          for (std::size_t i = 0; i < n; ++i) {
            t[i] = triple{value(rng), value(rng), value(rng)};
            s[i] = value(rng);
          }
          device_array<triple> dt(n, off), dy(n, 0);
          device_array<float> ds(n, off + 1);
          dt.upload(t);
          ds.upload(s);
          dy.poison();
          EW_REQUIRE_CUDA(run_in_mode(mode, stream, [&](cudaStream_t st) {
            return ew::elementwise(scale_triple{}, n, dy.data(), ew::in(dt.data(), ds.data()), st);
          }));
          const std::vector<triple> y = dy.download();
          std::size_t wrong = 0;
          for (std::size_t i = 0; i < n; ++i) wrong += !bytes_equal(y[i], scale_triple{}(t[i], s[i]));
          REQUIRE(wrong == 0);
          REQUIRE(dy.guards_intact());
        }
      }
    }
  }
  EW_REQUIRE_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("element types: a pointer aligned to alignof but not to sizeof is accepted", "[element_types]") {
  // The pointer check asks for alignof, not sizeof: an array of quad at a 4-byte boundary is accepted.
  guarded_buffer b(64 * sizeof(quad), 4);
  quad* p = static_cast<quad*>(b.data());
  EW_REQUIRE_CUDA(cudaMemset(p, 0, 64 * sizeof(quad)));
  EW_REQUIRE_CUDA(ew::elementwise(rotate_quad{}, 64, p, p));
  EW_REQUIRE_CUDA(cudaDeviceSynchronize());
  // And one not aligned to alignof is still rejected, with the reason.
  quad* bad = reinterpret_cast<quad*>(reinterpret_cast<char*>(p) + 2);
  REQUIRE(ew::elementwise(rotate_quad{}, 8, bad, bad) == cudaErrorInvalidValue);
  REQUIRE(std::string(ew::last_error_message()).find("alignof") != std::string::npos);
}
