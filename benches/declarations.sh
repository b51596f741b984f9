#!/usr/bin/env bash
# What a model reads to program against an API (release build): for GitHub, Stripe,
# Kubernetes and Microsoft Graph beta, the size of the whole API as TypeScript
# declarations (`toolwright catalog --format typescript`) beside its MCP tool list
# (the compact JSON of `tools` in `catalog --format mcp`, what `tools/list` carries),
# tokens estimated as bytes/4; and the declarations of a search result (`toolwright
# search QUERY -k 10 --typescript`), median over five requests per API written for
# this bench (below), before any output was seen.
# Usage: benches/declarations.sh [SPEC...]   (default: github stripe kubernetes graph)
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
declare -A file=(
  [github]=github.com_api.github.com.json.gz
  [stripe]=stripe.com_api.json.gz
  [kubernetes]=kubernetes.io_api.json.gz
  [graph]=microsoft.com_graph-beta.json.gz
)
declare -A queries=(
  [github]="open an issue about a crash|who can push to this repo|merge my pull request|list the workflow runs that failed|publish a release for v2.0"
  [stripe]="refund the last charge|stop this subscription from renewing|create a customer with an email|list unpaid invoices|change the price of a product"
  [kubernetes]="list the pods in a namespace|delete a deployment|read a config map|scale a deployment to three replicas|create a service"
  [graph]="send an email|list my calendar events for today|create a channel in a team|who is this user's manager|upload a file to my drive"
)
cargo build -q --release -p toolwright-cli
bin=${CARGO_TARGET_DIR:-target}/release/toolwright
printf '%-11s %6s %12s %10s %12s %10s %7s %14s\n' \
  spec tools mcp_bytes mcp_tokens ts_bytes ts_tokens ratio search_tokens
for spec in "${@:-github stripe kubernetes graph}"; do
  for s in $spec; do
    gunzip -c "tests/data/corpus/big/${file[$s]}" > "$work/$s.json"
    "$bin" catalog --format mcp "$work/$s.json" > "$work/mcp.json" 2> /dev/null
    "$bin" catalog --format typescript "$work/$s.json" > "$work/all.d.ts" 2> /dev/null
    read -r tools mcp < <(python3 -c "import json,sys; t=json.load(open(sys.argv[1]))['tools']; print(len(t), len(json.dumps(t, separators=(',',':'))))" "$work/mcp.json")
    ts=$(wc -c < "$work/all.d.ts")
    sizes=()
    IFS='|' read -ra asks <<< "${queries[$s]}"
    for q in "${asks[@]}"; do
      "$bin" search "$q" -k 10 --typescript "$work/$s.json" > "$work/hit.d.ts" 2> /dev/null
      sizes+=("$(wc -c < "$work/hit.d.ts")")
    done
    search=$(printf '%s\n' "${sizes[@]}" | sort -n | sed -n 3p)
    printf '%-11s %6s %12s %10s %12s %10s %7.2f %14s\n' "$s" "$tools" "$mcp" $((mcp / 4)) \
      "$ts" $((ts / 4)) "$(echo "$ts / $mcp" | bc -l)" $((search / 4))
  done
done
