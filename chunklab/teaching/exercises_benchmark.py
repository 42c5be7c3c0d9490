"""The coding exercise of notebook 10 (Chroma's benchmark): precision-Ω of fixed windows.

10.1 asks for `window_omega(excerpts, size, length)`: the precision-Ω of one question when a
document of `length` characters is cut into windows of `size` characters, [0, size),
[size, 2 size), ..., the last one ending at `length`. It shows that precision-Ω belongs to the cut
alone (no retriever, no model), and it keeps the report's boundary rule a learner is likely to
miss: a window that only *touches* an excerpt (ends where it starts, or starts where it ends)
counts among the windows, so its characters join the denominator. The expected value is the
library's `chroma.precision_omega` on the same windows. A wrong answer that matches one of the
predictable slips (touching windows left out, the whole document as denominator, the excerpts'
lengths summed over the meeting windows or over the union, a last window past the end or dropped,
the meeting windows without the excerpts (the case of an excerpt past the end), recall, one figure
per excerpt averaged, a percentage, windows that include their end character, windows taken as
(start, end + 1), a meet test against the excerpt's last character or the first excerpt only, the
share rounded, integer division, None or NaN where no window meets, overlaps summed per
excerpt and window, with or without the union) is told which slip it made; a value
no known slip gives is told to work the case by hand, not a guessed rule.

10d.1, `compare`'s rule written by hand, is checked in `teaching.exercises_verdict`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from chunklab.evaluation.chroma import Located, Question, precision_omega
from chunklab.teaching.answers import Form
from chunklab.teaching.checking import NotYet, run_without, short
from chunklab.teaching.exercises_verdict import CHECKS_VERDICT
from chunklab.teaching.exercises_windows import (
    AFTERWORDS_WINDOWS,
    CHECKS_WINDOWS,
    FORMS_WINDOWS,
    SOLUTIONS_WINDOWS,
)


def windows_of(size: int, length: int) -> list[tuple[int, int]]:
    """The windows 10.1 describes: [0, size), [size, 2 size), ..., the last ending at `length`."""
    return [(a, min(a + size, length)) for a in range(0, length, size)]


def expected_omega(excerpts: list[tuple[int, int]], size: int, length: int) -> float:
    chunks = [Located("", "doc", a, b) for a, b in windows_of(size, length)]
    return precision_omega(Question("q", "doc", tuple(excerpts)), chunks)


def _cases() -> list[tuple[list[tuple[int, int]], int, int]]:
    """Hand-picked boundary cases first, then random ones from a fixed seed."""
    cases = [
        ([(10, 20)], 10, 40),  # the excerpt is exactly one window; its neighbours touch it
        ([(5, 15)], 10, 30),  # two windows, half of each
        ([(0, 4), (30, 34)], 8, 40),  # two excerpts at both ends
        ([(12, 18)], 6, 20),  # the last window is short
        # an excerpt runs past the end: `| wanted` counts its rest (23, not 22, characters, so that
        # no slip gives the right value's neighbour by chance: 15/22 is also 15 over the document)
        ([(2, 5), (18, 30)], 4, 23),
        ([(30, 35)], 5, 20),  # the excerpt lies past the end: no window meets it, so 0.0
        # an excerpt starts past the end, within the last window's unclipped reach: the last
        # window, [20, 23), does not meet it (1/6; a meet test on [20, 24) gives 1/9)
        ([(2, 3), (24, 26)], 4, 23),
    ]
    rng = np.random.default_rng(101)
    for _ in range(40):
        length = int(rng.integers(20, 200))
        size = int(rng.integers(3, 40))
        excerpts = []
        for _ in range(int(rng.integers(1, 3))):
            a = int(rng.integers(0, length - 1))
            excerpts.append((a, int(rng.integers(a + 1, min(length, a + 30) + 1))))
        cases.append((excerpts, size, length))
    return cases


def _omega_over(
    excerpts: list[tuple[int, int]], windows: list[tuple[int, int]], touching: bool = True
) -> float:
    """Precision-Ω over the given windows, from sets of characters; `touching` False leaves out
    a window that only touches an excerpt (the slip the rule is there to catch)."""
    meeting = [
        (a, b)
        for a, b in windows
        if any((a <= e and b >= s) if touching else (a < e and b > s) for s, e in excerpts)
    ]
    if not meeting:
        return 0.0
    wanted = {i for s, e in excerpts for i in range(s, e)}
    seen = {i for a, b in meeting for i in range(a, b)}
    return len(wanted & seen) / len(seen | wanted)


_PER_WINDOW = (
    "you summed each excerpt's overlap with each window over the meeting windows alone: take the "
    "union of the excerpts' characters (overlaps count once), and an excerpt's characters no "
    "window covers join the denominator"
)

_UNCLIPPED_MEET = (
    "your meet test lets the last window run past `length`: it stops at `length`, so it does not "
    "meet an excerpt that starts past the end"
)

_SUMMED = (
    "your numerator sums the excerpts' lengths, over the meeting windows' characters alone: that "
    "counts excerpt characters no window covers (and any two excerpts share, twice); count the "
    "excerpt characters inside the meeting windows, over the union of those windows' characters "
    "and the excerpts'"
)


def _slips(excerpts: list[tuple[int, int]], size: int, length: int) -> dict[str, float]:
    """What each predictable slip returns on one case -> the words that name it."""
    windows = windows_of(size, length)
    unclipped = [(a, a + size) for a in range(0, length, size)]
    wanted = {i for s, e in excerpts for i in range(s, e)}
    meeting = [(a, b) for a, b in windows if any(a <= e and b >= s for s, e in excerpts)]
    seen = {i for a, b in meeting for i in range(a, b)}
    full = [(a, a + size) for a in range(0, length - size + 1, size)]
    excerpt_alone = [_omega_over([x], windows) for x in excerpts]
    return {
        "you left out the windows that only touch an excerpt (end where it starts, or start "
        "where it ends): the rule counts them, start <= excerpt end and end >= excerpt "
        "start": _omega_over(excerpts, windows, touching=False),
        "you divided by the whole document: precision-Ω divides by the characters of the "
        "windows that meet an excerpt": len(wanted) / length,
        "your numerator counts excerpt characters that no window covers: count only those "
        "inside the meeting windows": len(wanted) / len(seen | wanted) if seen else 0.0,
        _SUMMED: sum(e - s for s, e in excerpts) / len(seen) if seen else 0.0,
        "your numerator sums the excerpts' lengths: that counts excerpt characters no window "
        "covers (and overlapping ones twice); count only the excerpt characters inside the "
        "meeting windows": sum(e - s for s, e in excerpts) / len(seen | wanted) if seen else 0.0,
        "your last window runs past the document: it ends at `length`": _omega_over(
            excerpts, unclipped
        ),
        _UNCLIPPED_MEET: _unclipped_meet(excerpts, windows, unclipped),
        "you divided by the meeting windows alone: an excerpt's characters that no window "
        "covers count too (the union with the excerpts)": len(wanted & seen) / len(seen)
        if seen
        else 0.0,
        "that is recall (the excerpt characters covered over the excerpts' length): "
        "precision-Ω divides by the meeting windows' characters": len(wanted & seen) / len(wanted),
        "you dropped the short last window: the last one ends at `length`": _omega_over(
            excerpts, full
        ),
        "you averaged one precision-Ω per excerpt: take all the excerpts together, one set of "
        "meeting windows": sum(excerpt_alone) / len(excerpt_alone),
        "that is a percentage: return the share, from 0 to 1": 100
        * expected_omega(excerpts, size, length),
        "your windows include their end character: a window [start, end) stops before end": (
            _inclusive_end(excerpts, windows)
        ),
        "you compared with the excerpt's last character (start <= excerpt end - 1): the rule "
        "compares with the excerpt end itself, start <= excerpt end": _short_of_end(
            excerpts, windows
        ),
        "you clipped the excerpts at `length`: don't clip excerpts, only the last window stops "
        "at `length`": _omega_over([(s, min(e, length)) for s, e in excerpts], windows),
        "your windows are (start, end + 1), one character too long, in the meet test and the "
        "count: a window is [start, end), so (0, size), (size, 2 * size), ...": _omega_over(
            excerpts, [(a, b + 1) for a, b in windows]
        ),
        "you tested the meet against the first excerpt only: a window meets when it meets any "
        "of the excerpts": _first_excerpt_meets(excerpts, windows),
        "you summed each excerpt's overlap with each window: where two excerpts overlap, their "
        "characters count twice; take the union of characters": _per_pair(
            excerpts, meeting, length
        ),
        _PER_WINDOW: _per_pair(excerpts, meeting, length, union=False),
    }


def _unclipped_meet(
    excerpts: list[tuple[int, int]],
    windows: list[tuple[int, int]],
    unclipped: list[tuple[int, int]],
) -> float:
    """The meet tested on the unclipped windows, the characters counted on the clipped ones."""
    meeting = [
        w
        for w, (a, b) in zip(windows, unclipped, strict=True)
        if any(a <= e and b >= s for s, e in excerpts)
    ]
    if not meeting:
        return 0.0
    wanted = {i for s, e in excerpts for i in range(s, e)}
    seen = {i for a, b in meeting for i in range(a, b)}
    return len(wanted & seen) / len(seen | wanted)


def _per_pair(
    excerpts: list[tuple[int, int]], meeting: list[tuple[int, int]], length: int, union: bool = True
) -> float:
    """Precision-Ω summed pair by pair (excerpt x window): overlapping excerpts counted twice;
    `union` False: the excerpts' characters past the windows left out of the denominator."""
    inside = sum(max(0, min(b, e) - max(a, s)) for a, b in meeting for s, e in excerpts)
    past = sum(max(0, e - max(s, length)) for s, e in excerpts) if union else 0
    return inside / (sum(b - a for a, b in meeting) + past) if meeting else 0.0


