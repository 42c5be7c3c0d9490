"""Notebook 05's coding exercise checks: a table row written as `column: value` pairs (05.1), and
every table of a page linearized, outer pipes or not (05.2).

Kept in a module of its own so notebook 05's cases can grow without pushing `teaching.exercises`
past its size. The cases are the rows a naive `row.split("|")` gets wrong, as GitHub Flavored
Markdown reads them: an escaped pipe `\\|` is text inside its cell, not a column boundary; an
empty cell is still a column (its value is empty, and the columns after it keep their names); the
outer pipes of a row are optional. The answer is judged by what it must hold (each pair, in
column order, with any separator between pairs that holds no letter, digit or pipe), never by
its exact spelling.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from chunklab.chunkers import tables
from chunklab.chunkers.tables import find_tables
from chunklab.documents.series import load_document
from chunklab.parsing.blocks import split_cells  # the skill 05.1 asks for, done for the learner
from chunklab.teaching.checking import NotYet, run_without, short

SEPARATORS = " \t\n;,."

NAMES = ["Measure", "Unit", "Limit", "Action", "City", "Daily limit (USD)", "Owner", "Due"]
VALUES = ["Vibration", "mm/s", "4,5", "Stop the machine", "Tokyo", "90", "ops", "2026-03-01"]
ESCAPED = ["`a \\| b`", "on \\| off", "yes \\| no"]  # each holds GFM's escaped pipe


def _case(rng: random.Random, k: int) -> tuple[str, str, list[str], list[str], str]:
    """(header, row, header cells, row cells, what is tricky about it) for case k."""
    columns = rng.sample(NAMES, rng.randint(2, 5))
    values = [rng.choice(VALUES) for _ in columns]
    kind = ["escaped", "empty", "no outer pipes", "plain"][k % 4]
    if kind == "escaped":
        values[rng.randrange(len(values))] = rng.choice(ESCAPED)
    elif kind == "empty":
        values[rng.randrange(len(values) - 1)] = ""  # never the last: a trailing "| |" is plain
    outer = kind != "no outer pipes"
    header = " | ".join(columns)
    row = " | ".join(v if v else " " for v in values)
    if outer:
        header, row = f"| {header} |", f"| {row} |"
    return header, row, columns, values, kind


HINTS = {
    "trailing escaped": "this row ends in an escaped pipe \\| and has no outer pipes: strip('|') "
    "takes that pipe too and leaves a lone backslash; remove an outer pipe only when unescaped",
    "escaped": "this row has an escaped pipe \\| : it is text inside its cell, not a column "
    "boundary, so it does not start a new column",
    "empty": "this row has an empty cell: it is still a column, with an empty value, and the "
    "columns after it keep their own names",
    "no outer pipes": "this table has no outer pipes (GFM allows it): the first and last cells "
    "are still cells",
    "plain": "each value goes with the column name above it, in column order",
    "one outer pipe": "this line has an outer pipe on one side only (GFM allows it): drop the "
    "empty piece that pipe leaves on its own side, and keep the cell at the other end",
}


# A pipe left between the pairs (a " | " separator, or the row's outer pipes kept) reads as a
# column boundary again: the slip is the pipe, whatever the row's cells hold.
PIPE_LEFT = "a column pipe is left"
PIPE_HINT = (
    "no column pipe may be left: a pipe between pairs, or an outer pipe kept, reads as a column "
    "boundary again; separate the pairs with '; ', ', ' or a space"
)


# Cells split on the pipes keep the spaces around them: " Measure " written as "Measure :" .
UNSTRIPPED = "a column name keeps its spaces"
UNSTRIPPED_HINT = (
    "the cells still carry the spaces around them (' Measure ' gives 'Measure :'): strip each "
    "cell after splitting the row on its pipes"
)


# A dict's repr, or names written in quotes: "'Measure': 'Vibration'" holds no `Measure:`.
QUOTED = "a column name is written in quotes"
QUOTED_HINT = (
    "the column name is written with quotes before its colon ('Measure': ..., as str(dict(...)) "
    "prints it): write each pair as plain text, Measure: Vibration"
)

# The empty pieces an outer pipe leaves, kept as cells: ": ; Measure: Vibration; ...; : ".
EMPTY_NAME_HINT = (
    "a pair has no column name: an outer pipe leaves an empty piece before the first cell or "
    "after the last; drop that piece (it is no column), and only that one"
)

# Pairs run together: "Measure:VibrationUnit:mm/s" leaves no mark where a value ends.
RUN_TOGETHER = "two pairs run together"
RUN_TOGETHER_HINT = (
    "nothing separates one pair from the next, so a value runs into the next column's name: "
    "put '; ', ', ', a space or a newline between the pairs"
)


def _accepted(value: str) -> set[str]:
    """The spellings of a cell's value that count as right: an escaped pipe as written or as |."""
    return {value, value.replace("\\|", "|")}


