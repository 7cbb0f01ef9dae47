// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// FP8 element types on the GPU (ctest gpu.fp8), through `ew::elementwise`, against the independent
// reference of fp8_reference.cuh, bit for bit: all 256 codes of each type decoded; float (every rounding
// boundary and 200,000 random values), double, every __half and every __nv_bfloat16 encoded, saturating and
// not; the kernel's packed conversion of float results into FP8 outputs (two values per cvt on sm_89+, one
// by one in the compute_80 PTX run); every code and every pair through the catalog's ops. Arrays start at
// element offsets 0, 1 and 7, so that heads, tails and vectors of 16 FP8 values all run; each launch runs
// over two different poisons, which must give the same bytes (every element written), and guard bands
// around every array must stay intact. And every one of the 2^32 floats, both types and both modes, against
// cuda_fp8.h's own device conversion ([large]: the sanitizer runs leave it out).

#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/fp8_reference.cuh"
#include "../common/test_utils.cuh"

using namespace ew_test;
using namespace ew_test::fp8;

namespace {

template <class T>
std::uint8_t bits_of(T x) {
  return x.__x;
}

/// `out = op(in)` on the GPU over `in` at element offset `off`, run over two poisons; returns the output.
template <class Out, class In, class Op>
std::vector<Out> run_unary(Op op, const std::vector<In>& in, std::size_t off) {
  device_array<In> din(in.size(), off);
  din.upload(in);
  device_array<Out> dout(in.size(), off);
  std::vector<std::vector<Out>> got;
  for (unsigned char poison : {poison_byte, second_poison_byte}) {
    dout.poison(poison);
    EW_REQUIRE_CUDA(ew::elementwise(op, in.size(), dout.data(), static_cast<const In*>(din.data())));
    EW_REQUIRE_CUDA(cudaDeviceSynchronize());
    REQUIRE(dout.guards_intact());
    REQUIRE(din.guards_intact());
    got.push_back(dout.download());
  }
  REQUIRE(std::memcmp(got[0].data(), got[1].data(), got[0].size() * sizeof(Out)) == 0);
  return got[0];
}

template <class T>
std::size_t count_wrong_codes(const std::vector<T>& got, const std::vector<std::uint8_t>& want) {
  constexpr format f = format_of<T>();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const std::uint8_t g = bits_of(got[i]);
    const bool ok = is_nan_code(f, want[i]) ? is_nan_code(f, g) : g == want[i];
    if (!ok && ++wrong <= 5)
      UNSCOPED_INFO("element " << i << ": want 0x" << std::hex << int(want[i]) << " got 0x" << int(g));
  }
  return wrong;
}

template <class T>
void check_decode() {
  constexpr format f = format_of<T>();
  std::vector<T> codes(256 * 3);
  for (std::size_t i = 0; i < codes.size(); ++i) codes[i].__x = static_cast<std::uint8_t>(i % 256);
  for (std::size_t off : {0u, 1u, 7u}) {
    const auto got = run_unary<float>(ew::cast<float>{}, codes, off);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < codes.size(); ++i) {
      const double want = decode(f, bits_of(codes[i]));
      wrong += std::isnan(want)
                   ? !std::isnan(got[i])
                   : (static_cast<double>(got[i]) != want || std::signbit(got[i]) != std::signbit(want));
    }
    CHECK(wrong == 0);
    const auto as_bf16 =
        run_unary<__nv_bfloat16>(ew::cast<__nv_bfloat16>{}, codes, off);  // exact: 8 > 4 bits
    std::size_t wrong16 = 0;
    for (std::size_t i = 0; i < codes.size(); ++i) {
      const double want = decode(f, bits_of(codes[i]));
      const float g = __bfloat162float(as_bf16[i]);
      wrong16 += std::isnan(want) ? !std::isnan(g) : static_cast<double>(g) != want;
    }
    CHECK(wrong16 == 0);
  }
}

