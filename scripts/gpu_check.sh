#!/usr/bin/env bash
# On a GPU machine: run every GPU test, the four compute-sanitizer tools, and the benchmarks over a build
# made for sm_90, and keep the logs and results.
#
#   scripts/gpu_check.sh [BUILD_DIR] [STAGE ...]
#
# BUILD_DIR defaults to build-gpu (made with scripts/build_gpu.sh, or any build with the tests and
# benchmarks on). STAGES: tests torch_ext sanitizers bench operands fp8_random catalog compare tune torch plot
# cells fused (default: all but compare, cells and fused, in that order; compare needs EW_COMPARE_BASE, see
# below; cells and fused need PyTorch and the bundle's libew_cells.so).
# Output goes to $OUT when set (the device tool's output folder), else ./gpu-out: summary.txt (the counts),
# logs.tar.gz (every log), bench.json, bench_cccl_pypi.json, hot.json, hot_cccl_pypi.json, operands*.json and
# operands*.md, fp8_random*.json and fp8_random*.md, torch_triton.json,
# tune.txt, bench.png, bench_hot.png, ratios.md, torch_cells.json and torch_cells.md, torch_fused.json and
# torch_fused.md.
# The exit code is non-zero when any test or sanitizer stage failed. EW_STEP_TIMEOUT=S bounds each step;
# EW_SANITIZER_TOOLS picks some of the four tools (e.g. to run two tools per GPU on a two-GPU machine);
# EW_SANITIZER_PARALLEL=1 runs them at once; EW_TESTS_AT_ONCE=1 runs the stages tests and sanitizers
# together (below).
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-gpu}
shift || true
stages=${*:-tests torch_ext sanitizers bench operands fp8_random catalog tune torch plot}
out=${OUT:-$PWD/gpu-out}
logs=$(mktemp -d)
mkdir -p "$out"
summary="$out/summary.txt"
: >"$summary"
status=0

say() { echo "$*" | tee -a "$summary"; }
has() { [[ " $stages " == *" $1 "* ]]; }
# Runs a command with its output in logs/NAME.log; records pass/fail and the wall time in the summary.
step() {
  local name=$1
  shift
  local t0=$SECONDS
  # EW_STEP_TIMEOUT (seconds, 0 = none) bounds each step, so one slow sanitizer run cannot take the rest.
  timeout "${EW_STEP_TIMEOUT:-0}" "$@" >"$logs/$name.log" 2>&1
  local rc=$?
  say "$(printf '%-34s rc=%-3s %4ss  %s' "$name" "$rc" "$((SECONDS - t0))" "$(tail -n 3 "$logs/$name.log" | tr '\n' ' ' | cut -c1-150)")"
  return $rc
}

# A bundle carried compressed (scripts/build_gpu.sh's build-gpu-carry/bundle.tar.xz) is unpacked first.
if [ ! -x "$build/tests/ew_gpu_tests" ] && [ -f build-gpu-carry/bundle.tar.xz ]; then
  mkdir -p "$build" && xz -dc build-gpu-carry/bundle.tar.xz | tar -C "$build" -xf - || status=1
fi
# The commit the build came from: build_gpu.sh's stamp, else this tree's HEAD.
commit=$(cat "$build/COMMIT" 2>/dev/null || git rev-parse --short HEAD 2>/dev/null || echo unknown)
say "ew gpu_check $(date -u +%FT%TZ) build=$build stages=[$stages]"
say "$(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>&1 | head -2)"
say "$(nvcc --version 2>/dev/null | tail -1) built from commit $commit"

gpu_bins=()
for b in ew_gpu_tests ew_debug_tests; do
  [ -x "$build/tests/$b" ] && gpu_bins+=("$build/tests/$b")
done

# EW_TESTS_AT_ONCE=1: the stages `tests` and `sanitizers` run together, every program at once on the one GPU
# (the sanitizers one process a tool, ew_gpu_tests' sm_90 run in EW_SM90_SHARDS processes, the PTX JIT pass
# beside them): on an H100 of 16 cores the same arrangement by hand, the PTX pass in 9 processes, took 440 s
# for all of it (2026-12-08, bench/results/2026-12-08-h100-session22/gpu_tests.txt), where one after the
# other took about 870 s (racecheck 333 s, the sm_90 run 249 s, the PTX pass 287 s: 2026-12-07), more than
# one call of the device tool's 600 s.
at_once=0
[ "${EW_TESTS_AT_ONCE:-0}" = 1 ] && at_once=1 && EW_SANITIZER_PARALLEL=1
background=()

