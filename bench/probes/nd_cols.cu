// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Probe 7 (issue 12): several vector slots of one row per work item. A copy of ew's N-d per-thread body
// (nd_kernel.cuh) in which an item is `Rows` rows x `Cols` slots, the slots `Sc` apart (Sc = slots / Cols,
// rounded up, so that a warp's consecutive items stay consecutive in memory for each of its loads); the
// shipped body is Cols = 1. Same cells, timing and yardstick as probe 6 (nd_shape.cu).
// Build: nvcc -std=c++17 -O3 -arch=sm_90 -Iinclude bench/probes/nd_cols.cu -o nd_cols
#include <cuda_bf16.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include <ew/elementwise.cuh>

#include "probe_timing.cuh"

namespace {
using namespace ewp;
using namespace ew::detail;

/// nd_thread with Cols slots per item (vector path only, uniform head: the probe's cells all have one).
template <class Op, int Vec, int Rows, int Cols, int R, class Outs, class Ins>
struct cols_thread {
  static constexpr std::size_t num_in = cuda::std::tuple_size<Ins>::value;
  static constexpr std::size_t num_out = cuda::std::tuple_size<Outs>::value;
  template <std::size_t K>
  using in_t = typename cuda::std::tuple_element_t<K, Ins>::value_type;
  template <std::size_t K>
  using out_t = typename cuda::std::tuple_element_t<K, Outs>::value_type;
  Op op;
  Outs outs;
  Ins ins;
  const nd_plan<R>& p;
  std::uint64_t sc;  // slots between an item's columns
  std::uint64_t items;

  __device__ void item(std::uint64_t w) {
    impl(w, cuda::std::make_index_sequence<num_in>{}, cuda::std::make_index_sequence<num_out>{});
  }

  template <std::size_t... I, std::size_t... O>
  __device__ void impl(std::uint64_t w, cuda::std::index_sequence<I...>, cuda::std::index_sequence<O...>) {
    const unsigned g = static_cast<unsigned>(w) / static_cast<unsigned>(sc);
    const std::uint64_t s0 = w - static_cast<std::uint64_t>(g) * sc;
    const std::uint64_t row0 = static_cast<std::uint64_t>(g) * Rows;
    const int outer = p.rank - 1;
    std::int64_t coord[R] = {};
    {
      std::uint64_t r = row0;
#pragma unroll
      for (int d = R - 1; d >= 1; --d) {
        if (d < outer) {
          const std::uint64_t e = static_cast<std::uint64_t>(p.extent[d]);
          coord[d] = static_cast<std::int64_t>(r % e);
          r /= e;
        }
      }
      coord[0] = static_cast<std::int64_t>(r);
    }
    const std::int64_t cols = static_cast<std::int64_t>(p.cols);
    std::int64_t off_out[num_out][Rows];
    bool full[Rows][Cols];
    cuda::std::tuple<cuda::std::array<vector_word<in_t<I>, Vec>, Rows * Cols>...> loaded;
#pragma unroll
    for (int u = 0; u < Rows; ++u) {
      const bool valid = row0 + static_cast<std::uint64_t>(u) < p.rows;
      ((off_out[O][u] = cuda::std::get<O>(outs).offset(coord, outer)), ...);
#pragma unroll
      for (int k = 0; k < Cols; ++k) {
        const std::int64_t c0 = static_cast<std::int64_t>(s0 + k * sc) * Vec - p.head;
        full[u][k] = valid && c0 >= 0 && c0 + Vec <= cols;
        if (full[u][k]) {
          ((cuda::std::get<I>(loaded)[u * Cols + k] =
                (u > 0 && cuda::std::get<I>(ins).invariant && full[0][k])
                    ? cuda::std::get<I>(loaded)[k]
                    : cuda::std::get<I>(ins).template vector<Vec>(cuda::std::get<I>(ins).offset(coord, outer),
                                                                  c0)),
           ...);
        }
      }
      bool carry = true;
#pragma unroll
      for (int d = R - 1; d >= 0; --d) {
        if (d < outer && carry) {
          ++coord[d];
          carry = d > 0 && coord[d] == p.extent[d];
          if (carry) coord[d] = 0;
        }
      }
    }
#pragma unroll
    for (int u = 0; u < Rows; ++u) {
#pragma unroll
      for (int k = 0; k < Cols; ++k) {
        const std::int64_t c0 = static_cast<std::int64_t>(s0 + k * sc) * Vec - p.head;
        if (full[u][k]) {
          cuda::std::tuple<vector_word<out_t<O>, Vec>...> results;
#pragma unroll
          for (int j = 0; j < Vec; ++j) {
            auto r = op(cuda::std::get<I>(loaded)[u * Cols + k].elements.v[j]...);
            ((cuda::std::get<O>(results).elements.v[j] = ew::convert<out_t<O>>(result_part<O, num_out>(r))),
             ...);
          }
          (cuda::std::get<O>(outs).template store_vector<Vec>(off_out[O][u], c0, cuda::std::get<O>(results)),
           ...);
        }
        // (partial slots: none in the probe's cells, every row a whole number of vectors)
      }
    }
  }
};

template <int MinBlocks, class Op, int Vec, int Rows, int Cols, int R, class Outs, class Ins>
__global__ void __launch_bounds__(256, MinBlocks)
    cols_kernel(Op op, nd_plan<R> p, std::uint64_t sc, std::uint64_t items, Outs outs, Ins ins) {
  cols_thread<Op, Vec, Rows, Cols, R, Outs, Ins> t{op, outs, ins, p, sc, items};
  const std::uint64_t w = static_cast<std::uint64_t>(blockIdx.x) * 256 + threadIdx.x;
  if (w < items) t.item(w);
}

template <int MinBlocks, int Rows, int Cols, int Vec, int R, class Op, class Call, class OutT, class InT>
void run_one(const char* name, const Op& op, const Call& call, const OutT& outs, const InT& ins,
             double relu_us) {
  const auto plan = make_nd_plan(call.shape, Vec, Rows, 1, call.ops[0].address / call.ops[0].element_size);
  const std::uint64_t sc = (plan.slots + Cols - 1) / Cols;
  const std::uint64_t items = (plan.rows + Rows - 1) / Rows * sc;
  const auto o = call.out_operands(outs);
  const auto i = call.in_operands(ins);
  const double us = time_us([&] {
    cols_kernel<MinBlocks, Op, Vec, Rows, Cols, R>
        <<<static_cast<unsigned>((items + 255) / 256), 256>>>(op, plan, sc, items, o, i);
  });
  std::printf("%-16s minblocks %d rows %d cols %d: %8.1f us  %.3f of relu\n", name, MinBlocks, Rows, Cols, us,
              relu_us / us);
}

template <int Vec, int R, class Op, class OutT, class InT>
void sweep(const char* name, const Op& op, const ew::extents<R>& e, const OutT& outs, const InT& ins,
           double relu_us) {
  nd_call<Vec, R, OutT, InT> call;
  CK(call.prepare(e, outs, ins));
  if (call.plan.head < 0 || call.plan.cols % Vec != 0) std::printf("%s: not a probe cell\n", name);
#define EWP_ROW(MB, RO, CO) run_one<MB, RO, CO, Vec, R>(name, op, call, outs, ins, relu_us);
  // clang-format off: one row a line (clang-format joins macro calls without a semicolon)
  EWP_ROW(4, 2, 1)
  EWP_ROW(4, 1, 2)
  EWP_ROW(4, 1, 4)
  EWP_ROW(4, 2, 2)
  EWP_ROW(8, 1, 1)
  EWP_ROW(8, 1, 2)
  EWP_ROW(8, 1, 4)
  EWP_ROW(6, 1, 2)
  EWP_ROW(6, 1, 4)
  EWP_ROW(6, 2, 2)
  // clang-format on
#undef EWP_ROW
}
}  // namespace

