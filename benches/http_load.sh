#!/usr/bin/env bash
# `serve --http` under load, from outside (release build; the server in its own
# process, 1,000 callers with their own bearer tokens, a loopback API): 1,000 sessions
# at once, the executor alone for comparison, 20,000 abandoned sessions (server RSS,
# live sessions at the end), a 50 MB body and 100,000-deep JSON, and one caller
# flooding while nine others call. Usage: benches/http_load.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# 1,000 sessions at once need more than the usual 1,024 descriptors on both sides.
ulimit -n 16384 2>/dev/null || ulimit -n "$(ulimit -Hn)"
cargo build -q --release -p toolwright-cli --bin toolwright
cargo run -q --release -p toolwright-cli --example http_load -- target/release/toolwright
