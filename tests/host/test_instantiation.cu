// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Compile-time coverage: every core op x type x explicit vector width instantiates the whole launch path
// (host dispatch and the kernel, with both its paths). The run-time part only checks the chosen default
// widths, and which CCCL the tests were built with (CI builds them with the toolkit's and with the newest).

#include <cstdint>
#include <tuple>
#include <type_traits>

#include "../common/catch.hpp"

#include <cuda/std/version>

#include <ew/elementwise.cuh>

// CI's second host-test build puts a newer CCCL ahead of the toolkit's and names the version it expects, so
// that a build silently falling back to the toolkit's headers fails here instead of passing.
#if defined(EW_TEST_EXPECT_CCCL_VERSION)
static_assert(CCCL_VERSION == EW_TEST_EXPECT_CCCL_VERSION, "the tests were not built with the expected CCCL");
#endif

namespace {

template <class T>
using unary_ops = std::tuple<ew::relu<T>, ew::clamp<T>, ew::scale_bias<T>>;
template <class T>
using binary_ops = std::tuple<ew::add<T>, ew::sub<T>, ew::mul<T>>;

/// Takes the address of the launch function for Op at width Vec, which instantiates it and both kernels.
template <class Op, class T, int Vec, bool Binary>
constexpr auto instantiate() {
  if constexpr (Binary) {
    return &ew::elementwise<Op, Vec, T*, ew::inputs<const T*, const T*>>;
  } else {
    return &ew::elementwise<Op, Vec, T*, const T*>;
  }
}

template <class T, class Ops, bool Binary, std::size_t... I, int... V>
int instantiate_all(std::index_sequence<I...>, std::integer_sequence<int, V...>) {
  int count = 0;
  auto one_op = [&](auto op_tag) {
    using Op = typename decltype(op_tag)::type;
    ((count += (instantiate<Op, T, V, Binary>() != nullptr)), ...);
  };
  (one_op(std::common_type<std::tuple_element_t<I, Ops>>{}), ...);
  return count;
}

/// The explicit widths valid for T (VecWidth * sizeof(T) <= 16), plus ew::vec_auto (0).
template <class T>
auto widths() {
  if constexpr (sizeof(T) == 8)
    return std::integer_sequence<int, 0, 1, 2>{};
  else if constexpr (sizeof(T) == 4)
    return std::integer_sequence<int, 0, 1, 2, 4>{};
  else
    return std::integer_sequence<int, 0, 1, 2, 4, 8>{};
}

}  // namespace

TEMPLATE_TEST_CASE("every core op x type x width instantiates", "[instantiation]", float, double, __half,
                   __nv_bfloat16, std::int32_t, std::int64_t) {
  using T = TestType;
  const int unary = instantiate_all<T, unary_ops<T>, false>(std::make_index_sequence<3>{}, widths<T>());
  const int binary = instantiate_all<T, binary_ops<T>, true>(std::make_index_sequence<3>{}, widths<T>());
  REQUIRE(unary == binary);
  REQUIRE(unary == 3 * static_cast<int>(decltype(widths<T>())::size()));
}

TEST_CASE("1-byte types take 16-element vectors", "[instantiation]") {
  REQUIRE(&ew::elementwise<ew::add<std::int8_t>, 16, std::int8_t*,
                           ew::inputs<const std::int8_t*, const std::int8_t*>> != nullptr);
  STATIC_REQUIRE(ew::detail::default_vec_width<std::int8_t> == 16);
}

TEST_CASE("default vector width is 16 bytes of the widest type", "[instantiation]") {
  STATIC_REQUIRE(ew::detail::default_vec_width<float> == 4);
  STATIC_REQUIRE(ew::detail::default_vec_width<double> == 2);
  STATIC_REQUIRE(ew::detail::default_vec_width<__half> == 8);
  STATIC_REQUIRE(ew::detail::default_vec_width<__nv_bfloat16, float> == 4);
}

TEST_CASE("the CCCL the tests were built with", "[instantiation]") {
  INFO("CCCL " << CCCL_MAJOR_VERSION << "." << CCCL_MINOR_VERSION << "." << CCCL_PATCH_VERSION);
  REQUIRE(CCCL_MAJOR_VERSION >= 2);
#if defined(EW_TEST_EXPECT_CCCL_VERSION)
  REQUIRE(CCCL_VERSION == EW_TEST_EXPECT_CCCL_VERSION);
#endif
  WARN("built with CCCL " << CCCL_MAJOR_VERSION << "." << CCCL_MINOR_VERSION << "." << CCCL_PATCH_VERSION);
}