def _separator_ok(text: str) -> bool:
    """A separator between pairs, as the prompt allows: any text with no letter, digit or pipe
    (and no colon, which would start a pair with no column name)."""
    return "|" not in text and ":" not in text and not any(ch.isalnum() for ch in text)


def _judge(got: str, columns: list[str], values: list[str]) -> str | None:
    """What is wrong with `got` for these pairs (None when nothing is). The pairs are read back by
    the column names, in order: each value must be the text right after its `name:`, followed
    only by a separator (no letter, digit, pipe or colon: '; ', ' / ', ' - ', a newline)."""
    at, spans = 0, []
    for name in columns:
        found = got.find(f"{name}:", at)
        if found < 0 and re.search(rf"{re.escape(name)}\s+:", got[at:]):
            return UNSTRIPPED
        if found < 0 and re.search(rf"""['"]{re.escape(name)}['"]\s*:""", got[at:]):
            return QUOTED
        if found < 0:
            return f"{name + ':'!r} is missing (or out of order)"
        spans.append((found, found + len(name) + 1))
        at = found + len(name) + 1
    ends = [start for start, _ in spans[1:]] + [len(got)]
    for (name, value), (_, value_start), end in zip(
        zip(columns, values, strict=True), spans, ends, strict=True
    ):
        body = got[value_start:end].lstrip()
        spellings = sorted(_accepted(value), key=len, reverse=True)
        spelling = next((v for v in spellings if body.startswith(v)), None)
        written = body.strip(SEPARATORS)
        if spelling is None and body.lstrip(SEPARATORS + "|").startswith(tuple(spellings)):
            return PIPE_LEFT
        if spelling is None or any(ch.isalnum() for ch in body[len(spelling) :]):
            return f"column {name!r} should hold {value!r}, got {written!r}"
        separator = body[len(spelling) :]
        if "|" in separator:
            return PIPE_LEFT
        if not _separator_ok(separator):
            return f"column {name!r} should hold {value!r}, got {written!r}"
        if end < len(got) and not separator and (spelling or not got[value_start:end]):
            return RUN_TOGETHER  # an empty value's separator is the space after its colon
    leftover = got
    for value in values:
        for spelling in _accepted(value):
            leftover = leftover.replace(spelling, "")
    if "|" in leftover:
        return PIPE_LEFT
    return None


LIBRARY_SPLIT_HINT = (
    "column_value calls the library's {name}, which does the very splitting this exercise asks "
    "you to write: split each line on its unescaped pipes yourself"
)


def check_column_value(fn: Callable) -> int:
    """05.1: `column_value(header, row)` on rows with escaped pipes, empty cells, no outer pipes."""
    rng, cases = random.Random(5), 0
    # Plain rows first, so a hint about an escaped pipe or an empty cell is only given to an
    # answer that already gets plain rows right.
    order = ["plain", "no outer pipes", "empty", "escaped"]
    every = sorted((_case(rng, k) for k in range(32)), key=lambda case: order.index(case[4]))
    every += [  # the two edges random rows rarely hit: a trailing empty cell, a trailing \|
        ("| A | B |", "| x |  |", ["A", "B"], ["x", ""], "empty"),
        ("A | B", "x | y \\|", ["A", "B"], ["x", "y \\|"], "trailing escaped"),
        ("| A | B", "| x | y", ["A", "B"], ["x", "y"], "one outer pipe"),  # outer pipes unpaired
        ("A | B |", "x | y |", ["A", "B"], ["x", "y"], "one outer pipe"),
    ]
    for header, row, columns, values, kind in every:
        # The library's split_cells is watched while the learner's function runs, however it is
        # reached (a module attribute, find_tables' Table.cells, a helper, a default argument).
        got = run_without(fn, (header, row), split_cells, LIBRARY_SPLIT_HINT)
        if not isinstance(got, str):
            raise NotYet(f"expected a string, got {short(got)}")
        wrong = _judge(got, columns, values)
        if wrong:
            slips = {PIPE_LEFT: PIPE_HINT, UNSTRIPPED: UNSTRIPPED_HINT, QUOTED: QUOTED_HINT}
            hint = (slips | {RUN_TOGETHER: RUN_TOGETHER_HINT}).get(wrong, HINTS[kind])
            if re.search(r"(?:^|[;,\n])\s*:", got):  # a pair with no column name
                hint = EMPTY_NAME_HINT
            raise NotYet(f"header {header!r}, row {row!r}: {wrong} in {got!r} ({hint})")
        cases += 1
    return cases


