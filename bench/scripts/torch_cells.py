#!/usr/bin/env python3
# Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
"""Issue 21's cells timed three ways in one process: eager PyTorch, torch.compile (Inductor) and ew, the last
through libew_cells.so (bench/torch_cells/ew_cells.cu, -DEW_BUILD_TORCH_CELLS=ON) called with ctypes.

    python3 bench/scripts/torch_cells.py --lib build-gpu/bench/libew_cells.so --out cells.json --md cells.md
        [--one-d] [--permutes] [--quick] [--filter REGEX] [--samples 15] [--compile-mode MODE] [--commit SHA]

Cells, f32 and bf16: bias add x[R, C] + b[C] and column broadcast x[R, C] * col[R, 1] at [2^16, 4096] and
[2^14, 1000]; per-channel (x - mean[c]) * inv_std[c] over NCHW [32, 256, 56, 56]; transposed copy y[C, R] =
x[R, C]^T at both shapes; 1-D relu over 32*256*56*56 and 2^26. --one-d adds the 1-D cells: add, relu,
clamp(-1, 1), scale_bias (1.5 x - 0.25) over f32, f16, bf16 at 2^20, 2^22, ..., 2^28. --permutes adds the
u8 and f64 transposes and, over f32, bf16 and u8, the 4-D permutes y = x.permute(P).contiguous(): NCHW ->
NHWC from [32, 256, 56, 56], NHWC -> NCHW from [32, 56, 56, 256], attention heads (0, 2, 1, 3) from
[8, 2048, 16, 128]. --shapes adds the same ops on other shapes (SHAPE_CELLS): y = x + b with b broadcast
over odd extents (f32, f16, bf16, u8, f64), ranks 3 to 5, an odd per-channel NCHW and a one-element b, and
y = relu(x) (and a bias add) into pitched outputs (y the first columns of wider rows, up to half of each;
the rest of each row must stay as poisoned) and from a sliced input. --quick: a few of each.

eager: the natural one-liner into the preallocated y (torch.add(x, b, out=y), torch.mul(x - mean, inv_std,
out=y) (two kernels), y.copy_(x.t()), torch.clamp_min(x, 0, out=y) for relu, torch.clamp; scale_bias the
one-kernel torch.add(beta, x, alpha=alpha, out=y), beta a 0-dim CPU tensor). compile: torch.compile
(fullgraph, dynamic=False, --compile-mode) of the same function (scale_bias: torch.add(x * alpha, beta,
out=y)), one per cell (dynamo reset between cells), compiled and warmed before timing; dynamo's counters must
not move after the first call (no recompile, no new graph). --compile-mode max-autotune-no-cudagraphs
autotunes Inductor's kernels (longer compiles); the CUDA-graph modes would time graph replays. ew: one
ew::elementwise call on data_ptr()s and torch's current stream. Broadcast and per-channel cells also time
ew's 1-D relu over as many elements (same x and y), transposes ew's 1-D copy: issue 21's bars.

Measurement: before each timed launch, outside the events, the L2 is made cold (zero_() of max(256 MB,
2x L2), then a sum over another such buffer so that it holds clean lines, as ew_bench's cold mode), then
torch.cuda._sleep keeps the GPU busy while Python enqueues, so Python's launch cost (guards, ctypes) stays
out of the timed region; start event, the call, end event. After warm-up calls the implementations take
turns sample by sample (round robin, the first rotating); median of --samples, cv. GB/s (SI) = (each input
read once + the output written once) / median. Each result is checked before and after timing, the output
NaN-filled (u8: zeroed) first, against float64 rounded to the type: exact for copies, relu and clamp, else within 1 ulp
(scale_bias: plus 1 ulp of alpha x, for kernels that round alpha x first). Exit 1 on a wrong result, a
failed call or a recompile; exit 0 with a message without torch or a GPU.
"""
import argparse
import collections
import ctypes
import datetime
import importlib.metadata
import json
import os
import platform
import re
import statistics
import sys
import time

ALPHA, BETA, LO, HI = 1.5, -0.25, -1.0, 1.0
SEED = 20261202
MANT = {"f32": 23, "f16": 10, "bf16": 7, "f64": 52}  # stored significand bits
EMIN = {"f32": -126, "f16": -14, "bf16": -126, "f64": -1022}  # smallest normal exponent
SIZE = {"f32": 4, "f16": 2, "bf16": 2, "u8": 1, "f64": 8}
# The 4-D permutes: x's shape and the permutation (y = x.permute(P).contiguous()).
PERMUTES = {"nchw_to_nhwc": ((32, 256, 56, 56), (0, 2, 3, 1)), "nhwc_to_nchw": ((32, 56, 56, 256), (0, 3, 1, 2)),
            "heads_0213": ((8, 2048, 16, 128), (0, 2, 1, 3))}
