// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// The vector-row kernel: a gather launch (gather.cuh) whose rows hold whole vectors and whose inputs
/// either run along the rows from a whole vector at every row or are broadcast along them
/// (`nd_call::rows_take_vectors`). Each thread takes `Unroll` vectors of the outputs by their flat index,
/// with no loop: a vector's row and column by one division by multiplication, the row's coordinates by one
/// more per dimension, shared by every input; then one 16-byte load for an input along the rows, one
/// element for an input broadcast along them, given to the op as it is where the body is compiled for that
/// set of broadcast inputs. This is the shape of Inductor's kernels for these launches, and ran the bias,
/// column and per-channel cells at ew's 1-D relu's speed where the row kernel (one row a block) and the
/// 1-D kernel with gather operands ran 0.5 to 14% slower (probe 10, H200, 2026-12-03, docs/PERFORMANCE.md
/// change 23). The per-thread body is `__host__ __device__` for the host tests.

#include <cstddef>
#include <cstdint>

#include <cuda/std/array>
#include <cuda/std/bit>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include <nv/target>

#include "../functor.cuh"
#include "config.cuh"
#include "fast_divmod.cuh"
#include "gather.cuh"
#include "kernel.cuh"
#include "launch_shape.cuh"
#include "vector_access.cuh"

