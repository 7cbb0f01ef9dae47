#!/usr/bin/env python3
# Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
"""Plots and tabulates ew_bench results (and torch_triton.py's, when given).

    python3 bench/scripts/plot.py bench.json [torch_triton.json ...] --png bench.png --table ratios.md [--hot-png hot.png]

--png: effective bandwidth (GB/s) against N (log2 axis), cold L2, aligned, one panel per op x type, one line
per implementation (ew, cub, thrust, the seeds' v0/v1/v3, cudaMemcpy, torch, triton), with the run's copy
reference and datasheet peak as horizontal lines.
--hot-png: per-launch time against N in hot mode (CUDA graph replay), same panels.
--table: markdown: the run's context, the harness check (1 GiB memcpy, cub f32 add at 2^28), ew/cub and
ew/memcpy per op, type and size, the summary cells (2^26/2^28 geomean, 2^24 minimum, misaligned/aligned,
hot small sizes), fusion, host cost per call, and the rows that stayed noisy or failed.

Row names are `op/type/impl/mode/alignment/n[/...]` (Google Benchmark's `/iterations:1/manual_time` suffix
is ignored). Needs matplotlib only for the PNGs; without it the table is still written.
"""

import argparse
import json
import math
import sys

OPS = ["add", "relu", "clamp", "scale_bias"]
TYPES = ["f32", "f64", "f16", "bf16"]
IMPL_STYLE = {  # name: (label, color, linestyle, marker)
    "ew": ("ew", "#d62728", "-", "o"),
    "cub": ("cub::DeviceTransform", "#1f77b4", "-", "s"),
    "thrust": ("thrust::transform", "#17becf", "--", "^"),
    "v3": ("seed v3 (16B vectors)", "#2ca02c", ":", "v"),
    "v1": ("seed v1 (grid-stride)", "#bcbd22", ":", "<"),
    "v0": ("seed v0 (1 thread/elem)", "#8c564b", ":", ">"),
    "memcpy": ("cudaMemcpy D2D", "#7f7f7f", "-.", "x"),
    "torch": ("PyTorch eager", "#ff7f0e", "--", "D"),
    "triton": ("Triton", "#9467bd", "--", "P"),
}


def load(paths):
    rows, contexts = {}, []
    failed = []
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        contexts.append((path, doc.get("context", {})))
        for b in doc.get("benchmarks", []):
            if b.get("run_type") == "aggregate":
                continue
            parts = b.get("run_name", b.get("name", "")).split("/")
            if len(parts) < 6:
                continue
            op, typ, impl, mode, align, n = parts[:6]
            try:
                n = int(n)
            except ValueError:
                continue
            if b.get("error_occurred"):
                failed.append(f"{b['name']}: {b.get('error_message', '')}")
                continue
            rows[(op, typ, impl, mode, align, n)] = b
    return rows, contexts, failed


def gbps(rows, key):
    r = rows.get(key)
    return r.get("GB/s") if r else None


def time_us(rows, key):
    r = rows.get(key)
    return r.get("real_time") if r else None


