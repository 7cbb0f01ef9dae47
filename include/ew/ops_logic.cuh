// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The functor library's exact ops (ops.cuh states the conventions): `identity`, comparisons and the
/// floating-point predicates giving `bool`, `where`, `nan_to_num`, and the integer bit operations. None
/// rounds: each result is an input, a constant or a `bool`, so every element type gets them bit for bit.

#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include "compose.cuh"
#include "detail/math.cuh"
#include "functor.cuh"

namespace ew {

namespace detail {
/// Whether `x` is NaN (false for integers).
template <class C>
EW_HD bool is_nan_value(C x) {
  if constexpr (cuda::std::is_floating_point_v<C>) {
    return x != x;
  } else {
    return false;
  }
}
/// Whether `x` is an infinity (false for integers).
template <class C>
EW_HD bool is_inf_value(C x) {
  if constexpr (cuda::std::is_floating_point_v<C>) {
    return x == cuda::std::numeric_limits<C>::infinity() || x == -cuda::std::numeric_limits<C>::infinity();
  } else {
    return false;
  }
}
/// The largest finite value of element type `T` (from its bits for the 16-bit and FP8 types).
template <class T>
EW_HD T largest_finite() {
  if constexpr (cuda::std::is_same_v<T, __half>) {
    return __ushort_as_half(0x7bffu);
  } else if constexpr (cuda::std::is_same_v<T, __nv_bfloat16>) {
    return __ushort_as_bfloat16(0x7f7fu);
  } else if constexpr (is_fp8_v<T>) {
    return fp8_from_bits<T>(
        static_cast<__nv_fp8_storage_t>(cuda::std::is_same_v<T, __nv_fp8_e4m3> ? 0x7eu : 0x7bu));
  } else {
    return cuda::std::numeric_limits<T>::max();
  }
}
/// Integers only: the op's name in the message.
#define EW_DETAIL_INTEGER_OP(T, name)                                                            \
  static_assert(cuda::std::is_integral_v<T> && !cuda::std::is_same_v<T, bool>, "ew::" name       \
                                                                               "<T>: T must be " \
                                                                               "an integer type")
}  // namespace detail

/// `x` itself (`torch.Tensor.clone`, a copy; with `ew::cast` semantics where the output type differs).
template <class T>
struct identity {
  EW_HD T operator()(T x) const { return x; }
};

// --- Comparisons and predicates: bool ----------------------------------------------------------------------

/// `a == b` (`torch.eq`); false where either is NaN, `-0 == +0`.
template <class T>
struct equal {
  EW_HD bool operator()(T a, T b) const { return up(a) == up(b); }
};
/// `a != b` (`torch.ne`); true where either is NaN.
template <class T>
struct not_equal {
  EW_HD bool operator()(T a, T b) const { return up(a) != up(b); }
};
/// `a < b` (`torch.lt`); false where either is NaN.
template <class T>
struct less {
  EW_HD bool operator()(T a, T b) const { return up(a) < up(b); }
};
/// `a <= b` (`torch.le`); false where either is NaN.
template <class T>
struct less_equal {
  EW_HD bool operator()(T a, T b) const { return up(a) <= up(b); }
};
/// `a > b` (`torch.gt`); false where either is NaN.
template <class T>
struct greater {
  EW_HD bool operator()(T a, T b) const { return up(a) > up(b); }
};
/// `a >= b` (`torch.ge`); false where either is NaN.
template <class T>
struct greater_equal {
  EW_HD bool operator()(T a, T b) const { return up(a) >= up(b); }
};
/// Whether `x` is NaN (`torch.isnan`; false for integers).
template <class T>
struct isnan {
  EW_HD bool operator()(T x) const { return detail::is_nan_value(up(x)); }
};
/// Whether `x` is an infinity (`torch.isinf`; false for integers and for FP8 e4m3, which has none).
template <class T>
struct isinf {
  EW_HD bool operator()(T x) const { return detail::is_inf_value(up(x)); }
};
/// Whether `x` is neither NaN nor an infinity (`torch.isfinite`; true for integers).
template <class T>
struct isfinite {
  EW_HD bool operator()(T x) const { return !detail::is_nan_value(up(x)) && !detail::is_inf_value(up(x)); }
};

// --- Selection ---------------------------------------------------------------------------------------------

/// `cond ? a : b` (`torch.where`), `cond` a `bool` input (any type that converts to bool).
template <class T>
struct where {
  EW_HD T operator()(bool cond, T a, T b) const { return cond ? a : b; }
};

/// NaN to `nan`, `+inf` to `posinf`, `-inf` to `neginf` (`torch.nan_to_num`: by default 0 and `T`'s
/// largest and lowest finite values); other values as they are.
template <class T>
struct nan_to_num {
  T nan = down<T>(compute_t<T>(0));
  T posinf = detail::largest_finite<T>();
  T neginf = down<T>(-up(detail::largest_finite<T>()));
  EW_HD T operator()(T x) const {
    const compute_t<T> c = up(x);
    return detail::is_nan_value(c) ? nan
                                   : (detail::is_inf_value(c) ? (c > compute_t<T>(0) ? posinf : neginf) : x);
  }
};

// --- Integer bit operations
// ----------------------------------------------------------------------------------

/// `a & b` (`torch.bitwise_and`).
template <class T>
struct bit_and {
  EW_DETAIL_INTEGER_OP(T, "bit_and");
  EW_HD T operator()(T a, T b) const { return static_cast<T>(a & b); }
};
/// `a | b` (`torch.bitwise_or`).
template <class T>
struct bit_or {
  EW_DETAIL_INTEGER_OP(T, "bit_or");
  EW_HD T operator()(T a, T b) const { return static_cast<T>(a | b); }
};
/// `a ^ b` (`torch.bitwise_xor`).
template <class T>
struct bit_xor {
  EW_DETAIL_INTEGER_OP(T, "bit_xor");
  EW_HD T operator()(T a, T b) const { return static_cast<T>(a ^ b); }
};
/// `~a` (`torch.bitwise_not`).
template <class T>
struct bit_not {
  EW_DETAIL_INTEGER_OP(T, "bit_not");
  EW_HD T operator()(T a) const { return static_cast<T>(~a); }
};
/// `a << b` on the bits (`torch.bitwise_left_shift`): 0 where `b` is negative or at least `T`'s width
/// (where C++ leaves it undefined).
template <class T>
struct shift_left {
  EW_DETAIL_INTEGER_OP(T, "shift_left");
  EW_HD T operator()(T a, T b) const {
    using U = detail::wrapping_t<T>;
    constexpr int bits = 8 * static_cast<int>(sizeof(T));
    return detail::below_zero(b) || b >= T(bits) ? T(0) : static_cast<T>(static_cast<U>(a) << b);
  }
};
/// `a >> b` (`torch.bitwise_right_shift`): arithmetic for signed `T` (the sign fills in); where `b` is
/// negative or at least `T`'s width, what a shift by the width would give (0, or -1 for a negative `a`).
template <class T>
struct shift_right {
  EW_DETAIL_INTEGER_OP(T, "shift_right");
  EW_HD T operator()(T a, T b) const {
    constexpr int bits = 8 * static_cast<int>(sizeof(T));
    if (detail::below_zero(b) || b >= T(bits)) return detail::below_zero(a) ? T(-1) : T(0);
    return static_cast<T>(a >> b);
  }
};

#undef EW_DETAIL_INTEGER_OP

namespace detail {
EW_DETAIL_COMPUTE_FORM(identity)
}  // namespace detail

}  // namespace ew
