#!/usr/bin/env python3
# Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
"""Issues 22 and 23's fused cells timed three ways in one process: eager PyTorch, torch.compile (Inductor) and
ew, the last through libew_cells.so (bench/torch_cells/ew_cells.cu) called with ctypes.

    python3 bench/scripts/torch_fused_cells.py --lib build-gpu/bench/libew_cells.so --out fused.json
        --md fused.md [--quick] [--filter REGEX] [--samples 15] [--compile-mode MODE] [--commit SHA]
        [--variant-lib build-gpu/bench/libew_bias_gelu_variants.so --variants vr128u2,novrow]

Cells (f32 and bf16 x; GB/s counts each input read once and each output written once):
  quant_amax/T/n       y8 = e4m3(x * s) and amax = max |x|: eager's two kernels (x.abs().amax(), the cast),
                       torch.compile of the same, ew's one launch into ew::reduce_overwrite (no reset);
                       beside ew's plain cast (ew_cast, issue 22's bar: 0.97 of it). n = 2^20 to 2^28.
  dropout/T/n          y = dropout(x, p = 0.1), no mask: F.dropout eager (its kernel writes the mask too) and
                       compiled (Inductor's Philox), ew::dropout with ew::discard (and, as the variant
                       ew.bits16, over ew::random_bits16); beside ew's 1-D relu over
                       x (the bar: 0.97 of it). n = 2^26, 2^28.
  amax/T/n, sum/T/n    a reduction alone into a float: x.abs().amax(), x.sum(dtype=float32); ew's
                       ew::reduce_overwrite (the sum deterministic). n = 2^20, 2^24, 2^28.
  cast_transpose/T/MxN y8 [M, N], yt8 [N, M] = e4m3(x * s) and amax (Transformer Engine's
                       fp8_cast_transpose_fused), one ew launch; beside ew's 1-D copy of x (the bar: 0.90
                       of the copy's GB/s, each counted on its own bytes). With --variant-lib, also each
                       --variants V that the library has (ew_cells_cast_transpose_T__V, target
                       ew_cast_transpose_variants: the tile kernel's other shapes) as `ew.V`, checked alike.
  bias_gelu/T/RxC      y = gelu(x + b), b over the columns (issue 23: bf16 [8192, 8192]); beside ew's relu.
                       With --variant-lib, also each --variants V that the library has
                       (ew_cells_bias_gelu_T__V: bench/probes/cells_variants.cu, target ew_bias_gelu_variants)
                       as `ew.V`, checked alike.
  pow/T/n              y = pow(a, e), a = |x| and e as x (both |.| in [1/16, 4)): torch.pow, ew::pow (issue
                       23's catalog cell beside torch.compile's); beside ew's 1-D relu over x (the bar: 0.97 of
                       it, or torch.compile's speed). n = 2^26.

Measurement as bench/scripts/torch_cells.py (whose Timer, statistics and helpers this script uses): cold L2
before each timed call, torch.cuda._sleep so that Python's launch cost stays outside the events, the
implementations round robin, median of --samples. Each implementation's outputs are poisoned (NaN bits)
and checked before and after timing: FP8 codes bit for bit against PyTorch's own float -> float8_e4m3fn
conversion of x * s computed in float; amax exactly; the sum within 2^-16 of the sum of magnitudes of a
float64 sum; dropout's kept fraction within 6 standard deviations of 0.9 and every kept value x / 0.9
within 1 ulp; GELU near a float64 GELU of x + b (ew's bound, x + b's rounding, and PyTorch's float formula's
cancellation for x < 0: gelu_check says how near). Exit 1 on a wrong result, a failed call or a
recompile; exit 0 with a message without torch or a GPU.
"""
import argparse
import collections
import ctypes
import json
import os
import platform
import re
import statistics
import sys
import time

import torch_cells as tc