def fmt(v, digits=1):
    return "–" if v is None else f"{v:.{digits}f}"


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def geomean(xs):
    xs = [x for x in xs if x is not None and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def size_label(n):
    return f"2^{int(math.log2(n))}" if n & (n - 1) == 0 else str(n)


def ctx_value(contexts, key):
    for _, c in contexts:
        if key in c:
            return c[key]
    return None


def impl_row(rows, op, typ, impl, mode, align, n):
    """The row for impl; memcpy lives under op 'copy'."""
    return rows.get(("copy" if impl == "memcpy" else op, typ, impl, mode, align, n))


def plot(rows, contexts, path, mode):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        print(f"plot.py: matplotlib not available ({e}): no {path}", file=sys.stderr)
        return False
    fig, axes = plt.subplots(len(OPS), len(TYPES), figsize=(5 * len(TYPES), 3.8 * len(OPS)), squeeze=False)
    copy_ref = ctx_value(contexts, "copy_GBps")
    peak = ctx_value(contexts, "peak_GBps")
    handles = {}
    for i, op in enumerate(OPS):
        for j, typ in enumerate(TYPES):
            ax = axes[i][j]
            for impl, (label, color, ls, marker) in IMPL_STYLE.items():
                pts = []
                for (o, t, im, m, al, n), r in rows.items():
                    if im != impl or t != typ or m != mode or al != "aligned":
                        continue
                    if o != ("copy" if impl == "memcpy" else op):
                        continue
                    pts.append((n, r["GB/s"] if mode == "cold" else r["real_time"]))
                if not pts:
                    continue
                pts.sort()
                (h,) = ax.plot([p[0] for p in pts], [p[1] for p in pts], color=color, linestyle=ls, marker=marker,
                               markersize=3.5, linewidth=1.6 if impl == "ew" else 1.0, label=label,
                               zorder=3 if impl == "ew" else 2)
                handles[label] = h
            if mode == "cold":
                for val, lab, style in ((copy_ref, "copy reference (1 GiB)", ":"), (peak, "datasheet peak", "--")):
                    try:
                        v = float(val)
                    except (TypeError, ValueError):
                        continue
                    if v > 0:
                        h = ax.axhline(v, color="black", linestyle=style, linewidth=0.7, label=lab)
                        handles[lab] = h
                ax.set_ylabel("GB/s (read + write, SI)")
                ax.set_ylim(bottom=0)
            else:
                ax.set_yscale("log")
                ax.set_ylabel("µs per launch (graph replay)")
            ax.set_xscale("log", base=2)
            ax.set_xlabel("elements (N)")
            ax.set_title(f"{op} {typ}")
            ax.grid(True, which="both", alpha=0.3)
    gpu = ctx_value(contexts, "gpu") or "?"
    date = ctx_value(contexts, "run_date_utc") or ""
    title = f"ew element-wise bandwidth, {mode} L2, aligned — {gpu}, {date}"
    fig.suptitle(title, fontsize=14)
    fig.legend(list(handles.values()), list(handles.keys()), loc="lower center", ncol=min(6, len(handles)),
               fontsize=10)
    fig.tight_layout(rect=(0, 0.05, 1, 0.97))
    fig.savefig(path, dpi=100)
    print(f"plot.py: wrote {path}")
    return True


def table(rows, contexts, failed, path):
    L = []
    add = L.append
    add("# ew benchmark results\n")
    for src, c in contexts:
        add(f"**{src}**: " + "; ".join(f"{k}: {v}" for k, v in c.items()
                                       if k in ("gpu", "driver_cuda_version", "cuda_runtime_version", "cccl_version",
                                                "ew_version", "run_date_utc", "copy_GBps", "peak_GBps", "peak_note",
                                                "command", "fusion", "torch_version", "triton_version",
                                                "scale_bias_torch", "rerun_rule", "l2_flush")) + "\n")

    add("## Harness check\n")
    add("| what | GB/s | % of copy reference | % of datasheet peak |")
    add("|---|---:|---:|---:|")
    for label, key in (("cudaMemcpy D2D, 2^28 f32 (1 GiB), cold", ("copy", "f32", "memcpy", "cold", "aligned", 1 << 28)),
                       ("cub f32 add, 2^28, cold", ("add", "f32", "cub", "cold", "aligned", 1 << 28)),
                       ("ew f32 add, 2^28, cold", ("add", "f32", "ew", "cold", "aligned", 1 << 28))):
        r = rows.get(key)
        add(f"| {label} | {fmt(r and r.get('GB/s'))} | {fmt(r and r.get('pct_of_copy'))} | "
            f"{fmt(r and r.get('pct_of_peak'))} |")
    add(f"\nCopy reference (1 GiB cudaMemcpyAsync, measured at the start of the run): "
        f"{ctx_value(contexts, 'copy_GBps')} GB/s; datasheet peak: {ctx_value(contexts, 'peak_note')}.\n")

    # Issue-4 summary cells.
    add("## ew / cub summary (cold L2, aligned; ratio of GB/s = inverse ratio of time)\n")
    add("| cells | geomean ew/cub | min ew/cub | cells below 1.00 |")
    add("|---|---:|---:|---:|")
    for label, sizes in (("2^26 and 2^28", [1 << 26, 1 << 28]), ("2^24", [1 << 24]), ("2^28", [1 << 28]),
                         ("every size", sorted({k[5] for k in rows if k[3] == "cold"}))):
        rs = []
        below = []
        for op in OPS:
            for typ in TYPES:
                for n in sizes:
                    x = ratio(gbps(rows, (op, typ, "ew", "cold", "aligned", n)),
                              gbps(rows, (op, typ, "cub", "cold", "aligned", n)))
                    if x is not None:
                        rs.append(x)
                        if x < 1.0:
                            below.append(f"{op}/{typ}/{size_label(n)} {x:.3f}")
        g = geomean(rs)
        add(f"| {label} ({len(rs)} cells) | {fmt(g, 3)} | {fmt(min(rs) if rs else None, 3)} | "
            f"{len(below)}{': ' + ', '.join(below[:12]) + (' …' if len(below) > 12 else '') if below else ''} |")
    add("")

    # Per op tables.
    has_torch = any(k[2] == "torch" for k in rows)
    has_triton = any(k[2] == "triton" for k in rows)
    for op in OPS:
        add(f"## {op} (cold L2, aligned, GB/s)\n")
        head = ["type", "N", "ew", "cub", "ew/cub", "memcpy", "ew/memcpy", "thrust", "v3", "v1", "v0"]
        if has_torch:
            head += ["torch", "ew/torch"]
        if has_triton:
            head += ["triton", "ew/triton"]
        head += ["ew cv %"]
        add("| " + " | ".join(head) + " |")
        add("|" + "|".join(["---"] * 2 + ["---:"] * (len(head) - 2)) + "|")
        for typ in TYPES:
            sizes = sorted({k[5] for k in rows if k[0] == op and k[1] == typ and k[3] == "cold" and k[4] == "aligned"})
            for n in sizes:
                g = {im: (lambda r: r and r.get("GB/s"))(impl_row(rows, op, typ, im, "cold", "aligned", n))
                     for im in IMPL_STYLE}
                ewr = impl_row(rows, op, typ, "ew", "cold", "aligned", n)
                cells = [typ, size_label(n), fmt(g["ew"]), fmt(g["cub"]), fmt(ratio(g["ew"], g["cub"]), 3),
                         fmt(g["memcpy"]), fmt(ratio(g["ew"], g["memcpy"]), 3), fmt(g["thrust"]), fmt(g["v3"]),
                         fmt(g["v1"]), fmt(g["v0"])]
                if has_torch:
                    cells += [fmt(g["torch"]), fmt(ratio(g["ew"], g["torch"]), 3)]
                if has_triton:
                    cells += [fmt(g["triton"]), fmt(ratio(g["ew"], g["triton"]), 3)]
                cv = ewr.get("cv_pct") if ewr else None
                cells += [fmt(cv, 2) + (" (noisy)" if ewr and ewr.get("noisy") else "")]
                add("| " + " | ".join(cells) + " |")
        add("")

    # Misaligned.
    mis = sorted({(k[0], k[1], k[5]) for k in rows if k[4] == "misaligned" and k[2] == "ew" and k[3] == "cold"})
    if mis:
        add("## Misaligned (every pointer one element off), cold: GB/s and misaligned / aligned\n")
        add("| op | type | N | ew mis | ew mis/al | cub mis | cub mis/al | ew/cub mis |")
        add("|---|---|---|---:|---:|---:|---:|---:|")
        for op, typ, n in mis:
            em = gbps(rows, (op, typ, "ew", "cold", "misaligned", n))
            ea = gbps(rows, (op, typ, "ew", "cold", "aligned", n))
            cm = gbps(rows, (op, typ, "cub", "cold", "misaligned", n))
            ca = gbps(rows, (op, typ, "cub", "cold", "aligned", n))
            add(f"| {op} | {typ} | {size_label(n)} | {fmt(em)} | {fmt(ratio(em, ea), 3)} | {fmt(cm)} | "
                f"{fmt(ratio(cm, ca), 3)} | {fmt(ratio(em, cm), 3)} |")
        add("")

    # Hot mode, small sizes.
    hot = sorted({(k[0], k[1], k[5]) for k in rows if k[3] == "hot" and k[2] == "ew" and k[4] == "aligned"
                  and k[5] <= (1 << 22)})
    if hot:
        add("## Hot mode (CUDA graph replay), per-launch time, µs (lower is better)\n")
        add("| op | type | N | ew | cub | ew/cub time | thrust | v3 | memcpy |")
        add("|---|---|---|---:|---:|---:|---:|---:|---:|")
        for op, typ, n in hot:
            t = {im: time_us(rows, ("copy" if im == "memcpy" else op, typ, im, "hot", "aligned", n))
                 for im in ("ew", "cub", "thrust", "v3", "memcpy")}
            add(f"| {op} | {typ} | {size_label(n)} | {fmt(t['ew'], 2)} | {fmt(t['cub'], 2)} | "
                f"{fmt(ratio(t['ew'], t['cub']), 3)} | {fmt(t['thrust'], 2)} | {fmt(t['v3'], 2)} | {fmt(t['memcpy'], 2)} |")
        add("")

    # Fusion.
    fus = sorted({(k[0], k[5]) for k in rows if k[0].startswith("fusion.")})
    if fus:
        add("## Fusion (f32, cold; GB/s-equivalent = the fused op's bytes / time, so ratios are time ratios)\n")
        add("| pattern | N | variant | µs | GB/s-equiv | vs ew_fused | ew_fused speedup over it |")
        add("|---|---|---|---:|---:|---:|---:|")
        for pat, n in fus:
            variants = sorted({k[2] for k in rows if k[0] == pat and k[5] == n})
            order = ["ew_fused", "cub_fused", "ew_relu_ref", "ew_add_ref", "ew_3launch", "ew_2launch",
                     "naive_3kernel", "naive_2kernel"]
            variants.sort(key=lambda v: order.index(v) if v in order else len(order))
            fused = gbps(rows, (pat, "f32", "ew_fused", "cold", "aligned", n))
            for v in variants:
                r = rows[(pat, "f32", v, "cold", "aligned", n)]
                add(f"| {pat[7:]} | {size_label(n)} | {v} | {fmt(r['real_time'], 1)} | {fmt(r['GB/s'])} | "
                    f"{fmt(ratio(r['GB/s'], fused), 3)} | {fmt(ratio(fused, r['GB/s']), 2)} |")
        add("\nFusion targets: ew_fused ≥ 0.98 × ew_relu_ref (sigmoid2p1), ≥ 4.5 × naive_3kernel.\n")

    # Host cost.
    hc = sorted({k for k in rows if k[0].startswith("hostcost.")})
    if hc:
        add("## Host cost per call (wall clock of back-to-back calls, f32 add, n = 2^16)\n")
        add("| impl | µs per call | cv % | minus bare_v0 |")
        add("|---|---:|---:|---:|")
        bare = next((rows[k].get("host_us_per_call") for k in hc if k[2] == "bare_v0"), None)
        for k in hc:
            r = rows[k]
            v = r.get("host_us_per_call")
            add(f"| {k[2]} | {fmt(v, 3)} | {fmt(r.get('cv_pct'), 2)} | "
                f"{fmt(None if v is None or bare is None else v - bare, 3)} |")
        add("\nHost-cost target: ew within 0.3 µs of the bare launch.\n")

    noisy = [(k, r) for k, r in rows.items() if r.get("noisy")]
    add(f"## Rows that stayed noisy (cv above the limit after every rerun): {len(noisy)}\n")
    for k, r in sorted(noisy):
        add(f"- {'/'.join(map(str, k))}: cv {r.get('cv_pct', 0):.2f}%")
    add(f"\n## Failed rows: {len(failed)}\n")
    for f in failed:
        add(f"- {f}")
    with open(path, "w") as f:
        f.write("\n".join(L) + "\n")
    print(f"plot.py: wrote {path}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", nargs="+", help="ew_bench JSON, then optionally torch_triton.py JSON")
    ap.add_argument("--png", help="cold-mode bandwidth plot")
    ap.add_argument("--hot-png", help="hot-mode per-launch time plot")
    ap.add_argument("--table", help="markdown tables")
    args = ap.parse_args()
    rows, contexts, failed = load(args.json)
    if not rows:
        print("plot.py: no rows in the input", file=sys.stderr)
        return 1
    if args.table:
        table(rows, contexts, failed, args.table)
    if args.png:
        plot(rows, contexts, args.png, "cold")
    if args.hot_png:
        plot(rows, contexts, args.hot_png, "hot")
    return 0


if __name__ == "__main__":
    sys.exit(main())