# The four compute-sanitizer tools over ew_gpu_tests and ew_debug_tests (the `sanitizers` stage).
sanitizers_stage() {
  # Left out under the tools: the >4 GiB tests ([large], hours under the tools; they run above), the test
  # that makes CUDA API calls fail on purpose ([api_errors], which the tools count as errors), and the
  # sticky-error processes (deliberate faults). The property test runs a reduced number of cases.
  # EW_SANITIZER_PARALLEL=1 (implied by EW_TESTS_AT_ONCE=1) runs the tools at once, one process each (they
  # are bound by the host-side instrumentation, so on one GPU the four take about as long as the slowest).
  local EW_PROPERTY_CASES=${EW_PROPERTY_CASES_SANITIZER:-300} rc=0 pids=() pid tool
  export EW_PROPERTY_CASES
  run_tool() {
    local tool=$1 rc=0
    for b in "${gpu_bins[@]}"; do
      extra=()
      [ "$tool" = memcheck ] && extra=(--leak-check full)
      step "sanitizer.$tool.$(basename "$b")" compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 99 \
        "$b" '~[large]~[api_errors]' || rc=1
    done
    return $rc
  }
  for tool in ${EW_SANITIZER_TOOLS:-memcheck racecheck initcheck synccheck}; do
    if [ "${EW_SANITIZER_PARALLEL:-0}" = 1 ]; then
      run_tool "$tool" &
      pids+=($!)
    else
      run_tool "$tool" || rc=1
    fi
  done
  for pid in "${pids[@]}"; do wait "$pid" || rc=1; done
  return $rc
}

# ew_gpu_tests with CUDA_FORCE_PTX_JIT=1: its compute_80 PTX JIT-compiled here, as a program that ships
# only compute_80 PTX runs (programmatic launch must not be asked for kernels whose image lacks the wait;
# [pdl] checks which image ran). In EW_PTX_SHARDS processes at once (scripts/sharded_run.sh): the driver's
# JIT compiler is the time. Each process stops 20 s before the step's limit, so that the cases that ran
# are still logged.
ptx_step() {
  local shard_limit=$((${EW_STEP_TIMEOUT:-0} > 20 ? ${EW_STEP_TIMEOUT:-0} - 20 : 0))
  step test.ew_gpu_tests.ptx_jit env EW_SHARD_TIMEOUT=$shard_limit bash scripts/sharded_run.sh \
    "${EW_PTX_SHARDS:-8}" env CUDA_FORCE_PTX_JIT=1 \
    "$build/tests/ew_gpu_tests" --durations yes
}

if has sanitizers && [ $at_once = 1 ]; then
  sanitizers_stage &
  background+=($!)
fi
if has tests; then
  # ew_gpu_tests twice: its sm_90 code, then its compute_80 PTX (ptx_step). The odr tests link units built
  # with and without EW_DEBUG_SYNC in both orders.
  if [ $at_once = 1 ] && [ -x "$build/tests/ew_gpu_tests" ]; then
    ptx_step &
    background+=($!)
  fi
  for b in "${gpu_bins[@]}"; do
    if [ $at_once = 1 ] && [ "$(basename "$b")" = ew_gpu_tests ]; then
      step test.ew_gpu_tests bash scripts/sharded_run.sh "${EW_SM90_SHARDS:-3}" "$b" --durations yes || status=1
    else
      step "test.$(basename "$b")" "$b" --durations yes || status=1
    fi
  done
  [ $at_once = 0 ] && [ -x "$build/tests/ew_gpu_tests" ] && { ptx_step || status=1; }
  # The multi-device tests are hidden: they run here, and exit 77 (skipped) with fewer than two GPUs.
  [ -x "$build/tests/ew_gpu_tests" ] && {
    step test.ew_gpu_tests.multi_device "$build/tests/ew_gpu_tests" --require-gpus 2 "[multi_device]"
    rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 77 ] || status=1
  }
  for b in "$build"/tests/ew_odr_test_*; do
    [ -x "$b" ] && { step "test.$(basename "$b")" "$b" || status=1; }
  done
  for b in "$build"/tests/ew_sticky_error_test; do
    [ -x "$b" ] && { step "test.$(basename "$b")" "$b" || status=1; }
  done
  for b in "$build"/examples/ew_example_*; do
    [ -x "$b" ] && { step "example.$(basename "$b")" "$b" || status=1; }
  done
