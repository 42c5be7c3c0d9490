"""Companion 03c's exercise 03c.1: the learner writes section 1's rule for the "fetch more, then
filter" patch, the smallest factor whose fetch holds k passing chunks, and the slips it names.

Why a check of its own: the exercise used to ask for one number, which a loop over factors
calling the notebook's patch found without the rule. Now the learner writes the rule over a
ranking given as pass/fail marks, and the check runs it on rankings the notebook never shows:
k above 1 (where the factor is rounded up, not down), the k-th passing chunk on a multiple of k,
and too few passing chunks at all.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from chunklab.teaching.checking import NotYet, consistent_slips, short


def fetch_factor_expected(passing: list[bool], k: int) -> int | None:
    """The smallest factor f >= 1 whose top f * k holds k passing chunks; None if fewer pass."""
    seen = 0
    for position, passes in enumerate(passing, start=1):
        seen += bool(passes)
        if seen == k:
            return math.ceil(position / k)
    return None


def _kth(passing: list[bool], k: int) -> int | None:  # 1-based position of the k-th passing one
    seen = [i for i, p in enumerate(passing, start=1) if p]
    return seen[k - 1] if len(seen) >= k else None


def _slip(
    first_only: bool, how: Callable[[int, int], int], guarded: bool = False
) -> Callable[[list[bool], int], object]:
    """A slip read from the first (or the k-th) passing position; None when there is none (or,
    `guarded`, when fewer than k pass: the None case right, the slip elsewhere)."""

    def slip(passing: list[bool], k: int) -> object:
        position = _kth(passing, 1 if first_only else k)
        if position is None or (guarded and _kth(passing, k) is None):
            return None
        return how(position, k)

    return slip


SLIPS: list[tuple[Callable[[list[bool], int], object], str]] = [
    (
        _slip(True, lambda at, k: at - 1),
        "that is the count of failing chunks above the first that passes, not yet the factor",
    ),
    (
        _slip(False, lambda at, k: at),
        "that is how deep to fetch (factor x k), a position in the ranking: return the factor",
    ),
    (
        _slip(False, lambda at, k: at // k),
        "rounded down: a fetch of factor x k must reach the k-th passing chunk, so round up",
    ),
    (
        _slip(True, lambda at, k: math.ceil(at / k)),
        "you stopped at the first passing chunk: k of them must be in the fetch",
    ),
    (
        _slip(True, lambda at, k: at),
        "you stopped at the first passing chunk and returned its position: k of them must be in "
        "the fetch, and the answer is a factor",
    ),
    (
        _slip(False, lambda at, k: at - k + 1),
        "that is the k = 1 rule (failing chunks above, plus one) carried to any k: the fetch holds "
        "factor x k chunks, so divide the k-th passing chunk's position by k, rounded up",
    ),
    (
        _slip(False, lambda at, k: at // k + 1),
        "position // k + 1 is one too many when the position divides by k: round up instead",
    ),
]
SLIPS += [
    (_slip(True, how, guarded=True), hint)
    for how, hint in [  # None when fewer than k pass
        (lambda at, k: math.ceil(at / k), SLIPS[3][1]),
        (lambda at, k: at, SLIPS[4][1]),
        (lambda at, k: at - 1, SLIPS[0][1]),
    ]
]
ZERO_BASED = (
    "you counted positions from 0 (enumerate's default): the chunk at index i is the (i + 1)-th, "
    "and the fetch must reach it, so divide i + 1 by k, rounded up"
)
SLIPS += [
    (_slip(False, lambda at, k: math.ceil((at - 1) / k)), ZERO_BASED),
    (_slip(False, lambda at, k: max(1, math.ceil((at - 1) / k))), ZERO_BASED),
]


def _cases() -> list[tuple[list[bool], int]]:
    fixed = [
        ([False, True, True, False, False], 2),  # failing ones below the 2nd passing: factor 1
        ([False, False, True], 1),
        ([False, True, False, True, True], 2),  # the 2nd passing at 4: factor 2, not 4
        ([False, False, True, False, True, True, False], 2),  # at 5: rounded up to 3
        ([True, False, False, False, True, False, True], 3),  # at 7: ceil(7 / 3) = 3
        ([False, False, False], 1),  # none passes
        ([True, False, True], 3),  # fewer than k pass
        ([], 1),
    ]
    rng = random.Random(11)
    for _ in range(40):
        ranking = [rng.random() < 0.3 for _ in range(rng.randint(0, 15))]
        fixed.append((ranking, rng.randint(1, 4)))
    return fixed


def _why(got: object, passing: list[bool], k: int) -> str:
    expected = fetch_factor_expected(passing, k)
    if got == expected:  # the right number, in another type
        return f"the right factor as {type(got).__name__}: return an int"
    if isinstance(got, float) and expected is not None and math.ceil(got) == expected:
        return "a float, the position over k not rounded up: return an int, rounded up"
    if expected is None:
        return "fewer than k chunks pass at all: no factor reaches k of them, return None"
    k1_rule = (_kth(passing, k) or 0) - k + 1  # the k = 1 rule carried to k, a slip of its own
    if got == sum(not p for p in passing) + 1 != k1_rule:
        return (
            "that counts every failing chunk in the ranking, plus one: only those ranked above the "
            "k-th passing chunk take places in the fetch"
        )
    for slip, hint in SLIPS:
        if got == slip(passing, k) != expected:
            return hint
    if got is None:
        return "k chunks pass: return the factor that reaches the k-th, not None"
    return "not the smallest factor whose top factor x k holds k passing chunks"


def check_fetch_factor(fn: Callable) -> int:
    cases = _cases()
    for passing, k in cases:
        got = fn(list(passing), k)
        expected = fetch_factor_expected(passing, k)
        if got != expected or (expected is not None and not isinstance(got, int)):
            # a slip that matches on every case is named; one case alone may match several
            named = consistent_slips(fn, SLIPS, cases, shape=lambda value: value)
            raise NotYet(
                f"{named[0] if named else _why(got, passing, k)}. Case: passing={passing}, "
                f"k={k}: expected {expected}, got {short(got)}"
            )
    return len(cases)


CHECKS_FETCH_FACTOR: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "03c.1": ("fetch_factor(passing, k) -> smallest int factor, or None", check_fetch_factor),
}