int main() {
  CK(cudaMalloc(&flush_buf, flush_bytes));
  const std::int64_t R = 1 << 16, C = 4096;
  const std::size_t n = static_cast<std::size_t>(R * C);
  float *x, *y, *b;
  CK(cudaMalloc(&x, n * 4));
  CK(cudaMalloc(&y, n * 4));
  CK(cudaMalloc(&b, 1 << 20));
  CK(cudaMemset(x, 0x3f, n * 4));
  CK(cudaMemset(b, 0x3f, 1 << 20));
  {
    const double r =
        time_us([&] { CK(ew::elementwise(ew::relu<float>{}, n, y, static_cast<const float*>(x), 0)); });
    const auto bias = ew::strided(static_cast<const float*>(b), ew::extents{C}, ew::strides{1});
    sweep<4>("bias f32", ew::add<float>{}, ew::extents{R, C}, cuda::std::make_tuple(y),
             cuda::std::make_tuple(static_cast<const float*>(x), bias), r);
  }
  {
    auto* xb = reinterpret_cast<const __nv_bfloat16*>(x);
    auto* yb = reinterpret_cast<__nv_bfloat16*>(y);
    const double r = time_us([&] { CK(ew::elementwise(ew::relu<__nv_bfloat16>{}, n, yb, xb, 0)); });
    const auto bias = ew::strided(reinterpret_cast<const __nv_bfloat16*>(b), ew::extents{C}, ew::strides{1});
    sweep<8>("bias bf16", ew::add<__nv_bfloat16>{}, ew::extents{R, C}, cuda::std::make_tuple(yb),
             cuda::std::make_tuple(xb, bias), r);
  }
  {
    const std::size_t m = std::size_t{1} << 26;
    const double r =
        time_us([&] { CK(ew::elementwise(ew::relu<float>{}, m, y, static_cast<const float*>(x), 0)); });
    const auto pc = [](const float* p) {
      return ew::strided(p, ew::extents{1, 256, 1, 1}, ew::strides{0, 1, 0, 0});
    };
    sweep<4>("channel fma f32", ew::fma<float>{}, ew::extents{64, 256, 64, 64}, cuda::std::make_tuple(y),
             cuda::std::make_tuple(static_cast<const float*>(x), pc(b), pc(b + 256)), r);
  }
  return 0;
}
