"""Companion 05c's coding exercise (05c.1): predict, from a document's tables alone, how many rows
`LinearizedChunker` loses at a given size.

Section 1's sweep counts rows lost by cutting at every size, and prints the longest header + row,
the size from which none is lost. Copying that one expression answers "from which size on" and
teaches nothing new. This check asks for the rule behind it, at any size: a header glued to its
row by a newline fits a chunk whole or is cut, row by row, so the rows lost at `size` are those
whose header + newline + row is longer than `size`. It runs the function at many sizes on
documents where the common slips give other counts, and refuses a function that cuts: with a
chunker, or with `pack_lines` on the linearized text.
"""

from __future__ import annotations

from collections.abc import Callable

from chunklab.chunkers import tables
from chunklab.chunkers.fixed import FixedSizeChunker
from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.chunkers.recursive import RecursiveChunker
from chunklab.chunkers.structural import StructuralChunker
from chunklab.chunkers.tables import LinearizedChunker, Table, find_tables
from chunklab.chunkers.tokentext import TokenTextChunker
from chunklab.contracts import Document
from chunklab.documents.series import load_document
from chunklab.teaching.checking import NotYet, run_without, short
from chunklab.tokens.counters import cl100k

# Two tables: the widest header sits over short rows, the longest row under a short header, so
# the widest header + the longest row (from different tables) is not a pair of the document.
CROSSED = (
    "# Crossed\n\n| City | Daily limit for meals and lodging (USD) | Approved by |\n|---|---|---|\n"
    "| Rio | 90 | ops |\n\nText between.\n\n| Item | Note |\n|---|---|\n"
    "| Taxi | Only from the airport to the hotel, with a receipt kept for audit |\n"
)


def _documents() -> dict[str, Document]:
    crossed = Document(doc_id="crossed", uri="urn:crossed", title="Crossed", text=CROSSED)
    policy = {"travel_policy": load_document("travel_policy")}  # first: the exercise's own document
    series = ["work_schedules", "sensitive_code", "manual_md"]
    return {
        **policy,
        "crossed (two tables)": crossed,
        **{name: load_document(name) for name in series},
    }


def _sizes(doc: Document) -> list[int]:
    """Every pair's length, one less, and sizes below and above them all; the slips' own lengths
    too (a pair with its delimiter row, a whole table), so no two slips give the same counts."""
    tables, lines = find_tables(doc.text), doc.text.split("\n")
    lengths = {len(t.header) + 1 + len(r) for t in tables for r in t.rows}
    lengths |= {
        len(t.header) + len(lines[t.delimiter_line]) + len(r) + 2 for t in tables for r in t.rows
    }
    lengths |= {
        len("\n".join(lines[t.header_line : t.row_lines[-1] + 1])) for t in tables if t.rows
    }
    lengths |= {len("\n".join([t.header, *t.rows])) for t in tables if t.rows}
    lengths |= {len(lines[t.header_line]) + 1 + len(lines[k]) for t in tables for k in t.row_lines}
    return sorted({10, 60, 300} | lengths | {n - 1 for n in lengths})