SCALE = 100.0  # |x| < 4, so |x * SCALE| < 448: no FP8 value saturates, PyTorch's cast and ew's agree
P = 0.1
DROP_SEED, DROP_OFFSET = 20261205, 7
torch = None
# fn: the call; nbytes: what it moves; check: () -> an error string or None, after a poisoned call.
Impl = collections.namedtuple("Impl", "fn nbytes check")
VARIANT_LIB, VARIANTS = None, ()  # --variant-lib (loaded) and --variants


def cell_specs(a):
    specs = []
    for t in ("f32", "bf16"):
        specs += [("quant_amax", t, (1 << e,)) for e in (20, 24, 26, 28)]
        specs += [("dropout", t, (1 << e,)) for e in (26, 28)]
        specs += [(op, t, (1 << e,)) for op in ("amax", "sum") for e in (20, 24, 28)]
        specs += [("cast_transpose", t, s) for s in ((8192, 8192), (16384, 4096))]
        specs.append(("bias_gelu", t, (8192, 8192)))
        specs.append(("pow", t, (1 << 26,)))
    if a.quick:
        specs = [s for s in specs if s[2] in ((1 << 24,), (1 << 26,), (8192, 8192))]
    if a.filter:
        specs = [s for s in specs if re.search(a.filter, cell_name(s))]
    return specs


def cell_name(spec):
    op, t, shape = spec
    return f"{op}/{t}/{'x'.join(str(d) for d in shape)}"


def ulp(w64, t):
    """One unit in the last place of T at |w64| (normal range; the subnormal step below it)."""
    import math
    mant, emin = tc.MANT[t], tc.EMIN[t]
    e = torch.floor(torch.log2(w64.abs().clamp_min(2.0 ** emin)))
    return torch.pow(2.0, e - mant).clamp_min(math.ldexp(1.0, emin - mant))


def fp8_bits(v):
    return v.view(torch.uint8)


def poisoned(*outs):
    for o in outs:
        if o.dtype == torch.float8_e4m3fn:
            fp8_bits(o).fill_(0x7F)  # e4m3fn's NaN
        else:
            o.fill_(float("nan"))


def same_bits(name, got, want):
    bad = fp8_bits(got) != fp8_bits(want)
    n = int(bad.sum().item())
    if n == 0:
        return None
    i = int(torch.argmax(bad.reshape(-1).to(torch.uint8)).item())
    return f"{name}: {n} of {got.numel()} FP8 codes wrong, e.g. [{i}]: {fp8_bits(got).reshape(-1)[i].item()} " \
           f"against {fp8_bits(want).reshape(-1)[i].item()}"


def exact(name, got, want):
    g, w = float(got.item()), float(want.item())
    return None if g == w else f"{name}: {g!r}, want {w!r}"


def add_relu_ref(impls, call, x, keep):
    """ew's 1-D relu over x into a buffer of its own, as impls["ew_1d_relu"] (a cell's bar); its name."""
    y = torch.empty_like(x)
    keep.append(y)
    relu = call("relu", y.data_ptr(), x.data_ptr(), x.numel())
    impls["ew_1d_relu"] = Impl(relu, 2 * x.numel() * x.element_size(),
                               lambda: (poisoned(y), relu(), torch.cuda.synchronize(),
                                        None if torch.equal(y, torch.clamp_min(x, 0.0)) else "relu differs")[-1])
    return "ew_1d_relu"