namespace ew {
namespace detail {

/// The vectors of a vector-row launch over a coalesced shape of rank `last + 1` (`R` at most): `vectors`
/// output vectors in flat order, `row_vectors` of them a row; block `b` takes vectors `[b * Unroll *
/// threads, (b + 1) * Unroll * threads)`, thread `t` those `t` apart by `threads`. With `split`, rows of
/// `cols` elements that are not whole vectors, or outputs whose rows are `pitch` elements apart (pitched
/// or column-sliced arrays): the flat index runs over the outputs' memory, `pitch` elements a row, the
/// last `pitch - cols` of them padding that nothing reads or writes; a vector may end in the padding or
/// the next row, and the last one may be short (`vectors` rounds up).
template <int R>
struct vector_row_plan {
  /// A vector's row and its column in vectors; with `split`, a flat element's row and column (by `pitch`).
  fast_divmod row_vectors{1};
  /// Division of a row's index by the coalesced extent `d`, for `1 <= d < last`: the row's coordinates.
  fast_divmod extent[R] = {};
  int last = 0;
  std::uint32_t vectors = 0;
  std::uint32_t blocks = 0;
  /// Bit `i` set where input `i` is an array broadcast along the rows (its innermost stride 0).
  unsigned broadcast = 0;
  /// Rows that are not whole vectors or padded (the kernel's `Split`), or short rows that are not whole
  /// vectors (the kernel's `Wrap`); their length, the outputs' row pitch (`cols` where they are dense), and
  /// the flat elements the outputs span (padding included).
  bool split = false;
  bool wrap = false;
  std::uint32_t cols = 0;
  std::uint32_t pitch = 0;
  std::uint32_t elements = 0;
  /// With `split`: rows of whole vectors into padded outputs. The flat index runs over the rows' elements
  /// (`row_vectors` divides by `cols / Vec`), not over the outputs' memory, and each vector is stored at
  /// `row * pitch + col` in pieces of `piece` elements (a power of two dividing `Vec` and `pitch`: the
  /// alignment every row's start has), each one aligned store.
  bool pitched = false;
  std::uint32_t piece = 0;
};

/// Whether gather operand `X` is an array (`gather_input`) or the index (`gather_affine`).
template <class X>
inline constexpr bool is_gather_array_v = false;
template <class T, int R>
inline constexpr bool is_gather_array_v<gather_input<T, R>> = true;
template <class X>
inline constexpr bool is_gather_affine_v = false;
template <int R>
inline constexpr bool is_gather_affine_v<gather_affine<R>> = true;

/// The set of arrays among the operands `Ins`, a bit each.
template <class Ins, std::size_t... I>
constexpr unsigned gather_array_bits(cuda::std::index_sequence<I...>) {
  return ((is_gather_array_v<cuda::std::tuple_element_t<I, Ins>> ? 1u << I : 0u) | ... | 0u);
}

/// Subset `s` of the bits of `set`: bit `k` of `s` says whether `set`'s `k`-th lowest bit is in it.
constexpr unsigned subset_of(unsigned s, unsigned set) {
  unsigned r = 0;
  for (unsigned bit = 1, k = 0; bit != 0; bit <<= 1) {
    if ((set & bit) != 0) {
      if (((s >> k) & 1u) != 0) r |= bit;
      ++k;
    }
  }
  return r;
}
static_assert(subset_of(0b101u, 0b11010u) == 0b10010u && subset_of(0b11u, 0b11u) == 0b11u);

/// One input's share of one vector: `Vec` elements, or the one element of an array broadcast along the
/// row (`scalar`) where the walk is compiled for it.
template <class T, int Vec>
struct vector_row_value {
  vector_word<T, Vec> w;
  T scalar;
};

/// What one thread of a vector-row launch does (`Vec` elements a vector, `Unroll` vectors); `Ins` a tuple
/// of gather operands and uniform 1-D operands. `Set` (`0 <= Set < 2^n` for `n` arrays): the body for the
/// broadcast arrays `subset_of(Set, array_bits)` only, which `p.broadcast` must name; -1: every body, the
/// one for `p.broadcast` chosen at run time. `Split` (`p.split`): rows that are not whole vectors, or
/// padded outputs; an input along the rows is loaded as a vector where its address is a whole vector and
/// from the two whole vectors around it where not (`along`), and a vector that ends in the padding, the
/// next row or past the last element is done element by element (`edge`). `Wrap` (`p.wrap`): short rows
/// that are not whole vectors, dense outputs: every vector the same way, an input along the rows element
/// by element from its row and the next (`wrapped`), one broadcast along them as its two rows' elements;
/// only the launch's last vector, if short, element by element. `Split` launches with `p.pitched` (rows
/// of whole vectors into padded outputs) run as the plain form over the rows' elements, each vector
/// stored at its row's pitch in pieces (`store_pieces`).
template <class Op, int Vec, int Unroll, int R, class OutPtrs, class Ins, int Set = -1, bool Split = false,
          bool Wrap = false>
struct vector_row_thread {
  static_assert(!(Split && Wrap));
  static constexpr std::size_t num_in = cuda::std::tuple_size<Ins>::value;
  static constexpr std::size_t num_out = cuda::std::tuple_size<OutPtrs>::value;
  template <std::size_t K>
  using in_t = typename cuda::std::tuple_element_t<K, Ins>::value_type;
  template <std::size_t K>
  using out_t = cuda::std::remove_pointer_t<cuda::std::tuple_element_t<K, OutPtrs>>;
  /// Bit `i` set where input `i` is an array: what `vector_row_plan::broadcast` may hold.
  static constexpr unsigned array_bits = gather_array_bits<Ins>(cuda::std::make_index_sequence<num_in>{});
  /// Launches of up to this many arrays get a body compiled for each set of broadcast ones (2^n of
  /// them), which gives the op a broadcast element as it is; more take the body that tests each array's
  /// innermost stride and gives the op `Vec` copies.
  static constexpr int max_specialized_arrays = 3;
  static constexpr bool specialized = cuda::std::popcount(array_bits) <= max_specialized_arrays;

  Op op;
  OutPtrs outs;
  Ins ins;
  const vector_row_plan<R>& p;

  /// Block `b`'s vectors, this thread's share of them (`thread` of `threads`).
#pragma nv_exec_check_disable
  EW_HD void block(std::uint32_t b, std::uint32_t thread, std::uint32_t threads) {
    const std::uint32_t first = b * threads * static_cast<std::uint32_t>(Unroll) + thread;
    // The coalesced rank as a constant where it is 2 or 3 (bias, column: 2; per-channel: 3): no coordinate
    // arithmetic predicated on it.
    if (p.last == 1) {
      with_rank<1>(first, threads);
    } else if (p.last == 2 && R >= 3) {
      with_rank<(R >= 3 ? 2 : 1)>(first, threads);
    } else {
      with_rank<0>(first, threads);
    }
  }

