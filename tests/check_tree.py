#!/usr/bin/env python3
"""Checks the size rules of the tree (docs/BENCHMARKS.md, "Results in git"): no tracked file over 256 KiB,
bench/results at most 2 MiB, and no raw benchmark JSON, plot or log archive under bench/results (those go to
$OUT; the folder keeps markdown, CSV and short text summaries). Exit 77 (skipped) outside a git checkout."""
import pathlib
import subprocess
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
try:
    files = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], check=True, capture_output=True).stdout
except (OSError, subprocess.CalledProcessError):
    print("not a git checkout: skipped")
    sys.exit(77)
bad = []
results = 0
for name in filter(None, files.decode().split("\0")):
    path = root / name
    if not path.is_file():
        continue
    size = path.stat().st_size
    if size > 256 * 1024:
        bad.append(f"{name}: {size} bytes, over 256 KiB")
    if name.startswith("bench/results/"):
        results += size
        if name.endswith((".json", ".png", ".tar.gz", ".log")):
            bad.append(f"{name}: raw results belong under $OUT, not in git (keep a summary: bench/scripts/to_csv.py)")
if results > 2 * 1024 * 1024:
    bad.append(f"bench/results: {results} bytes, over 2 MiB")
for b in bad:
    print(b)
print(f"bench/results {results} bytes; {len(bad)} problems")
sys.exit(1 if bad else 0)