# 05.2: linearize every table a reader sees, outer pipes or not, each row under its own header.
PAGES = [
    "# Plans\n\nIntro.\n\nPlan | Price\n--- | ---\nBasic | 10\nPro | 20\n\nMore text.\n"
    "| Region | Daily limit |\n|:--|--:|\n| North | 90 |\n| South | 75 |\n| East | 60 |\n"
    "A line after.",
    "| Measure | Limit |\n|---|---|\n| Noise | 92 |\n\n| Owner | Due |\n|---|---|\n| ops | May |\n"
    "| dev | June |\n\n| Empty | Table |\n|---|---|\n\nEnd | of text, no table",
    "Indented, as a list item holds it:\n\n   | Step | Who |\n   |---|---|\n   | Check | ops |  \n"
    "   | Sign | lead |\nDone.",
]


def linearized_with_slip(text: str, slip: str = "") -> str:
    """`text` linearized from `find_tables`, or as one named slip does it."""
    lines, out, k = text.split("\n"), [], 0
    tables = {t.header_line: t for t in find_tables(text)}
    first = min(tables.values(), key=lambda t: t.header_line)
    while k < len(lines):
        t = tables.get(k)
        if t is None or (slip == "pipe" and not lines[k].startswith("|")):
            out.append(lines[k])
            k += 1
            continue
        header = first.header if slip == "first" else t.header  # stripped, as find_tables reads it
        delimiter = [lines[t.delimiter_line]] if slip == "delimiter" else []
        rows = list(t.rows)
        if slip == "raw":  # the lines as the page writes them, spaces and all
            header, rows = lines[k], [lines[n] for n in t.row_lines]
        if slip == "once":
            out += [header, *delimiter, *rows]
        elif not rows:
            out += [] if slip == "empty" else [header, *delimiter]
        else:
            out += [header] * (slip == "twice") + delimiter
            pairs = [(row, header) if slip == "after" else (header, row) for row in rows]
            out += [x for pair in pairs for x in pair]
        last = t.delimiter_line if slip == "resume" else (t.row_lines or (t.delimiter_line,))[-1]
        k = last + 1
    return "\n".join(out)


LINEARIZE_SLIPS = {
    "pipe": "a table without outer pipes (`Plan | Price`) is a table too: find each table with "
    "find_tables(text), not by a leading pipe",
    "delimiter": "drop the delimiter row (`|---|---|`): once each row carries its header, nothing "
    "renders the table",
    "once": "write the header before every data row, not once above the table",
    "twice": "the header line is not kept on its own as well: each row gets it once, right above",
    "empty": "a table with no data rows keeps its header line; only its delimiter row goes",
    "first": "each row gets its own table's header, not the first table's",
    "after": "the header goes before its row, not after it: header, row, header, row",
    "raw": "write the header and rows as find_tables reads them (Table.header, Table.rows, each "
    "stripped), not the page's lines with their spaces",
    "resume": "after a table, carry on from the line after its last row (Table.row_lines), not "
    "after its delimiter row: the rows are written a second time, as the page has them",
}


def check_linearize_any(fn: Callable) -> int:
    """05.2: `linearize_any(text)` gives `linearize_tables(text)` on pages whose tables have no
    outer pipes, several tables, no data rows or indented lines, without calling the library's
    linearizer."""
    cases = 0
    series = ("manual", "work_schedules", "travel_policy", "sensitive_code")
    for page in [*PAGES, *(load_document(name).text for name in series)]:
        got = run_without(
            fn,
            (page,),
            [tables.linearize_tables, tables.linearized_lines],
            "linearize_any called {name}: write the linearizing yourself (find_tables may find "
            "the tables)",
        )
        if not isinstance(got, str):
            raise NotYet(f"expected a string, got {short(got)}")
        right = tables.linearize_tables(page)
        if got != right:
            hint = next(
                (h for s, h in LINEARIZE_SLIPS.items() if got == linearized_with_slip(page, s)), ""
            )
            wrong = next(
                (
                    i
                    for i, (g, r) in enumerate(
                        zip(got.split("\n"), right.split("\n"), strict=False)
                    )
                    if g != r
                ),
                min(len(got.split("\n")), len(right.split("\n"))),
            )
            expected = (right.split("\n") + ["(no line)"])[wrong]
            raise NotYet(
                f"on the page starting {page[:20]!r}, line {wrong}: expected {expected!r}"
                + (f" ({hint})" if hint else "")
            )
        cases += 1
    return cases
