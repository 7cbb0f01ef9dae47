// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// GPU test helpers for the functor, fusion and multi-output tests: a created stream, and one guarded
// launch of an op over host vectors. Test code only.

#include <cstddef>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include <ew/elementwise.cuh>

#include "test_utils.cuh"

namespace ew_test {

/// A non-blocking stream for the duration of a test.
struct test_stream {
  cudaStream_t s = nullptr;
  test_stream() { REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess); }
  ~test_stream() { cudaStreamDestroy(s); }
  test_stream(const test_stream&) = delete;
  test_stream& operator=(const test_stream&) = delete;
};

template <class Out, class Op, class... In, std::size_t... I>
std::vector<Out> guarded_launch_impl(std::index_sequence<I...>, Op op, std::size_t off_out, std::size_t off_in,
                                     cudaStream_t stream, const std::vector<In>&... ins) {
  const std::size_t n = std::get<0>(std::forward_as_tuple(ins...)).size();
  device_array<Out> dout(n, off_out);
  dout.poison();
  std::tuple<std::unique_ptr<device_array<In>>...> din(std::make_unique<device_array<In>>(n, off_in)...);
  (std::get<I>(din)->upload(ins), ...);
  EW_REQUIRE_CUDA(
      ew::elementwise(op, n, dout.data(), ew::in(static_cast<const In*>(std::get<I>(din)->data())...), stream));
  EW_REQUIRE_CUDA(cudaStreamSynchronize(stream));
  REQUIRE(dout.guards_intact());
  const bool inputs_intact = (std::get<I>(din)->guards_intact() && ...);
  REQUIRE(inputs_intact);
  return dout.download();
}

/// One `ew::elementwise(op, ...)` over `ins` (host vectors of equal size, one per input, uploaded at element
/// offset `off_in`) into a poisoned, guarded output of `Out` at element offset `off_out`; waits, checks every
/// guard band and returns the output.
template <class Out, class Op, class... In>
std::vector<Out> guarded_launch(Op op, std::size_t off_out, std::size_t off_in, cudaStream_t stream,
                                const std::vector<In>&... ins) {
  return guarded_launch_impl<Out>(std::index_sequence_for<In...>{}, op, off_out, off_in, stream, ins...);
}

}  // namespace ew_test
