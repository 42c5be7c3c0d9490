"""Judging a typed-in answer against the expected one the way a teacher would: on its value, not
on its spelling.

`selfcheck.check` compared with `==`, so a tuple where a list was asked, or 0.833 for 0.83 when
two decimals were asked, was refused as wrong (issue 29), and a refusal said only "not quite".
Here a list and a tuple are the same answer, a number is compared at the precision the exercise
asks, order counts only where the exercise says it does (`Form.ordered`), and a refusal says what
is wrong: the type, the rounding, the length, or which items. It never shows the expected value.
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from chunklab.teaching.claims import bare_verdict

_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4}


@dataclass(frozen=True)
class Form:
    """How an exercise's answer is compared. `decimals`: a float is right when it rounds to the
    expected value at that many decimals. `ordered`: whether a sequence's order is part of the
    answer (a set of ids is not). `misses`: known wrong answers, each with why it is wrong,
    computed from the library when asked (never typed in)."""

    decimals: int | None = None
    ordered: bool = True
    misses: Callable[[], Mapping[Any, str]] | None = None


def form_from_shape(shape: str) -> Form:
    """The form an exercise's shape sentence implies ("a float, two decimals", "a sorted list of
    question ids"), so that exercises written before `Form` existed are judged the same way: a
    sorted list of ids is a set written in a canonical order, not an ordering."""
    found = re.search(r"\b(\w+) decimals?\b", shape)
    decimals = None
    if found:
        word = found[1].lower()
        decimals = int(word) if word.isdigit() else _WORDS.get(word)
    unordered = re.search(r"\bsorted list\b|\bany order\b|\bset of\b", shape)
    return Form(decimals=decimals, ordered=not unordered)


def _is_sequence(value: Any) -> bool:
    return isinstance(value, (list, tuple))


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _kind(value: Any) -> str:
    """'an int', 'a str': the answer's type, as a learner would say it."""
    name = type(value).__name__
    return f"an {name}" if name[0] in "aeiou" else f"a {name}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def judge_scalar(answer: Any, expected: Any, form: Form) -> str | None:
    """None when `answer` is right, else what is wrong with it (never the expected value)."""
    if isinstance(expected, bool) or not _is_number(expected):
        if isinstance(expected, bool) and type(answer).__name__ not in ("bool", "bool_"):
            return f"{_kind(answer)} where True or False is asked"
        if isinstance(expected, str) and not isinstance(answer, str):
            return f"{_kind(answer)} where a str is asked"
        if isinstance(answer, str) and bare_verdict(answer) == expected:
            return None  # a verdict pasted from compare's line with its note is the verdict
        return None if answer == expected else "the value is not right"
    if not _is_number(answer):
        wanted = "an int" if isinstance(expected, numbers.Integral) else "a number"
        return f"{_kind(answer)} ({answer!r}) where {wanted} is asked"
    if isinstance(expected, numbers.Integral):
        return None if float(answer) == float(expected) else "the value is not right"
    if form.decimals is None:
        right = math.isclose(answer, expected, rel_tol=1e-9, abs_tol=1e-9)
        return None if right else "the value is not right"
    step = 10.0**-form.decimals
    if abs(round(float(answer), form.decimals) - float(expected)) < step / 2:
        return None
    if float(answer) == math.ceil(round(float(expected) / step, 6)) * step:
        return (
            f"close, but rounded up: round to the nearest at {_plural(form.decimals, 'decimal')} "
            f"(round(x, {form.decimals})), not up"
        )
    if abs(float(answer) - float(expected)) <= step * (1 + 1e-9) and abs(answer) > abs(expected):
        # cutting digits off only ever lowers a number's size: this one is off, not truncated
        return (
            "close, but off by one in the last decimal: not a rounding slip (cutting digits off "
            "gives less); recheck the setting"
        )
    if abs(float(answer) - float(expected)) <= step * (1 + 1e-9):
        return (
            f"close, but not right to {_plural(form.decimals, 'decimal')}: round it "
            f"(round(x, {form.decimals})), don't cut digits off"
        )
    return "the value is not right"


def _judge_ordered(answer: list, expected: list, form: Form) -> str | None:
    wrong = [
        (i, why)
        for i, (a, e) in enumerate(zip(answer, expected, strict=True))
        if (why := judge(a, e, form)) is not None
    ]
    if not wrong:
        return None
    if not _judge_unordered(answer, expected, form):
        return "the right items, in the wrong order"
    plain = "the value is not right"
    named = " and ".join(f"{i + 1}" if why == plain else f"{i + 1} ({why})" for i, why in wrong)
    are = "is" if len(wrong) == 1 else "are"
    return f"{'item' if len(wrong) == 1 else 'items'} {named} of {len(expected)} {are} not right"


def _judge_unordered(answer: list, expected: list, form: Form) -> str | None:
    left = list(expected)
    unmatched = 0
    for a in answer:
        k = next((j for j, e in enumerate(left) if judge(a, e, form) is None), None)
        if k is None:
            unmatched += 1
        else:
            left.pop(k)
    if not unmatched:
        return None
    return (
        f"{len(answer) - unmatched} of your {len(answer)} items are right "
        f"(order does not matter here)"
    )


def _unordered_length(answer: list, expected: list, form: Form) -> str:
    """A set answer of the wrong size. Its size is part of the answer, so the refusal says what is
    wrong with the items (repeats, items that do not belong, some missing), never how many."""
    if len({repr(a) for a in answer}) < len(answer):
        return "your list repeats items: give each once"
    belong = sum(any(judge(a, e, form) is None for e in expected) for a in answer)
    if belong < len(answer):
        return f"{len(answer) - belong} of your {len(answer)} items do not belong"
    return "every item you give is right, but some are missing"


def judge(answer: Any, expected: Any, form: Form) -> str | None:
    """None when `answer` is right for `expected` under `form`, else one phrase saying what is
    wrong: the type, the length, the rounding, or which items."""
    if not _is_sequence(expected):
        return judge_scalar(answer, expected, form)
    if type(answer).__name__ == "ndarray" and getattr(answer, "ndim", 0) == 1:
        answer = answer.tolist()  # a numpy vector of the right values is the right answer
    if isinstance(answer, (set, frozenset)) and not form.ordered:
        answer = list(answer)
    if not _is_sequence(answer) and hasattr(answer, "__len__"):  # its size: the learner's to find
        return f"{_kind(answer)} where a list or tuple is asked"
    if not _is_sequence(answer):
        return f"{_kind(answer)} where a list or tuple of {len(expected)} items is asked"
    if len(answer) != len(expected) and not form.ordered:
        return _unordered_length(list(answer), list(expected), form)
    if len(answer) != len(expected):
        return f"{_plural(len(answer), 'item')} where {len(expected)} are asked"
    if form.ordered:
        return _judge_ordered(list(answer), list(expected), form)
    return _judge_unordered(list(answer), list(expected), form)


def known_miss(answer: Any, form: Form) -> str | None:
    """Why `answer` is wrong when it is one of the exercise's known wrong answers."""
    if form.misses is None:
        return None
    for wrong, why in form.misses().items():
        if judge(answer, wrong, Form(decimals=form.decimals, ordered=form.ordered)) is None:
            return why
    return None
