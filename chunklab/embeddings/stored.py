"""Vectors kept on disk, used only for the exact text and the exact model they were made from.

Why: scoring a cut on Chroma's benchmark embeds a few thousand chunks, minutes of MiniLM on two
cores; notebook 10 and the tests must take seconds. So the vectors of the chunks they show are
stored (`data/chroma/embeddings/`), and `StoredEmbedder` hands them out *only* when both keys
match: the SHA-256 of the model's weights (the store's, checked against the live embedder's
`model_hash` before anything is used) and the SHA-256 of the text (a vector is looked up by the
hash of the very text asked for). A store made by another model fails loudly (`StaleStore`); a
text the store does not hold is embedded live, or, with `strict=True`, fails loudly
(`NotStored`). Nothing is ever matched approximately, so a stale vector is never used.

The store is two files: `NAME.npy`, the vectors as float16 (half the bytes; the error this costs
is measured by `scripts/chroma_embeddings.py` and bounded in tests/test_stored_embeddings.py),
and `NAME.tsv`, a header naming the model and its hash, then one line per vector: the text's
SHA-256 and where the text comes from (`corpus start end`, the text being `corpus[start:end]`, or
`questions row n`), so a test can rebuild any stored text and recompute its vector.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

HEADER = "# chunklab stored embeddings"


class StaleStore(ValueError):
    """The store was made by another model than the embedder it is offered to."""


class NotStored(KeyError):
    """A text the store does not hold, asked for with `strict=True`."""


def text_key(text: str) -> str:
    """The SHA-256 of a text's UTF-8 bytes, hex: what a stored vector is looked up by."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class VectorStore:
    """Vectors by text hash, the identity of the model that made them, and each text's source."""

    name: str  # the embedder's name
    model_hash: str  # SHA-256 of its weights
    keys: list[str]  # text hashes, one per row of `vectors`
    sources: list[str]  # where each text comes from ("corpus start end", "questions row n")
    vectors: np.ndarray  # (rows, dim), float16

    def __post_init__(self) -> None:
        self.row = {key: i for i, key in enumerate(self.keys)}

    @classmethod
    def load(cls, stem: Path) -> VectorStore:
        """Read `stem.tsv` and `stem.npy`; a malformed store is a ValueError naming the file."""
        index = stem.with_suffix(".tsv")
        lines = index.read_text(encoding="utf-8").splitlines()
        if len(lines) < 2 or lines[0] != HEADER or not lines[1].startswith("model "):
            raise ValueError(f"{index}: not a chunklab embedding store (header missing)")
        _, name, model_hash = lines[1].split(" ")
        rows = [line.split("\t") for line in lines[2:]]
        keys, sources = [r[0] for r in rows], [r[-1] for r in rows]
        vectors = np.load(stem.with_suffix(".npy"))
        if vectors.shape[0] != len(keys):
            raise ValueError(f"{index}: {len(keys)} keys for {vectors.shape[0]} vectors")
        return cls(name, model_hash, keys, sources, vectors)

    def save(self, stem: Path) -> None:
        """Write both files (byte for byte the same for the same contents)."""
        stem.parent.mkdir(parents=True, exist_ok=True)
        lines = [HEADER, f"model {self.name} {self.model_hash}"]
        lines += [f"{k}\t{s}" for k, s in zip(self.keys, self.sources, strict=True)]
        stem.with_suffix(".tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
        np.save(stem.with_suffix(".npy"), self.vectors.astype(np.float16))

    def check_model(self, embedder: Any) -> None:
        """Refuse an embedder whose weights are not the ones the vectors were made with."""
        if (self.name, self.model_hash) != (embedder.name, embedder.model_hash):
            raise StaleStore(
                f"stored embeddings were made by {self.name} ({self.model_hash[:12]}...), "
                f"not {embedder.name} ({embedder.model_hash[:12]}...): rebuild them "
                "(make embeddings)"
            )


class StoredEmbedder:
    """A live embedder that first looks each text up in a store (by its hash), after checking
    that the store was made by this very model. `live_texts` counts what had to be embedded."""

    def __init__(self, live: Any, store: VectorStore, strict: bool = False) -> None:
        store.check_model(live)
        self.live, self.store, self.strict = live, store, strict
        self.name, self.dim, self.model_hash = live.name, live.dim, live.model_hash
        self.live_texts = 0

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        keys = [text_key(t) for t in texts]
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        missing = [i for i, k in enumerate(keys) if k not in self.store.row]
        if missing and self.strict:
            first = texts[missing[0]][:60]
            raise NotStored(f"{len(missing)} texts not in the store, the first: {first!r}")
        if missing:
            out[missing] = self.live.embed_documents([texts[i] for i in missing])
            self.live_texts += len(missing)
        found = [i for i, k in enumerate(keys) if k in self.store.row]
        rows = [self.store.row[keys[i]] for i in found]
        out[found] = self.store.vectors[rows].astype(np.float32)
        return out

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_documents([text])[0]


def store_texts(live: Any, texts: dict[str, str], stem: Path, fresh: bool = False) -> list[str]:
    """Embed `texts` (text -> where it comes from) and write them as the store `stem`.

    Why one function: every stored set (code search, 07b's check, 09b's baseline) is made the same
    way, and a second copy of this is where two stores would drift apart. Rows are sorted by text
    hash, so the same texts give the same files byte for byte. A text already in an existing store
    by the same model keeps its vector unless `fresh`. Returns the two files' SHA-256 lines, for
    data/SOURCES.md."""
    embedder: Any = live
    if stem.with_suffix(".tsv").exists() and not fresh:
        embedder = StoredEmbedder(live, VectorStore.load(stem))
    ordered = sorted(texts, key=text_key)
    vectors = np.asarray(embedder.embed_documents(ordered))
    keys, sources = [text_key(t) for t in ordered], [texts[t] for t in ordered]
    VectorStore(live.name, live.model_hash, keys, sources, vectors).save(stem)
    return [
        f"{stem.with_suffix(s).name} {hashlib.sha256(stem.with_suffix(s).read_bytes()).hexdigest()}"
        for s in (".tsv", ".npy")
    ]
