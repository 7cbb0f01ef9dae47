// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// FP8 quantize with amax and dropout rows (issue 13), cold L2, each cell timed interleaved. Bytes are what
// a row must move: x read once and y (and the mask) written once.
//
//   quant_amax   y = fp8_e4m3(x * scale) and amax = max |x|, f32 and bf16 x, 2^20 to 2^28 elements
//     ew_cast          the scaled cast to FP8 alone (the bandwidth bar: ew_fused >= 0.97x of it)
//     ew_fused         one launch: ew::out(y, ew::reduce_into<ew::reduction::amax>(p)); the location is
//                      reset once, untimed, before the check and the timing (max is idempotent: repeated
//                      launches over the same x leave the same amax, which the check after timing reads)
//     ew_fused_reset   the same with its ew::reset_reduction launch timed too
//     ew_fused_overwrite  one launch into ew::reduce_overwrite<ew::reduction::amax>(p, ws): no reset at all;
//                      the location is poisoned (NaN bits), untimed, before the check and the timing
//     two_pass_cub     the two passes PyTorch runs (x.abs().amax(), then the scaled cast), here as
//                      cub::DeviceReduce::TransformReduce and ew's scaled cast: the in-run stand-in for
//                      PyTorch, which the device machine does not have
//     ew_fused_overwrite_capK  ew_fused_overwrite through a policy of at most K blocks an SM (K = 8, 32)
//                      for launches with side reductions, beside ew's 16 for an overwrite target
//                      (tuning.cuh; docs/PERFORMANCE.md change 40, probe 19, changes 46 and 47)
//     ew_fused_overwrite_waves1  the same in one whole wave of the kernel's resident blocks
//                      (`launch_policy::reduction_waves`)
//     ew_fused_cap0    ew_fused with one tile a block (no cap): the kernel before change 40, in the same run
//     ew_fused_cap16   ew_fused at 16 blocks an SM (ew's cap for reduce_into from change 46 to 47)
//     ew_fused_cap32   ew_fused at 32 blocks an SM (ew's cap where the memory moves at least 30 GB/s an
//                      SM, `tuning::policy_for_device`: ew_fused is ew_fused_cap0 on other devices)
//     ew_fused_loads4  ew_fused with 4 vectors a thread in flight (128 threads x 4 vectors a tile): the
//                      looping blocks' loads in flight (probe 20)
//   amax_alone   max |x| and nothing written (issue 22: a reduction alone), f32 and bf16, 2^20 to 2^28
//     ew_overwrite     ew::reduce_overwrite<amax> of ew::identity (bar: >= 0.97x of the read bandwidth,
//                      >= 1.00x cub)
//     ew_into          ew::reduce_into<amax>, reset once, untimed
//     ew_overwrite_cap32, ew_overwrite_waves1  ew_overwrite with at most 32 blocks an SM (ew's is 16),
//                      or in one whole wave of resident blocks
//     ew_into_cap0, ew_into_cap32  ew_into with one tile a block and with 32 blocks an SM (ew picks one
//                      of the two by the memory bandwidth an SM)
//     cub              cub::DeviceReduce::TransformReduce(|x|, max), its scratch allocated once
//   sum_alone    the float sum of x, f32 and bf16, 2^20 to 2^28
//     ew_overwrite     ew::reduce_overwrite<sum> (deterministic); ew_overwrite_cap32 as for amax
//     ew_into_reset    ew::reset_reduction and ew::reduce_into<sum> (atomics, not deterministic), both timed;
//                      ew_into_reset_cap0 and _cap32 as ew_into's
//     cub              cub::DeviceReduce::TransformReduce(x as float, plus)
//   dropout      (y, mask) = dropout(x, p = 0.1) keyed by (seed, offset, i), f32 and bf16, 2^26 and 2^28
//     ew_dropout       ew::dropout over ew::in(x, ew::random_bits(key)), a bool mask
//     ew_dropout16     the same over ew::random_bits16(key) (16 bits an element, eight from a Philox block)
//     ew_relu_ref      ew's relu over the same x (bar: ew_dropout >= 0.97x of its GB/s, the mask's bytes
//                      counted for dropout)

