"""Exercise 08.2's check: a table printed without a grid, found from a bold header's columns.

Notebook 08, section 4, writes the converter's rule (`pdf_grid.aligned_tables`) for a table
without rules: the header is the first line set in bold whose words stand apart in two groups or
more, the columns part halfway across each gap between the header's cells, and each word of a row
goes to the column its left edge falls in. A simpler rule, each word to the nearest column start,
misreads numbers set flush right under a wide header; the section shows it. The exercise asks for
the converter's column rule with thresholds in points, since these pages carry no font size (a
cell ends at a gap of 6 points or more; the rows end at the first line farther below the one
above than 1.4 times the header's distance to the first row), plus one thing the notebook's page
did not need, so that its cells copied out do not pass: a cell whose text wraps onto a second
line, whose first column is then empty, goes on in the row above. The check runs it on pages built
here, none of them the notebook's, each set up so that one predictable slip gives another table.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from typing import Any

from chunklab.documents.pdf_grid import aligned_tables
from chunklab.teaching.checking import NotYet, run_without, short

CHAR, SPACE = 5.0, 3.0  # a word's width per character, the space between two words of a cell


def _words(lines: list[tuple[float, list[tuple[float, str]], bool | list[bool]]]) -> list[dict]:
    """A page's words from (top, [(x0, cell text), ...], bold) lines; `bold` may be per cell."""
    words = []
    for top, cells, bold in lines:
        for i, (x0, text) in enumerate(cells):
            x = x0
            for word in text.split():
                heavy = bold[i] if isinstance(bold, list) else bold
                words.append(
                    {"text": word, "x0": x, "x1": x + CHAR * len(word), "top": top, "bold": heavy}
                )
                x += CHAR * len(word) + SPACE
    return words


def bold_table(words: list[dict], **slip: Any) -> list[list[str]]:
    """The rule, right by default; each keyword turns one predictable slip on."""
    lines: dict[float, list[dict]] = {}
    for w in words:
        lines.setdefault(w["top"], []).append(w)
    tops = sorted(lines)
    gap = 0.01 if slip.get("every_space") else 5 if slip.get("under_six") else 6

    def cells(line: list[dict]) -> list[list[dict]]:
        groups = [[line[0]]]
        for before, w in zip(line, line[1:], strict=False):
            apart = w["x0"] - before["x1"]
            joined = apart <= gap if slip.get("over_six") else apart < gap
            (groups[-1].append(w) if joined else groups.append([w]))
        return groups

    def is_header(line: list[dict]) -> bool:
        bold = (
            any(w["bold"] for w in line) if slip.get("any_bold") else all(w["bold"] for w in line)
        )
        return bold and (slip.get("one_cell") or len(cells(line)) > 1)

    at = next(
        (i for i, t in enumerate(tops) if is_header(sorted(lines[t], key=lambda w: w["x0"]))), None
    )
    if at is None:
        return []
    head = cells(sorted(lines[tops[at]], key=lambda w: w["x0"]))
    starts = [g[0]["x0"] for g in head]

    def part(a: list[dict], b: list[dict]) -> float:  # halfway across the gap, unless a slip
        if slip.get("centres"):
            return (a[0]["x0"] + a[-1]["x1"] + b[0]["x0"] + b[-1]["x1"]) / 4
        return a[-1]["x1"] if slip.get("at_end") else (a[-1]["x1"] + b[0]["x0"]) / 2

    parts = [part(a, b) for a, b in zip(head, head[1:], strict=False)]
    rows = [[[w["text"] for w in g] for g in head]]  # each row: each column's words
    step = tops[at + 1] - tops[at] if at + 1 < len(tops) else 0.0
    first = 0 if slip.get("wrap_first") else 1  # a wrap needs a row above it, not the header
    for above, top in zip(tops[at:], tops[at + 1 :], strict=False):
        distance = top - (tops[at] if slip.get("from_header") else above)
        factor = 1.0 if slip.get("stop_low") else 1.9 if slip.get("stop_high") else 1.4
        if not slip.get("no_end") and distance > factor * step:
            break
        step = distance if slip.get("from_previous") else step
        row = _columns(lines[top], starts, parts, slip)
        if len(rows) > first and not row[0] and not slip.get("no_wrap"):  # a wrap goes on
            rows[-1] = [before + more for before, more in zip(rows[-1], row, strict=True)]
        else:
            rows.append(row)
    texts = [[" ".join(cell) for cell in row] for row in rows]
    table = [[t for t in row if t] for row in texts] if slip.get("drop_empty") else texts
    return table[1:] if slip.get("no_header") else table


