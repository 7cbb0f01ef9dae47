// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The tile kernel: an N-dimensional launch whose outputs are contiguous and where some input runs along
/// another dimension than the outputs (a transposed copy, NCHW to NHWC, `permute(0, 2, 1, 3)`). Each block
/// takes a square tile (`nd_kernel_shapes::tile_side_for`, tuning.cuh) of elements of two dimensions: `a`,
/// the outputs' innermost, and `b`, along which those inputs are contiguous (stride 1). It first stages those
/// inputs' tiles in shared memory with 16-byte loads along `b`, transposed (`stage`, `staged_layout`), then
/// computes and writes the outputs with 16-byte stores along `a`, reading each output vector's staged inputs
/// with one shared-memory load and every other input directly (`compute`). Both phases are
/// `__host__ __device__`: the host tests run every thread of simulated blocks, phase by phase, over a buffer
/// that stands for the shared memory.

#include <cstddef>
#include <cstdint>

#include <cuda/std/array>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include <nv/target>

#include "../functor.cuh"
#include "config.cuh"
#include "kernel.cuh"
#include "nd_kernel.cuh"
#include "side_reduction.cuh"
#include "tile_layout.cuh"
#include "tuning.cuh"
#include "vector_access.cuh"

namespace ew {
namespace detail {

/// An array input or output of a tile launch: element `coord` is `ptr[row_offset(stride, coord)]`. `a` and
/// `b` are its strides along those dimensions. An input with `smem >= 0` is staged: contiguous along `b`
/// (`b == 1`), it is read through shared memory at byte offset `smem`.
template <class T, int R>
struct tile_array {
  using value_type = cuda::std::remove_const_t<T>;
  T* ptr;
  std::int64_t stride[R];
  std::int64_t a, b;
  int smem;
};

/// The index or one coordinate of a tile launch: `row_offset(stride, coord)`.
template <int R>
struct tile_affine {
  using value_type = std::int64_t;
  std::int64_t stride[R];
  std::int64_t a, b;
};

/// A constant or scalar operand (1-D kernel's) in a tile launch.
template <class Uniform>
struct tile_uniform {
  using value_type = typename Uniform::value_type;
  Uniform u;
};

/// What one thread of a tile block does (`Vec` elements per output access, tiles `Side` a side, the other
/// shapes `S::value`, a `tuning::nd_kernel_shapes`); `Outs` a tuple of `tile_array<T, R>`, `Ins` of
/// `tile_array<const T, R>`, `tile_affine<R>` and `tile_uniform`.
template <class Op, int Vec, int Side, class S, int R, class Outs, class Ins>
struct tile_thread {
  static constexpr std::size_t num_in = cuda::std::tuple_size<Ins>::value;
  static constexpr std::size_t num_out = cuda::std::tuple_size<Outs>::value;
  static constexpr int side = Side;
  static constexpr int threads = S::value.tile_block_threads;
  template <std::size_t K>
  using in_t = typename cuda::std::tuple_element_t<K, Ins>::value_type;
  template <std::size_t K>
  using out_t = typename cuda::std::tuple_element_t<K, Outs>::value_type;

  Op op;
  Outs outs;
  Ins ins;
  const tile_plan<R>& p;

  /// Phase 1 of the tile at `q` (`tile_origin`): every staged input's tile into `smem`.
#pragma nv_exec_check_disable
  EW_HD void stage(const tile_place<R>& q, unsigned char* smem, int thread) {
    cuda::std::apply(
        [&](const auto&... in) { (stage_one(in, q.coord, q.a0, q.b0, q.na, q.nb, smem, thread), ...); }, ins);
  }

  /// Phase 2 of the tile at `q`: the outputs, from the staged tiles and the other inputs.
#pragma nv_exec_check_disable
  EW_HD void compute(const tile_place<R>& q, const unsigned char* smem, int thread) {
    compute_impl(q, smem, thread, cuda::std::make_index_sequence<num_in>{},
                 cuda::std::make_index_sequence<num_out>{});
  }

