"""Companion 03g's check (03g.2): a gain split in two halves, each with the questions it does not
tie. `split_gain(section, alone, direct)` takes three lists of fact recalls (shares, 0 to 1) on
the same questions in the same order: small-to-big's section, the children alone in its tokens,
the sections searched directly. It returns ``((points, untied), (points, untied))``: the children
alone against the sections searched directly, then the section against the children alone; points
are the mean of the paired differences times 100, untied the questions where the pair differ.

The check refuses a call to `compare` (the pairing is the exercise) and names the slips: the
halves swapped or read the other way round, the whole gain in place of a half, shares instead of
points, the points averaged over the untied questions only, the points rounded, the ties counted,
every question counted, the wins alone counted, the lists sorted before the pairing. Registered in
`exercises`."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from chunklab.teaching.checking import NotYet, consistent_slips, run_without, short
from chunklab.teaching.claims import compare

Scores = list[float]
Case = tuple[Scores, Scores, Scores]
Half = tuple[float, int]


def _differ(x: Scores, y: Scores) -> int:
    return sum(a != b for a, b in zip(x, y, strict=True))


def _half(x: Scores, y: Scores, scale: float = 100, untied: Callable = _differ) -> Half:
    return scale * sum(a - b for a, b in zip(x, y, strict=True)) / len(x), untied(x, y)


def _untied_mean(x: Scores, y: Scores) -> Half:
    differences = [a - b for a, b in zip(x, y, strict=True) if a != b]
    return (100 * sum(differences) / len(differences) if differences else 0.0), len(differences)


def _rounded(digits: int) -> Callable:
    return lambda s, a, d: tuple((round(p, digits), u) for p, u in split_expected(s, a, d))


def split_expected(section: Scores, alone: Scores, direct: Scores) -> tuple[Half, Half]:
    return _half(alone, direct), _half(section, alone)


def _shape(got: Any) -> tuple[Half, Half] | None:
    try:
        (p1, u1), (p2, u2) = got
        return (round(float(p1), 6), int(u1)), (round(float(p2), 6), int(u2))
    except (TypeError, ValueError):
        return None


def _counted(untied: Callable) -> Callable:
    return lambda s, a, d: (_half(a, d, untied=untied), _half(s, a, untied=untied))


ROUNDED = "return the points unrounded: you rounded them (round only where you print them)"
SPLIT_SLIPS: list[tuple[Callable, str]] = [
    (
        lambda s, a, d: (_half(s, a), _half(a, d)),
        "the halves are swapped: first the children alone against the sections searched "
        "directly, then the section against the children alone",
    ),
    (
        lambda s, a, d: (_half(d, a), _half(a, s)),
        "each half is read the other way round: the children alone minus the sections "
        "searched directly, then the section minus the children alone",
    ),
    (
        lambda s, a, d: (_half(a, d), _half(s, d)),
        "the second half is the section against the children alone: against the sections "
        "searched directly it is the whole gain",
    ),
    (
        lambda s, a, d: (_half(s, d), _half(s, a)),
        "the first half is the children alone against the sections searched directly: the "
        "section against them is the whole gain",
    ),
    (
        lambda s, a, d: (_half(a, d, scale=1), _half(s, a, scale=1)),
        "points are the mean difference times 100: you returned shares",
    ),
    (
        lambda s, a, d: (_untied_mean(a, d), _untied_mean(s, a)),
        "points are the mean difference over all the questions, a tie adding 0: you averaged "
        "over the untied questions only",
    ),
    *[(_rounded(digits), ROUNDED) for digits in (0, 1, 2)],
    (
        _counted(lambda x, y: sum(a == b for a, b in zip(x, y, strict=True))),
        "untied counts the questions where the two differ: you counted the ties",
    ),
    (
        _counted(lambda x, y: len(x)),
        "untied counts only the questions where the two differ, not every question",
    ),
    (
        _counted(lambda x, y: sum(a > b for a, b in zip(x, y, strict=True))),
        "untied counts every question where the two differ, lost as well as won",
    ),
    (
        _counted(lambda x, y: _differ(sorted(x), sorted(y))),
        "pair the lists question by question: you sorted them before counting the untied",
    ),
]

SPLIT_SLIPS = [  # compared as the learner's answer is: rounded, as pairs
    (lambda *case, slip=slip: _shape(slip(*case)), why) for slip, why in SPLIT_SLIPS
]

THIRD = 1 / 3
SPLIT_CASES: list[Case] = [  # each slip gives a result of its own on these together
    ([1.0, 1.0, 0.5, 1.0, 0.0], [1.0, 0.5, 0.5, 2 * THIRD, 0.0], [0.0, 0.5, 1.0, THIRD, 0.0]),
    ([1.0, 0.5, 1.0], [0.5, 0.5, 1.0], [1.0, 0.0, 0.5]),
    ([0.5], [0.5], [0.5]),
]


def _cases() -> list[Case]:
    rng, cases = random.Random(38), list(SPLIT_CASES)
    levels = [0.0, 0.25, THIRD, 0.5, 2 * THIRD, 1.0]
    for _ in range(30):
        n = rng.randint(1, 12)
        direct = [rng.choice(levels) for _ in range(n)]
        alone = [d if rng.random() < 0.5 else rng.choice(levels) for d in direct]
        section = [a if rng.random() < 0.6 else rng.choice(levels) for a in alone]
        cases.append((section, alone, direct))
    return cases


def check_split_gain(fn: Callable) -> int:
    cases = _cases()
    for case in cases:
        got = run_without(
            fn,
            tuple(list(scores) for scores in case),
            compare,
            "your function calls {name}: pair the lists and count the untied questions yourself",
        )
        expected = _shape(split_expected(*case))
        if _shape(got) is None:
            raise NotYet(
                f"return ((points, untied), (points, untied)), not {short(got, 60)}: the children "
                "alone against the sections searched directly, then the section against them"
            )
        if _shape(got) != expected:
            named = consistent_slips(fn, SPLIT_SLIPS, SPLIT_CASES, _shape)
            if not named:  # dividing by the untied questions raises on the third case, all tied
                named = consistent_slips(fn, SPLIT_SLIPS, SPLIT_CASES[:2], _shape)
            why = "; or ".join(named) or "not the halves expected"
            raise NotYet(
                f"{why}. Case: section {short(case[0], 60)}, alone {short(case[1], 60)}, direct "
                f"{short(case[2], 60)}: expected {expected}, got {short(got, 60)}"
            )
    return len(cases)


CHECKS_GAIN_SPLIT = {
    "03g.2": (
        "split_gain(section, alone, direct) -> ((points, untied), (points, untied))",
        check_split_gain,
    ),
}
