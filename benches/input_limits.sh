#!/usr/bin/env bash
# Hostile-input timings of issue #58 (round 3), before and after:
#
# 1. F06, reading a search request: `Index::read_unbounded` over requests of 1,250 to
#    MAX_WORDS distinct words (query/examples/request_scaling.rs, release build of the
#    query crate only), median of RUNS (3) per size and the ratio to the size before:
#    about 2 when the reading is linear in the request, 4 when quadratic. `search`
#    itself reads at most 4 KiB of a request; this measures the reading past that.
# 2. F10, YAML span mapping: `toolwright check` of SendGrid's OpenAPI document
#    (tests/data/corpus/dev, 832 KB) written on one line as `.yaml`, with ASCII text
#    and with one non-ASCII character (which made the whole line take the slow path),
#    and the same document pretty-printed; median of RUNS per binary, binaries
#    interleaved run by run.
#
# Usage: benches/input_limits.sh [AFTER_BIN [BEFORE_BIN]]
#   AFTER_BIN defaults to target/release/toolwright (built if missing); BEFORE_BIN is
#   optional (a build of an older checkout). MAX_WORDS (default 40000) and RUNS set sizes.
# Results and how they were measured: benches/input_limits.md.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
target=${CARGO_TARGET_DIR:-target}

echo "== F06: reading a request of N distinct words (release, query crate)"
cargo build -q --release -p toolwright-query --example request_scaling
RUNS=$runs "$target/release/examples/request_scaling" "${MAX_WORDS:-40000}"

after=${1:-$target/release/toolwright}
before=${2:-}
if [ ! -x "$after" ]; then
  cargo build -q --release -p toolwright-cli --bin toolwright
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" tests/data/corpus/dev/sendgrid.com_api.json <<'PY'
import json, sys
d, spec = sys.argv[1], sys.argv[2]
doc = json.load(open(spec))
open(f"{d}/oneline-ascii.yaml", "w").write(json.dumps(doc, ensure_ascii=True))
# One non-ASCII character, written as itself (the rest stays escaped: the document
# holds C1 controls, which YAML refuses written raw).
doc["info"]["description"] = "Café: " + doc["info"].get("description", "")
raw = lambda text: text.replace("Caf\\u00e9", "Café")
open(f"{d}/oneline-nonascii.yaml", "w", encoding="utf-8").write(raw(json.dumps(doc)))
open(f"{d}/pretty-nonascii.yaml", "w", encoding="utf-8").write(raw(json.dumps(doc, indent=1)))
PY

median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
# seconds BIN FILE: wall seconds of one `check` (its findings do not matter here).
seconds() {
  local start end
  start=$(date +%s.%N)
  timeout 600 "$1" check "$2" >/dev/null 2>&1 || true
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
echo "== F10: toolwright check, median of $runs (s)"
printf '%-24s %10s %10s\n' input after before
for f in oneline-ascii oneline-nonascii pretty-nonascii; do
  a=(); b=()
  for _ in $(seq "$runs"); do
    a+=("$(seconds "$after" "$dir/$f.yaml")")
    if [ -n "$before" ]; then b+=("$(seconds "$before" "$dir/$f.yaml")"); fi
  done
  printf '%-24s %10s %10s\n' "$f" "$(median "${a[@]}")" "$( [ -n "$before" ] && median "${b[@]}" || echo -)"
done