def build_cell(spec, lib, stream, gen, mode):
    """Inputs, outputs and each implementation (call, bytes, check) of one cell."""
    op, t, shape = spec
    dt, dev, f8 = tc.DTYPE[t], tc.DEV, torch.float8_e4m3fn
    size = tc.SIZE[t]
    x = tc.random_of(gen, dt)(*shape)
    n = x.numel()
    call = lambda name, *args: tc.ew_call(lib, f"ew_cells_{name}_{t}", *args, stream)  # noqa: E731
    ws = torch.zeros(int(lib.ew_cells_workspace_bytes()), dtype=torch.uint8, device=dev)
    keep = [x, ws]
    impls, ref = {}, None
    compiled_of = lambda f: torch.compile(f, fullgraph=True, dynamic=False, mode=mode)  # noqa: E731
    if op in ("quant_amax", "cast_transpose"):
        want_y = (x.float() * SCALE).to(f8)  # PyTorch's own conversion: independent of ew's
        want_am = x.float().abs().max()
        transpose = op == "cast_transpose"
        nbytes = n * (size + (2 if transpose else 1))

        def f_eager(y, yt, am, x):
            am.copy_(x.abs().amax().float())
            q = (x.float() * SCALE).to(f8)
            y.copy_(q)
            if yt is not None:
                yt.copy_(q.t())

        outs = {}
        for name in ("eager", "compile", "ew"):
            y = torch.empty(shape, dtype=f8, device=dev)
            yt = torch.empty((shape[1], shape[0]), dtype=f8, device=dev) if transpose else None
            am = torch.empty((), dtype=torch.float32, device=dev)
            outs[name] = (y, yt, am)
            keep += [v for v in (y, yt, am) if v is not None]
        compiled = compiled_of(f_eager)
        fns = {"eager": lambda: f_eager(*outs["eager"], x), "compile": lambda: compiled(*outs["compile"], x)}
        y, yt, am = outs["ew"]
        if transpose:
            fns["ew"] = call("cast_transpose", y.data_ptr(), yt.data_ptr(), am.data_ptr(), ws.data_ptr(),
                             x.data_ptr(), shape[0], shape[1], SCALE)
        else:
            fns["ew"] = call("quant_amax", y.data_ptr(), am.data_ptr(), ws.data_ptr(), x.data_ptr(), n, SCALE)
        for v in VARIANTS if transpose else ():  # --variant-lib: the tile kernel's other shapes, as ew.<v>
            sym = f"ew_cells_cast_transpose_{t}__{v}"
            if VARIANT_LIB is not None and getattr(VARIANT_LIB, sym, None) is not None:
                y_v, yt_v = torch.empty(shape, dtype=f8, device=dev), torch.empty((shape[1], shape[0]), dtype=f8,
                                                                                  device=dev)
                am_v, ws_v = torch.empty((), dtype=torch.float32, device=dev), torch.zeros_like(ws)
                outs["ew." + v] = (y_v, yt_v, am_v)
                keep += [y_v, yt_v, am_v, ws_v]
                fns["ew." + v] = tc.ew_call(VARIANT_LIB, sym, y_v.data_ptr(), yt_v.data_ptr(), am_v.data_ptr(),
                                            ws_v.data_ptr(), x.data_ptr(), shape[0], shape[1], SCALE, stream)
        for name, fn in fns.items():
            y, yt, am = outs[name]

            def check(fn=fn, y=y, yt=yt, am=am):
                poisoned(*[v for v in (y, yt, am) if v is not None])
                fn()
                torch.cuda.synchronize()
                errs = [same_bits("y", y, want_y), exact("amax", am, want_am)]
                if yt is not None:
                    errs.append(same_bits("yt", yt, want_y.t()))
                errs = [e for e in errs if e]
                return "; ".join(errs) or None
            impls[name] = Impl(fn, nbytes, check)
        if transpose:  # ew's 1-D copy of x: the bar
            xc = torch.empty_like(x)
            keep.append(xc)
            copy = call("copy", xc.data_ptr(), x.data_ptr(), n)
            impls["ew_1d_copy"] = Impl(copy, 2 * n * size, lambda: (
                poisoned(xc), copy(), torch.cuda.synchronize(),
                None if torch.equal(xc, x) else "the copy differs")[-1])
            ref = "ew_1d_copy"
        else:  # ew's plain scaled cast: the bar
            y2 = torch.empty(shape, dtype=f8, device=dev)
            keep.append(y2)
            cast = call("fp8_cast", y2.data_ptr(), x.data_ptr(), n, SCALE)
            impls["ew_cast"] = Impl(cast, n * (size + 1), lambda: (
                poisoned(y2), cast(), torch.cuda.synchronize(), same_bits("y", y2, want_y))[-1])
            ref = "ew_cast"
    elif op == "dropout":
        nbytes = 2 * n * size
        x64 = x.double()
        # Two ulp: PyTorch and ew multiply by the scale 1 / (1 - p) rounded to float (eager, torch.compile
        # and ew alike were more than one ulp from x / (1 - p) in about 6% of the kept f32 values, H200,
        # 2026-12-05), then round the product.
        scale_ulp = 2 * ulp(x64 / (1 - P), t)
        del x64

        def dropout_check(get):
            def check():
                out = get()
                torch.cuda.synchronize()
                if torch.isnan(out).any().item():
                    return "an output is NaN (not written)"
                kept = out != 0
                k = int(kept.sum().item())
                mean, sd = n * (1 - P), (n * P * (1 - P)) ** 0.5
                if abs(k - mean) > 6 * sd:
                    return f"kept {k} of {n}, expected {mean:.0f} +- {6 * sd:.0f}"
                err = ((out.double() - x.double() / (1 - P)).abs() > scale_ulp) & kept
                bad = int(err.sum().item())
                return f"{bad} kept values not x / (1 - p)" if bad else None
            return check

        f_drop = lambda x: torch.nn.functional.dropout(x, P, training=True)  # noqa: E731
        compiled = compiled_of(f_drop)
        last = {}
        impls["eager"] = Impl(lambda: last.__setitem__("eager", f_drop(x)), nbytes,
                              dropout_check(lambda: (last.__setitem__("eager", f_drop(x)), last["eager"])[1]))
        impls["compile"] = Impl(lambda: last.__setitem__("compile", compiled(x)), nbytes,
                                dropout_check(lambda: (last.__setitem__("compile", compiled(x)),
                                                       last["compile"])[1]))
        y = torch.empty_like(x)
        keep.append(y)
        drop = call("dropout", y.data_ptr(), x.data_ptr(), n, P, DROP_SEED, DROP_OFFSET)
        impls["ew"] = Impl(drop, nbytes, dropout_check(lambda: (poisoned(y), drop(), y)[2]))
        # ew::random_bits16: 16 bits an element, eight elements from a Philox block (keep probability in
        # steps of 2^-16); a variant row beside ew's 32-bit words and torch.compile.
        y16 = torch.empty_like(x)
        keep.append(y16)
        drop16 = call("dropout16", y16.data_ptr(), x.data_ptr(), n, P, DROP_SEED, DROP_OFFSET)
        impls["ew.bits16"] = Impl(drop16, nbytes, dropout_check(lambda: (poisoned(y16), drop16(), y16)[2]))
        ref = add_relu_ref(impls, call, x, keep)
    elif op in ("amax", "sum"):
        nbytes = n * size
        if op == "amax":
            want = x.float().abs().max()
            f_red = lambda r, x: r.copy_(x.abs().amax().float())  # noqa: E731
            ok = lambda r: exact("amax", r, want)  # noqa: E731
        else:
            s64, mag = x.double().sum().item(), x.double().abs().sum().item()
            f_red = lambda r, x: r.copy_(x.sum(dtype=torch.float32))  # noqa: E731
            ok = lambda r: None if abs(float(r.item()) - s64) <= mag * 2.0 ** -16 else \
                f"sum {float(r.item())!r}, want {s64!r}"  # noqa: E731
        compiled = compiled_of(f_red)
        outs = {k: torch.empty((), dtype=torch.float32, device=dev) for k in ("eager", "compile", "ew")}
        keep += list(outs.values())
        fns = {"eager": lambda: f_red(outs["eager"], x), "compile": lambda: compiled(outs["compile"], x),
               "ew": call(op, outs["ew"].data_ptr(), ws.data_ptr(), x.data_ptr(), n)}
        for name, fn in fns.items():
            r = outs[name]
            impls[name] = Impl(fn, nbytes, lambda fn=fn, r=r: (poisoned(r), fn(), torch.cuda.synchronize(),
                                                              ok(r))[-1])
    elif op == "bias_gelu":
        R, C = shape
        b = tc.random_of(gen, dt)(C)
        keep.append(b)
        nbytes = (2 * n + C) * size
        w64 = x.double() + b.double()
        want = torch.nn.functional.gelu(w64)  # float64, exact erf
        # Three terms. (1) ew's stated bound for gelu (10 ulp for f32, 1 for the 16-bit types; 2 here).
        # (2) What rounding x + b to T first may move the result: eager PyTorch rounds the sum to T before
        # the GELU (f32 and bf16), torch.compile and ew (f32) too, and GELU's slope is large in its negative
        # tail, so a half-ulp change of the sum is many ulp of the result there. (3) PyTorch's formula,
        # 0.5 x (1 + erf(x / sqrt 2)) in float, cancels for x < 0: erf's error near -1 (2 ulp of float, 2^-23)
        # is an absolute error of |x| 2^-24 in the result, many ulp where the result is small (a bf16 result
        # too, below 2^-8 |x|); |x| 2^-22 allows four times that. With (1) at 2 ulp and without (3), eager
        # and torch.compile failed in 28% (f32) and 6% (bf16) of the elements, ew in 1.7% (f32; H100,
        # 2026-12-05); without (2) all three failed in 7 to 30% (H200, 2026-12-05).
        slope = (0.5 * (1 + torch.erf(w64 / 2 ** 0.5))
                 + w64 * torch.exp(-0.5 * w64 * w64) / (2 * 3.141592653589793) ** 0.5).abs()
        bound_ulps = 10 if t == "f32" else 2
        tol = bound_ulps * ulp(want, t) + slope * ulp(w64, t) / 2 + w64.abs() * 2.0 ** -22
        del slope
        f_bg = lambda y, x, b: y.copy_(torch.nn.functional.gelu(x + b))  # noqa: E731
        compiled = compiled_of(f_bg)
        outs = {k: torch.empty(shape, dtype=dt, device=dev) for k in ("eager", "compile", "ew")}
        keep += list(outs.values())
        fns = {"eager": lambda: outs["eager"].copy_(torch.nn.functional.gelu(x + b)),
               "compile": lambda: compiled(outs["compile"], x, b),
               "ew": call("bias_gelu", outs["ew"].data_ptr(), x.data_ptr(), b.data_ptr(), R, C)}
        for v in VARIANTS:  # --variant-lib: the same launch under other policies, as ew.<v>
            sym = f"ew_cells_bias_gelu_{t}__{v}"
            if VARIANT_LIB is not None and getattr(VARIANT_LIB, sym, None) is not None:
                outs["ew." + v] = y_v = torch.empty(shape, dtype=dt, device=dev)
                keep.append(y_v)
                fns["ew." + v] = tc.ew_call(VARIANT_LIB, sym, y_v.data_ptr(), x.data_ptr(), b.data_ptr(), R, C,
                                            stream)

        def gelu_check(fn, y):
            poisoned(y)
            fn()
            torch.cuda.synchronize()
            err = (y.double() - want.double()).abs()
            bad = ~(err <= tol)
            k = int(bad.sum().item())
            if not k:
                return None
            # The worst element relative to its tolerance (NaN first), to tell a wrong kernel from a
            # tolerance that misses a case.
            ratio = torch.where(bad & torch.isnan(err), torch.full_like(err, float("inf")), err / tol)
            i = int(torch.argmax(torch.where(bad, ratio, torch.zeros_like(ratio))).item())
            r, c = divmod(i, C)
            return (f"{k} of {n} beyond the tolerance of gelu(x + b); worst at [{r}, {c}]: x + b = "
                    f"{w64.view(-1)[i].item():.9g}, got {y.view(-1)[i].item():.9g}, want "
                    f"{want.view(-1)[i].item():.9g}, tolerance {tol.view(-1)[i].item():.3g}")
        for name, fn in fns.items():
            impls[name] = Impl(fn, nbytes, lambda fn=fn, y=outs[name]: gelu_check(fn, y))
        ref = add_relu_ref(impls, call, x, keep)
    elif op == "pow":
        a_in, e_in = x.abs(), tc.random_of(gen, dt)(*shape)
        keep += [a_in, e_in]
        nbytes = 3 * n * size
        # The float64 power rounded to T, within ew's stated bound (1 ulp of a 16-bit result; float: 2 ulp,
        # CUDA's powf) and, for PyTorch, 1 ulp more (its float powf rounded to bf16 can be a double rounding).
        want = torch.pow(a_in.double(), e_in.double())
        tol = (3 if t == "f32" else 2) * ulp(want, t)
        f_pow = lambda y, a, e: y.copy_(torch.pow(a, e))  # noqa: E731
        compiled = compiled_of(f_pow)
        outs = {k: torch.empty(shape, dtype=dt, device=dev) for k in ("eager", "compile", "ew")}
        keep += list(outs.values())
        fns = {"eager": lambda: torch.pow(a_in, e_in, out=outs["eager"]),
               "compile": lambda: compiled(outs["compile"], a_in, e_in),
               "ew": call("pow", outs["ew"].data_ptr(), a_in.data_ptr(), e_in.data_ptr(), n)}

        def pow_check(fn, y):
            poisoned(y)
            fn()
            torch.cuda.synchronize()
            bad = ~((y.double() - want).abs() <= tol)
            k = int(bad.sum().item())
            if not k:
                return None
            i = int(torch.argmax(bad.to(torch.uint8)).item())
            return (f"{k} of {n} beyond the tolerance of pow; e.g. [{i}]: pow({a_in[i].item():.9g}, "
                    f"{e_in[i].item():.9g}) = {y[i].item():.9g}, want {want[i].item():.9g}")
        for name, fn in fns.items():
            impls[name] = Impl(fn, nbytes, lambda fn=fn, y=outs[name]: pow_check(fn, y))
        ref = add_relu_ref(impls, call, x, keep)
    return {"impls": impls, "ref": ref, "keep": keep, "elements": n}


