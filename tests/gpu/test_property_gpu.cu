// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Randomized property test (ctest gpu.property): 10,000 cases by default, each a random op (the core ops,
// fma and a 3-input mad3, conversions, mixed-type and two-output ops) on inputs from the full range of each
// type (random bit patterns, subnormals, signed zeros, infinities, NaNs, short significands that make ties,
// tests/common/numeric_cases.cuh), size (mostly small, some up to 2^22, odd primes, powers of
// two +-3), per-pointer element offsets (aligned, one common misalignment, or independent ones: the
// vector path with and without a head, and the scalar path), in place or not, stream kind, and launch mode
// (direct or captured into a graph and replayed), checked against the CPU reference. All arrays of a case
// are carved from one pool with guard bytes around each; after every launch the whole span is read back:
// outputs must match the reference (a NaN any NaN), and every other byte (inputs, guards, alignment gaps)
// must be exactly what was uploaded. Outputs are poisoned with a non-NaN pattern; where an output element
// still holds it (a legitimate result, or unwritten), the case runs again over a second poison and that
// element must hold the first pattern again.
//
// Environment: EW_TEST_SEED (the run's seed, printed; a failure prints the line to replay it),
// EW_PROPERTY_CASES (how many cases; the sanitizer runs use a few hundred), EW_PROPERTY_ONLY (run only the
// case with that index).

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "../common/catch.hpp"

#include <ew/elementwise.cuh>

#include "../common/hardening_utils.cuh"
#include "../common/property_runner.cuh"
#include "../common/test_utils.cuh"

using namespace ew_test;
using namespace ew_test::property;

