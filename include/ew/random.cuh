// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Random numbers keyed by element: counter-based Philox-4x32-10 (Salmon et al., SC 2011; the generator
/// of cuRAND's `curandStatePhilox4_32_10_t` and of PyTorch's CUDA RNG), as inputs of 1-D and
/// N-dimensional launches, and `ew::dropout`.
///
/// @code
/// // y = dropout(x, p = 0.1) with its mask, the same mask for the same (seed, offset) on any launch shape.
/// ew::elementwise(ew::dropout<float>{0.1f}, n, ew::out(y, mask), ew::in(x, ew::random_bits({seed, offset})),
///                 stream);
/// @endcode
///
/// Element `i` of a random operand is a function of (seed, offset, i) only: word `i % 4` of
/// `ew::philox4x32_10({offset_lo, offset_hi, q_lo, q_hi}, {seed_lo, seed_hi})` with `q = i / 4`. That is
/// cuRAND's stream: the four words of block `q` are what `curand4` returns after `curand_init(seed, q,
/// 4 * offset, &state)`. So the value at `i` does not depend on the grid, the block, the vector width, the
/// alignment of the arrays or the other operands, and a graph replays the same values; with the seed and
/// offset in device memory (`ew::random_bits(d_seed)`), each replay reads them when it runs, so a graph
/// advances its offset without being rebuilt. Four consecutive elements share one Philox evaluation (eight
/// of `ew::random_bits16`, which takes the halves of the same words).
/// Launches with different offsets use disjoint counters whatever their sizes (the offset and the block
/// index are separate counter words), so advancing the offset by 1 per launch is enough.
///
/// In an N-dimensional launch `i` is the element's row-major index in the launch's shape, so dropout over a
/// strided view (a slice, a transposed or padded tensor) gives each element the value it has in a 1-D
/// launch over a contiguous array of that shape. The 1-D kernel reads four elements from each Philox
/// evaluation; an N-dimensional launch reads the operand as `ew::index()` and keeps each thread's last
/// block (detail/index_mapped.cuh), so consecutive elements of a thread share it too.

#include <cstdint>

#include <cuda/std/cmath>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include <nv/target>

#include "detail/config.cuh"
#include "detail/operand.cuh"
#include "detail/partition.cuh"
#include "detail/vector_access.cuh"
#include "functor.cuh"

