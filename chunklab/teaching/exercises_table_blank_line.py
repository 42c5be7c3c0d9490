"""Companion 02d's exercise 02d.1: section 3's blank line before the manual's table, written for
any document, and the slips it names.

Why a check of its own: the rule is short (a blank line just above each table's header row whose
line above holds text, nothing else changed), and each plausible slip is right on the manual: a
blank line before every `|` line (it also splits the rows), before the delimiter row (the header
then stays text), before a `|` line with no delimiter row under it (no table), above a line that
already has a blank one above it (a line of spaces is blank too), or above the first line. The
answer is read back as the blank lines it added, and the first place where they differ from the
rule's decides the hint, which names the condition, not the expected text.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from chunklab.documents.series import load_document
from chunklab.teaching.checking import NotYet, short

DELIMITER_CELL = re.compile(r"\s*:?-+:?\s*")


def is_delimiter_row(line: str) -> bool:
    """A line that starts with `|` and whose every cell between pipes is dashes, with an optional
    colon at either end and spaces around."""
    if not line.startswith("|"):
        return False
    cells = line.strip().strip("|").split("|")
    return all(DELIMITER_CELL.fullmatch(cell) for cell in cells)


def header_rows(lines: list[str]) -> list[int]:
    """The indexes of the lines that start with `|` and have a delimiter row right under them."""
    return [
        k
        for k in range(len(lines) - 1)
        if lines[k].startswith("|") and is_delimiter_row(lines[k + 1])
    ]


def needs_blank_line(lines: list[str]) -> list[int]:
    """The header rows whose line above holds text: where one blank line goes."""
    return [k for k in header_rows(lines) if k > 0 and lines[k - 1].strip()]


def with_blank_lines(text: str) -> str:
    """02d.1's rule: one blank line just above each header row whose line above holds text."""
    lines = text.split("\n")
    before = set(needs_blank_line(lines))
    return "\n".join(out for k, line in enumerate(lines) for out in ([""] * (k in before) + [line]))


def added_blank_lines(text: str, got: str) -> dict[int, int] | None:
    """Where `got` holds blank lines `text` does not: {index of the line of `text` they stand
    above (len(lines) past the end): how many}, or None when `got` changed or lost a line."""
    lines, out = text.split("\n"), got.split("\n")
    added: dict[int, int] = {}
    i = 0
    for line in out:
        if i < len(lines) and line == lines[i]:
            i += 1
        elif not line.strip():
            added[i] = added.get(i, 0) + 1
        else:
            return None
    return added if i == len(lines) else None


PLAIN_TABLE = "Text\n| a | b |\n|---|---|\n| 1 | 2 |"  # the plainest case: dashes alone


def _why_missed(lines: list[str], k: int, fn: Callable) -> str:
    plain = re.fullmatch(r"\|(-+\|)+", lines[k + 1].strip())
    if not plain and fn(PLAIN_TABLE) == with_blank_lines(PLAIN_TABLE):
        return (
            "a delimiter row may hold colons and spaces (`| :-- | --: |`, `| --- | --- |`), so "
            "the line above it is a header row too"
        )
    return (
        "this line starts with `|`, a delimiter row is right under it and the line above holds "
        "text: a header row that needs a blank line above it, whatever the text above is"
    )


def _why_extra(lines: list[str], k: int) -> str:
    if k == 0:
        return (
            "nothing stands above the first line: a table that opens the text needs no blank line"
        )
    if k == len(lines):
        return "add nothing after the last line: only above a header row"
    if not lines[k - 1].strip():
        if lines[k - 1]:
            return (
                "a line of spaces is blank too: the line above already parts the table from the "
                "text"
            )
        return "the line above is already blank: one blank line parts the table from the text"
    if is_delimiter_row(lines[k]) and lines[k - 1].startswith("|"):
        return (
            "the blank line goes above the header row, not between it and its delimiter row: a "
            "delimiter row with no header right above it opens no table, and the header stays text"
        )
    if lines[k].startswith("|") and lines[k - 1].startswith("|"):
        return (
            "only above the header row: a blank line between a table's rows ends the table there, "
            "and the rows after it are a paragraph"
        )
    if lines[k].startswith("|"):
        return (
            "a line that starts with `|` heads a table only when a delimiter row is right under "
            "it (GFM's table rule): this one has none"
        )
    return "add a blank line only above a table's header row"


