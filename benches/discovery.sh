#!/usr/bin/env bash
# Google Discovery documents → code (release build): `toolwright generate` wall time and
# peak memory, median of RUNS (target: compute v1 ≤ 0.5 s), and the size of what it
# writes. The documents come from `pip install google-api-python-client`.
# Usage: benches/discovery.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
source benches/lib.sh
runs=${1:-5}
docs=$(python3 -c "import googleapiclient, os; print(os.path.join(os.path.dirname(googleapiclient.__file__), 'discovery_cache', 'documents'))")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build -q --release -p toolwright-cli
for name in compute.v1 youtube.v3 drive.v3; do
  spec="$docs/$name.json"
  times=(); peak=0
  for _ in $(seq "$runs"); do
    rm -rf "$work/out"
    read -r secs kb < <( { /usr/bin/time -f '%e %M' target/release/toolwright generate "$spec" --out "$work/out" 2>&1 >/dev/null; } | tail -1)
    times+=("$secs"); (( kb > peak )) && peak=$kb
  done
  check=(); for _ in $(seq "$runs"); do
    read -r secs _ < <( { /usr/bin/time -f '%e %M' target/release/toolwright check "$spec" 2>&1 >/dev/null; } | tail -1); check+=("$secs")
  done
  printf '%-12s generate %.2f s (read and check alone %.2f s)  %d MB peak  %.1f MB written  (median of %d)\n' "$name" \
    "$(median "${times[@]}")" "$(median "${check[@]}")" $(( peak / 1024 )) "$(du -sm "$work/out" | cut -f1)" "$runs"
done
