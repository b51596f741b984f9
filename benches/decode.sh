#!/usr/bin/env bash
# What the written-out serde impls of generated types (over `toolwright::__private::codec`)
# cost at run time against serde's derive: decoding a 500-issue list (three levels:
# issue → labels → owner, extra fields ignored) from a `serde_json::Value`, as the
# executor does (`validate::deserialize_owned`). Release build; 3 rounds of 50 decodes.
# Usage: benches/decode.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source benches/lib.sh
user_crate "$work" decode-bench "$root/runtime" 'serde = { version = "1", features = ["derive"] }
serde_json = "1"'
cp benches/decode/main.rs "$work/src/main.rs"
(cd "$work" && CARGO_TARGET_DIR="$root/target/decode-bench" cargo run -q --release)
