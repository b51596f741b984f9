#!/usr/bin/env python3
"""Tool names of operations without an operationId, before and after (#65).

    benches/names.py BEFORE_BINARY AFTER_BINARY [--sample N] [--seed S]

Reads every OpenAPI document of tests/data/corpus/dev (the big ones, gzipped and
slow, give all their operations an id but Microsoft Graph's 43 of 22,361), runs
`toolwright catalog` on it with both binaries, and over the operations the source
gives no operationId prints, per group of documents:

- the median, 90th percentile and longest name length, and the share of names
  with `_by_`, before and after;
- duplicate names among a document's tools (must be 0);
- whether the AFTER names are the same on a second run, and after one unrelated
  operation is added to a copy of each document;
- a sample of before/after names drawn with a fixed seed.

Groups: "mostly" is the documents where most operations lack an operationId (the
issue's population); "all" is every operation without one in the corpus.
"""

import argparse
import gzip
import json
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "corpus"
METHODS = ("get", "put", "post", "delete", "options", "head", "patch")


def load(path):
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def operations(doc):
    """(method, path, has operationId) per operation, in document order."""
    out = []
    for path, item in (doc.get("paths") or {}).items():
        if not isinstance(item, dict):
            continue
        for method in METHODS:
            op = item.get(method)
            if isinstance(op, dict):
                out.append((method.upper(), path, "operationId" in op))
    return out


def catalog(binary, doc_path):
    """Tool names keyed by (method, path as the catalog gives it, nth)."""
    run = subprocess.run(
        [binary, "catalog", str(doc_path)], capture_output=True, text=True, check=False
    )
    if run.returncode != 0:
        sys.exit(f"{binary} catalog {doc_path} failed:\n{run.stderr[-2000:]}")
    names, seen = {}, {}
    tools = json.loads(run.stdout)["tools"]
    for tool in tools:
        meta = tool["_meta"]["toolwright"]
        key = (meta["method"], meta["path"])
        nth = seen.get(key, 0)
        seen[key] = nth + 1
        names[key + (nth,)] = tool["name"]
    all_names = [t["name"] for t in tools]
    return names, len(all_names) - len(set(all_names))


def keyed(ops):
    """The catalog's keys for the document's operations (fragments are cut)."""
    out, seen = [], {}
    for method, path, has_id in ops:
        key = (method, path.split("#")[0])
        nth = seen.get(key, 0)
        seen[key] = nth + 1
        out.append((key + (nth,), has_id))
    return out


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def stats(names):
    lengths = [len(n) for n in names]
    return (
        statistics.median(lengths),
        pct(lengths, 0.9),
        max(lengths),
        sum("_by_" in n for n in names) / len(names),
    )


def with_extra_operation(doc):
    doc = json.loads(json.dumps(doc))
    doc["paths"]["/toolwright-bench-extra/{widgetId}/gadgets"] = {
        "get": {
            "summary": "Lists a widget's gadgets.",
            "parameters": [
                {"name": "widgetId", "in": "path", "required": True, "schema": {"type": "string"}}
            ],
            "responses": {"200": {"description": "ok"}},
        }
    }
    return doc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--sample", type=int, default=30)
    ap.add_argument("--seed", type=int, default=65)
    args = ap.parse_args()

    docs = sorted((CORPUS / "dev").glob("*.json"))
    groups = {"mostly": [], "all": []}
    duplicates = {"before": 0, "after": 0}
    unstable_runs, unstable_added, checked = [], [], 0
    mostly_docs = []
    with tempfile.TemporaryDirectory() as tmp:
        for doc_path in docs:
            doc = load(doc_path)
            if "openapi" not in doc:
                continue
            ops = keyed(operations(doc))
            missing = [k for k, has_id in ops if not has_id]
            if not missing:
                continue
            mostly = len(missing) * 2 > len(ops)
            if mostly:
                mostly_docs.append(doc_path.name)
            before, dup_b = catalog(args.before, doc_path)
            after, dup_a = catalog(args.after, doc_path)
            duplicates["before"] += dup_b
            duplicates["after"] += dup_a
            again, _ = catalog(args.after, doc_path)
            if again != after:
                unstable_runs.append(doc_path.name)
            # The same document with one unrelated operation added: a copy under the
            # same file name (the API name comes from it).
            copy = Path(tmp) / doc_path.name.removesuffix(".gz")
            copy.write_text(json.dumps(with_extra_operation(doc)))
            extra, dup_x = catalog(args.after, copy)
            duplicates["after"] += dup_x
            changed = [k for k in after if extra.get(k) != after[k]]
            checked += len(after)
            if changed:
                unstable_added.append((doc_path.name, changed[:3]))
            rows = [(doc_path.name, k, before[k], after[k]) for k in missing if k in after]
            groups["all"].extend(rows)
            if mostly:
                groups["mostly"].extend(rows)

    print(f"documents where most operations lack an operationId: {', '.join(mostly_docs)}")
    print()
    print("| group | names | median before → after | p90 | max | `_by_` share |")
    print("|---|---:|---|---|---|---|")
    for group, rows in groups.items():
        b = stats([r[2] for r in rows])
        a = stats([r[3] for r in rows])
        print(
            f"| {group} | {len(rows)} | {b[0]:g} → {a[0]:g} | {b[1]} → {a[1]} | "
            f"{b[2]} → {a[2]} | {b[3]:.0%} → {a[3]:.0%} |"
        )
    print()
    print(f"duplicate tool names in a document: before {duplicates['before']}, after {duplicates['after']}")
    print(f"names changed on a second run: {len(unstable_runs)} documents {unstable_runs}")
    print(
        f"names changed by adding one unrelated operation: {len(unstable_added)} documents "
        f"(of {checked} names checked) {unstable_added}"
    )
    print()
    rows = groups["mostly"]
    sample = random.Random(args.seed).sample(rows, min(args.sample, len(rows)))
    print(f"sample of {len(sample)} (seed {args.seed}), operationId-less documents:")
    print()
    print("| API | operation | before | after |")
    print("|---|---|---|---|")
    for name, (method, path, _), b, a in sample:
        print(f"| {name.split('_')[0].removesuffix('.json')} | `{method} {path}` | `{b}` | `{a}` |")


if __name__ == "__main__":
    main()
