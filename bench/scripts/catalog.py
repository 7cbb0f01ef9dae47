#!/usr/bin/env python3
"""The op catalog's cells (issue 23): each op's GB/s against ew's relu over as many elements of the same type.

Reads ew_bench JSON (bench/ew_bench/catalog.cu: rows catalog/T/<op>/cold/aligned/n; the first file is the
run, any others reruns of it) and writes a markdown table: each op, its GB/s, relu's, the ratio against the
bar (0.97), and across the files each row's spread.
"""
import argparse
import json

from operands import gbps_across, rows_of

BAR = 0.97


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("json", nargs="+")
    ap.add_argument("--markdown")
    a = ap.parse_args()
    docs = [json.load(open(p)) for p in a.json]
    rows = rows_of(docs[0])
    lines = ["GB/s = (inputs read once + output written once) / median time, cold L2; bar: >= %.2f of relu" % BAR, "",
             "| type | op | GB/s | relu GB/s | op / relu | spread |", "|---|---|---:|---:|---:|---:|"]
    short, found, worst = [], 0, 0.0
    for name, r in sorted(rows.items()):
        parts = name.split("/")
        if parts[0] != "catalog" or parts[2] == "relu":
            continue
        found += 1
        ref = rows.get("/".join(parts[:2] + ["relu"] + parts[3:]))
        ratio = r["GB/s"] / ref["GB/s"] if ref else None
        spread = gbps_across(docs, name)[1]
        worst = max(worst, spread)
        if ratio is not None and ratio < BAR:
            short.append(f"{name}: {ratio:.3f} of relu")
        lines.append(f"| {parts[1]} | {parts[2]} | {r['GB/s']:.1f} | {ref['GB/s'] if ref else float('nan'):.1f} | "
                     f"{'-' if ratio is None else f'{ratio:.3f}'}{'' if ratio is None or ratio >= BAR else ' SHORT'} | "
                     f"{100 * spread:.2f}% |")
    lines.append(f"\nworst spread {100 * worst:.2f}%")
    lines.append(f"\n{found} ew rows; {len(short)} short of a bar" + "".join("\n- " + s for s in short))
    text = "\n".join(lines)
    print(text)
    if a.markdown:
        open(a.markdown, "w").write(text + "\n")


if __name__ == "__main__":
    main()
