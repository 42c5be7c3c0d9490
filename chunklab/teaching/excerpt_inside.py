"""Is a benchmark answer inside what one way hands over? The stricter test of companion 03b.

Fact recall asks whether a few key strings occur somewhere in the context. On Chroma's corpora
each question instead comes with the excerpts that answer it, as character spans, so a piece
handed over either holds an excerpt whole or it does not. Whole, inside *one* piece: an excerpt
split across two windows is cut, because a model reads each piece as it is handed over.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from chunklab.contracts import Chunk
from chunklab.evaluation.chroma import union
from chunklab.retrieval.retrievers import Retriever


def answer_inside(handed: Sequence[Chunk], excerpts: Iterable[tuple[int, int]]) -> int:
    """1 when every (start, end) excerpt lies inside one piece handed over, else 0 (a score
    per question, for `compare`)."""
    return int(all(any(p.start <= a and b <= p.end for p in handed) for a, b in excerpts))


def answer_inside_merged(handed: Sequence[Chunk], excerpts: Iterable[tuple[int, int]]) -> int:
    """`answer_inside` for the pieces merged first: overlapping or touching pieces are joined
    into one stretch of the document, as they are handed over when each stretch goes once. An
    excerpt that two overlapping windows each cut off can lie inside their merged stretch."""
    runs = union((p.start, p.end) for p in handed)
    return int(all(any(start <= a and b <= end for start, end in runs) for a, b in excerpts))


def top_chunks(retriever: Retriever, question: str, chunks: Sequence[Chunk], k: int) -> list[Chunk]:
    """The k best chunks themselves, best first, not their scores: what the children alone hand
    over."""
    by_id = {c.chunk_id: c for c in chunks}
    return [by_id[h.ref_id] for h in retriever.rank(question, chunks, k)]
