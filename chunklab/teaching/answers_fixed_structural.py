"""The answer exercises of notebooks 01, 02 and 02d (fixed windows, structural cuts, the block
parser): each expected answer computed from the library when asked, and the plausible
wrong answers each refusal recognises, with why. Those of 03, 03b and 03c (small-to-big, windows,
filters) are `teaching.answers_small_to_big`.

Kept apart from `teaching.selfcheck`, which registers them in its `SOLUTIONS` and `FORMS`.
Reading this file gives the answers away: try first.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from chunklab.chunkers.fixed import FixedSizeChunker
from chunklab.documents.series import load_document
from chunklab.evaluation.metrics import split_lines
from chunklab.parsing.blocks import parse_blocks, with_explicit_headings
from chunklab.teaching.answers import Form
from chunklab.teaching.claims import sign_test


def _split_lines_at(name: str, size: int, overlap: int) -> int:
    doc = load_document(name)
    return len(split_lines(FixedSizeChunker(size=size, overlap=overlap).split(doc), doc))


OVERLAP_SIZE = 120  # 01d.1's size: not the notebook's 200, so its sweep does not show the answer


@functools.cache
def _splits(name: str = "manual", size: int = OVERLAP_SIZE) -> tuple[int, ...]:
    """Lines split at every overlap from 0 to size - 1 (01d.1)."""
    return tuple(_split_lines_at(name, size, overlap) for overlap in range(size))


def _whole_from(splits: tuple[int, ...], step: int = 1) -> int:
    """The smallest overlap (a multiple of `step`) from which every larger one, at that step,
    splits no line."""
    sampled = range(0, len(splits), step)
    return min(o for o in sampled if all(not splits[p] for p in sampled if p >= o))


def _smallest_overlap_keeping_lines() -> int:
    return _whole_from(_splits())


def _overlap_misses() -> dict[Any, str]:
    splits = _splits()
    first_whole = splits.index(0)
    return {
        first_whole: f"at {first_whole} every line is whole, but a larger overlap splits one "
        "again: the first overlap that keeps lines whole is not where they stay whole, find "
        "where it holds for good",
        _whole_from(splits, 10): "that is what a sweep over multiples of 10 shows; from it on "
        "lines stay whole, but a smaller overlap between the multiples too: sweep every overlap",
        next(o for o in range(0, len(splits), 10) if not splits[o]): "that is the first "
        "multiple of 10 with every line whole; overlaps above it split lines again",
        _whole_from(_splits(size=200)): "that is the answer at size 200 (section 2); the "
        f"question asks size {OVERLAP_SIZE}",
        _whole_from(_splits("manual_en")): "that is the English rendering's answer; the question "
        "asks the Portuguese manual (load_document('manual'))",
        max(map(len, load_document("manual").text.splitlines())): "that is the longest line: "
        "a bound that guarantees every line whole (section 2), not the smallest overlap that "
        "does; sweep below it",
    }


def _overlap_hint(answer: Any, solution: int) -> str:
    """01d.1: what the learner's overlap does at size OVERLAP_SIZE, said from the sweep."""
    splits = _splits()
    if not isinstance(answer, int) or isinstance(answer, bool):
        return ""  # not an int: `judge` says what it is instead
    if not 0 <= answer < len(splits):
        return f"an overlap runs from 0 to {len(splits) - 1}"
    if abs(answer - solution) > 2:  # no direction for a far guess: guessing by halves finds nothing
        return (
            f"sweep every overlap from 0 to {len(splits) - 1} at size {OVERLAP_SIZE}, count the "
            "split lines at each, and read from where on the count stays 0"
        )
    if splits[answer]:
        return f"at overlap {answer}, {splits[answer]} line(s) are still split"
    later = [o for o in range(answer, len(splits)) if splits[o]]
    if later:
        return f"{answer} keeps every line whole, but {later[0]} splits a line again"
    return f"every overlap from {answer} keeps the lines whole, and from a smaller one too"


# 02d.1: a blank line put before the manual's table rows, at the margin, and its delimiter row
# deleted. The blank line ends item 3 (the rows are not indented to its text) and, with no
# delimiter row, the rows are no GFM table but a paragraph: neither "nothing changes" (paragraph,
# list) nor the obvious guess (a table freed: paragraph, list, table, list) is right.
BLANK_BEFORE_TABLE = ("tolerância\n", "tolerância\n\n")
NO_DELIMITER_ROW = ("|---|---|---|---|\n", "")


def _spaced(text: str) -> str:
    """02d.1's `spaced`: one blank line before the table's rows, its delimiter row deleted."""
    return text.replace(*BLANK_BEFORE_TABLE).replace(*NO_DELIMITER_ROW)


def _block_kinds() -> list[str]:
    """02d.1: the kind of every block `parse_blocks` finds in `spaced`, in order."""
    return [b.kind for b in parse_blocks(_spaced(load_document("manual").text))]


def _kinds_of(text: str) -> list[str]:
    return [b.kind for b in parse_blocks(text)]


_NO_DELIMITER = (
    "a line that starts with `|` begins a table by the sketch's rule, not by GFM's: a GFM table "
    "is a header row followed by a delimiter row (`|---|`), and `spaced` has none"
)


