// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Fusion rows, f32 at 2^24 and 2^28, cold L2. Bytes are the fused op's bytes for every variant
// (read the inputs once, write the output once), so GB/s ratios are time ratios.
//
//   fusion.sigmoid2p1: y = sigmoid(x) * 2 + 1
//     ew_fused       one ew launch of ew::compose(sigmoid, scale_bias{2, 1})
//     ew_3launch     three ew launches: sigmoid -> t; scale_bias{2, 0} t -> t (in place); scale_bias{1, 1} t
//                    -> y
//     naive_3kernel  the same three steps as seed-style v0 kernels (one thread per element, 256 threads)
//     cub_fused      cub::DeviceTransform with the composed functor
//     ew_relu_ref    ew relu alone on the same x (the "fused is as fast as one op" yardstick)
//   fusion.add_relu: y = relu(a + b)
//     ew_fused, ew_2launch (add -> t, relu t -> y), naive_2kernel, cub_fused, ew_add_ref (ew add alone)

#include <ew/elementwise.cuh>
#if __has_include(<ew/compose.cuh>)
#include <ew/compose.cuh>
#endif

#include <cmath>

#include "checks.cuh"
#include "device_buffer.cuh"
#include "timing.cuh"

#include "bench.cuh"
#include "impls.cuh"

// ------------------------------------------------------------------------------------------------
// Probes: does this ew have ew::compose and ew::sigmoid? Unqualified lookup from inside namespace ew finds
// ew's own declaration when there is one and falls back to the global ones below otherwise, so the file
// builds either way and says which it used.
// ------------------------------------------------------------------------------------------------

// The stand-ins live in their own namespaces (brought to global scope by using-declarations) so that
// argument-dependent lookup never sees a stand-in compose next to ew's.
namespace ewb_fallback_compose {
struct ewb_missing_compose {};
template <class... F>
ewb_missing_compose compose(F...) {
  return {};
}
}  // namespace ewb_fallback_compose
using ewb_fallback_compose::compose;
using ewb_fallback_compose::ewb_missing_compose;

namespace ewb_fallback_sigmoid {
/// Stand-in used only when ew has no sigmoid yet: 1 / (1 + e^-x) in float.
template <class T>
struct sigmoid {
  static constexpr bool ewb_fallback = true;
  __host__ __device__ T operator()(T x) const { return 1.0f / (1.0f + expf(-x)); }
};
}  // namespace ewb_fallback_sigmoid
using ewb_fallback_sigmoid::sigmoid;

namespace ew {
namespace ewb_probe {
template <class T>
using sigmoid_t = sigmoid<T>;
template <class... F>
auto compose_of(F... f) {
  return compose(f...);
}
}  // namespace ewb_probe
}  // namespace ew

