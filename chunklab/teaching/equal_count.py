"""Notebook 02c's equal-chunk-count baseline: a cut against every fixed window that cuts the page
into as many chunks, under one or more heading tests.

Why a module: grouping the sizes by the chunk count they give, for the cut and for the windows,
is bookkeeping; the notebook keeps the tests, the table and the claims in view.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from chunklab.teaching.report import runs


def span(values: Iterable[int]) -> str:
    """`'4'` when all values are equal, else `'fewest-most'`."""
    values = list(values)
    low, high = min(values), max(values)
    return f"{low}" if low == high else f"{low}-{high}"


def equal_count_table(
    cut_at: Mapping[str, Mapping[int, Sequence[Any]]],
    fixed: Callable[[int], Sequence[Any]],
    fixed_sizes: Iterable[int],
    tests: Mapping[str, Callable[[Sequence[Any]], int]],
    known: dict[tuple[str, int, str], int] | None = None,
) -> Any:
    """One row per (cut, chunk count) a cut in `cut_at` makes over its sizes.

    Columns: the sizes where it makes that many chunks, how many windows (`fixed_sizes`) cut the
    page into as many (`n windows`), then per test `t` (its name a column suffix): the cut's
    fewest-most headings apart there (`apart t`) and the windows' (`windows apart t`), with the
    numbers behind them (`most t`: the cut's most; `fewest t`: the windows' fewest; `cut low t`,
    `windows high t`).

    `known`, a dict kept by the caller, holds the cut's scores by (cut, size, test), so a second
    table of the same cuts against other windows does not score the cuts again.
    """
    import pandas as pd

    windows: dict[int, list[Sequence[Any]]] = {}
    for size in fixed_sizes:
        chunks = fixed(size)
        windows.setdefault(len(chunks), []).append(chunks)
    rows = []
    scored: dict[tuple[int, str], list[int]] = {}  # the windows' apart, once per count and test
    for name, at in cut_at.items():
        by_count: dict[int, list[int]] = {}
        for size, chunks in at.items():
            by_count.setdefault(len(chunks), []).append(size)
        for k, sizes in sorted(by_count.items()):
            row: dict[str, Any] = {"cut": name, "chunks": k, "at sizes": runs(sizes)}
            row["n windows"] = len(windows.get(k, []))
            for t, apart in tests.items():
                mine = [_score(known, (name, n, t), apart, at[n]) for n in sizes]
                if (k, t) not in scored:
                    scored[k, t] = [apart(w) for w in windows.get(k, [])]
                theirs = scored[k, t]
                row[f"apart{t}"], row[f"windows apart{t}"] = span(mine), span(theirs)
                row[f"most{t}"], row[f"cut low{t}"] = max(mine), min(mine)
                row[f"fewest{t}"], row[f"windows high{t}"] = min(theirs), max(theirs)
            rows.append(row)
    return pd.DataFrame(rows).set_index(["cut", "chunks"])


def _score(
    known: dict[tuple[str, int, str], int] | None,
    key: tuple[str, int, str],
    apart: Callable[[Sequence[Any]], int],
    chunks: Sequence[Any],
) -> int:
    if known is None:
        return apart(chunks)
    if key not in known:
        known[key] = apart(chunks)
    return known[key]


def shown(table: Any) -> Any:
    """The table as printed: the sizes and the fewest-most columns, not the numbers behind them."""
    return table[
        [c for c in table.columns if c.startswith(("at ", "n ", "apart", "windows apart"))]
    ]


def fewer_everywhere(table: Any, cut: str, t: str = "") -> bool:
    """At every chunk count `cut` makes, its most headings apart is below every window's fewest."""
    rows = table.loc[cut]
    return bool((rows[f"most{t}"] < rows[f"fewest{t}"]).all())


def overall(table: Any, cut: str, t: str = "") -> str:
    """`'4-6 apart, fixed 8-15'`: the cut's and the windows' range over all its chunk counts."""
    rows = table.loc[cut]
    mine = span([rows[f"cut low{t}"].min(), rows[f"most{t}"].max()])
    return f"{mine} apart, fixed {span([rows[f'fewest{t}'].min(), rows[f'windows high{t}'].max()])}"