def _block_kinds_hint(answer: Any, solution: list[str]) -> str:
    """02d.1: the slip the learner's kinds show, never which block is wrong or what it should be
    (a hint that points at a place or a direction lets a few guesses walk to the answer)."""
    if isinstance(answer, tuple | list) and len(answer) == 2 and isinstance(answer[1], int):
        return "answer every block's kind, in order, not a (kind, count) pair"
    if not isinstance(answer, tuple | list) or not all(isinstance(k, str) for k in answer):
        return "answer a list of str, one kind per block, in the order the blocks come"
    kinds = list(answer)
    if [k.strip().lower() for k in kinds] == solution:
        return "write each kind exactly as parse_blocks names it (b.kind), lower case, no spaces"
    manual = load_document("manual")
    if kinds == _kinds_of(manual.text):
        return (
            "that is the unchanged manual's blocks: a blank line ends item 3's paragraph, and a "
            "line after it that is not indented to the item's text (three spaces, past `3. `) "
            "ends the list"
        )
    if kinds == _kinds_of(manual.text.replace(*BLANK_BEFORE_TABLE)):
        return f"that is what the blank line alone gives, delimiter row kept: {_NO_DELIMITER}"
    if kinds == _kinds_of(with_explicit_headings(manual).text):
        return "that is the structured manual's blocks: the exercise changes the plain manual"
    if any(a == b == "list" for a, b in zip(kinds, kinds[1:], strict=False)):
        return (
            "two list blocks in a row: you split a list at the blank lines between its items, as "
            "the sketch does; to CommonMark and parse_blocks a loose list is one block"
        )
    if "heading" in kinds:
        return (
            "no line of the manual starts with `#` or is underlined, so parse_blocks finds no "
            "heading in it: a numbered title such as `1. Escopo` is a list item (02d's section 1)"
        )
    if "table" in kinds:
        return _NO_DELIMITER
    if (
        len(kinds) == len(solution)
        and [k if k != "paragraph" else "list" for k in kinds]
        == [k if k != "paragraph" else "list" for k in solution]
        and any(k == "paragraph" != s for k, s in zip(kinds, solution, strict=True))
    ):
        return (
            "an ordered list may start at any number, `4.` too, once a blank line ends the "
            "paragraph before it: only a list that interrupts a paragraph, with no blank line "
            "between them, must start at `1.`"
        )
    if kinds == solution[: len(kinds)]:
        return "you stopped early: parse_blocks reads the whole of `spaced`, to its last line"
    if "code" in kinds:
        return "no line of `spaced` is indented four spaces or opens a fence: there is no code"
    return (
        "not the blocks parse_blocks finds: go through `spaced` from its first line with "
        "02b's line rules, 02d's list items, the indentation rule and GFM's table rule, one "
        "kind per block"
    )


SIGN_QUESTIONS, SIGN_LOST = 12, 1  # 01b.2: twelve questions, one lost


def _fewest_wins_called() -> int:
    """01b.2: the fewest won questions, with SIGN_LOST lost, whose sign test gives p < 0.05."""
    return next(w for w in range(SIGN_QUESTIONS) if sign_test(w, SIGN_LOST) < 0.05)


def _fewest_wins_hint(answer: Any, solution: int) -> str:
    """01b.2: the p the learner's count gives, two-sided, and the one-sided slip named."""
    if not isinstance(answer, int) or isinstance(answer, bool) or answer < 0:
        return ""
    if answer + SIGN_LOST > SIGN_QUESTIONS:
        return f"won and lost together are at most the {SIGN_QUESTIONS} questions"
    p = sign_test(answer, SIGN_LOST)
    if answer == next(w for w in range(SIGN_QUESTIONS) if sign_test(w, 0) < 0.05):
        return f"that is the fewest with none lost; with {SIGN_LOST} lost, p = {p:.3g}"
    if p >= 0.05 and p / 2 < 0.05:
        return (
            f"{answer} won, {SIGN_LOST} lost gives p = {p:.3g}: {p / 2:.3g} is one side's tail only"
        )
    if p >= 0.05:
        return f"{answer} won, {SIGN_LOST} lost gives p = {p:.3g}, not below 0.05"
    return f"{answer} won gives p = {p:.3g}, below 0.05; is it the fewest? compute p for fewer"


SOLUTIONS_FIXED_STRUCTURAL: dict[str, tuple[str, Callable[[], Any]]] = {
    "01d.1": ("an int: the overlap", _smallest_overlap_keeping_lines),
    "01b.2": ("an int: the fewest questions won", _fewest_wins_called),
    "02d.1": ("a list of str: each block's kind, in order", _block_kinds),
}

# exercise -> (answer, solution) -> what is wrong with that answer, in words.
HINTS_FIXED_STRUCTURAL: dict[str, Callable[[Any, Any], str]] = {
    "01d.1": _overlap_hint,
    "01b.2": _fewest_wins_hint,
    "02d.1": _block_kinds_hint,
}

FORMS_FIXED_STRUCTURAL: dict[str, Form] = {
    "01d.1": Form(misses=_overlap_misses),
}
