#!/usr/bin/env bash
# Retrieval quality and speed (release build): R@1, R@5 and MRR@10 per catalog on the
# labelled intent queries of benches/retrieval/queries.tsv (171 queries over GitHub,
# Stripe and five dev-corpus specs), for plain BM25, each technique added in turn, the
# default, and the default without each technique; then search latency over GitHub
# (p50/p99, target p50 <= 25 µs), lookup by name (target <= 50 ns) and the index size.
# Pass --misses to list the default's misses. Usage: benches/retrieval.sh [--misses]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run -q --release -p toolwright-cli --example retrieval_eval -- \
  "$(pwd)" benches/retrieval/queries.tsv benches/retrieval/catalogs.tsv "$@"
