#!/usr/bin/env bash
# The inspection report of a dense GraphQL schema (release build): 150 object types of
# eight fields each and 150 input types that each reference four others, generated with
# a fixed seed (~72 KB of SDL, 300 root fields). Every tool's exported input spells out
# up to 4,000 schema nodes, so the four exports of all tools are gigabytes as JSON: the
# report must hold one tool's at a time. Prints wall time, peak memory and file size,
# with and without exports, median of RUNS (target: peak <= 500 MB).
# Measured on the 2-core VM: before per-tool exports 126 s and 14.8 GB; after ~40 s and
# ~98 MB.
# Usage: benches/report_graphql.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
source benches/lib.sh
runs=${1:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work/dense.graphql" <<'PY'
import random, sys
random.seed(3)
names = [f"T{i}" for i in range(150)]
out = []
for n in names:
    fields = ["  id: ID!"] + [
        f"  f{j}(a: Int, b: String, c: {random.choice(names)}In): {random.choice(names)}"
        for j in range(8)
    ]
    out.append(f"type {n} {{\n" + "\n".join(fields) + "\n}")
    fields = ["  x: Int"] + [f"  g{j}: {random.choice(names)}In" for j in range(4)]
    out.append(f"input {n}In {{\n" + "\n".join(fields) + "\n}")
out += ["type Query {"] + [f"  q{n}(id: ID!, filter: {n}In): {n}" for n in names] + ["}"]
out += ["type Mutation {"] + [f"  m{n}(input: {n}In!): {n}" for n in names] + ["}"]
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
# A wide one too (#64): 400 object types of five fields, 2,000 query and 2,000 mutation
# root fields (~175 KB of SDL). Peak memory must not grow with the number of tools:
# target <= 300 MB. Measured 2026-12-06 (debug builds, loaded 2-core VM, the page
# byte-identical): 321 MB before the details were compressed and the artifact made a
# tool at a time, 173 MB after.
python3 - "$work/wide.graphql" <<'PY'
import random, sys
random.seed(64)
types = [f"T{i}" for i in range(400)]
out = []
for t in types:
    fields = ["  id: ID!", "  name: String"] + [f"  f{j}: {random.choice(types)}" for j in range(3)]
    out.append(f"type {t} {{\n" + "\n".join(fields) + "\n}")
    out.append(f"input {t}In {{\n  name: String\n  ref: ID\n}}")
out += ["type Query {"] + [f"  q{i}(id: ID!, filter: {random.choice(types)}In): {random.choice(types)}" for i in range(2000)] + ["}"]
out += ["type Mutation {"] + [f"  m{i}(input: {random.choice(types)}In!): {random.choice(types)}" for i in range(2000)] + ["}"]
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
cargo build -q --release -p toolwright-cli
times=(); peak=0
for _ in $(seq "$runs"); do
  read -r secs kb < <( { /usr/bin/time -f '%e %M' target/release/toolwright report \
    --graphql-endpoint wide=https://api.example.com/graphql "$work/wide.graphql" \
    --out "$work/wide.html" 2>&1 >/dev/null; } | tail -1)
  times+=("$secs"); (( kb > peak )) && peak=$kb
done
printf 'wide GraphQL (4,000 root fields) report %.2f s  %d MB peak  %.1f MB file (median of %d)\n' \
  "$(median "${times[@]}")" $(( peak / 1024 )) \
  "$(echo "$(stat -c %s "$work/wide.html") / 1048576" | bc -l)" "$runs"
for variant in exports no-exports; do
  flags=(); [ "$variant" = no-exports ] && flags=(--no-exports)
  times=(); peak=0
  for _ in $(seq "$runs"); do
    read -r secs kb < <( { /usr/bin/time -f '%e %M' target/release/toolwright report "${flags[@]}" \
      --graphql-endpoint dense=https://api.example.com/graphql "$work/dense.graphql" \
      --out "$work/dense.html" 2>&1 >/dev/null; } | tail -1)
    times+=("$secs"); (( kb > peak )) && peak=$kb
  done
  printf 'dense GraphQL (%s) report %.2f s  %d MB peak  %.1f MB file (median of %d)\n' "$variant" \
    "$(median "${times[@]}")" $(( peak / 1024 )) \
    "$(echo "$(stat -c %s "$work/dense.html") / 1048576" | bc -l)" "$runs"
done