def check(cell, when):
    errors = []
    for name, imp in cell["impls"].items():
        err = imp.check()
        if err:
            errors.append(f"{name} {when}: {err}")
    return errors


def run_cell(i, spec, lib, stream, timer, a):
    rec = {"name": cell_name(spec), "op": spec[0], "type": spec[1], "shape": list(spec[2])}
    t0 = time.time()
    torch._dynamo.reset()
    gen = torch.Generator(device=tc.DEV).manual_seed(tc.SEED + 1000 + i)
    cell = build_cell(spec, lib, stream, gen, a.compile_mode)
    cell["impls"]["compile"].fn()  # compiles
    torch.cuda.synchronize()
    state = tc.dynamo_state()
    errors = check(cell, "before timing")
    if errors:
        return rec, errors
    times = timer.run(cell["impls"])
    errors = check(cell, "after timing")
    if tc.dynamo_state() != state:
        errors.append("compile: dynamo compiled again after the first call")
    rec.update({"elements": cell["elements"], "ref": cell["ref"],
                "impls": {k: tc.stats(v, cell["impls"][k].nbytes) for k, v in times.items()}})
    g = {k: v["GBps"] for k, v in rec["impls"].items()}
    rec["ratios"] = {"ew_over_compile": g["ew"] / g["compile"], "ew_over_eager": g["ew"] / g["eager"],
                     "ew_over_ref": g["ew"] / g[cell["ref"]] if cell["ref"] else None}
    rec["seconds"] = round(time.time() - t0, 1)
    print(f"{rec['name']:28s} " + " ".join(f"{k} {v:.0f}" for k, v in g.items()) +
          f" GB/s, ew/compile {rec['ratios']['ew_over_compile']:.3f} [{rec['seconds']} s]")
    return rec, errors


