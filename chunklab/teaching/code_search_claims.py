"""Tables for the code-search companions' claims.

`verdict_table` lays every comparison of a family out as one small table, won/lost and its
verdict; ``drawn`` maps ``(measure, other cut, retriever)`` to every comparison of the family.
`per_200_characters` counts words, cl100k tokens and MiniLM word pieces per 200 characters of a
text, as one table (the notebook states its claim on it in the cell).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pandas as pd

from chunklab.teaching.claims import Comparison
from chunklab.tokens.counters import cl100k

Drawn = Mapping[tuple[str, str, str], Comparison]


def per_200_characters(texts: Mapping[str, str], pieces: Callable[[str], int]) -> pd.DataFrame:
    """Words (runs of non-blank characters), cl100k tokens and MiniLM word pieces (``pieces``:
    a text's count, markers left out) per 200 characters of each text, one row per text."""
    return pd.DataFrame(
        {
            label: {
                "words": 200 * len(text.split()) / len(text),
                "cl100k tokens": 200 * cl100k(text) / len(text),
                "MiniLM word pieces": 200 * pieces(text) / len(text),
            }
            for label, text in texts.items()
        }
    ).T.round(1)


def verdict_table(drawn: Drawn) -> pd.DataFrame:
    """Every comparison drawn, one row per measure and other cut, one column per retriever:
    won/lost and the verdict at the level it was drawn ("none": no difference shown; "-": not
    drawn)."""

    def cell(key: tuple[str, str, str]) -> str:
        c = drawn[key]
        return f"{c.won}/{c.lost}: {c.verdict.replace('no difference shown', 'none')}"

    rows: dict[tuple[str, str], dict[str, str]] = {}
    for measure, other, r in drawn:
        rows.setdefault((measure, other), {})[r] = cell((measure, other, r))
    table = pd.DataFrame(rows).T.fillna("-")
    table.index.names = ["measure", "chunklab code against"]
    return table
