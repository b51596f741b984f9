#!/usr/bin/env bash
# The inspection report of the big specs (release build): `toolwright report` wall time,
# peak memory and file size, then the GitHub report in headless Chromium — open (to a
# drawn table) and filter, median of RUNS page loads (target: open + filter < 1 s).
# Usage: benches/report.sh [RUNS]   (needs /usr/bin/chromium and `npm ci` in tests/browser)
set -euo pipefail
cd "$(dirname "$0")/.."
source benches/lib.sh
runs=${1:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gunzip -c tests/data/corpus/big/github.com_api.github.com.json.gz > "$work/github.json"
gunzip -c tests/data/corpus/big/stripe.com_api.json.gz > "$work/stripe.com_api.json"
gunzip -c tests/data/corpus/big/kubernetes.io_api.json.gz > "$work/kubernetes.io_api.json"
cargo build -q --release -p toolwright-cli
for spec in "$work/github.json" "$work/stripe.com_api.json" "$work/kubernetes.io_api.json"; do
  name=$(basename "$spec" .json)
  times=(); peak=0
  for _ in $(seq "$runs"); do
    read -r secs kb < <( { /usr/bin/time -f '%e %M' target/release/toolwright report "$spec" --out "$work/$name.html" 2>&1 >/dev/null; } | tail -1)
    times+=("$secs"); (( kb > peak )) && peak=$kb
  done
  printf '%-28s report %.2f s  %d MB peak  %.1f MB file (median of %d)\n' "$name" "$(median "${times[@]}")" $(( peak / 1024 )) \
    "$(echo "$(stat -c %s "$work/$name.html") / 1048576" | bc -l)" "$runs"
done
# Microsoft Graph beta (22,361 tools, a 47 MB document, a 172 MB page): once, with and
# without exports, only when GRAPH_BETA=1 (minutes per run). Notes and numbers:
# benches/report_memory.md.
if [ "${GRAPH_BETA:-0}" = 1 ]; then
  gunzip -c tests/data/corpus/big/microsoft.com_graph-beta.json.gz > "$work/graph-beta.json"
  for flags in "" --no-exports; do
    read -r secs kb < <( { /usr/bin/time -f '%e %M' target/release/toolwright report $flags \
      "$work/graph-beta.json" --out "$work/graph-beta.html" 2>&1 >/dev/null; } | tail -1)
    printf '%-28s report %.2f s  %d MB peak  %.1f MB file %s\n' graph-beta "$secs" $(( kb / 1024 )) \
      "$(echo "$(stat -c %s "$work/graph-beta.html") / 1048576" | bc -l)" "$flags"
  done
fi
(cd tests/browser && [ -d node_modules/playwright-core ] || npm ci --no-audit --no-fund >/dev/null)
open=(); filter=(); both=()
for run in $(seq "$runs"); do
  out=$(cd tests/browser && node report.mjs "{\"file\": \"$work/github.html\", \"shots\": \"$work/shots\", \"name\": \"bench$run\", \"tools\": 1223, \"filter\": \"pulls merge\", \"expect\": \"pulls_merge\", \"tool\": \"pulls_merge\", \"exports\": true, \"edges\": true, \"findings\": true, \"produces\": true}")
  open+=("$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["open_ms"])')")
  filter+=("$(echo "$out" | python3 -c 'import json,sys; print(round(json.load(sys.stdin)["filter_ms"]))')")
  both+=("$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["open_and_filter_ms"])')")
done
echo "GitHub report in Chromium (median of $runs): open $(median "${open[@]}") ms, filter $(median "${filter[@]}") ms, open + filter $(median "${both[@]}") ms (runs: ${both[*]})"
