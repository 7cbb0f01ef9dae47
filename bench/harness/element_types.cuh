// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The element types the benchmarks run (f32, f64, f16, bf16) as the host sees them: `type_traits` (row
/// name, machine epsilon), `to_double` (host and device), `round_to` (one round-to-nearest-even into `T`),
/// `host_compute_t` (the type host references compute in: float for the 16-bit types, as ew and PyTorch
/// do) and `widen` (into it). Input generation, host references and the device comparison build on these.

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <type_traits>

namespace ewb {

template <class T>
struct type_traits;
template <>
struct type_traits<float> {
  static constexpr const char* name = "f32";
  static constexpr double epsilon = 1.1920928955078125e-07;  // 2^-23
};
template <>
struct type_traits<double> {
  static constexpr const char* name = "f64";
  static constexpr double epsilon = 2.220446049250313e-16;  // 2^-52
};
template <>
struct type_traits<__half> {
  static constexpr const char* name = "f16";
  static constexpr double epsilon = 9.765625e-04;  // 2^-10
};
template <>
struct type_traits<__nv_bfloat16> {
  static constexpr const char* name = "bf16";
  static constexpr double epsilon = 7.8125e-03;  // 2^-7
};

template <class T>
__host__ __device__ inline double to_double(T x) {
  if constexpr (std::is_same_v<T, __half>) {
    return static_cast<double>(__half2float(x));
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return static_cast<double>(__bfloat162float(x));
  } else {
    return static_cast<double>(x);
  }
}

/// Rounds a float (or double for f64) to `T`, once, round to nearest even.
template <class T, class C>
inline T round_to(C x) {
  if constexpr (std::is_same_v<T, __half>) {
    return __float2half_rn(static_cast<float>(x));
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return __float2bfloat16_rn(static_cast<float>(x));
  } else {
    return static_cast<T>(x);
  }
}

/// The type ops compute in on the host reference: float for the 16-bit types (as ew and PyTorch do).
template <class T>
using host_compute_t = std::conditional_t<std::is_same_v<T, double>, double, float>;

template <class T>
inline host_compute_t<T> widen(T x) {
  return static_cast<host_compute_t<T>>(to_double(x));
}

}  // namespace ewb
