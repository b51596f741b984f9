#!/usr/bin/env bash
# What code mode costs (release build), on GitHub's catalog against a loopback API:
# ten direct calls vs one script making the same ten (one by one, and with
# Promise.all), and the engine's start-up (see cli/examples/code_bench.rs). Run 3
# times; the machine is noisy.
# Usage: benches/code_mode.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gunzip -c tests/data/corpus/big/github.com_api.github.com.json.gz > "$work/github.json"
cargo build -q --release -p toolwright-cli --example code_bench
for run in 1 2 3; do
  echo "run $run:"
  "${CARGO_TARGET_DIR:-target}"/release/examples/code_bench "$work/github.json" | sed 's/^/  /'
done
