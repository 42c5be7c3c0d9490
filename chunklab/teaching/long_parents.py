"""Notebook 03d's bookkeeping: the questions whose answer crosses a block edge set apart (the
scores without them, and who won among them), a block drawn at random as a floor, one corpus's
questions picked out of the pooled scores, and two views of the sweep: a picture of each paired
comparison against the block's length, and a table of them per corpus.

Kept out of the notebook because it is bookkeeping around the comparisons, not the idea being
tested; the test of which answers cross an edge stays in the notebook, written out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import matplotlib.pyplot as plt
import pandas as pd

from chunklab.chunkers.fixed import FixedSizeChunker
from chunklab.contracts import Chunk, Document
from chunklab.teaching.figures import legend_outside


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


def of_corpus(scores: Sequence[float], asked: Sequence[Any], corpus: str) -> list[float]:
    """The scores of the questions asked of one corpus (`q.corpus`), in the pooled order."""
    return [s for s, q in zip(scores, asked, strict=True) if q.corpus == corpus]


def corpus_table(rows: Mapping[tuple[str, str, int], Any]) -> Any:
    """The per-corpus comparisons (`claims.Comparison`, keyed (retriever, corpus, length)) as a
    table: a row per retriever and corpus, a column per length, each cell "won-lost, mean", and
    the verdict after it where there is one."""

    def cell(c: Any) -> str:
        said = f"{c.won}-{c.lost}, {c.mean_difference:+.1f}"
        return said if c.verdict == "no difference shown" else f"{said}, {c.verdict}"

    table = pd.DataFrame({key: cell(c) for key, c in rows.items()}, index=[0]).T[0]
    return table.unstack(level=2)


def plot_length_sweep(panels: Mapping[str, Mapping[tuple[str, int], Any]], title: str):
    """Paired comparisons against the block's length, one panel per baseline: for each retriever
    (keys (retriever, length)) the mean difference as a dot on a line, its paired interval as a
    bar, coloured by its verdict (green better, red worse, grey no difference shown), with a line
    at 0. The trend a forest plot of the same rows hides in its order."""
    colours = {"better": "tab:green", "worse": "tab:red", "no difference shown": "0.55"}
    fig, axes = plt.subplots(
        1, len(panels), figsize=(max(6.0, 4.2 * len(panels)), 3.6), sharey=True
    )
    axes = [axes] if len(panels) == 1 else list(axes)
    for ax, (baseline, rows) in zip(axes, panels.items(), strict=True):
        names = list(dict.fromkeys(name for name, _ in rows))
        for k, name in enumerate(names):
            sizes = sorted(size for n, size in rows if n == name)
            shift = (k - (len(names) - 1) / 2) * 0.012 * max(sizes)
            xs = [size + shift for size in sizes]
            cs = [rows[name, size] for size in sizes]
            ax.plot(xs, [c.mean_difference for c in cs], "-", color=f"C{k}", label=name)
            for x, c in zip(xs, cs, strict=True):
                ax.plot([x, x], [c.low, c.high], color=colours[c.verdict], linewidth=2.2)
                ax.plot([x], [c.mean_difference], "o", color=colours[c.verdict], mec=f"C{k}")
        ax.axhline(0, color="black", linewidth=0.8)
        if len(panels) > 1:
            ax.set_title(f"against {baseline}", fontsize=9)
        ax.set_xlabel("block length, characters", fontsize=8)
    axes[0].set_ylabel("small-to-big minus the baseline, points", fontsize=8)
    legend_outside(axes[-1])
    fig.suptitle(
        f"{title}\nbar: the paired interval; green: better, red: worse, grey: no difference shown",
        fontsize=9,
    )
    fig.tight_layout()
    return fig
