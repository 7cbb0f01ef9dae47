// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// GPU test helpers for the functor, fusion, numeric and multi-output tests: a created stream, and one
// guarded launch of an op over host vectors, with poisoned outputs checked to be written. Test code only.

#include <cstddef>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "catch.hpp"

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

template <class Policy, class... Out, class Op, class... In, std::size_t... O, std::size_t... I>
std::tuple<std::vector<host_element_t<Out>>...> guarded_launch_outs_impl(
    std::index_sequence<O...>, std::index_sequence<I...>, Op op, std::size_t off_out, std::size_t off_in,
    cudaStream_t stream, const std::vector<In>&... ins) {
  const std::size_t n = std::get<0>(std::forward_as_tuple(ins...)).size();
  std::tuple<std::unique_ptr<device_array<Out>>...> dout(std::make_unique<device_array<Out>>(n, off_out)...);
  std::tuple<std::unique_ptr<device_array<In>>...> din(std::make_unique<device_array<In>>(n, off_in)...);
  (std::get<I>(din)->upload(ins), ...);
  // Poisons every output with `byte`, launches, waits, checks every guard band, returns the outputs.
  auto run = [&](unsigned char byte) {
    (std::get<O>(dout)->poison(byte), ...);
    if constexpr (std::is_same_v<Policy, ew::default_policy>) {
      EW_REQUIRE_CUDA(ew::elementwise(op, n, ew::out(std::get<O>(dout)->data()...),
                                      ew::in(static_cast<const In*>(std::get<I>(din)->data())...), stream));
    } else {
      EW_REQUIRE_CUDA(ew::elementwise<Policy>(op, n, ew::out(std::get<O>(dout)->data()...),
                                              ew::in(static_cast<const In*>(std::get<I>(din)->data())...),
                                              stream));
    }
    EW_REQUIRE_CUDA(cudaStreamSynchronize(stream));
    const bool outputs_intact = (std::get<O>(dout)->guards_intact() && ...);
    REQUIRE(outputs_intact);
    const bool inputs_intact = (std::get<I>(din)->guards_intact() && ...);
    REQUIRE(inputs_intact);
    return std::tuple<std::vector<host_element_t<Out>>...>(std::get<O>(dout)->download()...);
  };
  const std::tuple<std::vector<host_element_t<Out>>...> got = run(poison_byte);
  // Every element written: one that still holds the poison is checked again after a launch over the second
  // poison (test_utils.cuh, unwritten_elements), run at most once for all outputs.
  std::unique_ptr<std::tuple<std::vector<host_element_t<Out>>...>> again;
  auto rerun = [&]() -> const std::tuple<std::vector<host_element_t<Out>>...>& {
    if (!again)
      again = std::make_unique<std::tuple<std::vector<host_element_t<Out>>...>>(run(second_poison_byte));
    return *again;
  };
  const std::size_t unwritten =
      (std::size_t{0} + ... + unwritten_elements(std::get<O>(got), [&] { return std::get<O>(rerun()); }));
  INFO("output elements left unwritten (n=" << n << ", output offset " << off_out << ")");
  REQUIRE(unwritten == 0);
  return got;
}

/// One `ew::elementwise(op, ...)` over `ins` (host vectors of equal size, one per input, uploaded at element
/// offset `off_in`) into poisoned, guarded outputs of types `Out...` (one, or several through ew::out) at
/// element offset `off_out`; waits, checks every guard band and that every output element was written
/// (relaunching over a second poison where an element holds the first: test_utils.cuh), and returns the
/// outputs (a bool output as its bytes: test_utils.cuh, host_element_t).
template <class... Out, class Op, class... In>
std::tuple<std::vector<host_element_t<Out>>...> guarded_launch_outs(Op op, std::size_t off_out,
                                                                    std::size_t off_in, cudaStream_t stream,
                                                                    const std::vector<In>&... ins) {
  return guarded_launch_outs_impl<ew::default_policy, Out...>(std::index_sequence_for<Out...>{},
                                                              std::index_sequence_for<In...>{}, op, off_out,
                                                              off_in, stream, ins...);
}

/// guarded_launch_outs with one output.
template <class Out, class Op, class... In>
std::vector<host_element_t<Out>> guarded_launch(Op op, std::size_t off_out, std::size_t off_in,
                                                cudaStream_t stream, const std::vector<In>&... ins) {
  return std::get<0>(guarded_launch_outs<Out>(op, off_out, off_in, stream, ins...));
}

/// guarded_launch through `ew::elementwise<Policy>` (policy.cuh).
template <class Policy, class Out, class Op, class... In>
std::vector<host_element_t<Out>> guarded_launch_with(Op op, std::size_t off_out, std::size_t off_in,
                                                     cudaStream_t stream, const std::vector<In>&... ins) {
  return std::get<0>(guarded_launch_outs_impl<Policy, Out>(
      std::index_sequence<0>{}, std::index_sequence_for<In...>{}, op, off_out, off_in, stream, ins...));
}

}  // namespace ew_test
