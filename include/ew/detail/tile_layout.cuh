// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

/// @file
/// Where the tile kernel's tiles are and how they lie in shared memory (tile_kernel.cuh): `tile_plan` and
/// `tile_origin` (a tile's place in the launch, in groups along `b`), `staged_layout` (a staged input's
/// tile: transposed, packed, swizzled), and the shared-memory accesses of both, which the host tests run
/// over a buffer that stands for the shared memory.

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <cuda/std/type_traits>
#include <cuda_pipeline_primitives.h>
#include <nv/target>

#include "config.cuh"
#include "fast_divmod.cuh"
#include "vector_access.cuh"

namespace ew {
namespace detail {

/// Where a tile launch's tiles are: the coalesced shape (`rank` >= 2 extents, outermost first; the outputs
/// row-major over it), `b` (below `rank - 1`), and the tile counts. Tile `t` is `(batch, tb, ta)`: `batch`
/// runs over the dimensions other than `a` and `b`, slowest; inside a batch the tiles go in groups of
/// `group` along `b` (the last group narrower), each group with `tb` fastest, then `ta`
/// (`nd_kernel_shapes::tile_group` says why).
template <int R>
struct tile_plan {
  int rank = 2;
  int b = 0;
  /// Elements a tile side (`nd_kernel_shapes::tile_for`).
  int side = 64;
  std::int64_t extent[R] = {};
  std::int64_t extent_a = 1, extent_b = 1;
  std::uint64_t tiles_a = 1, tiles_b = 1, tiles = 1;
  std::uint64_t group = 1;
  /// Below 2^31 tiles (`narrow`), `tile_place` finds a tile's place with `fast_divmod`s of 32 bits: the
  /// tiles of a batch (`plane_div`), of a group (`group_tiles_div`), a group's width (`group_div`) and
  /// the batch extents (`extent_div`). With 64-bit divisions for every tile, twice (ten subroutine calls
  /// of some 80 instructions), the tile kernel executed 7 times the instructions of torch.compile's
  /// transpose and was bound by issuing them (ncu, H200, 2026-12-02, PERFORMANCE.md probe 9).
  bool narrow = false;
  fast_divmod plane_div, group_tiles_div, group_div;
  fast_divmod extent_div[R];
  /// Every staged input and output takes its vectors at every tile (its address and its strides, but the
  /// one of 1, whole vectors; the extents along `b` and `a` whole vectors too), and every array operand's
  /// offsets inside a tile fit 31 bits: every tile takes one of the tile kernel's vector paths
  /// (`tile_thread::path_of`).
  bool vector_tiles = false;
  /// Pieces (1 or 2) each 16-byte staging load is made of on the vector paths: 2 where a staged input's
  /// rows are whole half vectors only (a [2^14, 1000] bytes input: rows of 1000 bytes), which then takes
  /// 8-byte loads instead of the general path's tests and element loads.
  int stage_split = 1;
  /// A `vector_tiles` launch none of whose array inputs is staged, each taking its vectors along `a` at
  /// every tile (`takes_vectors`), the others the index or coordinates: the compute phase of a full tile
  /// reads them with no test a slot (`tile_thread::compute`, `nd_kernel_shapes::tile_direct_reads`).
  /// The narrow-output tiles' launches (the FP8 cast-transpose) are such launches.
  bool direct_reads = false;
  /// Where the buffers of asynchronous copies begin in the dynamic shared memory, in bytes (-1: none), in a
  /// `direct_reads` launch with `nd_kernel_shapes::tile_async_stages` that the device and the kernel's
  /// image can take (set at launch: `tile_thread::plan_copies`).
  int async_smem = -1;
  /// Some output is transposed (contiguous along `b`): the kernel writes its tile through shared memory in
  /// a third phase (`tile_thread::unstage`).
  bool staged_outputs = false;
  /// Some input is staged (`tile_array::smem`): the kernel's first phase (`tile_thread::stage`) and the
  /// barrier after it run only then. Without, that barrier was one of a cast-transpose tile's three and
  /// held 1.2% of its warps' samples (ncu, H100, 2026-12-07, docs/PERFORMANCE.md eighteenth session).
  bool staged_inputs = false;
};

/// The paths a tile of the tile kernel takes (`tile_thread::path_of`): no tests (a whole tile of a
/// `vector_tiles` launch), bounds tests only (its edge tiles), or every test (the general path).
enum class tile_path { vector_full, vector_edge, general };

/// The tile kernel's forms, each compiled with the paths of its launches alone (tile_kernel.cuh): `general`
/// (not `tile_plan::vector_tiles`: every tile on the general path), `vector` (`vector_tiles`: full and edge
/// tiles on the vector paths) and `direct_reads` (`tile_plan::direct_reads`: no staged input, the full
/// tiles read directly or from asynchronous copies). One kernel of every path spread a tile's loop over
/// the code of all, where its instructions missed the instruction cache (docs/PERFORMANCE.md, changes 66
/// and 67).
enum class tile_form { general, vector, direct_reads };

/// The form a launch of plan `p` takes.
template <int R>
EW_HD constexpr tile_form tile_form_of(const tile_plan<R>& p) {
  return p.direct_reads ? tile_form::direct_reads : p.vector_tiles ? tile_form::vector : tile_form::general;
}

/// Calls `f` with the form of plan `p` as a type (`cuda::std::integral_constant<tile_form, F>`), so that
/// the launch (dispatch_nd.cuh) and the host tests' simulation of it take the kernel of that form alone
/// from one switch; `f` returns the same type for every form. (Each form a case of its own, no `default`:
/// a form added to `tile_form` and not here is a -Wswitch warning.)
template <int R, class F>
constexpr decltype(auto) visit_tile_form(const tile_plan<R>& p, F&& f) {
  switch (tile_form_of(p)) {
    case tile_form::direct_reads:
      return f(cuda::std::integral_constant<tile_form, tile_form::direct_reads>{});
    case tile_form::vector:
      return f(cuda::std::integral_constant<tile_form, tile_form::vector>{});
    case tile_form::general:
      break;
  }
  return f(cuda::std::integral_constant<tile_form, tile_form::general>{});
}

/// Where a tile is: the coordinates of its batch dimensions in `coord` (0 along `a` and `b`), its first
/// element along `a` and `b` (`a0`, `b0`) and its extents inside the shape along them (`na`, `nb`).
// `a` and `b` stay out of `coord`: written through `coord[d]` where `d == p.b`, the compiler indexed the
// array with `p.b` at run time and moved it to local memory.
template <int R>
struct tile_place {
  std::int64_t coord[R];
  std::int64_t a0, b0;
  int na, nb;
};

/// Tile `t`'s place (`tile_place`); once per tile and block.
template <int R>
EW_HD tile_place<R> tile_origin(const tile_plan<R>& p, std::uint64_t t) {
  tile_place<R> q;
  std::uint64_t ta = 0, tb = 0;
  const int last = p.rank - 1;
  if (p.narrow) {  // 32-bit division by multiplication: every quotient and numerator below 2^31
    std::uint32_t rest = 0, local = 0, g = 0, in_group = 0, a = 0, off = 0;
    p.plane_div.divmod(static_cast<std::uint32_t>(t), rest, local);
    p.group_tiles_div.divmod(local, g, in_group);
    const std::uint32_t first = g * static_cast<std::uint32_t>(p.group);
    const std::uint32_t width = static_cast<std::uint32_t>(p.tiles_b) - first;
    if (width >= p.group) {
      p.group_div.divmod(in_group, a, off);
    } else {  // the last, narrower group
      a = in_group / width;
      off = in_group - a * width;
    }
    ta = a;
    tb = first + off;
    EW_DETAIL_UNROLL
    for (int d = R - 1; d >= 0; --d) {
      q.coord[d] = 0;
      if (d < last && d != p.b) {
        std::uint32_t next = 0, c = 0;
        p.extent_div[d].divmod(rest, next, c);
        q.coord[d] = c;
        rest = next;
      }
    }
  } else {
    const std::uint64_t plane = p.tiles_a * p.tiles_b;
    std::uint64_t local = t % plane;
    t /= plane;
    const std::uint64_t group_tiles = p.group * p.tiles_a;
    const std::uint64_t g = local / group_tiles;
    const std::uint64_t first = g * p.group;
    const std::uint64_t width = p.tiles_b - first < p.group ? p.tiles_b - first : p.group;
    local -= g * group_tiles;
    tb = first + local % width;
    ta = local / width;
    EW_DETAIL_UNROLL
    for (int d = R - 1; d >= 0; --d) {
      q.coord[d] = 0;
      if (d < last && d != p.b) {
        const std::uint64_t e = static_cast<std::uint64_t>(p.extent[d]);
        q.coord[d] = static_cast<std::int64_t>(t % e);
        t /= e;
      }
    }
  }
  q.a0 = static_cast<std::int64_t>(ta) * p.side;
  q.b0 = static_cast<std::int64_t>(tb) * p.side;
  q.na = static_cast<int>(p.extent_a - q.a0 < p.side ? p.extent_a - q.a0 : p.side);
  q.nb = static_cast<int>(p.extent_b - q.b0 < p.side ? p.extent_b - q.b0 : p.side);
  return q;
}

/// How a staged input's tile lies in shared memory: transposed, row `b` holding the tile's elements along
/// `a`, so that the compute phase reads an output vector's inputs with one shared-memory load. Elements of
/// 1 and 2 bytes are packed `pack` to a 4-byte word (consecutive `a`): the staging phase loads `pack` input
/// rows and stores each column of them as one word, so a bf16 tile costs one 4-byte store per two elements
/// and one 16-byte load per eight, where one 2-byte access an element each way ran the 64 x 64 bf16
/// transpose at 0.77 to 0.81 of the 1-D copy (probe 8). The 16-byte chunks of a row are XOR-swizzled by
/// the row's staging vector (`b / stage_vec`, 8 chunks): the staging stores of a warp (8 vectors along `b`
/// times one chunk along `a`, `stage_slot`) and the compute loads (8 consecutive vectors of a row) each
/// meet every bank once.
template <class T, int Side>
struct staged_layout {
  /// Elements a 16-byte load along `b` brings (1 for element types that take the scalar path).
  static constexpr int stage_vec =
      is_vectorizable_v<T> && sizeof(T) <= 16 ? static_cast<int>(16 / sizeof(T)) : 1;
  /// Elements of consecutive `a` in one shared-memory word.
  static constexpr int pack = is_vectorizable_v<T> && sizeof(T) < 4 ? static_cast<int>(4 / sizeof(T)) : 1;
  static constexpr int word_bytes = static_cast<int>(sizeof(T)) * pack;
  static constexpr int row_words = Side / pack;
  /// Words a 16-byte chunk holds (1 and no swizzle for the scalar path's element types).
  static constexpr int chunk_words = stage_vec > 1 ? 16 / word_bytes : 1;
  static constexpr int row_chunks = row_words / chunk_words;
  static constexpr int swizzle_mask = (row_chunks < 8 ? row_chunks : 8) - 1;
  /// Bytes the staged tile takes, rounded up to 16.
  static constexpr std::size_t bytes =
      (static_cast<std::size_t>(Side) * row_words * word_bytes + 15) / 16 * 16;
  /// Staging vectors along `b` in the tile, and slots of the staging phase (`pack` loads each).
  static constexpr int b_vectors = Side / stage_vec;
  static constexpr int slots = row_words * b_vectors;

