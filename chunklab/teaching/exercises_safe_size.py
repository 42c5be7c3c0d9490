"""Notebook 05's second coding exercise: predict, from a document's tables alone, the size from
which on `LinearizedChunker` keeps every row whole beside its header.

Section 4's sweep finds that size by cutting at every size; re-running the sweep on another
document answers a question about one document and teaches nothing new. This check asks for the
rule itself, as code that cuts nothing (the longest header + newline + row, each row with its own
table's header), and runs it on documents where the common slips give other numbers.
"""

from __future__ import annotations

from collections.abc import Callable

from chunklab.chunkers.fixed import FixedSizeChunker
from chunklab.chunkers.tables import LinearizedChunker, find_tables
from chunklab.contracts import Document
from chunklab.documents.series import load_document
from chunklab.teaching.checking import NotYet, short
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


def _slips(doc: Document) -> dict[int, str]:
    """The numbers the common slips give on `doc`, and what each slip is."""
    tables = [t for t in find_tables(doc.text) if t.rows]
    pairs = [(t.header, row) for t in tables for row in t.rows]
    lines = doc.text.split("\n")
    return {  # the whole table first: a slip below that gives the same number names itself
        max(len("\n".join(lines[t.header_line : t.row_lines[-1] + 1])) for t in tables): "a whole "
        "table: the chunk needs one row and its header, not every row",
        max(len(tables[0].header) + 1 + len(r) for r in tables[0].rows): "you read only the "
        "first table: take the longest header + newline + row over every table of the document",
        max(len(t.header) for t in tables) + 1 + max(len(r) for _, r in pairs): "the widest "
        "header + the longest row, from two tables: pair each row with its own table's header",
        max(len(r) for _, r in pairs): "the longest row alone: the chunk holds its header too, "
        "glued to it by a newline",
        max(
            len(h) + len(r) for h, r in pairs
        ): "off by one: header, newline, row; count the newline",
        max(
            len(h) + 2 + len(r) for h, r in pairs
        ): "one too many: header, one newline, row; nothing follows the row in its chunk",
        max(
            len(t.header) + len(lines[t.delimiter_line]) + len(r) + 2
            for t in tables
            for r in t.rows
        ): "the linearized text has no delimiter row: each row sits under its header alone",
        max(
            cl100k(h + "\n" + r) for h, r in pairs
        ): "tokens: LinearizedChunker's size counts characters",
    }


def _refuse_cutting(self: object, doc: Document) -> list:
    raise NotYet(
        "safe_size cut the document: predict the size from find_tables(doc.text) alone, "
        "without a chunker (a sweep answers one document; the rule answers any)"
    )


def check_safe_size(fn: Callable) -> int:
    """05.2: `safe_size(doc)` equals the longest header + 1 + row on each document, cutting none."""
    cases = 0
    saved = LinearizedChunker.split, FixedSizeChunker.split
    setattr(LinearizedChunker, "split", _refuse_cutting)  # noqa: B010 (a learner's cut is refused)
    setattr(FixedSizeChunker, "split", _refuse_cutting)  # noqa: B010
    try:
        for name, doc in _documents().items():
            got = fn(doc)
            pairs = [(t.header, r) for t in find_tables(doc.text) for r in t.rows]
            right = max(len(h) + 1 + len(r) for h, r in pairs)
            if isinstance(got, bool) or not isinstance(got, int):
                raise NotYet(f"on {name}: expected an int, got {short(got)}")
            if got != right:
                hint = _slips(doc).get(got, "the size is the longest header + newline + row")
                raise NotYet(f"on {name}: got {got}, expected {right} ({hint})")
            cases += 1
    finally:
        setattr(LinearizedChunker, "split", saved[0])  # noqa: B010
        setattr(FixedSizeChunker, "split", saved[1])  # noqa: B010
    return cases


CHECKS_SAFE_SIZE = {"05.2": ("safe_size(doc) -> int", check_safe_size)}