template <class T, ew::saturation S>
void check_encode() {
  constexpr format f = format_of<T>();
  const std::vector<float> xs = float_cases(f, 200000, 0x6d0u);
  std::vector<std::uint8_t> want(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) want[i] = encode(f, xs[i], S == ew::saturation::finite);
  for (std::size_t off : {0u, 1u, 7u}) {
    INFO("offset " << off);
    CHECK(count_wrong_codes(run_unary<T>(ew::cast<T, S>{}, xs, off), want) == 0);
    std::vector<double> xd(xs.begin(), xs.end());
    CHECK(count_wrong_codes(run_unary<T>(ew::cast<T, S>{}, xd, off), want) == 0);
  }
}

/// A float op whose float result the kernel itself converts to the FP8 output (its packed conversion).
struct times_one {
  EW_HD float operator()(float x) const { return x * 1.0f; }
};

/// Counts the elements of `got` that differ from cuda_fp8.h's own device conversion of the float with bits
/// `base + i` (NaN codes of either sign match), and keeps the smallest such i in `first`.
template <class T, ew::saturation S>
__global__ void count_fp8_mismatches(std::uint32_t base, std::size_t n, const T* got,
                                     unsigned long long* mismatches, unsigned long long* first) {
  constexpr __nv_fp8_interpretation_t kind = std::is_same_v<T, __nv_fp8_e4m3> ? __NV_E4M3 : __NV_E5M2;
  constexpr __nv_saturation_t sat = S == ew::saturation::finite ? __NV_SATFINITE : __NV_NOSAT;
  unsigned long long bad = 0;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n; i += stride) {
    const float x = float_with_bits(base + static_cast<std::uint32_t>(i));
    const unsigned want = __nv_cvt_float_to_fp8(x, sat, kind), g = got[i].__x;
    const bool nan_want = kind == __NV_E4M3 ? (want & 0x7fu) == 0x7fu : (want & 0x7fu) > 0x7cu;
    const bool nan_got = kind == __NV_E4M3 ? (g & 0x7fu) == 0x7fu : (g & 0x7fu) > 0x7cu;
    if (nan_want ? !nan_got : g != want) {
      ++bad;
      atomicMin(first, static_cast<unsigned long long>(i));
    }
  }
  if (bad != 0) atomicAdd(mismatches, bad);
}

/// Every one of the 2^32 float patterns through ew::elementwise into `T`, saturating or not, against
/// cuda_fp8.h's device conversion, in chunks of 2^28. Saturating, the kernel converts the op's float result
/// itself (two values per cvt on sm_89+); without saturation the op is ew::cast<T, none> and the output
/// its own type.
template <class T, ew::saturation S>
void check_every_float() {
  constexpr std::size_t chunk = std::size_t{1} << 28;
  device_array<T> y(chunk);
  unsigned long long* counters = nullptr;
  EW_REQUIRE_CUDA(cudaMalloc(&counters, 2 * sizeof(unsigned long long)));
  std::size_t total = 0;
  std::string first_mismatch = "none";
  for (std::uint64_t base = 0; base < (std::uint64_t{1} << 32); base += chunk) {
    const unsigned long long init[2] = {0, ~0ull};
    EW_REQUIRE_CUDA(cudaMemcpy(counters, init, sizeof init, cudaMemcpyHostToDevice));
    const float_from_bits op{static_cast<std::uint32_t>(base)};
    if constexpr (S == ew::saturation::finite) {
      EW_REQUIRE_CUDA(ew::elementwise(op, chunk, y.data(), ew::index()));
    } else {
      EW_REQUIRE_CUDA(ew::elementwise(ew::compose(op, ew::cast<T, S>{}), chunk, y.data(), ew::index()));
    }
    count_fp8_mismatches<T, S>
        <<<1024, 256>>>(static_cast<std::uint32_t>(base), chunk, y.data(), counters, counters + 1);
    EW_REQUIRE_CUDA(cudaGetLastError());
    unsigned long long got[2] = {0, 0};
    EW_REQUIRE_CUDA(cudaMemcpy(got, counters, sizeof got, cudaMemcpyDeviceToHost));
    if (got[0] != 0 && total == 0) {
      const std::uint32_t u = static_cast<std::uint32_t>(base + got[1]);
      const float x = float_with_bits(u);
      std::ostringstream m;
      m << "float bits 0x" << std::hex << u << std::dec << " (" << x << ")";
      first_mismatch = m.str();
    }
    total += got[0];
  }
  EW_REQUIRE_CUDA(cudaFree(counters));
  REQUIRE(y.guards_intact());
  INFO("first mismatch: " << first_mismatch);
  CHECK(total == 0);
}

}  // namespace

