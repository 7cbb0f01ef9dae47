#!/usr/bin/env bash
# The README's test command, and what CI runs (.ci/run calls it). On a fresh Debian or Ubuntu machine that
# has the CUDA toolkit, it installs what the chosen options need and the machine lacks (with apt-get when
# run as root; otherwise it names the packages in one line and stops): CMake, Ninja and a C++ compiler
# always, Catch2 (v2 or v3) for the tests, Google Benchmark for the benchmarks. Then it configures, builds
# and runs ctest. On a machine without a GPU the GPU tests show as skipped.
#
#   scripts/test.sh [BUILD_DIR] [-DOPTION=VALUE ...]      BUILD_DIR defaults to build
#
# -DEW_BUILD_TESTS=OFF, -DEW_BUILD_BENCHMARKS=OFF and -DEW_BUILD_EXAMPLES=OFF leave those out, and what
# they need is not asked for.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
  build=$1
  shift
fi

# What the options turn on (each defaults to ON: ew is the top-level project here).
option_on() {
  local name=$1 value=ON arg
  for arg in "$@"; do
    case $arg in
    -D"$name"=* | -D"$name":BOOL=*) value=${arg#*=} ;;
    esac
  done
  case ${value^^} in
  OFF | 0 | FALSE | NO | N | IGNORE | NOTFOUND | *-NOTFOUND) return 1 ;;
  *) return 0 ;;
  esac
}
tests=0 benchmarks=0
option_on EW_BUILD_TESTS "$@" && tests=1
option_on EW_BUILD_BENCHMARKS "$@" && benchmarks=1

export PATH=/usr/local/cuda/bin:$PATH
if ! command -v nvcc >/dev/null; then
  echo "test.sh: nvcc not found on PATH or in /usr/local/cuda/bin: install the CUDA toolkit (12.0 or newer)" >&2
  exit 1
fi

# A header under the usual prefixes or CMAKE_PREFIX_PATH's.
have_header() {
  local dir
  for dir in /usr/include /usr/local/include ${CMAKE_PREFIX_PATH:+${CMAKE_PREFIX_PATH//:/\/include }/include}; do
    [ -f "$dir/$1" ] && return 0
  done
  return 1
}
need=()
if [ $tests = 1 ] && ! have_header catch2/catch.hpp && ! have_header catch2/catch_test_macros.hpp; then
  need+=(catch2)
fi
[ $benchmarks = 1 ] && ! have_header benchmark/benchmark.h && need+=(libbenchmark-dev)
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
if [ $tests = 1 ]; then
  ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
else
  echo "test.sh: built without tests (EW_BUILD_TESTS=OFF): nothing for ctest to run"
fi
