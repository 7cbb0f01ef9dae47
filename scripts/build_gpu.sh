#!/usr/bin/env bash
# Builds everything for the H200 (sm_90) on a machine with nvcc but perhaps no GPU (ew_bench_cccl_pypi
# included, against the CCCL that scripts/fetch_cccl.sh pins), then gathers the
# executables into build-gpu/{tests,bench,examples} (no object files, so it fits the device tool's 64 MiB
# carry limit) for scripts/gpu_check.sh to run on a GPU machine. Google Benchmark's shared library goes
# beside the benchmark binaries (their rpath is $ORIGIN) since the GPU machine lacks it, and libew_cells.so
# (EW_BUILD_TORCH_CELLS: issue 21's cells for bench/scripts/torch_cells.py, gpu_check.sh's `cells` stage).
set -euo pipefail
cd "$(dirname "$0")/.."
work=${EW_GPU_BUILD_WORK:-build-gpu-work}
bundle=build-gpu
# ew_bench_cccl_pypi too: the same benchmark against the newest CCCL (scripts/fetch_cccl.sh; needs pip and
# PyPI). Without them everything else is still built, and the script says so.
cccl_include=$(bash scripts/fetch_cccl.sh) || {
  echo "build_gpu.sh: no CCCL from PyPI (scripts/fetch_cccl.sh failed): building without ew_bench_cccl_pypi" >&2
  cccl_include=""
}
cmake -S . -B "$work" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DEW_WARNINGS_AS_ERRORS=ON \
  -DEW_BUILD_TORCH_CELLS=ON "-DEW_BENCH_CCCL_INCLUDE_DIR=$cccl_include"
# EW_GPU_TARGETS: only these targets (e.g. "ew_cells ew_gpu_tests ew_debug_tests" for a call that runs the
# cells and the tests: 15 minutes on two cores, 2026-12-07, where everything adds both benchmark programs and
# all of ew_tune); the bundle then holds what is built.
if [ -n "${EW_GPU_TARGETS:-}" ]; then
  # shellcheck disable=SC2086 # a list of targets
  cmake --build "$work" -j"$(nproc)" --target ${EW_GPU_TARGETS}
else
  cmake --build "$work" -j"$(nproc)"
fi
# EW_GPU_EXTRA_TARGETS: targets left out of `all` (the probes, e.g. ew_probe_pitched_floor) to build and
# bundle too.
for target in ${EW_GPU_EXTRA_TARGETS:-}; do
  cmake --build "$work" -j"$(nproc)" --target "$target"
done
rm -rf "$bundle"
for dir in tests bench examples; do
  mkdir -p "$bundle/$dir"
  find "$work/$dir" -maxdepth 1 -type f -executable -exec cp {} "$bundle/$dir/" \;
done
find "$work/bench" -maxdepth 1 -name 'libbenchmark*.so*' -exec cp -P {} "$bundle/bench/" \; 2>/dev/null || true
[ -f "$work/bench/libew_cells.so" ] && cp "$work/bench/libew_cells.so" "$bundle/bench/"
# The commit the bundle was built from (and whether the tree had changes), for gpu_check.sh's reports: the
# device machine's copy of the tree may carry another HEAD.
{ git rev-parse --short HEAD 2>/dev/null || echo unknown; } | tr -d '\n' >"$bundle/COMMIT"
git diff --quiet HEAD -- 2>/dev/null || printf '+changes' >>"$bundle/COMMIT"
du -sh "$bundle"
# The whole bundle as one compressed file for the device tool, whose carry takes 64 MiB in all: the bundle
# is about 90 MiB (ew_gpu_tests alone 39 MiB: sm_90 code and compute_80 PTX), its .tar.xz about 31 MiB
# (2026-12-05). Carry build-gpu-carry/; gpu_check.sh unpacks it where the bundle's executables are missing.
mkdir -p build-gpu-carry
tar -C "$bundle" -cf - . | xz -T0 -3 >build-gpu-carry/bundle.tar.xz
du -sh build-gpu-carry/bundle.tar.xz
