"""The answer exercises of notebooks 01 and 02 (fixed windows, structural cuts): each expected
answer computed from the library when asked, and the plausible wrong answers each refusal
recognises, with why. Those of 03, 03b and 03c (small-to-big, windows,
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
}

# exercise -> (answer, solution) -> what is wrong with that answer, in words.
HINTS_FIXED_STRUCTURAL: dict[str, Callable[[Any, Any], str]] = {
    "01d.1": _overlap_hint,
    "01b.2": _fewest_wins_hint,
}

FORMS_FIXED_STRUCTURAL: dict[str, Form] = {
    "01d.1": Form(misses=_overlap_misses),
}
