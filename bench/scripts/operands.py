#!/usr/bin/env python3
"""The operand cells of ew_bench (issue 12) against their bars, from one or more ew_bench JSONs.

Each JSON's rows come from one process; the table gives, per cell, every implementation's GB/s and the
ratios the issue's bars are stated in: ew against ew's own 1-D op on the same elements (relu, or the
contiguous relu for the pitched cell), and ew against CUB with a counting iterator (or, for ew::constant
and ew::scalar, against the same op in a stateful functor). With several JSONs (the sweep, a reversed run,
rows alone) it also prints, per row, the spread of ew's time across them.

    bench/scripts/operands.py bench.json [more.json ...] [--markdown FILE]
"""
import argparse
import json
import sys

# cell prefix -> (bar implementation, bar ratio, second comparison, its bar)
CELLS = [
    ("bcast_row.4096", "ew_relu_ref", 0.97, "cub_counting", 1.0),
    ("bcast_row.1000", "ew_relu_ref", 0.97, "cub_counting", 1.0),
    ("bcast_col.4096", "ew_relu_ref", 0.97, "cub_counting", 1.0),
    ("channel_sb", "ew_relu_ref", 0.97, "cub_counting", 1.0),
    ("pitched.4000", "ew_contig_ref", 0.95, None, None),
    ("transpose", "ew_relu_ref", None, None, None),
    ("index_seq", "cub_counting", 1.0, None, None),
    ("index_mask", "cub_counting", 1.0, None, None),
]


def rows_of(doc):
    return {b["run_name"].split("/iterations")[0]: b for b in doc["benchmarks"]
            if b.get("run_type", "iteration") == "iteration" and "error_occurred" not in b}


def gbps_across(docs, name):
    """Row `name`'s GB/s in each of `docs` (None where absent) and their spread, (max - min) / max."""
    vals = [rows_of(d).get(name, {}).get("GB/s") for d in docs]
    got = [v for v in vals if v]
    return vals, (max(got) - min(got)) / max(got) if len(got) > 1 else 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("json", nargs="+")
    ap.add_argument("--markdown")
    a = ap.parse_args()
    docs = [json.load(open(p)) for p in a.json]
    rows = rows_of(docs[0])
    cccl = docs[0].get("context", {}).get("cccl_version", "?")
    lines = [f"CCCL {cccl}; GB/s = (arrays read once + outputs written once) / median time, cold L2", "",
             "| cell | ew GB/s | bar impl | GB/s | ew / bar | bar | second | GB/s | ew / second | bar |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    short = []
    found = 0
    for prefix, bar_impl, bar, second, second_bar in CELLS:
        for name, r in sorted(rows.items()):
            parts = name.split("/")
            if parts[0] != prefix or parts[2] != "ew":
                continue
            found += 1
            cell = "/".join(parts[:2] + ["%s"] + parts[3:])
            ew = r["GB/s"]
            def other(impl):
                o = rows.get(cell % impl)
                return o["GB/s"] if o else None
            b = other(bar_impl)
            s = other(second) if second else None
            rb = ew / b if b else None
            rs = ew / s if s else None
            mark = lambda ratio, want: "" if ratio is None or want is None else (" met" if ratio >= want else " SHORT")
            if rb is not None and bar is not None and rb < bar:
                short.append(f"{cell % 'ew'}: {rb:.3f} of {bar_impl} (bar {bar})")
            if rs is not None and second_bar is not None and rs < second_bar:
                short.append(f"{cell % 'ew'}: {rs:.3f} of {second} (bar {second_bar})")
            fmt = lambda v, p=1: "-" if v is None else f"{v:.{p}f}"
            lines.append(f"| {cell % '*'} | {ew:.1f} | {bar_impl} | {fmt(b)} | {fmt(rb, 3)}{mark(rb, bar)} | {fmt(bar, 2)} | "
                         f"{second or '-'} | {fmt(s)} | {fmt(rs, 3)}{mark(rs, second_bar)} | {fmt(second_bar, 2)} |")
    # ew::constant / ew::scalar against the stateful functor.
    for name, r in sorted(rows.items()):
        parts = name.split("/")
        if parts[0] != "mul_value" or parts[2] != "ew_functor":
            continue
        cell = "/".join(parts[:2] + ["%s"] + parts[3:])
        f = r["GB/s"]
        for impl in ("ew_constant", "ew_scalar"):
            o = rows.get(cell % impl)
            if not o:
                continue
            found += 1
            ratio = o["GB/s"] / f
            if ratio < 0.99:
                short.append(f"{cell % impl}: {ratio:.3f} of ew_functor (bar 0.99)")
            lines.append(f"| {cell % impl} | {o['GB/s']:.1f} | ew_functor | {f:.1f} | {ratio:.3f}{' met' if ratio >= 0.99 else ' SHORT'} | 0.99 | - | - | - | - |")
    if len(docs) > 1:
        lines += ["", "Spread of each ew-family row's time over the runs given (max/min - 1):", ""]
        others = [rows_of(d) for d in docs[1:]]
        worst = 0.0
        for name, r in sorted(rows.items()):
            if name.split("/")[0] not in {c[0] for c in CELLS} | {"mul_value"}:
                continue
            times = [r["real_time"]] + [o[name]["real_time"] for o in others if name in o]
            if len(times) < 2:
                continue
            spread = max(times) / min(times) - 1
            worst = max(worst, spread)
            lines.append(f"- {name}: {len(times)} runs, spread {100 * spread:.1f}%")
        lines.append(f"\nworst spread {100 * worst:.1f}%")
    lines += ["", f"{found} ew rows; {len(short)} short of their bar" + (":" if short else "")] + [f"- {s}" for s in short]
    text = "\n".join(lines)
    print(text)
    if a.markdown:
        open(a.markdown, "w").write(text + "\n")
    return 0 if found else 2


if __name__ == "__main__":
    sys.exit(main())
