#!/usr/bin/env bash
# What a user pays to compile generated code: for a fixed list of real specs (GitHub,
# Stripe and Kubernetes from tests/data/corpus/big, the five largest of
# tests/data/corpus/dev), generates each crate and times a non-incremental
# `cargo check` (CARGO_INCREMENTAL=0, dependencies built first, the crate itself
# cleaned before each run; median of N), with its peak memory, and prints the lines of
# generated Rust and the seconds per spec.
#
# A re-check after `touch` with a warm incremental cache reuses nearly all work and is
# not what a user pays when a spec changes, on a clean build or in CI: it is not timed.
#
# Usage: benches/check_time.sh [runs] [checkout]
#   runs      default 3 (the median is reported)
#   checkout  the toolwright checkout whose generator and runtime are measured
#             (default: this one); give an older one (`git worktree add /tmp/base
#             <commit>`) to compare before and after on the same machine state.
# SPECS="github stripe" limits the list; TOOLWRIGHT_BIN=path uses that generator binary
# (built from the checkout) instead of building it; GENERATE_FLAGS="--embed-tools
# --no-derive-partial-eq" passes switches to `toolwright generate` (the switch table of
# docs/generated-code.md).
set -euo pipefail
cd "$(dirname "$0")/.."
source benches/lib.sh
corpus=$(cd tests/data/corpus && pwd)
runs=${1:-3}
root=$(cd "${2:-.}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

generator "$root"
bin=$BIN

declare -A source=(
  [github]="$corpus/big/github.com_api.github.com.json.gz"
  [stripe]="$corpus/big/stripe.com_api.json.gz"
  [kubernetes]="$corpus/big/kubernetes.io_api.json.gz"
  [sendgrid]="$corpus/dev/sendgrid.com_api.json"
  [osisoft]="$corpus/dev/osisoft.com_api.json"
  [appstore]="$corpus/dev/apple.com_app-store-connect.json"
  [streamio]="$corpus/dev/stream-io-api.com_api.json"
  [britbox]="$corpus/dev/britbox.co.uk_api.json"
  # Small and medium, for what a typical API costs.
  [deutschebahn]="$corpus/dev/deutschebahn.com_betriebsstellen.json"
  [spotify]="$corpus/dev/spotify.com_api.json"
)
specs=${SPECS:-github stripe kubernetes sendgrid osisoft appstore streamio britbox}

export CARGO_TARGET_DIR="$work/target" CARGO_INCREMENTAL=0
printf '# %s (%s)%s\n' "$root" "$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')" \
  "${GENERATE_FLAGS:+ generate $GENERATE_FLAGS}"
printf '%-11s %9s %9s %10s %s\n' spec lines check_s peak_mb runs_s
for spec in $specs; do
  file=${source[$spec]}
  case $file in
    *.gz) gunzip -c "$file" > "$work/$spec.json" ;;
    *) cp "$file" "$work/$spec.json" ;;
  esac
  # shellcheck disable=SC2086 # the flags are words
  "$bin" generate "$work/$spec.json" ${GENERATE_FLAGS:-} --out "$work/out-$spec" >/dev/null 2>&1
  lines=$(cat "$work/out-$spec"/*.rs | wc -l)
  crate="$work/crate-$spec"
  user_crate "$crate" "check-$spec" "$root/runtime"
  echo "include!(\"$work/out-$spec/toolwright.rs\");" > "$crate/src/lib.rs"
  # Dependencies first (not timed). Generated code must check without warnings:
  # they are counted (and the first shown) rather than stopping the run, so that an
  # older checkout can be measured too.
  (cd "$crate" && cargo check -q 2> "$work/warnings") || { cat "$work/warnings"; exit 1; }
  warnings=$(grep -c '^warning' "$work/warnings" || true)
  if [ "$warnings" -gt 0 ]; then
    echo "$spec: $warnings warning(s) in the generated crate, the first:"
    grep -A4 '^warning' "$work/warnings" | head -5
  fi
  time_check "$crate" "check-$spec" "$runs"
  printf '%-11s %9s %9.1f %10s %s\n' "$spec" "$lines" "$(median "${CHECK_TIMES[@]}")" \
    "$CHECK_PEAK_MB" "$(printf '%.1f ' "${CHECK_TIMES[@]}")"
done
echo "check_s: median non-incremental cargo check (CARGO_INCREMENTAL=0, deps built, crate cleaned); peak_mb: largest max RSS of cargo and rustc over the runs"