namespace {

/// The integer and mixed-type half of the registry (the floating half is in property_ops_gpu.cu).
void add_integer_and_mixed_ops(registry& r) {
  add_same_type_ops<std::int32_t>(r);
  add_same_type_ops<std::int64_t>(r);
  // References independent of ew: exact decoding and rounding (exact16.cuh) for the 16-bit types, C++ casts
  // and double arithmetic for the others.
  add<types<float>, types<__half, float>>(
      r, "widen_add f16,f32->f32", widen_add{},
      [](__half a, float b) {
        // The double sum of an f16 and an f32 rounded again to f32 is the correctly rounded f32 sum (53 >= 2
        // * 24 + 1).
        return std::tuple<float>(static_cast<float>(to_double(a) + static_cast<double>(b)));
      },
      0);
  add<types<float>, types<__half>>(
      r, "to<f32> f16->f32", to<float>{},
      [](__half x) { return std::tuple<float>(static_cast<float>(exact::to_ld(x))); }, 0);
  add<types<__nv_bfloat16>, types<float>>(
      r, "to<bf16> f32->bf16", to<__nv_bfloat16>{},
      [](float x) { return std::tuple<__nv_bfloat16>(exact::round_to<__nv_bfloat16>(exact::decode(x))); }, 0);
  add<types<double>, types<std::int32_t>>(
      r, "to<f64> i32->f64", to<double>{}, [](std::int32_t x) { return std::tuple<double>(x); }, 0);
  add<types<float>, types<double>>(
      r, "to<f32> f64->f32", to<float>{}, [](double x) { return std::tuple<float>(static_cast<float>(x)); },
      0);
  add<types<std::int32_t>, types<float>>(
      r, "to<i32> f32->i32 (saturating)", to<std::int32_t>{},
      [](float x) { return std::tuple<std::int32_t>(exact::to_integer<std::int32_t>(x)); }, 0);
  add<types<std::uint8_t>, types<__half>>(
      r, "to<u8> f16->u8 (saturating)", to<std::uint8_t>{},
      [](__half x) { return std::tuple<std::uint8_t>(exact::to_integer<std::uint8_t>(x)); }, 0);
  add<types<__nv_bfloat16>, types<std::int64_t>>(
      r, "to<bf16> i64->bf16", to<__nv_bfloat16>{},
      [](std::int64_t x) { return std::tuple<__nv_bfloat16>(exact::from_int<__nv_bfloat16>(x)); }, 0);
  add<types<__half>, types<float, float>>(
      r, "mul_to_half f32,f32->f16", mul_to_half{},
      [](float a, float b) {
        // The exact product rounded once; the op rounds it to f32 first, hence 1 ulp.
        return std::tuple<__half>(exact::round_to<__half>(exact::mul(exact::decode(a), exact::decode(b))));
      },
      1);
  add<types<double>, types<__half, float, __nv_bfloat16>>(
      r, "mix3 f16,f32,bf16->f64", mix3{},
      [](__half a, float b, __nv_bfloat16 c) {
        return std::tuple<double>(std::fma(to_double(a), static_cast<double>(b), to_double(c)));
      },
      0);
  add<types<std::int64_t>, types<std::int64_t, std::int32_t>>(
      r, "add_wide i64,i32->i64", add_wide{},
      [](std::int64_t a, std::int32_t b) {
        return std::tuple<std::int64_t>(static_cast<std::int64_t>(
            static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(std::int64_t{b})));
      },
      0);
  add<types<float, float>, types<float, float>>(
      r, "sum_diff f32,f32->(f32,f32)", sum_diff{},
      [](float a, float b) { return std::tuple<float, float>(ref_add(a, b), ref_sub(a, b)); }, 0);
  add<types<__half, float>, types<__half>>(
      r, "relu_and_mask f16->(f16,f32)", relu_and_mask{},
      [](__half x) { return std::tuple<__half, float>(ref_relu(x), to_double(x) > 0 ? 1.0f : 0.0f); }, 0);
}

const registry& all_runners() {
  static const registry r = [] {
    registry all;
    add_floating_ops(all);
    add_integer_and_mixed_ops(all);
    return all;
  }();
  return r;
}

std::size_t env_size(const char* name, std::size_t fallback) {
  const char* s = std::getenv(name);
  return s != nullptr && *s != '\0' ? static_cast<std::size_t>(std::strtoull(s, nullptr, 0)) : fallback;
}

constexpr std::size_t max_n = (std::size_t{1} << 22) + 63;
constexpr std::size_t max_arrays = 4;
constexpr std::size_t max_element = 8;
constexpr std::size_t max_offset = 15;

std::size_t round_up(std::size_t x, std::size_t to) { return (x + to - 1) / to * to; }

/// Bytes of the largest span a case can use.
constexpr std::size_t pool_bytes() {
  return max_arrays * (guarded_buffer::guard_bytes +
                       (max_offset * max_element + max_n * max_element + 255) / 256 * 256) +
         guarded_buffer::guard_bytes;
}

/// Sizes: mostly small, some around powers of two, odd primes, a few up to 2^22.
std::size_t draw_size(rng64& g) {
  static const std::size_t primes[] = {2,   3,    5,    7,    11,   13,    31,    61,     127,   251,
                                       509, 1021, 2039, 4093, 8191, 65521, 65537, 131071, 524287};
  const std::uint64_t r = g.below(1000);
  if (r < 400) return g.below(65);
  if (r < 650) return 65 + g.below(4096 - 64);
  if (r < 805) return 4097 + g.below(65536 - 4096);
  if (r < 900) return primes[g.below(sizeof(primes) / sizeof(primes[0]))];
  if (r < 995) return (std::size_t{1} << (4 + g.below(13))) + g.below(7) - 3;  // 2^k - 3 .. 2^k + 3, k 4..16
  return (std::size_t{1} << 20) + g.below(max_n + 1 - (std::size_t{1} << 20));
}

enum stream_kind { created_non_blocking, created_blocking, per_thread, legacy };
const char* stream_kind_name(int k) {
  switch (k) {
    case created_non_blocking:
      return "created non-blocking";
    case created_blocking:
      return "created blocking";
    case per_thread:
      return "cudaStreamPerThread";
    default:
      return "legacy 0";
  }
}

/// One case, drawn from the run's seed and the case index alone.
struct test_case {
  std::size_t index = 0;
  std::uint64_t data_seed = 0;
  const runner* op = nullptr;
  layout l;
  launch_mode mode = launch_mode::direct;
  cudaStreamCaptureMode capture_mode = cudaStreamCaptureModeGlobal;
  int stream = created_non_blocking;
  bool vector_path = false;

