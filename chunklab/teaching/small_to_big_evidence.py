"""Notebook 03's evidence on the series' 43 questions, kept out of its cells: the tables of means
and the paired comparisons, each read at the level the notebook names for its family.

The loops that score the questions stay in the notebook (they are the lesson); what is here is
the bookkeeping around them: a mean per column, and one `compare` per pair with its labels.
Every function takes a dict keyed by retriever name, as the notebook builds it.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from chunklab.teaching.claims import Comparison, compare

Scores = Sequence[float]


def _mean(values: Scores, scale: float = 1.0) -> float:
    return scale * sum(values) / len(values)


def series_table(
    series: dict[str, tuple[Scores, Scores]], tokens: dict[str, tuple[Scores, Scores]]
) -> pd.DataFrame:
    """Per retriever: fact recall (points) of the sections searched directly and of small-to-big,
    then the mean tokens each hands over. `series[name]` and `tokens[name]` are (direct, s2b)."""
    return pd.DataFrame(
        {
            "sections searched directly": {n: _mean(d, 100) for n, (d, _) in series.items()},
            "small-to-big": {n: _mean(s, 100) for n, (_, s) in series.items()},
            "tokens, directly": {n: _mean(d) for n, (d, _) in tokens.items()},
            "tokens, small-to-big": {n: _mean(s) for n, (_, s) in tokens.items()},
        }
    ).round(1)


def against_sections(
    series: dict[str, tuple[Scores, Scores]], level: float
) -> dict[str, Comparison]:
    """Each retriever's small-to-big paired with the same retriever searching the sections."""
    return {
        name: compare(
            s, d, a=f"small-to-big ({name}, k=1)", b="sections searched directly", level=level
        )
        for name, (d, s) in series.items()
    }


def best_against_best(series: dict[str, tuple[Scores, Scores]]) -> Comparison:
    """The best small-to-big against the best way of searching the sections directly: one pair
    picked among n x n, so read at 0.05 / (n x n)."""
    picks = [(d, s) for d in series for s in series]
    top_direct, top_s2b = (max(series, key=lambda n: sum(series[n][i])) for i in (0, 1))
    return compare(
        series[top_s2b][1],
        series[top_direct][0],
        a=f"small-to-big ({top_s2b}, k=1)",
        b=f"{top_direct} on the sections directly",
        level=100 - 5 / len(picks),
    )


def feeding_table(fed: dict[str, tuple[Scores, Scores, Sequence[tuple[int, int]]]]) -> pd.DataFrame:
    """Per retriever: fact recall (points) of small-to-big's section and of the children alone in
    at most its tokens, the mean tokens of each, and on how many questions the children ran out."""
    return (
        pd.DataFrame(
            [
                {
                    "retriever": name,
                    "small-to-big (points)": _mean(s, 100),
                    "children alone (points)": _mean(a, 100),
                    "section tokens (mean)": _mean([t[0] for t in n]),
                    "children tokens (mean)": _mean([t[1] for t in n]),
                    "questions where they run out": sum(t[1] < t[0] for t in n),
                }
                for name, (s, a, n) in fed.items()
            ]
        )
        .set_index("retriever")
        .round(1)
    )


def against_own_children(
    fed: dict[str, tuple[Scores, Scores, Sequence[tuple[int, int]]]], level: float
) -> dict[str, Comparison]:
    """Each retriever's small-to-big paired with its own children alone in the section's tokens."""
    return {
        name: compare(
            s,
            a,
            a=f"small-to-big ({name}, k=1)",
            b="its children alone, within the section's tokens",
            level=level,
        )
        for name, (s, a, _) in fed.items()
    }
