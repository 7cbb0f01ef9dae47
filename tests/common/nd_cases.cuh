// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// Random N-dimensional layouts for the N-dimensional launch's tests (host simulation and GPU): extents,
// and for each operand a view of a buffer (offset, strides in a random order of dimensions, padding,
// broadcast dimensions, inner strides other than 1), with the offset of every launch coordinate in it, for
// the CPU reference. Test code only.

#include <algorithm>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <ew/elementwise.cuh>

namespace ew_test {
namespace nd {

/// One operand's layout in its buffer: a view of rank R (extents of 1 where it broadcasts), `offset`
/// elements into a buffer of `buffer` elements; `plain`: passed as a bare pointer (row-major of the
/// launch's extents).
template <int R>
struct layout {
  std::int64_t ext[R];
  std::int64_t str[R];
  std::int64_t offset = 0;
  std::int64_t buffer = 0;
  bool plain = false;

  /// Offset, in elements from the buffer's start, of launch coordinate `x`.
  std::int64_t at(const std::int64_t* x) const {
    std::int64_t o = offset;
    for (int d = 0; d < R; ++d) o += (ext[d] == 1 ? 0 : x[d]) * str[d];
    return o;
  }
  std::string describe() const {
    std::ostringstream s;
    s << (plain ? "pointer" : "view") << " off " << offset << " ext [";
    for (int d = 0; d < R; ++d) s << (d ? "," : "") << ext[d];
    s << "] str [";
    for (int d = 0; d < R; ++d) s << (d ? "," : "") << str[d];
    s << "]";
    return s.str();
  }
  template <class T>
  ew::strided_view<T, R> view(T* base) const {
    ew::extents<R> e;
    ew::strides<R> s;
    for (int d = 0; d < R; ++d) {
      e.v[d] = ext[d];
      s.v[d] = str[d];
    }
    return ew::strided(base + offset, e, s);
  }
};

/// Random extents of rank R: mostly small, the innermost sometimes long enough for many vectors.
template <int R>
void random_extents(std::mt19937_64& rng, std::int64_t (&e)[R]) {
  for (int d = 0; d < R; ++d) e[d] = 1 + static_cast<std::int64_t>(rng() % 6);
  const int inner = R - 1;
  switch (rng() % 4) {
    case 0:
      e[inner] = 1 + static_cast<std::int64_t>(rng() % 70);
      break;
    case 1:
      e[inner] = 8 * (1 + static_cast<std::int64_t>(rng() % 9));
      break;
    default:
      break;
  }
  if (rng() % 8 == 0) e[rng() % R] = 1;
}

/// A layout over extents `e`: `broadcast` lets dimensions have extent 1 (inputs only), `odd_inner` lets
/// the innermost memory stride be 2 or 3 (the element-wise path).
template <int R>
layout<R> random_layout(std::mt19937_64& rng, const std::int64_t (&e)[R], bool broadcast, bool odd_inner) {
  layout<R> l;
  for (int d = 0; d < R; ++d) l.ext[d] = e[d];
  l.offset = static_cast<std::int64_t>(rng() % 9);
  const int kind = static_cast<int>(rng() % 4);
  if (kind == 0) {  // plain row-major pointer
    l.plain = true;
    std::int64_t step = 1;
    for (int d = R - 1; d >= 0; --d) {
      l.str[d] = step;
      step *= e[d];
    }
    l.buffer = l.offset + step;
    return l;
  }
  if (broadcast && kind == 3) {
    for (int d = 0; d < R; ++d) {
      if (rng() % 2 == 0) l.ext[d] = 1;
    }
  }
  // Dimensions in a random memory order (the last innermost), padded.
  int order[R];
  for (int d = 0; d < R; ++d) order[d] = d;
  if (kind == 2) std::shuffle(order, order + R, rng);
  std::int64_t step = odd_inner && rng() % 3 == 0 ? 2 + static_cast<std::int64_t>(rng() % 2) : 1;
  for (int i = R - 1; i >= 0; --i) {
    const int d = order[i];
    l.str[d] = step;
    step = step * l.ext[d] + (rng() % 2 ? static_cast<std::int64_t>(rng() % 5) : 0);
  }
  for (int d = 0; d < R; ++d) {
    if (l.ext[d] == 1 && rng() % 2) l.str[d] = 0;  // broadcast spelled as stride 0 as well as extent 1
  }
  std::int64_t last = 0;
  for (int d = 0; d < R; ++d) last += (l.ext[d] - 1) * l.str[d];
  l.buffer = l.offset + last + 1 + static_cast<std::int64_t>(rng() % 4);
  return l;
}

/// Calls `f(x)` for every coordinate of extents `e`, row-major.
template <int R, class F>
void for_each_coordinate(const std::int64_t (&e)[R], F f) {
  std::int64_t total = 1;
  for (int d = 0; d < R; ++d) total *= e[d];
  std::int64_t x[R] = {};
  for (std::int64_t i = 0; i < total; ++i) {
    f(static_cast<const std::int64_t*>(x), i);
    for (int d = R - 1; d >= 0; --d) {
      if (++x[d] < e[d]) break;
      x[d] = 0;
    }
  }
}

template <int R>
ew::extents<R> to_extents(const std::int64_t (&e)[R]) {
  ew::extents<R> x;
  for (int d = 0; d < R; ++d) x.v[d] = e[d];
  return x;
}

}  // namespace nd
}  // namespace ew_test