 private:
  /// `Last`: the innermost dimension, or 0 for `p.last`.
#pragma nv_exec_check_disable
  template <int Last>
  EW_HD void with_rank(std::uint32_t first, std::uint32_t threads) {
    if constexpr (Set >= 0) {
      static_assert(specialized && Set < (1 << cuda::std::popcount(array_bits)));
      body<true, subset_of(static_cast<unsigned>(Set), array_bits), Last>(
          first, threads, cuda::std::make_index_sequence<num_in>{},
          cuda::std::make_index_sequence<num_out>{});
    } else if constexpr (specialized) {
      with_mask<Last>(first, threads,
                      cuda::std::make_index_sequence<(1u << cuda::std::popcount(array_bits))>{});
    } else {
      body<false, 0, Last>(first, threads, cuda::std::make_index_sequence<num_in>{},
                           cuda::std::make_index_sequence<num_out>{});
    }
  }

  /// `body<true, M>` for `M == p.broadcast` among the subsets `M` of the arrays (`S...` numbers them).
#pragma nv_exec_check_disable
  template <int Last, std::size_t... S>
  EW_HD void with_mask(std::uint32_t first, std::uint32_t threads, cuda::std::index_sequence<S...>) {
    (void)(((p.broadcast == subset_of(static_cast<unsigned>(S), array_bits))
                ? (body<true, subset_of(static_cast<unsigned>(S), array_bits), Last>(
                       first, threads, cuda::std::make_index_sequence<num_in>{},
                       cuda::std::make_index_sequence<num_out>{}),
                   true)
                : false) ||
           ...);
  }

  /// Input `K` of the vector at flat element `i` (row coordinates `coord`, column `col` in elements):
  /// with `Known`, the arrays in `Mask` are broadcast along the row and the others run along it.
  template <bool Known, unsigned Mask, int Last, std::size_t K, class X>
  EW_HD vector_row_value<in_t<K>, Vec> input(const X& x, std::uint32_t i, const std::uint32_t (&coord)[R],
                                             std::uint32_t col) const {
    vector_row_value<in_t<K>, Vec> r{};
    if constexpr (is_gather_array_v<X>) {
      const std::uint32_t off = row_offset<Last>(x, coord);
      if constexpr (Known && ((Mask >> K) & 1u) != 0) {
        r.scalar = x.ptr[off];
      } else if constexpr (Known) {
        r.w = x.flat ? along<K>(x.ptr, i, p.elements) : along<K>(x.ptr + off, col, p.cols);
      } else if (x.map.inner_stride == 0) {
        const in_t<K> v = x.ptr[off];
        EW_DETAIL_UNROLL
        for (int j = 0; j < Vec; ++j) r.w.elements.v[j] = v;
      } else {
        r.w = x.flat ? along<K>(x.ptr, i, p.elements) : along<K>(x.ptr + off, col, p.cols);
      }
    } else if constexpr (is_gather_affine_v<X>) {
      std::int64_t first = static_cast<std::int64_t>(i), step = 1;
      if (!x.flat) {
        const std::uint32_t off = row_offset<Last>(x, coord);
        step = x.map.inner_stride;
        first = static_cast<std::int64_t>(off) + static_cast<std::int64_t>(col) * step;
      }
      EW_DETAIL_UNROLL
      for (int j = 0; j < Vec; ++j) r.w.elements.v[j] = first + j * step;
    } else {
      r.w = x.template vector<Vec>(static_cast<std::size_t>(i));
    }
    return r;
  }

