#!/usr/bin/env python3
# Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
"""Turns ew_bench's Google Benchmark JSON (or torch_triton.py's JSON) into the compact CSV that results
folders commit: one line per row with what the docs cite, and the run's context as '#' lines on top (GPU,
date, command, CCCL, copy bandwidth). The raw JSON stays under $OUT (scripts/gpu_check.sh writes both).

  to_csv.py RUN.json [--out RUN.csv] [--commit SHA]

Columns: row (the benchmark name without Google Benchmark's suffixes), median_us (the time the row
reports: median of its samples, per launch), GBps (bytes read once plus written once over median_us),
iqr_pct (interquartile range over the median), cv_pct, samples. Numbers keep four significant digits."""
import argparse
import json
import sys

CONTEXT_KEYS = ["gpu", "gpu_cc", "gpu_sms", "date", "run_date_utc", "command", "cccl_version", "copy_GBps",
                "peak_GBps", "l2_flush", "interleaving", "torch_version", "triton_version", "ew_version"]


def sig(x, digits=4):
    if x is None or x == "":
        return ""
    x = float(x)
    if x == 0:
        return "0"
    return f"{x:.{digits}g}"


def rows_of(doc):
    """(row, median_us, GBps, iqr_pct, cv_pct, samples) for each row (torch_triton.py writes the same form)."""
    if "benchmarks" in doc:
        for b in doc["benchmarks"]:
            if b.get("run_type", "iteration") != "iteration":
                continue
            name = b["name"].split("/iterations:")[0].removesuffix("/manual_time")
            t = b.get("real_time")
            if b.get("time_unit", "us") == "ns":
                t = t / 1000.0
            iqr = ""
            if "p25_us" in b and "p75_us" in b and t:
                iqr = 100.0 * (b["p75_us"] - b["p25_us"]) / t
            yield name, t, b.get("GB/s"), iqr, b.get("cv_pct"), b.get("samples")
    else:
        sys.exit("to_csv.py: not a Google Benchmark JSON (no 'benchmarks')")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json")
    ap.add_argument("--out")
    ap.add_argument("--commit", default="")
    a = ap.parse_args()
    doc = json.load(open(a.json))
    ctx = doc.get("context", {})
    lines = [f"# from {a.json.split('/')[-1]} by bench/scripts/to_csv.py"]
    if a.commit:
        lines.append(f"# commit: {a.commit}")
    for k in CONTEXT_KEYS:
        if k in ctx:
            lines.append(f"# {k}: {ctx[k]}")
    if isinstance(doc.get("self_check"), dict):
        sc = doc["self_check"]
        lines.append(f"# self_check: pass={sc.get('pass')} worst_deviation={sc.get('worst_deviation')}")
    lines.append("row,median_us,GBps,iqr_pct,cv_pct,samples")
    for name, t, gbps, iqr, cv, samples in rows_of(doc):
        lines.append(",".join([name, sig(t), sig(gbps), sig(iqr, 2), sig(cv, 2),
                               "" if samples in (None, "") else str(int(samples))]))
    text = "\n".join(lines) + "\n"
    if a.out:
        open(a.out, "w").write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
