// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// The randomized property test's machinery: a case's layout in one device pool (each array at its own
// element offset from a 256-byte boundary, guard bytes around it), and type-erased runners, one per
// (op, types), that fill inputs, launch, and check every output element against a CPU reference and every
// other byte of the span against what was uploaded. Test code only.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <cuda/std/tuple>
#include <cuda/std/type_traits>

#include <ew/elementwise.cuh>

#include "exact16.cuh"
#include "functor_reference.cuh"
#include "hardening_utils.cuh"
#include "numeric_cases.cuh"
#include "test_utils.cuh"

namespace ew_test {
namespace property {

/// Where the arrays of one case sit in the pool. Arrays are the outputs, then the inputs.
struct layout {
  std::size_t n = 0;
  std::vector<std::size_t> ptr;     ///< byte offset of each array's pointer from the pool base
  std::vector<std::size_t> offset;  ///< element offset of each pointer from a 256-byte boundary
  std::size_t span = 0;             ///< bytes of the pool the case uses
  bool in_place = false;            ///< output 0 is input 0
};

// The pool is a guarded_buffer, and inside it each array of a case sits after guarded_buffer::guard_bytes of
// guarded_buffer::guard_pattern. Output bytes before the launch: poison_byte (test_utils.cuh), 0x5A..., a NaN
// in no type (1.5e16 in f32 and bf16, 203.25 in f16, 1.8e127 in f64, 1515870810 in i32, 6.5e18 in i64). With
// full-range inputs it can be a legitimate result (203.25 is an f16 sum, product, relu, clamp or conversion
// result often enough): the test runs a case whose output holds the poison anywhere a second time over
// second_poison_byte, and such an element must come back with the same bytes (written, deterministically),
// not the second poison.

/// One (op, output types, input types): fills inputs, launches, checks.
class runner {
 public:
  runner(std::string name, std::vector<std::size_t> out_sizes, std::vector<std::size_t> in_sizes)
      : name_(std::move(name)), out_sizes_(std::move(out_sizes)), in_sizes_(std::move(in_sizes)) {}
  virtual ~runner() = default;

  const std::string& name() const { return name_; }
  std::size_t outputs() const { return out_sizes_.size(); }
  std::size_t inputs() const { return in_sizes_.size(); }
  /// Element size of array `k` (outputs first).
  std::size_t element_size(std::size_t k) const {
    return k < out_sizes_.size() ? out_sizes_[k] : in_sizes_[k - out_sizes_.size()];
  }
  /// ew allows output 0 to be input 0 when their element sizes match.
  bool can_run_in_place() const { return out_sizes_[0] == in_sizes_[0]; }

  /// Writes the inputs of a case into `image` (the host copy of the span).
  virtual void fill_inputs(unsigned char* image, const layout& l, std::uint64_t seed) const = 0;
  /// Launches the op on the arrays at `pool + l.ptr[k]`.
  virtual cudaError_t launch(unsigned char* pool, const layout& l, cudaStream_t stream) const = 0;
  /// Counts output elements of `got` that differ from the reference on the inputs in `image` by more
  /// than the op's bound; describes the first in `first`.
  virtual std::size_t check_outputs(const unsigned char* got, const unsigned char* image, const layout& l,
                                    std::string& first) const = 0;
  /// Indices i where output k's element i (in `got`) holds every byte `byte`, as (k, i) pairs, for the
  /// outputs that are not in place.
  std::vector<std::pair<std::size_t, std::size_t>> poisoned(const unsigned char* got, const layout& l,
                                                            unsigned char byte) const {
    std::vector<std::pair<std::size_t, std::size_t>> hits;
    for (std::size_t k = l.in_place ? 1 : 0; k < outputs(); ++k) {
      const std::size_t es = element_size(k);
      for (std::size_t i = 0; i < l.n; ++i) {
        const unsigned char* e = got + l.ptr[k] + i * es;
        std::size_t b = 0;
        while (b < es && e[b] == byte) ++b;
        if (b == es) hits.emplace_back(k, i);
      }
    }
    return hits;
  }

