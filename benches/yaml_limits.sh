#!/usr/bin/env bash
# Measures how fast, and in how much memory, `toolwright check` refuses hostile YAML:
# an alias bomb (9^9 leaves if expanded) and 10,000-deep nesting in adapter front
# matter, and alias bombs in OpenAPI documents (a 6 KB one that expands to 12 million
# nodes, and one hidden at the end of 1 MB of ordinary YAML). Targets: < 0.5 s and
# < 100 MB for any input under 1 MB. Usage: benches/yaml_limits.sh  (builds the release CLI first)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --release -p toolwright-cli
bin=target/release/toolwright
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

python3 - "$dir" <<'PY'
import sys
d = sys.argv[1]
bomb = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
for p, c in zip("abcdefgh", "bcdefghi"):
    bomb += f"{c}: &{c} [{','.join(['*' + p] * 9)}]\n"
cases = {
    "bomb": bomb,
    "deep-flow": "x: " + "[" * 10000 + "]" * 10000 + "\n",
    "deep-block": "x:\n" + "".join("  " * i + "-\n" for i in range(10000)),
    "deep-map": "x: " + "{a: " * 10000 + "1" + "}" * 10000 + "\n",
}
for name, yaml in cases.items():
    open(f"{d}/{name}-adapter.md", "w").write("---\n" + yaml + "---\n")

head = 'openapi: 3.0.3\ninfo: {title: Bomb, version: "1"}\npaths: {}\n'
wide = "x-bomb:\n  a0: &a0 [" + ", ".join(["x"] * 100) + "]\n"
wide += "  a1: &a1 [" + ", ".join(["*a0"] * 99) + "]\n"
wide += "".join(f"  b{k}: [" + ", ".join(["*a1"] * 80) + "]\n" for k in range(12))
filler = "x-filler:\n" + "".join(f"  key{i}: {{description: some ordinary text here, n: {i}}}\n" for i in range(19000))
open(f"{d}/openapi-wide.yaml", "w").write(head + wide)
open(f"{d}/openapi-1mb.yaml", "w").write(head + filler + wide)
PY

printf '%-12s %10s %12s  %s\n' case seconds max_rss_kb finding
for f in "$dir"/*-adapter.md "$dir"/openapi-*.yaml; do
  name=$(basename "$f" .yaml)
  name=${name%-adapter.md}
  out=$( { /usr/bin/time -f '%e %M' "$bin" check "$f" >/dev/null 2>"$dir/err"; } 2>&1 || true)
  # /usr/bin/time appends its line to the command's stderr
  line=$(tail -n 1 "$dir/err")
  code=$(grep -o 'TW1[0-9][0-9]' "$dir/err" | head -n 1)
  printf '%-12s %10s %12s  %s\n' "$name" "${line% *}" "${line#* }" "$code"
done
