// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// ew_tune's kernel-shape tables. Each (op, type) instantiates:
/// - through ew's own dispatcher (`ew::detail::dispatch<Vec, Unroll>`), every valid vector width
///   (Vec * sizeof(T) <= 16) x unroll {1, 2, 4, 8}, and the shape ew compiles by default;
/// - through the tuner's variant launcher (variant.cuh), at the 16-byte width, unroll {1, 2, 4, 8} x each
///   load hint ew does not ship, and the same shapes with a grid capped in waves.
/// Block size, waves and programmatic launch are run-time, so they cost no instantiations.

#include <ew/elementwise.cuh>

#include <cmath>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "checks.cuh"
#include "element_types.cuh"
#include "inputs.cuh"

#include "variant.cuh"

namespace ewb {
namespace tune {

/// Device pointers and size of the case being tuned.
struct io {
  void* out;
  const void* a;
  const void* b;
  std::size_t n;
};

using shape_launch = cudaError_t (*)(const io&, const variant_launch&, cudaStream_t);

struct shape {
  int vec = 0;
  int unroll = 0;
  load_hint load = load_hint::normal;
  shape_launch launch = nullptr;         ///< ew's dispatcher (hint normal) or the variant launcher
  shape_launch capped_launch = nullptr;  ///< the variant launcher, for grids capped in waves
};

/// Everything ew_tune needs about one (op, type).
struct target {
  std::string op, type;
  std::string functor_type;  ///< C++ spelling, e.g. "ew::add<float>" (for --emit-header)
  int arity = 1;
  std::size_t elem_size = 0;
  int vec16 = 0;                   ///< elements in 16 bytes
  std::vector<shape> shapes;       ///< default hint, every valid vec x unroll
  std::vector<shape> hint_shapes;  ///< 16-byte vectors, every unroll x every other load hint
  shape default_shape;             ///< ew's compiled default
  double rel_tol = 0;
  /// Fills host inputs (random, non-zero) and the host reference for n elements.
  void (*make_data)(std::vector<unsigned char>& a, std::vector<unsigned char>& b,
                    std::vector<unsigned char>& ref, std::size_t n, std::uint64_t seed) = nullptr;
  check_result (*compare)(const void* got, const void* want, std::size_t n, double rel,
                          cudaStream_t s) = nullptr;
};

/// The functor each case tunes, as ew_bench's sweep calls it: clamp to [-1, 1], scale_bias 1.5 x - 0.25.
template <class Op>
struct case_functor {
  static Op make() { return Op{}; }
};
template <class T>
struct case_functor<ew::clamp<T>> {
  static ew::clamp<T> make() {
    return ew::clamp<T>{round_to<T>(host_compute_t<T>(-1)), round_to<T>(host_compute_t<T>(1))};
  }
};
template <class T>
struct case_functor<ew::scale_bias<T>> {
  static ew::scale_bias<T> make() {
    return ew::scale_bias<T>{ew::compute_t<T>(1.5), ew::compute_t<T>(-0.25)};
  }
};
/// One instance per functor type (the launch functions are plain function pointers).
template <class Op>
const Op& case_op() {
  static const Op op = case_functor<Op>::make();
  return op;
}

/// `Op` on `T` over `x` with the shape's template arguments, through ew's dispatcher: the code users run.
template <class Op, class T, int V, int U>
cudaError_t launch_dispatch(const io& x, const variant_launch& v, cudaStream_t s) {
  T* out = static_cast<T*>(x.out);
  if constexpr (std::is_invocable_v<const Op&, T, T>) {
    return ew::detail::dispatch<V, U>(
        case_op<Op>(), x.n, cuda::std::tuple<T*>(out),
        cuda::std::tuple<const T*, const T*>(static_cast<const T*>(x.a), static_cast<const T*>(x.b)), s,
        &v.policy);
  } else {
    return ew::detail::dispatch<V, U>(case_op<Op>(), x.n, cuda::std::tuple<T*>(out),
                                      cuda::std::tuple<const T*>(static_cast<const T*>(x.a)), s, &v.policy);
  }
}

/// The same through the tuner's variant launcher (variant.cuh): load hints, grids capped in waves.
template <class Op, class T, int V, int U, load_hint H>
cudaError_t launch_hinted(const io& x, const variant_launch& v, cudaStream_t s) {
  T* out = static_cast<T*>(x.out);
  if constexpr (std::is_invocable_v<const Op&, T, T>) {
    return launch_variant<V, U, H>(case_op<Op>(), x.n, out, v, s, static_cast<const T*>(x.a),
                                   static_cast<const T*>(x.b));
  } else {
    return launch_variant<V, U, H>(case_op<Op>(), x.n, out, v, s, static_cast<const T*>(x.a));
  }
}

template <class Op, class T, int V, int U, load_hint H>
shape make_shape() {
  if constexpr (H == load_hint::normal) {
    return shape{V, U, H, &launch_dispatch<Op, T, V, U>, &launch_hinted<Op, T, V, U, H>};
  } else {
    return shape{V, U, H, &launch_hinted<Op, T, V, U, H>, &launch_hinted<Op, T, V, U, H>};
  }
}

template <class Op, class T, int V, load_hint H, int... U>
void add_unrolls(std::vector<shape>& v, std::integer_sequence<int, U...>) {
  (v.push_back(make_shape<Op, T, V, U, H>()), ...);
}

template <class Op, class T, int V>
void add_vec(std::vector<shape>& v) {
  if constexpr (V * sizeof(T) <= 16) {
    add_unrolls<Op, T, V, load_hint::normal>(v, std::integer_sequence<int, 1, 2, 4, 8>{});
  }
}

template <class Op, class T, int... V>
void add_vecs(std::vector<shape>& v, std::integer_sequence<int, V...>) {
  (add_vec<Op, T, V>(v), ...);
}

/// Host reference of one element of `Op` (two arguments: the tuner's cases take one or two inputs), exact:
/// computed in the widest host type and rounded once, as ew's functors compute.
template <class Op>
struct host_reference;
template <class T>
struct host_reference<ew::add<T>> {
  T operator()(T a, T b) const { return round_to<T>(widen(a) + widen(b)); }
};
template <class T>
struct host_reference<ew::relu<T>> {
  T operator()(T x, T) const { return widen(x) < 0 ? round_to<T>(host_compute_t<T>(0)) : x; }
};
template <class T>
struct host_reference<ew::clamp<T>> {
  T operator()(T x, T) const {
    const host_compute_t<T> v = widen(x);
    return v < -1 ? round_to<T>(host_compute_t<T>(-1)) : (1 < v ? round_to<T>(host_compute_t<T>(1)) : x);
  }
};
/// A fused multiply-add rounded once; results must match within one unit in the last place (tolerance).
template <class T>
struct host_reference<ew::scale_bias<T>> {
  T operator()(T x, T) const {
    using C = host_compute_t<T>;
    return round_to<T>(static_cast<C>(std::fma(C(1.5), widen(x), C(-0.25))));
  }
};

/// The tolerance of each op's results against host_reference: one unit in the last place for scale_bias
/// (a device that rounded the product and the sum separately would be within it), else bit for bit.
template <class Op, class T>
double case_rel_tol() {
  return std::is_same_v<Op, ew::scale_bias<T>> ? type_traits<T>::epsilon : 0.0;
}
/// The table for `Op` on `T`; `ref(a, b)` is the host reference of one element, which the results must
/// match within `rel_tol` (0: bit for bit).
template <class Op, class T, class Ref>
target make_target(const char* op, Ref ref, double rel_tol = 0.0) {
  constexpr int v16 = static_cast<int>(16 / sizeof(T));
  using unrolls = std::integer_sequence<int, 1, 2, 4, 8>;
  target t;
  t.op = op;
  t.type = type_traits<T>::name;
  t.arity = std::is_invocable_v<const Op&, T, T> ? 2 : 1;
  t.elem_size = sizeof(T);
  t.vec16 = v16;
  t.rel_tol = rel_tol;
  add_vecs<Op, T>(t.shapes, std::integer_sequence<int, 1, 2, 4, 8>{});
  add_unrolls<Op, T, v16, load_hint::streaming>(t.hint_shapes, unrolls{});
  add_unrolls<Op, T, v16, load_hint::no_allocate>(t.hint_shapes, unrolls{});
  constexpr int du =
      ew::tuning::default_kernel_shape.unroll_for(std::is_invocable_v<const Op&, T, T> ? 2 : 1);
  t.default_shape = make_shape<Op, T, v16, du, load_hint::normal>();

  static const Ref stored_ref = ref;  // one per instantiation (make_data is a plain function pointer)
  t.make_data = [](std::vector<unsigned char>& a, std::vector<unsigned char>& b,
                   std::vector<unsigned char>& r, std::size_t n, std::uint64_t seed) {
    a.resize(n * sizeof(T));
    b.resize(n * sizeof(T));
    r.resize(n * sizeof(T));
    T* pa = reinterpret_cast<T*>(a.data());
    T* pb = reinterpret_cast<T*>(b.data());
    T* pr = reinterpret_cast<T*>(r.data());
    fill_random(pa, n, seed, 1);
    fill_random(pb, n, seed, 2);
    parallel_for(n, [&](std::size_t x, std::size_t y) {
      for (std::size_t k = x; k < y; ++k) pr[k] = stored_ref(pa[k], pb[k]);
    });
  };
  t.compare = [](const void* got, const void* want, std::size_t n, double rel, cudaStream_t s) {
    return compare_device(static_cast<const T*>(got), static_cast<const T*>(want), n, rel, 0.0, s);
  };
  return t;
}

/// Every (op, type) table built (EW_TUNE_CASES), one generated translation unit each (bench/CMakeLists.txt).
std::vector<target> all_targets();
/// The built cases, as "op:type, op:type, ...".
const char* built_cases();

}  // namespace tune
}  // namespace ewb