def _hint(text: str, added: dict[int, int], fn: Callable) -> tuple[int, str]:
    """(the first line where the answer's blank lines differ from the rule's, why)."""
    lines = text.split("\n")
    expected = set(needs_blank_line(lines))
    if set(added) == expected:
        k = min(k for k, n in added.items() if n > 1) if any(n > 1 for n in added.values()) else -1
        if k >= 0:
            return k, "one blank line above a header row is enough: add one, not several"
        return min(expected), "add an empty line, not a line of spaces or tabs"
    k = min(set(added) ^ expected)
    if k in expected and k + 1 in added and k + 1 not in expected:  # one line too low
        return k, _why_extra(lines, k + 1)
    return k, _why_missed(lines, k, fn) if k in expected else _why_extra(lines, k)


CASES = [
    "MANUAL",  # replaced by the manual's text in the check
    "18F",  # and by the 18F page's
    "Intro:\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |",
    "1. Item\n| a | b |\n| :-- | --: |\n| 1 | 2 |\n\nAfter.",
    "| a | b |\n|---|---|\n| 1 | 2 |\nText right after.",
    "Text\n\n| a | b |\n|---|---|\n| 1 | 2 |",
    "Text\n   \n| a | b |\n|---|---|\n| 1 | 2 |",
    "Text\n| not a table |\nmore text\n\n- item\n| a | b |\n|:---:|---|\n| 1 | 2 |",
    "## Title\n| a | b |\n|-|-|\n| 1 | 2 |\n> quote\n| c | d |\n|---|---|\n",
]
POOL = [
    "",
    "",
    "   ",
    "Some text.",
    "Intro:",
    "1. Item",
    "- item",
    "## Title",
    "> quote",
    "| a | b |",
    "| a | b |",
    "|x|y|",
    "|---|---|",
    "| :-- | --: |",
    "| 1 | 2 |",
]


_NAMES: dict[str, str] = {}  # a real document's text -> how a hint names it


def _cases() -> list[str]:
    rng = random.Random(11)
    real = {"MANUAL": load_document("manual").text, "18F": load_document("work_schedules").text}
    _NAMES.update(
        {
            real["MANUAL"]: "the manual",
            real["18F"]: 'the 18F page (load_document("work_schedules"))',
        }
    )
    cases = [real.get(c, c) for c in CASES]
    for _ in range(80):
        lines = [rng.choice(POOL) for _ in range(rng.randint(1, 9))]
        cases.append("\n".join(lines) + rng.choice(["", "\n"]))
    return cases


def check_blank_before_tables(fn: Callable) -> int:
    """02d.1 against `with_blank_lines` on the manual, the 18F page and made-up documents."""
    cases = _cases()
    for text in cases:
        got = fn(text)
        if not isinstance(got, str):
            raise NotYet(f"return the text, a str, with the blank lines added: got {short(got)}")
        if got == with_blank_lines(text):
            continue
        added = added_blank_lines(text, got)
        if added is None:
            if got == with_blank_lines(text).rstrip("\n") != with_blank_lines(text):
                raise NotYet(
                    'the text\'s last newline is lost: split with text.split("\\n"), which '
                    "keeps it as a last empty line, not with splitlines()"
                )
            raise NotYet(
                f"text {short(text, 60)}: a line was changed, lost or added with text in it; add "
                "blank lines only, and keep every line of the text as it is"
            )
        k, why = _hint(text, added, fn)
        lines = text.split("\n")
        where = (
            f"text {text!r}"
            if len(text) < 200
            else f"{_NAMES.get(text, 'a document')}, above its line {k} "
            f"{short(lines[k] if k < len(lines) else '', 50)}"
        )
        raise NotYet(f"{where}: {why}")
    return len(cases)


CHECKS_TABLE_BLANK_LINE: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "02d.1": ("blank_before_tables(text) -> str", check_blank_before_tables),
}
