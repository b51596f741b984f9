#!/usr/bin/env bash
# Generated code's compile time beside progenitor's, side by side in one run: for every
# spec of tests/data/corpus (dev and big) that `cargo progenitor` accepts, generates
# both crates and times a non-incremental `cargo check` of each (CARGO_INCREMENTAL=0,
# dependencies built first, the crate cleaned before each run), the two interleaved
# run by run so that the machine's load falls on both alike; median of N.
#
# progenitor is not a dependency of this repository: install its CLI first
# (`cargo install cargo-progenitor --version 0.15.1`), or point PROGENITOR at it.
#
# Usage: benches/progenitor.sh [runs]   (default 3)
# SPECS="apple.com_app-store-connect.json ..." limits the list to those file names;
# TOOLWRIGHT_BIN=path uses that generator binary instead of building this checkout's.
set -euo pipefail
cd "$(dirname "$0")/.."
source benches/lib.sh
root=$(pwd)
runs=${1:-3}
progenitor=${PROGENITOR:-$(command -v cargo-progenitor || true)}
if [ -z "$progenitor" ]; then
  echo "cargo-progenitor not found: cargo install cargo-progenitor --version 0.15.1" >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

generator "$root"
bin=$BIN
export CARGO_TARGET_DIR="$work/target" CARGO_INCREMENTAL=0

specs=()
for file in tests/data/corpus/dev/*.json tests/data/corpus/dev/*.yaml \
  tests/data/corpus/big/*.json.gz; do
  [ -f "$file" ] || continue
  name=$(basename "$file")
  if [ -n "${SPECS:-}" ] && [[ " $SPECS " != *" ${name%.gz} "* ]]; then continue; fi
  specs+=("$file")
done

echo "# $("$progenitor" --version 2>/dev/null | head -1 || echo cargo-progenitor) vs toolwright $(git rev-parse --short HEAD)"
printf '%-40s %9s %9s %8s %8s %6s\n' spec tw_lines pg_lines tw_s pg_s ratio
refused=()
for file in "${specs[@]}"; do
  name=$(basename "$file"); name=${name%.gz}
  # A package name cargo accepts, the same for both crates but for the prefix.
  id=$(echo "${name%.*}" | tr 'A-Z._' 'a-z--')
  spec="$work/$name"
  case $file in
    *.gz) gunzip -c "$file" > "$spec" ;;
    *) cp "$file" "$spec" ;;
  esac
  pg="$work/pg-$id"
  if ! timeout 300 "$progenitor" progenitor -i "$spec" -o "$pg" -n "pg-$id" -v 0.1.0 \
    > "$work/pg.log" 2>&1; then
    refused+=("$name")
    continue
  fi
  echo "[workspace]" >> "$pg/Cargo.toml"
  tw="$work/tw-$id"
  "$bin" generate "$spec" --out "$tw/generated" > /dev/null 2>&1
  user_crate "$tw" "tw-$id" "$root/runtime"
  echo "include!(\"$tw/generated/toolwright.rs\");" > "$tw/src/lib.rs"
  # Dependencies first (not timed); both must check.
  if ! (cd "$tw" && cargo check -q 2> "$work/tw.err"); then
    echo "$name: toolwright's crate does not check: $(grep -m1 '^error' "$work/tw.err")" >&2
    exit 1
  fi
  if ! (cd "$pg" && cargo check -q 2> "$work/pg.err"); then
    refused+=("$name (progenitor's crate does not check: $(grep -m1 '^error' "$work/pg.err"))")
    continue
  fi
  tw_times=() pg_times=()
  for _ in $(seq "$runs"); do
    time_check "$tw" "tw-$id" 1; tw_times+=("${CHECK_TIMES[0]}")
    time_check "$pg" "pg-$id" 1; pg_times+=("${CHECK_TIMES[0]}")
  done
  tw_s=$(median "${tw_times[@]}") pg_s=$(median "${pg_times[@]}")
  printf '%-40s %9s %9s %8.2f %8.2f %6.2f\n' "$name" \
    "$(cat "$tw"/generated/*.rs | wc -l)" "$(cat "$pg"/src/*.rs | wc -l)" \
    "$tw_s" "$pg_s" "$(echo "$tw_s / $pg_s" | bc -l)"
done
echo "ratio: toolwright's median check time over progenitor's (below 1: toolwright is faster)"
if [ ${#refused[@]} -gt 0 ]; then
  echo "progenitor refused (or its crate did not check):"
  printf '  %s\n' "${refused[@]}"
fi