  /// `Vec` elements of input `K` from element `at` of the run `[base, base + len)` (a row, or a flat
  /// array): one vector load where they are a whole vector, which is always so but in `Split` launches
  /// (their rows start anywhere in one). There, off a vector, the two whole vectors around them shifted
  /// together (`funnel_elements`) where both lie inside the run, and element by element where not (a run's
  /// first and last vectors): no byte outside the run is read.
  template <std::size_t K>
  EW_HD static vector_word<in_t<K>, Vec> along(const in_t<K>* base, std::uint32_t at, std::uint32_t len) {
    using T = in_t<K>;
    const T* q = base + at;
    if constexpr (Split || Wrap) {
      const auto misaligned =
          static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(q) % (sizeof(T) * Vec));
      if (misaligned != 0) {
        const std::uint32_t k = misaligned / static_cast<std::uint32_t>(sizeof(T));  // elements past a vector
        if constexpr (sizeof(T) * Vec == 16 && uses_word_v<T, Vec>) {
          if (at >= k && at - k + 2 * static_cast<std::uint32_t>(Vec) <= len)
            return funnel_elements<T, Vec>(load_vector<Vec>(q - k), load_vector<Vec>(q - k + Vec), k);
        }
        vector_word<T, Vec> w;
        EW_DETAIL_UNROLL
        for (int j = 0; j < Vec; ++j) w.elements.v[j] = q[j];
        return w;
      }
    }
    return load_vector<Vec>(q);
  }

  /// `Wrap`: input `K` of the vector at flat element `i`, column `col` of the row at `coord`, whose
  /// elements from `p.cols - col` on are in the next row (at `next`): an array along the rows element by
  /// element, one broadcast along them its two rows' elements, the index by element; uniform operands and
  /// arrays laid out as the outputs as in the other forms.
  /// With `Known`, the arrays in `Mask` are broadcast along the rows and the others run along them (no
  /// test of the stride, one path compiled each).
  template <bool Known, unsigned Mask, int Last, std::size_t K, class X>
  EW_HD vector_row_value<in_t<K>, Vec> wrapped(const X& x, std::uint32_t i, const std::uint32_t (&coord)[R],
                                               const std::uint32_t (&next)[R], std::uint32_t col) const {
    vector_row_value<in_t<K>, Vec> r{};
    constexpr bool known_broadcast = Known && ((Mask >> K) & 1u) != 0;
    if constexpr (is_gather_array_v<X> || is_gather_affine_v<X>) {
      if constexpr (is_gather_array_v<X> && !known_broadcast) {
        if (x.flat) {
          r.w = along<K>(x.ptr, i, p.elements);
          return r;
        }
      }
      // The next row is read only where the vector reaches it (the last row has none).
      const std::uint32_t here = row_offset<Last>(x, coord), there = row_offset<Last>(x, next);
      if constexpr (known_broadcast) {
        r.w = two_rows<K>(x.ptr, here, there, col);
      } else {
        if constexpr (is_gather_array_v<X> && !Known) {
          if (x.map.inner_stride == 0) {
            r.w = two_rows<K>(x.ptr, here, there, col);
            return r;
          }
        }
        // Along the rows (inner stride 1: a gather launch has no other).
        if constexpr (is_gather_array_v<X>) {
          r.w = two_row_run<K>(x.ptr, here + col, there, p.cols - col);
        } else {
          EW_DETAIL_UNROLL
          for (int j = 0; j < Vec; ++j) {
            const bool on = col + j >= p.cols;
            r.w.elements.v[j] = edge_element(x, i + j, on ? there : here, on ? col + j - p.cols : col + j);
          }
        }
      }
    } else {
      r.w = x.template vector<Vec>(static_cast<std::size_t>(i));
    }
    return r;
  }

  /// `Wrap`: an array broadcast along the rows, for the vector at column `col` of the row whose element is
  /// at `here` (the next row's at `there`): the row's element up to the row's end, the next row's after it.
  template <std::size_t K>
  EW_HD vector_word<in_t<K>, Vec> two_rows(const in_t<K>* ptr, std::uint32_t here, std::uint32_t there,
                                           std::uint32_t col) const {
    const in_t<K> a = ptr[here];
    const in_t<K> b = col + static_cast<std::uint32_t>(Vec) > p.cols ? ptr[there] : a;
    vector_word<in_t<K>, Vec> w;
    EW_DETAIL_UNROLL
    for (int j = 0; j < Vec; ++j) w.elements.v[j] = col + j < p.cols ? a : b;
    return w;
  }

