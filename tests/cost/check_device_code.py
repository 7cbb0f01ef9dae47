#!/usr/bin/env python3
# Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
"""Compile cost and device-code size of ew against cub::DeviceTransform, as ratios.

Compiles ops_ew.cu and ops_cub.cu (the same ops and functors through each library) to sm_90 cubins with
the same flags, alternating ew and cub `--rounds` times so that machine load hits both alike, and fails
when ew's compile time (the fastest of its rounds: other work on the machine only ever adds time) or its
cubin size passes the stated fraction of cub's. Ratios, not seconds
or bytes, so a slow or busy machine does not decide the outcome.

    check_device_code.py --nvcc NVCC --include EW_INCLUDE_DIR [--cccl-include DIR] [--rounds 3]
                         [--max-size-ratio 1.0] [--max-time-ratio 0.85] [--report FILE]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def compile_once(nvcc, includes, source, out):
    cmd = [nvcc, "-std=c++17", "-O3", "-DNDEBUG", "-arch=sm_90", "-cubin"]
    for inc in includes:
        cmd += ["-I", inc]
    cmd += [source, "-o", out]
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    elapsed = time.monotonic() - start
    if proc.returncode != 0:
        sys.stderr.write(" ".join(cmd) + "\n" + proc.stdout + proc.stderr)
        raise SystemExit("check_device_code: compiling %s failed" % os.path.basename(source))
    return elapsed, os.path.getsize(out)


def kernel_count(cubin):
    """Kernels in an ELF cubin: sections named .text.<symbol>."""
    with open(cubin, "rb") as f:
        data = f.read()
    return len(set(re.findall(rb"\.text\.([A-Za-z0-9_]+)", data)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nvcc", required=True)
    ap.add_argument("--include", required=True, help="ew's include directory")
    ap.add_argument("--cccl-include", default="", help="CCCL headers to use ahead of the toolkit's")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--max-size-ratio", type=float, default=1.0)
    ap.add_argument("--max-time-ratio", type=float, default=0.85)
    ap.add_argument("--report", default="")
    a = ap.parse_args()

    includes = ([a.cccl_include] if a.cccl_include else []) + [a.include]
    times = {"ew": [], "cub": []}
    sizes = {}
    kernels = {}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(a.rounds):
            for lib in ("ew", "cub"):
                out = os.path.join(tmp, lib + ".cubin")
                t, size = compile_once(a.nvcc, includes, os.path.join(HERE, "ops_%s.cu" % lib), out)
                times[lib].append(t)
                sizes[lib] = size
                kernels[lib] = kernel_count(out)
    best = {lib: min(v) for lib, v in times.items()}
    size_ratio = sizes["ew"] / sizes["cub"]
    time_ratio = best["ew"] / best["cub"]
    lines = [
        "device code and compile cost: add, relu, clamp, scale_bias on float and __half, -O3 -arch=sm_90 -cubin",
        "CCCL headers: %s" % (a.cccl_include or "the toolkit's"),
        "ew : %2d kernels, cubin %7d bytes, compile %.2f s (fastest of %d: %s)"
        % (kernels["ew"], sizes["ew"], best["ew"], a.rounds, ", ".join("%.2f" % t for t in times["ew"])),
        "cub: %2d kernels, cubin %7d bytes, compile %.2f s (fastest of %d: %s)"
        % (kernels["cub"], sizes["cub"], best["cub"], a.rounds, ", ".join("%.2f" % t for t in times["cub"])),
        "ratio ew/cub: cubin %.3f (limit %.2f), compile time %.3f (limit %.2f)"
        % (size_ratio, a.max_size_ratio, time_ratio, a.max_time_ratio),
    ]
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if a.report:
        with open(a.report, "w") as f:
            f.write(text)
    failed = False
    if size_ratio > a.max_size_ratio:
        print("FAIL: ew's cubin is %.3f x cub's, over the limit %.2f" % (size_ratio, a.max_size_ratio))
        failed = True
    if time_ratio > a.max_time_ratio:
        print("FAIL: ew compiles in %.3f x cub's time, over the limit %.2f" % (time_ratio, a.max_time_ratio))
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
