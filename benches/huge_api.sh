#!/usr/bin/env bash
# A 22,000-operation API stays buildable: Microsoft Graph beta
# (tests/data/corpus/big/microsoft.com_graph-beta.json.gz) generated catalog-only, and
# with one tag typed (`--typed tag:users.user`, the rest catalog-only):
#   - generation time and peak memory (release generator; median of N);
#   - non-incremental `cargo check` of each generated crate (CARGO_INCREMENTAL=0,
#     dependencies built first, the crate cleaned before each run; median of N) — a
#     re-check after `touch` with a warm incremental cache reuses nearly all work and
#     is not what a user pays, so it is not measured;
#   - what the program pays at run time: the first `catalog()` call, which reads the
#     embedded catalog-only tools (release build; median of N), and its peak memory.
# Usage: benches/huge_api.sh [runs]   (default 3; TOOLWRIGHT_BIN=path uses that generator
# binary instead of building this checkout's)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

source benches/lib.sh

generator "$root"
bin=$BIN
gunzip -c tests/data/corpus/big/microsoft.com_graph-beta.json.gz > "$work/graph.json"
ops=$("$bin" check "$work/graph.json" 2>&1 | grep -o '[0-9]* operation' | grep -o '[0-9]*' || true)
echo "Microsoft Graph beta: ${ops:-?} operations, $(( $(stat -c %s "$work/graph.json") / 1048576 )) MB"

export CARGO_TARGET_DIR="$work/target" CARGO_INCREMENTAL=0
for variant in catalog-only users-typed; do
  case $variant in
    catalog-only) flags=(--catalog-only) ;;
    users-typed) flags=(--typed tag:users.user) ;;
  esac
  times=()
  for _ in $(seq "$runs"); do
    rm -rf "$work/out-$variant"
    /usr/bin/time -f '%e %M' -o "$work/time" "$bin" generate "$work/graph.json" "${flags[@]}" \
      --out "$work/out-$variant" >/dev/null 2>&1
    read -r secs rss < "$work/time"
    times+=("$secs")
  done
  lines=$(cat "$work/out-$variant"/*.rs | wc -l)
  data=$(( $(stat -c %s "$work/out-$variant/toolwright_tools.json") / 1048576 ))
  printf '%-13s generate: median %s s of %s (%s), peak %d MB; %s lines of Rust + %s MB of embedded tools\n' \
    "$variant" "$(median "${times[@]}")" "$runs" "${times[*]}" "$((rss / 1024))" "$lines" "$data"

  crate="$work/crate-$variant"
  user_crate "$crate" "graph-$variant" "$root/runtime"
  cat > "$crate/src/main.rs" <<RUST
include!("$work/out-$variant/toolwright.rs");
fn main() {
    let start = std::time::Instant::now();
    let catalog = catalog();
    let first = start.elapsed();
    let start = std::time::Instant::now();
    let again = catalog.tools().len() + self::catalog().tools().len();
    println!("{} {:.3} {:.6}", catalog.tools().len(), first.as_secs_f64(), start.elapsed().as_secs_f64());
    assert!(catalog.get("users_user_ListUser").is_some() && again > 0);
}
RUST
  (cd "$crate" && cargo check -q) # dependencies first, not timed
  time_check "$crate" "graph-$variant" "$runs"
  printf '%-13s cargo check: median %.1f s of %s (%s), peak %d MB\n' "$variant" \
    "$(median "${CHECK_TIMES[@]}")" "$runs" "$(printf '%.1f ' "${CHECK_TIMES[@]}")" "$CHECK_PEAK_MB"

  (cd "$crate" && cargo build -q --release)
  loads=()
  for _ in $(seq "$runs"); do
    /usr/bin/time -f '%M' -o "$work/rss" "$work/target/release/graph-$variant" > "$work/load"
    read -r tools first again < "$work/load"
    loads+=("$first")
  done
  printf '%-13s first catalog() call: median %s s of %s (%s) for %s tools, peak %d MB; later calls %s s\n' \
    "$variant" "$(median "${loads[@]}")" "$runs" "${loads[*]}" "$tools" "$(( $(cat "$work/rss") / 1024 ))" "$again"
done