  /// `Wrap`: `Vec` elements of input `K` along the rows, the first `k` of them (at least one) from element
  /// `from` on, the rest from element `next` on (the next row's first). Element `j` is loaded from one of
  /// two addresses fixed for the vector, chosen by `j < k`, at the constant offset `j`: no index arithmetic
  /// per element (the form before, an index per element widened to an address, took 7 instructions an
  /// element of the short bias bf16 in the SASS of CUDA 13.0), each load an `ld.global` (`load_global`:
  /// from an address held as an integer, a plain load is a generic one). 8- and 16-bit elements are packed
  /// into 32-bit words as they arrive.
  template <std::size_t K>
  EW_HD static vector_word<in_t<K>, Vec> two_row_run(const in_t<K>* ptr, std::uint32_t from,
                                                     std::uint32_t next, std::uint32_t k) {
    using T = in_t<K>;
    // Element j is at a0 + j (j < k) or a1 + j (j >= k): a1 is `next` shifted back by k elements, in
    // unsigned address arithmetic (it may lie before the array; only a1 + j for j >= k is read).
    const std::uintptr_t a0 = reinterpret_cast<std::uintptr_t>(ptr + from);
    const std::uintptr_t a1 = reinterpret_cast<std::uintptr_t>(ptr) +
                              static_cast<std::uintptr_t>(next) * sizeof(T) -
                              static_cast<std::uintptr_t>(k) * sizeof(T);
    using U = unsigned_of_size_t<sizeof(T)>;
    const auto address = [&](int j) { return (static_cast<std::uint32_t>(j) < k ? a0 : a1) + j * sizeof(T); };
    const auto raw = [&](auto j) { return load_global<U>(address(j)); };  // generic: U may be void
    vector_word<T, Vec> w;
    if constexpr (cuda::std::is_void_v<U>) {  // no integer of its size: a plain (generic) load
      EW_DETAIL_UNROLL
      for (int j = 0; j < Vec; ++j) w.elements.v[j] = *reinterpret_cast<const T*>(address(j));
    } else if constexpr (sizeof(T) <= 2 && sizeof(T) * Vec == 16 && uses_word_v<T, Vec>) {
      constexpr int per_word = 4 / static_cast<int>(sizeof(T));
      std::uint32_t words[4];
      EW_DETAIL_UNROLL
      for (int q = 0; q < 4; ++q) {
        std::uint32_t v = 0;
        EW_DETAIL_UNROLL
        for (int e = 0; e < per_word; ++e) {
          v |= static_cast<std::uint32_t>(raw(q * per_word + e)) << (8 * sizeof(T) * e);
        }
        words[q] = v;
      }
      w.word.x = words[0];
      w.word.y = words[1];
      w.word.z = words[2];
      w.word.w = words[3];
    } else {
      EW_DETAIL_UNROLL
      for (int j = 0; j < Vec; ++j) w.elements.v[j] = cuda::std::bit_cast<T>(raw(j));
    }
    return w;
  }

  /// The coordinates of row `row` along the coalesced dimensions before the innermost.
  template <int Last>
  EW_HD void row_coords(std::uint32_t row, std::uint32_t (&coord)[R]) const {
    EW_DETAIL_UNROLL
    for (int d = R - 1; d >= 1; --d) {
      if (d < (Last > 0 ? Last : p.last)) {
        std::uint32_t next, c;
        p.extent[d].divmod(row, next, c);
        coord[d] = c;
        row = next;
      }
    }
    coord[0] = row;
  }

  /// The coordinates of the row after the one at `coord`: one carried in from the innermost of them, no
  /// division (`row_coords` of `row + 1` gives the same).
  template <int Last>
  EW_HD void next_row_coords(const std::uint32_t (&coord)[R], std::uint32_t (&next)[R]) const {
    bool carry = true;
    EW_DETAIL_UNROLL
    for (int d = R - 1; d >= 1; --d) {
      if (d < (Last > 0 ? Last : p.last)) {
        const std::uint32_t c = coord[d] + (carry ? 1u : 0u);
        carry = c == p.extent[d].divisor;
        next[d] = carry ? 0u : c;
      }
    }
    next[0] = coord[0] + (carry ? 1u : 0u);
  }