NCHW = (32, 256, 56, 56)
# --shapes: issue 21's "same ops on other shapes". name: (types, launch extents, b's shape (y = x + b; None:
# y = relu(x)), y's row pitch (None: contiguous), x's row pitch and column offset (None: contiguous)).
F16_8_64 = ("f32", "f16", "bf16", "u8", "f64")
SHAPE_CELLS = {
    "odd_bias": (F16_8_64, (16411, 1021), (1021,), None, None),  # rows of no whole 16-byte vector
    "batch_bias": (("f32", "bf16"), (32, 1024, 768), (32, 1, 768), None, None),  # rank 3
    "odd_channel": (("f32", "bf16"), (32, 255, 55, 57), (1, 255, 1, 1), None, None),  # per-channel, odd H*W
    "bcast4": (("f32", "bf16"), (32, 32, 64, 256), (32, 1, 64, 1), None, None),  # rank 4 after coalescing
    "bcast5": (("f32", "bf16"), (8, 16, 16, 64, 128), (1, 16, 1, 64, 1), None, None),  # rank 5
    "short_bias": (("f32", "bf16"), (1 << 16, 129), (129,), None, None),  # short rows of no whole vector
    "short_bias255": (("f32", "bf16"), (1 << 15, 255), (255,), None, None),
    "small_channel": (("f32", "bf16"), (64, 256, 13, 13), (1, 256, 1, 1), None, None),  # H * W = 169
    "scalar_add": (("f32", "bf16"), (1 << 14, 1000), (1, 1), None, None),  # a one-element array
    "pitched_relu": (("f32", "bf16"), (1 << 14, 1000), None, 1024, None),  # y: columns of a [R, 1024]
    "pitched_relu_odd": (("f32", "bf16"), (16411, 1021), None, 1031, None),
    "pitched_bias_odd": (("f32", "bf16"), (16411, 1021), (1021,), 1031, None),  # a bias into pitched rows
    "sliced_out_relu": (("f32", "bf16"), (1 << 14, 1000), None, 2000, None),  # y: half of each [R, 2000] row
    "sliced_out25_relu": (("f32", "bf16"), (1 << 14, 1000), None, 1250, None),  # padding 25% of a row
    "sliced_out50_relu": (("f32", "bf16"), (1 << 14, 1000), None, 1500, None),  # padding 50% of a row
    "sliced_relu": (("f32", "bf16"), (1 << 14, 1000), None, None, (1024, 16)),  # x = w[:, 16:1016]
}
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEV = "cuda"
torch = None  # imported in main(), so that the script runs (and skips) without it


# The functions eager PyTorch runs and torch.compile compiles: each writes y.
def f_add(y, a, b): torch.add(a, b, out=y)
def f_mul(y, x, v): torch.mul(x, v, out=y)
def f_norm(y, x, mean, inv_std): torch.mul(x - mean, inv_std, out=y)
def f_transpose(y, x): y.copy_(x.t())
def f_permute(perm): return lambda y, x: y.copy_(x.permute(*perm))
def f_relu(y, x): torch.clamp_min(x, 0.0, out=y)
def f_clamp(y, x): torch.clamp(x, LO, HI, out=y)
def f_scale_bias(y, x): torch.add(x * ALPHA, BETA, out=y)


