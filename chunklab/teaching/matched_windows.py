"""Fixed windows matched to another cut's tokens per query: the baseline that tells structure
from size.

Why: "at the same size" is easy to say and hard to mean. A budget of 100 tokens caps a
Markdown section at 100, but most sections are shorter, while a 100-token window is always 100:
at k = 3 the windows hand the model a third more text, and a comparison that looks fair is not.
The honest baseline fixes its rule before looking (here: the window size whose mean tokens
handed over per query is closest to the other cut's), runs every size in a range rather than a
sample, and prints each size's tokens next to its paired comparison, so a reader sees both
where the match falls and what the verdict does around it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from chunklab.chunkers.fixed import FixedSizeChunker
from chunklab.contracts import Document
from chunklab.evaluation.experiment import Prepared, plain, run_experiment
from chunklab.evaluation.questions import GoldQuestion
from chunklab.retrieval.retrievers import Retriever
from chunklab.teaching.claims import Comparison, compare


def token_windows(size: int) -> Callable[[Document], Prepared]:
    """Windows of `size` cl100k tokens overlapping by a fifth, as the article's 200/40."""
    return plain(FixedSizeChunker(size=size, overlap=size // 5, unit="tokens"))


@dataclass(frozen=True)
class WindowPoint:
    """One window size: what it hands over per query, and the other cut compared with it."""

    size: int
    tokens: float  # mean tokens handed to the model per query
    comparison: Comparison  # the other cut (a) against these windows (b)

    def row(self) -> dict:
        """A table row: the size, its tokens per query, then the paired counts and verdict."""
        c = self.comparison
        return {
            "window": self.size,
            "tokens per query": round(self.tokens, 1),
            "won": c.won,
            "lost": c.lost,
            "sign test p": round(c.p_value, 4),
            "interval": f"[{c.low:+.1f}, {c.high:+.1f}]",
            "verdict": c.verdict,
        }


def window_sweep(
    documents: Mapping[str, Document],
    questions: Sequence[GoldQuestion],
    reference: Mapping[str, float],
    retriever: Retriever,
    sizes: Sequence[int],
    k: int = 3,
    name: str = "markdown+path",
    level: float = 95.0,
) -> list[WindowPoint]:
    """Windows at every size in `sizes`, each compared with `reference` (question id -> the
    other cut's `complete` at the same k with the same retriever), question by question, at
    `level` (raised when the sizes are one family of comparisons, as `compare`'s)."""
    rows = run_experiment(
        documents,
        questions,
        {str(size): token_windows(size) for size in sizes},
        {"retriever": retriever},
        ks=(k,),
        progress=False,
    )
    ids = [q.id for q in questions]
    points = []
    for size in sizes:
        mine = {r["question"]: r for r in rows if r["strategy"] == str(size)}
        scores = [float(mine[i]["complete"]) for i in ids]
        made = compare(
            [reference[i] for i in ids],
            scores,
            a=name,
            b=f"windows {size}",
            show=False,
            level=level,
        )
        tokens = sum(mine[i]["tokens_to_model"] for i in ids) / len(ids)
        points.append(WindowPoint(size, tokens, made))
    return points


def matched(points: Sequence[WindowPoint], target: float) -> WindowPoint:
    """The point whose tokens per query is closest to `target` (the smaller size on a tie)."""
    return min(points, key=lambda p: (abs(p.tokens - target), p.size))


def walk_to(
    documents: Mapping[str, Document],
    questions: Sequence[GoldQuestion],
    reference: Mapping[str, float],
    retriever: Retriever,
    target: float,
    k: int = 3,
    name: str = "markdown+path",
    level: float = 95.0,
) -> list[WindowPoint]:
    """Every window size from the smallest whose k windows could hold `target` tokens (k windows
    of s tokens hold at most k * s) upward, until two sizes in a row hand over more than `target`:
    the range that must hold the size matched to `target`, run whole."""
    size, points, over = math.ceil(target / k), [], 0
    while over < 2:
        point = window_sweep(documents, questions, reference, retriever, [size], k, name, level)[0]
        points.append(point)
        over = over + 1 if point.tokens > target else 0
        size += 1
    return points