 private:
  std::string name_;
  std::vector<std::size_t> out_sizes_, in_sizes_;
};

template <class... T>
struct types {};

template <class T>
T load(const unsigned char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <class T>
std::string show(T v) {
  std::ostringstream s;
  if constexpr (std::is_integral_v<T>) {
    s << static_cast<long long>(v);
  } else {
    s.precision(17);
    s << to_double(v);
  }
  return s.str();
}

template <class Op, class Ref, class Outs, class Ins>
class typed_runner;

/// `Ref(In...)` returns `std::tuple<Out...>`; every output may be off by `ulps`.
template <class Op, class Ref, class... Out, class... In>
class typed_runner<Op, Ref, types<Out...>, types<In...>> final : public runner {
  static constexpr std::size_t num_out = sizeof...(Out);

 public:
  typed_runner(std::string name, Op op, Ref ref, std::uint64_t ulps)
      : runner(std::move(name), {sizeof(Out)...}, {sizeof(In)...}), op_(op), ref_(ref), ulps_(ulps) {}

  void fill_inputs(unsigned char* image, const layout& l, std::uint64_t seed) const override {
    fill(image, l, seed, std::index_sequence_for<In...>{});
  }
  cudaError_t launch(unsigned char* pool, const layout& l, cudaStream_t stream) const override {
    return launch_impl(pool, l, stream, std::index_sequence_for<Out...>{}, std::index_sequence_for<In...>{});
  }
  std::size_t check_outputs(const unsigned char* got, const unsigned char* image, const layout& l,
                            std::string& first) const override {
    std::size_t bad = 0;
    for (std::size_t i = 0; i < l.n; ++i) {
      bad += check_element(got, image, l, i, bad == 0 ? &first : nullptr, std::index_sequence_for<Out...>{},
                           std::index_sequence_for<In...>{});
    }
    return bad;
  }

 private:
  template <std::size_t... I>
  void fill(unsigned char* image, const layout& l, std::uint64_t seed, std::index_sequence<I...>) const {
    (fill_one<In>(image + l.ptr[num_out + I], l.n, mix64(seed + I)), ...);
  }
  template <class T>
  static void fill_one(unsigned char* dst, std::size_t n, std::uint64_t seed) {
    for (std::size_t i = 0; i < n; ++i) {
      const T v = cases::full_range_value<T>(seed, i);
      std::memcpy(dst + i * sizeof(T), &v, sizeof(T));
    }
  }
  template <std::size_t... O, std::size_t... I>
  cudaError_t launch_impl(unsigned char* pool, const layout& l, cudaStream_t stream,
                          std::index_sequence<O...>, std::index_sequence<I...>) const {
    return ew::elementwise(op_, l.n, ew::out(reinterpret_cast<Out*>(pool + l.ptr[O])...),
                           ew::in(reinterpret_cast<const In*>(pool + l.ptr[num_out + I])...), stream);
  }
  /// 1 when element i of some output is wrong (described in *first when given), else 0.
  template <std::size_t... O, std::size_t... I>
  std::size_t check_element(const unsigned char* got, const unsigned char* image, const layout& l,
                            std::size_t i, std::string* first, std::index_sequence<O...>,
                            std::index_sequence<I...>) const {
    const std::tuple<Out...> want = ref_(load<In>(image + l.ptr[num_out + I] + i * sizeof(In))...);
    const std::tuple<Out...> have{load<Out>(got + l.ptr[O] + i * sizeof(Out))...};
    const bool ok = ((ulp_distance<Out>(std::get<O>(have), std::get<O>(want)) <= ulps_) && ...);
    if (!ok && first != nullptr) {
      std::ostringstream s;
      s << "element " << i << ": inputs (";
      ((s << (I ? ", " : "") << show(load<In>(image + l.ptr[num_out + I] + i * sizeof(In)))), ...);
      s << ") got (";
      ((s << (O ? ", " : "") << show(std::get<O>(have))), ...);
      s << ") want (";
      ((s << (O ? ", " : "") << show(std::get<O>(want))), ...);
      s << ") within " << ulps_ << " ulp";
      *first = s.str();
    }
    return ok ? 0 : 1;
  }

  Op op_;
  Ref ref_;
  std::uint64_t ulps_;
};

using registry = std::vector<std::unique_ptr<runner>>;

/// Registers `op` with outputs `Outs` and inputs `Ins` (both `types<...>`).
template <class Outs, class Ins, class Op, class Ref>
void add(registry& r, std::string name, Op op, Ref ref, std::uint64_t ulps) {
  r.push_back(std::make_unique<typed_runner<Op, Ref, Outs, Ins>>(std::move(name), op, ref, ulps));
}

// ---- Ops the core library does not have, with their references ----

/// `a * b + c` with one rounding (fused) in the compute type, wrapping for integers: for the 16-bit types
/// fmaf then a second rounding to T (unlike ew::fma, which rounds once), so its bound is mad3_ulps.
template <class T>
struct mad3 {
  EW_HD
  T operator()(T a, T b, T c) const {
    using C = ew::compute_t<T>;
    const C x = ew::up(a), y = ew::up(b), z = ew::up(c);
    if constexpr (cuda::std::is_same_v<C, float>) {
      return ew::down<T>(::fmaf(x, y, z));
    } else if constexpr (cuda::std::is_same_v<C, double>) {
      return ew::down<T>(::fma(x, y, z));
    } else {
      using U = cuda::std::make_unsigned_t<C>;
      return static_cast<T>(static_cast<U>(static_cast<U>(x) * static_cast<U>(y)) + static_cast<U>(z));
    }
  }
};
/// a * b + c's correctly rounded reference: exact for f64 (fma), the 16-bit types (exact16.cuh) and integers
/// (wrapping); for f32 the double result (exact product, rounded sum) rounded again, within 1 ULP.
template <class T>
T ref_mad3(T a, T b, T c) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)) + static_cast<U>(c));
  } else if constexpr (std::is_same_v<T, double>) {
    return std::fma(a, b, c);
  } else if constexpr (exact::is_16_v<T>) {
    return exact::fma(a, b, c);
  } else {
    return static_cast<T>(static_cast<double>(a) * static_cast<double>(b) + static_cast<double>(c));
  }
}
/// mad3's bound against ref_mad3: 1 ULP for f32 (the reference rounds twice) and for the 16-bit types (mad3
/// rounds twice: fmaf's result, within half a float ulp, rounded again to T moves at most one step of T from
/// the correctly rounded value); 0 for f64 and integers. ew::fma's bound is fma_ulps (0 for the 16-bit
/// types).
template <class T>
constexpr std::uint64_t mad3_ulps() {
  return std::is_same_v<T, float> || exact::is_16_v<T> ? 1 : 0;
}