def cell_specs(a):
    """(group, op, type, shape) of every cell the options select."""
    shapes2d = ((1 << 16, 4096), (1 << 14, 1000))
    specs = []
    for t in ("f32", "bf16"):
        specs += [("bcast", op, t, s) for s in shapes2d for op in ("bias_add", "col_mul")]
        specs.append(("bcast", "channel_norm", t, NCHW))
        specs += [("transpose", "transpose", t, s) for s in shapes2d]
        specs += [("relu1d", "relu", t, (n,)) for n in (32 * 256 * 56 * 56, 1 << 26)]
    if a.permutes:  # the other element sizes' transposes, and the 4-D permutes
        specs += [("transpose", "transpose", t, s) for t in ("u8", "f64") for s in shapes2d]
        specs += [("permute", p, t, PERMUTES[p][0]) for p in PERMUTES for t in ("f32", "bf16", "u8")]
    if a.quick:
        keep = {("bias_add", "f32", (1 << 14, 1000)), ("col_mul", "bf16", (1 << 14, 1000)),
                ("channel_norm", "f32", NCHW), ("transpose", "bf16", (1 << 14, 1000)),
                ("relu", "bf16", (1 << 26,))}
        specs = [s for s in specs if s[1:] in keep]
    if a.shapes:
        specs += [("shapes", k, t, v[1]) for k, v in SHAPE_CELLS.items() for t in v[0]]
    if a.one_d:
        sizes = (1 << 20, 1 << 24) if a.quick else tuple(1 << e for e in range(20, 29, 2))
        for t in ("f32", "bf16") if a.quick else ("f32", "f16", "bf16"):
            specs += [("1d", op, t, (n,)) for n in sizes for op in ("add", "relu", "clamp", "scale_bias")]
    if a.filter:
        specs = [s for s in specs if re.search(a.filter, cell_name(s))]
    return specs


def cell_name(spec):
    group, op, t, shape = spec
    return f"{'1d.' if group == '1d' else ''}{op}/{t}/{'x'.join(str(d) for d in shape)}"


def ulp(w64, t):
    """The spacing of type t's values at |w64| (float64): 2^(exponent - significand bits)."""
    _, e = torch.frexp(w64)
    e = torch.where(w64 == 0, torch.full_like(e, EMIN[t]), torch.clamp(e - 1, min=EMIN[t]))
    return torch.exp2((e - MANT[t]).to(torch.float64))


# want, tol: the check (tol None: exact); out: the tensor it writes (None: the cell's y)
Impl = collections.namedtuple("Impl", "fn nbytes want tol out", defaults=(None,))


def ew_call(lib, fname, *args):
    f = getattr(lib, fname)

    def call():
        rc = f(*args)
        if rc != 0:
            raise RuntimeError(f"{fname} returned cudaError {rc}: {lib.ew_cells_last_error().decode()}")
    return call


DTYPE = None  # type name -> torch dtype (set_dtypes, once torch is imported)


def set_dtypes():
    global DTYPE
    DTYPE = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16, "u8": torch.uint8,
             "f64": torch.float64}


def random_of(gen, dt):
    def rnd(*s):  # |v| in [1/16, 4), random sign: never zero (u8: 1 to 255)
        if dt == torch.uint8:
            return torch.randint(1, 256, s, generator=gen, device=DEV, dtype=torch.uint8)
        mag = 0.0625 + torch.rand(s, generator=gen, device=DEV) * 3.9375
        return torch.where(torch.rand(s, generator=gen, device=DEV) < 0.5, -mag, mag).to(dt)
    return rnd


def i64s(v):
    return (ctypes.c_int64 * len(v))(*v)


