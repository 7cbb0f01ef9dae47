#!/usr/bin/env python3
# Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
"""ncu of the FP8 cast-transpose's forms side by side: ew's own launch (libew_cells.so) and any variant of
the variants libraries, each run alone by ew_probe_cast_transpose_driver (bench/probes/cast_transpose_driver.cu)
and profiled once (its second call: the first warms the library's per-device caches). Prints a markdown table
of time, launch shape, instructions, shared-memory traffic and the stall reasons (cycles a warp), one column a
form; the eighteenth session's ncu_buffered.txt is this table (docs/PERFORMANCE.md).

  python3 bench/scripts/ncu_cast_transpose.py --bench build-gpu/bench --type bf16 --shape 8192x8192 \\
      ew libew_cast_transpose_variants.so:as3n2 libew_cast_transpose_staged.so:s3

A form is `ew` (libew_cells.so's ew_cells_cast_transpose_<type>) or LIB:VARIANT (the library's
ew_cells_cast_transpose_<type>__<VARIANT>). The kernel profiled is the first whose name matches --kernel
(ew's tile kernel; probe 27's kernels are ct_kernel). The driver is left out of `all`: build it with
`ninja ew_probe_cast_transpose_driver` (scripts/build_gpu.sh: EW_GPU_EXTRA_TARGETS) beside the libraries
(EW_BUILD_TORCH_CELLS, `ninja ew_cells ew_cast_transpose_variants ew_cast_transpose_staged`).
"""
import argparse
import csv
import io
import os
import subprocess
import sys

STALLS = ["long_scoreboard", "barrier", "short_scoreboard", "mio_throttle", "lg_throttle", "wait",
          "not_selected", "selected", "math_pipe_throttle", "no_instruction", "dispatch_stall",
          "branch_resolving", "membar"]
METRICS = ["gpu__time_duration.sum", "dram__throughput.avg.pct_of_peak_sustained_elapsed", "launch__grid_size",
           "launch__registers_per_thread", "launch__shared_mem_per_block_dynamic",
           "sm__warps_active.avg.pct_of_peak_sustained_active",
           "smsp__issue_active.avg.pct_of_peak_sustained_active", "smsp__inst_executed.sum",
           "smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_shared_st.sum",
           "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
           "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] + [
    f"smsp__average_warp_latency_issue_stalled_{s}.ratio" for s in STALLS]


def profile(args, lib, function):
    """The metrics of one form's second call, {metric: value string}, or None with the reason printed."""
    cmd = ["ncu", "--clock-control", "none", "--csv", "-k", f"regex:{args.kernel}", "--launch-skip", "1", "-c", "1",
           "--metrics", ",".join(METRICS), os.path.join(args.bench, "ew_probe_cast_transpose_driver"),
           os.path.join(args.bench, lib), function, args.type, *args.shape.split("x"), "2"]
    try:
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
    except (OSError, subprocess.TimeoutExpired) as e:
        print(f"{function}: {e}", file=sys.stderr)
        return None
    rows = [line for line in run.stdout.splitlines() if line.startswith('"')]
    if run.returncode != 0 or not rows:
        print(f"{function}: ncu rc={run.returncode}\n{run.stdout[-2000:]}{run.stderr[-2000:]}", file=sys.stderr)
        return None
    values = {}
    for row in csv.DictReader(io.StringIO("\n".join(rows))):
        values[row["Metric Name"]] = row["Metric Value"]
    return values


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("forms", nargs="+", help="ew or LIB:VARIANT")
    ap.add_argument("--bench", default="build-gpu/bench", help="folder of the libraries and the driver")
    ap.add_argument("--type", default="bf16", choices=["bf16", "f32"])
    ap.add_argument("--shape", default="8192x8192", help="MxN of x")
    ap.add_argument("--kernel", default="tile_elementwise|ct_kernel")
    ap.add_argument("--timeout", type=int, default=120, help="seconds a form")
    args = ap.parse_args()
    columns = []
    for form in args.forms:
        lib, _, variant = form.partition(":")
        if form == "ew":
            lib, function = "libew_cells.so", f"ew_cells_cast_transpose_{args.type}"
        else:
            function = f"ew_cells_cast_transpose_{args.type}__{variant}"
        columns.append((variant or "ew", profile(args, lib, function)))
    print(f"x {args.type} [{args.shape.replace('x', ', ')}]\n")
    print("| metric | " + " | ".join(name for name, _ in columns) + " |")
    print("|---|" + "---:|" * len(columns))
    failed = False
    for metric in METRICS:
        label = metric.replace("smsp__average_warp_latency_issue_stalled_", "stall ").replace(".ratio", "")
        cells = []
        for _, values in columns:
            failed |= values is None
            cells.append("-" if values is None else values.get(metric, "-"))
        print(f"| {label} | " + " | ".join(cells) + " |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