TEST_CASE("fp8: all 2^32 floats convert as cuda_fp8.h's device conversion, both types and modes",
          "[fp8][large]") {
  check_every_float<__nv_fp8_e4m3, ew::saturation::finite>();
  check_every_float<__nv_fp8_e4m3, ew::saturation::none>();
  check_every_float<__nv_fp8_e5m2, ew::saturation::finite>();
  check_every_float<__nv_fp8_e5m2, ew::saturation::none>();
}

TEST_CASE("fp8: every code decodes exactly on the GPU", "[fp8]") {
  check_decode<__nv_fp8_e4m3>();
  check_decode<__nv_fp8_e5m2>();
}

TEST_CASE("fp8: float and double encode as the reference, saturating or not", "[fp8]") {
  check_encode<__nv_fp8_e4m3, ew::saturation::finite>();
  check_encode<__nv_fp8_e4m3, ew::saturation::none>();
  check_encode<__nv_fp8_e5m2, ew::saturation::finite>();
  check_encode<__nv_fp8_e5m2, ew::saturation::none>();
}

TEST_CASE("fp8: the kernel's packed conversion of float results", "[fp8]") {
  for (format f : {format::e4m3, format::e5m2}) {
    const std::vector<float> xs = float_cases(f, 100000, 0x9acu);
    std::vector<std::uint8_t> want(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) want[i] = encode(f, xs[i], true);
    for (std::size_t off : {0u, 1u, 7u}) {
      INFO("offset " << off);
      if (f == format::e4m3) {
        CHECK(count_wrong_codes(run_unary<__nv_fp8_e4m3>(times_one{}, xs, off), want) == 0);
      } else {
        CHECK(count_wrong_codes(run_unary<__nv_fp8_e5m2>(times_one{}, xs, off), want) == 0);
      }
    }
  }
}

TEST_CASE("fp8: every __half and __nv_bfloat16 rounds once to FP8", "[fp8]") {
  std::vector<__half> h(65536);
  std::vector<__nv_bfloat16> b(65536);
  std::vector<std::uint8_t> want_h4(65536), want_h5(65536), want_b4(65536), want_b5(65536);
  for (std::uint32_t u = 0; u < 65536; ++u) {
    __half_raw hr;
    hr.x = static_cast<std::uint16_t>(u);
    h[u] = __half(hr);
    __nv_bfloat16_raw br;
    br.x = static_cast<std::uint16_t>(u);
    b[u] = __nv_bfloat16(br);
    want_h4[u] = encode(format::e4m3, __half2float(h[u]), true);
    want_h5[u] = encode(format::e5m2, __half2float(h[u]), true);
    want_b4[u] = encode(format::e4m3, __bfloat162float(b[u]), true);
    want_b5[u] = encode(format::e5m2, __bfloat162float(b[u]), true);
  }
  CHECK(count_wrong_codes(run_unary<__nv_fp8_e4m3>(ew::cast<__nv_fp8_e4m3>{}, h, 1), want_h4) == 0);
  CHECK(count_wrong_codes(run_unary<__nv_fp8_e5m2>(ew::cast<__nv_fp8_e5m2>{}, h, 0), want_h5) == 0);
  CHECK(count_wrong_codes(run_unary<__nv_fp8_e4m3>(ew::cast<__nv_fp8_e4m3>{}, b, 0), want_b4) == 0);
  CHECK(count_wrong_codes(run_unary<__nv_fp8_e5m2>(ew::cast<__nv_fp8_e5m2>{}, b, 7), want_b5) == 0);
}