fi

# torch_ext: the PyTorch extension example (examples/torch_extension/), built here with
# torch.utils.cpp_extension against this machine's PyTorch and checked against PyTorch.
if has torch_ext; then
  if python3 -c 'import torch' 2>/dev/null; then
    step torch_ext env PYTHONUNBUFFERED=1 python3 examples/torch_extension/test_extension.py \
      --build-dir "$(mktemp -d)" || status=1
    grep -E '^(PASS|FAIL)' "$logs/torch_ext.log" | tee -a "$summary"
  else
    say "torch_ext: no PyTorch here: skipped"
  fi
fi

for pid in "${background[@]}"; do wait "$pid" || status=1; done
if has sanitizers && [ $at_once = 0 ]; then
  sanitizers_stage || status=1
fi

# cell_stage NAME FILTER ALONE SCRIPT: the cells FILTER selects, in both binaries, in a process of their own;
# for ew_bench also reversed and the rows ALONE each alone, so that the table shows how much each row depends
# on its company. bench/scripts/SCRIPT tables them against the issue's bars: NAME.md, NAME_cccl_pypi.md
# (and NAME*.json).
cell_stage() {
  local name=$1 filter=$2 alone=$3 script=$4 b json row
  # EW_CELL_BENCHES: the benchmark programs to run (default both; the catalog has no CUB rows).
  for b in ${EW_CELL_BENCHES:-ew_bench ew_bench_cccl_pypi}; do
    [ -x "$build/bench/$b" ] || continue
    json="$out/$name${b#ew_bench}.json"
    step "$name.$b" "$build/bench/$b" --ew_modes=cold --benchmark_filter="$filter" \
      --benchmark_out="$json" --benchmark_out_format=json || status=1
    local more=()
    if [ "$b" = ew_bench ]; then
      step "$name.$b.reverse" "$build/bench/$b" --ew_modes=cold --ew_reverse --benchmark_filter="$filter" \
        --benchmark_out="$logs/$b.$name.reverse.json" --benchmark_out_format=json || status=1
      more+=("$logs/$b.$name.reverse.json")
      for row in $alone; do
        step "$name.$b.alone.${row//\//_}" "$build/bench/$b" --ew_modes=cold --benchmark_filter="^$row/" \
          --benchmark_out="$logs/$b.$name.alone.${row//\//_}.json" --benchmark_out_format=json || status=1
        more+=("$logs/$b.$name.alone.${row//\//_}.json")
      done
    fi
    if python3 "bench/scripts/$script" "$json" "${more[@]}" --markdown "$out/$name${b#ew_bench}.md" \
      >"$logs/$b.$name.txt" 2>&1; then
      grep -E 'ew rows;|worst spread' "$logs/$b.$name.txt" | tee -a "$summary"
    else
      say "$script failed on $json: $(tail -n 1 "$logs/$b.$name.txt")"
      status=1
    fi
  done
}

# fp8_random: the FP8 quantize-with-amax and dropout cells (issue 13).
fp8_filter='^(quant_amax|dropout|amax_alone|sum_alone)/'
fp8_alone=${EW_FP8_ALONE:-"quant_amax/f32/ew_fused/cold/aligned/268435456 dropout/bf16/ew_dropout/cold/aligned/268435456"}
if has fp8_random; then
  cell_stage fp8_random "$fp8_filter" "$fp8_alone" fp8_random.py
fi

# catalog: the op catalog's cells (issue 23), each op against ew's relu.
if has catalog; then
  cell_stage catalog '^catalog/' "${EW_CATALOG_ALONE:-catalog/bf16/gelu/cold/aligned/67108864}" catalog.py
fi

