#!/usr/bin/env python3
# Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
"""The catalog's ops under eager PyTorch and torch.compile, timed as torch_cells.py times its cells (cold L2,
CUDA events, the GPU held busy by torch.cuda._sleep before each start event, one compiled function per op
and type, round robin, median of --samples), over inputs drawn as bench/ew_bench/catalog.cu draws them
(|x| in [1/16, 4), random sign; |x| where the op needs a positive argument; pow's exponent as x), 2^26
elements of f32 and bf16. With --ew-json (ew_bench's catalog rows from the same machine and call), each op's
ew GB/s beside them: issue 23's other bar, "at least torch.compile's speed for the same op", for the ops
below 0.97 of ew's relu. ew's rows come from another process (ew_bench), so the ratio is across processes:
a first look, not a same-process cell (torch_fused_cells.py's pow and bias_gelu cells are those).

    python3 bench/scripts/torch_catalog_ops.py [--ops sin,cos] [--ew-json catalog.json] [--md FILE]
"""
import argparse
import collections
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_cells as tc  # noqa: E402

# op: (torch function of the input tensors, arity, positive first input)
OPS = {
    "sin": (lambda t: t.sin, 1, False), "cos": (lambda t: t.cos, 1, False),
    "tanh": (lambda t: t.tanh, 1, False), "sigmoid": (lambda t: t.sigmoid, 1, False),
    "erf": (lambda t: t.erf, 1, False), "log": (lambda t: t.log, 1, True), "log2": (lambda t: t.log2, 1, True),
    "log1p": (lambda t: t.log1p, 1, True),
    "silu": (lambda t: t.nn.functional.silu, 1, False), "gelu": (lambda t: t.nn.functional.gelu, 1, False),
    "softplus": (lambda t: t.nn.functional.softplus, 1, False), "mish": (lambda t: t.nn.functional.mish, 1, False),
    "pow": (lambda t: t.pow, 2, True), "relu": (lambda t: t.relu, 1, False),
}


Impl = collections.namedtuple("Impl", "fn")


def make_fn(fn):
    def f(y, *v):
        return y.copy_(fn(*v))
    return f


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ops", default=",".join(OPS))
    ap.add_argument("--types", default="f32,bf16")
    ap.add_argument("--n", type=int, default=1 << 26)
    ap.add_argument("--samples", type=int, default=15)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--sleep-cycles", type=int, default=150_000)
    ap.add_argument("--ew-json", help="ew_bench --benchmark_filter=^catalog/ output of the same call")
    ap.add_argument("--out", help="JSON file to write")
    ap.add_argument("--md", help="markdown table to write (also printed)")
    a = ap.parse_args()
    import torch
    tc.torch = torch
    tc.DEV = "cuda"
    tc.set_dtypes()
    timer = tc.Timer(a)
    gen = torch.Generator(device=tc.DEV)
    gen.manual_seed(20261206)
    ew = {}
    if a.ew_json:
        for b in json.load(open(a.ew_json))["benchmarks"]:
            parts = b["name"].split("/")
            if parts[0] == "catalog" and "GB/s" in b:
                ew[(parts[1], parts[2])] = b["GB/s"]
    rows = []
    for t in a.types.split(","):
        dt = tc.DTYPE[t]
        x = tc.random_of(gen, dt)(a.n)
        e = tc.random_of(gen, dt)(a.n)
        for op in a.ops.split(","):
            f, arity, pos = OPS[op]
            fn = f(torch)
            ins = ([x.abs()] if pos else [x]) + ([e] if arity == 2 else [])
            nbytes = (len(ins) + 1) * a.n * x.element_size()
            y_e, y_c = torch.empty_like(x), torch.empty_like(x)
            # A fresh function and a reset for each op and type: one lambda's code object compiled again and
            # again would meet dynamo's recompile limit and fall back to eager unannounced.
            torch._dynamo.reset()
            compiled = torch.compile(make_fn(fn), dynamic=False)
            compiled(y_c, *ins)
            want = fn(*[v.double() for v in ins]).to(dt)
            tol = 4 * (2.0 ** -7 if t == "bf16" else 2.0 ** -20)
            for name, y in (("compile", y_c),):
                bad = int((~((y.double() - want.double()).abs() <= tol * want.double().abs() + 1e-30)).sum())
                if bad:
                    print(f"{op}/{t}: {name} differs from float64 in {bad} elements beyond {tol:.1e}")
            fns = {"eager": lambda: y_e.copy_(fn(*ins)), "compile": lambda: compiled(y_c, *ins)}
            times = timer.run({k: Impl(v) for k, v in fns.items()})
            st = {k: tc.stats(v, nbytes) for k, v in times.items()}
            g_ew = ew.get((t, op))
            rows.append({"op": op, "type": t, "n": a.n, "bytes": nbytes, "eager": st["eager"], "compile": st["compile"],
                         "ew_GBps": g_ew, "ew_over_compile": g_ew / st["compile"]["GBps"] if g_ew else None})
            r = rows[-1]
            print(f"{op:9s} {t:5s} eager {st['eager']['GBps']:.0f} compile {st['compile']['GBps']:.0f} GB/s"
                  + (f"  ew {g_ew:.0f} ({r['ew_over_compile']:.3f} of compile)" if g_ew else ""), flush=True)
    lines = [f"{torch.cuda.get_device_name(0)}, torch {torch.__version__}; 2^{int(math.log2(a.n))} elements, GB/s "
             f"(inputs read once + output written once), median of {a.samples}, cold L2; ew from --ew-json "
             "(ew_bench, another process)", "",
             "| op | type | eager | compile | ew | ew / compile | compile cv % |", "|---|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        ew_s = f"{r['ew_GBps']:.0f}" if r["ew_GBps"] else "—"
        ratio = f"{r['ew_over_compile']:.3f}" if r["ew_over_compile"] else "—"
        lines.append(f"| {r['op']} | {r['type']} | {r['eager']['GBps']:.0f} | {r['compile']['GBps']:.0f} | {ew_s} | "
                     f"{ratio} | {r['compile']['cv_pct']:.1f} |")
    md = "\n".join(lines) + "\n"
    print(md)
    if a.md:
        open(a.md, "w").write(md)
    if a.out:
        json.dump({"gpu": torch.cuda.get_device_name(0), "torch": torch.__version__, "rows": rows}, open(a.out, "w"),
                  indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