BARS = {"quant_amax": ("ew_cast", 0.97), "dropout": ("ew_1d_relu", 0.97), "cast_transpose": ("ew_1d_copy", 0.90),
        "bias_gelu": ("ew_1d_relu", 0.97), "pow": ("ew_1d_relu", 0.97)}


def markdown(cells, a):
    lines = [f"torch.compile mode: {a.compile_mode or 'default'}; GB/s, median of {a.samples}, cold L2", "",
             "| cell | eager | compile | ew | ew / compile | ew / ref | ref | ref GB/s | bars | max cv % |",
             "|---|---:|---:|---:|---:|---:|---|---:|---|---:|"]
    for c in cells:
        name = c["name"] + (" **FAILED**" if c.get("errors") else "")
        if "impls" not in c:
            lines.append(f"| {name} |" + " |" * 9)
            continue
        g, r, ref = c["impls"], c["ratios"], c["ref"]
        bar = BARS.get(c["op"])
        bars = (f">= {bar[1]} of ref, " if bar else "") + ">= 1.00 of compile"
        cv = max(v["cv_pct"] for v in g.values())
        own = "—" if r["ew_over_ref"] is None else f"{r['ew_over_ref']:.3f}"
        ref_g = "—" if ref is None else f"{g[ref]['GBps']:.0f}"
        lines.append(f"| {name} | {g['eager']['GBps']:.0f} | {g['compile']['GBps']:.0f} | {g['ew']['GBps']:.0f} | "
                     f"{r['ew_over_compile']:.3f} | {own} | {ref or '—'} | {ref_g} | {bars} | {cv:.1f} |")
    rows = [(c["name"], k, v["GBps"], c["impls"]["ew"]["GBps"], c["impls"]["compile"]["GBps"])
            for c in cells for k, v in c.get("impls", {}).items() if k.startswith("ew.")]
    if rows:  # --variants: each variant beside ew's own launch and torch.compile, in the same cell
        lines += ["", "| cell | variant | GB/s | / ew | / compile |", "|---|---|---:|---:|---:|"]
        lines += [f"| {n} | {k[3:]} | {g:.0f} | {g / e:.3f} | {g / c:.3f} |" for n, k, g, e, c in rows]
    return "\n".join(lines) + "\n"