# bench: the full sweep of ew_bench (toolkit CCCL) and of ew_bench_cccl_pypi (the pinned PyPI CCCL) when
# built, into bench.json and bench_cccl_pypi.json; then each binary's self-check (bench/scripts/self_check.py):
# a sample of rows rerun in reverse order in another process, and a few rows each alone in a process of
# their own, must agree with the sweep within 2%; the check is written into the sweep's JSON. Then the
# hot-only run (hot.json, hot_cccl_pypi.json) and the cell table against cub (logs, and its last line in
# the summary).
# The sample takes every implementation of its cells, so that they are timed with the same company as in
# the sweep.
selfcheck_sample=${EW_SELFCHECK_SAMPLE:-'^(add|clamp)/(f32|f16)/[^/]+/(cold/aligned/(1048576|268435456)|hot/aligned/65536)/'}
selfcheck_alone=${EW_SELFCHECK_ALONE:-"add/f32/cub/cold/aligned/268435456 add/f32/ew/cold/aligned/268435456 clamp/f16/cub_native/hot/aligned/65536 clamp/f16/ew/hot/aligned/65536 relu/bf16/cub/cold/aligned/268435456"}
if has bench; then
  for b in ew_bench ew_bench_cccl_pypi; do
    [ -x "$build/bench/$b" ] || continue
    json="$out/bench${b#ew_bench}.json"
    step "bench.$b" "$build/bench/$b" --benchmark_out="$json" --benchmark_out_format=json || status=1
    step "bench.$b.reverse" "$build/bench/$b" --ew_reverse --benchmark_filter="$selfcheck_sample" \
      --benchmark_out="$logs/$b.reverse.json" --benchmark_out_format=json || status=1
    alone=()
    for row in $selfcheck_alone; do
      step "bench.$b.alone.${row//\//_}" "$build/bench/$b" --benchmark_filter="^$row/" \
        --benchmark_out="$logs/$b.alone.${row//\//_}.json" --benchmark_out_format=json || status=1
      alone+=("$logs/$b.alone.${row//\//_}.json")
    done
    python3 bench/scripts/self_check.py --sweep "$json" --reverse "$logs/$b.reverse.json" --alone "${alone[@]}" \
      >"$logs/$b.selfcheck.txt" 2>&1 || status=1
    tee -a "$summary" <"$logs/$b.selfcheck.txt"
    # The graph-replay cells again in a process of their own (only ew's and cub's hot rows at 2^16 and 2^20):
    # in the full sweep, other implementations' small launches run slower after the 2^28 rows (the README
    # and bench/results/2026-12-01-h200-fair/ say more); bench/scripts/cells.py --hot takes these.
    hot="$out/hot${b#ew_bench}.json"
    step "bench.$b.hot" "$build/bench/$b" --ew_modes=hot \
      --benchmark_filter='^(add|relu|clamp|scale_bias)/[^/]+/(ew|cub|cub_native)/hot/(aligned|misaligned)/(65536|1048576)/' \
      --benchmark_out="$hot" --benchmark_out_format=json || status=1
    if python3 bench/scripts/cells.py "$json" --hot "$hot" --markdown "$logs/$b.cells.md" >"$logs/$b.cells.txt" 2>&1; then
      grep -E '^[0-9]+ cells:|^missing cells' "$logs/$b.cells.txt" | tee -a "$summary"
    else
      say "cells.py failed on $json: $(tail -n 1 "$logs/$b.cells.txt")"
      status=1
    fi
  done
fi
# operands: the operand cells (issue 12: broadcasts, pitched and transposed views, the index, constants and
# scalars), through cell_stage: operands.md, operands_cccl_pypi.md.
operands_filter='^(bcast_row[.][0-9]+|bcast_col[.][0-9]+|channel_sb|pitched[.][0-9]+|transpose|index_seq|index_mask|mul_value)/'
operands_alone=${EW_OPERANDS_ALONE:-"bcast_row.4096/bf16/ew/cold/aligned/268435456 index_mask/f32/ew/cold/aligned/268435456"}
if has operands; then
  cell_stage operands "$operands_filter" "$operands_alone" operands.py
fi
# compare: this build's ew_bench against another build's ($EW_COMPARE_BASE, e.g. one built from an earlier
# commit), interleaved base, new, base, new over $EW_COMPARE_FILTER (default: ew's rows of every op and type
# at 2^20 and 2^26 cold, 2^16 in graph replay, and the host cost); the table (bench/scripts/compare.py) goes into
# the summary, the JSON into logs.tar.gz.
if has compare && [ -x "${EW_COMPARE_BASE:-}" ] && [ -x "$build/bench/ew_bench" ]; then
  filter=${EW_COMPARE_FILTER:-'^((add|relu|clamp|scale_bias)/(f32|f16|bf16|f64)/ew/(cold/aligned/(1048576|67108864)|hot/aligned/65536)|hostcost.add/f32/ew)/'}
  for round in 1 2; do
    step "compare.base.$round" "$EW_COMPARE_BASE" --benchmark_filter="$filter" --benchmark_out="$logs/base$round.json" \
      --benchmark_out_format=json || status=1
    step "compare.new.$round" "$build/bench/ew_bench" --benchmark_filter="$filter" --benchmark_out="$logs/new$round.json" \
      --benchmark_out_format=json || status=1
  done
  python3 bench/scripts/compare.py "$logs/base1.json" "$logs/new1.json" "$logs/base2.json" "$logs/new2.json" | tee -a "$summary"
