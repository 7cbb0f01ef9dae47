#!/usr/bin/env python3
"""The FP8 quantize-with-amax and dropout cells of ew_bench (issue 13) against their bars.

From one or more ew_bench JSONs (the first is the sweep; the others a reversed run and rows alone, whose
spread per ew row is printed). Bars: ew_fused >= 0.97x ew_cast (GB/s, the same bytes), ew_dropout >= 0.97x
ew_relu_ref (GB/s, dropout's mask bytes counted), ew_fused_overwrite >= 0.97x ew_cast, a reduction alone
(amax_alone, sum_alone: ew_overwrite) >= 1.00x cub::DeviceReduce::TransformReduce in the same run (the rows
with another grid, `_capK` and `_wavesW`, and the uncapped `ew_fused_cap0` are shown without a bar), and, as the issue
states them against PyTorch 2.11 on the
H200 (its figures at 2^28, cold L2; PyTorch cannot run on the device machine, so they are quoted, not
measured here): the fused quantize >= 4x PyTorch's two kernels (750 GB/s f32, 513 bf16), dropout faster
than torch.nn.functional.dropout (2929 f32, 2445 bf16).

    bench/scripts/fp8_random.py bench.json [more.json ...] [--markdown FILE]
"""
import argparse
import json

from operands import gbps_across, rows_of

TORCH = {("quant_amax", "f32"): 750.0, ("quant_amax", "bf16"): 513.0,
         ("dropout", "f32"): 2929.0, ("dropout", "bf16"): 2445.0}
CELLS = [("quant_amax", "ew_fused", "ew_cast", 0.97, 4.0),
         ("quant_amax", "ew_fused_reset", "ew_cast", None, 4.0),
         ("quant_amax", "ew_fused_overwrite", "ew_cast", 0.97, 4.0),
         ("quant_amax", "ew_fused_overwrite_cap8", "ew_cast", None, None),
         ("quant_amax", "ew_fused_overwrite_cap32", "ew_cast", None, None),
         ("quant_amax", "ew_fused_overwrite_waves1", "ew_cast", None, None),
         ("quant_amax", "ew_fused_cap0", "ew_cast", None, None),
         ("quant_amax", "ew_fused_cap16", "ew_cast", None, None),
         ("quant_amax", "ew_fused_loads4", "ew_cast", None, None),
         ("quant_amax", "ew_fused_cap32", "ew_cast", None, None),
         ("quant_amax", "two_pass_cub", "ew_cast", None, None),
         ("dropout", "ew_dropout", "ew_relu_ref", 0.97, 1.0),
         ("dropout", "ew_dropout16", "ew_relu_ref", 0.97, 1.0),
         ("amax_alone", "ew_overwrite", "cub", 1.00, None),
         ("amax_alone", "ew_overwrite_cap32", "cub", None, None),
         ("amax_alone", "ew_overwrite_waves1", "cub", None, None),
         ("amax_alone", "ew_into", "cub", None, None),
         ("amax_alone", "ew_into_cap0", "cub", None, None),
         ("amax_alone", "ew_into_cap32", "cub", None, None),
         ("sum_alone", "ew_overwrite", "cub", 1.00, None),
         ("sum_alone", "ew_overwrite_cap32", "cub", None, None),
         ("sum_alone", "ew_overwrite_waves1", "cub", None, None),
         ("sum_alone", "ew_into_reset", "cub", None, None),
         ("sum_alone", "ew_into_reset_cap0", "cub", None, None),
         ("sum_alone", "ew_into_reset_cap32", "cub", None, None)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("json", nargs="+")
    ap.add_argument("--markdown")
    a = ap.parse_args()
    docs = [json.load(open(p)) for p in a.json]
    rows = rows_of(docs[0])
    cccl = docs[0].get("context", {}).get("cccl_version", "?")
    lines = [f"CCCL {cccl}; GB/s = (x read once + outputs written once) / median time, cold L2", "",
             "| cell | impl | GB/s | ref impl | ref GB/s | impl / ref | bar | PyTorch GB/s (issue, 2^28) | impl / PyTorch | bar |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    short, found = [], 0
    for op, impl, ref, bar, torch_bar in CELLS:
        for name, r in sorted(rows.items()):
            parts = name.split("/")
            if parts[0] != op or parts[2] != impl:
                continue
            found += 1
            cell = "/".join(parts[:2] + ["%s"] + parts[3:])
            g = r["GB/s"]
            o = rows.get(cell % ref)
            rg = o["GB/s"] if o else None
            ratio = g / rg if rg else None
            torch = TORCH.get((op, parts[1])) if parts[-1] == str(1 << 28) else None
            rt = g / torch if torch else None
            mark = lambda v, want: "" if v is None or want is None else (" met" if v >= want else " SHORT")
            if ratio is not None and bar is not None and ratio < bar:
                short.append(f"{name}: {ratio:.3f} of {ref} (bar {bar})")
            if rt is not None and torch_bar is not None and rt < torch_bar:
                short.append(f"{name}: {rt:.2f}x PyTorch's quoted figure (bar {torch_bar})")
            f = lambda v, p=1: "-" if v is None else f"{v:.{p}f}"
            lines.append(f"| {cell % '*'} | {impl} | {g:.1f} | {ref} | {f(rg)} | {f(ratio, 3)}{mark(ratio, bar)} | "
                         f"{f(bar, 2)} | {f(torch)} | {f(rt, 2)}{mark(rt, torch_bar if torch else None)} | {f(torch_bar, 2) if torch else '-'} |")
    if len(docs) > 1:
        lines += ["", "| ew row | " + " | ".join(f"run {k}" for k in range(len(docs))) + " | spread |", "|---|" + "---|" * (len(docs) + 1)]
        worst = 0.0
        for name in sorted(rows):
            if name.split("/")[2] not in ("ew_fused", "ew_cast", "ew_dropout", "ew_dropout16", "ew_relu_ref", "ew_fused_reset",
                                          "ew_fused_overwrite", "ew_overwrite", "ew_into", "ew_into_reset"):
                continue
            vals, spread = gbps_across(docs, name)
            worst = max(worst, spread)
            lines.append(f"| {name} | " + " | ".join("-" if v is None else f"{v:.1f}" for v in vals) + f" | {100 * spread:.2f}% |")
        lines.append(f"\nworst spread {100 * worst:.2f}%")
    lines.append(f"\n{found} ew rows; {len(short)} short of a bar" + ("".join("\n- " + s for s in short)))
    text = "\n".join(lines)
    print(text)
    if a.markdown:
        open(a.markdown, "w").write(text + "\n")


if __name__ == "__main__":
    main()