def _first_excerpt_meets(excerpts: list[tuple[int, int]], windows: list[tuple[int, int]]) -> float:
    """Precision-Ω with the meet test run against the first excerpt only."""
    wanted = {i for s, e in excerpts for i in range(s, e)}
    s, e = excerpts[0]
    seen = {i for a, b in windows if a <= e and b >= s for i in range(a, b)}
    return len(wanted & seen) / len(seen | wanted) if seen else 0.0


def _short_of_end(excerpts: list[tuple[int, int]], windows: list[tuple[int, int]]) -> float:
    """Precision-Ω with the meet test `start <= excerpt end - 1`: a window starting where an
    excerpt ends is left out."""
    wanted = {i for s, e in excerpts for i in range(s, e)}
    meeting = [(a, b) for a, b in windows if any(a <= e - 1 and b >= s for s, e in excerpts)]
    seen = {i for a, b in meeting for i in range(a, b)}
    return len(wanted & seen) / len(seen | wanted) if seen else 0.0


def _inclusive_end(excerpts: list[tuple[int, int]], windows: list[tuple[int, int]]) -> float:
    """Precision-Ω with each meeting window's characters taken as [start, end], end included."""
    wanted = {i for s, e in excerpts for i in range(s, e)}
    meeting = [(a, b) for a, b in windows if any(a <= e and b >= s for s, e in excerpts)]
    seen = {i for a, b in meeting for i in range(a, b + 1)}
    return len(wanted & seen) / len(seen | wanted) if seen else 0.0