#include <ew/elementwise.cuh>

#include <cub/device/device_reduce.cuh>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "checks.cuh"
#include "device_buffer.cuh"
#include "element_types.cuh"
#include "inputs.cuh"
#include "timing.cuh"

#include "bench.cuh"

namespace ewb {
namespace {

/// `(x * scale, x)`: the scaled value (written as FP8) and the value amax reduces.
template <class T>
struct scale_and_keep {
  float scale;
  __host__ __device__ cuda::std::tuple<float, float> operator()(T x) const {
    const float v = ew::convert<float>(x);
    return {v * scale, v};
  }
};
/// `x * scale` as float, into an FP8 output: the scaled cast alone (the kernel converts it as it converts
/// the fused op's first part, through the packed cvt), and the second pass of the two-pass pattern.
template <class T>
struct scale_to_fp8 {
  float scale;
  __host__ __device__ float operator()(T x) const { return ew::convert<float>(x) * scale; }
};
template <class T>
struct abs_of {
  __host__ __device__ float operator()(T x) const { return cuda::std::fabs(ew::convert<float>(x)); }
};
struct max_of {
  __host__ __device__ float operator()(float a, float b) const { return a < b ? b : a; }
};
template <class T>
struct to_float {
  __host__ __device__ float operator()(T x) const { return ew::convert<float>(x); }
};
struct plus_of {
  __host__ __device__ float operator()(float a, float b) const { return a + b; }
};

constexpr float quant_scale = 112.0f;  // 448 / 4: the inputs are in +-[1/16, 4)

/// ew's policy but with another grid for launches with side reductions: at most `Cap` blocks an SM (0: one
/// tile a block), or with `Waves` above 0 that many whole waves of the kernel's resident blocks; with
/// `Loads` other than 2, that many vectors a thread in flight (a tile of 128 threads x `Loads` vectors for
/// a unary op); the rest of the entry ew's default.
template <int Cap, int Waves = 0, int Loads = 2>
struct reduction_grid_policy {
  template <class Op>
  static constexpr ew::policy_entry entry() {
    ew::policy_entry e = ew::default_policy::entry<Op>();
    e.launch.reduction_blocks_per_sm = Cap;
    e.launch.monotone_reduction_blocks_per_sm = Cap;
    e.launch.overwrite_blocks_per_sm = Cap;
    e.launch.reduction_waves = Waves;
    if (Loads != 2) {
      e.shape.loads_in_flight = Loads;
      e.launch.tile_vectors = 128 * Loads;
    }
    return e;
  }
};

/// Device buffers of these rows beyond the workspace's: the amax locations, CUB's scratch, the masks, the
/// reduction workspaces.
device_buffer& extra(int k) {
  static device_buffer b[32];
  return b[k];
}

/// `extra(k)` holding a zeroed `ew::reduction_workspace` (zeroed once: every launch leaves it zeroed).
ew::reduction_workspace* reduction_workspace_at(int k) {
  if (extra(k).bytes < sizeof(ew::reduction_workspace)) {
    extra(k).ensure(sizeof(ew::reduction_workspace));
    EWB_CHECK(cudaMemset(extra(k).ptr, 0, sizeof(ew::reduction_workspace)));
    EWB_CHECK(cudaDeviceSynchronize());
  }
  return extra(k).as<ew::reduction_workspace>();
}

/// Checks an FP8 output (and, when `amax` is set, the amax at `amax`) against the host.
template <class T>
check_result check_quant(const __nv_fp8_e4m3* y, const float* amax, std::size_t n, cudaStream_t s) {
  EWB_CHECK(cudaStreamSynchronize(s));
  std::vector<unsigned char> got(n);
  EWB_CHECK(cudaMemcpy(got.data(), y, n, cudaMemcpyDeviceToHost));
  const T* a = reinterpret_cast<const T*>(ws().ha.data());
  check_result res;
  std::vector<unsigned long long> bad(64, 0);
  parallel_for(n, [&](std::size_t lo, std::size_t hi) {
    unsigned long long b = 0;
    for (std::size_t k = lo; k < hi; ++k)
      b += got[k] != ew::convert<__nv_fp8_e4m3>(ew::convert<float>(a[k]) * quant_scale).__x;
    bad[lo * 64 / n] += b;
  });
  for (auto b : bad) res.bad += b;
  if (amax != nullptr) {
    float g = 0, want = 0;
    EWB_CHECK(cudaMemcpy(&g, amax, sizeof(float), cudaMemcpyDeviceToHost));
    for (std::size_t k = 0; k < n; ++k) want = std::fmax(want, std::fabs(ew::convert<float>(a[k])));
    if (g != want) {
      ++res.bad;
      res.got = g;
      res.want = want;
    }
  }
  return res;
}

template <class T>
void quant_cells(std::size_t n) {
  const std::string type = type_traits<T>::name, op = "quant_amax";
  const double bytes = static_cast<double>(n) * (sizeof(T) + 1.0);
  auto y_of = [](int slot) { return ws().out(slot).as<__nv_fp8_e4m3>(); };
  auto amax_of = [](int k) { return extra(k).as<float>(); };
  auto poison_y = [n, y_of](int slot) {
    return [n, slot, y_of](cudaStream_t s) { poison(y_of(slot), n, s); };
  };
  auto prepare = [n](int slot) {
    return [n, slot] {
      ensure_inputs<T>(n, 0, slot);
      extra(0).ensure(256);
      extra(1).ensure(256);
    };
  };
  register_cold_row(
      op, type, "ew_cast", 0, n, bytes, prepare(0), poison_y(0),
      [n, y_of](cudaStream_t s) {
        ew_ok(ew::elementwise(scale_to_fp8<T>{quant_scale}, n, y_of(0), ws().a.as<const T>(), s));
      },
      [n, y_of](cudaStream_t s) { return check_quant<T>(y_of(0), nullptr, n, s); });
  const auto amax0 = [amax_of] { return ew::reduce_into<ew::reduction::amax>(amax_of(0)); };
  register_cold_row(
      op, type, "ew_fused", 1, n, bytes, prepare(1),
      [n, y_of, amax0](cudaStream_t s) {
        poison(y_of(1), n, s);
        ew_ok(ew::reset_reduction(amax0(), s));  // untimed: the poison step, before check and timing
      },
      [n, y_of, amax0](cudaStream_t s) {
        ew_ok(ew::elementwise(scale_and_keep<T>{quant_scale}, n, ew::out(y_of(1), amax0()),
                              ws().a.as<const T>(), s));
      },
      [n, y_of, amax_of](cudaStream_t s) { return check_quant<T>(y_of(1), amax_of(0), n, s); });
  const auto amax1 = [amax_of] { return ew::reduce_into<ew::reduction::amax>(amax_of(1)); };
  register_cold_row(
      op, type, "ew_fused_reset", 2, n, bytes, prepare(2), poison_y(2),
      [n, y_of, amax1](cudaStream_t s) {
        ew_ok(ew::reset_reduction(amax1(), s));
        ew_ok(ew::elementwise(scale_and_keep<T>{quant_scale}, n, ew::out(y_of(2), amax1()),
                              ws().a.as<const T>(), s));
      },
      [n, y_of, amax_of](cudaStream_t s) { return check_quant<T>(y_of(2), amax_of(1), n, s); });
  register_cold_row(
      op, type, "ew_fused_overwrite", 4, n, bytes,
      [n] {
        ensure_inputs<T>(n, 0, 4);
        extra(6).ensure(256);
        reduction_workspace_at(5);
      },
      [n, y_of](cudaStream_t s) {
        poison(y_of(4), n, s);
        poison(extra(6).ptr, sizeof(float), s);  // NaN bits: the launch must overwrite them
      },
      [n, y_of](cudaStream_t s) {
        ew_ok(ew::elementwise(scale_and_keep<T>{quant_scale}, n,
                              ew::out(y_of(4), ew::reduce_overwrite<ew::reduction::amax>(
                                                   extra(6).as<float>(), reduction_workspace_at(5))),
                              ws().a.as<const T>(), s));
      },
      [n, y_of](cudaStream_t s) { return check_quant<T>(y_of(4), extra(6).as<float>(), n, s); });
  // The grid swept: overwrite rows in output slots 5 to 9 (their amax locations 128 bytes apart in
  // extra(12), their workspaces extra(13 + k)), and the uncapped reduce_into row in slot 10 (its location
  // extra(20)).
  auto overwrite_grid_row = [&](auto policy, const std::string& grid, int k) {
    using P = decltype(policy);
    const int slot = 5 + k;
    register_cold_row(
        op, type, "ew_fused_overwrite_" + grid, slot, n, bytes,
        [n, slot, k] {
          ensure_inputs<T>(n, 0, slot);
          extra(12).ensure(1024);
          reduction_workspace_at(13 + k);
        },
        [n, y_of, slot, k](cudaStream_t s) {
          poison(y_of(slot), n, s);
          poison(extra(12).as<float>() + 32 * k, sizeof(float), s);
        },
        [n, y_of, slot, k](cudaStream_t s) {
          ew_ok(ew::elementwise<P>(
              scale_and_keep<T>{quant_scale}, n,
              ew::out(y_of(slot), ew::reduce_overwrite<ew::reduction::amax>(extra(12).as<float>() + 32 * k,
                                                                            reduction_workspace_at(13 + k))),
              ws().a.as<const T>(), s));
        },
        [n, y_of, slot, k](cudaStream_t s) {
          return check_quant<T>(y_of(slot), extra(12).as<float>() + 32 * k, n, s);
        });
  };
  overwrite_grid_row(reduction_grid_policy<8>{}, "cap8", 0);
  overwrite_grid_row(reduction_grid_policy<32>{}, "cap32", 1);
  overwrite_grid_row(reduction_grid_policy<32, 1>{}, "waves1", 3);
  // ew_fused through other grids: slot 10 uncapped (its location extra(20)), slot 11 at 32 an SM
  // (extra(26)), slot 12 with 4 loads a thread in flight (extra(27)).
  auto into_grid_row = [&](auto policy, const std::string& grid, int slot, int loc) {
    using P = decltype(policy);
    const auto target = [loc] { return ew::reduce_into<ew::reduction::amax>(extra(loc).as<float>()); };
    register_cold_row(
        op, type, "ew_fused_" + grid, slot, n, bytes,
        [n, slot, loc] {
          ensure_inputs<T>(n, 0, slot);
          extra(loc).ensure(256);
        },
        [n, y_of, slot, target](cudaStream_t s) {
          poison(y_of(slot), n, s);
          ew_ok(ew::reset_reduction(target(), s));  // untimed, as ew_fused's
        },
        [n, y_of, slot, target](cudaStream_t s) {
          ew_ok(ew::elementwise<P>(scale_and_keep<T>{quant_scale}, n, ew::out(y_of(slot), target()),
                                   ws().a.as<const T>(), s));
        },
        [n, y_of, slot, loc](cudaStream_t s) {
          return check_quant<T>(y_of(slot), extra(loc).as<float>(), n, s);
        });
  };
  into_grid_row(reduction_grid_policy<0>{}, "cap0", 10, 20);
  into_grid_row(reduction_grid_policy<16>{}, "cap16", 11, 26);
  into_grid_row(reduction_grid_policy<32, 0, 4>{}, "loads4", 12, 27);
  into_grid_row(reduction_grid_policy<32>{}, "cap32", 13, 28);
  register_cold_row(
      op, type, "two_pass_cub", 3, n, bytes,
      [n] {
        ensure_inputs<T>(n, 0, 3);
        extra(2).ensure(256);
        std::size_t temp = 0;
        EWB_CHECK(cub::DeviceReduce::TransformReduce(nullptr, temp, ws().a.as<const T>(),
                                                     extra(2).as<float>(), static_cast<std::int64_t>(n),
                                                     max_of{}, abs_of<T>{}, 0.0f));
        extra(3).ensure(temp + 256);
      },
      poison_y(3),
      [n, y_of](cudaStream_t s) {
        std::size_t temp = extra(3).bytes;
        EWB_CHECK(cub::DeviceReduce::TransformReduce(extra(3).ptr, temp, ws().a.as<const T>(),
                                                     extra(2).as<float>(), static_cast<std::int64_t>(n),
                                                     max_of{}, abs_of<T>{}, 0.0f, s));
        EWB_CHECK_LAUNCH();
        ew_ok(ew::elementwise(scale_to_fp8<T>{quant_scale}, n, y_of(3), ws().a.as<const T>(), s));
      },
      [n, y_of](cudaStream_t s) { return check_quant<T>(y_of(3), extra(2).as<float>(), n, s); });
}

/// Checks a reduction of the inputs at `got` against the host: the amax exactly, the sum within 2^-16 of
/// the sum of magnitudes of a double sum (each float rounding adds at most 2^-24 of the magnitudes below it,
/// and no element passes through more than a few hundred additions).
template <class T>
check_result check_reduction(bool amax, const float* got, std::size_t n, cudaStream_t s) {
  EWB_CHECK(cudaStreamSynchronize(s));
  float g = 0;
  EWB_CHECK(cudaMemcpy(&g, got, sizeof(float), cudaMemcpyDeviceToHost));
  const T* a = reinterpret_cast<const T*>(ws().ha.data());
  double want = 0, magnitudes = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const double v = ew::convert<float>(a[k]);
    want = amax ? std::fmax(want, std::fabs(v)) : want + v;
    magnitudes += std::fabs(v);
  }
  check_result res;
  const bool ok = amax ? static_cast<double>(g) == want : std::fabs(g - want) <= magnitudes * 0x1p-16;
  if (!ok) {
    res.bad = 1;
    res.got = g;
    res.want = want;
  }
  return res;
}

/// A reduction of x alone (amax or sum), ew's two targets beside CUB's TransformReduce.
template <class T>
void reduction_cells(std::size_t n, bool amax) {
  const std::string type = type_traits<T>::name, op = amax ? "amax_alone" : "sum_alone";
  const double bytes = static_cast<double>(n) * sizeof(T);
  auto launch_into = [n, amax](float* p, cudaStream_t s) {
    if (amax) {
      ew_ok(ew::elementwise(to_float<T>{}, n, ew::reduce_into<ew::reduction::amax>(p), ws().a.as<const T>(),
                            s));
    } else {
      ew_ok(
          ew::elementwise(to_float<T>{}, n, ew::reduce_into<ew::reduction::sum>(p), ws().a.as<const T>(), s));
    }
  };
  auto reset = [amax](float* p, cudaStream_t s) {
    if (amax) {
      ew_ok(ew::reset_reduction(ew::reduce_into<ew::reduction::amax>(p), s));
    } else {
      ew_ok(ew::reset_reduction(ew::reduce_into<ew::reduction::sum>(p), s));
    }
  };
  register_cold_row(
      op, type, "ew_overwrite", 0, n, bytes,
      [n] {
        ensure_inputs<T>(n, 0, 0);
        extra(7).ensure(256);
        reduction_workspace_at(8);
      },
      [](cudaStream_t s) { poison(extra(7).ptr, sizeof(float), s); },
      [n, amax](cudaStream_t s) {
        float* p = extra(7).as<float>();
        ew::reduction_workspace* w = reduction_workspace_at(8);
        if (amax) {
          ew_ok(ew::elementwise(to_float<T>{}, n, ew::reduce_overwrite<ew::reduction::amax>(p, w),
                                ws().a.as<const T>(), s));
        } else {
          ew_ok(ew::elementwise(to_float<T>{}, n, ew::reduce_overwrite<ew::reduction::sum>(p, w),
                                ws().a.as<const T>(), s));
        }
      },
      [n, amax](cudaStream_t s) { return check_reduction<T>(amax, extra(7).as<float>(), n, s); });
  // ew_overwrite with other grids (slots 3 to 5: nothing written), their locations 128 bytes apart in
  // extra(21), their workspaces extra(22 + k).
  auto overwrite_grid_row = [&](auto policy, const std::string& grid, int k) {
    using P = decltype(policy);
    register_cold_row(
        op, type, "ew_overwrite_" + grid, 3 + k, n, bytes,
        [n, k] {
          ensure_inputs<T>(n, 0, 3 + k);
          extra(21).ensure(1024);
          reduction_workspace_at(22 + k);
        },
        [k](cudaStream_t s) { poison(extra(21).as<float>() + 32 * k, sizeof(float), s); },
        [n, amax, k](cudaStream_t s) {
          float* p = extra(21).as<float>() + 32 * k;
          ew::reduction_workspace* w = reduction_workspace_at(22 + k);
          if (amax) {
            ew_ok(ew::elementwise<P>(to_float<T>{}, n, ew::reduce_overwrite<ew::reduction::amax>(p, w),
                                     ws().a.as<const T>(), s));
          } else {
            ew_ok(ew::elementwise<P>(to_float<T>{}, n, ew::reduce_overwrite<ew::reduction::sum>(p, w),
                                     ws().a.as<const T>(), s));
          }
        },
        [n, amax, k](cudaStream_t s) {
          return check_reduction<T>(amax, extra(21).as<float>() + 32 * k, n, s);
        });
  };
  overwrite_grid_row(reduction_grid_policy<32>{}, "cap32", 0);
  overwrite_grid_row(reduction_grid_policy<32, 1>{}, "waves1", 2);
  if (amax) {  // max is idempotent: one untimed reset, and the timed repeats leave the same value
    register_cold_row(
        op, type, "ew_into", 1, n, bytes,
        [n] {
          ensure_inputs<T>(n, 0, 1);
          extra(9).ensure(256);
        },
        [reset](cudaStream_t s) { reset(extra(9).as<float>(), s); },
        [launch_into](cudaStream_t s) { launch_into(extra(9).as<float>(), s); },
        [n](cudaStream_t s) { return check_reduction<T>(true, extra(9).as<float>(), n, s); });
  } else {  // a sum is not: the reset is timed with it
    register_cold_row(
        op, type, "ew_into_reset", 1, n, bytes,
        [n] {
          ensure_inputs<T>(n, 0, 1);
          extra(9).ensure(256);
        },
        [](cudaStream_t s) { poison(extra(9).ptr, sizeof(float), s); },
        [reset, launch_into](cudaStream_t s) {
          reset(extra(9).as<float>(), s);
          launch_into(extra(9).as<float>(), s);
        },
        [n](cudaStream_t s) { return check_reduction<T>(false, extra(9).as<float>(), n, s); });
  }
  // ew_into (amax) or ew_into_reset (sum) through a grid policy (slots 6 and 7, their locations 128
  // bytes apart in extra(29)).
  auto into_grid_row = [&](auto policy, const std::string& grid, int k) {
    using P = decltype(policy);
    auto target_at = [k] { return extra(29).as<float>() + 32 * k; };
    auto launch = [n, amax, target_at](cudaStream_t s) {
      if (amax) {
        ew_ok(ew::elementwise<P>(to_float<T>{}, n, ew::reduce_into<ew::reduction::amax>(target_at()),
                                 ws().a.as<const T>(), s));
      } else {
        ew_ok(ew::reset_reduction(ew::reduce_into<ew::reduction::sum>(target_at()), s));
        ew_ok(ew::elementwise<P>(to_float<T>{}, n, ew::reduce_into<ew::reduction::sum>(target_at()),
                                 ws().a.as<const T>(), s));
      }
    };
    register_cold_row(
        op, type, std::string(amax ? "ew_into_" : "ew_into_reset_") + grid, 6 + k, n, bytes,
        [n, k] {
          ensure_inputs<T>(n, 0, 6 + k);
          extra(29).ensure(1024);
        },
        [amax, reset, target_at](cudaStream_t s) {
          if (amax) {
            reset(target_at(), s);  // once per timing, untimed, as ew_into's
          } else {
            poison(target_at(), sizeof(float), s);
          }
        },
        launch, [n, amax, target_at](cudaStream_t s) { return check_reduction<T>(amax, target_at(), n, s); });
  };
  into_grid_row(reduction_grid_policy<0>{}, "cap0", 0);
  into_grid_row(reduction_grid_policy<32>{}, "cap32", 1);
  register_cold_row(
      op, type, "cub", 2, n, bytes,
      [n, amax] {
        ensure_inputs<T>(n, 0, 2);
        extra(10).ensure(256);
        std::size_t temp = 0;
        if (amax) {
          EWB_CHECK(cub::DeviceReduce::TransformReduce(nullptr, temp, ws().a.as<const T>(),
                                                       extra(10).as<float>(), static_cast<std::int64_t>(n),
                                                       max_of{}, abs_of<T>{}, 0.0f));
        } else {
          EWB_CHECK(cub::DeviceReduce::TransformReduce(nullptr, temp, ws().a.as<const T>(),
                                                       extra(10).as<float>(), static_cast<std::int64_t>(n),
                                                       plus_of{}, to_float<T>{}, 0.0f));
        }
        extra(11).ensure(temp + 256);
      },
      [](cudaStream_t s) { poison(extra(10).ptr, sizeof(float), s); },
      [n, amax](cudaStream_t s) {
        std::size_t temp = extra(11).bytes;
        if (amax) {
          EWB_CHECK(cub::DeviceReduce::TransformReduce(extra(11).ptr, temp, ws().a.as<const T>(),
                                                       extra(10).as<float>(), static_cast<std::int64_t>(n),
                                                       max_of{}, abs_of<T>{}, 0.0f, s));
        } else {
          EWB_CHECK(cub::DeviceReduce::TransformReduce(extra(11).ptr, temp, ws().a.as<const T>(),
                                                       extra(10).as<float>(), static_cast<std::int64_t>(n),
                                                       plus_of{}, to_float<T>{}, 0.0f, s));
        }
        EWB_CHECK_LAUNCH();
      },
      [n, amax](cudaStream_t s) { return check_reduction<T>(amax, extra(10).as<float>(), n, s); });
}

constexpr double dropout_p = 0.1;

/// One dropout row with its mask: `impl` over the random operand of kind `K` (slot `slot`, mask buffer
/// extra(`mask_slot`)), every value and mask against the host's operand and the keep rate against its law.
template <class T, ew::random_kind K>
void dropout_row(std::size_t n, const std::string& impl, int slot, int mask_slot) {
  const std::string type = type_traits<T>::name, op = "dropout";
  const ew::philox_seed key{0x2026120113ull, 1};
  const ew::dropout<T> d(dropout_p);
  const double bytes = static_cast<double>(n) * (2.0 * sizeof(T) + 1.0);
  const auto operand = [key] {
    if constexpr (K == ew::random_kind::bits16) {
      return ew::random_bits16(key);
    } else {
      return ew::random_bits(key);
    }
  };
  register_cold_row(
      op, type, impl, slot, n, bytes,
      [n, slot, mask_slot] {
        ensure_inputs<T>(n, 0, slot);
        extra(mask_slot).ensure(n + 256);
      },
      [n, slot, mask_slot](cudaStream_t s) {
        poison(ws().out(slot).as<T>(), n * sizeof(T), s);
        poison(extra(mask_slot).as<bool>(), n, s);
      },
      [n, d, slot, mask_slot, operand](cudaStream_t s) {
        ew_ok(ew::elementwise(d, n, ew::out(ws().out(slot).as<T>(), extra(mask_slot).as<bool>()),
                              ew::in(ws().a.as<const T>(), operand()), s));
      },
      [n, key, d, slot, mask_slot](cudaStream_t s) {
        EWB_CHECK(cudaStreamSynchronize(s));
        std::vector<T> y(n);
        std::vector<unsigned char> m(n);
        EWB_CHECK(cudaMemcpy(y.data(), ws().out(slot).as<T>(), n * sizeof(T), cudaMemcpyDeviceToHost));
        EWB_CHECK(cudaMemcpy(m.data(), extra(mask_slot).as<bool>(), n, cudaMemcpyDeviceToHost));
        const T* a = reinterpret_cast<const T*>(ws().ha.data());
        const ew::detail::random_input<K, false> words{key, nullptr};
        const std::uint64_t keep_below = K == ew::random_kind::bits16 ? d.keep_below16 : d.keep_below;
        std::vector<unsigned long long> bad(64, 0), kept(64, 0);
        parallel_for(n, [&](std::size_t lo, std::size_t hi) {
          unsigned long long b = 0, k = 0;
          for (std::size_t i = lo; i < hi; ++i) {
            const bool keep = words.element(i) < keep_below;
            const T want = cuda::std::get<0>(d(a[i], words.element(i)));
            b += m[i] != (keep ? 1 : 0) || std::memcmp(&want, &y[i], sizeof(T)) != 0;
            k += keep;
          }
          bad[lo * 64 / n] += b;
          kept[lo * 64 / n] += k;
        });
        check_result res;
        unsigned long long total_kept = 0;
        for (int j = 0; j < 64; ++j) {
          res.bad += bad[static_cast<std::size_t>(j)];
          total_kept += kept[static_cast<std::size_t>(j)];
        }
        // The keep rate within 6 standard deviations of its binomial law.
        const double mean = static_cast<double>(n) * (1 - dropout_p);
        const double sd = std::sqrt(static_cast<double>(n) * dropout_p * (1 - dropout_p));
        if (std::fabs(static_cast<double>(total_kept) - mean) > 6 * sd) {
          ++res.bad;
          res.got = static_cast<double>(total_kept);
          res.want = mean;
        }
        return res;
      });
}

template <class T>
void dropout_cells(std::size_t n) {
  const std::string type = type_traits<T>::name, op = "dropout";
  dropout_row<T, ew::random_kind::bits>(n, "ew_dropout", 0, 4);
  // ew::random_bits16: eight elements from a Philox block (change 63).
  dropout_row<T, ew::random_kind::bits16>(n, "ew_dropout16", 2, 31);  // extra(31): used by no other row
  register_cold_row(
      op, type, "ew_relu_ref", 1, n, 2.0 * static_cast<double>(n) * sizeof(T),
      [n] {
        ensure_inputs<T>(n, 0, 1);
        ensure_reference<T>("relu", n, 0, [](const T* a, const T*, T* o, std::size_t b, std::size_t e) {
          for (std::size_t k = b; k < e; ++k) o[k] = ew::relu<T>{}(a[k]);
        });
      },
      [n](cudaStream_t s) { poison(ws().out(1).as<T>(), n * sizeof(T), s); },
      [n](cudaStream_t s) {
        ew_ok(ew::elementwise(ew::relu<T>{}, n, ws().out(1).as<T>(), ws().a.as<const T>(), s));
      },
      [n](cudaStream_t s) {
        return compare_device(ws().out(1).as<const T>(), ws().ref("relu").as<const T>(), n, 0.0, 0.0, s);
      });
}

}  // namespace

void register_fp8_random() {
  if (!env().opt.cold) return;
  for (std::size_t n : {std::size_t{1} << 26, std::size_t{1} << 28}) {
    dropout_cells<float>(n);
    dropout_cells<__nv_bfloat16>(n);
  }
  for (std::size_t n :
       {std::size_t{1} << 20, std::size_t{1} << 24, std::size_t{1} << 26, std::size_t{1} << 28}) {
    quant_cells<float>(n);
    quant_cells<__nv_bfloat16>(n);
  }
  for (std::size_t n :
       {std::size_t{1} << 20, std::size_t{1} << 24, std::size_t{1} << 26, std::size_t{1} << 28}) {
    for (bool amax : {true, false}) {
      reduction_cells<float>(n, amax);
      reduction_cells<__nv_bfloat16>(n, amax);
    }
  }
}

}  // namespace ewb
