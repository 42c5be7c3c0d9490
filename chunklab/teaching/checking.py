"""What every coding-exercise check shares: the verdict, the "not yet" signal, and short,
readable renderings of what the learner's function returned.

Kept apart from the checks themselves (`teaching.exercises`) so that the checks of one notebook can
live in a module of their own and still speak the same way to the learner.
"""

from __future__ import annotations

import copy
import inspect
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple

import numpy as np


class Verdict(NamedTuple):
    passed: bool
    message: str


class Cases(NamedTuple):
    """What a check ran, said in its pass line where "cases it had not seen" would not be true
    (09c.1's cases are spans of one page the notebook also reads): how many, and what they were."""

    how_many: int
    said: str


class NotYet(Exception):
    """A case the learner's function got wrong; the message says which and how."""


def short(value: Any, width: int = 90) -> str:
    text = repr(value)
    return text if len(text) <= width else text[: width - 1] + "…"


def first_difference(got: list, expected: list, show: Callable[[Any], str]) -> tuple[int, str, str]:
    """Where two lists first differ, and what each holds there ('absent'/'nothing' past an end)."""
    k = next(
        (i for i, (a, b) in enumerate(zip(got, expected, strict=False)) if a != b),
        min(len(got), len(expected)),
    )
    return (
        k,
        show(expected[k]) if k < len(expected) else "absent",
        show(got[k]) if k < len(got) else "nothing",
    )


def close(got: Any, expected: np.ndarray) -> bool:
    try:
        got = np.asarray(got, dtype=np.float64)
    except (TypeError, ValueError):
        return False
    return got.shape == expected.shape and bool(np.allclose(got, expected, atol=1e-5))


def rounded(value: Any) -> str:
    try:
        return short(np.round(np.asarray(value, dtype=np.float64), 3).tolist())
    except (TypeError, ValueError):
        return short(value)


@contextmanager
def calls_to(*functions: Callable) -> Iterator[list[str]]:
    """Record the calls to any of `functions` while the block runs (the list holds the called
    function's qualified name, once per call).

    An exercise that asks the learner to write what the library does refuses an answer that calls
    the library: the check runs the learner's function inside this block. The calls are found by
    the functions' code objects, so `from module import function` cannot hide them."""
    names = {f.__code__: f"{f.__module__}.{f.__name__}" for f in functions}
    calls: list[str] = []
    previous = sys.getprofile()

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code in names:
            calls.append(names[frame.f_code])

    sys.setprofile(profile)
    try:
        yield calls
    finally:
        sys.setprofile(previous)


def run_without(
    fn: Callable, args: tuple, function: Callable | Sequence[Callable], refusal: str
) -> Any:
    """The learner's `fn(*args)`, refused with `refusal` (what it calls, and what the exercise
    asks instead) when it calls the library's `function`, or any of several, which the exercise
    asks it to write. `{name}` in `refusal` becomes the qualified name of the first one called.
    A refused call that raises (`compare` on lists of unequal length) is refused all the same:
    its error would hide the hint."""
    watched = list(function) if isinstance(function, Sequence) else [function]
    with calls_to(*watched) as called:
        try:
            got = fn(*args)
        except Exception as error:
            if called:
                raise NotYet(refusal.replace("{name}", called[0])) from error
            raise
    if called:
        raise NotYet(refusal.replace("{name}", called[0]))
    return got


def floors(fn: Callable) -> bool:
    """Whether the learner's source divides with `//` (True when it cannot be read)."""
    try:
        return "//" in inspect.getsource(fn)
    except (OSError, TypeError):
        return True


def consistent_slips(fn: Callable, slips: list, cases: list, shape: Callable = list) -> list[str]:
    """The hints of the slips `(method, hint)` whose result equals `shape(fn(*case))` on every
    case: one case can match several slips by chance, the fixed cases together rarely do."""
    got = []
    for case in cases:
        try:
            got.append(shape(fn(*copy.deepcopy(case))))
        except Exception:  # a learner's function may raise on some case: no slip is named then
            return []
    return [
        why
        for slip, why in slips
        if all(g == slip(*copy.deepcopy(case)) for g, case in zip(got, cases, strict=True))
    ]
