"""Late chunking: read the whole text once, then pool each chunk's own token vectors.

A chunk embedded alone knows only its own words: "It was founded in 1850" does not say which city.
Late chunking (Günther et al. 2024, arXiv:2409.04701) runs the encoder over the whole document,
where every token attends to its neighbours across chunk borders, and only then averages the
token vectors that fall inside each chunk's character span. The chunk's vector is built from its
own tokens, but each token was read in context.

A text longer than the model's window is read in overlapping windows, each with its own [CLS]
and [SEP]. A token read by two windows keeps the vector of the window in which it sits further
from an edge (the split is at the middle of the overlap), so every token has context on both
sides whenever the text has any. The paper's code keeps, instead, the earlier window's reading
of the whole overlap; both give each token a reading with context.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.embeddings.transformer import F32


class TokenVectors(NamedTuple):
    """Each word piece's vector (n, 384), read in context, and its character span (n, 2)."""

    vectors: np.ndarray
    offsets: np.ndarray


def windows(n: int, width: int, overlap: int) -> list[tuple[int, int]]:
    """Piece ranges [start, end) of overlapping windows that cover n pieces."""
    if n <= width:
        return [(0, n)]
    step = width - overlap
    starts = list(range(0, n - width, step)) + [n - width]
    return [(s, s + width) for s in starts]


def token_vectors(embedder: MiniLMEmbedder, text: str, overlap: int = 64) -> TokenVectors:
    """The vector of every word piece of `text` ([CLS] and [SEP] left out), read in windows of
    `embedder.max_tokens` that overlap by `overlap` pieces when the text is longer."""
    encoding = embedder.encoding(text)
    cls, sep = encoding.ids[0], encoding.ids[-1]
    ids, offsets = encoding.ids[1:-1], np.array(encoding.offsets[1:-1], dtype=np.int64)
    width = embedder.max_tokens - 2
    if not 0 <= overlap < width:
        raise ValueError(f"overlap must be at least 0 and below {width} pieces, got {overlap}")
    vectors = np.zeros((len(ids), embedder.dim), dtype=F32)
    spans = windows(len(ids), width, overlap)
    reads = embedder.read_rows([[cls, *ids[start:end], sep] for start, end in spans])  # one length
    for i, (start, end) in enumerate(spans):
        read = reads[i][1:-1]
        keep_from = start if i == 0 else (start + spans[i - 1][1]) // 2
        keep_to = end if i == len(spans) - 1 else (end + spans[i + 1][0]) // 2
        vectors[keep_from:keep_to] = read[keep_from - start : keep_to - start]
    return TokenVectors(vectors, offsets.reshape(-1, 2))


def pool_spans(tokens: TokenVectors, spans: Sequence[tuple[int, int]]) -> np.ndarray:
    """One unit vector per character span: the mean of the token vectors that start inside it.

    A span that holds no token (only spaces, or an empty span) gets a zero vector. Ranked by dot
    product it scores 0; ranked by squared L2 (Chroma's default) it is at distance 1 from every
    unit query, nearer than any chunk below cosine 0.5, so it lands in every top k: give such a
    span another vector (its text's own) before ranking by distance.
    """
    starts = tokens.offsets[:, 0]
    out = np.zeros((len(spans), tokens.vectors.shape[1]), dtype=F32)
    for row, (start, end) in enumerate(spans):
        first, last = np.searchsorted(starts, [start, end])
        if last > first:
            mean = tokens.vectors[first:last].mean(axis=0)
            out[row] = mean / max(np.linalg.norm(mean), F32(1e-12))
    return out


def late_chunk_vectors(
    embedder: MiniLMEmbedder, text: str, spans: Sequence[tuple[int, int]], overlap: int = 64
) -> np.ndarray:
    """Late-chunked vectors of `spans` (character ranges of `text`), one row per span."""
    return pool_spans(token_vectors(embedder, text, overlap), spans)
