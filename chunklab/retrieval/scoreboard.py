"""The bookkeeping of an exact top k found without scoring everything (MaxScore).

`stored_ranking.bm25_top` scores children exactly only while one could still enter the top k.
`Scoreboard` keeps the exact scores so far and the bar a child must reach (the k-th best, with
room for float32 rounding); `score_candidates` scores, best partial score first, the children
whose known part plus the most the unread terms could add still reaches that bar.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping, Sequence

import numpy as np

MARGIN = 1e-4  # relative: a bound is judged with room for float32 rounding, so no near-tie is lost


class Scoreboard:
    """The children scored exactly so far, and the k best scores as a min-heap (`top[0]` is the
    k-th best): what a child must beat to enter the top k."""

    def __init__(self, k: int, exact: Callable[[Sequence[int]], Mapping[int, np.float32]]) -> None:
        self.k, self.exact = k, exact
        self.scored: dict[int, np.float32] = {}  # seq -> its exact (bm25s) score
        self.top: list[float] = []

    def score(self, seqs: Sequence[int]) -> None:
        """Score exactly the children not scored yet, 500 to a query."""
        fresh = [s for s in seqs if s not in self.scored]
        for start in range(0, len(fresh), 500):
            for seq, value in self.exact(fresh[start : start + 500]).items():
                self.scored[seq] = value
                push = heapq.heappush if len(self.top) < self.k else heapq.heappushpop
                push(self.top, float(value))

    def bar(self) -> float:
        """What a child must reach to enter the top k, with room for rounding."""
        return self.top[0] * (1 - MARGIN) if len(self.top) == self.k else 0.0

    def best(self) -> list[int]:
        return sorted(self.scored, key=lambda s: (-self.scored[s], s))[: self.k]


def score_candidates(partial: Mapping[int, float], rest: float, board: Scoreboard) -> None:
    """Score in full, best partial first, each child whose known part plus what the unread terms
    could add still reaches the bar; one query per batch (rows looked up by key, not scanned)."""
    ordered, i = sorted(partial, key=lambda s: (-partial[s], s)), 0
    while i < len(ordered) and partial[ordered[i]] + rest >= board.bar():
        batch: list[int] = []
        while i < len(ordered) and len(batch) < 256 and partial[ordered[i]] + rest >= board.bar():
            batch.append(ordered[i])
            i += 1
        board.score(batch)
