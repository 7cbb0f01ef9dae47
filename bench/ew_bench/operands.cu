// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Operand rows (issue 12), cold L2, each cell timed interleaved. Every row's bytes are what it must move:
// the arrays read once and the outputs written once (a broadcast operand counted once, the index and
// scalars as nothing), so GB/s compare the work done.
//
//   bcast_row.C     y[r, c] = x[r, c] + b[c], [R, C] = [2^16, 4096] and [2^14, 1000], f32 and bf16
//   bcast_col.C     y[r, c] = x[r, c] * v[r], [2^16, 4096]
//   channel_sb      y[n, c, h, w] = x * s[c] + b[c] (ew::fma), NCHW [64, 256, 64, 64] = 2^26
//     ew            ew::elementwise over ew::extents with ew::strided views of b, v, s
//     cub_counting  cub::DeviceTransform over (x, a counting iterator) with a functor that computes the
//                   broadcast operand's index (i % C, i / C, i / HW % C): what a CUB user writes
//     ew_relu_ref   ew's 1-D relu over the same number of elements: the bandwidth bar (issue 12: >= 0.97x)
//   pitched.4000    y = relu(x), x [2^14, 4000] f32/bf16 in rows of a 4096-element pitch, y a column slice
//                   (from column 64) of a [2^14, 8192] matrix; ew_contig_ref is ew's relu over the same
//                   elements, contiguous (bar: >= 0.95x)
//   transpose       y = x^T, y [4096, 2^16] from x [2^16, 4096] (a view of strides {1, 4096}); beside
//                   ew_relu_ref; PyTorch's y.copy_(x.t()) is quoted in the issue
//   index_seq       y[i] = i, int64, 2^28: ew::index() against cub over a counting iterator
//   index_mask      y[i] = i odd ? 0 : x[i], f32, 2^28: ew with ew::index() against cub over (x, counting)
//   mul_value       y = x * s, f32, 2^24 and 2^28: ew::constant(s) and ew::scalar(&s) against the same op
//                   with s in a stateful functor (bar: >= 0.99x)

#include <ew/elementwise.cuh>

#include <cub/device/device_transform.cuh>
#if __has_include(<cuda/iterator>)
#include <cuda/iterator>
#endif
#include <thrust/iterator/counting_iterator.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "checks.cuh"
#include "device_buffer.cuh"
#include "element_types.cuh"
#include "timing.cuh"

#include "bench.cuh"

