// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Probe 6 (issue 12): the N-dimensional kernel's shape. Runs ew's own per-thread body (nd_grid_thread)
// in kernels of its own, for rows per work item 1, 2, 4, 8 and register caps of 2, 4 and 8 blocks of 256
// threads per SM, on the operand cells of ew_bench that fell short (bias [2^16, 4096] f32 and bf16, the
// per-channel fma over NCHW [64, 256, 64, 64] f32, pitched rows), beside ew's 1-D relu on as many
// elements. Cold L2 (probe_timing.cuh's flush between samples), CUDA events, median of 15 after 2 warm-ups.
// (Run before the kernel took two slots per row: rows here are the rows of one slot each.)
// Build: nvcc -std=c++17 -O3 -arch=sm_90 -Iinclude bench/probes/nd_shape.cu -o nd_shape
#include <cuda_bf16.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include <ew/elementwise.cuh>

#include "probe_timing.cuh"

namespace {
using namespace ewp;

template <int MinBlocks, class Op, int Vec, int VR, int R, class Outs, class Ins>
__global__ void __launch_bounds__(256, MinBlocks)
    probe_kernel(Op op, ew::detail::nd_plan<R> p, ew::detail::launch_shape s, Outs outs, Ins ins) {
  ew::detail::nd_grid_thread<Op, Vec, VR, 1, 4, R>(op, p, s, outs, ins, blockIdx.x, threadIdx.x);
}

template <int MinBlocks, int VR, int Vec, int R, class Op, class Call, class OutT, class InT>
void run_one(const char* name, double bytes, const Op& op, const Call& call, const OutT& outs, const InT& ins,
             double relu_us) {
  auto plan =
      ew::detail::make_nd_plan(call.shape, Vec, VR, 1, call.ops[0].address / call.ops[0].element_size);
  const auto o = call.out_operands(outs);
  const auto i = call.in_operands(ins);
  const std::size_t bt = 256;
  ew::detail::launch_shape s{static_cast<std::size_t>((plan.items + bt - 1) / bt), bt};
  const double us = time_us([&] {
    probe_kernel<MinBlocks, Op, Vec, VR, R><<<static_cast<unsigned>(s.blocks), 256>>>(op, plan, s, o, i);
  });
  std::printf("%-22s minblocks %d rows %d: %8.1f us %7.1f GB/s  %.3f of relu\n", name, MinBlocks, VR, us,
              bytes / us / 1e3, relu_us / us * (bytes / bytes));
}

template <int Vec, int R, class Op, class OutT, class InT>
void sweep(const char* name, double bytes, const Op& op, const ew::extents<R>& e, const OutT& outs,
           const InT& ins, double relu_us) {
  ew::detail::nd_call<Vec, R, OutT, InT> call;
  CK(call.prepare(e, outs, ins));
  std::printf("%s: coalesced rank %d, plan vec %d head %d\n", name, call.shape.rank, call.plan.vec,
              call.plan.head);
#define EWP_ROW(MB, VR) run_one<MB, VR, Vec, R>(name, bytes, op, call, outs, ins, relu_us);
  EWP_ROW(4, 1)
  EWP_ROW(4, 2)
  EWP_ROW(4, 4)
  EWP_ROW(4, 8) EWP_ROW(2, 2) EWP_ROW(2, 4) EWP_ROW(2, 8) EWP_ROW(8, 1) EWP_ROW(8, 2) EWP_ROW(8, 4)
#undef EWP_ROW
}

template <class T>
double relu_us(std::size_t n, T* y, const T* x) {
  return time_us([&] { CK(ew::elementwise(ew::relu<T>{}, n, y, x, 0)); });
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
    const double r = relu_us<float>(n, y, x);
    std::printf("relu f32 2^28: %.1f us %.1f GB/s\n", r, 2.0 * n * 4 / r / 1e3);
    const auto bias = ew::strided(static_cast<const float*>(b), ew::extents{C}, ew::strides{1});
    sweep<4>("bias f32", (2.0 * n + C) * 4, ew::add<float>{}, ew::extents{R, C}, cuda::std::make_tuple(y),
             cuda::std::make_tuple(static_cast<const float*>(x), bias), r);
  }
  {
    auto* xb = reinterpret_cast<__nv_bfloat16*>(x);
    auto* yb = reinterpret_cast<__nv_bfloat16*>(y);
    const double r = relu_us<__nv_bfloat16>(n, yb, xb);
    std::printf("relu bf16 2^28: %.1f us %.1f GB/s\n", r, 2.0 * n * 2 / r / 1e3);
    const auto bias = ew::strided(static_cast<const __nv_bfloat16*>(reinterpret_cast<__nv_bfloat16*>(b)),
                                  ew::extents{C}, ew::strides{1});
    sweep<8>("bias bf16", (2.0 * n + C) * 2, ew::add<__nv_bfloat16>{}, ew::extents{R, C},
             cuda::std::make_tuple(yb), cuda::std::make_tuple(static_cast<const __nv_bfloat16*>(xb), bias),
             r);
  }
  {
    const std::size_t m = std::size_t{1} << 26;
    const double r = relu_us<float>(m, y, x);
    std::printf("relu f32 2^26: %.1f us %.1f GB/s\n", r, 2.0 * m * 4 / r / 1e3);
    const auto pc = [](const float* p) {
      return ew::strided(p, ew::extents{1, 256, 1, 1}, ew::strides{0, 1, 0, 0});
    };
    sweep<4>("channel fma f32", (2.0 * m + 512) * 4, ew::fma<float>{}, ew::extents{64, 256, 64, 64},
             cuda::std::make_tuple(y),
             cuda::std::make_tuple(static_cast<const float*>(x), pc(b), pc(b + 256)), r);
  }
  return 0;
}
