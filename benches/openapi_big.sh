#!/usr/bin/env bash
# Generation time for the three big specs (release build of the generator), and the
# `cargo check` time of the generated GitHub client as a user's crate.
# Targets (2 cores): GitHub generation <= 1 s; cargo check of its crate <= 30 s.
# Usage: benches/openapi_big.sh [runs]   (default 3 runs, the best is reported)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
root=$(pwd)
big=../shared/corpus/big
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build -q --release -p toolwright-cli
bin=target/release/toolwright
gunzip -c "$big/github.com_api.github.com.json.gz" > "$work/github.json"
cp "$big/stripe.com_api.json" "$work/stripe.json"
cp "$big/kubernetes.io_api.json" "$work/kubernetes.json"

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
mkdir -p "$work/crate/src"
cat > "$work/crate/Cargo.toml" <<TOML
[package]
name = "github-client"
version = "0.1.0"
edition = "2024"
[dependencies]
toolwright = { path = "$root/runtime", default-features = false }
[workspace]
TOML
echo "include!(\"$work/out-github/toolwright.rs\");" > "$work/crate/src/lib.rs"
export CARGO_TARGET_DIR="$work/target"
(cd "$work/crate" && cargo check -q 2>/dev/null) || true
best=""
for _ in $(seq "$runs"); do
  touch "$work/crate/src/lib.rs"
  start=$(date +%s.%N)
  (cd "$work/crate" && cargo check -q)
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  if [ -z "$best" ] || awk "BEGIN{exit !($secs < $best)}"; then best=$secs; fi
done
printf 'cargo check of the generated GitHub crate: best %.1f s of %s runs\n' "$best" "$runs"