/// Conversion to `To` (ew::convert): one rounding; floating -> integer saturates, NaN gives 0.
template <class To>
struct to {
  template <class From>
  EW_HD To operator()(From x) const {
    return ew::convert<To>(x);
  }
};
/// f16 + f32 -> f32.
struct widen_add {
  EW_HD
  float operator()(__half a, float b) const { return __half2float(a) + b; }
};
/// f32 * f32 -> f16: rounded to f32, then to f16.
struct mul_to_half {
  EW_HD
  __half operator()(float a, float b) const { return __float2half_rn(a * b); }
};
/// f16 * f32 + bf16 -> f64, exact operands, one rounding.
struct mix3 {
  EW_HD
  double operator()(__half a, float b, __nv_bfloat16 c) const {
    return ::fma(static_cast<double>(__half2float(a)), static_cast<double>(b),
                 static_cast<double>(__bfloat162float(c)));
  }
};
/// i64 + i32 -> i64, wrapping.
struct add_wide {
  EW_HD
  std::int64_t operator()(std::int64_t a, std::int32_t b) const {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) +
                                     static_cast<std::uint64_t>(std::int64_t{b}));
  }
};
/// Two f32 outputs: (a + b, a - b).
struct sum_diff {
  EW_HD
  cuda::std::tuple<float, float> operator()(float a, float b) const { return {a + b, a - b}; }
};
/// Two outputs of different types: relu(x) as f16 and the mask x > 0 as f32.
struct relu_and_mask {
  EW_HD
  cuda::std::tuple<__half, float> operator()(__half x) const {
    const float f = __half2float(x);
    return {f < 0.0f ? __float2half(0.0f) : x, f > 0.0f ? 1.0f : 0.0f};
  }
};