namespace ewb {

inline double sigmoid_ref(double x) { return 1.0 / (1.0 + std::exp(-x)); }

namespace {

template <class T, class = void>
struct is_fallback_sigmoid : std::false_type {};
template <class T>
struct is_fallback_sigmoid<T, std::void_t<decltype(T::ewb_fallback)>> : std::true_type {};

using sigmoid_f = ew::ewb_probe::sigmoid_t<float>;
constexpr bool have_ew_sigmoid = !is_fallback_sigmoid<sigmoid_f>::value;
constexpr bool have_ew_compose =
    !std::is_same_v<decltype(ew::ewb_probe::compose_of(ew::add<float>{}, ew::relu<float>{})),
                    ewb_missing_compose>;

/// One variant of a fusion pattern: launches reading `in_a` (and `in_b`) and writing `out`, with `tmp` for
/// the intermediate results.
using fusion_launch =
    std::function<void(cudaStream_t, float* out, float* tmp, const float* in_a, const float* in_b)>;

/// Registers one fusion row; `prepare_ref` computes the reference named `ref_key`; `launch` is the
/// variant. The variants of a pattern and size form one cell (timed interleaved), each in its own `slot`.
template <class PrepareRef>
void fusion_row(const std::string& pattern, const std::string& variant, int slot, std::size_t n, double bytes,
                const std::string& ref_key, PrepareRef prepare_ref, fusion_launch launch, double rel_tol) {
  row r;
  r.name = row_name(pattern, "f32", variant, mode::cold, 0, n);
  r.cell = row_name(pattern, "f32", "*", mode::cold, 0, n);
  r.slot = slot;
  r.m = mode::cold;
  r.n = n;
  r.bytes = bytes;
  r.prepare = [n, slot, prepare_ref] {
    ensure_inputs<float>(n, 0, slot);
    ws().tmp(slot).ensure(n * sizeof(float) + buffer_slack_bytes);
    prepare_ref();
  };
  r.poison = [n, slot](cudaStream_t s) {
    poison(ws().out(slot).as<float>(), n * sizeof(float), s);
    poison(ws().tmp(slot).as<float>(), n * sizeof(float), s);
  };
  r.launch = [slot, launch](cudaStream_t s) {
    launch(s, ws().out(slot).as<float>(), ws().tmp(slot).as<float>(), ws().a.as<const float>(),
           ws().b.as<const float>());
  };
  r.check = [n, slot, ref_key, rel_tol](cudaStream_t s) {
    return compare_device(ws().out(slot).as<float>(), ws().ref(ref_key).as<const float>(), n, rel_tol, 1e-6,
                          s);
  };
  r.prime_key = pattern + "/" + variant;
  r.prime = [launch](std::size_t pn, cudaStream_t s) {
    prime_scratch& p = scratch(pn * sizeof(float));
    launch(s, p.out.as<float>(), p.tmp.as<float>(), p.a.as<const float>(), p.b.as<const float>());
  };
  register_row(std::move(r));
}

/// A template on the element type (always float) so that nothing in it is compiled when ew has no compose.
template <class f32>
void register_sizes() {
  {
    const ew::ewb_probe::sigmoid_t<f32> sig{};
    const auto sb_fused = ew::scale_bias<f32>{2.f, 1.f};
    const auto sb_mul2 = ew::scale_bias<f32>{2.f, 0.f};
    const auto sb_add1 = ew::scale_bias<f32>{1.f, 1.f};
    const auto fused_sig = ew::ewb_probe::compose_of(sig, sb_fused);
    const auto fused_res = ew::ewb_probe::compose_of(ew::add<f32>{}, ew::relu<f32>{});
    // Sigmoid is evaluated in float on the device (possibly with a fast exp): a few ulps of the [1, 3]
    // result.
    const double sig_tol = 1e-5;

    for (std::size_t n : {std::size_t{1} << 24, std::size_t{1} << 28}) {
      // --- sigmoid(x) * 2 + 1 ---
      const std::string p1 = "fusion.sigmoid2p1";
      const double b1 = 2.0 * static_cast<double>(n) * sizeof(f32);
      auto ref_sig = [n] {
        ensure_reference<f32>("fusion.sigmoid2p1", n, 0,
                              [](const f32* a, const f32*, f32* o, std::size_t b, std::size_t e) {
                                for (std::size_t k = b; k < e; ++k)
                                  o[k] = static_cast<f32>(sigmoid_ref(a[k]) * 2.0 + 1.0);
                              });
      };
      auto ref_relu = [n] {
        ensure_reference<f32>("fusion.relu", n, 0,
                              [](const f32* a, const f32*, f32* o, std::size_t b, std::size_t e) {
                                for (std::size_t k = b; k < e; ++k) o[k] = a[k] < 0 ? 0.f : a[k];
                              });
      };
      fusion_row(
          p1, "ew_fused", 0, n, b1, "fusion.sigmoid2p1", ref_sig,
          [=](cudaStream_t s, f32* out, f32*, const f32* in_a, const f32*) {
            launch_ew(fused_sig, n, out, s, in_a);
          },
          sig_tol);
      fusion_row(
          p1, "ew_3launch", 1, n, b1, "fusion.sigmoid2p1", ref_sig,
          [=](cudaStream_t s, f32* out, f32* tmp, const f32* in_a, const f32*) {
            launch_ew(sig, n, tmp, s, in_a);
            launch_ew(sb_mul2, n, tmp, s, tmp);
            launch_ew(sb_add1, n, out, s, tmp);
          },
          sig_tol);
      fusion_row(
          p1, "naive_3kernel", 2, n, b1, "fusion.sigmoid2p1", ref_sig,
          [=](cudaStream_t s, f32* out, f32* tmp, const f32* in_a, const f32*) {
            launch_v0(sig, n, tmp, s, in_a);
            launch_v0(sb_mul2, n, tmp, s, tmp);
            launch_v0(sb_add1, n, out, s, tmp);
          },
          sig_tol);
      fusion_row(
          p1, "cub_fused", 3, n, b1, "fusion.sigmoid2p1", ref_sig,
          [=](cudaStream_t s, f32* out, f32*, const f32* in_a, const f32*) {
            launch_cub(fused_sig, n, out, s, in_a);
          },
          sig_tol);
      fusion_row(
          p1, "ew_relu_ref", 4, n, b1, "fusion.relu", ref_relu,
          [=](cudaStream_t s, f32* out, f32*, const f32* in_a, const f32*) {
            launch_ew(ew::relu<f32>{}, n, out, s, in_a);
          },
          0.0);

      // --- relu(a + b) ---
      const std::string p2 = "fusion.add_relu";
      const double b2 = 3.0 * static_cast<double>(n) * sizeof(f32);
      auto ref_res = [n] {
        ensure_reference<f32>("fusion.add_relu", n, 0,
                              [](const f32* a, const f32* bb, f32* o, std::size_t b, std::size_t e) {
                                for (std::size_t k = b; k < e; ++k) {
                                  const f32 v = a[k] + bb[k];
                                  o[k] = v < 0 ? 0.f : v;
                                }
                              });
      };
      auto ref_add = [n] {
        ensure_reference<f32>("fusion.add", n, 0,
                              [](const f32* a, const f32* bb, f32* o, std::size_t b, std::size_t e) {
                                for (std::size_t k = b; k < e; ++k) o[k] = a[k] + bb[k];
                              });
      };
      fusion_row(
          p2, "ew_fused", 0, n, b2, "fusion.add_relu", ref_res,
          [=](cudaStream_t s, f32* out, f32*, const f32* in_a, const f32* in_b) {
            launch_ew(fused_res, n, out, s, in_a, in_b);
          },
          0.0);
      fusion_row(
          p2, "ew_2launch", 1, n, b2, "fusion.add_relu", ref_res,
          [=](cudaStream_t s, f32* out, f32* tmp, const f32* in_a, const f32* in_b) {
            launch_ew(ew::add<f32>{}, n, tmp, s, in_a, in_b);
            launch_ew(ew::relu<f32>{}, n, out, s, tmp);
          },
          0.0);
      fusion_row(
          p2, "naive_2kernel", 2, n, b2, "fusion.add_relu", ref_res,
          [=](cudaStream_t s, f32* out, f32* tmp, const f32* in_a, const f32* in_b) {
            launch_v0(ew::add<f32>{}, n, tmp, s, in_a, in_b);
            launch_v0(ew::relu<f32>{}, n, out, s, tmp);
          },
          0.0);
      fusion_row(
          p2, "cub_fused", 3, n, b2, "fusion.add_relu", ref_res,
          [=](cudaStream_t s, f32* out, f32*, const f32* in_a, const f32* in_b) {
            launch_cub(fused_res, n, out, s, in_a, in_b);
          },
          0.0);
      fusion_row(
          p2, "ew_add_ref", 4, n, b2, "fusion.add", ref_add,
          [=](cudaStream_t s, f32* out, f32*, const f32* in_a, const f32* in_b) {
            launch_ew(ew::add<f32>{}, n, out, s, in_a, in_b);
          },
          0.0);
    }
  }
}

}  // namespace

template <class F>
std::string register_fusion_t() {
  if (!env().opt.cold) return "skipped: fusion rows are cold-mode only";
  if constexpr (!have_ew_compose) {
    return "none: this ew has no ew::compose (include/ew/compose.cuh) at build time";
  } else {
    register_sizes<F>();
    return have_ew_sigmoid ? "ew::compose with ew::sigmoid"
                           : "ew::compose with the benchmark's stand-in sigmoid (this ew has no ew::sigmoid)";
  }
}

std::string register_fusion() { return register_fusion_t<float>(); }

}  // namespace ewb
