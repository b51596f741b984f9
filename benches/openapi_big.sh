#!/usr/bin/env bash
# Generation time for the three big specs (release build of the generator), and the
# `cargo check` time of the generated GitHub client as a user's crate: non-incremental
# (CARGO_INCREMENTAL=0, dependencies built first, the crate cleaned before each run) —
# what a user pays when the spec changes, on a clean build or in CI; a re-check after
# `touch` with a warm incremental cache reuses nearly all work and is not measured.
# Usage: benches/openapi_big.sh [runs]   (default 3 runs; generation: the best,
# cargo check: the median)
set -euo pipefail
cd "$(dirname "$0")/.."
source benches/lib.sh
runs=${1:-3}
root=$(pwd)
big=tests/data/corpus/big
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build -q --release -p toolwright-cli
bin=target/release/toolwright
gunzip -c "$big/github.com_api.github.com.json.gz" > "$work/github.json"
gunzip -c "$big/stripe.com_api.json.gz" > "$work/stripe.json"
gunzip -c "$big/kubernetes.io_api.json.gz" > "$work/kubernetes.json"

printf '%-11s %6s %10s %12s %10s\n' spec ops best_s max_rss_mb output_mb
for spec in github stripe kubernetes; do
  best=""
  for _ in $(seq "$runs"); do
    rm -rf "$work/out-$spec"
    /usr/bin/time -f '%e %M' -o "$work/time" "$bin" generate "$work/$spec.json" --out "$work/out-$spec" 2>/dev/null
    read -r secs rss < "$work/time"
    if [ -z "$best" ] || awk "BEGIN{exit !($secs < $best)}"; then best=$secs; best_rss=$rss; fi
  done
  ops=$("$bin" check "$work/$spec.json" 2>&1 | grep -o '[0-9]* operation' | grep -o '[0-9]*')
  size=$(du -sm "$work/out-$spec" | cut -f1)
  printf '%-11s %6s %10s %12s %10s\n' "$spec" "$ops" "$best" "$((best_rss / 1024))" "$size"
done

# cargo check of the generated GitHub client, dependencies built first.
user_crate "$work/crate" github-client "$root/runtime"
echo "include!(\"$work/out-github/toolwright.rs\");" > "$work/crate/src/lib.rs"
export CARGO_TARGET_DIR="$work/target" CARGO_INCREMENTAL=0
(cd "$work/crate" && cargo check -q 2>/dev/null) || true
time_check "$work/crate" github-client "$runs"
median=$(median "${CHECK_TIMES[@]}")
times=("${CHECK_TIMES[@]}")
printf 'cargo check of the generated GitHub crate, non-incremental (CARGO_INCREMENTAL=0, deps built, crate cleaned): median %.1f s of %s (%s)\n' "$median" "$runs" "${times[*]}"