namespace ewb {
namespace {

// The counting iterator a CUB user of this CCCL writes: cuda::counting_iterator (CCCL 3.1+), else thrust's.
#if __has_include(<cuda/iterator>)
using counting = cuda::counting_iterator<std::int64_t>;
#else
using counting = thrust::counting_iterator<std::int64_t>;
#endif

template <class F, class Out, class... In>
void cub_transform(const F& f, std::size_t n, Out* out, cudaStream_t s, In... in) {
  const cudaError_t err =
      cub::DeviceTransform::Transform(cuda::std::make_tuple(in...), out, static_cast<int>(n), f, s);
  if (err != cudaSuccess)
    throw bench_failure(std::string("cub::DeviceTransform::Transform: ") + cudaGetErrorString(err));
  EWB_CHECK_LAUNCH();
}

template <class T>
struct row_bias {
  const T* b;
  std::int64_t cols;
  __host__ __device__ T operator()(T x, std::int64_t i) const { return ew::add<T>{}(x, b[i % cols]); }
};
template <class T>
struct col_mul {
  const T* v;
  std::int64_t cols;
  __host__ __device__ T operator()(T x, std::int64_t i) const { return ew::mul<T>{}(x, v[i / cols]); }
};
template <class T>
struct channel_fma {
  const T* s;
  const T* b;
  std::int64_t hw, channels;
  __host__ __device__ T operator()(T x, std::int64_t i) const {
    const std::int64_t c = (i / hw) % channels;
    return ew::fma<T>{}(x, s[c], b[c]);
  }
};
template <class T>
struct mask_odd {
  __host__ __device__ T operator()(T x, std::int64_t i) const { return (i & 1) != 0 ? T(0.0f) : x; }
};
struct mul_by {
  float s;
  __host__ __device__ float operator()(float x) const { return ew::mul<float>{}(x, s); }
};

void operand_row(const std::string& op, const std::string& type, const std::string& impl, int slot,
                 std::size_t n, double bytes, std::function<void()> prepare,
                 std::function<void(cudaStream_t)> poison_out, launch_fn launch,
                 std::function<check_result(cudaStream_t)> check) {
  register_cold_row(op, type, impl, slot, n, bytes, std::move(prepare), std::move(poison_out),
                    std::move(launch), std::move(check));
}

/// Output slot `slot` as T, poisoned over `n` elements.
template <class T>
std::function<void(cudaStream_t)> poison_slot(int slot, std::size_t n) {
  return [slot, n](cudaStream_t s) { poison(ws().out(slot).as<T>(), n * sizeof(T), s); };
}
template <class T>
std::function<check_result(cudaStream_t)> check_slot(int slot, std::size_t n, const std::string& ref) {
  return [slot, n, ref](cudaStream_t s) {
    return compare_device(ws().out(slot).as<const T>(), ws().ref(ref).as<const T>(), n, 0.0, 0.0, s);
  };
}
template <class T>
std::string relu_ref(std::size_t n) {
  ensure_reference<T>("relu", n, 0, [](const T* a, const T*, T* o, std::size_t b, std::size_t e) {
    for (std::size_t k = b; k < e; ++k) o[k] = ew::relu<T>{}(a[k]);
  });
  return "relu";
}
/// ew's 1-D relu over `n` elements of the inputs: the bandwidth yardstick of a cell.
template <class T>
void relu_row(const std::string& op, const std::string& name, int slot, std::size_t n_name, std::size_t n) {
  operand_row(
      op, type_traits<T>::name, name, slot, n_name, 2.0 * static_cast<double>(n) * sizeof(T),
      [n, slot] {
        ensure_inputs<T>(n, 0, slot);
        relu_ref<T>(n);
      },
      poison_slot<T>(slot, n),
      [n, slot](cudaStream_t s) {
        ew_ok(ew::elementwise(ew::relu<T>{}, n, ws().out(slot).as<T>(), ws().a.as<const T>(), s));
      },
      check_slot<T>(slot, n, "relu"));
}

/// One cell of ew against CUB over a counting iterator, with ew's relu beside: its three rows, checked
/// against the host reference `want(a, b, k)` (element k from the host inputs). `ew_launch(s, out)` and
/// `cub_launch(s, out)` write `out`.
template <class T, class Want, class EwLaunch, class CubLaunch>
void counting_cell(const std::string& op, std::size_t n, double bytes, Want want, EwLaunch ew_launch,
                   CubLaunch cub_launch) {
  const std::string type = type_traits<T>::name;
  auto prepare = [n, op, want](int slot) {
    return [n, op, want, slot] {
      ensure_inputs<T>(n, 0, slot);
      ensure_reference<T>(op, n, 0, [want](const T* a, const T* b, T* o, std::size_t lo, std::size_t hi) {
        for (std::size_t k = lo; k < hi; ++k) o[k] = want(a, b, k);
      });
    };
  };
  operand_row(
      op, type, "ew", 0, n, bytes, prepare(0), poison_slot<T>(0, n),
      [ew_launch](cudaStream_t s) { ew_launch(s, ws().out(0).as<T>()); }, check_slot<T>(0, n, op));
  operand_row(
      op, type, "cub_counting", 2, n, bytes, prepare(2), poison_slot<T>(2, n),
      [cub_launch](cudaStream_t s) { cub_launch(s, ws().out(2).as<T>()); }, check_slot<T>(2, n, op));
  relu_row<T>(op, "ew_relu_ref", 1, n, n);
}

template <class T>
void broadcast_cells() {
  const std::string type = type_traits<T>::name;
  for (const auto& shape : {std::pair<std::int64_t, std::int64_t>{1 << 16, 4096}, {1 << 14, 1000}}) {
    const std::int64_t R = shape.first, C = shape.second;
    const std::size_t n = static_cast<std::size_t>(R * C), c = static_cast<std::size_t>(C);
    counting_cell<T>(
        "bcast_row." + std::to_string(C), n,
        (2.0 * static_cast<double>(n) + static_cast<double>(C)) * sizeof(T),
        [c](const T* a, const T* b, std::size_t k) { return ew::add<T>{}(a[k], b[k % c]); },
        [R, C](cudaStream_t s, T* out) {
          const auto bias = ew::strided(ws().b.as<const T>(), ew::extents{C}, ew::strides{1});
          ew_ok(ew::elementwise(ew::add<T>{}, ew::extents{R, C}, out, ew::in(ws().a.as<const T>(), bias), s));
        },
        [n, C](cudaStream_t s, T* out) {
          cub_transform(row_bias<T>{ws().b.as<const T>(), C}, n, out, s, ws().a.as<const T>(), counting(0));
        });
  }
  {
    const std::int64_t R = 1 << 16, C = 4096;
    const std::size_t n = static_cast<std::size_t>(R * C), c = static_cast<std::size_t>(C);
    counting_cell<T>(
        "bcast_col." + std::to_string(C), n,
        (2.0 * static_cast<double>(n) + static_cast<double>(R)) * sizeof(T),
        [c](const T* a, const T* b, std::size_t k) { return ew::mul<T>{}(a[k], b[k / c]); },
        [R, C](cudaStream_t s, T* out) {
          const auto col = ew::strided(ws().b.as<const T>(), ew::extents{R, 1}, ew::strides{1, 0});
          ew_ok(ew::elementwise(ew::mul<T>{}, ew::extents{R, C}, out, ew::in(ws().a.as<const T>(), col), s));
        },
        [n, C](cudaStream_t s, T* out) {
          cub_transform(col_mul<T>{ws().b.as<const T>(), C}, n, out, s, ws().a.as<const T>(), counting(0));
        });
  }
  {
    // s = b[0, C), bias = b[C, 2C).
    const std::int64_t N = 64, C = 256, HW = 64 * 64;
    const std::size_t n = static_cast<std::size_t>(N * C * HW), c = static_cast<std::size_t>(C),
                      hw = static_cast<std::size_t>(HW);
    counting_cell<T>(
        "channel_sb", n, (2.0 * static_cast<double>(n) + 2.0 * static_cast<double>(C)) * sizeof(T),
        [c, hw](const T* a, const T* b, std::size_t k) {
          const std::size_t ch = (k / hw) % c;
          return ew::fma<T>{}(a[k], b[ch], b[c + ch]);
        },
        [N, C](cudaStream_t s, T* out) {
          const T* b = ws().b.as<const T>();
          const auto per_channel = [C](const T* p) {
            return ew::strided(p, ew::extents{1, C, 1, 1}, ew::strides{0, 1, 0, 0});
          };
          ew_ok(ew::elementwise(ew::fma<T>{}, ew::extents{N, C, std::int64_t{64}, std::int64_t{64}}, out,
                                ew::in(ws().a.as<const T>(), per_channel(b), per_channel(b + C)), s));
        },
        [n, C, HW](cudaStream_t s, T* out) {
          const T* b = ws().b.as<const T>();
          cub_transform(channel_fma<T>{b, b + C, HW, C}, n, out, s, ws().a.as<const T>(), counting(0));
        });
  }
  {
    // Pitched rows into a column slice. The input is ws().a seen as [R, P]; the output slot holds [R, LD].
    const std::int64_t R = 1 << 14, C = 4000, P = 4096, LD = 8192, C0 = 64;
    const std::size_t n = static_cast<std::size_t>(R * C);
    const std::size_t n_in = static_cast<std::size_t>(R * P), n_out = static_cast<std::size_t>(R * LD);
    const std::string op = "pitched." + std::to_string(C);
    const double bytes = 2.0 * static_cast<double>(n) * sizeof(T);
    operand_row(
        op, type, "ew", 0, n, bytes,
        [=] {
          ensure_inputs<T>(n_in, 0, 0);
          ws().out(0).ensure(n_out * sizeof(T) + buffer_slack_bytes);
        },
        poison_slot<T>(0, n_out),
        [=](cudaStream_t s) {
          ew_ok(ew::elementwise(ew::relu<T>{}, ew::extents{R, C},
                                ew::strided(ws().out(0).as<T>() + C0, ew::extents{R, C}, ew::strides{LD, 1}),
                                ew::strided(ws().a.as<const T>(), ew::extents{R, C}, ew::strides{P, 1}), s));
        },
        [=](cudaStream_t s) {
          // The slice, downloaded and compared on the host; elements outside it must still be poison.
          std::vector<T> got(n_out);
          EWB_CHECK(cudaStreamSynchronize(s));
          EWB_CHECK(cudaMemcpy(got.data(), ws().out(0).as<T>(), n_out * sizeof(T), cudaMemcpyDeviceToHost));
          const T* a = reinterpret_cast<const T*>(ws().ha.data());
          check_result res;
          for (std::int64_t r = 0; r < R; ++r) {
            for (std::int64_t c = 0; c < LD; ++c) {
              const T g = got[static_cast<std::size_t>(r * LD + c)];
              const bool inside = c >= C0 && c < C0 + C;
              const double gd = to_double(g);
              const bool ok =
                  inside ? to_double(ew::relu<T>{}(a[static_cast<std::size_t>(r * P + c - C0)])) == gd
                         : gd != gd;
              if (!ok && res.bad++ == 0) {
                res.first = static_cast<unsigned long long>(r * LD + c);
                res.got = gd;
                res.want = inside ? to_double(ew::relu<T>{}(a[static_cast<std::size_t>(r * P + c - C0)]))
                                  : 0.0 / 0.0;
              }
            }
          }
          return res;
        });
    // The same elements, contiguous (its own inputs: the first n of a).
    operand_row(
        op, type, "ew_contig_ref", 1, n, bytes,
        [=] {
          ensure_inputs<T>(n_in, 0, 1);
          relu_ref<T>(n_in);
        },
        poison_slot<T>(1, n),
        [=](cudaStream_t s) {
          ew_ok(ew::elementwise(ew::relu<T>{}, n, ws().out(1).as<T>(), ws().a.as<const T>(), s));
        },
        check_slot<T>(1, n, "relu"));
  }
  {
    const std::int64_t R = 4096, C = 1 << 16;  // y [R, C] = x^T, x [C, R]
    const std::size_t n = static_cast<std::size_t>(R * C);
    const std::string op = "transpose";
    auto ref = [n, R, C] {
      ensure_reference<T>(
          "transpose", n, 0, [R, C](const T* a, const T*, T* o, std::size_t lo, std::size_t hi) {
            for (std::size_t k = lo; k < hi; ++k) {
              const std::size_t r = k / static_cast<std::size_t>(C), c = k % static_cast<std::size_t>(C);
              o[k] = a[c * static_cast<std::size_t>(R) + r];
            }
          });
    };
    operand_row(
        op, type, "ew", 0, n, 2.0 * static_cast<double>(n) * sizeof(T),
        [=] {
          ensure_inputs<T>(n, 0, 0);
          ref();
        },
        poison_slot<T>(0, n),
        [R, C](cudaStream_t s) {
          ew_ok(ew::elementwise(ew::cast<T>{}, ew::extents{R, C}, ws().out(0).as<T>(),
                                ew::strided(ws().a.as<const T>(), ew::extents{R, C}, ew::strides{1, R}), s));
        },
        check_slot<T>(0, n, "transpose"));
    relu_row<T>(op, "ew_relu_ref", 1, n, n);
  }
}

void index_cells() {
  const std::size_t n = std::size_t{1} << 28;
  {
    const double bytes = static_cast<double>(n) * sizeof(std::int64_t);
    auto ref = [n] {
      ensure_reference<std::int64_t>(
          "index_seq", n, 0,
          [](const std::int64_t*, const std::int64_t*, std::int64_t* o, std::size_t lo, std::size_t hi) {
            for (std::size_t k = lo; k < hi; ++k) o[k] = static_cast<std::int64_t>(k);
          });
    };
    // The inputs are not read; they are made (8-byte doubles) only so that the reference's workspace exists.
    operand_row(
        "index_seq", "i64", "ew", 0, n, bytes,
        [=] {
          ensure_inputs<double>(n, 0, 0);
          ref();
        },
        poison_slot<std::int64_t>(0, n),
        [n](cudaStream_t s) {
          ew_ok(ew::elementwise(ew::cast<std::int64_t>{}, n, ws().out(0).as<std::int64_t>(), ew::index(), s));
        },
        check_slot<std::int64_t>(0, n, "index_seq"));
    operand_row(
        "index_seq", "i64", "cub_counting", 2, n, bytes,
        [=] {
          ensure_inputs<double>(n, 0, 2);
          ref();
        },
        poison_slot<std::int64_t>(2, n),
        [n](cudaStream_t s) {
          cub_transform(ew::cast<std::int64_t>{}, n, ws().out(2).as<std::int64_t>(), s, counting(0));
        },
        check_slot<std::int64_t>(2, n, "index_seq"));
  }
  {
    const double bytes = 2.0 * static_cast<double>(n) * sizeof(float);
    auto ref = [n] {
      ensure_reference<float>("index_mask", n, 0,
                              [](const float* a, const float*, float* o, std::size_t lo, std::size_t hi) {
                                for (std::size_t k = lo; k < hi; ++k)
                                  o[k] = mask_odd<float>{}(a[k], static_cast<std::int64_t>(k));
                              });
    };
    operand_row(
        "index_mask", "f32", "ew", 0, n, bytes,
        [=] {
          ensure_inputs<float>(n, 0, 0);
          ref();
        },
        poison_slot<float>(0, n),
        [n](cudaStream_t s) {
          ew_ok(ew::elementwise(mask_odd<float>{}, n, ws().out(0).as<float>(),
                                ew::in(ws().a.as<const float>(), ew::index()), s));
        },
        check_slot<float>(0, n, "index_mask"));
    operand_row(
        "index_mask", "f32", "cub_counting", 2, n, bytes,
        [=] {
          ensure_inputs<float>(n, 0, 2);
          ref();
        },
        poison_slot<float>(2, n),
        [n](cudaStream_t s) {
          cub_transform(mask_odd<float>{}, n, ws().out(2).as<float>(), s, ws().a.as<const float>(),
                        counting(0));
        },
        check_slot<float>(2, n, "index_mask"));
  }
}

void value_cells() {
  static device_buffer scale;  // the scalar operand's one element
  for (std::size_t n : {std::size_t{1} << 24, std::size_t{1} << 28}) {
    const double bytes = 2.0 * static_cast<double>(n) * sizeof(float);
    const float s = 1.375f;
    auto ref = [n, s] {
      ensure_reference<float>("mul_value", n, 0,
                              [s](const float* a, const float*, float* o, std::size_t lo, std::size_t hi) {
                                for (std::size_t k = lo; k < hi; ++k) o[k] = ew::mul<float>{}(a[k], s);
                              });
      if (scale.bytes < sizeof(float)) {
        scale.ensure(sizeof(float));
        EWB_CHECK(cudaMemcpy(scale.as<float>(), &s, sizeof(float), cudaMemcpyHostToDevice));
      }
    };
    operand_row(
        "mul_value", "f32", "ew_functor", 0, n, bytes,
        [=] {
          ensure_inputs<float>(n, 0, 0);
          ref();
        },
        poison_slot<float>(0, n),
        [n, s](cudaStream_t st) {
          ew_ok(ew::elementwise(mul_by{s}, n, ws().out(0).as<float>(), ws().a.as<const float>(), st));
        },
        check_slot<float>(0, n, "mul_value"));
    operand_row(
        "mul_value", "f32", "ew_constant", 1, n, bytes,
        [=] {
          ensure_inputs<float>(n, 0, 1);
          ref();
        },
        poison_slot<float>(1, n),
        [n, s](cudaStream_t st) {
          ew_ok(ew::elementwise(ew::mul<float>{}, n, ws().out(1).as<float>(),
                                ew::in(ws().a.as<const float>(), ew::constant(s)), st));
        },
        check_slot<float>(1, n, "mul_value"));
    operand_row(
        "mul_value", "f32", "ew_scalar", 2, n, bytes,
        [=] {
          ensure_inputs<float>(n, 0, 2);
          ref();
        },
        poison_slot<float>(2, n),
        [n](cudaStream_t st) {
          ew_ok(ew::elementwise(
              ew::mul<float>{}, n, ws().out(2).as<float>(),
              ew::in(ws().a.as<const float>(), ew::scalar(static_cast<const float*>(scale.as<float>()))),
              st));
        },
        check_slot<float>(2, n, "mul_value"));
  }
}

}  // namespace

void ew_ok(cudaError_t err) {
  if (err != cudaSuccess) {
    throw bench_failure(std::string("ew::elementwise: ") + cudaGetErrorString(err) + " (" +
                        ew::last_error_message() + ")");
  }
  EWB_CHECK_LAUNCH();
}

void register_cold_row(const std::string& op, const std::string& type, const std::string& impl, int slot,
                       std::size_t n, double bytes, std::function<void()> prepare,
                       std::function<void(cudaStream_t)> poison_out, launch_fn launch,
                       std::function<check_result(cudaStream_t)> check) {
  row r;
  r.name = row_name(op, type, impl, mode::cold, 0, n);
  r.cell = row_name(op, type, "*", mode::cold, 0, n);
  r.slot = slot;
  r.m = mode::cold;
  r.n = n;
  r.bytes = bytes;
  r.prepare = std::move(prepare);
  r.poison = std::move(poison_out);
  r.launch = std::move(launch);
  r.check = std::move(check);
  register_row(std::move(r));
}

void register_operands() {
  if (!env().opt.cold) return;
  broadcast_cells<float>();
  broadcast_cells<__nv_bfloat16>();
  index_cells();
  value_cells();
}

}  // namespace ewb
