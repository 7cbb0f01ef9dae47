// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The main sweep of ew_bench for one element type: {add, relu, clamp, scale_bias} x {ew, cub, cub_native,
/// thrust, v0, v1, v3} x {cold, hot} x sizes, aligned and misaligned, plus the cudaMemcpyAsync row (op
/// `copy`, impl `memcpy`) of each size. The implementations of one (op, type, mode, alignment, size) are
/// one cell, timed interleaved. Included by one translation unit per type.
///
/// The host references below are written from the ops' definitions, not from ew's code: compute in float
/// for f16/bf16 (double for f64) and round once; scale_bias is a fused multiply-add.

#include <cmath>

#include <cuda/std/functional>

#include "checks.cuh"
#include "element_types.cuh"
#include "errors.cuh"
#include "timing.cuh"

#include "bench.cuh"
#include "impls.cuh"

namespace ewb {

struct op_add {
  static constexpr const char* name = "add";
  static constexpr int arity = 2;
  template <class T>
  static ew::add<T> functor() {
    return {};
  }
  template <class T>
  static cuda::std::plus<T> native() {
    return {};
  }
  template <class T>
  static T ref(T a, T b) {
    return round_to<T>(widen(a) + widen(b));
  }
  template <class T>
  static double rel_tol() {
    return 0;
  }
  template <class T>
  static double native_abs_tol() {
    return 0;
  }
};

struct op_relu {
  static constexpr const char* name = "relu";
  static constexpr int arity = 1;
  template <class T>
  static ew::relu<T> functor() {
    return {};
  }
  template <class T>
  static native_relu<T> native() {
    return {};
  }
  template <class T>
  static T ref(T x, T) {
    return widen(x) < 0 ? round_to<T>(host_compute_t<T>(0)) : x;
  }
  template <class T>
  static double rel_tol() {
    return 0;
  }
  template <class T>
  static double native_abs_tol() {
    return 0;
  }
};

/// clamp to [-1, 1]: the inputs' magnitudes span [1/16, 4), so both bounds and the middle are hit.
struct op_clamp {
  static constexpr const char* name = "clamp";
  static constexpr int arity = 1;
  template <class T>
  static ew::clamp<T> functor() {
    return ew::clamp<T>{round_to<T>(host_compute_t<T>(-1)), round_to<T>(host_compute_t<T>(1))};
  }
  template <class T>
  static native_clamp<T> native() {
    return native_clamp<T>{round_to<T>(host_compute_t<T>(-1)), round_to<T>(host_compute_t<T>(1))};
  }
  template <class T>
  static T ref(T x, T) {
    const host_compute_t<T> v = widen(x);
    return v < -1 ? round_to<T>(host_compute_t<T>(-1)) : (1 < v ? round_to<T>(host_compute_t<T>(1)) : x);
  }
  template <class T>
  static double rel_tol() {
    return 0;
  }
  template <class T>
  static double native_abs_tol() {
    return 0;
  }
};

/// 1.5 * x - 0.25.
struct op_scale_bias {
  static constexpr const char* name = "scale_bias";
  static constexpr int arity = 1;
  template <class T>
  static ew::scale_bias<T> functor() {
    return ew::scale_bias<T>{ew::compute_t<T>(1.5), ew::compute_t<T>(-0.25)};
  }
  template <class T>
  static native_scale_bias<T> native() {
    return native_scale_bias<T>{round_to<T>(host_compute_t<T>(1.5)), round_to<T>(host_compute_t<T>(-0.25))};
  }
  template <class T>
  static T ref(T x, T) {
    using C = host_compute_t<T>;
    return round_to<T>(static_cast<C>(std::fma(C(1.5), widen(x), C(-0.25))));
  }
  /// One unit in the last place of T: a device that rounded the product and the sum separately would be
  /// within it; the fma ew and every baseline use is exact to the reference.
  template <class T>
  static double rel_tol() {
    return type_traits<T>::epsilon;
  }
  /// The native functor's `x * s + b` on 16-bit types may round the product (|1.5 x| < 6) before the sum:
  /// up to half an ulp of 6, 2 epsilon, added to the result's error.
  template <class T>
  static double native_abs_tol() {
    return 4 * type_traits<T>::epsilon;
  }
};

template <class T>
void register_copy_rows(std::size_t n, std::size_t offset) {
  const double bytes = 2.0 * static_cast<double>(n) * sizeof(T);
  for (mode m : {mode::cold, mode::hot}) {
    if ((m == mode::cold && !env().opt.cold) || (m == mode::hot && !env().opt.hot)) continue;
    row r;
    r.name = row_name("copy", type_traits<T>::name, "memcpy", m, offset, n);
    r.m = m;
    r.n = n;
    r.bytes = bytes;
    r.prepare = [n, offset] { ensure_inputs<T>(n, offset, 0); };
    r.poison = [n, offset](cudaStream_t s) { poison(ws().out(0).as<T>(offset), n * sizeof(T), s); };
    r.launch = [n, offset](cudaStream_t s) {
      EWB_CHECK(cudaMemcpyAsync(ws().out(0).as<T>(offset), ws().a.as<T>(offset), n * sizeof(T),
                                cudaMemcpyDeviceToDevice, s));
    };
    r.check = [n, offset](cudaStream_t s) {
      return compare_device(ws().out(0).as<T>(offset), ws().a.as<const T>(offset), n, 0.0, 0.0, s);
    };
    register_row(std::move(r));
  }
}

/// One launch of implementation `i` of `Op` on `n` elements: cub_native with the functor a CUB user writes
/// (Op::native), every other implementation with ew's functor.
template <class Op, class T>
void launch_op(impl i, std::size_t n, T* out, const T* a, const T* b, cudaStream_t s) {
  const auto with = [&](const auto& f) {
    if constexpr (Op::arity == 1) {
      launch_impl(i, f, n, out, s, a);
    } else {
      launch_impl(i, f, n, out, s, a, b);
    }
  };
  if (i == impl::cub_native) {
    with(Op::template native<T>());
  } else {
    with(Op::template functor<T>());
  }
}

template <class Op, class T>
void register_op_rows(std::size_t n, std::size_t offset) {
  const double bytes = static_cast<double>(Op::arity + 1) * static_cast<double>(n) * sizeof(T);
  const std::string ref_key = Op::name;
  int slot = 0;
  for (impl i : all_impls) {
    if (offset != 0 && !impl_supports_misaligned(i)) continue;
    const int sl = slot++;
    for (mode m : {mode::cold, mode::hot}) {
      if ((m == mode::cold && !env().opt.cold) || (m == mode::hot && !env().opt.hot)) continue;
      row r;
      r.name = row_name(Op::name, type_traits<T>::name, impl_name(i), m, offset, n);
      r.cell = row_name(Op::name, type_traits<T>::name, "*", m, offset, n);
      r.slot = sl;
      r.m = m;
      r.n = n;
      r.bytes = bytes;
      r.prepare = [n, offset, ref_key, sl] {
        ensure_inputs<T>(n, offset, sl);
        ensure_reference<T>(ref_key, n, offset,
                            [](const T* a, const T* b, T* out, std::size_t begin, std::size_t end) {
                              for (std::size_t k = begin; k < end; ++k)
                                out[k] = Op::template ref<T>(a[k], b[k]);
                            });
      };
      r.poison = [n, offset, sl](cudaStream_t s) { poison(ws().out(sl).as<T>(offset), n * sizeof(T), s); };
      r.launch = [i, n, offset, sl](cudaStream_t s) {
        launch_op<Op, T>(i, n, ws().out(sl).as<T>(offset), ws().a.as<const T>(offset),
                         ws().b.as<const T>(offset), s);
      };
      const double abs_tol = i == impl::cub_native ? Op::template native_abs_tol<T>() : 0.0;
      r.check = [n, offset, sl, ref_key, abs_tol](cudaStream_t s) {
        return compare_device(ws().out(sl).as<T>(offset), ws().ref(ref_key).as<const T>(offset), n,
                              Op::template rel_tol<T>(), abs_tol, s);
      };
      r.prime_key = std::string(Op::name) + "/" + type_traits<T>::name + "/" + impl_name(i);
      r.prime = [i](std::size_t pn, cudaStream_t s) {
        prime_scratch& p = scratch(pn * sizeof(T));
        launch_op<Op, T>(i, pn, p.out.as<T>(), p.a.as<const T>(), p.b.as<const T>(), s);
      };
      register_row(std::move(r));
    }
  }
}

/// Registers every row of type `T`, grouped so that consecutive rows share inputs and reference.
template <class T>
void register_sweep() {
  for (std::size_t offset : {std::size_t{0}, std::size_t{1}}) {
    for (std::size_t n : offset == 0 ? sweep_sizes() : misaligned_sizes()) {
      register_copy_rows<T>(n, offset);
      register_op_rows<op_add, T>(n, offset);
      register_op_rows<op_relu, T>(n, offset);
      register_op_rows<op_clamp, T>(n, offset);
      register_op_rows<op_scale_bias, T>(n, offset);
    }
  }
}

}  // namespace ewb
