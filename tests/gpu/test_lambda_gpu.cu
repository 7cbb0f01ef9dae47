// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Lambdas as ops (ctest gpu.lambda), in the forms the README gives for --extended-lambda (this file is built
// with it): a __host__ __device__ lambda, and a __device__ lambda wrapped in cuda::proclaim_return_type, as
// the op of 1-D and N-dimensional launches and as a stage of ew::compose. A bare __device__ lambda is a
// compile error that says this (compile_fail.device_lambda). Random inputs at element offset 1, a poisoned
// output; the reference is the same arithmetic on the host, exact.

#include <cstdint>
#include <random>
#include <vector>

#include <cuda/functional>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/test_utils.cuh"

using namespace ew_test;

TEST_CASE("lambdas as ops: __host__ __device__, and __device__ through cuda::proclaim_return_type",
          "[lambda]") {
  const std::size_t rows = 37, cols = 1001, n = rows * cols;
  std::mt19937_64 rng(base_seed() + 17);
  std::uniform_real_distribution<float> dist(-8.0f, 8.0f);
  std::vector<float> x(n), b(cols);
  for (float& v : x) v = dist(rng);
  for (float& v : b) v = dist(rng);
  device_array<float> dx(n, 1), db(cols, 0), dy(n, 1);
  dx.upload(x);
  db.upload(b);

  const auto twice_plus_one = [] __host__ __device__(float v) { return 2.0f * v + 1.0f; };
  const auto sub = cuda::proclaim_return_type<float>([] __device__(float v, float c) { return v - c; });
  const auto check = [&](const char* what, auto&& want) {
    INFO(what);
    const std::vector<float> y = dy.download();
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) wrong += !same_bits(y[i], want(i));
    REQUIRE(wrong == 0);
    REQUIRE(dy.guards_intact());
  };

  dy.poison();
  EW_REQUIRE_CUDA(ew::elementwise(twice_plus_one, n, dy.data(), dx.data()));
  check("1-D, __host__ __device__ lambda", [&](std::size_t i) { return 2.0f * x[i] + 1.0f; });

  dy.poison();
  EW_REQUIRE_CUDA(ew::elementwise(sub, n, dy.data(), ew::in(dx.data(), ew::constant(0.5f))));
  check("1-D, proclaimed __device__ lambda", [&](std::size_t i) { return x[i] - 0.5f; });

  const auto bias = ew::strided(db.data(), ew::extents{static_cast<std::int64_t>(cols)}, ew::strides{1});
  dy.poison();
  EW_REQUIRE_CUDA(
      ew::elementwise(ew::compose(sub, twice_plus_one),
                      ew::extents{static_cast<std::int64_t>(rows), static_cast<std::int64_t>(cols)},
                      dy.data(), ew::in(dx.data(), bias)));
  check("N-d bias, compose of both", [&](std::size_t i) { return 2.0f * (x[i] - b[i % cols]) + 1.0f; });
}
