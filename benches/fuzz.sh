#!/usr/bin/env bash
# Runs each fuzz target (fuzz/fuzz_targets: adapter, openapi, arguments, graphql, redact,
# selection, generate, search, http, code, streams, companion) for SECONDS (default 600) from the seeds in fuzz/seeds,
# and prints executions and crashes per target. Needs the nightly toolchain and cargo-fuzz
# (`cargo install cargo-fuzz`). Crashes land in fuzz/artifacts/TARGET/.
# Usage: benches/fuzz.sh [SECONDS [TARGET...]]
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds=${1:-600}
shift || true
targets=${*:-adapter openapi arguments graphql selection generate redact search http code streams companion}
cargo +nightly fuzz build -O
# `generate` starts from the readers' seeds: the OpenAPI ones as they are (the same
# first byte picks JSON or YAML), adapters and GraphQL behind the byte that picks them.
generate_seeds() {
  local dir
  dir=$(mktemp -d)
  for f in seeds/adapter/*; do { printf '\002'; cat "$f"; } > "$dir/$(basename "$f")"; done
  for f in seeds/graphql/*; do { printf '\003'; cat "$f"; } > "$dir/$(basename "$f")"; done
  echo "$dir"
}
for target in $targets; do
  mkdir -p "corpus/$target"
  log=$(mktemp)
  status=0
  seeds=("seeds/$target")
  made=""
  if [ "$target" = generate ]; then
    made=$(generate_seeds)
    seeds=(seeds/openapi "$made")
  fi
  cargo +nightly fuzz run -O "$target" "corpus/$target" "${seeds[@]}" -- \
    -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=4096 -detect_leaks=0 -print_final_stats=1 \
    > "$log" 2>&1 || status=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  rate=$(grep -o 'exec/s: [0-9]*' "$log" | tail -1 || true)
  crashes=$(ls "artifacts/$target" 2>/dev/null | wc -l)
  echo "$target: ${execs:-?} executions (${rate:-?}), exit $status, $crashes crash file(s)"
  tail -5 "$log" | sed "s/^/  $target| /"
  rm -f "$log"
  if [ -n "$made" ]; then rm -rf "$made"; fi
done
