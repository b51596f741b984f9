#!/usr/bin/env bash
# A 1 GiB download streamed through the generated typed client into a sink, from a
# loopback server that generates it as it goes: peak RSS of the whole process (client
# and server; target: under 64 MiB) and throughput, RUNS runs (default 3; release build).
# Usage: benches/streams.sh [SIZE_MB] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-1024}
runs=${2:-3}
cargo build -q --release -p toolwright-e2e --example stream_download
for _ in $(seq "$runs"); do
  "${CARGO_TARGET_DIR:-target}/release/examples/stream_download" "$size"
done
