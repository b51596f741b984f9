#!/usr/bin/env bash
# Corpus check of request fidelity: every operation of the 40 dev-corpus specs, called
# by name with arguments synthesized from its input schema, against Prism mocking that
# spec with request validation. Prints accepted/rejected per spec and every rejection
# with Prism's reasons. Usage: benches/prism_corpus.sh [SPEC...]
set -euo pipefail
cd "$(dirname "$0")/.."
(cd tests/prism && [ -x node_modules/.bin/prism ] || npm ci --no-audit --no-fund)
cargo run -q --release -p toolwright-e2e --example prism_corpus -- "$@"
