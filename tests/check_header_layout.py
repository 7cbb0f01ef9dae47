#!/usr/bin/env python3
# Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
"""The include rule of docs/ARCHITECTURE.md: a header in include/ew/detail/ includes no public ew header
but the leaves (public headers that include no detail header: functor.cuh, operands.cuh), and every header
that docs/ARCHITECTURE.md describes exists (and the reverse)."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
inc = root / "include" / "ew"
public = {p.name for p in inc.glob("*.cuh")}
include = re.compile(r'\s*#\s*include\s+"([^"]+)"')
direct = {p.name: [m.group(1) for line in p.read_text().splitlines() if (m := include.match(line))]
          for p in inc.glob("*.cuh")}
leaves = {n for n, inc_list in direct.items() if not any(i.startswith("detail/") for i in inc_list)}
changed = True
while changed:  # a leaf includes only leaves: nothing that reaches a detail header
    changed = False
    for n in sorted(leaves):
        if any(i in public and i not in leaves for i in direct[n]):
            leaves.discard(n)
            changed = True
errors = []
for name in ("functor.cuh", "operands.cuh"):  # the kit the detail headers build on
    if name not in leaves:
        errors.append(f"{name} includes a detail header: the detail headers may not include it")
for h in sorted((inc / "detail").glob("*.cuh")):
    for line in h.read_text().splitlines():
        m = re.match(r'\s*#\s*include\s+"\.\./([^"]+)"', line)
        if m and m.group(1) not in leaves:
            errors.append(f"{h.relative_to(root)} includes the public header {m.group(1)}")
doc = (root / "docs" / "ARCHITECTURE.md").read_text()
described = set(re.findall(r"\*\*`([a-z_]+\.cuh)`\*\*", doc))
actual = public | {p.name for p in (inc / "detail").glob("*.cuh")}
for name in sorted(actual - described):
    errors.append(f"{name} is not described in docs/ARCHITECTURE.md")
for name in sorted(described - actual):
    errors.append(f"docs/ARCHITECTURE.md describes {name}, which does not exist")
for e in errors:
    print("FAILED:", e)
print(f"{len(actual) - len([e for e in errors])} passed, {len(errors)} failed")
sys.exit(1 if errors else 0)
