#!/usr/bin/env bash
# The README's test command, and what CI runs (.ci/run calls it). On a fresh Debian or Ubuntu machine that
# has the CUDA toolkit, it installs what the build needs and lacks (with apt-get when run as root; otherwise
# it names the packages in one line and stops), then configures, builds everything (tests, benchmarks,
# examples) and runs ctest. On a machine without a GPU the GPU tests show as skipped.
#
#   scripts/test.sh [BUILD_DIR] [-DOPTION=VALUE ...]      BUILD_DIR defaults to build
set -euo pipefail
cd "$(dirname "$0")/.."

build=build
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
  build=$1
  shift
fi

export PATH=/usr/local/cuda/bin:$PATH
if ! command -v nvcc >/dev/null; then
  echo "test.sh: nvcc not found on PATH or in /usr/local/cuda/bin: install the CUDA toolkit (12.0 or newer)" >&2
  exit 1
fi

need=()
[ -f /usr/include/catch2/catch.hpp ] || need+=(catch2)
[ -f /usr/include/benchmark/benchmark.h ] || need+=(libbenchmark-dev)
command -v ninja >/dev/null || need+=(ninja-build)
command -v cmake >/dev/null || need+=(cmake)
command -v c++ >/dev/null || need+=(g++)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    echo "test.sh: installing ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "test.sh: missing ${need[*]}: run 'sudo apt-get install ${need[*]}' (Debian/Ubuntu), then this again" >&2
    exit 1
  fi
fi
nvcc --version | tail -1

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build "$build" -j"$(nproc)"
ctest --test-dir "$build" --output-on-failure
