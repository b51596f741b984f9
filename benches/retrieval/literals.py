#!/usr/bin/env python3
"""Counts the English in the search engine: string literals holding an ASCII letter
in `query/src/search/` (each file up to its first `#[cfg(test)]`, comments and char
literals skipped), and the lines of every file. Usage: benches/retrieval/literals.py
[DIR] [-v] (-v prints the literals outside `language/`)."""
import pathlib
import re
import sys

args = [a for a in sys.argv[1:] if a != "-v"]
root = pathlib.Path(args[0] if args else "query/src/search")
LIT = re.compile(r'"((?:[^"\\]|\\.)*)"', re.S)
# Char literals first ('"', '\''), so that their quotes open no string.
CHAR = re.compile(r"'(?:[^'\\\n]|\\.|\\u\{[0-9a-fA-F]+\})'")
total_lines = total_code = total_lits = 0
for path in sorted(root.rglob("*.rs")):
    text = path.read_text()
    lines = len(text.splitlines())
    code = text.split("#[cfg(test)]")[0]
    code_lines = len(code.splitlines())
    # Comments out (doc and line comments; a `//` inside a literal is rare here).
    code = "\n".join(re.sub(r"//.*$", "", l) if '"' not in l.split("//")[0] or l.strip().startswith("//") else l
                     for l in code.splitlines())
    code = CHAR.sub("''", code)
    lits = [m for m in LIT.findall(code) if re.search(r"[A-Za-z]", m)]
    if "-v" in sys.argv and "language" not in path.parts:
        print(f"  {lits}")
    total_lines += lines
    total_code += code_lines
    total_lits += len(lits)
    print(f"{path.relative_to(root)}\t{lines} lines\t{code_lines} before tests\t{len(lits)} literals")
print(f"total\t{total_lines} lines\t{total_code} before tests\t{total_lits} literals")
