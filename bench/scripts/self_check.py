#!/usr/bin/env python3
# Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
"""ew_bench's self-check: rows measured again in other processes (a sample run in reverse order,
--ew_reverse, and single rows each alone, filtered to one row) must agree with the sweep within a
tolerance, or the sweep's numbers depend on how it was run (the order of rows, which rows ran before, a
baseline's first-call configuration).

  self_check.py --sweep bench.json [--reverse rev.json ...] [--alone one.json ...] [--tolerance 0.02]

Prints one line per checked row (sweep time, check time, ratio) and writes the result into the sweep's
JSON as "self_check" (so the committed bench.json records it). Exits 1 when a row disagrees by more than
the tolerance, 2 on a malformed input (a checked row missing from the sweep or failed in a check run, a
check file without rows, or no row checked)."""
import argparse
import json
import sys


def rows_of(doc, errors=None):
    """The rows of a run by name; rows that failed go to `errors` (name: message) when given."""
    out = {}
    for b in doc["benchmarks"]:
        if b.get("run_type", "iteration") != "iteration":
            continue
        name = b["run_name"].split("/iterations")[0]
        if "error_occurred" in b:
            if errors is not None:
                errors[name] = b.get("error_message", "error")
            continue
        out[name] = b
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sweep", required=True)
    ap.add_argument("--reverse", nargs="*", default=[])
    ap.add_argument("--alone", nargs="*", default=[])
    ap.add_argument("--tolerance", type=float, default=0.02)
    a = ap.parse_args()
    sweep_doc = json.load(open(a.sweep))
    sweep = rows_of(sweep_doc)
    checked = []
    bad_input = []
    for how, paths in (("reverse", a.reverse), ("alone", a.alone)):
        for p in paths:
            failed = {}
            rows = rows_of(json.load(open(p)), failed)
            for name, msg in failed.items():
                bad_input.append(f"{name} ({how}, {p}) failed in the check run: {msg}")
            if not rows and not failed:
                bad_input.append(f"{p} ({how}) holds no row")
            for name, b in rows.items():
                if name not in sweep:
                    bad_input.append(f"{name} ({how}, {p}) is not in the sweep")
                    continue
                s = sweep[name]["real_time"]
                c = b["real_time"]
                checked.append({
                    "row": name, "how": how, "sweep_us": s, "check_us": c, "ratio": c / s,
                    "sweep_cv_pct": sweep[name].get("cv_pct"), "check_cv_pct": b.get("cv_pct"),
                    "check_interleaved_with": b.get("interleaved_with"),
                    "pass": abs(c / s - 1) <= a.tolerance,
                })
    print(f"self-check of {a.sweep}: {len(checked)} rows, tolerance {100 * a.tolerance:.1f}%")
    print(f"{'row':60} {'how':8} {'sweep us':>10} {'check us':>10} {'ratio':>7}")
    for r in checked:
        flag = "" if r["pass"] else "  OUTSIDE"
        print(f"{r['row']:60} {r['how']:8} {r['sweep_us']:10.3f} {r['check_us']:10.3f} {r['ratio']:7.4f}{flag}")
    for m in bad_input:
        print("self-check: " + m)
    failed = [r for r in checked if not r["pass"]]
    ok = bool(checked) and not failed and not bad_input
    worst = max((abs(r["ratio"] - 1) for r in checked), default=0.0)
    sweep_doc["self_check"] = {
        "tolerance": a.tolerance, "rows": checked, "problems": bad_input, "pass": ok,
        "worst_deviation": worst,
        "method": "sample rows rerun in separate processes: in reverse row order (--ew_reverse) and each row alone "
                  "(filtered to it); ratio = check median / sweep median",
    }
    json.dump(sweep_doc, open(a.sweep, "w"), indent=2)
    print(f"self-check: {'PASS' if ok else 'FAIL'} ({len(failed)} outside, worst deviation {100 * worst:.2f}%)")
    if bad_input or not checked:
        return 2
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
