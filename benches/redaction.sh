#!/usr/bin/env bash
# False positives of the credential scrubber (toolwright_query::redact) on the 40 dev
# specs: writes each one's artifact (release build) and prints every string in which
# something was redacted, with the key path it sits under, so a person can tell a
# credential from an ordinary string. The last line counts them.
# Measured 2026-12-02: 16 strings in 3 specs, all credentials (password and API-key
# examples, JWTs in a refresh-token example); no ordinary string.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build -q --release -p toolwright-cli
for spec in tests/data/corpus/dev/*.json tests/data/corpus/dev/*.yaml; do
  [ -e "$spec" ] || continue
  target/release/toolwright artifact --out "$work/$(basename "$spec").json" "$spec" >/dev/null 2>&1 || true
done
python3 - "$work" <<'PY'
import glob, json, sys
hits = []
def walk(value, path, spec):
    if isinstance(value, str):
        if "<redacted>" in value:
            hits.append((spec, path, value[:120].replace("\n", " ")))
    elif isinstance(value, list):
        for item in value:
            walk(item, path, spec)
    elif isinstance(value, dict):
        for key, item in value.items():
            walk(item, f"{path}/{key}", spec)
for file in sorted(glob.glob(sys.argv[1] + "/*.json")):
    walk(json.load(open(file)), "", file.rsplit("/", 1)[-1][:-5])
for hit in hits:
    print("\t".join(hit))
print(f"{len(hits)} redacted strings in {len({h[0] for h in hits})} specs")
PY