  /// Input `K`'s offset of the row at `coord` (arrays and the index; 0 for the rest).
  template <int Last, class X>
  EW_HD std::uint32_t row_offset(const X& x, const std::uint32_t (&coord)[R]) const {
    std::uint32_t off = 0;
    if constexpr (is_gather_array_v<X> || is_gather_affine_v<X>) {
      EW_DETAIL_UNROLL
      for (int d = 0; d < R; ++d) {
        if (d < (Last > 0 ? Last : p.last)) off += coord[d] * x.map.stride[d];
      }
    }
    return off;
  }

  /// Element `i` of input `X` at column `col` of the row at offset `off` (`edge`).
  template <class X>
  EW_HD static auto edge_element(const X& x, std::uint32_t i, std::uint32_t off, std::uint32_t col) {
    if constexpr (is_gather_array_v<X>) {
      return x.ptr[x.flat ? i : off + col * static_cast<std::uint32_t>(x.map.inner_stride)];
    } else if constexpr (is_gather_affine_v<X>) {
      return x.flat ? static_cast<std::int64_t>(i)
                    : static_cast<std::int64_t>(off) + static_cast<std::int64_t>(col) * x.map.inner_stride;
    } else {
      return x.element(static_cast<std::size_t>(i));
    }
  }

  /// A `Split` launch's vector `v` that ends in the padding, the next row or past the last element, element
  /// by element: the elements from column `col` of row `row` to the row's end, then those of the next row
  /// (none of the padding between).
#pragma nv_exec_check_disable
  template <int Last, std::size_t... I, std::size_t... O>
  EW_HD void edge(std::uint32_t v, cuda::std::index_sequence<I...>, cuda::std::index_sequence<O...>) {
    const std::uint32_t i = v * static_cast<std::uint32_t>(Vec);
    std::uint32_t row, col;
    p.row_vectors.divmod(i, row, col);
    std::uint32_t here[R] = {}, next[R] = {};
    row_coords<Last>(row, here);
    next_row_coords<Last>(here, next);
    const std::uint32_t off_here[] = {row_offset<Last>(cuda::std::get<I>(ins), here)..., 0u};
    const std::uint32_t off_next[] = {row_offset<Last>(cuda::std::get<I>(ins), next)..., 0u};
    // Each element loaded, computed and stored in turn: loading them all first (change 28's first form)
    // took the kernel from 32 to 40 registers and ran the odd bias 10 to 27% slower (docs/PERFORMANCE.md).
    EW_DETAIL_UNROLL
    for (std::uint32_t j = 0; j < static_cast<std::uint32_t>(Vec); ++j) {
      const bool on = col + j >= p.pitch;  // in the next row (a vector is never longer than a row)
      const std::uint32_t c = on ? col + j - p.pitch : col + j;
      if (i + j < p.elements && c < p.cols) {  // not past the end, not padding
        auto r = op(edge_element(cuda::std::get<I>(ins), i + j, on ? off_next[I] : off_here[I], c)...);
        cuda::std::tuple<vector_word<out_t<O>, 1>...> results;
        ((cuda::std::get<O>(results).elements.v[0] = convert<out_t<O>>(result_part<O, num_out>(r))), ...);
        (store_vector<1>(cuda::std::get<O>(outs) + i + j, cuda::std::get<O>(results)), ...);
      }
    }
  }

