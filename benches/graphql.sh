#!/usr/bin/env bash
# GitHub's GraphQL schema (npm `@octokit/graphql-schema`, in tests/graphql) → code:
# `toolwright generate` wall time and peak memory (release build), median of RUNS, for
# the SDL (target: ≤ 1 s) and the introspection JSON; then what the user's crate pays to
# check the generated client (non-incremental `cargo check`, dependencies built first).
# Also the SDL parsers measured when one was chosen (debug build, as a build script
# runs): see codegen/Cargo.toml.
# Usage: benches/graphql.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
source benches/lib.sh
runs=${1:-5}
(cd tests/graphql && [ -d node_modules/@octokit/graphql-schema ] || npm ci --no-audit --no-fund)
schema=tests/graphql/node_modules/@octokit/graphql-schema
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build -q --release -p toolwright-cli
for file in schema.graphql schema.json; do
  times=(); peak=0
  for _ in $(seq "$runs"); do
    rm -rf "$work/out"
    read -r secs kb < <( { /usr/bin/time -f '%e %M' target/release/toolwright generate "$schema/$file" --out "$work/out" 2>&1 >/dev/null; } | tail -1)
    times+=("$secs"); (( kb > peak )) && peak=$kb
  done
  printf 'github %-15s generate %.2f s  %d MB peak  %.1f MB written  %d tools  (median of %d)\n' "$file" \
    "$(median "${times[@]}")" $(( peak / 1024 )) "$(du -sm "$work/out" | cut -f1)" \
    "$(grep -c 'pub async fn' "$work/out/schema.rs")" "$runs"
done

# The user's crate: the SDL's client and catalog, checked as cargo would.
export CARGO_INCREMENTAL=0
crate="$work/user"
user_crate "$crate" github_graphql "$PWD/runtime"
target/release/toolwright generate "$schema/schema.graphql" --out "$crate/src/generated" >/dev/null 2>&1
echo 'include!("generated/toolwright.rs");' > "$crate/src/lib.rs"
(cd "$crate" && cargo check -q 2>&1 | tail -3)
time_check "$crate" github_graphql 3
printf 'github schema.graphql  user crate cargo check %.1f s  %d MB peak (median of 3, non-incremental)\n' \
  "$(median "${CHECK_TIMES[@]}")" "$CHECK_PEAK_MB"