 private:
  template <class In>
  EW_HD void stage_one(const In&, const std::int64_t (&)[R], std::int64_t, std::int64_t, int, int,
                       unsigned char*, int) {}
  template <class T>
  EW_HD void stage_one(const tile_array<const T, R>& in, const std::int64_t (&coord)[R], std::int64_t a0,
                       std::int64_t b0, int na, int nb, unsigned char* smem, int thread) {
    if (in.smem < 0) return;
    using L = staged_layout<T, Side>;
    constexpr int v = L::stage_vec, pack = L::pack;
    constexpr int per_thread = (L::slots + threads - 1) / threads;
    unsigned char* tile = smem + in.smem;
    const T* base = in.ptr + row_offset(in.stride, coord, p.rank) + a0 * in.a + b0;
    // Slots (of `pack` loads each) a thread loads before it stores the first.
    constexpr int slot_loads =
        S::value.tile_loads_in_flight / pack > 0 ? S::value.tile_loads_in_flight / pack : 1;
    constexpr int chunk = per_thread < slot_loads ? per_thread : slot_loads;
    for (int k0 = 0; k0 < per_thread; k0 += chunk) {
      vector_word<T, v> x[chunk][pack];
      EW_DETAIL_UNROLL
      for (int k = 0; k < chunk; ++k) {  // every load of the chunk first
        const int s = thread + (k0 + k) * threads;
        int w = 0, c = 0;
        L::stage_slot(s, w, c);
        const int bl = c * v;
        EW_DETAIL_UNROLL
        for (int r = 0; r < pack; ++r) {
          const int al = w * pack + r;
          if (s < L::slots && al < na) {
            const T* q = base + al * in.a + bl;
            if (bl + v <= nb && reinterpret_cast<std::uintptr_t>(q) % (sizeof(T) * v) == 0) {
              x[k][r] = load_vector<v>(q);
            } else {
              EW_DETAIL_UNROLL
              for (int j = 0; j < v; ++j) x[k][r].elements.v[j] = bl + j < nb ? q[j] : T{};
            }
          } else {
            EW_DETAIL_UNROLL
            for (int j = 0; j < v; ++j) x[k][r].elements.v[j] = T{};  // past the tile's rows: never read
          }
        }
      }
      EW_DETAIL_UNROLL
      for (int k = 0; k < chunk; ++k) {
        const int s = thread + (k0 + k) * threads;
        int w = 0, c = 0;
        L::stage_slot(s, w, c);
        const int bl = c * v;
        if (s < L::slots && w * pack < na) {
          EW_DETAIL_UNROLL
          for (int j = 0; j < v; ++j) {
            unsigned char* at = tile + L::word_index(bl + j, w) * L::word_bytes;
            if constexpr (pack > 1) {
              vector_word<T, pack> u;
              EW_DETAIL_UNROLL
              for (int r = 0; r < pack; ++r) u.elements.v[r] = x[k][r].elements.v[j];
              smem_put(at, u.word);
            } else {
              smem_put(at, x[k][0].elements.v[j]);
            }
          }
        }
      }
    }
  }

  // Element `j` of the vector at (bl, al) of an input: from the staged tile, or from memory.
  template <class T>
  EW_HD vector_word<T, Vec> read(const tile_array<const T, R>& in, std::int64_t base,
                                 const unsigned char* smem, int bl, int al, int n) const {
    vector_word<T, Vec> u;
    // A staged input: `Vec` elements along `a` of row `bl`, one shared-memory load where they make a word.
    if (in.smem >= 0) {
      using L = staged_layout<T, Side>;
      const unsigned char* tile = smem + in.smem;
      if constexpr (uses_word_v<T, Vec> && Vec % L::pack == 0 && sizeof(T) * Vec <= 16) {
        u.word = smem_get<typename raw_word<sizeof(T) * Vec>::type>(tile + L::byte_offset(bl, al));
      } else {
        EW_DETAIL_UNROLL
        for (int j = 0; j < Vec; ++j) u.elements.v[j] = smem_get<T>(tile + L::byte_offset(bl, al + j));
      }
      return u;
    }
    const T* q = in.ptr + base + bl * in.b + al * in.a;
    if (n == Vec && in.a == 1 && reinterpret_cast<std::uintptr_t>(q) % (sizeof(T) * Vec) == 0) {
      return load_vector<Vec>(q);
    }
    EW_DETAIL_UNROLL
    for (int j = 0; j < Vec; ++j) u.elements.v[j] = j < n ? q[j * in.a] : T{};
    return u;
  }
  EW_HD vector_word<std::int64_t, Vec> read(const tile_affine<R>& in, std::int64_t base, const unsigned char*,
                                            int bl, int al, int) const {
    vector_word<std::int64_t, Vec> u;
    const std::int64_t first = base + bl * in.b + al * in.a;
    EW_DETAIL_UNROLL
    for (int j = 0; j < Vec; ++j) u.elements.v[j] = first + j * in.a;
    return u;
  }
  template <class Uniform>
  EW_HD vector_word<typename Uniform::value_type, Vec> read(const tile_uniform<Uniform>& in, std::int64_t,
                                                            const unsigned char*, int, int, int) const {
    return in.u.template vector<Vec>(0);
  }

#pragma nv_exec_check_disable
  template <std::size_t... I, std::size_t... O>
  EW_HD void compute_impl(const tile_place<R>& q, const unsigned char* smem, int thread,
                          cuda::std::index_sequence<I...>, cuda::std::index_sequence<O...>) {
    const auto& coord = q.coord;
    const std::int64_t a0 = q.a0, b0 = q.b0;
    const int na = q.na, nb = q.nb;
    // Each operand's offset of the tile's first element, once.
    const std::int64_t in_base[num_in + 1] = {base_of(cuda::std::get<I>(ins), coord, a0, b0)..., 0};
    const std::int64_t out_base[num_out] = {base_of(cuda::std::get<O>(outs), coord, a0, b0)...};
    constexpr int per_row = side / Vec;
    constexpr int slots = side * per_row;
    constexpr int per_thread = (slots + threads - 1) / threads;
    constexpr int in_flight = S::value.tile_reads_for(static_cast<int>(num_in));
    constexpr int chunk = per_thread < in_flight ? per_thread : in_flight;
    for (int k0 = 0; k0 < per_thread; k0 += chunk) {
      cuda::std::tuple<cuda::std::array<vector_word<in_t<I>, Vec>, chunk>...> loaded;
      EW_DETAIL_UNROLL
      for (int k = 0; k < chunk; ++k) {  // every read of the chunk first
        const int s = thread + (k0 + k) * threads;
        const int bl = s / per_row, al = s % per_row * Vec;
        const int n = na - al < Vec ? na - al : Vec;
        if (s < slots && bl < nb && n > 0) {
          ((cuda::std::get<I>(loaded)[k] = read(cuda::std::get<I>(ins), in_base[I], smem, bl, al, n)), ...);
        }
      }
      EW_DETAIL_UNROLL
      for (int k = 0; k < chunk; ++k) {
        const int s = thread + (k0 + k) * threads;
        const int bl = s / per_row, al = s % per_row * Vec;
        const int n = na - al < Vec ? na - al : Vec;
        if (s < slots && bl < nb && n > 0) {
          cuda::std::tuple<vector_word<out_t<O>, Vec>...> results;
          EW_DETAIL_UNROLL
          for (int j = 0; j < Vec; ++j) {
            if (j < n) {
              auto r = op(cuda::std::get<I>(loaded)[k].elements.v[j]...);
              ((cuda::std::get<O>(results).elements.v[j] = convert<out_t<O>>(result_part<O, num_out>(r))),
               ...);
            }
          }
          (write(cuda::std::get<O>(outs), out_base[O], bl, al, n, cuda::std::get<O>(results)), ...);
        }
      }
    }
  }