  std::string describe() const {
    std::ostringstream s;
    s << "case " << index << ": " << op->name() << ", n=" << l.n << ", element offsets (outputs, inputs) ";
    for (std::size_t k = 0; k < l.offset.size(); ++k) s << (k ? "," : "") << l.offset[k];
    s << (l.in_place ? ", in place" : "") << (vector_path ? ", vector path" : ", scalar path") << ", "
      << mode_name(mode);
    if (mode == launch_mode::graph) s << " (" << capture_mode_name(capture_mode) << " capture)";
    s << ", stream " << stream_kind_name(stream);
    return s.str();
  }
};

test_case draw_case(std::uint64_t seed, std::size_t index) {
  rng64 g(mix64(seed ^ mix64(index + 1)));
  const registry& all = all_runners();
  test_case c;
  c.index = index;
  c.data_seed = mix64(seed + index);
  c.op = all[g.below(all.size())].get();
  const runner& r = *c.op;
  const std::size_t arrays = r.outputs() + r.inputs();
  c.l.n = draw_size(g);
  c.l.offset.assign(arrays, 0);
  const std::uint64_t scheme = g.below(8);
  const std::size_t common = g.below(max_offset + 1);
  for (std::size_t k = 0; k < arrays; ++k) {
    c.l.offset[k] = scheme < 2 ? 0 : (scheme < 5 ? common : g.below(max_offset + 1));
  }
  c.l.in_place = r.can_run_in_place() && g.chance(1, 6);
  if (c.l.in_place) c.l.offset[0] = c.l.offset[r.outputs()];
  // Place each array after a guard, at its element offset from a 256-byte boundary.
  c.l.ptr.assign(arrays, 0);
  std::size_t pos = 0;
  for (std::size_t k = 0; k < arrays; ++k) {
    if (c.l.in_place && k == 0) continue;
    pos += guarded_buffer::guard_bytes;
    const std::size_t es = r.element_size(k);
    c.l.ptr[k] = pos + c.l.offset[k] * es;
    pos += round_up(c.l.offset[k] * es + c.l.n * es, 256);
  }
  if (c.l.in_place) c.l.ptr[0] = c.l.ptr[r.outputs()];
  c.l.span = pos + guarded_buffer::guard_bytes;
  // The path ew takes: vectors when every pointer has the same element offset modulo the vector width.
  std::size_t widest = 0;
  for (std::size_t k = 0; k < arrays; ++k) widest = std::max(widest, r.element_size(k));
  const std::size_t vec = 16 / widest;
  c.vector_path = true;
  for (std::size_t k = 1; k < arrays; ++k)
    c.vector_path = c.vector_path && c.l.offset[k] % vec == c.l.offset[0] % vec;
  c.stream = static_cast<int>(g.below(8));
  c.stream = c.stream < 4 ? created_non_blocking
                          : (c.stream == 4 ? created_blocking : (c.stream == 5 ? per_thread : legacy));
  c.mode = c.stream != legacy && g.chance(1, 5) ? launch_mode::graph : launch_mode::direct;
  const cudaStreamCaptureMode modes[] = {cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal,
                                         cudaStreamCaptureModeRelaxed};
  c.capture_mode = modes[g.below(3)];
  return c;
}

/// Pinned host memory, freed on scope exit.
struct pinned_bytes {
  unsigned char* p = nullptr;
  explicit pinned_bytes(std::size_t bytes) { EW_REQUIRE_CUDA(cudaMallocHost(&p, bytes)); }
  ~pinned_bytes() {
    if (p) cudaFreeHost(p);
  }
  pinned_bytes(const pinned_bytes&) = delete;
  pinned_bytes& operator=(const pinned_bytes&) = delete;
};
/// Index of the first byte outside the outputs where `got` and `image` differ, or SIZE_MAX.
std::size_t first_changed_byte(const unsigned char* got, const unsigned char* image, const test_case& c) {
  std::vector<std::pair<std::size_t, std::size_t>> written;
  for (std::size_t k = 0; k < c.op->outputs(); ++k) {
    written.emplace_back(c.l.ptr[k], c.l.ptr[k] + c.l.n * c.op->element_size(k));
  }
  std::sort(written.begin(), written.end());
  written.emplace_back(c.l.span, c.l.span);
  std::size_t pos = 0;
  for (const auto& w : written) {
    if (w.first > pos && std::memcmp(got + pos, image + pos, w.first - pos) != 0) {
      while (got[pos] == image[pos]) ++pos;
      return pos;
    }
    pos = std::max(pos, w.second);
  }
  return SIZE_MAX;
}

}  // namespace

