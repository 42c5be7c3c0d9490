"""A chunk longer than the embedder reads, scored by its best part (multi-vector scoring).

MiniLM reads 254 pieces of text and drops the rest without a word. To ask what the dropped tail
would have found, cut each chunk where the model stops, again and again, so each character is in
one part (a word at a stop is split between two); embed each part; score the chunk by its best
part. A chunk of one part scores as before. Companion 09d shows `parts` in a few lines and uses
`BestPartScorer` for the search, and `paired` to pair its ways of reading long documents on the
same questions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from chunklab.contracts import Chunker, Document
from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.evaluation.metrics import has_facts
from chunklab.evaluation.questions import GoldQuestion
from chunklab.retrieval.retrievers import DenseRetriever
from chunklab.teaching.claims import Comparison, compare


def parts(embedder: MiniLMEmbedder, text: str) -> list[str]:
    """The text cut where the embedder stops reading, again and again: each character in one
    part."""
    out: list[str] = []
    while text.strip():
        end = embedder.read_until(text)
        out, text = out + [text[:end]], text[end:]
    return out


class BestPartScorer:
    """Top-1 search where each chunk scores its best part; each chunk is cut into parts, and each
    later part embedded, once (a chunk is scored again for every question on its document)."""

    def __init__(self, embedder: MiniLMEmbedder, dense: DenseRetriever) -> None:
        self.embedder, self.dense = embedder, dense
        self.later_parts: dict[str, list[str]] = {}
        self.part_vectors: dict[str, np.ndarray] = {}

    def chunk_score(self, own_score: float, text: str, query: np.ndarray) -> float:
        """The best score over the parts; the first part's is the chunk's own (MiniLM's own)."""
        if text not in self.later_parts:
            later = parts(self.embedder, text)[1:]
            new = [p for p in later if p not in self.part_vectors]
            if new:
                self.part_vectors.update(zip(new, self.embedder.embed_documents(new), strict=True))
            self.later_parts[text] = later
        later = self.later_parts[text]
        return max([own_score] + [float(self.part_vectors[p] @ query) for p in later])

    def top1(
        self,
        chunker: Chunker,
        questions: Iterable[GoldQuestion],
        documents: Mapping[str, Document],
        ids: Iterable[str],
    ) -> dict[str, int]:
        """Question id -> 1 if the chunk with the best part score holds every fact, else 0."""
        wanted, found = set(ids), {}
        for q in (q for q in questions if q.id in wanted):
            chunks = chunker.split(documents[q.document])
            own = {h.ref_id: h.score for h in self.dense.rank(q.question, chunks, len(chunks))}
            query = self.dense.query_vector(q.question)  # None: no known word, no part scores
            if query is None:
                scores = [own[c.chunk_id] for c in chunks]
            else:
                scores = [self.chunk_score(own[c.chunk_id], c.text, query) for c in chunks]
            found[q.id] = int(has_facts(chunks[int(np.argmax(scores))].text, q.facts))
        return found


def paired(
    found: Mapping[str, Mapping[str, int]],
    pairs: Iterable[tuple[str, str]],
    ids: Iterable[str],
    level: float,
) -> dict[tuple[str, str], Comparison]:
    """Each (a, b) of `pairs` compared question by question on `ids` at `level`: `found[a][q]`
    against `found[b][q]` (1 if that way finds question q at rank 1); each line is printed."""
    ids = list(ids)
    out = {}
    for a, b in pairs:
        first, second = [found[a][q] for q in ids], [found[b][q] for q in ids]
        out[a, b] = compare(first, second, a=a, b=b, level=level)
    return out
