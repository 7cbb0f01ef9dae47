#!/usr/bin/env python3
# Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
"""Runs some of torch_cells.py's cells a few times each, for a profiler (ncu) to see the kernels of
torch.compile and ew side by side: every implementation but eager PyTorch, `--repeat` calls each, in the
order printed. Checks each result first, as torch_cells.py does.

  ncu --clock-control none -k regex:'triton|ew::detail' --kernel-name-base demangled \\
      --metrics gpu__time_duration.sum,... python3 bench/probes/ncu_cells.py --lib ... --filter '1d\\.relu/bf16'

--dump-inductor DIR then copies the Triton source of every kernel Inductor wrote (its cache directory) into
DIR/inductor_kernels.py, one after the other.
"""
import argparse
import glob
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import torch  # noqa: E402
import torch_cells as tc  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--variant-lib")
    ap.add_argument("--variants", default="")
    ap.add_argument("--base-lib", help="another build of libew_cells.so, run as ew.base (torch_cells.py's)")
    ap.add_argument("--filter", required=True, help="regex on the cell names")
    ap.add_argument("--one-d", action="store_true")
    ap.add_argument("--permutes", action="store_true")
    ap.add_argument("--shapes", action="store_true")
    ap.add_argument("--compile-mode", default=None, help="torch.compile's mode (torch_cells.py's option)")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--dump-inductor", help="directory to write inductor_kernels.py into")
    a = ap.parse_args()
    tc.torch = torch
    tc.set_dtypes()
    if a.variant_lib:
        tc.VARIANTS = tuple(v for v in a.variants.split(",") if v)
        tc.VARIANT_LIB = tc.load_lib(a.variant_lib)
    if a.base_lib:
        tc.BASE_LIB = tc.load_lib(a.base_lib)
        tc.VARIANTS = ("base",) + tc.VARIANTS
    lib = tc.load_lib(a.lib)
    stream = torch.cuda.current_stream().cuda_stream
    spec_args = argparse.Namespace(quick=False, one_d=a.one_d, permutes=a.permutes, shapes=a.shapes,
                                   filter=a.filter)
    for i, spec in enumerate(tc.cell_specs(spec_args)):
        torch._dynamo.reset()
        gen = torch.Generator(device=tc.DEV).manual_seed(tc.SEED + i)
        cell = tc.build_cell(spec, lib, stream, gen, a.compile_mode)
        cell["impls"]["compile"].fn()
        torch.cuda.synchronize()
        errors = tc.check(cell, "before profiling")
        if errors:
            print("FAILED " + "; ".join(errors))
            return 1
        for name, imp in cell["impls"].items():
            if name == "eager":
                continue
            for _ in range(a.repeat):
                imp.fn()
            torch.cuda.synchronize()
            print(f"{tc.cell_name(spec)} {name} x{a.repeat}", flush=True)
    if a.dump_inductor:
        root = os.environ.get("TORCHINDUCTOR_CACHE_DIR") or f"/tmp/torchinductor_{os.environ.get('USER', 'root')}"
        with open(os.path.join(a.dump_inductor, "inductor_kernels.py"), "w") as out:
            for path in sorted(glob.glob(f"{root}/**/*.py", recursive=True)):
                text = open(path, errors="replace").read()
                if "@triton.jit" in text and "def triton_" in text:
                    out.write(f"# ==== {path}\n{text}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
