#!/usr/bin/env python3
# Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
"""Builds the example extension (extension.cpp + bias_gelu.cu) with torch.utils.cpp_extension and checks
ew_example.bias_gelu(x, b) against PyTorch on the GPU: contiguous, transposed, sliced and expanded inputs,
odd sizes, a non-default stream, and the errors for bad arguments. scripts/gpu_check.sh runs it (stage
torch_ext); exit status 0 only if every check passed.

  python3 examples/torch_extension/test_extension.py [--build-dir DIR]

The reference: GELU in float64 (from erfc) of the bf16 sum x + b, rounded to bf16, since ew::compose rounds
each stage to bf16 as eager PyTorch does; ew's bf16 gelu is within 1 ulp of it everywhere. Eager PyTorch's
F.gelu(x + b) must agree within 1 ulp where x + b >= -3; below that its float erf (1 + erf cancels) loses
the tail, which ew's erfc form keeps, and the two differ by design."""
import argparse
import os
import pathlib
import sys
import tempfile

import torch
import torch.nn.functional as F
from torch.utils.cpp_extension import load

here = pathlib.Path(__file__).resolve().parent
root = here.parent.parent


def build(build_dir):
    # The architectures of the GPUs present unless TORCH_CUDA_ARCH_LIST says otherwise; sm_90 on the H200.
    if "TORCH_CUDA_ARCH_LIST" not in os.environ and torch.cuda.is_available():
        major, minor = torch.cuda.get_device_capability()
        os.environ["TORCH_CUDA_ARCH_LIST"] = f"{major}.{minor}"
    return load(name="ew_example", sources=[str(here / "extension.cpp"), str(here / "bias_gelu.cu")],
                extra_include_paths=[str(root / "include"), str(here)], extra_cuda_cflags=["-O3"],
                build_directory=build_dir, verbose=False)


def ulps(a, b):
    """|a - b| in units in the last place of bf16, elementwise (both bf16, finite): the distance between
    their bit patterns on the ordered integer line."""
    def ordered(t):
        i = t.view(torch.int16).to(torch.int32)
        return torch.where(i < 0, -32768 - i, i)
    return (ordered(a) - ordered(b)).abs()


failures = []


def check(name, ok, detail=""):
    print(f"{'PASS' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}", flush=True)
    if not ok:
        failures.append(name)


def compare(name, y, x, b):
    if x.numel() == 0:
        check(name, y.shape == x.shape, f"empty {list(y.shape)}")
        return
    s = x + b  # bf16: the sum rounded once, as ew::add<bf16> rounds it
    s64 = s.double()
    # GELU of the rounded sum in float64, from erfc (1 + erf cancels in the negative tail), rounded to bf16:
    # ew's bf16 gelu is within 1 ulp of it (its stated bound).
    ref = (0.5 * s64 * torch.special.erfc(-s64 / 2.0**0.5)).to(torch.bfloat16)
    eager = F.gelu(s)  # eager PyTorch: erf in float, which loses the tail below about -3
    d_ref = ulps(y, ref)
    d_eager = ulps(y, eager)
    body = s64 >= -3.0
    max_body = int(d_eager[body].max()) if body.any() else 0
    check(name, y.shape == x.shape and y.is_contiguous() and not torch.isnan(y).any().item()
          and int(d_ref.max()) <= 1 and max_body <= 1,
          f"{y.numel()} elements: within {int(d_ref.max())} ulp of float64 GELU (bound 1); against eager "
          f"PyTorch {int((d_eager != 0).sum())} differ, by at most {max_body} ulp where x + b >= -3 (below, "
          f"eager's float erf loses the tail: up to {int(d_eager.max())} ulp)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir")
    a = ap.parse_args()
    if not torch.cuda.is_available():
        print("test_extension.py: no CUDA device: skipped")
        return 77
    build_dir = a.build_dir or tempfile.mkdtemp(prefix="ew_torch_ext_")
    os.makedirs(build_dir, exist_ok=True)
    ext = build(build_dir)
    print(f"built ew_example with torch {torch.__version__} (CUDA {torch.version.cuda}) in {build_dir}", flush=True)
    torch.manual_seed(20261202)
    dev = "cuda"
    bf16 = torch.bfloat16

    for tokens, hidden in [(4096, 1000), (8, 4096), (3, 1001), (1, 1), (0, 7)]:
        x = torch.randn(tokens, hidden, device=dev, dtype=bf16) * 3
        b = torch.randn(hidden, device=dev, dtype=bf16)
        compare(f"contiguous [{tokens}, {hidden}]", ext.bias_gelu(x, b), x, b)

    x = (torch.randn(1000, 513, device=dev, dtype=bf16) * 3).t()  # [513, 1000], strides (1, 513)
    b = torch.randn(1000, device=dev, dtype=bf16)
    compare("transposed x [513, 1000]", ext.bias_gelu(x, b), x, b)

    big = torch.randn(777, 1100, device=dev, dtype=bf16) * 3
    x = big[5:, 3:1003]  # rows pitched at 1100, starting at an odd element
    b = torch.randn(2000, device=dev, dtype=bf16)[::2]  # stride 2
    compare("sliced x [772, 1000], strided b", ext.bias_gelu(x, b), x, b)

    x = torch.randn(1, 4096, device=dev, dtype=bf16).expand(64, 4096)  # stride 0 over the tokens
    b = torch.randn(1, device=dev, dtype=bf16).expand(4096)  # stride 0
    compare("expanded x and b", ext.bias_gelu(x, b), x, b)

    # PyTorch's current stream: the kernel is ordered after the work on that stream and before what follows.
    s = torch.cuda.Stream()
    x = torch.randn(8192, 4096, device=dev, dtype=bf16)
    b = torch.randn(4096, device=dev, dtype=bf16)
    torch.cuda.synchronize()
    with torch.cuda.stream(s):
        torch.cuda._sleep(10_000_000)  # keeps s busy: a launch on another stream would finish first
        x.mul_(3)
        y = ext.bias_gelu(x, b)
        y2 = y * 1  # after the kernel, on s
    s.synchronize()
    compare("on a side stream, after pending work", y2, x, b)

    for name, args in [("float x", (torch.randn(4, 8, device=dev), torch.randn(8, device=dev, dtype=bf16))),
                       ("bias of the wrong size", (torch.randn(4, 8, device=dev, dtype=bf16),
                                                   torch.randn(7, device=dev, dtype=bf16))),
                       ("host tensor", (torch.randn(4, 8, dtype=bf16), torch.randn(8, dtype=bf16)))]:
        try:
            ext.bias_gelu(*args)
            check(f"rejects {name}", False, "no error raised")
        except RuntimeError as e:
            check(f"rejects {name}", "bias_gelu:" in str(e), str(e).splitlines()[0])

    print(f"test_extension.py: {'FAIL' if failures else 'PASS'} ({len(failures)} failed)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