namespace ew {

/// The key of a random operand: the seed, and the offset that separates the streams of successive launches
/// with the same seed (PyTorch's `philox_seed` and `philox_offset`). 16 bytes, aligned to 16 so that a
/// kernel reads one from device memory in one access.
struct alignas(16) philox_seed {
  std::uint64_t seed = 0;
  std::uint64_t offset = 0;
};

/// Four 32-bit words, the output or counter of Philox-4x32.
struct philox_block {
  std::uint32_t x, y, z, w;
};

namespace detail {
/// `a * b` as 64 bits, its halves in `hi` and `lo`. On the device `__umulhi` and a 32-bit multiply, which
/// ptxas fuses into one IMAD.WIDE.U32: the same product written as a 64-bit multiply of the zero-extended
/// words became a 64-bit multiply in the PTX, and ptxas added a zero register to each high half after
/// it, about 20 extra instructions a Philox block (CUDA 13.0, sm_90: the bf16 dropout's whole-tile path
/// for 16 elements, four blocks, went from 424 instructions to 348; docs/PERFORMANCE.md, change 43).
EW_HD void mulhilo(std::uint32_t a, std::uint32_t b, std::uint32_t& hi, std::uint32_t& lo) {
  NV_IF_TARGET(NV_IS_DEVICE, (hi = __umulhi(a, b); lo = a * b;), ({
                 const std::uint64_t p = static_cast<std::uint64_t>(a) * b;
                 hi = static_cast<std::uint32_t>(p >> 32);
                 lo = static_cast<std::uint32_t>(p);
               }));
}
}  // namespace detail

/// Philox-4x32-10: ten rounds of the Philox bijection of `counter` keyed by `key`, Random123's
/// `philox4x32(ctr, key)` (its multipliers 0xD2511F53, 0xCD9E8D57 and Weyl key steps 0x9E3779B9,
/// 0xBB67AE85). `__host__ __device__`.
EW_HD philox_block philox4x32_10(philox_block counter, std::uint32_t key0, std::uint32_t key1) {
  constexpr std::uint32_t m0 = 0xD2511F53u, m1 = 0xCD9E8D57u, w0 = 0x9E3779B9u, w1 = 0xBB67AE85u;
  philox_block c = counter;
  std::uint32_t k0 = key0, k1 = key1;
  EW_DETAIL_UNROLL
  for (int r = 0; r < 10; ++r) {
    if (r > 0) {
      k0 += w0;
      k1 += w1;
    }
    std::uint32_t hi0, lo0, hi1, lo1;
    detail::mulhilo(m0, c.x, hi0, lo0);
    detail::mulhilo(m1, c.z, hi1, lo1);
    c = philox_block{hi1 ^ c.y ^ k0, lo1, hi0 ^ c.w ^ k1, lo0};
  }
  return c;
}

/// Block `q` of the stream of `key`: `philox4x32_10({offset_lo, offset_hi, q_lo, q_hi}, {seed_lo, seed_hi})`.
EW_HD philox_block philox_stream_block(const philox_seed& key, std::uint64_t q) {
  return philox4x32_10(
      philox_block{static_cast<std::uint32_t>(key.offset), static_cast<std::uint32_t>(key.offset >> 32),
                   static_cast<std::uint32_t>(q), static_cast<std::uint32_t>(q >> 32)},
      static_cast<std::uint32_t>(key.seed), static_cast<std::uint32_t>(key.seed >> 32));
}

/// What a random operand gives each element.
enum class random_kind {
  bits,     ///< the 32-bit word, `std::uint32_t`
  bits16,   ///< half a word, `std::uint16_t`: eight elements from one Philox block (see `ew::random_bits16`)
  uniform,  ///< `float` in [0, 1): the word's top 24 bits times 2^-24 (every value a multiple of 2^-24)
  normal    ///< `float`, standard normal: the Box-Muller transform of words (0, 1) and (2, 3) of a block,
            ///< `sqrt(-2 log u1) * (cos, sin)(2 pi u2)` with `u1` in (0, 1]
};

/// A random input (`InMemory`: the key is read from device memory when the kernel runs).
/// Made by `ew::random_bits`, `ew::random_uniform` and `ew::random_normal`.
template <random_kind K, bool InMemory>
struct random_operand {
  philox_seed key;
  const philox_seed* key_ptr;
};

/// The 32-bit Philox word of each element (`std::uint32_t`), for `ew::dropout` or your own op; `key` by
/// value (kept in the kernel's parameters: a captured graph keeps it).
inline random_operand<random_kind::bits, false> random_bits(philox_seed key) { return {key, nullptr}; }
/// As above, the key read from device memory `*key` when the kernel runs (graph replays see new offsets).
inline random_operand<random_kind::bits, true> random_bits(const philox_seed* key) { return {{}, key}; }
/// 16 random bits per element (`std::uint16_t`), for `ew::dropout` where a keep probability in steps of
/// 2^-16 is enough: element `i` is half `i % 2` (the low 16 bits first) of word `(i / 2) % 4` of block
/// `i / 8` of the same (seed, offset) stream as `ew::random_bits`, so one Philox evaluation serves eight
/// elements instead of four. Why: Philox-4x32-10 costs about 70 instructions a block, and bf16 dropout
/// with one word an element was bound by issue on the H200 (0.86 of ew's relu, docs/PERFORMANCE.md,
/// change 63). They are not independent of `ew::random_bits`'s for the same key: element `2j + 1` here is
/// the top half of the word `ew::random_bits` gives element `j`, so dropout masks drawn from both forms
/// with one key agree at those elements; give each form its own offset or seed.
inline random_operand<random_kind::bits16, false> random_bits16(philox_seed key) { return {key, nullptr}; }
/// As above, the key read from device memory `*key` when the kernel runs.
inline random_operand<random_kind::bits16, true> random_bits16(const philox_seed* key) { return {{}, key}; }
/// A uniform `float` in [0, 1) per element (multiples of 2^-24).
inline random_operand<random_kind::uniform, false> random_uniform(philox_seed key) { return {key, nullptr}; }
/// As above, the key read from device memory.
inline random_operand<random_kind::uniform, true> random_uniform(const philox_seed* key) { return {{}, key}; }
/// A standard normal `float` per element (Box-Muller, two per pair of words).
inline random_operand<random_kind::normal, false> random_normal(philox_seed key) { return {key, nullptr}; }
/// As above, the key read from device memory.
inline random_operand<random_kind::normal, true> random_normal(const philox_seed* key) { return {{}, key}; }

namespace detail {

/// Word `k` (0..3) of a block.
EW_HD std::uint32_t block_word(const philox_block& b, int k) {
  return k == 0 ? b.x : (k == 1 ? b.y : (k == 2 ? b.z : b.w));
}

/// `w`'s top 24 bits times 2^-24: a float in [0, 1), exact.
EW_HD float uniform_of(std::uint32_t w) { return static_cast<float>(w >> 8) * 5.9604644775390625e-08f; }

/// One of the Box-Muller pair of words `a`, `b`: `sqrt(-2 log u1) * cos(2 pi u2)` (`second` false) or
/// `* sin(...)`, with `u1 = ((a >> 8) + 1) * 2^-24` in (0, 1] and `u2 = uniform_of(b)`.
EW_HD float normal_of(std::uint32_t a, std::uint32_t b, bool second) {
  const float u1 = static_cast<float>((a >> 8) + 1u) * 5.9604644775390625e-08f;
  const float u2 = uniform_of(b);
  const float r = cuda::std::sqrt(-2.0f * cuda::std::log(u1));
  float s, c;
  NV_IF_ELSE_TARGET(NV_IS_DEVICE, (::sincospif(2.0f * u2, &s, &c);),
                    (const double t = 6.283185307179586476925 * static_cast<double>(u2);
                     s = static_cast<float>(cuda::std::sin(t)); c = static_cast<float>(cuda::std::cos(t));));
  return r * (second ? s : c);
}

/// Elements of kind `K` from one Philox block: 8 for `bits16`, else 4.
template <random_kind K>
inline constexpr int elements_per_block = K == random_kind::bits16 ? 8 : 4;

/// The value type of a random operand of kind `K`.
template <random_kind K>
using random_value_t =
    cuda::std::conditional_t<K == random_kind::bits, std::uint32_t,
                             cuda::std::conditional_t<K == random_kind::bits16, std::uint16_t, float>>;

/// The 1-D kernel's random operand: element `i` from block `i / E`, `E = elements_per_block<K>`.
template <random_kind K, bool InMemory>
struct random_input {
  using value_type = random_value_t<K>;
  static constexpr int per_block = elements_per_block<K>;
  philox_seed key;
  const philox_seed* key_ptr;