TEST_CASE("randomized ops, types, sizes, offsets, streams and launch modes against the CPU reference",
          "[property][graph][guard]") {
  const std::uint64_t seed = base_seed();
  const std::size_t cases = env_size("EW_PROPERTY_CASES", 10000);
  const char* only_env = std::getenv("EW_PROPERTY_ONLY");
  const bool only = only_env != nullptr && *only_env != '\0';
  const std::size_t only_index = only ? env_size("EW_PROPERTY_ONLY", 0) : 0;
  const std::string replay = "replay with EW_TEST_SEED=" + std::to_string(seed);
  std::printf(
      "property: seed %llu, %zu cases, %zu op/type combinations (%s; one case: add "
      "EW_PROPERTY_ONLY=<case>)\n",
      static_cast<unsigned long long>(seed), only ? std::size_t{1} : cases, all_runners().size(),
      replay.c_str());
  std::fflush(stdout);

  const std::size_t bytes = pool_bytes();
  guarded_buffer pool_buffer(bytes, 0);
  unsigned char* const pool = static_cast<unsigned char*>(pool_buffer.data());
  pinned_bytes image(bytes), got(bytes);
  owned_stream non_blocking(cudaStreamNonBlocking), blocking(cudaStreamDefault);
  const cudaStream_t streams[] = {non_blocking.get(), blocking.get(), cudaStreamPerThread, nullptr};

  std::size_t ran = 0, graphs = 0, in_place = 0, vector_path = 0, elements = 0, largest = 0, rechecked = 0;
  std::vector<std::size_t> per_op(all_runners().size(), 0);
  const auto t0 = std::chrono::steady_clock::now();
  for (std::size_t i = only ? only_index : 0; i < (only ? only_index + 1 : cases); ++i) {
    const test_case c = draw_case(seed, i);
    const runner& r = *c.op;
    const cudaStream_t stream = streams[c.stream];
    const std::size_t n = c.l.n;

    // Host image of the span: guard pattern everywhere, inputs, poisoned outputs.
    std::memset(image.p, guarded_buffer::guard_pattern, c.l.span);
    r.fill_inputs(image.p, c.l, c.data_seed);
    for (std::size_t k = c.l.in_place ? 1 : 0; k < r.outputs(); ++k) {
      std::memset(image.p + c.l.ptr[k], poison_byte, n * r.element_size(k));
    }
    const cudaError_t uploaded = put(pool, image.p, c.l.span, stream);
    if (uploaded != cudaSuccess) FAIL(c.describe() << ": upload failed: " << cudaGetErrorString(uploaded));

    cudaError_t err = cudaSuccess, ended = cudaSuccess;
    if (c.mode == launch_mode::direct) {
      err = r.launch(pool, c.l, stream);
      if (err == cudaSuccess) err = cudaStreamSynchronize(stream);
    } else {
      owned_graph g;
      err = capture(
          g, stream, c.capture_mode, [&](cudaStream_t s) { return r.launch(pool, c.l, s); }, ended);
      if (err == cudaSuccess) err = ended;
      if (err == cudaSuccess && g.nodes() != (n == 0 ? 0u : 1u)) {
        FAIL(c.describe() << ": captured " << g.nodes() << " nodes; " << replay);
      }
      if (err == cudaSuccess) err = g.replay(stream);
    }
    if (err != cudaSuccess) {
      FAIL(c.describe() << ": " << cudaGetErrorName(err) << " (" << ew::last_error_message() << "); "
                        << replay);
    }
    if (ew::last_error_message()[0] != '\0') FAIL(c.describe() << ": message left after success; " << replay);

    const cudaError_t downloaded = get(got.p, pool, c.l.span, stream);
    if (downloaded != cudaSuccess)
      FAIL(c.describe() << ": download failed: " << cudaGetErrorString(downloaded));
    std::string first;
    const std::size_t bad = r.check_outputs(got.p, image.p, c.l, first);
    if (bad != 0) FAIL(c.describe() << ": " << bad << " wrong elements, first " << first << "; " << replay);
    // Output elements that hold the poison: legitimate results equal to it, or never written. Run the case
    // again (directly, on the same stream) over the second poison: a written element is the same result
    // again.
    const auto suspects = r.poisoned(got.p, c.l, poison_byte);
    if (!suspects.empty()) {
      ++rechecked;
      for (std::size_t k = c.l.in_place ? 1 : 0; k < r.outputs(); ++k) {
        std::memset(image.p + c.l.ptr[k], second_poison_byte, n * r.element_size(k));
      }
      cudaError_t again = put(pool, image.p, c.l.span, stream);
      if (again == cudaSuccess) again = r.launch(pool, c.l, stream);
      if (again == cudaSuccess) again = cudaStreamSynchronize(stream);
      if (again == cudaSuccess) again = get(got.p, pool, c.l.span, stream);
      if (again != cudaSuccess)
        FAIL(c.describe() << ": second run: " << cudaGetErrorName(again) << "; " << replay);
      for (const auto& hit : suspects) {
        const std::size_t k = hit.first, i = hit.second;
        const unsigned char* e = got.p + c.l.ptr[k] + i * r.element_size(k);
        for (std::size_t b = 0; b < r.element_size(k); ++b) {
          if (e[b] != poison_byte) {
            FAIL(c.describe() << ": output " << k << " element " << i
                              << " was not written (it held the poison, "
                              << "and the second poison after a second run); " << replay);
          }
        }
      }
    }
    const std::size_t changed = first_changed_byte(got.p, image.p, c);
    if (changed != SIZE_MAX) {
      FAIL(c.describe() << ": byte " << changed << " of the span, outside every output, changed from "
                        << int{image.p[changed]} << " to " << int{got.p[changed]}
                        << " (guard, gap or input); " << replay);
    }

    ++ran;
    graphs += c.mode == launch_mode::graph;
    in_place += c.l.in_place;
    vector_path += c.vector_path;
    elements += n;
    largest = std::max(largest, n);
    for (std::size_t k = 0; k < all_runners().size(); ++k) per_op[k] += all_runners()[k].get() == c.op;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::size_t ops_seen = static_cast<std::size_t>(
      std::count_if(per_op.begin(), per_op.end(), [](std::size_t x) { return x > 0; }));
  std::printf(
      "property: %zu cases passed in %.1f s: %zu as graphs, %zu in place, %zu on the vector path, %zu of %zu "
      "op/type combinations, %zu elements in all, largest n=%zu, %zu run again over the second poison\n",
      ran, seconds, graphs, in_place, vector_path, ops_seen, per_op.size(), elements, largest, rechecked);
  REQUIRE(ran == (only ? 1 : cases));
  REQUIRE(pool_buffer.guards_intact());
}