fi
if has tune && [ -x "$build/bench/ew_tune" ]; then
  step tune "$build/bench/ew_tune" --standard
  cp "$logs/tune.log" "$out/tune.txt"
fi
if has torch && [ -f bench/scripts/torch_triton.py ]; then
  step torch env PYTHONUNBUFFERED=1 python3 bench/scripts/torch_triton.py --out "$out/torch_triton.json"
fi
# cells: issue 21's cells, eager PyTorch, torch.compile and ew (the bundle's libew_cells.so, through ctypes)
# side by side in one process (bench/scripts/torch_cells.py): torch_cells.json and torch_cells.md.
# EW_CELLS_ARGS adds options (e.g. "--one-d", "--quick", "--compile-mode max-autotune-no-cudagraphs").
if has cells; then
  if ! python3 -c 'import torch' 2>/dev/null; then
    say "cells: no PyTorch here: skipped"
  elif [ ! -f "$build/bench/libew_cells.so" ]; then
    say "cells: FAIL: no $build/bench/libew_cells.so (scripts/build_gpu.sh builds it)"
    status=1
  else
    # shellcheck disable=SC2086 # EW_CELLS_ARGS is a list of options
    step cells env PYTHONUNBUFFERED=1 python3 bench/scripts/torch_cells.py --lib "$build/bench/libew_cells.so" \
      --out "$out/torch_cells.json" --md "$out/torch_cells.md" --commit "$commit" ${EW_CELLS_ARGS:-} || status=1
    grep -E '^(FAILED|phases:|torch_cells:)' "$logs/cells.log" | tee -a "$summary"
  fi
fi
# fused: issues 22 and 23's fused cells (FP8 quantize with amax, dropout, reductions alone, cast-transpose,
# bias + GELU), eager PyTorch, torch.compile and ew side by side (bench/scripts/torch_fused_cells.py):
# torch_fused.json and torch_fused.md. EW_FUSED_ARGS adds options (e.g. "--quick").
if has fused; then
  if ! python3 -c 'import torch' 2>/dev/null; then
    say "fused: no PyTorch here: skipped"
  elif [ ! -f "$build/bench/libew_cells.so" ]; then
    say "fused: FAIL: no $build/bench/libew_cells.so (scripts/build_gpu.sh builds it)"
    status=1
  else
    # shellcheck disable=SC2086 # EW_FUSED_ARGS is a list of options
    step fused env PYTHONUNBUFFERED=1 python3 bench/scripts/torch_fused_cells.py --lib "$build/bench/libew_cells.so" \
      --out "$out/torch_fused.json" --md "$out/torch_fused.md" --commit "$commit" ${EW_FUSED_ARGS:-} || status=1
    grep -E '^(FAILED|total|torch_fused_cells:)' "$logs/fused.log" | tee -a "$summary"
  fi
fi
if has plot && [ -f bench/scripts/plot.py ] && [ -f "$out/bench.json" ]; then
  extra=()
  [ -f "$out/torch_triton.json" ] && extra=("$out/torch_triton.json")
  step plot python3 bench/scripts/plot.py "$out/bench.json" "${extra[@]}" --png "$out/bench.png" --hot-png "$out/bench_hot.png" \
    --table "$out/ratios.md"
fi

# Every benchmark JSON also as the compact CSV that results folders commit (bench/scripts/to_csv.py).
for json in "$out"/*.json; do
  [ -f "$json" ] && python3 bench/scripts/to_csv.py "$json" --out "${json%.json}.csv" \
    --commit "$commit" 2>/dev/null
done
tar -C "$logs" -czf "$out/logs.tar.gz" .
say "gpu_check: $([ $status -eq 0 ] && echo PASS || echo FAIL)"
exit $status