  /// A pitched vector of an output (`p.pitched`): stored at `q` in pieces of `piece` elements (a power of
  /// two, at most `Vec`), each one aligned access: one 16-byte store where the rows start on a vector, else
  /// as many as the rows' alignment asks (a row pitch of 1250 bf16 elements: four 4-byte stores). 16-byte
  /// vectors are cut from their four 32-bit words (no element taken apart: an element-wise form took the
  /// Split kernels of u8 from 32 to 44 registers); others element by element.
  template <class T>
  EW_HD static void store_pieces(T* q, const vector_word<T, Vec>& w, std::uint32_t piece) {
    const std::uint32_t bytes = piece * static_cast<std::uint32_t>(sizeof(T));
    if (piece >= static_cast<std::uint32_t>(Vec)) {
      store_vector<Vec>(q, w);
    } else if constexpr (sizeof(T) * Vec == 16 && uses_word_v<T, Vec>) {
      auto* b = reinterpret_cast<unsigned char*>(q);
      const std::uint32_t words[4] = {w.word.x, w.word.y, w.word.z, w.word.w};
      if (bytes == 8) {
        store_piece(b, uint2{words[0], words[1]});
        store_piece(b + 8, uint2{words[2], words[3]});
      } else if (bytes == 4) {
        EW_DETAIL_UNROLL
        for (int k = 0; k < 4; ++k) store_piece(b + 4 * k, words[k]);
      } else if (bytes == 2) {
        EW_DETAIL_UNROLL
        for (int k = 0; k < 8; ++k)
          store_piece(b + 2 * k, static_cast<unsigned short>(words[k / 2] >> (16 * (k % 2))));
      } else {
        EW_DETAIL_UNROLL
        for (int k = 0; k < 16; ++k)
          store_piece(b + k, static_cast<unsigned char>(words[k / 4] >> (8 * (k % 4))));
      }
    } else {
      EW_DETAIL_UNROLL
      for (int j = 0; j < Vec; ++j) {
        vector_word<T, 1> one;
        one.elements.v[0] = w.elements.v[j];
        store_vector<1>(q + j, one);
      }
    }
  }

  /// One piece of a pitched vector: `w` at `b`, aligned to its size.
  template <class W>
  EW_HD static void store_piece(unsigned char* b, W w) {
    observe_access(b, sizeof(W), true);
    store_word(reinterpret_cast<W*>(b), w);
  }

