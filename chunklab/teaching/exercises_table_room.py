"""Exercise 05b.1's check: the room a table's rows need, by companion 05b's test.

Section 1 of 05b predicts, before any cut, the budget from which on linearize mode keeps every row
with its header: the widest breadcrumb + blank line + header line + row, as the chunk writes them
(rows mode adds the delimiter row). The exercise asks the learner to write that test as a function
of any Markdown text and any counter; the check runs it on documents built here, none of them the
notebook's, each set up so that one predictable slip gives another width, and with two counters
(characters and words), so a function that measures with its own counter is seen.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.teaching.checking import NotYet, run_without, short
from chunklab.tokens.counters import cl100k

_DELIMITER = re.compile(r"^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")
_NO_COLON = re.compile(r"^\|?\s*-+\s*(\|\s*-+\s*)*\|?\s*$")  # the slip: colons not allowed


def _tables(lines: list[str], no_colon: bool = False) -> list[tuple[int, list[int]]]:
    """(header line number, row line numbers) of every pipe table."""
    found, delimiter = [], _NO_COLON if no_colon else _DELIMITER
    for i in range(1, len(lines)):
        if delimiter.match(lines[i]) and lines[i - 1].lstrip().startswith("|"):
            rows, j = [], i + 1
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                rows.append(j)
                j += 1
            found.append((i - 1, rows))
    return found


def _crumb(lines: list[str], upto: int, slip: dict) -> str:
    stack: list[tuple[int, str]] = []
    fenced = False
    for line in lines[:upto]:
        if line.lstrip().startswith("```"):
            fenced = not fenced
        heading = re.match(r"^(#{1,6})\s+(.*?)\s*$", line)
        if heading and (not fenced or slip.get("fence")):
            level = len(heading.group(1))
            kept = stack if slip.get("no_cut") else [(lv, t) for lv, t in stack if lv < level]
            if slip.get("by_place"):  # stack[:level - 1]: cut by position, not by level
                kept = stack[: level - 1]
            stack = kept + [(level, heading.group(2))]
    if slip.get("nearest"):
        stack = stack[-1:]
    return " > ".join(t for _, t in stack)


def room_needed(
    text: str, count: Callable[[str], int], rows_mode: bool = False, **slip: Any
) -> int:
    """The rule, right by default; each keyword turns one predictable slip on."""
    lines = text.split("\n")
    lines = [line.strip() for line in lines] if slip.get("strip") else lines
    pairs = []
    for head, rows in _tables(lines, bool(slip.get("no_colon"))):
        end = "" if slip.get("header_newline") else "\n"
        header = lines[head] + end
        if (rows_mode or slip.get("delimiter_always")) and not slip.get("no_delimiter"):
            header += lines[head + 1] + ("" if slip.get("delimiter_newline") else end)
        rows = rows[:1] if slip.get("first_row") else rows[-1:] if slip.get("last_row") else rows
        for r in rows + ([head] if slip.get("header_row") else []):
            crumb = "" if slip.get("no_crumb") else _crumb(lines, r, slip)
            blank = "\n" if slip.get("one_newline") else "\n\n"
            lead = crumb + blank if crumb or slip.get("always_blank") else ""
            row = lines[r].strip() if slip.get("strip_rows") else lines[r]
            pairs.append((len(lines[r]), lead + header + row))
    if not pairs:
        return 0
    if slip.get("widest_row"):
        return count(max(pairs)[1])
    measure = len if slip.get("own_count") else count
    return max(measure(text) for _, text in pairs)


SLIPS = {
    "no_crumb": "the pair starts with the row's breadcrumb, the headings above it joined by ' > ', "
    "and a blank line",
    "nearest": "the breadcrumb is the whole heading path above the row, not its nearest heading",
    "no_cut": "a new heading cuts the stack back to the headings of a smaller level: a sibling "
    "section's heading is not in the path",
    "by_place": "a new heading cuts the stack back by level, not by position: under '# A', "
    "'### B' then '### C' is a sibling of B, so the path is 'A > C' (stack[:level - 1] keeps B)",
    "delimiter_newline": "in rows mode the delimiter line, like the header line, ends with '\\n' "
    "before the row",
    "fence": "a '#' line inside a ``` code fence is code, not a heading",
    "one_newline": "the breadcrumb is followed by a blank line, '\\n\\n', as the chunk writes it",
    "header_newline": "the header line (and in rows mode the delimiter line) ends with '\\n' "
    "before the row",
    "always_blank": "a row with no heading above it has no breadcrumb, and no blank line either",
    "header_row": "the header line is not a row: only the lines under the delimiter are",
    "no_delimiter": "in rows mode the pair also holds the delimiter line under the header",
    "delimiter_always": "only in rows mode does the pair hold the delimiter line: with "
    "rows_mode=False it is the header line, then the row",
    "widest_row": "measure every row's whole pair with `count` and keep the widest: the row "
    "longest in characters is not the widest pair when another row's breadcrumb is longer, or "
    "when, counted in words, another row holds more words",
    "no_colon": "a delimiter line may hold colons (|:---|---:| sets the columns' alignment): it "
    "still makes the line above it a table's header",
    "own_count": "measure with the `count` you are given (the check passes characters and words)",
    "first_row": "measure every row of a table, not only its first: here the widest row is in "
    "the middle",
    "last_row": "measure every row of a table, not only its last: here the widest row is in "
    "the middle",
    "strip_rows": "the row is measured as the source writes it, like the header line, trailing "
    "spaces included (here '| Core | 10 to 4 |  ' ends in two)",
    "strip": "the header and the row are measured as the source writes them, trailing spaces "
    "included (real pages have them: 18F's '|**Hours** | ')",
}

_GUIDE = """# Field guide