  EW_HD philox_seed current_key() const {
    if constexpr (InMemory) {
      return *key_ptr;  // after the programmatic-launch wait, as every input (kernel.cuh)
    } else {
      return key;
    }
  }

  /// Element `k` of block `b` for a `k` known only at run time (16-bit elements: a select, not a branch).
  EW_HD static value_type from_block_at(const philox_block& b, int k) {
    if constexpr (K == random_kind::bits16) {
      return static_cast<std::uint16_t>(block_word(b, k / 2) >> (16 * (k % 2)));
    } else {
      return from_block(b, k);
    }
  }

  /// Element `k` (0 to `per_block - 1`) of block `b`; a normal takes the pair `k` belongs to.
  EW_HD static value_type from_block(const philox_block& b, int k) {
    if constexpr (K == random_kind::bits) {
      return block_word(b, k);
    } else if constexpr (K == random_kind::bits16) {
      return static_cast<std::uint16_t>(block_word(b, k / 2) >> (16 * (k % 2)));
    } else if constexpr (K == random_kind::uniform) {
      return uniform_of(block_word(b, k));
    } else {
      return k < 2 ? normal_of(b.x, b.y, k == 1) : normal_of(b.z, b.w, k == 3);
    }
  }

  EW_HD value_type element(std::size_t i) const {
    return from_block(philox_stream_block(current_key(), i / per_block), static_cast<int>(i % per_block));
  }

  /// The `Vec` elements from `i`: one Philox block per `per_block` elements, at every alignment (`i %
  /// per_block` picks a variant whose word indices are compile-time constants, so that nothing goes to
  /// local memory).
  template <int Vec>
  EW_HD vector_word<value_type, Vec> vector(std::size_t i) const {
    if constexpr (K == random_kind::bits16 && per_block % Vec == 0 && Vec < per_block) {
      // A vector that starts on a multiple of its width lies in one block: the block, then its words picked
      // by the start (a select), rather than a branch to one of `per_block` variants. An f32 dropout's whole
      // tile (4 elements a vector) took 229 SASS instructions through the variants, 178 through the select,
      // against 169 with 32-bit words (CUDA 13.0, sm_90; docs/PERFORMANCE.md, change 63).
      if (i % Vec == 0)
        return vector_in_block<Vec>(current_key(), i / per_block, static_cast<int>(i % per_block));
    }
    return vector_from<Vec, 0>(current_key(), i / per_block, static_cast<int>(i % per_block));
  }

