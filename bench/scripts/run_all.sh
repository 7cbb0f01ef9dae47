#!/usr/bin/env bash
# Runs every benchmark over a build and draws the results (the same steps scripts/gpu_check.sh runs).
#
#   bench/scripts/run_all.sh [BUILD_DIR] [OUT_DIR]      (defaults: build-gpu, bench-out)
#
# OUT_DIR gets bench.json and bench.txt (ew_bench), torch_triton.json and torch_triton.txt, tune.txt
# (ew_tune --standard), bench.png, bench_hot.png and ratios.md (plot.py). Exit code: non-zero when ew_bench
# or torch_triton.py found a wrong result or a CUDA error.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-gpu}
out=${2:-bench-out}
mkdir -p "$out"
status=0

"$build/bench/ew_bench" --benchmark_out="$out/bench.json" --benchmark_out_format=json 2>&1 | tee "$out/bench.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1

python3 bench/scripts/torch_triton.py --out "$out/torch_triton.json" 2>&1 | tee "$out/torch_triton.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1

"$build/bench/ew_tune" --standard >"$out/tune.txt" 2>&1 || status=1

if [ -f "$out/bench.json" ]; then
  extra=()
  [ -f "$out/torch_triton.json" ] && extra=("$out/torch_triton.json")
  python3 bench/scripts/plot.py "$out/bench.json" "${extra[@]}" --png "$out/bench.png" --hot-png "$out/bench_hot.png" \
    --table "$out/ratios.md"
fi
exit $status
