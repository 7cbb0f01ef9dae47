// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Division of 32-bit unsigned numbers by a divisor known only at run time, without a division instruction:
/// a multiply-high, an add and a shift (Granlund and Montgomery, "Division by invariant integers using
/// multiplication", 1994, section 4; PyTorch's `IntDivider` is the same). A 32-bit `%` or `/` by a
/// run-time value is a subroutine of about 20 instructions on NVIDIA GPUs, a 64-bit one several times that.

#include <cstdint>

#include <nv/target>

#include "../functor.cuh"

namespace ew {
namespace detail {

/// Divides a numerator below 2^31 by `divisor` (1 to 2^31 - 1): `q = (umulhi(n, multiplier) + n) >>
/// shift`, three instructions, the sum in 32 bits (it cannot wrap: umulhi(n, multiplier) <= n < 2^31), as
/// PyTorch's `IntDivider` has it. `shift` is ceil(log2(divisor)) and `multiplier` floor(2^32 (2^shift -
/// divisor) / divisor) + 1, the paper's `m'` (it fits 32 bits because 2^shift - divisor < divisor). The
/// gather maps (gather.cuh) divide flat indices of launches below 2^31 elements. (With the sum in 64 bits,
/// which every 32-bit numerator allows, the per-channel statistics of an NCHW launch spent 72% of the SMs'
/// issue slots; docs/PERFORMANCE.md, change 10.)
struct fast_divmod {
  std::uint32_t divisor = 1;
  std::uint32_t multiplier = 1;
  std::uint32_t shift = 0;

  fast_divmod() = default;
  EW_HD explicit fast_divmod(std::uint32_t d) : divisor(d), multiplier(1), shift(0) {
    while (shift < 32 && (std::uint64_t{1} << shift) < d) ++shift;
    multiplier =
        static_cast<std::uint32_t>(((std::uint64_t{1} << 32) * ((std::uint64_t{1} << shift) - d)) / d + 1);
  }

  /// `n / divisor`, for `n` below 2^31.
  EW_HD std::uint32_t div(std::uint32_t n) const {
    std::uint32_t t = 0;
    NV_IF_ELSE_TARGET(NV_IS_DEVICE, (t = __umulhi(n, multiplier);),
                      (t = static_cast<std::uint32_t>((static_cast<std::uint64_t>(n) * multiplier) >> 32);));
    return (t + n) >> shift;
  }
  /// `n / divisor` into `q` and `n % divisor` into `r`, for `n` below 2^31.
  EW_HD void divmod(std::uint32_t n, std::uint32_t& q, std::uint32_t& r) const {
    q = div(n);
    r = n - q * divisor;
  }
};

}  // namespace detail
}  // namespace ew