  // The indices below are unsigned: divided by constants (powers of two), signed ones cost the kernel a
  // rounding correction at every access.
  /// The word index of word `w` (elements `w * pack` on) of row `b`.
  EW_HD static constexpr unsigned word_index(unsigned b, unsigned w) {
    return b * row_words + ((w / chunk_words) ^ ((b / stage_vec) & swizzle_mask)) * chunk_words +
           w % chunk_words;
  }
  /// The byte offset of element `a` of row `b`.
  EW_HD static constexpr unsigned byte_offset(unsigned b, unsigned a) {
    return word_index(b, a / pack) * word_bytes + a % pack * static_cast<unsigned>(sizeof(T));
  }
  /// Staging slot `s`'s word column `w` (its input rows are `w * pack` on) and vector `c` along `b`. A
  /// warp's 32 slots are 8 vectors along `b` (128 bytes of each input row: coalesced) times the words of
  /// one chunk, so that each of its shared-memory stores meets every bank once.
  EW_HD static constexpr void stage_slot(unsigned s, unsigned& w, unsigned& c) {
    const unsigned c_low = s % slot_cl;
    unsigned r = s / slot_cl;
    const unsigned w_low = r % slot_el;
    r /= slot_el;
    c = r % (b_vectors / slot_cl) * slot_cl + c_low;
    w = r / (b_vectors / slot_cl) * slot_el + w_low;
  }
  /// Vectors along `b` and words along `a` that a warp's staging slots take.
  static constexpr unsigned slot_cl = b_vectors < 8 ? b_vectors : 8;
  static constexpr unsigned slot_el = chunk_words < row_words ? chunk_words : row_words;
  /// Slots of one pass over the vectors along `b`: slot `s + period` is slot `s`'s vector, `slot_el` words
  /// further along `a`. A block of a multiple of `period` threads finds its slots from its first
  /// (`tile_thread`), where dividing each slot's number cost the kernel some 6 instructions a shared-memory
  /// store (SASS of the f32 transpose, 2026-12-03).
  static constexpr unsigned slot_period = b_vectors * slot_el;
};

/// Bytes of shared memory a staged input of `T` takes.
template <class T, int Side>
inline constexpr std::size_t tile_stage_bytes = staged_layout<T, Side>::bytes;

/// A `W` at `p` in shared memory: one access on the device, a byte copy on the host (the simulated blocks).
template <class W>
EW_HD W smem_get(const unsigned char* p) {
  W r;
  NV_IF_TARGET(NV_IS_DEVICE, (r = *reinterpret_cast<const W*>(p);), (std::memcpy(&r, p, sizeof(W));));
  return r;
}
template <class W>
EW_HD void smem_put(unsigned char* p, const W& w) {
  NV_IF_TARGET(NV_IS_DEVICE, (*reinterpret_cast<W*>(p) = w;), (std::memcpy(p, &w, sizeof(W));));
}

/// Copies `Bytes` (4, 8 or 16) from memory at `src` into shared memory at `dst`, both aligned to `Bytes`:
/// asynchronously on the device (`__pipeline_memcpy_async`: cp.async from compute_80, a plain copy before),
/// a `memcpy` on the host, where it is reported to `host_access_observer` as a load.
template <int Bytes>
EW_HD void async_copy(unsigned char* dst, const void* src) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async copies 4, 8 or 16 bytes");
  observe_access(src, Bytes, false);
  NV_IF_TARGET(NV_IS_DEVICE, (__pipeline_memcpy_async(dst, src, Bytes);), (std::memcpy(dst, src, Bytes);));
}
/// Closes the group of this thread's asynchronous copies issued since the last one (nothing on the host).
EW_HD void async_commit() { NV_IF_TARGET(NV_IS_DEVICE, (__pipeline_commit();)); }
/// Waits for this thread's groups of asynchronous copies but the last `Pending` (nothing on the host).
template <int Pending>
EW_HD void async_wait() {
  NV_IF_TARGET(NV_IS_DEVICE, (__pipeline_wait_prior(Pending);));
}

}  // namespace detail
}  // namespace ew
