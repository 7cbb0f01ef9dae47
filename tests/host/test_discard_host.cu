// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// `ew::discard` on the host (ctest host.discard): the outputs a launch writes and the op the dispatchers
// receive once the discarded outputs are taken out (`detail::with_written_outputs`, called here with a
// launch that records what it was given instead of launching), beside arrays and side reductions; the
// wrapped op's parts against the op's own.

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

namespace {

/// Three parts that tell themselves apart.
struct discard_three_parts {
  EW_HD cuda::std::tuple<float, double, int> operator()(float x) const {
    return {2.0f * x, static_cast<double>(x) - 1.0, static_cast<int>(x) + 7};
  }
};

}  // namespace

TEST_CASE("discard: the dispatchers see only the written outputs and their parts", "[discard]") {
  float y[4] = {};
  int k[4] = {};
  const float* x = nullptr;
  const auto ins = ew::detail::input_tuple(x);

  // One output written: the op returns that part alone, not a tuple.
  int calls = 0;
  auto first_only = [&](const auto& op, const auto& outs) {
    ++calls;
    STATIC_REQUIRE(
        std::is_same_v<std::remove_cv_t<std::remove_reference_t<decltype(outs)>>, cuda::std::tuple<float*>>);
    CHECK(cuda::std::get<0>(outs) == y);
    STATIC_REQUIRE(std::is_same_v<decltype(op(1.5f)), float>);
    CHECK(op(1.5f) == 3.0f);
    return cudaSuccess;
  };
  CHECK(ew::detail::with_written_outputs(discard_three_parts{},
                                         ew::detail::output_tuple(ew::out(y, ew::discard, ew::discard)), ins,
                                         4, first_only) == cudaSuccess);

  // Two written around a discarded one: a tuple of those two, in order.
  auto outer = [&](const auto& op, const auto& outs) {
    ++calls;
    STATIC_REQUIRE(std::is_same_v<std::remove_cv_t<std::remove_reference_t<decltype(outs)>>,
                                  cuda::std::tuple<float*, int*>>);
    CHECK(cuda::std::get<1>(outs) == k);
    const auto r = op(2.25f);
    STATIC_REQUIRE(std::is_same_v<decltype(r), const cuda::std::tuple<float, int>>);
    CHECK(cuda::std::get<0>(r) == 4.5f);
    CHECK(cuda::std::get<1>(r) == 9);
    return cudaSuccess;
  };
  CHECK(ew::detail::with_written_outputs(discard_three_parts{},
                                         ew::detail::output_tuple(ew::out(y, ew::discard, k)), ins, 4,
                                         outer) == cudaSuccess);

  // The sine of sincos alone, and its cosine alone.
  auto sine = [&](const auto& op, const auto&) {
    ++calls;
    CHECK(op(0.5f) == cuda::std::get<0>(ew::sincos<float>{}(0.5f)));
    return cudaSuccess;
  };
  auto cosine = [&](const auto& op, const auto&) {
    ++calls;
    CHECK(op(0.5f) == cuda::std::get<1>(ew::sincos<float>{}(0.5f)));
    return cudaSuccess;
  };
  CHECK(ew::detail::with_written_outputs(ew::sincos<float>{},
                                         ew::detail::output_tuple(ew::out(y, ew::discard)), ins, 4,
                                         sine) == cudaSuccess);
  CHECK(ew::detail::with_written_outputs(ew::sincos<float>{},
                                         ew::detail::output_tuple(ew::out(ew::discard, y)), ins, 4,
                                         cosine) == cudaSuccess);

  // Dropout without its mask: the scaled value, or 0.
  auto values = [&](const auto& op, const auto&) {
    ++calls;
    const ew::dropout<float> d(0.5);
    CHECK(op(3.0f, 0u) == cuda::std::get<0>(d(3.0f, 0u)));
    CHECK(op(3.0f, 0xffffffffu) == 0.0f);
    return cudaSuccess;
  };
  CHECK(ew::detail::with_written_outputs(
            ew::dropout<float>(0.5), ew::detail::output_tuple(ew::out(y, ew::discard)),
            ew::detail::input_tuple(ew::in(x, ew::random_bits(ew::philox_seed{}))), 4,
            values) == cudaSuccess);

  // Beside a side reduction (no elements: the target's checks, which need a device, are not reached): the
  // reducing op wraps the selecting one, and returns the array's part.
  double m = 0;
  auto reduced = [&](const auto& op, const auto& outs) {
    ++calls;
    using op_t = std::remove_cv_t<std::remove_reference_t<decltype(op)>>;
    STATIC_REQUIRE(ew::detail::has_side_reductions_v<op_t>);
    STATIC_REQUIRE(
        std::is_same_v<std::remove_cv_t<std::remove_reference_t<decltype(outs)>>, cuda::std::tuple<float*>>);
    CHECK(op(1.0f) == 2.0f);
    return cudaSuccess;
  };
  CHECK(ew::detail::with_written_outputs(
            discard_three_parts{},
            ew::detail::output_tuple(ew::out(y, ew::reduce_into<ew::reduction::max>(&m), ew::discard)), ins,
            0, reduced) == cudaSuccess);

  // Without discards the op and the outputs pass through as they are.
  auto same = [&](const auto& op, const auto& outs) {
    ++calls;
    STATIC_REQUIRE(
        std::is_same_v<std::remove_cv_t<std::remove_reference_t<decltype(op)>>, ew::sincos<float>>);
    STATIC_REQUIRE(std::is_same_v<std::remove_cv_t<std::remove_reference_t<decltype(outs)>>,
                                  cuda::std::tuple<float*, float*>>);
    return cudaSuccess;
  };
  float z[4] = {};
  CHECK(ew::detail::with_written_outputs(ew::sincos<float>{}, ew::detail::output_tuple(ew::out(y, z)), ins, 4,
                                         same) == cudaSuccess);
  CHECK(calls == 7);
}
