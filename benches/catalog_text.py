#!/usr/bin/env python3
"""Catalog text for models, measured over real specs (issue #33): for the 40 dev specs
and GitHub, Stripe and Kubernetes, how many tool titles are only the humanised tool
name although the operation has a summary, how many descriptions keep HTML, how
many input properties have no description, how many descriptions open with the
same sentence as another tool of the same API, and how many open with a notice
("Deprecated.", "Request body: …") instead of what the tool does.

Usage: benches/catalog_text.py [TOOLWRIGHT_BINARY]  (default: target/release/toolwright)
Prints one line per group and the totals; numbers are counts over the catalogs that
`toolwright catalog` prints for each spec.
"""
import gzip, json, os, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target/release/toolwright")
TAG = re.compile(r"</?(a|b|i|p|br|code|pre|ul|ol|li|div|span|table|tr|td|th|h[1-6]|em|strong|img|details|summary|blockquote)(\s[^<>]*)?/?>", re.I)


def humanised(name):
    words = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower().replace("-", "_").split("_")
    text = " ".join(w for w in words if w)
    return text[:1].upper() + text[1:]


def specs():
    dev = os.path.join(ROOT, "tests/data/corpus/dev")
    for f in sorted(os.listdir(dev)):
        if f.endswith((".json", ".yaml", ".yml")):
            yield "dev", os.path.join(dev, f)
    big = os.path.join(ROOT, "tests/data/corpus/big")
    for f in ["github.com_api.github.com.json.gz", "stripe.com_api.json.gz", "kubernetes.io_api.json.gz"]:
        yield f.split(".")[0], os.path.join(big, f)


def catalog(path, work):
    if path.endswith(".gz"):
        plain = os.path.join(work, os.path.basename(path)[:-3])
        with gzip.open(path) as src, open(plain, "wb") as dst:
            dst.write(src.read())
        path = plain
    out = subprocess.run([BIN, "catalog", "--color", "never", path], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{path}: {out.stderr[-2000:]}")
    return json.loads(out.stdout)["tools"]


def measure(tools):
    m = dict(tools=0, humanised_titles=0, html=0, props=0, props_undescribed=0, same_opening=0, notice_first=0)
    openings = {}
    for t in tools:
        m["tools"] += 1
        if t.get("title", "") == humanised(t["name"]):
            m["humanised_titles"] += 1
        d = t.get("description", "")
        if TAG.search(d):
            m["html"] += 1
        first = re.split(r"(?<=[.!?])\s", d.strip(), maxsplit=1)[0]
        if first.startswith(("Deprecated", "Request body:")):
            m["notice_first"] += 1
        openings.setdefault(first, 0)
        openings[first] += 1
        for p in (t.get("inputSchema", {}).get("properties") or {}).values():
            m["props"] += 1
            if not (isinstance(p, dict) and p.get("description")):
                m["props_undescribed"] += 1
    m["same_opening"] = sum(n for n in openings.values() if n > 1)
    return m


def main():
    groups = {}
    with tempfile.TemporaryDirectory() as work:
        for group, path in specs():
            m = measure(catalog(path, work))
            g = groups.setdefault(group, {k: 0 for k in m})
            for k, v in m.items():
                g[k] += v
    total = {k: sum(g[k] for g in groups.values()) for k in next(iter(groups.values()))}
    print(f"{'':12} {'tools':>6} {'humanised titles':>18} {'HTML':>6} {'props':>7} {'undescribed':>12} {'same opening':>13} {'notice first':>13}")
    for name, g in list(groups.items()) + [("all", total)]:
        print(f"{name:12} {g['tools']:>6} {g['humanised_titles']:>18} {g['html']:>6} {g['props']:>7} {g['props_undescribed']:>12} {g['same_opening']:>13} {g['notice_first']:>13}")


main()
