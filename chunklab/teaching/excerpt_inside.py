"""Is a benchmark answer inside what one way hands over? The stricter test of companion 03b.

Fact recall asks whether a few key strings occur somewhere in the context. On Chroma's corpora
each question instead comes with the excerpts that answer it, as character spans, so a piece
handed over either holds an excerpt whole or it does not. Whole, inside *one* piece: an excerpt
split across two windows is cut, because a model reads each piece as it is handed over.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from chunklab.contracts import Chunk
from chunklab.retrieval.retrievers import Retriever


def answer_inside(handed: Sequence[Chunk], excerpts: Iterable[tuple[int, int]]) -> int:
    """1 when every (start, end) excerpt lies inside one piece handed over, else 0 (a score
    per question, for `compare`)."""
    return int(all(any(p.start <= a and b <= p.end for p in handed) for a, b in excerpts))


def runs(spans: Iterable[tuple[int, int]], text: str) -> list[tuple[int, int]]:
    """Spans of `text` merged where they overlap or only white space lies between them, sorted:
    windows that touch at a sentence boundary (one ends at sentence 5, the next starts at 6) are
    one run of text, as exercise 03b.2 merges them."""
    merged: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if merged and (a <= merged[-1][1] or text[merged[-1][1] : a].isspace()):
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def answer_inside_merged(
    handed: Sequence[Chunk], excerpts: Iterable[tuple[int, int]], text: str
) -> int:
    """`answer_inside` for the pieces merged first (`runs`): pieces that overlap or touch are
    joined into one stretch of `text`, as they are handed over when each stretch goes once. An
    excerpt that two overlapping windows each cut off can lie inside their merged stretch."""
    stretches = runs(((p.start, p.end) for p in handed), text)
    return int(all(any(start <= a and b <= end for start, end in stretches) for a, b in excerpts))


def top_chunks(retriever: Retriever, question: str, chunks: Sequence[Chunk], k: int) -> list[Chunk]:
    """The k best chunks themselves, best first, not their scores: what the children alone hand
    over."""
    by_id = {c.chunk_id: c for c in chunks}
    return [by_id[h.ref_id] for h in retriever.rank(question, chunks, k)]
