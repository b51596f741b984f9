#!/usr/bin/env python3
"""Draw three dev-corpus specs at random for new gold sets (issue #61).

Committed before it is run. Lists tests/data/corpus/dev/*.json sorted by file name,
leaves out the three specs already labelled and any spec with fewer than 5 or more
than 60 operations (an operation = a method key under `paths`), then draws 3 with
random.Random(SEED).sample and prints them.
"""

import json
import random
from pathlib import Path

SEED = 20261206
ROOT = Path(__file__).resolve().parents[4]
CORPUS = ROOT / "tests" / "data" / "corpus" / "dev"
DONE = {"elevenlabs.io_api.json", "nebl.io_api.json", "twilio.com_twilio_ip_messaging_v1.json"}
METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def operations(spec):
    paths = spec.get("paths") or {}
    return sum(
        1
        for item in paths.values()
        if isinstance(item, dict)
        for key in item
        if key.lower() in METHODS
    )


def main():
    pool = []
    for path in sorted(CORPUS.glob("*.json"), key=lambda p: p.name):
        if path.name in DONE:
            continue
        n = operations(json.loads(path.read_text()))
        if 5 <= n <= 60:
            pool.append(path.name)
    drawn = random.Random(SEED).sample(pool, 3)
    print(f"seed {SEED}, pool of {len(pool)} specs")
    for name in drawn:
        print(name)


if __name__ == "__main__":
    main()