def _columns(
    line: list[dict], starts: list[float], parts: list[float], slip: dict
) -> list[list[str]]:
    """One line's words placed under the columns: each where its x0 falls, the columns parting
    at `parts` (halfway between the header's cells), unless a slip."""
    row: list[list[str]] = [[] for _ in starts]
    for w in sorted(line, key=lambda w: w["x0"]):
        if slip.get("nearest_start"):
            column = min(range(len(starts)), key=lambda i: abs(starts[i] - w["x0"]))
        elif slip.get("left_of"):
            column = max([i for i, s in enumerate(starts) if s <= w["x0"]], default=0)
        else:
            column = bisect_right(parts, w["x0"])
        row[column].append(w["text"])
    return row


SLIPS = {
    "nearest_start": "a word goes to the column its x0 falls in, the columns parting HALFWAY "
    "across each gap between the header's cells, not to the nearest column start: a number set "
    "flush right under a wide header starts nearer the next column's start",
    "left_of": "the columns part HALFWAY across each gap between the header's cells, not at "
    "each cell's start: a number set flush right can start a little left of its header",
    "centres": "the columns part HALFWAY across each gap between the header's cells, from one "
    "cell's end to the next one's start, not halfway between the cells' centres",
    "at_end": "the columns part HALFWAY across each gap between the header's cells, not at each "
    "cell's end: a word starting just past its header's end is still in that column",
    "no_end": "the table ends at the first line farther below the line above it than 1.4 times "
    "the header's distance to the first row; the paragraph under the table is not a row",
    "stop_low": "a line up to 1.4 times the header's distance to the first row below the line "
    "above it, exactly 1.4 too, is still a row: the table ends only at a line FARTHER than that "
    "(more than 1.4 times, not 1.4 times or more)",
    "stop_high": "the table ends at the first line more than 1.4 times the header's distance to "
    "the first row below the line above it; a larger factor keeps a line that is not a row",
    # after stop_high: on the 1.4/1.46 page both keep the note, and that page is stop_high's
    "from_previous": "the table ends at a gap wider than 1.4 times the HEADER'S distance to the "
    "first row, a step fixed once, not 1.4 times the gap just before: gaps that widen a little "
    "at a time would never end the table",
    "from_header": "measure each line's distance to the line just above it, not to the header: "
    "every row after the first is farther than that from the header",
    "one_cell": "the header is the first bold line that makes two cells or more; a bold title of "
    "one cell above the table is not a header",
    "any_bold": "every word of the header line is bold; a line with one bold word (a bold "
    "'Note:') is not a header",
    "under_six": "words less than 6 points apart are one cell, 5.95 points too: a smaller "
    "threshold splits a cell whose words stand wider apart",
    "every_space": "words less than 6 points apart are one cell: a header cell such as 'Daily "
    "limit (USD)' is one column, not three",
    "over_six": "a gap of exactly 6 points ends a cell (6 points or more, not more than 6): "
    "two header cells 6 points apart are two columns",
    "drop_empty": "a column with no word in a row is an empty string: every row has as many "
    "cells as the header",
    "no_header": "return the header row first, then the rows",
    "no_wrap": "a line under the first row whose first column has no word continues the row "
    "above (a cell whose text wrapped): its words join that row's cells, not a row of their own",
    "wrap_first": "the first row is never a continuation: a wrapped line continues a row, not the "
    "header, so a first row whose first cell is empty is a row of its own",
}


_TITLE = (40.0, [(72.0, "Field allowances")], True)
_PROSE = (70.0, [(72.0, "Rates below apply from March")], False)


def _flush_right_page() -> list[dict]:
    """A bold title, a paragraph, a header over numbers set a little left of their columns."""
    return _words(
        [
            _TITLE,
            _PROSE,
            (
                100.0,
                [(72.0, "Region"), (150.0, "Meal rate (EUR)"), (260.0, "Room cap (EUR)")],
                True,
            ),
            (112.0, [(72.0, "North"), (146.0, "40"), (256.0, "150")], False),
            (124.0, [(72.0, "South Coast"), (146.0, "35"), (256.0, "120")], False),
            (136.0, [(72.0, "Islands"), (146.0, "55"), (256.0, "210")], False),
            (170.0, [(72.0, "Claims over the cap need a receipt and approval")], False),
        ]
    )


