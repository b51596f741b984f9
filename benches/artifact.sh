#!/usr/bin/env bash
# The collection artifact of the big specs (release build): wall time and peak memory
# of `toolwright artifact`, median of 5 runs each (targets: Stripe <= 1 s and <= 300 MB,
# GitHub <= 2 s, Kubernetes <= 2 s). Usage: benches/artifact.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gunzip -c tests/data/corpus/big/github.com_api.github.com.json.gz > "$work/github.json"
gunzip -c tests/data/corpus/big/stripe.com_api.json.gz > "$work/stripe.com_api.json"
gunzip -c tests/data/corpus/big/kubernetes.io_api.json.gz > "$work/kubernetes.io_api.json"
cargo build -q --release -p toolwright-cli
for spec in "$work/stripe.com_api.json" "$work/github.json" "$work/kubernetes.io_api.json"; do
  runs=()
  for _ in 1 2 3 4 5; do
    runs+=("$( { /usr/bin/time -f '%e %M' target/release/toolwright artifact "$spec" --out "$work/out.json" 2>&1 >/dev/null; } | tail -1)")
  done
  printf '%s\n' "${runs[@]}" | sort -n | sed -n 3p | awk -v s="$(basename "$spec")" -v b="$(stat -c %s "$work/out.json")" \
    '{printf "%-28s %.2f s  %d MB peak  %.1f MB written (median of 5)\n", s, $1, $2/1024, b/1048576}'
done
