"""Companion 02d's exercise 02d.2: the numbered-title rule of `explicit_headings`, guarded
against its two misfires, and the slips it names.

Why a check of its own: the rule has five conditions (the stripped line is a numbered line; it is
the first line or follows a blank one; the next line holds text that is not numbered; each number
has at most two digits; no final period), and each plausible slip is right on the manual: a guard
that measures the whole numbering (`10.2` is four characters), a line before the first read as
`lines[k - 1]` (the last line), a period looked for before stripping, a tight list's later items
taken for titles. The fixed cases hold each of those; the rule in words decides the first line
where an answer differs, so the hint names the condition, not the line's expected value.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from chunklab.documents.series import load_document
from chunklab.parsing.blocks import NUMBERED_TITLE, explicit_headings, with_explicit_headings
from chunklab.teaching.checking import NotYet, run_without, short


def numbered_title_lines(text: str) -> list[int]:
    """The indexes of `text.split("\\n")`'s lines that are numbered titles, guarded: each number
    at most two digits, no final period."""
    lines, found = text.split("\n"), []
    for k, line in enumerate(lines):
        m = NUMBERED_TITLE.fullmatch(line.strip())
        after = lines[k + 1].strip() if k + 1 < len(lines) else ""
        if (
            m
            and (k == 0 or not lines[k - 1].strip())
            and after
            and not NUMBERED_TITLE.fullmatch(after)
            and all(len(n) <= 2 for n in m[1].split("."))
            and not line.strip().endswith(".")
        ):
            found.append(k)
    return found


def _why_missed(lines: list[str], k: int) -> str:
    """Why line k is a title the answer left out."""
    line = lines[k]
    if k > 0 and lines[k - 1] and not lines[k - 1].strip():
        return (
            "a line of spaces or tabs is blank too: test the line before stripped, as section 2's "
            "rule does"
        )
    if k == 0 and lines[-1].strip():
        return (
            "the first line has no line before it, so it counts as after a blank line "
            "(`lines[k - 1]` at k = 0 is the last line)"
        )
    if line != line.strip():
        return "strip the line before matching: an indented numbered title is a title too"
    numbered = NUMBERED_TITLE.fullmatch(line.strip())
    if numbered and "." in numbered[1]:
        return (
            "a numbering of several numbers (2.1, 10.2) is a title when each of its numbers has "
            "at most two digits: measure each number, not the whole numbering"
        )
    if numbered and any(len(n) > 2 for n in re.findall(r"\d+", numbered[2])):
        return (
            "the digit guard measures the title's numbering, not the numbers in its text: a "
            "year among a title's words leaves it a title"
        )
    if numbered and (line.strip()[-1] in "?:!" or "." in numbered[2]):
        return (
            "only a final period makes a sentence: a title may end with `?`, `:` or `!`, and "
            "may hold a period inside its text"
        )
    return (
        "this line is a numbered title: first or after a blank line, text on the next line that "
        "is not numbered, each number at most two digits, no final period"
    )


def _why_extra(lines: list[str], k: int) -> str:
    """Why line k, which the answer took, is no title."""
    line, stripped = lines[k], lines[k].strip()
    m = NUMBERED_TITLE.fullmatch(stripped)
    after = lines[k + 1].strip() if k + 1 < len(lines) else ""
    if not m:
        return "this line is no numbered line: its stripped text does not fullmatch NUMBERED"
    if k > 0 and lines[k - 1].strip():
        return (
            "a title is the first line or follows a blank line: this one follows text, as a "
            "tight list's later items do"
        )
    if not after:
        return (
            "a title has its text on the next line: this one is followed by a blank line or the end"
        )
    if NUMBERED_TITLE.fullmatch(after):
        return (
            "the next line is numbered too: numbered lines in a row are a list, not a title and "
            "its text"
        )
    if too_long := [n for n in m[1].split(".") if len(n) > 2]:
        return (
            f"a number of three digits or more ({too_long[0]}) is no section number: a paragraph "
            "opening with a year is no title"
        )
    hidden = "" if line.endswith(".") else " (strip the line first: spaces after it hide it)"
    return f"a title that ends with a period is a sentence, as a list item is{hidden}"


CASES = [
    "MANUAL",  # replaced by the manual's text in the check
    "Guide\n\n2. Scope\nText.\n\n2.1 Limits\nMore text.",
    "Notes\n\n1. Check the passport.\nIt must be valid.\n\n"
    "2. Ask for the letter.\nFrom the host.\n",
    "Report\n\n2024 was a record year.\nRevenue rose by a third.\n",
    "1. Scope\nText.\n\n10.2 Limits\nMore.",
    "Intro\n\n1. one\n2. two\n3. three\nAfter the list.\n",
    "Doc\n\n1. Scope\n\nText.\n",
    "Doc\n\n2. Last",
    "Doc\n\n  3. Indented title\nText",
    "Doc\n\n12.3 Limits\nText\n\n123 Main Street\nText\n\n1.234 Ratio\nText\n",
    "Doc\n\n4. Ends here.  \nText\n",
    "Doc\n\n001 Intro\nText\n\n5. Why it matters?\nText\n",
    "Doc\n \t\n3. Scope\nText\n\n6. Version 2.0\nText\n\n7. Limits:\nText\n",
    "Doc\n\n3. Budget 2024\nText\n",
]
POOL = [
    "",
    "",
    "Some text.",
    "More words here",
    "1. Scope",
    "2.1 Limits",
    "10.12 Deep",
    "2024 was good.",
    "3. A sentence.",
    "  4. Indented",
    "5) Not this",
    "300 Spartans",
    "7.",
]


def _cases() -> list[str]:
    rng = random.Random(7)
    cases = [load_document("manual").text if c == "MANUAL" else c for c in CASES]
    for _ in range(60):
        lines = [rng.choice(POOL) for _ in range(rng.randint(1, 9))]
        cases.append("\n".join(lines) + rng.choice(["", "\n"]))
    return cases


def _hint(text: str, got: list[int], expected: list[int]) -> str:
    lines = text.split("\n")
    if sorted(got) == expected:
        return "the right lines in another order: give them in the order of the text"
    if expected and sorted(got) == [k + 1 for k in expected]:
        return 'count lines from 0, as the indexes of text.split("\\n") do'
    if any(not 0 <= k < len(lines) for k in got):
        return 'each index must be a line of text.split("\\n"), from 0'
    k = min(set(got) ^ set(expected))
    return _why_missed(lines, k) if k in expected else _why_extra(lines, k)


LIBRARY_RULE = (
    "write section 2's three conditions yourself: filtering explicit_headings' output "
    "skips the rule the exercise asks for"
)


def check_numbered_titles(fn: Callable) -> int:
    """02d.2 against `numbered_title_lines` on fixed and random documents."""
    cases = _cases()
    for text in cases:
        expected = numbered_title_lines(text)
        got = run_without(fn, (text,), [explicit_headings, with_explicit_headings], LIBRARY_RULE)
        if isinstance(got, (list, tuple)) and all(isinstance(k, str) for k in got) and got:
            raise NotYet(f"return the lines' indexes (int), not the lines: got {short(got)}")
        if not isinstance(got, (list, tuple)) or not all(
            isinstance(k, int) and not isinstance(k, bool) for k in got
        ):
            raise NotYet(f"return a list of int, the title lines' indexes: got {short(got)}")
        if list(got) != expected:
            raise NotYet(
                f"text {text!r}: expected {expected}, got {short(list(got))}: "
                f"{_hint(text, list(got), expected)}"
            )
    return len(cases)


CHECKS_NUMBERED_TITLES: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "02d.2": ("numbered_titles(text) -> list of int", check_numbered_titles),
}
