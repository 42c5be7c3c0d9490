"""Chroma's `ClusterSemanticChunker`: small pieces grouped by the best split of their similarities.

A port of `cluster_semantic_chunker.py` from `brandonstarxel/chunking_evaluation` (@d451fc4, MIT,
(c) 2024 Brandon Smith). Their steps, kept exactly:

1. The text is cut by their recursive splitter (`chunkers.recursive`) into pieces of under
   `min_size` cl100k tokens (their code counts these in cl100k whatever length function it is
   given).
2. Every piece is embedded; the similarity of two pieces is the dot product of their vectors.
   The mean of the similarities of all distinct pairs is subtracted and the diagonal set to 0.
3. A group of consecutive pieces scores the sum of its block of that matrix (each pair twice).
   Dynamic programming over the pieces, groups of at most `max_size // min_size` pieces, keeps
   at each piece the best score found that is *greater than 0*: where no grouping scores above 0,
   the piece's group is recorded as starting at piece 0 (their `segmentation` array starts at 0),
   so the walk back may make one long group. That quirk is theirs and kept.
4. A group's text is its pieces joined by one space (not a slice of the document: the report's
   evaluation finds it with its whitespace-forgiving search).

How chunklab's own `SemanticChunker(partition="optimal")` differs: its units are sentences, not
50-token pieces; a group is capped by the tokens of its exact span, not by a count of units; its
best score starts at minus infinity, so every group respects the cap; its chunks are slices of the
document. The objective (pair similarities less their mean, summed over each group) is the same.
"""

from __future__ import annotations

import numpy as np

from chunklab.chunkers.recursive import RecursiveChunker
from chunklab.embeddings.static import Embedder


def groups(similarity: np.ndarray, max_units: int) -> list[tuple[int, int]]:
    """(first, last) unit of each group: their `_optimal_segmentation`, quirks included."""
    matrix = similarity.astype(np.float64).copy()
    n = matrix.shape[0]
    if n == 0:
        return []
    if n > 1:
        matrix -= matrix[np.triu_indices(n, k=1)].mean()
    np.fill_diagonal(matrix, 0.0)
    best = np.zeros(n)
    start = np.zeros(n, dtype=int)
    for i in range(n):
        for size in range(1, max_units + 1):
            first = i - size + 1
            if first < 0:
                break
            score = matrix[first : i + 1, first : i + 1].sum()
            if first > 0:
                score += best[first - 1]
            if score > best[i]:
                best[i], start[i] = score, first
    out, i = [], n - 1
    while i >= 0:
        out.append((int(start[i]), i))
        i = int(start[i]) - 1
    return out[::-1]


class ClusterChunker:
    """`ClusterSemanticChunker(embedding_function, max_chunk_size, min_chunk_size)`: texts only."""

    def __init__(self, embedder: Embedder, max_size: int = 400, min_size: int = 50) -> None:
        self.embedder, self.max_size, self.min_size = embedder, max_size, min_size
        self.pieces = RecursiveChunker(size=min_size, overlap=0, length="cl100k")

    def split_text(self, text: str) -> list[str]:
        pieces = self.pieces.split_text(text)
        if not pieces:
            return []
        vectors = np.asarray(self.embedder.embed_documents(pieces), dtype=np.float64)
        found = groups(vectors @ vectors.T, self.max_size // self.min_size)
        return [" ".join(pieces[a : b + 1]) for a, b in found]
