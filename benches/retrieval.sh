#!/usr/bin/env bash
# Retrieval quality and speed (release build): R@1, R@5, R@10, R@20 and MRR@10 per catalog,
# for plain BM25, each technique added in turn, the default, and the default without
# each technique; then search latency over the largest catalog (p50/p99, target p50
# <= 25 µs), lookup by name (target <= 50 ns) and the index size.
#
# Query sets (each file's header says how it was made):
#   queries.tsv         171 intent-level queries, GitHub, Stripe, five dev specs (default)
#   intent.tsv          126 requests as people type them to an agent (tuning half)
#   intent-heldout.tsv   82 more of the same, held out: score it only to report
#   intent-heldout-2.tsv 79 more, written after the first held-out set was scored
#   intent-heldout-3.tsv 86 more, written 2026-12-04 before that session saw any output
#   intent-heldout-4.tsv 131 more (67 GitHub, 64 Stripe), written 2026-12-04, scored
#                        once at the start of the next round, then tuned on
#   intent-heldout-5.tsv  84 more (42 + 42), written before that round's technique,
#                        scored once at its end
#   intent-heldout-6.tsv 100 more (50 + 50), written after that and scored once at the
#                        end of the next round (acronyms, tuned on sets 3-5)
#   intent-heldout-7.tsv 105 more (54 + 51), written 2026-12-05 before that round
#                        (name coverage, agreement, spelling; tuned on all the sets
#                        above) and scored once at its end
#   intent-heldout-8.tsv 104 more (52 + 52), written 2026-12-05 after set 7 was scored,
#                        and scored once at the end of the next round (phrasal verbs,
#                        handle roles, parameter values; tuned on sets 1-7)
#   intent-heldout-9.tsv  94 more (48 + 46), written 2026-12-05 after set 8 was scored,
#                        and scored once at the end of the next round (grammar readings:
#                        causative "make", "stop X-ing", "without X-ing", agent nouns,
#                        names and ranges; tuned on sets 1-8)
#   intent-heldout-10.tsv 96 more (48 + 48), written 2026-12-05 after set 9 was scored,
#                        scored once with the default as it stood (nothing tuned
#                        in between): the long tail of both catalogs
#   intent-heldout-11.tsv 96 more (48 + 48), written 2026-12-05 after set 10 was
#                        scored, and scored once at the end of the next round
#                        (parameter values into the default, "don't ..." as cancel;
#                        tuned on sets 1-10)
#   intent-heldout-12.tsv 96 more (48 + 48), written 2026-12-05 before the next round,
#                        operations drawn at random (34 per catalog no earlier set
#                        labels); scored once at its end (result descriptions; tuned
#                        on sets 1-11)
#   intent-heldout-13.tsv 96 more (48 + 48), written 2026-12-05 before the next round,
#                        made as set 12 (seed 20261206); scored once at its end
#                        (deprecated tools ranked below live ones; tuned on sets 1-12)
#   intent-heldout-14.tsv 96 more (48 + 48), written 2026-12-06 before the next round,
#                        made as set 12 (seed 20261207); scored once at its end
#                        (times as values; tuned on sets 1-13)
#   intent-heldout-15.tsv 96 more (48 + 48), written 2026-12-06 after set 14 was
#                        scored, made as set 12 (seed 20261208); scored once at the
#                        end of the round that tuned on sets 1-14 (lexicon entries)
#   intent-heldout-16.tsv 96 more (48 + 48), written 2026-12-06 after set 15 was
#                        scored, made as set 12 (seed 20261209); scored once at the
#                        end of the round that tuned on sets 1-15 (derived words,
#                        taking a verb back)
#   intent-heldout-17.tsv 128 more (64 + 64), written 2026-12-06 after set 16 was
#                        scored, made as set 12 (seed 20261210; 45 + 19 per
#                        catalog); scored once at the end of the round that tuned on
#                        sets 1-16 (id prefixes the request names, "pull up")
#   intent-heldout-18.tsv 128 more (64 + 64), written 2026-12-06 for issue #63 before
#                        any of its changes, by a session that had seen neither the
#                        engine nor the catalog text nor earlier sets (seed 20261218);
#                        to be scored once, at the end of that work
#   intent-german.tsv     30 requests in German (15 + 15), made the same way (seed
#                        20261219): what the language seam of #63 is measured on
# Usage: benches/retrieval.sh [SET] [--misses]   (SET: the file's name without .tsv)
set -euo pipefail
cd "$(dirname "$0")/.."
set_name=queries
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then
  set_name=$1
  shift
fi
cargo run -q --release -p toolwright-cli --example retrieval_eval -- \
  "$(pwd)" "benches/retrieval/$set_name.tsv" benches/retrieval/catalogs.tsv "$@"
