#!/usr/bin/env bash
# Runs the test cases of a Catch2 test program in N processes at once:
#
#   scripts/sharded_run.sh N COMMAND [OPTION ...]
#
# COMMAND [OPTION ...] is the program and its options without test specs (e.g. `env CUDA_FORCE_PTX_JIT=1
# build-gpu/tests/ew_gpu_tests --durations yes`). Its test cases (as a plain run selects them: hidden ones
# stay out) are dealt round-robin into N name files, each run by one process with --input-file; the exit
# code is non-zero when any process fails or no case is listed. Made for the compute_80 PTX run of
# ew_gpu_tests (scripts/gpu_check.sh), where the driver's JIT compiler, one CPU core a process, takes most
# of the time: 43 cases took 120 s in one process on the H200's host (2026-12-05). Catch2 reads each line
# of a name file as a quoted name; its specials (backslash, comma, quote) are escaped.
# EW_SHARD_TIMEOUT=S (0 = none) stops each process after S seconds, so that the logs of the cases that ran
# are still printed when the caller's own limit is near (a process stopped so counts as failed).
set -uo pipefail
n=${1:?usage: sharded_run.sh N COMMAND [OPTION ...]}
shift
dir=$(mktemp -d)
# Catch2 v2 lists the names with --list-test-names-only; v3 (the device machine has one, 2026-12-05) with
# --list-tests --verbosity quiet.
# (v2 exits with the count of names it listed, so the output tells which one answered, not the exit code.)
"$@" --list-test-names-only >"$dir/names" 2>&1
if grep -q 'Unrecognised token' "$dir/names"; then "$@" --list-tests --verbosity quiet >"$dir/names" 2>/dev/null; fi
sed -e '/^$/d' -e 's/[\\,"]/\\&/g' "$dir/names" | awk -v n="$n" -v d="$dir" '{ print > (d "/shard" (NR % n)) }'
pids=()
for f in "$dir"/shard*; do
  [ -f "$f" ] || continue
  timeout "${EW_SHARD_TIMEOUT:-0}" "$@" --input-file "$f" >"$f.log" 2>&1 &
  pids+=($!)
done
[ ${#pids[@]} -gt 0 ] || {
  echo "sharded_run: no test cases listed"
  exit 1
}
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
listed=0 ran=0
for f in "$dir"/shard*.log; do
  cases=$(wc -l <"${f%.log}")
  listed=$((listed + cases))
  # Catch2's last line: "All tests passed (A assertions in C test cases)" or "test cases: C | ...".
  done_here=$(grep -oE 'in [0-9]+ test cases?\)|test cases: *[0-9]+' "$f" | tail -1 | grep -oE '[0-9]+' | head -1)
  ran=$((ran + ${done_here:-0}))
  echo "== ${f##*/} ($cases cases listed, ${done_here:-no} run)"
  cat "$f"
done
# A name that matched nothing (a spec character left unescaped) would drop a case silently.
[ "$ran" -eq "$listed" ] || rc=1
echo "sharded_run: ${#pids[@]} processes, $ran of $listed test cases run, rc=$rc"
exit $rc