def main():
    global torch
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lib", default=os.environ.get("EW_CELLS_LIB", f"{tc.ROOT}/build-gpu/bench/libew_cells.so"))
    ap.add_argument("--out", help="JSON file to write")
    ap.add_argument("--md", help="markdown table to write (also printed)")
    ap.add_argument("--samples", type=int, default=15)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--sleep-cycles", type=int, default=150_000)
    ap.add_argument("--compile-mode", default=None)
    ap.add_argument("--quick", action="store_true", help="the cells at 2^24, 2^26 and [8192, 8192] only")
    ap.add_argument("--filter", help="regex on the cell names (e.g. 'quant_amax/bf16')")
    ap.add_argument("--commit", default="")
    ap.add_argument("--variant-lib", help="a variants library: bias_gelu or cast_transpose under other policies")
    ap.add_argument("--variants", default="", help="comma-separated variant names of --variant-lib")
    a = ap.parse_args()
    sys.stdout.reconfigure(line_buffering=True)
    try:
        import torch as _torch
    except ImportError as e:
        print(f"torch_fused_cells: no PyTorch here ({e}): skipped")
        return 0
    torch = tc.torch = _torch
    tc.set_dtypes()
    if not torch.cuda.is_available():
        print("torch_fused_cells: no CUDA device: skipped")
        return 0
    if not os.path.isfile(a.lib):
        print(f"torch_fused_cells: no {a.lib} (build it with -DEW_BUILD_TORCH_CELLS=ON, or scripts/build_gpu.sh)")
        return 1
    lib = ctypes.CDLL(a.lib)
    Pp, I, F = ctypes.c_void_p, ctypes.c_int64, ctypes.c_float
    sig = {"fp8_cast": [Pp, Pp, I, F], "quant_amax": [Pp, Pp, Pp, Pp, I, F], "dropout": [Pp, Pp, I, F, I, I],
           "dropout16": [Pp, Pp, I, F, I, I],
           "amax": [Pp, Pp, Pp, I], "sum": [Pp, Pp, Pp, I], "cast_transpose": [Pp, Pp, Pp, Pp, Pp, I, I, F],
           "bias_gelu": [Pp, Pp, Pp, I, I], "copy": [Pp, Pp, I], "relu": [Pp, Pp, I], "pow": [Pp, Pp, Pp, I]}
    for op, types in sig.items():
        for t in ("f32", "bf16"):
            f = getattr(lib, f"ew_cells_{op}_{t}")
            f.argtypes, f.restype = types + [Pp], ctypes.c_int
    lib.ew_cells_last_error.restype = ctypes.c_char_p
    lib.ew_cells_workspace_bytes.restype = ctypes.c_int64
    global VARIANT_LIB, VARIANTS
    if a.variant_lib:
        VARIANT_LIB = ctypes.CDLL(a.variant_lib)
        VARIANTS = tuple(v for v in a.variants.split(",") if v)
        for v in VARIANTS:
            for op in ("bias_gelu", "cast_transpose"):
                for t in ("f32", "bf16"):
                    f = getattr(VARIANT_LIB, f"ew_cells_{op}_{t}__{v}", None)
                    if f is not None:
                        f.argtypes, f.restype = sig[op] + [Pp], ctypes.c_int
        VARIANT_LIB.ew_cells_last_error.restype = ctypes.c_char_p
    torch.cuda.init()
    stream = torch.cuda.current_stream().cuda_stream
    timer = tc.Timer(a)
    print(f"torch_fused_cells: {torch.cuda.get_device_name()}, torch {torch.__version__}, compile mode "
          f"{a.compile_mode or 'default'}")
    cells, failures, t_start = [], [], time.time()
    for i, spec in enumerate(cell_specs(a)):
        try:
            rec, errors = run_cell(i, spec, lib, stream, timer, a)
        except Exception as e:  # noqa: BLE001 - the cell fails, the run goes on
            rec, errors = {"name": cell_name(spec), "op": spec[0]}, [f"{type(e).__name__}: {e}"]
        cells.append(rec)
        if errors:
            rec["errors"] = errors
            failures += [f"{rec['name']}: {e}" for e in errors]
            print(f"FAILED {rec['name']}: " + "; ".join(errors))
        torch.cuda.empty_cache()
    table = markdown(cells, a)
    print("\n" + table + f"\ntotal {time.time() - t_start:.1f} s")
    if a.md:
        with open(a.md, "w") as f:
            f.write(table)
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__,
                       "host": platform.node(), "commit": a.commit, "compile_mode": a.compile_mode,
                       "samples": a.samples, "cells": cells, "failures": failures,
                       "median_cv_pct": statistics.median([v["cv_pct"] for c in cells
                                                           for v in c.get("impls", {}).values()] or [0])},
                      f, indent=1)
    if failures:
        print(f"torch_fused_cells: {len(failures)} FAILED:\n  " + "\n  ".join(failures))
        return 1
    print(f"torch_fused_cells: {len(cells)} cells, every result checked before and after timing")
    return 0


if __name__ == "__main__":
    sys.exit(main())