def _made_everywhere(fn: Callable, slip: str) -> bool:
    """Whether `fn` gives the slip's value on every case: what tells apart two slips that give
    the same value on the case that failed."""
    for excerpts, size, length in _cases():
        try:
            value = float(fn(list(excerpts), size, length))
        except Exception:  # noqa: BLE001 - a learner's function may raise anything
            return False
        if abs(value - _slips(excerpts, size, length)[slip]) > 1e-9:
            return False
    return True


def _rounds_everywhere(fn: Callable, decimals: int) -> bool:
    """Whether `fn` gives the right share rounded to `decimals` on every case (one value alone can
    be a rounding by chance)."""
    try:
        return all(
            abs(float(fn(list(x), size, n)) - round(expected_omega(x, size, n), decimals)) <= 1e-12
            for x, size, n in _cases()
        )
    except Exception:  # noqa: BLE001 - a learner's function may raise anything
        return False


def _which_slip(
    got: object, excerpts: list[tuple[int, int]], size: int, length: int, fn: Callable | None = None
) -> str:
    """The slip `got` matches on this case, in words (only the one `fn` makes on every case, when
    it can be told), or the rule restated when none does."""
    expected = expected_omega(excerpts, size, length)
    if got is None and expected == 0.0:
        return "no window meets an excerpt here: return 0.0, not None"
    try:
        value = float(got)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return "return one float"
    if np.isnan(value) and expected == 0.0:
        return "no window meets an excerpt here: return 0.0, not NaN"
    if fn is not None and any(
        abs(value - round(expected, d)) <= 1e-12 and _rounds_everywhere(fn, d) for d in range(1, 7)
    ):
        return "you rounded the share: return it unrounded"
    if value in (0.0, 1.0) and 0.0 < expected < 1.0 and isinstance(got, int):
        return "that is an integer: divide with /, not //, the share is a float from 0 to 1"
    matched = [  # one value can fit two slips (1.0: recall, or touching windows left out)
        words
        for words, slipped in _slips(excerpts, size, length).items()
        if abs(slipped - expected) > 1e-9 and abs(value - slipped) <= 1e-9
    ]
    if fn is not None:  # only a slip made on every case is named; none: a slip not listed here
        matched = [words for words in matched if _made_everywhere(fn, words)]
    if matched:
        return "; or ".join(matched)
    return (  # no known slip: the case to work by hand, not a guess at which rule was missed
        "not a slip this check knows: on this case, list the windows that meet an excerpt, then "
        "the excerpt characters inside them over the union of their characters and the excerpts'"
    )


