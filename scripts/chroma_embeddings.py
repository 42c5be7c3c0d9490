"""Rebuild the stored MiniLM vectors of Chroma's benchmark: `make embeddings`.

Scores the rows of `chunklab.evaluation.benchmark_rows.STORED` (or any of `ROWS` named with
--rows) with the live all-MiniLM-L6-v2, top 5, and stores every vector those rows needed (chunk
texts, questions, the sentences a MiniLM semantic cut embeds) in data/chroma/embeddings/minilm.*,
keyed by the model's hash and each text's SHA-256. A vector already stored for the same model and
text is reused, so adding a row embeds only its new texts; `--fresh` recomputes everything. The
store is written after each row, so an interrupted run keeps the rows it finished.

It prints each row's four columns, the cost of storing float16 (largest difference from the
float32 vector, smallest cosine, and how many questions' top 5 change) and, at the end, the
SHA-256 of both files, which it writes into data/chroma/SOURCES.md (tests/test_chroma_data.py
checks them). `--hashes` does only that last step.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
import time
from pathlib import Path

import numpy as np

from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.embeddings.stored import StoredEmbedder, VectorStore, text_key
from chunklab.evaluation.benchmark import METRICS, dense, evaluate, nearest
from chunklab.evaluation.benchmark_rows import ROWS, STORED, row_cut, store_stem
from chunklab.evaluation.chroma import load_corpora, load_questions
from chunklab.evaluation.stored_cuts import CUT_ROWS, cuts_path, record_cuts


class Recording:
    """The stored-then-live embedder, remembering every text asked and the vector given
    (float32 as computed when it was embedded live in this run)."""

    def __init__(self, inner: StoredEmbedder) -> None:
        self.inner = inner
        self.name, self.dim, self.model_hash = inner.name, inner.dim, inner.model_hash
        self.vectors: dict[str, np.ndarray] = {}
        self.live: set[str] = set()

    def embed_documents(self, texts):
        texts = list(texts)
        known = set(self.inner.store.row)
        out = self.inner.embed_documents(texts)
        for text, vector in zip(texts, out, strict=True):
            if text not in self.vectors:
                self.vectors[text] = vector
                if text_key(text) not in known:
                    self.live.add(text)
        return out

    def embed_query(self, text):
        return self.embed_documents([text])[0]


def source_of(text: str, corpora: dict[str, str], asked: dict[str, int]) -> str:
    """Where a stored text can be rebuilt from: a question's row, or a slice of a corpus."""
    if text in asked:
        return f"questions row {asked[text]}"
    for corpus, body in corpora.items():
        at = body.find(text)
        if at >= 0:
            return f"{corpus} {at} {at + len(text)}"
    return "unlocated"


def save(recording: Recording, corpora, asked, stem) -> VectorStore:
    texts = list(recording.vectors)
    store = VectorStore(
        recording.name,
        recording.model_hash,
        [text_key(t) for t in texts],
        [source_of(t, corpora, asked) for t in texts],
        np.array([recording.vectors[t] for t in texts], dtype=np.float16).reshape(-1, 384),
    )
    store.save(stem)
    return store


def float16_cost(recording: Recording, chunks: list[str], questions: list[str]) -> str:
    """What storing float16 changes, over the texts embedded live in this run."""
    live = [t for t in dict.fromkeys(chunks + questions) if t in recording.live]
    if not live or not all(q in recording.live for q in questions):
        return "float16: not measured (vectors were stored already)"
    full = np.array([recording.vectors[t] for t in live], dtype=np.float32)
    half = full.astype(np.float16).astype(np.float32)
    cosine = (full * half).sum(1) / np.linalg.norm(full, axis=1) / np.linalg.norm(half, axis=1)
    line = f"float16: max |diff| {np.abs(full - half).max():.2e}, min cosine {cosine.min():.7f}"
    if all(c in recording.live for c in chunks):
        c32 = np.array([recording.vectors[t] for t in chunks], dtype=np.float32)
        q32 = np.array([recording.vectors[t] for t in questions], dtype=np.float32)
        c16, q16 = (m.astype(np.float16).astype(np.float32) for m in (c32, q32))
        a, b = nearest(q32, c32, 5), nearest(q16, c16, 5)
        moved = int(sum(set(x) != set(y) for x, y in zip(a, b, strict=True)))
        line += f"; top-5 set changed for {moved} of {len(questions)} questions"
    return line


def record_hashes(stem: Path) -> None:
    """Print both files' SHA-256 and write them into data/chroma/SOURCES.md's rows."""
    sources = stem.parent.parent / "SOURCES.md"
    text = sources.read_text(encoding="utf-8")
    for path in (stem.with_suffix(".tsv"), stem.with_suffix(".npy"), cuts_path()):
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        name = f"{stem.parent.name}/{path.name}"
        text, found = re.subn(
            rf"^(\| {re.escape(name)} \|.*\| )[0-9a-f]{{64}}( \|)$",
            rf"\g<1>{digest}\2",
            text,
            flags=re.M,
        )
        print(f"{name} {digest}" + ("" if found else "  (no row for it in SOURCES.md)"))
    sources.write_text(text, encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", default=",".join(STORED), help="comma-separated row labels")
    parser.add_argument("--fresh", action="store_true", help="ignore the stored vectors")
    parser.add_argument("--hashes", action="store_true", help="only record the files' hashes")
    args = parser.parse_args()
    if args.hashes:
        record_hashes(store_stem())
        return 0
    labels = [label.strip() for label in args.rows.split(",")]
    unknown = [label for label in labels if label not in ROWS]
    if unknown:
        print(f"unknown row {unknown[0]!r} (known: {', '.join(ROWS)})", file=sys.stderr)
        return 2
    stem, live = store_stem(), MiniLMEmbedder()
    old = None if args.fresh or not stem.with_suffix(".tsv").exists() else VectorStore.load(stem)
    old = old or VectorStore(live.name, live.model_hash, [], [], np.zeros((0, 384), np.float16))
    recording = Recording(StoredEmbedder(live, old))
    corpora, questions = load_corpora(), load_questions()
    asked = {q.text: i for i, q in reversed(list(enumerate(questions)))}
    for label in labels:
        started = time.perf_counter()
        result = evaluate(row_cut(label, recording), dense(recording), k=5)
        cells = "  ".join(f"{m} {result.mean(m):6.2f}" for m in METRICS)
        print(f"{label:34} {len(result.chunks):6} chunks  {cells}", flush=True)
        chunk_texts = [c.text for c in result.chunks]
        print("   ", float16_cost(recording, chunk_texts, [q.text for q in questions]))
        save(recording, corpora, asked, stem)
        print(f"    [{time.perf_counter() - started:.0f} s, {len(recording.vectors)} stored]")
    print(f"spans of {', '.join(CUT_ROWS)} stored in {record_cuts(corpora).name}")
    record_hashes(stem)
    return 0


if __name__ == "__main__":
    sys.exit(main())
