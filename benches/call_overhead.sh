#!/usr/bin/env bash
# The executor's overhead per call (release build), on GitHub's catalog: a call by
# name against a loopback API vs the same request written by hand with reqwest
# (target <= 1.05x; against an API that keeps connections open and one that closes
# each, see cli/examples/call_bench.rs), and argument validation + request building
# for issues_create (target <= 5 µs). Run 3 times; the machine is noisy.
# Usage: benches/call_overhead.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gunzip -c tests/data/corpus/big/github.com_api.github.com.json.gz > "$work/github.json"
cargo build -q --release -p toolwright-cli --example call_bench
for run in 1 2 3; do
  echo "run $run:"
  target/release/examples/call_bench "$work/github.json" | sed 's/^/  /'
done
