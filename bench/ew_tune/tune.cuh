// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// ew_tune's kernel-shape tables. Each (op, type) is one translation unit that instantiates
/// `ew::detail::dispatch<Vec, Unroll, Load, Store>` for:
/// - every valid vector width (Vec * sizeof(T) <= 16) x unroll {1, 2, 4, 8}, default cache hints;
/// - at the 16-byte width, unroll {1, 2, 4, 8} x every other load/store hint pair (the hint sweep runs at
///   the best shape found with default hints);
/// - the shape ew compiles by default (`ew::tuning::default_kernel_shape`, 16-byte vectors).
/// Block size and grid waves are run-time (`ew::tuning::launch_policy`), so they cost no instantiations.

#include <ew/elementwise.cuh>

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "harness.cuh"

namespace ewb {
namespace tune {

using ew::tuning::cache_hint;

/// Device pointers and size of the case being tuned.
struct io {
  void* out;
  const void* a;
  const void* b;
  std::size_t n;
};

using shape_launch = cudaError_t (*)(const io&, const ew::tuning::launch_policy&, cudaStream_t);

struct shape {
  int vec = 0;
  int unroll = 0;
  cache_hint load = cache_hint::normal;
  cache_hint store = cache_hint::normal;
  shape_launch launch = nullptr;
};

/// Everything ew_tune needs about one (op, type).
struct target {
  std::string op, type;
  int arity = 1;
  std::size_t elem_size = 0;
  int vec16 = 0;                    ///< elements in 16 bytes
  std::vector<shape> shapes;        ///< default hints, every valid vec x unroll
  std::vector<shape> hint_shapes;   ///< 16-byte vectors, every unroll x every non-default hint pair
  shape default_shape;              ///< ew's compiled default
  double rel_tol = 0;
  /// Fills host inputs (random, non-zero) and the host reference for n elements.
  void (*make_data)(std::vector<unsigned char>& a, std::vector<unsigned char>& b, std::vector<unsigned char>& ref,
                    std::size_t n, std::uint64_t seed) = nullptr;
  check_result (*compare)(const void* got, const void* want, std::size_t n, double rel, cudaStream_t s) = nullptr;
};

const char* hint_name(cache_hint h);

// The tuning header's fields have changed while ew is being tuned; these read and set them where they exist
// so that ew_tune builds against each version.

template <class S, class = void>
struct has_unroll_for : std::false_type {};
template <class S>
struct has_unroll_for<S, std::void_t<decltype(std::declval<const S&>().unroll_for(1))>> : std::true_type {};

/// Vectors per thread ew's default shape uses for an op of `arity` inputs.
template <class S = ew::tuning::kernel_shape>
constexpr int default_unroll(const S& s, int arity) {
  if constexpr (has_unroll_for<S>::value) {
    return s.unroll_for(arity);
  } else {
    return s.unroll;
  }
}

#define EWB_OPTIONAL_FIELD(field)                                                                  \
  template <class P, class = void>                                                               \
  struct has_##field : std::false_type {};                                                       \
  template <class P>                                                                             \
  struct has_##field<P, std::void_t<decltype(std::declval<P&>().field)>> : std::true_type {};    \
  template <class P>                                                                             \
  void set_##field(P& p, int v) {                                                                \
    if constexpr (has_##field<P>::value) p.field = static_cast<decltype(p.field)>(v);            \
  }                                                                                              \
  template <class P>                                                                             \
  int get_##field(const P& p) {                                                                  \
    if constexpr (has_##field<P>::value) {                                                       \
      return static_cast<int>(p.field);                                                          \
    } else {                                                                                     \
      return -1;                                                                                 \
    }                                                                                            \
  }
EWB_OPTIONAL_FIELD(per_thread)
EWB_OPTIONAL_FIELD(programmatic_launch)
EWB_OPTIONAL_FIELD(tile_vectors)
#undef EWB_OPTIONAL_FIELD

template <class Op, class T, int V, int U, cache_hint L, cache_hint S>
cudaError_t launch_shape(const io& x, const ew::tuning::launch_policy& p, cudaStream_t s) {
  if constexpr (std::is_invocable_v<const Op&, T, T>) {
    return ew::detail::dispatch<V, U, L, S>(Op{}, x.n, cuda::std::tuple<T*>(static_cast<T*>(x.out)),
                                            cuda::std::tuple<const T*, const T*>(static_cast<const T*>(x.a),
                                                                                 static_cast<const T*>(x.b)),
                                            s, &p);
  } else {
    return ew::detail::dispatch<V, U, L, S>(Op{}, x.n, cuda::std::tuple<T*>(static_cast<T*>(x.out)),
                                            cuda::std::tuple<const T*>(static_cast<const T*>(x.a)), s, &p);
  }
}

template <class Op, class T, int V, cache_hint L, cache_hint S, int... U>
void add_unrolls(std::vector<shape>& v, std::integer_sequence<int, U...>) {
  (v.push_back(shape{V, U, L, S, &launch_shape<Op, T, V, U, L, S>}), ...);
}

template <class Op, class T, int V>
void add_vec(std::vector<shape>& v) {
  if constexpr (V * sizeof(T) <= 16) {
    add_unrolls<Op, T, V, cache_hint::normal, cache_hint::normal>(v, std::integer_sequence<int, 1, 2, 4, 8>{});
  }
}

template <class Op, class T, int... V>
void add_vecs(std::vector<shape>& v, std::integer_sequence<int, V...>) {
  (add_vec<Op, T, V>(v), ...);
}

/// The table for `Op` on `T`; `ref(a, b)` is the host reference of one element.
template <class Op, class T, class Ref>
target make_target(const char* op, Ref ref, double rel_tol) {
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
  add_unrolls<Op, T, v16, cache_hint::streaming, cache_hint::normal>(t.hint_shapes, unrolls{});
  add_unrolls<Op, T, v16, cache_hint::no_allocate, cache_hint::normal>(t.hint_shapes, unrolls{});
  add_unrolls<Op, T, v16, cache_hint::normal, cache_hint::streaming>(t.hint_shapes, unrolls{});
  add_unrolls<Op, T, v16, cache_hint::streaming, cache_hint::streaming>(t.hint_shapes, unrolls{});
  add_unrolls<Op, T, v16, cache_hint::no_allocate, cache_hint::streaming>(t.hint_shapes, unrolls{});
  constexpr ew::tuning::kernel_shape d = ew::tuning::default_kernel_shape;
  constexpr int du = default_unroll(d, std::is_invocable_v<const Op&, T, T> ? 2 : 1);
  t.default_shape = shape{v16, du, d.load, d.store, &launch_shape<Op, T, v16, du, d.load, d.store>};

  static const Ref stored_ref = ref;  // one per instantiation (make_data is a plain function pointer)
  t.make_data = [](std::vector<unsigned char>& a, std::vector<unsigned char>& b, std::vector<unsigned char>& r,
                   std::size_t n, std::uint64_t seed) {
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

target target_add_f32();
target target_relu_f32();
target target_add_f16();
target target_relu_f16();

}  // namespace tune
}  // namespace ewb