 private:
  /// The `Vec` elements from element `first` (a multiple of `Vec`) of block `q`.
  template <int Vec>
  EW_HD static vector_word<value_type, Vec> vector_in_block(const philox_seed& k, std::uint64_t q,
                                                            int first) {
    const philox_block b = philox_stream_block(k, q);
    vector_word<value_type, Vec> u;
    if constexpr (Vec == 1) {
      u.elements.v[0] = from_block_at(b, first);
    } else {  // `first` even: the vector takes whole words from word first / 2
      constexpr int words = Vec / 2;
      const int w0 = first / 2;
      std::uint32_t w[words];
      EW_DETAIL_UNROLL
      for (int j = 0; j < words; ++j) w[j] = block_word(b, w0 + j);
      EW_DETAIL_UNROLL
      for (int j = 0; j < Vec; ++j) u.elements.v[j] = static_cast<std::uint16_t>(w[j / 2] >> (16 * (j % 2)));
    }
    return u;
  }

  template <int Vec, int First>
  EW_HD static vector_word<value_type, Vec> vector_from(const philox_seed& k, std::uint64_t q, int first) {
    if constexpr (First + 1 < per_block) {
      if (first != First) return vector_from<Vec, First + 1>(k, q, first);
    }
    return vector_at<Vec, First>(k, q);
  }

  template <int Vec, int First>
  EW_HD static vector_word<value_type, Vec> vector_at(const philox_seed& k, std::uint64_t q) {
    constexpr int blocks = (First + Vec + per_block - 1) / per_block;
    philox_block b[blocks];
    EW_DETAIL_UNROLL
    for (int j = 0; j < blocks; ++j) b[j] = philox_stream_block(k, q + static_cast<std::uint64_t>(j));
    vector_word<value_type, Vec> u;
    EW_DETAIL_UNROLL
    for (int j = 0; j < Vec; ++j) {
      u.elements.v[j] = from_block(b[(First + j) / per_block], (First + j) % per_block);
    }
    return u;
  }
};

}  // namespace detail

/// Dropout with drop probability `p` (`torch.nn.functional.dropout` in training): takes `(x, bits)`, a
/// value and its element's `ew::random_bits` word, and returns `(x * scale, keep)` for a kept element and
/// `(x * 0, false)` for a dropped one, `scale = 1 / (1 - p)` (0 when `p == 1`): the scaled output and the
/// mask, for `ew::out(y, mask)` (`bool` or any integer mask; `ew::out(y, ew::discard)` for the values
/// alone). `x * 0` keeps a NaN or infinite input NaN, as
/// PyTorch's `x * mask * scale`. An element is kept when its word is below `round((1 - p) * 2^32)`, so
/// the keep probability is `1 - p` within 2^-33. `p` is clamped to [0, 1] (NaN drops nothing).
///
/// With `ew::random_bits16` (a `std::uint16_t` an element) the element is kept when its 16 bits are below
/// `round((1 - p) * 2^16)`: the keep probability is `1 - p` within 2^-17 (p = 0.1 keeps 58982 / 65536 =
/// 0.899994), the scale still `1 / (1 - p)`, and one Philox evaluation serves eight elements rather than
/// four (bf16 dropout without its mask is bound by Philox's instructions on the H200).
///
/// In an `ew::compose` chain, dropout also takes a `cuda::std::tuple<T, std::uint32_t>` (the value and the
/// word), which `ew::carry_last` stages pass along: `ew::compose(ew::carry_last(ew::add<float>{}),
/// ew::dropout<float>{p})` over `ew::in(x, b, ew::random_bits(key))` is `dropout(x + b)`.
template <class T>
struct dropout {
  std::uint64_t keep_below;    ///< a 32-bit word below this keeps its element
  std::uint32_t keep_below16;  ///< 16 bits (`ew::random_bits16`) below this keep their element
  compute_t<T> scale;

  /// Dropout with drop probability `p`.
  EW_HD dropout(double p) : keep_below(0), keep_below16(0), scale(0) {
    const double q = p > 0 ? (p < 1 ? p : 1.0) : 0.0;  // NaN fails both tests: 0
    keep_below = static_cast<std::uint64_t>((1.0 - q) * 4294967296.0 + 0.5);
    keep_below16 = static_cast<std::uint32_t>((1.0 - q) * 65536.0 + 0.5);
    scale = q < 1 ? static_cast<compute_t<T>>(1.0 / (1.0 - q)) : compute_t<T>(0);
  }

