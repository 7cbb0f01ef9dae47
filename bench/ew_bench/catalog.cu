// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// The op catalog's rows (issue 23: every op memory-bound where its error bound allows, >= 0.97x ew's relu
// at 2^26 elements of f32 and bf16), cold L2. One cell per type: `catalog/T/<op>/cold/aligned/67108864`,
// its rows each op of the catalog through `ew::elementwise` (unary, binary and ternary ops over arrays of
// T; comparisons and the classes into bool; `where` from a bool array), and `relu`, the bar's yardstick.
// Bytes are each op's own: its inputs read once and its output written once. Ops that need a positive
// argument (sqrt, rsqrt, log2, log1p, pow's base) read |x|; the others x, both in +-[1/16, 4).
// Checked: every output element against a one-thread-an-element kernel of the same functor (NaN where NaN).

#include <ew/elementwise.cuh>

#include <cstdint>
#include <string>

#include "checks.cuh"
#include "device_buffer.cuh"
#include "element_types.cuh"

#include "bench.cuh"
#include "impls.cuh"

namespace ewb {
namespace {

constexpr std::size_t catalog_n = std::size_t{1} << 26;

/// |x| and x > 0, the positive and the bool inputs.
template <class T>
struct magnitude {
  __host__ __device__ T operator()(T x) const { return ew::abs<T>{}(x); }
};
template <class T>
struct positive {
  __host__ __device__ bool operator()(T x) const { return ew::convert<float>(x) > 0.0f; }
};

/// Byte-exact comparison (bool outputs).
__global__ void same_bytes_kernel(const unsigned char* got, const unsigned char* want, std::size_t n,
                                  unsigned long long* bad) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n && got[i] != want[i]) atomicAdd(bad, 1ull);
}

/// Per-type input buffers beyond ws().a and ws().b: |a| and a > 0, made once.
template <class T>
device_buffer& extra_input(int k) {
  static device_buffer b[2];
  return b[k];
}

template <class T>
const T* pos_input() {
  return extra_input<T>(0).template as<const T>();
}
template <class T>
const bool* cond_input() {
  return extra_input<T>(1).template as<const bool>();
}

/// One row: `op` over `ins...` (device pointers, looked up at run time) into an output of type R.
template <class T, class R, class Op, class... Getters>
void catalog_row(const std::string& name, int slot, Op op, Getters... get) {
  const std::size_t n = catalog_n;
  const double bytes = static_cast<double>(n) * (sizeof(R) + (0.0 + ... + sizeof(*get())));
  register_cold_row(
      "catalog", type_traits<T>::name, name, slot, n, bytes,
      [n, slot] {
        ensure_inputs<T>(n, 0, slot);
        ws().tmp(slot).ensure(n * sizeof(R) + 256);
        if (extra_input<T>(0).bytes < n * sizeof(T)) {
          extra_input<T>(0).ensure(n * sizeof(T));
          extra_input<T>(1).ensure(n);
          ew_ok(ew::elementwise(magnitude<T>{}, n, extra_input<T>(0).template as<T>(), ws().a.as<const T>()));
          ew_ok(
              ew::elementwise(positive<T>{}, n, extra_input<T>(1).template as<bool>(), ws().a.as<const T>()));
          EWB_CHECK(cudaDeviceSynchronize());
        }
      },
      [n, slot](cudaStream_t s) { poison(ws().out(slot).ptr, n * sizeof(R), s); },
      [n, slot, op, get...](cudaStream_t s) {
        ew_ok(ew::elementwise(op, n, ws().out(slot).as<R>(), ew::in(get()...), s));
      },
      [n, slot, op, get...](cudaStream_t s) {
        R* want = ws().tmp(slot).as<R>();
        // The reference: the seeds' v0 kernel (one thread an element) of the same functor.
        v0_kernel<<<static_cast<unsigned>((n + seed_block_threads - 1) / seed_block_threads),
                    seed_block_threads, 0, s>>>(op, n, want, get()...);
        EWB_CHECK_LAUNCH();
        if constexpr (sizeof(R) == 1) {
          unsigned long long* bad = compare_counters();
          EWB_CHECK(cudaMemsetAsync(bad, 0, sizeof(unsigned long long), s));
          same_bytes_kernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, s>>>(
              ws().out(slot).as<const unsigned char>(), reinterpret_cast<const unsigned char*>(want), n, bad);
          EWB_CHECK_LAUNCH();
          check_result r;
          EWB_CHECK(cudaMemcpyAsync(&r.bad, bad, sizeof(r.bad), cudaMemcpyDeviceToHost, s));
          EWB_CHECK(cudaStreamSynchronize(s));
          return r;
        } else {
          return compare_device(ws().out(slot).as<const R>(), static_cast<const R*>(want), n, 0.0, 0.0, s);
        }
      });
}