def _right_aligned_page() -> list[dict]:
    """Numbers set flush right under wide headers (ending at x = 231 and 341): each starts nearer
    the next column's start than its own."""
    header = [(72.0, "City"), (150.0, "Daily limit (USD)"), (260.0, "Lodging cap (USD)")]
    return _words(
        [
            (60.0, header, True),
            (72.0, [(72.0, "London"), (221.0, "95"), (326.0, "320")], False),
            (84.0, [(72.0, "Tokyo"), (221.0, "90"), (326.0, "280")], False),
            (96.0, [(72.0, "New York"), (216.0, "105"), (326.0, "350")], False),
        ]
    )


def _note_page() -> list[dict]:
    """A bold 'Note:' beside plain words, then a table with an empty cell."""
    return _words(
        [
            (60.0, [(72.0, "Note:"), (140.0, "figures are per person")], [True, False]),
            (90.0, [(80.0, "Item"), (180.0, "Owner"), (280.0, "Due")], True),
            (104.0, [(80.0, "Keys"), (180.0, "Front desk"), (280.0, "Monday")], False),
            (118.0, [(80.0, "Badge"), (280.0, "Tuesday")], False),
            (132.0, [(80.0, "Laptop"), (180.0, "IT"), (280.0, "Friday")], False),
            (160.0, [(80.0, "Return everything on your last day")], False),
        ]
    )


def _four_columns_page() -> list[dict]:
    """Rows closer together than the header is to the first, then a wide gap to a bold line."""
    return _words(
        [
            (
                50.0,
                [(60.0, "Code"), (120.0, "Service name"), (240.0, "Hours"), (320.0, "Tier")],
                True,
            ),
            (66.0, [(60.0, "A1"), (120.0, "Search"), (238.0, "24"), (318.0, "1")], False),
            (76.0, [(60.0, "B2"), (120.0, "Mail relay"), (238.0, "12"), (318.0, "2")], False),
            (86.0, [(60.0, "C3"), (120.0, "Archive"), (240.0, "8"), (320.0, "3")], False),
            (96.0, [(60.0, "D4"), (120.0, "Print queue"), (240.0, "8"), (318.0, "3")], False),
            (130.0, [(60.0, "Tier"), (120.0, "one is paged at night")], True),
        ]
    )


def _six_apart_page() -> list[dict]:
    """A header whose first two cells stand exactly 6 points apart (a word is 5 points a letter)."""
    return _words(
        [
            (50.0, [(80.0, "Unit"), (106.0, "Rate per day"), (200.0, "Cap")], True),
            (62.0, [(80.0, "Desk"), (106.0, "12"), (200.0, "40")], False),
            (74.0, [(80.0, "Room"), (106.0, "30"), (200.0, "90")], False),
        ]
    )


def _wide_words_page() -> list[dict]:
    """A header cell whose words stand 5.95 points apart (wider than a space, less than 6)."""
    words = _words(
        [
            (40.0, [(70.0, "Site"), (130.0, "Hours open daily")], True),
            (52.0, [(70.0, "Depot"), (130.0, "9")], False),
            (64.0, [(70.0, "Yard"), (130.0, "12")], False),
        ]
    )
    x = 130.0
    for w in words:
        if w["top"] == 40.0 and w["x0"] >= 130.0:
            w["x0"], w["x1"], x = x, x + w["x1"] - w["x0"], x + w["x1"] - w["x0"] + 5.95
    return words


def _uneven_page() -> list[dict]:
    """Rows 10 points apart, one exactly 14 below (1.4 times: still a row, the rule is "farther
    than"), then a note 14.6 below (1.46 times: the end), then a paragraph farther down."""
    return _words(
        [
            (50.0, [(80.0, "Site"), (160.0, "Staff"), (240.0, "Floor")], True),
            (60.0, [(80.0, "Leeds"), (160.0, "40"), (240.0, "2")], False),
            (70.0, [(80.0, "York"), (160.0, "25"), (240.0, "1")], False),
            (84.0, [(80.0, "Hull"), (160.0, "12"), (240.0, "3")], False),
            (98.6, [(80.0, "Counts as of May")], False),
            (138.0, [(80.0, "Each site reports its own figures")], False),
        ]
    )


def _widening_page() -> list[dict]:
    """Two rows, then notes whose gaps widen a little at a time (16, 22, 30 points after 12),
    then a paragraph 60 below: only the header's step ends the table at the first note."""
    return _words(
        [
            (50.0, [(80.0, "Team"), (160.0, "Lead"), (240.0, "Room")], True),
            (62.0, [(80.0, "Ops"), (160.0, "Ana"), (240.0, "2.01")], False),
            (78.0, [(80.0, "Web"), (160.0, "Raj"), (240.0, "3.10")], False),
            (100.0, [(80.0, "Rooms change in June")], False),
            (130.0, [(80.0, "Ask the desk for a key")], False),
            (190.0, [(80.0, "Every team books its own room")], False),
        ]
    )