def build_shape_cell(spec, lib, stream, gen, mode):
    """A --shapes cell: y = x + b (b broadcast) or y = relu(x), y and x views with the cell's pitches."""
    _, op, t, shape = spec
    dt, (_, _, b_shape, y_pitch, x_slice) = DTYPE[t], SHAPE_CELLS[op]
    rnd = random_of(gen, dt)
    if x_slice:  # x: columns [off, off + C) of a [R, pitch] array
        pitch, off = x_slice
        x = rnd(shape[0], pitch)[:, off:off + shape[1]]
    else:
        x = rnd(*shape)
    y_store = None
    if y_pitch:  # y: the first C columns of a [R, pitch] array; the rest must stay as poisoned
        y_store = torch.empty((shape[0], y_pitch), dtype=dt, device=DEV)
        y = y_store[:, :shape[1]]
    else:
        y = torch.empty(shape, dtype=dt, device=DEV)
    n, rank = x.numel(), len(shape)
    if b_shape:
        b = rnd(*b_shape)
        ins, src, extra = (x, b), f_add, b.numel()
        if dt == torch.uint8:  # wraps modulo 256, as ew's and PyTorch's add
            want = ((x.to(torch.int32) + b.to(torch.int32)) % 256).to(dt)
        else:
            want = (x.double() + b.double()).to(dt)
        tol = None if dt == torch.uint8 else ulp(want.double(), t)
        views = (x, b.expand(shape))
        fname = "add_nd"
    else:
        ins, src, extra, want, tol = (x,), f_relu, 0, torch.clamp_min(x, 0.0), None
        views, fname = (x,), "relu_nd"
    src_value = (lambda a, b: a + b) if b_shape else (lambda a: torch.clamp_min(a, 0.0))
    keep = [i64s(shape), i64s(y.stride())] + [i64s(v.stride()) for v in views]  # alive while the cell is
    ew = ew_call(lib, f"ew_cells_{fname}_{t}", y.data_ptr(), *[v.data_ptr() for v in ins], rank, *keep, stream)
    nbytes = (2 * n + extra) * SIZE[t]
    # Dynamo refuses an `out=` that is not contiguous: compiled, a pitched y is written by copy_ (Inductor
    # makes it one kernel storing into y's rows); eager keeps `out=` (TensorIterator writes the view).
    traced = src if y.is_contiguous() else (lambda y, *a: y.copy_(src_value(*a)))
    compiled = torch.compile(traced, fullgraph=True, dynamic=False, mode=mode)
    want = want.contiguous()
    impls = {"eager": Impl(lambda: src(y, *ins), nbytes, want, tol),
             "compile": Impl(lambda: compiled(y, *ins), nbytes, want, tol), "ew": Impl(ew, nbytes, want, tol)}
    # ew's 1-D relu over as many elements, contiguous: issue 21's bar for broadcasts, pitched and sliced views
    xc, yc = x.contiguous(), torch.empty(n, dtype=dt, device=DEV)
    call = ew_call(lib, f"ew_cells_relu_{t}", yc.data_ptr(), xc.data_ptr(), n, stream)
    impls["ew_1d_relu"] = Impl(call, 2 * n * SIZE[t], torch.clamp_min(xc, 0.0).reshape(-1), None, yc)
    for v in VARIANTS:  # the same ew call under other launch policies (--variant-lib) or builds (--base-lib)
        if variant_of(f"ew_cells_{fname}_{t}", v) is not None:
            impls["ew." + v] = Impl(ew_call(*variant_of(f"ew_cells_{fname}_{t}", v), y.data_ptr(),
                                            *[a.data_ptr() for a in ins], rank, *keep, stream), nbytes, want, tol)
    keep += [x, xc, yc]  # the 1-D reference's arrays too (its call holds only their addresses)
    return {"y": y, "y_store": y_store, "keep": keep, "impls": impls, "ref": "relu", "elements": n,
            "bytes": nbytes}


def build_cell(spec, lib, stream, gen, mode):
    """Inputs, output, references and the implementations of one cell."""
    group, op, t, shape = spec
    if group == "shapes":
        return build_shape_cell(spec, lib, stream, gen, mode)
    dt = DTYPE[t]
    rnd = random_of(gen, dt)
    x = rnd(*shape)
    n, x64, eager_fn = x.numel(), x.double(), None
    perm = PERMUTES[op][1] if group == "permute" else None
    y_shape = (shape[1], shape[0]) if op == "transpose" else tuple(shape[p] for p in perm) if perm else shape
    y = torch.empty(y_shape, dtype=dt, device=DEV)
    ins, extra = (x,), 0  # extra: elements read besides x and written besides y
    if op == "bias_add":
        b = rnd(shape[1])
        ins, src, want, extra = (x, b), f_add, x64 + b.double(), shape[1]
    elif op == "col_mul":
        col = rnd(shape[0], 1)
        ins, src, want, extra = (x, col), f_mul, x64 * col.double(), shape[0]
    elif op == "channel_norm":
        mean, inv_std = rnd(1, shape[1], 1, 1), rnd(1, shape[1], 1, 1)
        want = (x64 - mean.double()) * inv_std.double()
        ins, src, extra = (x, mean, inv_std), f_norm, 2 * shape[1]
    elif op == "transpose":
        src, want = f_transpose, x.t()
    elif perm:
        src, want = f_permute(perm), x.permute(*perm)
    elif op == "add":
        b = rnd(n)
        ins, src, want, extra = (x, b), f_add, x64 + b.double(), n
    elif op == "relu":
        src, want = f_relu, torch.clamp_min(x, 0.0)
    elif op == "clamp":
        src, want = f_clamp, torch.clamp(x, LO, HI)
    else:
        src, want = f_scale_bias, x64 * ALPHA + BETA
        beta = torch.tensor(BETA, dtype=torch.float64)  # 0-dim CPU tensor: a scalar to TensorIterator
        eager_fn = lambda: torch.add(beta, x, alpha=ALPHA, out=y)  # noqa: E731 - one kernel
    dims = list(shape) if group in ("bcast", "transpose") else list(shape) + list(perm) if perm else [n]
    params = {"clamp": [LO, HI], "scale_bias": [ALPHA, BETA]}.get(op, [])
    ptrs = [v.data_ptr() for v in (y,) + ins]
    fname = "permute4" if perm else op
    ew = ew_call(lib, f"ew_cells_{fname}_{t}", *ptrs, *dims, *params, stream)
    nbytes = (2 * n + extra) * SIZE[t]
    want, tol = want.to(dt).contiguous(), None
    if op not in ("transpose", "relu", "clamp") and not perm:  # those are exact
        tol = ulp(want.double(), t) + (ulp((x64 * ALPHA).abs(), t) if op == "scale_bias" else 0)
    del x64
    compiled = torch.compile(src, fullgraph=True, dynamic=False, mode=mode)
    impls = {"eager": Impl(eager_fn or (lambda: src(y, *ins)), nbytes, want, tol),
             "compile": Impl(lambda: compiled(y, *ins), nbytes, want, tol), "ew": Impl(ew, nbytes, want, tol)}
    ref = {"bcast": "relu", "transpose": "copy", "permute": "copy"}.get(group)
    if ref:  # ew's 1-D relu or copy over as many elements (same x and y): issue 21's bar
        call = ew_call(lib, f"ew_cells_{ref}_{t}", y.data_ptr(), x.data_ptr(), n, stream)
        ref_want = torch.clamp_min(x, 0.0) if ref == "relu" else x
        impls["ew_1d_" + ref] = Impl(call, 2 * n * SIZE[t], ref_want, None)
    for v in VARIANTS:  # the same ew call under other launch policies (--variant-lib) or builds (--base-lib)
        f = variant_of(f"ew_cells_{fname}_{t}", v)
        if f is not None:
            impls["ew." + v] = Impl(ew_call(*f, *ptrs, *dims, *params, stream), nbytes, want, tol)
    return {"y": y, "impls": impls, "ref": ref or ("relu (itself)" if group == "relu1d" else None),
            "elements": n, "bytes": nbytes}


