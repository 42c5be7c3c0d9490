"""The check of exercise 01b.3: the learner writes the paired interval by resampling the questions,
and the check compares it with the library's `evaluation.bootstrap.paired` on differences the
notebook never shows, naming the slip a learner is likely to make (the ends fixed at 2.5 and 97.5,
all of `100 - level` on each side, no scale to points, draws without replacement, the legacy
global generator).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import numpy as np

from chunklab.evaluation.bootstrap import interval, paired, resamples
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


def _slip(diffs: list[float], draws: int, seed: int, level: float, got: Pair) -> str:
    """Name the predictable slip whose interval is the learner's."""
    tail = (100 - level) / 2
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


def _check_paired_interval(fn: Callable) -> int:
    rng, cases = random.Random(31), 0
    for level in (95.0, 90.0, 98.0, 80.0):
        for _ in range(3):
            n = rng.randint(6, 30)
            diffs = [float(rng.choice([1, 0, 0, -1])) for _ in range(n)]
            draws, seed = 5000, rng.randint(0, 999)
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
                    + _slip(diffs, draws, seed, level, pair)
                )
            cases += 1
    return cases


CHECKS_PAIRED_INTERVAL: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "01b.3": (
        "paired_interval(differences, draws, seed, level) -> (low, high)",
        _check_paired_interval,
    ),
}