Read this first.

## Rates

| City | Rate |
|---|---|
| Lima | 60 |
| Rio de Janeiro | 75 |

## Notes on travel

### Deep section with a rather long title

| Key | Value |
|---|---|
| a | b |
"""

_FENCED = """## Setup

```bash
# install the tool first
pip install tool
```

| Flag | Meaning |
|---|---|
| -v | verbose output |
"""

_HEADLESS = """| Name of a long first column | Second |
|:---|---:|
| a | 1 |

A paragraph after the table.
"""


_WORDY = """## Terms

| Term | Meaning |
|---|---|
| Supercalifragilisticexpialidocious | long |
| a b c d e f | g h i j |
"""


_MIDDLE = """## Prices

| Item | Price |
|---|---|
| Tea | 2 |
| A pot of tea with a plate of three kinds of cake | 14 |
| Jam | 3 |
"""


_SKIPPED = """# Handbook

### Travel

Two sibling sections under a skipped level.

### Food

| Meal | Allowance |
|---|---|
| Lunch | 20 |
"""


# header and row lines ending in spaces, as real pages write them
_TRAILING = "## Hours\n\n|**Hours** | Note | \n|---|---|\n| Core | 10 to 4 |  \n"


def _words(text: str) -> int:
    return len(text.split())


def _quiet(fn: Callable, case: tuple) -> Any:
    """`fn(*case)`, or None where it raises: only compared with each slip's answer."""
    try:
        return fn(*case)
    except Exception:  # noqa: BLE001 - a learner's function may fail on any case
        return None


def _slips_of(
    fn: Callable, cases: list, text: str, count: Callable, rows_mode: bool, got: Any
) -> list[str]:
    """The slips that give `got` on the failing case; of several, those that also give the
    function's answer on every case (two slips can agree on one document and not on another)."""
    here = [n for n in SLIPS if got == room_needed(text, count, rows_mode, **{n: True})]
    if len(here) < 2:
        return [SLIPS[n] for n in here]
    answers = [_quiet(fn, (t, c, r)) for t, r, c in cases]  # cases hold (text, rows_mode, count)
    everywhere = [
        n
        for n in here
        if all(
            a == room_needed(t, c, r, **{n: True})
            for a, (t, r, c) in zip(answers, cases, strict=True)
        )
    ]
    return [SLIPS[n] for n in everywhere or here]


def check_room_needed(fn: Callable) -> int:
    """05b.1: `room_needed(text, count, rows_mode)`: the widest breadcrumb + header + row."""
    cases = [
        (doc, rows_mode, count)
        for doc in (
            _GUIDE,
            _FENCED,
            _HEADLESS,
            _MIDDLE,
            _WORDY,
            _SKIPPED,
            _TRAILING,
            "# Only prose\n\nNo table.\n",
        )
        for rows_mode in (False, True)
        for count in (len, _words)
    ]
    for text, rows_mode, count in cases:
        expected = room_needed(text, count, rows_mode)
        got = run_without(
            fn,
            (text, count, rows_mode),
            MarkdownChunker.split,
            "it cuts with MarkdownChunker: the test is measured before any cut; "
            "build each row's pair and measure it",
        )
        if got == expected:
            continue
        slips = _slips_of(fn, cases, text, count, rows_mode, got)
        if not slips and any(got == room_needed(text, c, rows_mode) for c in (len, _words, cl100k)):
            slips = [SLIPS["own_count"]]  # measured with a counter of its own, not `count`
        counter = "characters (len)" if count is len else "words"
        told = f" (either slip gives this number: {'; or '.join(slips)})" if len(slips) > 1 else ""
        told = told or (f" ({slips[0]})" if slips else "")
        raise NotYet(
            f"on a document starting {short(text.splitlines()[0], 40)}, rows_mode={rows_mode}, "
            f"counting {counter}: expected {expected}, got {short(got)}{told}"
        )
    return len(cases)


CHECKS_TABLE_ROOM: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "05b.1": ("room_needed(text, count, rows_mode) -> int", check_room_needed),
}