  /// Element `j` of input `K`'s value: the broadcast element where `Mask` says so.
  template <bool Known, unsigned Mask, std::size_t K>
  EW_HD static in_t<K> element(const vector_row_value<in_t<K>, Vec>& v, int j) {
    if constexpr (!Wrap && Known && ((Mask >> K) & 1u) != 0) {
      return v.scalar;
    } else {
      return v.w.elements.v[j];
    }
  }

#pragma nv_exec_check_disable
  template <bool Known, unsigned Mask, int Last, std::size_t... I, std::size_t... O>
  EW_HD void body(std::uint32_t first, std::uint32_t threads, cuda::std::index_sequence<I...>,
                  cuda::std::index_sequence<O...>) {
    cuda::std::tuple<cuda::std::array<vector_row_value<in_t<I>, Vec>, Unroll>...> loaded;
    // `Split`: the vectors `edge` does (1), and those wholly in the outputs' padding, which do nothing (2);
    // with `p.pitched`, each vector's element offset in the outputs.
    unsigned char edges[Unroll] = {};
    std::uint32_t at[Unroll] = {};
    EW_DETAIL_UNROLL
    for (int u = 0; u < Unroll; ++u) {  // every load first
      const std::uint32_t v = first + static_cast<std::uint32_t>(u) * threads;
      if (v < p.vectors) {
        const std::uint32_t i = v * static_cast<std::uint32_t>(Vec);
        std::uint32_t row, col;
        if constexpr (Wrap) {
          edges[u] = i + static_cast<std::uint32_t>(Vec) > p.elements ? 1 : 0;  // the last vector, short
          if (edges[u] != 0) continue;
          p.row_vectors.divmod(i, row, col);
        } else if constexpr (Split) {
          if (p.pitched) {  // over the rows' elements: `i` is the flat index of a dense layout
            p.row_vectors.divmod(v, row, col);
            col *= static_cast<std::uint32_t>(Vec);
            at[u] = row * p.pitch + col;
          } else {
            p.row_vectors.divmod(i, row, col);
            const std::uint32_t end = col + static_cast<std::uint32_t>(Vec);  // `col` below `p.pitch`
            edges[u] = col >= p.cols && end <= p.pitch
                           ? 2
                           : (end > p.cols || i + static_cast<std::uint32_t>(Vec) > p.elements ? 1 : 0);
            if (edges[u] != 0) continue;
          }
        } else {
          p.row_vectors.divmod(v, row, col);
          col *= static_cast<std::uint32_t>(Vec);
        }
        std::uint32_t coord[R] = {};
        row_coords<Last>(row, coord);
        if constexpr (Wrap) {
          std::uint32_t next[R] = {};
          next_row_coords<Last>(coord, next);
          ((cuda::std::get<I>(loaded)[u] =
                wrapped<Known, Mask, Last, I>(cuda::std::get<I>(ins), i, coord, next, col)),
           ...);
        } else {
          ((cuda::std::get<I>(loaded)[u] =
                input<Known, Mask, Last, I>(cuda::std::get<I>(ins), i, coord, col)),
           ...);
        }
      }
    }
    EW_DETAIL_UNROLL
    for (int u = 0; u < Unroll; ++u) {
      const std::uint32_t v = first + static_cast<std::uint32_t>(u) * threads;
      if (v < p.vectors) {
        if constexpr (Split || Wrap) {
          if (edges[u] != 0) {
            if (edges[u] == 1)
              edge<Last>(v, cuda::std::index_sequence<I...>{}, cuda::std::index_sequence<O...>{});
            continue;
          }
        }
        cuda::std::tuple<vector_word<out_t<O>, Vec>...> results;
        EW_DETAIL_UNROLL
        for (int j = 0; j < Vec; ++j) {
          auto r = op(element<Known, Mask, I>(cuda::std::get<I>(loaded)[u], j)...);
          ((cuda::std::get<O>(results).elements.v[j] = convert<out_t<O>>(result_part<O, num_out>(r))), ...);
        }
        if constexpr (Split) {
          if (p.pitched) {
            (store_pieces(cuda::std::get<O>(outs) + at[u], cuda::std::get<O>(results), p.piece), ...);
            continue;
          }
        }
        const std::size_t i = static_cast<std::size_t>(v) * Vec;
        (store_vector<Vec>(cuda::std::get<O>(outs) + i, cuda::std::get<O>(results)), ...);
      }
    }
  }
};

/// The blocks an SM must hold at once for the Split and Wrap forms, for `__launch_bounds__`: as many as 32
/// registers a thread allow (16 of 128 threads), which ptxas met without spilling in every Split and Wrap
/// kernel of `ew_cells` (CUDA 13.0) but two: the Split form of three arrays none of them broadcast along the
/// rows (per-channel statistics of channels-last data) keeps 8 bytes on the stack where it took 48
/// registers. Left to itself ptxas took 34 to 48 for some (the Wrap form's
/// along-the-rows path, the Split form's pitched stores: 32 -> 34 to 44 with change 33), and the
/// per-channel add over bf16 `[64, 256, 13, 13]` ran 3 to 7% slower at 34 registers than at 32
/// (docs/PERFORMANCE.md, changes 31 to 33). The plain form: no bound.
template <bool Bounded, int Threads>
inline constexpr int vector_row_min_blocks = Bounded ? 65536 / (32 * Threads) : 1;

/// The vector-row kernel: block `blockIdx.x` of plan `p`, `Threads` a block, no loop; `Set`, `Split` and
/// `Wrap` as
/// in `vector_row_thread`. The programmatic-launch wait and trigger are the 1-D kernel's (kernel.cuh says
/// why). Ops with side reductions do not take it (each block would add its partial sums to the targets: one
/// vector a thread).
#pragma nv_diagnostic push
#pragma nv_diag_suppress 1407
template <class Op, int Vec, int Unroll, int Threads, int R, class OutPtrs, class Ins, int Set, bool Split,
          bool Wrap>
EW_KERNEL void __launch_bounds__(Threads, vector_row_min_blocks<Split || Wrap, Threads>)
    vector_row_elementwise_kernel(Op op, vector_row_plan<R> p, launch_shape s, OutPtrs outs, Ins ins) {
  NV_IF_TARGET(NV_PROVIDES_SM_90, (cudaGridDependencySynchronize();
                                   if (s.early_trigger) cudaTriggerProgrammaticLaunchCompletion();));
  vector_row_thread<Op, Vec, Unroll, R, OutPtrs, Ins, Set, Split, Wrap> t{op, outs, ins, p};
  t.block(blockIdx.x, threadIdx.x, Threads);
}
#pragma nv_diagnostic pop

}  // namespace detail
}  // namespace ew
