#!/usr/bin/env bash
# Every query set's rankings (each row's top 20 per query, `retrieval_eval --dump`) into
# OUT/SET.rank, for a byte-for-byte comparison of two builds (`diff -r BEFORE AFTER`).
# The scores go to OUT/SET.txt, except intent-heldout-18's (held out: only diffed).
# Usage: benches/retrieval_rankings.sh BINARY OUT   (ONLY=... as retrieval_eval takes it)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$1
out=$2
mkdir -p "$out"
for set in benches/retrieval/*.tsv; do
  name=$(basename "$set" .tsv)
  [ "$name" = catalogs ] && continue
  scores="$out/$name.txt"
  [ "$name" = intent-heldout-18 ] && scores=/dev/null
  ONLY=${ONLY:-} "$binary" "$(pwd)" "$set" benches/retrieval/catalogs.tsv \
    --dump "$out/$name.rank" ${EVAL_ARGS:-} > "$scores"
done
