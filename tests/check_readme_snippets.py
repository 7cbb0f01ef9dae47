#!/usr/bin/env python3
"""Checks that every README code block marked `<!-- snippet: FILE -->` is, line for line, the part of FILE
between its two `// [snippet]` markers, so the README shows only code that CI compiles. With --fix, rewrites
the README's blocks from the files instead.

  check_readme_snippets.py [ROOT] [--fix]"""
import pathlib
import re
import sys

args = [a for a in sys.argv[1:] if a != "--fix"]
fix = "--fix" in sys.argv[1:]
root = pathlib.Path(args[0] if args else ".")
readme = (root / "README.md").read_text()
blocks = re.findall(r"<!-- snippet: (\S+) -->\s*```cpp\n(.*?)```", readme, re.S)
if not blocks:
    sys.exit("README.md has no snippet blocks")
bad = 0
for path, block in blocks:
    source = (root / path).read_text()
    parts = source.split("// [snippet]\n")
    if len(parts) != 3:
        print(f"{path}: expected exactly two '// [snippet]' markers")
        bad += 1
        continue
    expected = parts[1].rstrip()
    got = block.rstrip()
    if got != expected and fix:
        readme = readme.replace(f"<!-- snippet: {path} -->\n```cpp\n{block}```",
                                f"<!-- snippet: {path} -->\n```cpp\n{expected}\n```")
        print(f"README snippet from {path}: rewritten")
    elif got != expected:
        print(f"README snippet from {path} differs from the source:\n--- README\n{got}\n--- {path}\n{expected}")
        bad += 1
if fix:
    (root / "README.md").write_text(readme)
print(f"{len(blocks) - bad} passed, {bad} failed")
sys.exit(1 if bad else 0)