def check_window_omega(fn: Callable) -> int:
    cases = 0
    for excerpts, size, length in _cases():
        expected = expected_omega(excerpts, size, length)
        got = run_without(
            fn,
            (list(excerpts), size, length),
            precision_omega,
            "your function calls chunklab.evaluation.chroma.precision_omega: the exercise "
            "asks you to write precision-Ω yourself, without chunklab.evaluation",
        )
        try:
            ok = abs(float(got) - expected) <= 1e-9
        except (TypeError, ValueError):
            ok = False
        if not ok:
            raise NotYet(
                f"excerpts {excerpts}, windows of {size} over {length} characters: expected "
                f"{expected:.4f}, got {short(got)}: {_which_slip(got, excerpts, size, length, fn)}"
            )
        cases += 1
    return cases


# exercise -> what a right answer is told besides "correct": the prompt's own question, answered
AFTERWORDS_BENCHMARK: dict[str, Callable[[], str]] = {
    **AFTERWORDS_WINDOWS,  # companion 10c's
}

SOLUTIONS_BENCHMARK: dict[str, tuple[str, Callable[[], float]]] = {
    **SOLUTIONS_WINDOWS,  # companion 10c's
}
FORMS_BENCHMARK: dict[str, Form] = {**FORMS_WINDOWS}

CHECKS_BENCHMARK: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "10.1": ("window_omega(excerpts, size, length) -> float", check_window_omega),
    **CHECKS_VERDICT,  # 10d.1's, in a module of its own
    **CHECKS_WINDOWS,  # companion 10c's, in a module of their own
}
