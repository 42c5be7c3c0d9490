"""Exercise 03d.1's answer (companion 03d, long parents): on how many questions small-to-big's
2400-character block holds the answer while the block found directly does not, computed from
the library when asked, and the plausible wrong answers its refusal recognises.

Kept apart from `teaching.answers_small_to_big`, which registers it. Reading this file gives the
answer away: try first.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from chunklab.chunkers.fixed import FixedSizeChunker
from chunklab.contracts import Chunk, Document
from chunklab.evaluation.chroma import load_corpora
from chunklab.evaluation.chroma import load_questions as chroma_questions
from chunklab.retrieval.retrievers import RETRIEVERS
from chunklab.teaching.parent_search import block_groups, direct_vs_s2b


@functools.cache
def _blocks_run(
    retriever: str, size: int, child: int = 800
) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Per question of Chroma's three smaller corpora (03d's): whether the block of `size`
    characters found directly holds the answer, and whether the best `child`-character child's
    block does (03d.1)."""
    docs = {
        name: Document(doc_id=name, uri=name, title="", text=text)
        for name, text in load_corpora().items()
        if len(text) < 200_000
    }
    asked = [q for q in chroma_questions() if q.corpus in docs]
    pieces: dict[str, Sequence[Chunk]] = {
        name: FixedSizeChunker(size=child, overlap=0).split(doc) for name, doc in docs.items()
    }

    def holds(q, block) -> float:
        return float(
            block is not None and all(block.start <= a and b <= block.end for a, b in q.excerpts)
        )

    direct, s2b = direct_vs_s2b(
        RETRIEVERS[retriever], block_groups(docs, pieces, asked, size), holds
    )
    return tuple(direct), tuple(s2b)


def _won_lost_tied(retriever: str, size: int, child: int = 800) -> tuple[int, int, int]:
    direct, s2b = _blocks_run(retriever, size, child)
    won = sum(s > d for d, s in zip(direct, s2b, strict=True))
    lost = sum(s < d for d, s in zip(direct, s2b, strict=True))
    return won, lost, len(direct) - won - lost


def s2b_won_at_2400() -> int:
    return _won_lost_tied("bm25", 2400)[0]


def s2b_won_hints() -> dict[Any, str]:
    """03d.1's slips: one off, the other direction (lost), the notebook's lengths, WordLlama,
    the ties, won minus lost, won plus lost, every question small-to-big's block answers, or the
    direct block's, the count given as a percent of the questions, children cut at 1200."""
    won, lost, tied = _won_lost_tied("bm25", 2400)
    direct, s2b = _blocks_run("bm25", 2400)
    ask = (
        "the question asks, with BM25 and 2400-character blocks, for the questions where only "
        "small-to-big's block holds the answer"
    )
    hints: dict[Any, list[str]] = {}
    off_by_one = (
        "one off: count each question where small-to-big's block holds the answer and the "
        "direct block does not, once"
    )
    for answer, where in [
        (won - 1, off_by_one),
        (won + 1, off_by_one),
        (
            lost,
            "the questions small-to-big lost (the direct block holds the answer, its block not)",
        ),
        (tied, "the ties: both blocks hold the answer, or neither"),
        (won - lost, "won minus lost"),
        (won + lost, "won plus lost: every question where the two blocks differ, either way"),
        (
            int(sum(s2b)),
            "every question whose small-to-big block holds the answer, the direct one's too",
        ),
        (int(sum(direct)), "every question whose directly found block holds the answer"),
        (
            sum(bool(d and s) for d, s in zip(direct, s2b, strict=True)),
            "the questions where both blocks hold the answer (ties, not wins)",
        ),
        (_won_lost_tied("wordllama", 2400)[0], "with WordLlama (DenseRetriever)"),
        *[(_won_lost_tied("bm25", s)[0], f"at {s} characters") for s in (1600, 4000, 8000)],
        *[
            (pct(100 * won / len(direct)), "the count as a percent of the questions")
            for pct in (round, int)
        ],
        (
            _won_lost_tied("bm25", 2400, 1200)[0],
            "with 1200-character children (half a block); the children stay 800 characters",
        ),
    ]:
        hints.setdefault(answer, []).append(where)
    table = {a: f"that is {', or '.join(w)}; {ask}" for a, w in hints.items()}
    table.pop(won, None)
    return table
