"""Notebook 03d's bookkeeping: the questions whose answer crosses a block edge set apart (the
scores without them, and who won among them), and a block drawn at random as a floor.

Kept out of the notebook because it is bookkeeping around the comparisons, not the idea being
tested; the test of which answers cross an edge stays in the notebook, written out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from chunklab.chunkers.fixed import FixedSizeChunker
from chunklab.contracts import Chunk, Document


def without_crossing(
    a_scores: Sequence[float], b_scores: Sequence[float], crossing: Sequence[bool]
) -> tuple[list[float], list[float]]:
    """Both ways' scores on the questions whose answer crosses no block edge, still paired."""
    kept = [(a, b) for a, b, cross in zip(a_scores, b_scores, crossing, strict=True) if not cross]
    return [a for a, _ in kept], [b for _, b in kept]


def won_lost_crossing(
    a_scores: Sequence[float], b_scores: Sequence[float], crossing: Sequence[bool]
) -> tuple[int, int]:
    """Won and lost by the first way among the questions whose answer crosses a block edge."""
    pairs = [(a, b) for a, b, cross in zip(a_scores, b_scores, crossing, strict=True) if cross]
    return sum(a > b for a, b in pairs), sum(a < b for a, b in pairs)


def block_at_random(
    docs: Mapping[str, Document],
    asked: Sequence[Any],
    size: int,
    holds: Callable[[Any, Chunk], bool],
) -> list[float]:
    """Per question: the share of its corpus's blocks of `size` characters that hold the answer
    (the chance that a block drawn at random does)."""
    blocks = {name: FixedSizeChunker(size=size, overlap=0).split(doc) for name, doc in docs.items()}
    return [sum(holds(q, b) for b in blocks[q.corpus]) / len(blocks[q.corpus]) for q in asked]