def _counts(doc: Document) -> dict[str, Callable[[int], int]]:
    """The rule (first, as "right") and the counts the common slips give, each keyed by its hint."""
    tables = [t for t in find_tables(doc.text) if t.rows]
    pairs = [(t, row) for t in tables for row in t.rows]  # each row with its own table
    lines = doc.text.split("\n")
    widest = max(len(t.header) for t in tables)

    def pair(t: Table, r: str) -> int:
        return len(t.header) + 1 + len(r)

    def longer(length: Callable[[Table, str], int], among: list = pairs) -> Callable[[int], int]:
        return lambda size: sum(length(t, r) > size for t, r in among)

    def whole(t: Table) -> int:
        return len("\n".join(lines[t.header_line : t.row_lines[-1] + 1]))

    return {
        "right": longer(pair),
        "that is the safe size, one number whatever the size: at `size`, count the rows whose "
        "header + newline + row is longer than `size` (such a pair is cut; a shorter one fits "
        "whole)": lambda size: max(pair(t, r) for t, r in pairs),
        "those are the rows kept: count the rows not kept whole beside their header": (
            lambda size: sum(pair(t, r) <= size for t, r in pairs)
        ),
        "one too many, or >=: a pair exactly `size` long fits whole (header, one newline, row, "
        "nothing after it); count those longer than `size`": (
            lambda size: sum(pair(t, r) >= size for t, r in pairs)
        ),
        "a whole table: the chunk needs one row and its header, not every row": (
            lambda size: sum(len(t.rows) for t in tables if whole(t) > size)
        ),
        "a whole table, less its delimiter row: the chunk needs one row and its header, not every "
        "row": lambda size: sum(
            len(t.rows) for t in tables if len("\n".join([t.header, *t.rows])) > size
        ),
        "a table's longest row: one row too long for the size loses that row only; count row by "
        "row, each with its own header + newline + row": (
            lambda size: sum(len(t.rows) for t in tables if max(pair(t, r) for r in t.rows) > size)
        ),
        "you read only the first table: count the rows of every table of the document": longer(
            pair, [(tables[0], r) for r in tables[0].rows]
        ),
        "the widest header + each row: pair each row with its own table's header": longer(
            lambda t, r: widest + 1 + len(r)
        ),
        "the row alone: the chunk holds its header too, glued to it by a newline": longer(
            lambda t, r: len(r)
        ),
        "off by one: header, newline, row; count the newline": longer(
            lambda t, r: len(t.header) + len(r)
        ),
        "the linearized text has no delimiter row: each row sits under its header alone": longer(
            lambda t, r: pair(t, r) + 1 + len(lines[t.delimiter_line])
        ),
        **_measured_otherwise(tables, lines),
    }


def _measured_otherwise(tables: list[Table], lines: list[str]) -> dict[str, Callable[[int], int]]:
    """The counts of two more slips: each pair measured in the page's own lines, or in tokens."""
    as_written = [
        len(lines[t.header_line]) + 1 + len(lines[k]) for t in tables for k in t.row_lines
    ]
    in_tokens = [cl100k(t.header + "\n" + r) for t in tables for r in t.rows]
    return {
        "the page's lines as written, spaces and all: the linearized text holds Table.header and "
        "Table.rows, stripped as find_tables reads them": (
            lambda size: sum(n > size for n in as_written)
        ),
        "tokens: LinearizedChunker's size counts characters": (
            lambda size: sum(n > size for n in in_tokens)
        ),
    }


# Every way to cut: the chunkers' `split`, and `pack_line_pieces`, under `pack_lines` and
# `LinearizedChunker` (a learner may import `pack_lines` and cut the linearized text by hand).
CUTTERS = [
    tables.pack_line_pieces,
    *(
        chunker.split
        for chunker in (
            LinearizedChunker,
            FixedSizeChunker,
            StructuralChunker,
            MarkdownChunker,
            RecursiveChunker,
            TokenTextChunker,
        )
    ),
]
REFUSE_CUTTING = (
    "rows_lost cut the document (it called {name}): predict the count from find_tables(doc.text) "
    "alone, without a chunker or pack_lines (a sweep answers one document at one size; the rule "
    "answers any)"
)


def _one_document(fn: Callable, name: str, doc: Document) -> int:
    """The learner's counts at every probed size of `doc`; a wrong one named by the slip whose
    counts match the learner's at every size."""
    sizes = _sizes(doc)
    got = [run_without(fn, (doc, size), CUTTERS, REFUSE_CUTTING) for size in sizes]
    for size, n in zip(sizes, got, strict=True):
        if isinstance(n, bool) or not isinstance(n, int):
            raise NotYet(f"on {name} at size {size}: expected an int, got {short(n)}")
    counts = _counts(doc)
    right = [counts["right"](size) for size in sizes]
    if got != right:
        at = next(i for i, (g, r) in enumerate(zip(got, right, strict=True)) if g != r)
        hint = next(
            (h for h, f in counts.items() if h != "right" and [f(s) for s in sizes] == got),
            "a row is lost when its header + newline + row is longer than `size`",
        )
        raise NotYet(f"on {name} at size {sizes[at]}: got {got[at]}, expected {right[at]} ({hint})")
    return len(sizes)


def check_rows_lost(fn: Callable) -> int:
    """05c.1: `rows_lost(doc, size)` equals the count of pairs longer than `size`, cutting none."""
    return sum(_one_document(fn, name, doc) for name, doc in _documents().items())


CHECKS_SAFE_SIZE = {"05c.1": ("rows_lost(doc, size) -> int", check_rows_lost)}
