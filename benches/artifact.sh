#!/usr/bin/env bash
# The collection artifact of the big specs (release build): wall time, peak memory,
# size written and graph edges of `toolwright artifact`, median of 5 runs each
# (targets: Stripe <= 1 s and <= 300 MB, GitHub <= 2 s, Kubernetes <= 2 s; Graph beta,
# 1 run, within the artifact budget). With a second binary, both are measured side by
# side, run after run (before/after).
# Usage: benches/artifact.sh [TOOLWRIGHT_BINARY [OTHER_BINARY]]
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gunzip -c tests/data/corpus/big/github.com_api.github.com.json.gz > "$work/github.json"
gunzip -c tests/data/corpus/big/stripe.com_api.json.gz > "$work/stripe.com_api.json"
gunzip -c tests/data/corpus/big/kubernetes.io_api.json.gz > "$work/kubernetes.io_api.json"
gunzip -c tests/data/corpus/big/microsoft.com_graph-beta.json.gz > "$work/graph-beta.json"
if [ $# -eq 0 ]; then
  cargo build -q --release -p toolwright-cli
  set -- target/release/toolwright
fi
measure() { # binary spec runs
  local binary=$1 spec=$2 runs=$3 out="$work/out-$RANDOM.json" times=()
  for _ in $(seq "$runs"); do
    times+=("$( { /usr/bin/time -f '%e %M' "$binary" artifact "$spec" --out "$out" 2>&1 >/dev/null; } | tail -1)")
  done
  local edges
  edges=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['graph']['edges']))" "$out")
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p" |
    awk -v s="$(basename "$spec")" -v b="$(stat -c %s "$out")" -v e="$edges" -v bin="$binary" -v n="$runs" \
      '{printf "%-26s %6.2f s  %5d MB peak  %7.1f MB written  %7d edges  (median of %d, %s)\n", s, $1, $2/1024, b/1048576, e, n, bin}'
  rm -f "$out"
}
for spec in "$work/stripe.com_api.json" "$work/github.json" "$work/kubernetes.io_api.json" "$work/graph-beta.json"; do
  runs=5
  [ "$(basename "$spec")" = graph-beta.json ] && runs=1
  for binary in "$@"; do
    measure "$binary" "$spec" "$runs"
  done
done
