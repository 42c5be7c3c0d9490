"""How big the chunks of each cut of code are, and why a chunk passes its budget.

The code-search experiment cuts the same files many ways at one budget in cl100k tokens; before
any retrieval, a reader should see what each cut made: how many chunks, how many pass the
budget, and how many pass MiniLM's read limit, which drops the rest of a chunk it embeds (a
function in such a chunk is ranked by a beginning that may not be it). `cut_sizes` is that table;
`over_budget` says, for one cut, which chunks pass the budget and why.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from chunklab.teaching.code_search import Piece
from chunklab.tokens.counters import cl100k

READ_LIMIT = 256  # MiniLM's word pieces, [CLS] and [SEP] included: it drops the rest of a chunk


def cut_sizes(
    cuts: dict[str, list[Piece]],
    questions: Sequence[Any],
    budget: int,
    count_pieces: Callable[[str], int],
) -> pd.DataFrame:
    """One row per cut: its chunks, how many pass the `budget` (cl100k tokens), the largest and
    the mean, how many pass MiniLM's read limit (`count_pieces`: a text's MiniLM pieces, markers
    included), and how many questions' functions lie, wholly or in part, in such a chunk."""

    def cut_off(p: list[Piece], q: Any) -> bool:
        return any(
            x.uri == q.uri
            and x.start < q.end
            and x.end > q.start
            and count_pieces(x.text) > READ_LIMIT
            for x in p
        )

    rows = {
        label: {
            "chunks": len(p),
            "over the budget": sum(cl100k(x.text) > budget for x in p),
            "largest (tokens)": max(cl100k(x.text) for x in p),
            "mean (tokens)": float(np.round(np.mean([cl100k(x.text) for x in p]), 1)),
            f"over MiniLM's {READ_LIMIT}": sum(count_pieces(x.text) > READ_LIMIT for x in p),
            "gold in a cut-off chunk": sum(cut_off(p, q) for q in questions),
        }
        for label, p in cuts.items()
    }
    table = pd.DataFrame(rows).T
    return table.astype({c: int for c in table.columns if c != "mean (tokens)"})  # counts


def over_budget(cut: list[Piece], files: dict[str, str], budget: int) -> list[str]:
    """Each chunk of `cut` over the `budget`, and why: one string literal, one statement holding
    one, or code; its lines, its breadcrumb and the line it starts in; and the chunk just before
    it when that one is short (under 60 characters: the start of a statement the chunk was split
    from)."""
    lines = []
    for before, x in zip(cut, cut[1:], strict=False):
        if cl100k(x.text) <= budget:
            continue
        body = x.text.split("\n\n", 1)[1]  # the chunk's text after its breadcrumb
        node = ast.parse(textwrap.dedent(body)).body
        one_string = (
            len(node) == 1
            and isinstance(node[0], ast.Expr)
            and isinstance(node[0].value, ast.Constant)
        )
        holds_string = len(node) == 1 and any(
            isinstance(n, ast.Constant) and isinstance(n.value, str) for n in ast.walk(node[0])
        )
        source = files[x.uri]
        first = source.count("\n", 0, x.start)  # the line the chunk starts in, counted from 0
        kind = (
            "one string literal"
            if one_string
            else "one statement holding a string literal"
            if holds_string
            else "code"
        )
        crumb = x.text.split("\n", 1)[0]
        lines.append(
            f"  {x.uri} lines {first + 1}-{source.count(chr(10), 0, x.end) + 1}: "
            f"{cl100k(x.text)} tokens, {kind}, breadcrumb {crumb!r}, "
            f"starts in the line {source.splitlines()[first].strip()[:45]!r}"
        )
        if before.uri == x.uri and before.end - before.start < 60:
            lines.append(
                f"    the chunk before it: {source[before.start : before.end]!r}, "
                f"{cl100k(before.text)} tokens with its breadcrumb"
            )
    return lines
