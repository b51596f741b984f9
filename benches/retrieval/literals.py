#!/usr/bin/env python3
"""Counts the English in the search engine: string literals holding an ASCII letter
in `query/src/search/` (each file up to its first `#[cfg(test)]`, comments skipped),
and the lines of every file. Usage: benches/retrieval/literals.py [DIR]"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "query/src/search")
LIT = re.compile(r'"((?:[^"\\]|\\.)*)"')
total_lines = total_lits = 0
for path in sorted(root.rglob("*.rs")):
    text = path.read_text()
    lines = len(text.splitlines())
    code = text.split("#[cfg(test)]")[0]
    # Comments out (doc and line comments; a `//` inside a literal is rare here).
    code = "\n".join(re.sub(r"//.*$", "", l) if '"' not in l.split("//")[0] or l.strip().startswith("//") else l
                     for l in code.splitlines())
    lits = [m for m in LIT.findall(code) if re.search(r"[A-Za-z]", m)]
    total_lines += lines
    total_lits += len(lits)
    print(f"{path.relative_to(root)}\t{lines} lines\t{len(lits)} literals")
print(f"total\t{total_lines} lines\t{total_lits} literals")
