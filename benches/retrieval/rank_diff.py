#!/usr/bin/env python3
"""Compares two `retrieval_eval --dump` folders (benches/retrieval_rankings.sh): per
set, how many queries' top 20 differ, and for each that does, where its expected tool
ranked before and after and the first five names of each. Usage:
benches/retrieval/rank_diff.py BEFORE AFTER [LABEL] [--sets-only]  (LABEL: the row,
`default` unless told; --sets-only: the counts alone)"""
import pathlib
import sys

args = [a for a in sys.argv[1:] if not a.startswith("--")]
before, after = pathlib.Path(args[0]), pathlib.Path(args[1])
label = args[2] if len(args) > 2 else "default"
sets_only = "--sets-only" in sys.argv
sets = pathlib.Path(__file__).parent


def rows(path):
    out = {}
    for line in path.read_text().splitlines():
        row, key, query, names = line.split("\t")
        if row == label:
            out[(key, query)] = names.split(",") if names else []
    return out


# Held out until the end of #63: its rankings are diffed, its labels never read.
HELD_OUT = {"intent-heldout-18"}


def expected(set_name):
    out = {}
    if set_name in HELD_OUT:
        return out
    for line in (sets / f"{set_name}.tsv").read_text().splitlines():
        cols = line.split("\t")
        if line.startswith("#") or len(cols) < 3:
            continue
        out[(cols[0], cols[1])] = cols[2].split(",")
    return out


def rank(names, wanted):
    return next((i + 1 for i, n in enumerate(names) if n in wanted), None)


total = 0
for b in sorted(before.glob("*.rank")):
    a = after / b.name
    if not a.exists():
        continue
    old, new = rows(b), rows(a)
    labels = expected(b.stem)
    changed = [q for q in old if old[q] != new.get(q)]
    moved = [q for q in changed if rank(old[q], labels.get(q, [])) != rank(new.get(q, []), labels.get(q, []))]
    total += len(changed)
    print(f"{b.stem}: {len(old)} queries, {len(changed)} with another top 20, "
          f"{len(moved)} whose expected tool moved")
    if sets_only:
        continue
    for q in changed:
        want = labels.get(q, [])
        print(f"  [{q[0]}] {q[1]}\n    expected {','.join(want)}: rank "
              f"{rank(old[q], want)} -> {rank(new.get(q, []), want)}\n"
              f"    before {', '.join(old[q][:5])}\n    after  {', '.join(new.get(q, [])[:5])}")
print(f"total: {total} queries with another top 20")
