#!/usr/bin/env bash
# Search latency of two retrieval_eval builds, interleaved (A, B, A, B, ...) so that
# the machine's load falls on both alike: each run's p50 and p99 over the largest
# catalog of SET (queries unless told), then the median p50 of each build.
# Usage: benches/retrieval_latency_ab.sh BINARY_A BINARY_B [RUNS] [SET]
set -euo pipefail
cd "$(dirname "$0")/.."
a=$1
b=$2
runs=${3:-5}
set_name=${4:-queries}
out=$(mktemp -d)
for i in $(seq "$runs"); do
  for which in a b; do
    bin=$a
    [ "$which" = b ] && bin=$b
    line=$(ONLY=latency "$bin" "$(pwd)" "benches/retrieval/$set_name.tsv" \
      benches/retrieval/catalogs.tsv | grep '^search latency')
    echo "$which run $i: $line"
    echo "$line" | sed -E 's/.*p50 ([0-9.]+) µs.*/\1/' >> "$out/$which"
  done
done
for which in a b; do
  echo "$which median p50: $(sort -n "$out/$which" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}') µs"
done
rm -rf "$out"
