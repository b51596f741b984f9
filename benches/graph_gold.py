#!/usr/bin/env python3
"""Scores the tool graph against the hand-labelled gold sets (issue #34) the way an
outside reader would: `toolwright artifact SPEC --out FILE`, then `graph.edges[]`
(`source`, `target`, `data_flow.field`) against `codegen/tests/contracts/gold/*.tsv`.
Precision over labelled pairs (an edge is right when the pair is labelled sure or
plausible), recall over sure pairs (1.0 on a set with none). Usage: benches/graph_gold.py [TOOLWRIGHT_BINARY]
[--misses]"""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPECS = {
    "elevenlabs": "elevenlabs.io_api.json",
    "nebl": "nebl.io_api.json",
    "twilio": "twilio.com_twilio_ip_messaging_v1.json",
    # Round 3 (#61): drawn at random (gold/draw.py, seed 20261206), labelled before
    # the graph was run on them (gold/README-r3.md).
    "sportsdata": "sportsdata.io_csgo-v3-stats.json",
    "watchful": "watchful.li_api.json",
    "circl": "circl.lu_hashlookup.json",
}


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    binary = args[0] if args else str(ROOT / "target/debug/toolwright")
    misses = "--misses" in sys.argv
    for name, spec in SPECS.items():
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "artifact.json"
            subprocess.run(
                [binary, "artifact", str(ROOT / "tests/data/corpus/dev" / spec), "--out", str(out)],
                check=True, capture_output=True,
            )
            artifact = json.loads(out.read_text())
        tool = artifact["contract_index"]["by_method_path"]
        gold = {}
        for line in (ROOT / "codegen/tests/contracts/gold" / f"{name}.tsv").read_text().splitlines():
            status, source, target, field = line.split("\t")
            gold[(tool[source], tool[target], field)] = status
        found = set()
        for edge in artifact["graph"]["edges"]:
            if edge.get("deleted_by_user"):
                continue
            field = (edge.get("data_flow") or {}).get("field")
            found.add((edge["source"], edge["target"], field))
        right = [e for e in found if e in gold]
        sure = {k for k, v in gold.items() if v == "sure"}
        hit = sure & found
        precision = len(right) / len(found) if found else 1.0
        # A set with no sure pair (circl: no response declares a field) misses nothing.
        recall = len(hit) / len(sure) if sure else 1.0
        print(f"{name:11} edges {len(found):4}  precision {precision:.2f} ({len(right)}/{len(found)})  recall {recall:.2f} ({len(hit)}/{len(sure)} sure)")
        if misses:
            for e in sorted(found - set(gold)):
                print("   wrong:", *e)
            for e in sorted(sure - found)[:40]:
                print("   missed:", *e)


if __name__ == "__main__":
    main()