  template <class T>
  EW_HD std::int64_t base_of(const tile_array<T, R>& o, const std::int64_t (&coord)[R], std::int64_t a0,
                             std::int64_t b0) const {
    return row_offset(o.stride, coord, p.rank) + a0 * o.a + b0 * o.b;
  }
  EW_HD std::int64_t base_of(const tile_affine<R>& o, const std::int64_t (&coord)[R], std::int64_t a0,
                             std::int64_t b0) const {
    return row_offset(o.stride, coord, p.rank) + a0 * o.a + b0 * o.b;
  }
  template <class Uniform>
  EW_HD std::int64_t base_of(const tile_uniform<Uniform>&, const std::int64_t (&)[R], std::int64_t,
                             std::int64_t) const {
    return 0;
  }

  template <class T>
  EW_HD void write(const tile_array<T, R>& o, std::int64_t base, int bl, int al, int n,
                   const vector_word<T, Vec>& w) const {
    T* q = o.ptr + base + bl * o.b + al;
    if (n == Vec && reinterpret_cast<std::uintptr_t>(q) % (sizeof(T) * Vec) == 0) {
      store_vector<Vec>(q, w);
    } else {
      EW_DETAIL_UNROLL
      for (int j = 0; j < Vec; ++j) {
        if (j < n) {
          observe_access(q + j, sizeof(T), true);
          q[j] = w.elements.v[j];
        }
      }
    }
  }
};

/// The tile kernel: `outs[k][x] = op(ins[0][x], ...)[k]` over plan `p`, one tile per block, grid-stride
/// over the tiles when there are more than the grid; `smem_bytes` of dynamic shared memory hold the staged
/// tiles. The programmatic-launch wait and trigger are the 1-D kernel's (kernel.cuh says why).
#pragma nv_diagnostic push
#pragma nv_diag_suppress 1407
template <class Op, int Vec, int Side, class S, int R, class Outs, class Ins>
EW_KERNEL void __launch_bounds__(S::value.tile_block_threads, S::value.tile_min_blocks_per_sm)
    tile_elementwise_kernel(Op op, tile_plan<R> p, launch_shape s, Outs outs, Ins ins) {
  extern __shared__ __align__(16) unsigned char ew_tile_smem[];
  NV_IF_TARGET(NV_PROVIDES_SM_90, (cudaGridDependencySynchronize();
                                   if (s.early_trigger) cudaTriggerProgrammaticLaunchCompletion();));
  auto run = [&](auto& t) {
    for (std::uint64_t tile = blockIdx.x; tile < p.tiles; tile += gridDim.x) {
      const tile_place<R> q = tile_origin(p, tile);
      t.stage(q, ew_tile_smem, static_cast<int>(threadIdx.x));
      __syncthreads();
      t.compute(q, ew_tile_smem, static_cast<int>(threadIdx.x));
      __syncthreads();
    }
  };
  if constexpr (has_side_reductions_v<Op>) {
    tile_thread<Op, Vec, Side, S, R, Outs, Ins> t{start_side_reductions(op), outs, ins, p};
    run(t);
    finish_side_reductions(t.op);
  } else {
    tile_thread<Op, Vec, Side, S, R, Outs, Ins> t{op, outs, ins, p};
    run(t);
  }
}
#pragma nv_diagnostic pop

}  // namespace detail
}  // namespace ew