/// Registers the core ops (add, sub, mul, relu, clamp, scale_bias twice, fma) and mad3 on T, and axpby on the
/// 16-bit types (correctly rounded there: 0 ULP; float and double axpby rounds twice, which the functor tests
/// check with their own bound).
template <class T>
void add_same_type_ops(registry& r) {
  const std::string t = type_name<T>();
  add<types<T>, types<T, T>>(
      r, "add " + t, ew::add<T>{}, [](T a, T b) { return std::tuple<T>(ref_add(a, b)); }, arith_ulps<T>());
  add<types<T>, types<T, T>>(
      r, "sub " + t, ew::sub<T>{}, [](T a, T b) { return std::tuple<T>(ref_sub(a, b)); }, arith_ulps<T>());
  add<types<T>, types<T, T>>(
      r, "mul " + t, ew::mul<T>{}, [](T a, T b) { return std::tuple<T>(ref_mul(a, b)); }, arith_ulps<T>());
  add<types<T>, types<T>>(
      r, "relu " + t, ew::relu<T>{}, [](T x) { return std::tuple<T>(ref_relu(x)); }, 0);
  const T lo = from_double<T>(-2.0), hi = from_double<T>(3.5);
  add<types<T>, types<T>>(
      r, "clamp " + t, ew::clamp<T>{lo, hi}, [lo, hi](T x) { return std::tuple<T>(ref_clamp(x, lo, hi)); },
      0);
  using C = ew::compute_t<T>;
  const double alpha = std::is_integral_v<T> ? 3.0 : 1.75, beta = std::is_integral_v<T> ? -7.0 : 0.5;
  add<types<T>, types<T>>(
      r, "scale_bias " + t, ew::scale_bias<T>{static_cast<C>(alpha), static_cast<C>(beta)},
      [alpha, beta](T x) { return std::tuple<T>(ref_scale_bias(x, alpha, beta)); }, fma_ulps<T>());
  if constexpr (ew::is_floating_v<T>) {
    // Parameters with full significands, whose products with x round (alpha and beta as the op holds them).
    const C alpha2 = static_cast<C>(0.1), beta2 = static_cast<C>(-3.3);
    add<types<T>, types<T>>(
        r, "scale_bias(0.1, -3.3) " + t, ew::scale_bias<T>{alpha2, beta2},
        [alpha2, beta2](T x) {
          return std::tuple<T>(ref_scale_bias(x, static_cast<double>(alpha2), static_cast<double>(beta2)));
        },
        fma_ulps<T>());
  }
  add<types<T>, types<T, T, T>>(
      r, "mad3 " + t, mad3<T>{}, [](T a, T b, T c) { return std::tuple<T>(ref_mad3(a, b, c)); },
      mad3_ulps<T>());
  add<types<T>, types<T, T, T>>(
      r, "fma " + t, ew::fma<T>{}, [](T a, T b, T c) { return std::tuple<T>(ref_mad3(a, b, c)); },
      fma_ulps<T>());
  if constexpr (exact::is_16_v<T>) {
    const float a = 1.0f - 0x1p-24f, b = 0.3f;  // alpha x moves x by less than one float rounding resolves
    add<types<T>, types<T, T>>(
        r, "axpby(1 - 2^-24, 0.3) " + t, ew::axpby<T>{a, b},
        [a, b](T x, T y) { return std::tuple<T>(exact::axpby(a, x, b, y)); }, 0);
  }
}

// Defined in property_ops_gpu.cu (a separate translation unit, so the two halves compile in parallel).
void add_floating_ops(registry& r);

}  // namespace property
}  // namespace ew_test
