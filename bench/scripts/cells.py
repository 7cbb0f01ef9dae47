#!/usr/bin/env python3
# Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
"""ew against CUB, cell by cell, from one ew_bench JSON (bench.json: the toolkit's CCCL, or
bench_cccl_pypi.json: the pinned PyPI CCCL; the version is read from the file).

  cells.py BENCH.json [--hot HOT.json] [--markdown OUT.md] [--cells-json OUT.json] [--readme docs/RESULTS.md --section NAME]

A cell is op x type x (size, mode) x alignment over {add, relu, clamp, scale_bias} x {f32, f16, bf16, f64} x
{2^20, 2^22, 2^24, 2^26, 2^28 cold; 2^16 and 2^20 hot, i.e. CUDA-graph replay} x {aligned, misaligned}.
Its value is cub's time / ew's time (above 1: ew is faster), cub's time being the faster of its two
functors (`cub`, ew's functor, and `cub_native`, T's own arithmetic). Both were timed interleaved with ew
in the same process. Prints the table (and the geometric mean, the lowest cell, and how many cells are
below 1.00 and below 0.99), and the spread of each row's samples (p25..p75 over the median) beside it.
--hot takes the graph-replay cells from another run (a process timing only ew and cub's hot rows; the
full sweep's hot cub rows can be slower than the same rows run alone, which its self-check reports).
--readme replaces the text between `<!-- cells:NAME:begin -->` and `<!-- cells:NAME:end -->` in that file
with the table (so the numbers of docs/RESULTS.md are regenerated from a run, never typed)."""
import argparse
import json
import math
import sys

OPS = ["add", "relu", "clamp", "scale_bias"]
TYPES = ["f32", "f16", "bf16", "f64"]
COLS = [("cold", 1 << 20), ("cold", 1 << 22), ("cold", 1 << 24), ("cold", 1 << 26), ("cold", 1 << 28),
        ("hot", 1 << 16), ("hot", 1 << 20)]


def rows_of(doc):
    """The rows of an ew_bench JSON that ran, by name (without Google Benchmark's suffix)."""
    return {b["run_name"].split("/iterations")[0]: b for b in doc["benchmarks"]
            if b.get("run_type", "iteration") == "iteration" and "error_occurred" not in b}


def label(mode, n):
    return f"{'graph ' if mode == 'hot' else ''}2^{int(math.log2(n))}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("bench")
    ap.add_argument("--markdown")
    ap.add_argument("--cells-json")
    ap.add_argument("--hot")
    ap.add_argument("--readme")
    ap.add_argument("--section")
    a = ap.parse_args()
    doc = json.load(open(a.bench))
    rows = rows_of(doc)
    hot_rows = rows_of(json.load(open(a.hot))) if a.hot else None
    ctx = doc.get("context", {})
    cccl = ctx.get("cccl_version", "?")
    cells = []
    missing = []
    for align in ["aligned", "misaligned"]:
        for op in OPS:
            for t in TYPES:
                for mode, n in COLS:
                    key = f"{op}/{t}/%s/{mode}/{align}/{n}"
                    src = hot_rows if (mode == "hot" and hot_rows is not None) else rows
                    ew = src.get(key % "ew")
                    cubs = [(i, src[key % i]) for i in ("cub", "cub_native") if (key % i) in src]
                    if ew is None or not cubs:
                        missing.append(key % "*")
                        continue
                    impl, best = min(cubs, key=lambda x: x[1]["real_time"])
                    cells.append({
                        "op": op, "type": t, "mode": mode, "n": n, "alignment": align,
                        "ew_us": ew["real_time"], "cub_us": best["real_time"], "cub_functor": impl,
                        "cub_over_ew": best["real_time"] / ew["real_time"],
                        "ew_spread_pct": 100 * (ew["p75_us"] - ew["p25_us"]) / ew["real_time"],
                        "cub_spread_pct": 100 * (best["p75_us"] - best["p25_us"]) / best["real_time"],
                    })
    out = []
    out.append(f"ew against CUB {cccl} (cub time / ew time, the faster of cub's two functors; above 1.00: ew "
               f"faster), {ctx.get('gpu', '?')}, {ctx.get('run_date_utc', '?')}"
               + (f"; graph columns from {a.hot.split('/')[-1]}" if a.hot else "") + "\n")
    for align in ["aligned", "misaligned"]:
        out.append(f"\n{align}:\n")
        out.append("| op | type | " + " | ".join(label(m, n) for m, n in COLS) + " |")
        out.append("|---|---|" + "---:|" * len(COLS))
        for op in OPS:
            for t in TYPES:
                vals = []
                for mode, n in COLS:
                    c = next((c for c in cells if (c["op"], c["type"], c["mode"], c["n"], c["alignment"]) ==
                              (op, t, mode, n, align)), None)
                    vals.append("—" if c is None else f"{c['cub_over_ew']:.3f}")
                out.append(f"| {op} | {t} | " + " | ".join(vals) + " |")
    if cells:
        g = math.exp(sum(math.log(c["cub_over_ew"]) for c in cells) / len(cells))
        low = min(cells, key=lambda c: c["cub_over_ew"])
        below1 = sum(c["cub_over_ew"] < 1.0 for c in cells)
        below99 = sum(c["cub_over_ew"] < 0.99 for c in cells)
        out.append(f"\n{len(cells)} cells: geometric mean {g:.4f}; {below1} below 1.00, {below99} below 0.99; lowest "
                   f"{low['cub_over_ew']:.3f} ({low['op']} {low['type']} {label(low['mode'], low['n'])} "
                   f"{low['alignment']}: ew {low['ew_us']:.3f} us, cub {low['cub_us']:.3f} us, spreads "
                   f"{low['ew_spread_pct']:.1f}% and {low['cub_spread_pct']:.1f}%)")
    if missing:
        out.append(f"\nmissing cells: {len(missing)} (e.g. {missing[0]})")
    text = "\n".join(out)
    print(text)
    if a.markdown:
        open(a.markdown, "w").write(text + "\n")
    if a.readme:
        begin, end = f"<!-- cells:{a.section}:begin -->", f"<!-- cells:{a.section}:end -->"
        doc = open(a.readme).read()
        if begin not in doc or end not in doc:
            sys.exit(f"cells.py: {a.readme} has no {begin} ... {end} section")
        head, rest = doc.split(begin, 1)
        _, tail = rest.split(end, 1)
        open(a.readme, "w").write(head + begin + "\n" + text + "\n" + end + tail)
    if a.cells_json:
        json.dump({"cccl_version": cccl, "cells": cells}, open(a.cells_json, "w"), indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
