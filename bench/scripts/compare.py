#!/usr/bin/env python3
# Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
"""Before/after table from interleaved ew_bench runs: compare.py BASE1.json NEW1.json [BASE2.json NEW2.json ...].
For each row: the base's and the new build's times (real_time, the round's median; the mean over runs when
there are several), new/base, and the spread between the runs of each build (so a move can be told from
noise). Rows present in only one build are listed apart."""
import json
import sys


def load(path):
    rows = {}
    for b in json.load(open(path))["benchmarks"]:
        if b.get("run_type", "iteration") != "iteration" or "error_occurred" in b:
            continue
        rows[b["run_name"].split("/iterations")[0]] = b["real_time"]
    return rows


files = sys.argv[1:]
if len(files) < 2 or len(files) % 2:
    sys.exit("usage: compare.py BASE1.json NEW1.json [BASE2.json NEW2.json ...]")
base = [load(f) for f in files[0::2]]
new = [load(f) for f in files[1::2]]
names = [n for n in base[0] if all(n in r for r in base + new)]
print(f"{'row':58} {'base us':>10} {'new us':>10} {'new/base':>9} {'base spread':>12} {'new spread':>11}")
ratios = []
for n in names:
    b = [r[n] for r in base]
    w = [r[n] for r in new]
    mb, mw = sum(b) / len(b), sum(w) / len(w)
    sb = (max(b) - min(b)) / mb * 100
    sw = (max(w) - min(w)) / mw * 100
    ratios.append(mw / mb)
    print(f"{n:58} {mb:10.3f} {mw:10.3f} {mw / mb:9.4f} {sb:11.2f}% {sw:10.2f}%")
if ratios:
    g = 1.0
    for r in ratios:
        g *= r
    g **= 1.0 / len(ratios)
    print(f"{len(ratios)} rows: geometric mean new/base time {g:.4f}, min {min(ratios):.4f}, max {max(ratios):.4f}")
only = sorted(set(base[0]) ^ set(new[0]))
if only:
    print("in one build only:", ", ".join(only))
