#!/usr/bin/env bash
# Provider exports of the big catalogs (release build): for each of GitHub, Stripe and
# Kubernetes and each profile, the size of what a request carries (the compact JSON of
# `tools`), the number of tools exported non-strict (with why, on stderr of the CLI),
# and the median wall time of 3 runs of `toolwright catalog --format` (reading and
# interpreting the spec included; `--format catalog` is that baseline).
# Usage: benches/exports.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gunzip -c tests/data/corpus/big/github.com_api.github.com.json.gz > "$work/github.json"
gunzip -c tests/data/corpus/big/stripe.com_api.json.gz > "$work/stripe.json"
gunzip -c tests/data/corpus/big/kubernetes.io_api.json.gz > "$work/kubernetes.json"
cargo build -q --release -p toolwright-cli
bin=target/release/toolwright
printf '%-11s %-10s %12s %9s %8s\n' spec format bytes warnings median_s
for spec in github stripe kubernetes; do
  for format in catalog mcp openai anthropic gemini; do
    times=()
    for _ in 1 2 3; do
      start=$(date +%s.%N)
      "$bin" catalog --format "$format" "$work/$spec.json" > "$work/out.json" 2> "$work/err.txt"
      end=$(date +%s.%N)
      times+=("$(echo "$end - $start" | bc)")
    done
    median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 2p)
    bytes=$(python3 -c "import json,sys; print(len(json.dumps(json.load(open(sys.argv[1]))['tools'], separators=(',',':'))))" "$work/out.json")
    warnings=$(grep -c '^warning: ' "$work/err.txt" || true)
    printf '%-11s %-10s %12s %9s %8.2f\n' "$spec" "$format" "$bytes" "$warnings" "$median"
  done
done