namespace {
template <class T>
void check_ops_gpu() {
  constexpr format f = format_of<T>();
  // Every pair of codes, as two arrays of 65536.
  std::vector<T> a(65536), b(65536);
  for (std::uint32_t u = 0; u < 65536; ++u) {
    a[u].__x = static_cast<std::uint8_t>(u & 0xff);
    b[u].__x = static_cast<std::uint8_t>(u >> 8);
  }
  for (std::size_t off : {0u, 1u}) {
    device_array<T> da(a.size(), off), db(b.size(), off), dy(a.size(), off);
    da.upload(a);
    db.upload(b);
    auto binary = [&](auto op, auto ref) {
      dy.poison();
      EW_REQUIRE_CUDA(
          ew::elementwise(op, a.size(), dy.data(),
                          ew::in(static_cast<const T*>(da.data()), static_cast<const T*>(db.data()))));
      EW_REQUIRE_CUDA(cudaDeviceSynchronize());
      REQUIRE(dy.guards_intact());
      const auto got = dy.download();
      std::vector<std::uint8_t> want(a.size());
      for (std::size_t i = 0; i < a.size(); ++i) {
        want[i] = encode(f, ref(decode(f, bits_of(a[i])), decode(f, bits_of(b[i]))), true);
      }
      return count_wrong_codes(got, want);
    };
    INFO("offset " << off);
    CHECK(binary(ew::add<T>{}, [](double x, double y) { return x + y; }) == 0);
    CHECK(binary(ew::mul<T>{}, [](double x, double y) { return x * y; }) == 0);
    CHECK(binary(ew::div<T>{}, [](double x, double y) { return x / y; }) == 0);
    CHECK(binary(ew::sub<T>{}, [](double x, double y) { return x - y; }) == 0);
  }
  // Unary, every code: transcendentals to the nearest code or its neighbour.
  std::vector<T> codes(256);
  for (int c = 0; c < 256; ++c) codes[static_cast<std::size_t>(c)].__x = static_cast<std::uint8_t>(c);
  auto unary_near = [&](auto op, auto ref) {
    const auto got = run_unary<T>(op, codes, 1);
    std::size_t wrong = 0;
    for (int c = 0; c < 256; ++c) {
      const std::uint8_t w = encode(f, ref(decode(f, static_cast<std::uint8_t>(c))), true);
      const std::uint8_t g = bits_of(got[static_cast<std::size_t>(c)]);
      wrong += is_nan_code(f, w) ? !is_nan_code(f, g)
                                 : (is_nan_code(f, g) || std::abs(ordinal(g) - ordinal(w)) > 1);
    }
    return wrong;
  };
  CHECK(unary_near(ew::exp<T>{}, [](double x) { return std::exp(x); }) == 0);
  CHECK(unary_near(ew::tanh<T>{}, [](double x) { return std::tanh(x); }) == 0);
  CHECK(unary_near(ew::gelu<T>{}, [](double x) {
          return std::isinf(x) ? (x > 0 ? x : 0.0) : 0.5 * x * std::erfc(-x / std::sqrt(2.0));
        }) == 0);
  CHECK(unary_near(ew::scale_bias<T>{1.5f, -0.25f}, [](double x) { return 1.5 * x - 0.25; }) == 0);
}
}  // namespace

TEST_CASE("fp8: the catalog's ops over every code and every pair", "[fp8]") {
  SECTION("e4m3") { check_ops_gpu<__nv_fp8_e4m3>(); }
  SECTION("e5m2") { check_ops_gpu<__nv_fp8_e5m2>(); }
}
