#!/usr/bin/env bash
# Checks (or, with --fix, applies) clang-format on every C++ and CUDA file git tracks (.cu .cuh .cpp .hpp
# .h; the .cu.in templates hold @VARIABLES@ that clang-format would split). CI runs it. The style is
# .clang-format's, as clang-format 14 applies it: other major versions format some constructs differently,
# so the script takes clang-format-14 (Debian 12, Ubuntu 22.04) or a clang-format that says it is 14
# (`pip install clang-format==14.0.6` gives one anywhere).
#
#   scripts/check_format.sh [--fix]
set -euo pipefail
cd "$(dirname "$0")/.."

tool=""
for candidate in clang-format-14 clang-format; do
  if command -v "$candidate" >/dev/null && "$candidate" --version | grep -q "version 14\."; then
    tool=$candidate
    break
  fi
done
if [ -z "$tool" ]; then
  echo "check_format.sh: needs clang-format 14: apt-get install clang-format-14, or pip install clang-format==14.0.6" >&2
  exit 1
fi

mapfile -t files < <(git ls-files '*.cu' '*.cuh' '*.cpp' '*.hpp' '*.h')
if [ "${1:-}" = --fix ]; then
  "$tool" -i --style=file "${files[@]}"
  echo "check_format.sh: formatted ${#files[@]} files with $("$tool" --version)"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  "$tool" --style=file "$f" | cmp -s - "$f" || bad+=("$f")
done
# clang-format leaves some lines long (a string or comment it cannot break): the limit holds for them too.
long=$(awk 'length > 110 { printf "  %s:%d: %d columns\n", FILENAME, FNR, length }' "${files[@]}")
if [ -n "$long" ]; then
  echo "check_format.sh: lines over 110 columns:" >&2
  echo "$long" >&2
  bad+=("(long lines)")
fi
if [ ${#bad[@]} -gt 0 ]; then
  echo "check_format.sh: ${#bad[@]} of ${#files[@]} files differ from clang-format ($("$tool" --version)):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  echo "run scripts/check_format.sh --fix" >&2
  exit 1
fi
echo "check_format.sh: ${#files[@]} files formatted as clang-format 14 would"
