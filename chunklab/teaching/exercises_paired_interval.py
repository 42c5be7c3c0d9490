"""The check of exercise 01b.3: the learner writes the paired interval by resampling the questions,
and the check compares it with the library's `evaluation.bootstrap.paired` on differences the
notebook never shows, naming the slip a learner is likely to make (the ends fixed at 2.5 and 97.5,
all of `100 - level` on each side, no scale to points, draws without replacement, the legacy
global generator, `draws` ignored for cell 7's 2000 rows).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import numpy as np

from chunklab.evaluation.bootstrap import COUNT, count_for, interval, paired, resamples
from chunklab.teaching.checking import NotYet, run_without, short

Pair = tuple[float, float]


def _interval(
    diffs: list[float], draws: int, seed: int, ends: Pair, scale: float = 100, legacy: bool = False
) -> Pair:
    size = (draws, len(diffs))
    if legacy:  # np.random.seed(seed); np.random.randint(...): the old global generator
        picks = np.random.RandomState(seed).randint(0, len(diffs), size=size)
    else:
        picks = np.random.default_rng(seed).integers(0, len(diffs), size=size)
    low, high = np.percentile(np.asarray(diffs)[picks].mean(axis=1) * scale, list(ends))
    return float(low), float(high)


# Differences off any grid: an interval from another number of rows cannot land on the right one
PROBE = [0.31, -1.2, 0.7, 0.05, -0.44, 1.1, 0.93]


def _rows_drawn(fn: Callable, draws: int) -> int | None:
    """The fixed number of rows (cell 7's 2000, or a round one) `fn` draws whatever `draws` is."""
    try:
        got = fn(list(PROBE), draws, 5, 90.0)
        pair = (float(got[0]), float(got[1]))
    except Exception:  # a learner's function may raise here: no slip is named then
        return None
    for fixed in (COUNT, 1000, 5000, 10000):
        wrong = _interval(PROBE, fixed, 5, (5.0, 95.0))
        if fixed != draws and all(
            math.isclose(g, w, abs_tol=1e-9) for g, w in zip(pair, wrong, strict=True)
        ):
            return fixed
    return None


def _slip(diffs: list[float], draws: int, seed: int, level: float, got: Pair, fn: Callable) -> str:
    """Name the predictable slip whose interval is the learner's."""
    tail = (100 - level) / 2
    fixed = _rows_drawn(fn, draws)
    if fixed is not None:
        return (
            f"you ignored `draws`: your function draws {fixed} rows, not the {draws} asked; draw "
            "`draws` rows (cell 7's 2000 is its own choice, not the exercise's)"
        )
    slips = {  # the generator first: its interval can land on a wrong-ends one by chance
        "the draws come from the legacy generator (`np.random.seed`, `np.random.randint`): draw "
        "from `np.random.default_rng(seed)` as cell 7 does, so the same seed gives the same rows": (
            _interval(diffs, draws, seed, (tail, 100 - tail), legacy=True)
        ),
        "the ends move with `level`: put (100 - level) / 2 percent beyond each end, not 2.5": (
            _interval(diffs, draws, seed, (2.5, 97.5))
        ),
        "you put all of 100 - level beyond EACH end: split it, half below, half above": (
            _interval(diffs, draws, seed, (2 * tail, 100 - 2 * tail))
        ),
        "the interval is in points: multiply the mean difference by 100": (
            _interval(diffs, draws, seed, (tail, 100 - tail), scale=1)
        ),
    }
    for why, wrong in slips.items():
        if all(math.isclose(g, w, abs_tol=1e-9) for g, w in zip(got, wrong, strict=True)):
            return why
    if math.isclose(got[0], got[1]) and len(set(diffs)) > 1:
        return (
            "every draw gave the same mean: draw the questions WITH replacement "
            "(`rng.integers(0, n, ...)`), so a question can come twice and another not at all"
        )
    return "draw rows as cell 7 does, from `np.random.default_rng(seed)`, then take percentiles"


_LIBRARY: list[Callable] = [paired, resamples, interval]  # compare resamples through them
_OWN = (
    "your function calls {name}, the library's resampling: write it yourself (rows of question "
    "indices from np.random.default_rng(seed), each row's mean difference, the two percentiles)"
)


FAMILY_LEVEL = 100 - 5 / 11  # a family of 11 comparisons read at 0.05 / 11, as 01d reads one


def _check_paired_interval(fn: Callable) -> int:
    rng, cases = random.Random(31), 0
    for level in (95.0, 90.0, 98.0, 80.0, FAMILY_LEVEL):
        for _ in range(3):
            n = rng.randint(6, 30)
            diffs = [float(rng.choice([1, 0, 0, -1])) for _ in range(n)]
            # `draws` varies (an answer that ignores it fails), and is at least what `paired`
            # draws at this level (`count_for`), so the library draws exactly `draws` rows too
            draws, seed = count_for(level, rng.choice([700, 3000, 5000])), rng.randint(0, 999)
            got = run_without(fn, (list(diffs), draws, seed, level), _LIBRARY, _OWN)
            try:
                pair = (float(got[0]), float(got[1]))
            except (TypeError, IndexError, ValueError):
                raise NotYet(f"return a pair (low, high) of numbers, not {short(got)}") from None
            right = paired(np.asarray(diffs), np.zeros(n), count=draws, seed=seed, level=level)
            if not all(math.isclose(g, r, abs_tol=1e-9) for g, r in zip(pair, right, strict=True)):
                raise NotYet(
                    f"{n} differences {short(diffs, 40)}, level {level:g}, seed {seed}: expected "
                    f"[{right[0]:+.2f}, {right[1]:+.2f}], got [{pair[0]:+.2f}, {pair[1]:+.2f}]: "
                    + _slip(diffs, draws, seed, level, pair, fn)
                )
            cases += 1
    return cases


CHECKS_PAIRED_INTERVAL: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "01b.3": (
        "paired_interval(differences, draws, seed, level) -> (low, high)",
        _check_paired_interval,
    ),
}