template <class T>
void catalog_cells() {
  const auto x = [] { return ws().a.as<const T>(); };
  const auto y = [] { return ws().b.as<const T>(); };
  const auto p = [] { return pos_input<T>(); };
  const auto c = [] { return cond_input<T>(); };
  int slot = 0;
  catalog_row<T, T>("relu", slot++, ew::relu<T>{}, x);
  catalog_row<T, T>("identity", slot++, ew::identity<T>{}, x);
  catalog_row<T, T>("sqrt", slot++, ew::sqrt<T>{}, p);
  catalog_row<T, T>("rsqrt", slot++, ew::rsqrt<T>{}, p);
  catalog_row<T, T>("reciprocal", slot++, ew::reciprocal<T>{}, x);
  catalog_row<T, T>("square", slot++, ew::square<T>{}, x);
  catalog_row<T, T>("erf", slot++, ew::erf<T>{}, x);
  catalog_row<T, T>("exp2", slot++, ew::exp2<T>{}, x);
  catalog_row<T, T>("log2", slot++, ew::log2<T>{}, p);
  catalog_row<T, T>("log1p", slot++, ew::log1p<T>{}, p);
  catalog_row<T, T>("expm1", slot++, ew::expm1<T>{}, x);
  catalog_row<T, T>("sin", slot++, ew::sin<T>{}, x);
  catalog_row<T, T>("cos", slot++, ew::cos<T>{}, x);
  catalog_row<T, T>("floor", slot++, ew::floor<T>{}, x);
  catalog_row<T, T>("ceil", slot++, ew::ceil<T>{}, x);
  catalog_row<T, T>("round", slot++, ew::round<T>{}, x);
  catalog_row<T, T>("trunc", slot++, ew::trunc<T>{}, x);
  catalog_row<T, T>("sign", slot++, ew::sign<T>{}, x);
  catalog_row<T, T>("nan_to_num", slot++, ew::nan_to_num<T>{}, x);
  catalog_row<T, T>("elu", slot++, ew::elu<T>{}, x);
  catalog_row<T, T>("selu", slot++, ew::selu<T>{}, x);
  catalog_row<T, T>("mish", slot++, ew::mish<T>{}, x);
  catalog_row<T, T>("softsign", slot++, ew::softsign<T>{}, x);
  catalog_row<T, T>("logsigmoid", slot++, ew::logsigmoid<T>{}, x);
  catalog_row<T, T>("sigmoid", slot++, ew::sigmoid<T>{}, x);
  catalog_row<T, T>("tanh", slot++, ew::tanh<T>{}, x);
  catalog_row<T, T>("silu", slot++, ew::silu<T>{}, x);
  catalog_row<T, T>("gelu", slot++, ew::gelu<T>{}, x);
  catalog_row<T, T>("gelu_tanh", slot++, ew::gelu_tanh<T>{}, x);
  catalog_row<T, T>("softplus", slot++, ew::softplus<T>{}, x);
  catalog_row<T, T>("exp", slot++, ew::exp<T>{}, x);
  catalog_row<T, T>("log", slot++, ew::log<T>{}, p);
  catalog_row<T, T>("pow", slot++, ew::pow<T>{}, p, y);
  catalog_row<T, T>("swiglu", slot++, ew::swiglu<T>{}, x, y);
  catalog_row<T, T>("geglu", slot++, ew::geglu<T>{}, x, y);
  catalog_row<T, T>("lerp", slot++, ew::lerp<T>{}, x, y, p);
  catalog_row<T, T>("addcmul", slot++, ew::addcmul<T>{}, x, y, p);
  catalog_row<T, T>("addcdiv", slot++, ew::addcdiv<T>{}, x, y, p);
  catalog_row<T, T>("where", slot++, ew::where<T>{}, c, x, y);
  catalog_row<T, bool>("less", slot++, ew::less<T>{}, x, y);
  catalog_row<T, bool>("equal", slot++, ew::equal<T>{}, x, y);
  catalog_row<T, bool>("isnan", slot++, ew::isnan<T>{}, x);
  catalog_row<T, bool>("isfinite", slot++, ew::isfinite<T>{}, x);
}

}  // namespace

void register_catalog() {
  catalog_cells<float>();
  catalog_cells<__nv_bfloat16>();
}

}  // namespace ewb