def mismatch(got, want, tol):
    g, w = got.reshape(-1), want.reshape(-1)
    bad = (g != w) if tol is None else ~((g.double() - w.double()).abs() <= tol.reshape(-1))  # NaN fails
    nbad = int(bad.sum().item())
    if nbad == 0:
        return None
    i = int(torch.argmax(bad.to(torch.uint8)).item())
    return f"{nbad} of {g.numel()} elements wrong, e.g. [{i}]: got {g[i].item()!r}, want {w[i].item()!r}"


def check(cell, when):
    errors = []
    for name, imp in cell["impls"].items():
        out = cell["y"] if imp.out is None else imp.out
        store = cell.get("y_store") if imp.out is None else None  # a pitched y's whole rows
        for v in (out,) if store is None else (store,):
            v.fill_(float("nan") if v.is_floating_point() else 0)  # 0: no u8 input is
        imp.fn()
        torch.cuda.synchronize()
        err = mismatch(out, imp.want, imp.tol)
        if err:
            errors.append(f"{name} {when}: {err}")
        if store is not None:  # nothing written outside y's columns
            pad = store[:, out.shape[1]:]
            if not torch.isnan(pad).all().item():
                errors.append(f"{name} {when}: wrote into the row padding outside y")
    return errors


class Timer:
    def __init__(self, a):
        l2 = int(getattr(torch.cuda.get_device_properties(0), "L2_cache_size", 0) or (60 << 20))
        self.flush_bytes = max(256 << 20, 2 * l2)
        self.flush_w = torch.empty(self.flush_bytes // 4, dtype=torch.float32, device=DEV)
        self.flush_r = torch.ones(self.flush_bytes // 4, dtype=torch.float32, device=DEV)
        self.sleep = getattr(torch.cuda, "_sleep", None)
        self.a = a

    def cold(self):
        self.flush_w.zero_()
        self.flush_r.sum()
        if self.sleep is not None:
            self.sleep(self.a.sleep_cycles)

    def run(self, impls):
        """Seconds per sample of each implementation, timed round robin."""
        names = list(impls)
        for name in names:
            for _ in range(self.a.warmup):
                impls[name].fn()
        events = {name: [] for name in names}
        for s in range(self.a.samples):
            k = s % len(names)
            for name in names[k:] + names[:k]:
                self.cold()
                start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                start.record()
                impls[name].fn()
                stop.record()
                events[name].append((start, stop))
        torch.cuda.synchronize()
        return {name: [a.elapsed_time(b) * 1e-3 for a, b in ev] for name, ev in events.items()}


def stats(t, nbytes):
    s = sorted(t)
    q = statistics.quantiles(s, n=4) if len(s) > 1 else [s[0]] * 3
    mean = sum(s) / len(s)
    cv = statistics.stdev(s) / mean if len(s) > 1 else 0.0
    med = statistics.median(s)
    return {"median_us": med * 1e6, "GBps": nbytes / med / 1e9, "cv_pct": 100 * cv, "min_us": s[0] * 1e6,
            "p25_us": q[0] * 1e6, "p75_us": q[2] * 1e6, "max_us": s[-1] * 1e6, "samples": len(s),
            "samples_us": [round(v * 1e6, 3) for v in t]}


def dynamo_state():
    c = torch._dynamo.utils.counters
    return json.dumps({k: dict(c[k]) for k in ("stats", "frames", "recompiles")}, sort_keys=True, default=str)


VARIANT_LIB, BASE_LIB, VARIANTS = None, None, ()


def variant_of(name, v):
    """Variant `v` of cell function `name` as (library, symbol): `<name>__<v>` of --variant-lib, or for `base`
    `name` itself in --base-lib (another build of libew_cells.so); None where the library has none."""
    lib, sym = (BASE_LIB, name) if v == "base" else (VARIANT_LIB, f"{name}__{v}")
    return (lib, sym) if lib is not None and getattr(lib, sym, None) is not None else None


def load_lib(path):
    lib = ctypes.CDLL(path)
    P, I, F, A = ctypes.c_void_p, ctypes.c_int64, ctypes.c_float, ctypes.POINTER(ctypes.c_int64)
    sig = {"bias_add": [P, P, P, I, I], "col_mul": [P, P, P, I, I], "channel_norm": [P, P, P, P, I, I, I, I],
           "transpose": [P, P, I, I], "permute4": [P, P] + [I] * 8, "copy": [P, P, I], "relu": [P, P, I], "add": [P, P, P, I],
           "clamp": [P, P, I, F, F], "scale_bias": [P, P, I, F, F], "add_nd": [P, P, P, I, A, A, A, A],
           "relu_nd": [P, P, I, A, A, A]}
    for op, types in sig.items():
        for t in SIZE:
            for v in ("",) + tuple("__" + v for v in VARIANTS):
                f = getattr(lib, f"ew_cells_{op}_{t}{v}", None)
                if f is not None:
                    f.argtypes, f.restype = types + [P], ctypes.c_int
    lib.ew_cells_last_error.restype = ctypes.c_char_p
    return lib


def markdown(cells, a):
    lines = [f"torch.compile mode: {a.compile_mode or 'default'}; GB/s, median of {a.samples}, cold L2", "",
             "| cell | eager | compile | ew | ew / compile | ew / own 1-D | own 1-D | max cv % |",
             "|---|---:|---:|---:|---:|---:|---|---:|"]
    for c in cells:
        name = c["name"] + (" **FAILED**" if c.get("errors") else "")
        if "impls" not in c:
            lines.append(f"| {name} | | | | | | | |")
            continue
        g, r = {k: f"{v['GBps']:.0f}" for k, v in c["impls"].items()}, c["ratios"]
        own = "—" if r["ew_over_own_1d"] is None else f"{r['ew_over_own_1d']:.3f}"
        cv = max(v["cv_pct"] for v in c["impls"].values())
        lines.append(f"| {name} | {g['eager']} | {g['compile']} | {g['ew']} | {r['ew_over_compile']:.3f} | "
                     f"{own} | {c['ref'] or '—'} | {cv:.1f} |")
    if VARIANTS:  # each variant's GB/s over ew's own in the same cell, and over torch.compile's
        lines += ["", "| cell | ew | " + " | ".join(f"{v} / ew | {v} / compile" for v in VARIANTS) + " |",
                  "|---|---:|" + "---:|---:|" * len(VARIANTS)]
        for c in cells:
            imp = c.get("impls", {})
            if not any("ew." + v in imp for v in VARIANTS):
                continue
            cols = []
            for v in VARIANTS:
                g = imp.get("ew." + v, {}).get("GBps")
                cols += ["—", "—"] if g is None else [f"{g / imp['ew']['GBps']:.3f}",
                                                      f"{g / imp['compile']['GBps']:.3f}"]
            lines.append(f"| {c['name']} | {imp['ew']['GBps']:.0f} | " + " | ".join(cols) + " |")
    return "\n".join(lines) + "\n"


def run_cell(i, spec, lib, stream, timer, a):
    """Builds, compiles, checks and times one cell: (its record, errors, seconds per phase)."""
    rec = {"name": cell_name(spec), "group": spec[0], "op": spec[1], "type": spec[2], "shape": list(spec[3])}
    took, t0 = {}, time.time()

    def lap(phase):
        nonlocal t0
        took[phase] = took.get(phase, 0.0) + time.time() - t0
        t0 = time.time()

    torch._dynamo.reset()
    gen = torch.Generator(device=DEV).manual_seed(SEED + i)
    cell = build_cell(spec, lib, stream, gen, a.compile_mode)
    torch.cuda.synchronize()
    lap("inputs")
    cell["impls"]["compile"].fn()  # compiles
    torch.cuda.synchronize()
    state = dynamo_state()
    lap("compile")
    errors = check(cell, "before timing")
    lap("check")
    if errors:
        return rec, errors, took
    times = timer.run(cell["impls"])
    lap("time")
    errors = check(cell, "after timing")
    if dynamo_state() != state:
        errors.append(f"compile: dynamo compiled again after the first call: {state} -> {dynamo_state()}")
    lap("check")
    rec.update({"elements": cell["elements"], "bytes": cell["bytes"], "ref": cell["ref"],
                "impls": {k: stats(v, cell["impls"][k].nbytes) for k, v in times.items()}})
    g = {k: v["GBps"] for k, v in rec["impls"].items()}
    own = next((v for k, v in g.items() if k.startswith("ew_1d_")), g["ew"] if spec[0] == "relu1d" else None)
    rec["ratios"] = {"ew_over_compile": g["ew"] / g["compile"], "ew_over_eager": g["ew"] / g["eager"],
                     "ew_over_own_1d": g["ew"] / own if own else None}
    print(f"{rec['name']:30s} " + " ".join(f"{k} {v:.0f}" for k, v in g.items()) + " GB/s, ew/compile "
          f"{rec['ratios']['ew_over_compile']:.3f} [" + " ".join(f"{k} {v:.1f}s" for k, v in took.items()) +
          "]")
    return rec, errors, took


def write_json(path, cells, failures, timer, phases, triton_version, a):
    props = torch.cuda.get_device_properties(0)
    context = {
        "gpu": props.name, "gpu_cc": f"{props.major}{props.minor}", "torch_version": torch.__version__,
        "torch_cuda_version": str(torch.version.cuda), "triton_version": triton_version,
        "python": platform.python_version(), "commit": a.commit, "lib": a.lib,
        "run_date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "command": " ".join([os.path.basename(sys.executable)] + sys.argv),
        "compile_mode": a.compile_mode or "default", "samples": a.samples, "warmup": a.warmup,
        "sleep_cycles": a.sleep_cycles, "seed": SEED,
        "phase_seconds": {k: round(v, 1) for k, v in phases.items()},
        "l2_flush": f"zero_() of {timer.flush_bytes} bytes, a sum over another as large, torch.cuda._sleep",
        "interleaving": "round robin sample by sample, the first implementation rotating",
        "bytes_counted": "inputs read once + output written once, SI GB/s"}
    # "benchmarks": a row per (cell, implementation) in the form bench/scripts/to_csv.py reads.
    rows = [{"name": f"{c['name']}/{k}", "run_type": "iteration", "time_unit": "us", "GB/s": v["GBps"],
             "real_time": v["median_us"], "cv_pct": v["cv_pct"], "p25_us": v["p25_us"], "p75_us": v["p75_us"],
             "samples": v["samples"]} for c in cells for k, v in c.get("impls", {}).items()]
    with open(path, "w") as f:
        json.dump({"context": context, "cells": cells, "benchmarks": rows, "failures": failures}, f, indent=1)


def main():
    global torch
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lib", default=os.environ.get("EW_CELLS_LIB", f"{ROOT}/build-gpu/bench/libew_cells.so"),
                    help="libew_cells.so (default: $EW_CELLS_LIB, else build-gpu/bench/)")
    ap.add_argument("--out", help="JSON file to write")
    ap.add_argument("--md", help="markdown table to write (also printed)")
    ap.add_argument("--samples", type=int, default=15)
    ap.add_argument("--warmup", type=int, default=3, help="untimed calls of each implementation first")
    ap.add_argument("--sleep-cycles", type=int, default=150_000, help="torch.cuda._sleep before each start")
    ap.add_argument("--compile-mode", default=None, help="torch.compile's mode (default: its default)")
    ap.add_argument("--one-d", action="store_true", help="add the 60 1-D cells of issue 21")
    ap.add_argument("--permutes", action="store_true",
                    help="add the u8 and f64 transposes and the 4-D permutes (NCHW <-> NHWC, heads)")
    ap.add_argument("--shapes", action="store_true",
                    help="add the other shapes: odd extents, ranks 3 to 5, 16-bit, u8 and f64, a scalar "
                    "broadcast, pitched outputs and sliced inputs (SHAPE_CELLS)")
    ap.add_argument("--quick", action="store_true", help="a few cells of each kind")
    ap.add_argument("--filter", help="regex on the cell names (e.g. 'bias_add/bf16')")
    ap.add_argument("--variant-lib", help="a library of the same cells under other policies "
                    "(libew_cells_variants.so): its ew_cells_<op>_<type>__<v> are timed as ew.<v>")
    ap.add_argument("--variants", default="", help="comma-separated variant names <v> of --variant-lib")
    ap.add_argument("--base-lib", help="another build of libew_cells.so (the tree before a change): its cells "
                    "are timed beside ew's as ew.base")
    ap.add_argument("--commit", default="", help="the ew commit the library was built from")
    a = ap.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # progress lines show as they come, also into a log
    try:
        import torch as _torch
    except ImportError as e:
        print(f"torch_cells: no PyTorch here ({e}): skipped")
        return 0
    torch = _torch
    set_dtypes()
    if not torch.cuda.is_available():
        print("torch_cells: no CUDA device: skipped")
        return 0
    if not os.path.isfile(a.lib):
        print(f"torch_cells: no {a.lib} (build it with -DEW_BUILD_TORCH_CELLS=ON, or scripts/build_gpu.sh)")
        return 1
    t_start = time.time()
    global VARIANT_LIB, BASE_LIB, VARIANTS
    if a.variant_lib:
        VARIANTS = tuple(v for v in a.variants.split(",") if v)
        VARIANT_LIB = load_lib(a.variant_lib)
    if a.base_lib:
        BASE_LIB = load_lib(a.base_lib)
        VARIANTS = ("base",) + VARIANTS
    lib = load_lib(a.lib)
    torch.cuda.init()
    stream = torch.cuda.current_stream().cuda_stream
    timer = Timer(a)
    try:
        triton_version = importlib.metadata.version("triton")
    except Exception:  # noqa: BLE001 - not installed, or no metadata
        triton_version = "none"
    print(f"torch_cells: {torch.cuda.get_device_name()}, torch {torch.__version__} (CUDA "
          f"{torch.version.cuda}), triton {triton_version}, compile mode {a.compile_mode or 'default'}")
    phases = {"inputs": 0.0, "compile": 0.0, "check": 0.0, "time": 0.0}
    cells, failures = [], []
    for i, spec in enumerate(cell_specs(a)):
        try:
            rec, errors, took = run_cell(i, spec, lib, stream, timer, a)
        except Exception as e:  # noqa: BLE001 - the cell fails, the run goes on
            rec, errors, took = {"name": cell_name(spec)}, [f"{type(e).__name__}: {e}"], {}
        for k, v in took.items():
            phases[k] += v
        rec["seconds"] = {k: round(v, 3) for k, v in took.items()}
        cells.append(rec)
        if errors:
            rec["errors"] = errors
            failures += [f"{rec['name']}: {e}" for e in errors]
            print(f"FAILED {rec['name']}: " + "; ".join(errors))
        torch.cuda.empty_cache()
    table = markdown(cells, a)
    print("\n" + table)
    print("phases: " + ", ".join(f"{k} {v:.1f} s" for k, v in phases.items()) +
          f"; total {time.time() - t_start:.1f} s")
    if a.md:
        with open(a.md, "w") as f:
            f.write(table)
    if a.out:
        write_json(a.out, cells, failures, timer, phases, triton_version, a)
    if failures:
        print(f"torch_cells: {len(failures)} FAILED:\n  " + "\n  ".join(failures))
        return 1
    print(f"torch_cells: {len(cells)} cells, every result checked before and after timing")
    return 0


if __name__ == "__main__":
    sys.exit(main())