def _wrapped_page() -> list[dict]:
    """Cells wrapped onto a line of their own (first column empty); a first row so too."""
    return _words(
        [
            (50.0, [(80.0, "Form"), (150.0, "Who signs"), (300.0, "Days")], True),
            (64.0, [(150.0, "Line manager and"), (300.0, "5")], False),
            (74.0, [(150.0, "head of unit")], False),
            (88.0, [(80.0, "Travel"), (150.0, "Director"), (300.0, "10 working")], False),
            (98.0, [(300.0, "days")], False),
            (112.0, [(80.0, "Expenses"), (150.0, "Finance"), (300.0, "3")], False),
            (140.0, [(80.0, "Forms go to the office named above")], False),
        ]
    )


def _cases() -> list[tuple[str, list[dict]]]:
    """Pages of words, each named by what it holds; none is the notebook's page."""
    return [
        ("a title, a paragraph, numbers flush right under a header, prose", _flush_right_page()),
        ("numbers set flush right under wide headers", _right_aligned_page()),
        ("a bold note in two groups above the table, a row with an empty cell", _note_page()),
        (
            "no bold line of two cells: no table",
            _words([_TITLE, _PROSE, (90.0, [(72.0, "Name"), (200.0, "Value")], False)]),
        ),
        (
            "four columns, rows closer than the header, then a second bold line",
            _four_columns_page(),
        ),
        ("a header whose first two cells stand exactly 6 points apart", _six_apart_page()),
        ("notes under the table at gaps that widen a little at a time", _widening_page()),
        (
            "a row exactly 1.4 times the header's step below the last, then a note 1.46 times",
            _uneven_page(),
        ),
        ("a header cell whose words stand 5.95 points apart", _wide_words_page()),
        ("four columns, the words given right to left", _four_columns_page()[::-1]),
        ("cells whose text wraps onto a second line", _wrapped_page()),
    ]


def _placeholder(got: list, expected: list[list[str]]) -> str | None:
    """The hint when `got` differs from `expected` only where a cell should be empty."""
    if len(got) != len(expected) or any(
        len(g) != len(e) for g, e in zip(got, expected, strict=True)
    ):
        return None
    pairs = [
        (g, e)
        for row, want in zip(got, expected, strict=True)
        for g, e in zip(row, want, strict=True)
        if g != e
    ]
    if pairs and all(e == "" for _, e in pairs):
        return f'a column with no word in a row is the empty string "", not {pairs[0][0]!r}'
    return None


def _unsorted(fn: Callable, words: list[dict], expected: list[list[str]]) -> str | None:
    """The hint when `fn` is right on the same words given left to right, top to bottom."""
    ordered = sorted((dict(w) for w in words), key=lambda w: (w["top"], w["x0"]))
    try:
        right = [list(row) for row in fn(ordered)] == expected
    except Exception:  # noqa: BLE001 - a learner's function may fail here too
        return None
    return (
        "sort each line's words by x0: a page need not give them left to right" if right else None
    )


_NO_FONT = (
    "these words carry no 'size' nor 'fontname': the thresholds are in points (a gap of 6 points "
    "or more ends a cell; rows end past 1.4 header steps) and a word's 'bold' says if it is bold"
)


def check_bold_table(fn: Callable) -> int:
    """08.2: `bold_table(words)`: the header and rows of the first table found by a bold header."""
    cases = _cases()
    for what, words in cases:
        expected = bold_table(words)
        try:
            got = run_without(
                fn,
                ([dict(w) for w in words],),
                aligned_tables,
                "it calls chunklab.documents.pdf_grid.aligned_tables, the library's own "
                "rule; write the rule from section 4 yourself",
            )
        except KeyError as error:  # section 4's cells copied: they read a font size and name
            if error.args[0] not in ("size", "fontname"):
                raise
            raise NotYet(_NO_FONT) from error
        try:
            got = [list(row) for row in got]
        except TypeError:
            raise NotYet(f"expected a list of rows (lists of str), got {short(got)}") from None
        if got == expected:
            continue
        slip = (
            next(
                (why for name, why in SLIPS.items() if got == bold_table(words, **{name: True})),
                None,
            )
            or _placeholder(got, expected)
            or _unsorted(fn, words, expected)
        )
        told = f" ({slip})" if slip else ""
        raise NotYet(
            f"on a page with {what}: expected {short(expected, 160)}, got {short(got, 160)}{told}"
        )
    return len(cases)


CHECKS_BOLD_TABLE: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "08.2": ("bold_table(words) -> list of rows (lists of str)", check_bold_table),
}
