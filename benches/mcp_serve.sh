#!/usr/bin/env bash
# MCP serving costs on GitHub's catalog (1,223 tools, interpreted), release build:
# `tools/list` time per page of 100 (target <= 5 ms after start-up), and what a
# `tools/call` over MCP stdio adds to the executor's own call to a loopback API
# (target <= 100 µs). Usage: benches/mcp_serve.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gunzip -c tests/data/corpus/big/github.com_api.github.com.json.gz > "$work/github.json"
cargo run -q --release -p toolwright-cli --example mcp_bench -- "$work/github.json"