  EW_HD cuda::std::tuple<T, bool> operator()(T x, std::uint32_t bits) const {
    return apply(x, bits < keep_below);
  }
  /// The 16-bit form (`ew::random_bits16`); a template so that an `int` argument takes the 32-bit form.
  template <class B, cuda::std::enable_if_t<cuda::std::is_same_v<B, std::uint16_t>, int> = 0>
  EW_HD cuda::std::tuple<T, bool> operator()(T x, B bits) const {
    return apply(x, static_cast<std::uint32_t>(bits) < keep_below16);
  }
  template <class B,
            cuda::std::enable_if_t<
                cuda::std::is_same_v<B, std::uint32_t> || cuda::std::is_same_v<B, std::uint16_t>, int> = 0>
  EW_HD cuda::std::tuple<T, bool> operator()(cuda::std::tuple<T, B> xb) const {
    return (*this)(cuda::std::get<0>(xb), cuda::std::get<1>(xb));
  }

 private:
  EW_HD cuda::std::tuple<T, bool> apply(T x, bool keep) const {
    return cuda::std::tuple<T, bool>(down<T>(up(x) * (keep ? scale : compute_t<T>(0))), keep);
  }
};

/// The stage `ew::carry_last(f)` makes: `f` applied to all arguments but the last, which it passes along
/// (`(a..., last) -> (f(a...), last)`, and `(y, last) -> (f(y), last)` from a previous such stage), so
/// that a random word reaches the `ew::dropout` at the end of a chain.
template <class F>
struct carry_last_stage {
  F f;

#pragma nv_exec_check_disable
  template <class... A, cuda::std::enable_if_t<(sizeof...(A) >= 2), int> = 0>
  EW_HD auto operator()(A... a) const {
    return apply_front(cuda::std::tuple<A...>(a...), cuda::std::make_index_sequence<sizeof...(A) - 1>{});
  }
#pragma nv_exec_check_disable
  template <class Y, class L>
  EW_HD auto operator()(cuda::std::tuple<Y, L> yl) const {
    using R = cuda::std::remove_cv_t<cuda::std::remove_reference_t<decltype(f(cuda::std::get<0>(yl)))>>;
    return cuda::std::tuple<R, L>(f(cuda::std::get<0>(yl)), cuda::std::get<1>(yl));
  }

 private:
#pragma nv_exec_check_disable
  template <class Tup, std::size_t... I>
  EW_HD auto apply_front(const Tup& t, cuda::std::index_sequence<I...>) const {
    using L = cuda::std::tuple_element_t<sizeof...(I), Tup>;
    using R = cuda::std::remove_cv_t<cuda::std::remove_reference_t<decltype(f(cuda::std::get<I>(t)...))>>;
    return cuda::std::tuple<R, L>(f(cuda::std::get<I>(t)...), cuda::std::get<sizeof...(I)>(t));
  }
};

/// `f` as a chain stage that carries its last argument along (see `carry_last_stage`).
template <class F>
EW_HD constexpr carry_last_stage<F> carry_last(F f) {
  return carry_last_stage<F>{f};
}

namespace detail {
/// A random operand in an N-dimensional launch (detail/index_mapped.cuh): element `i`'s value from its flat
/// index, the thread's last Philox block kept for its next element (the same block for up to four, or
/// eight of `bits16`).
template <random_kind K, bool InMemory>
struct random_from_index {
  random_input<K, InMemory> r;
  mutable std::uint64_t q = ~std::uint64_t{0};  // no element's block: i / 4 < 2^62
  mutable philox_block b{};

  EW_HD typename random_input<K, InMemory>::value_type operator()(std::int64_t i) const {
    constexpr int per_block = elements_per_block<K>;
    const std::uint64_t u = static_cast<std::uint64_t>(i);
    if (u / per_block != q) {
      q = u / per_block;
      b = philox_stream_block(r.current_key(), q);
    }
    return random_input<K, InMemory>::from_block(b, static_cast<int>(u % per_block));
  }
};

template <random_kind K, bool InMemory>
struct input_arg<random_operand<K, InMemory>> {
  static constexpr bool valid = true;
  using value_type = typename random_input<K, InMemory>::value_type;
  static constexpr memory_kind memory = InMemory ? memory_kind::single : memory_kind::none;
  static constexpr bool is_view = false;
  /// The 1-D kernel reads it (`to_1d`); an N-dimensional launch as the flat index through `index_map`.
  static constexpr bool one_dimensional_only = true;
  static constexpr bool read_as_index = true;
  static random_from_index<K, InMemory> index_map(random_operand<K, InMemory> r) { return {to_1d(r)}; }
  EW_HD static random_input<K, InMemory> to_1d(random_operand<K, InMemory> r) { return {r.key, r.key_ptr}; }
  static pointer_info info(random_operand<K, InMemory> r) {
    return {reinterpret_cast<std::uintptr_t>(r.key_ptr), sizeof(philox_seed), alignof(philox_seed), true};
  }
};
}  // namespace detail

}  // namespace ew
