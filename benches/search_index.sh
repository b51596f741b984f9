#!/usr/bin/env bash
# What the embedded search index costs a user's crate: GitHub's generated client
# (1,223 tools), `cargo check` non-incremental (CARGO_INCREMENTAL=0, dependencies built
# first, the crate itself cleaned before each run) with the index and with the
# `.with_search_index(include_bytes!(..))` line taken out; median of N runs each
# (target: <= 5 s more). Also the index's size: `include_bytes!` embeds it as is, so
# it is what the binary grows by (target <= 2 MB).
# Usage: benches/search_index.sh [runs]   (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
source benches/lib.sh
runs=${1:-3}
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build -q --release -p toolwright-cli
gunzip -c tests/data/corpus/big/github.com_api.github.com.json.gz > "$work/github.json"
target/release/toolwright generate "$work/github.json" --out "$work/with" 2>/dev/null
cp -r "$work/with" "$work/without"
sed -i 's/\.with_search_index(include_bytes!("toolwright_search.idx"))//' "$work/without/toolwright.rs"
grep -q with_search_index "$work/without/toolwright.rs" && { echo "could not take the index out"; exit 1; }
printf 'index: %d bytes\n' "$(stat -c %s "$work/with/toolwright_search.idx")"
export CARGO_TARGET_DIR="$work/target" CARGO_INCREMENTAL=0
for variant in with without; do
  user_crate "$work/crate-$variant" "github-client-$variant" "$root/runtime"
  echo "include!(\"$work/$variant/toolwright.rs\");" > "$work/crate-$variant/src/lib.rs"
  # Dependencies first (not timed).
  (cd "$work/crate-$variant" && cargo check -q 2>/dev/null) || true
done
for variant in with without; do
  time_check "$work/crate-$variant" "github-client-$variant" "$runs"
  times=("${CHECK_TIMES[@]}")
  median=$(median "${times[@]}")
  printf 'cargo check, %-7s index: median %.1f s of %s (%s)\n' "$variant" "$median" "$runs" "${times[*]}"
done
