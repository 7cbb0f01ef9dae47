#!/usr/bin/env bash
# Fetches the newest CCCL (headers only) from PyPI into .whl/ and prints its include folder, the one to put
# ahead of the toolkit's (-I) to build against it: ew's host tests in CI, and ew_bench_cccl_pypi, the
# benchmark binary whose cub rows are CUB 3.5.0 (cmake -DEW_BENCH_CCCL_INCLUDE_DIR=$(scripts/fetch_cccl.sh)).
#
#   scripts/fetch_cccl.sh        prints e.g. /repo/.whl/nvidia-cuda-cccl-13.3.5.0.6/nvidia/cu13/include/cccl
#
# The version is pinned here: nvidia-cuda-cccl 13.3.5.0.6 is CCCL 3.5.0 (CCCL_VERSION 3005000).
set -euo pipefail
cd "$(dirname "$0")/.."
version=13.3.5.0.6
dir=$PWD/.whl/nvidia-cuda-cccl-$version
include=$dir/nvidia/cu13/include/cccl
if [ ! -f "$include/cuda/std/__cccl/version.h" ]; then
  python3 -m pip install --quiet --disable-pip-version-check --no-deps --target "$dir" "nvidia-cuda-cccl==$version" >&2
fi
[ -f "$include/cuda/std/__cccl/version.h" ] || { echo "fetch_cccl.sh: no CCCL headers in $include" >&2; exit 1; }
echo "$include"
