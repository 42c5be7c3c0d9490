"""Bootstrap intervals of a mean over questions: how much a benchmark figure owes to which
questions happened to be asked.

Chroma's benchmark has 472 questions over five corpora of unequal difficulty; a difference of one
point between two cuts may be noise. Resampling the questions with replacement (`count` times,
from a fixed `seed`, so the interval is the same on every run) and taking the 2.5th and 97.5th
percentiles of the resampled means gives a 95% percentile interval. `paired` resamples the *same*
questions for two cuts and bounds their difference, which is narrower than two separate
intervals suggest, since both cuts meet the same easy and hard questions.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

SEED = 26  # any fixed seed: the interval must be the same on every run
COUNT = 2000
# Resampled differences that must fall beyond each end of an interval: a 99.7% interval from 2,000
# resamples would rest on its three most extreme draws, so a higher level draws more.
PER_TAIL = 25


def count_for(level: float, count: int = COUNT) -> int:
    """How many resamples a `level` percent interval needs: `count`, or enough for `PER_TAIL`
    draws beyond each end (2,000 at 95%; 17,858 at 99.72%)."""
    tail = (100.0 - level) / 200.0
    if not 0 < tail < 0.5:
        raise ValueError(f"level must lie between 0 and 100 percent, not {level}")
    return max(count, math.ceil(PER_TAIL / tail))


# Rows of resamples averaged at once: a family read at 99.83% draws 30,000 resamples of 472
# questions, and gathering them all at once makes arrays of 113 MB; a block of rows stays in the
# processor's cache. Each row's mean is the same either way, bit for bit.
ROWS_AT_ONCE = 1000


@lru_cache(maxsize=1)
def _drawn(n: int, count: int, seed: int) -> np.ndarray:
    picks = np.random.default_rng(seed).integers(0, n, size=(count, n))
    picks.flags.writeable = False
    return picks


def resamples(n: int, count: int = COUNT, seed: int = SEED) -> np.ndarray:
    """(count, n) indices: each row a resample of n questions with replacement. Read-only, and
    kept for the next call: a family of comparisons on the same questions asks for the same
    resamples (the seed is fixed) once per comparison, and they are drawn once."""
    return _drawn(n, count, seed)


def _mean_differences(a: np.ndarray, b: np.ndarray, picks: np.ndarray) -> np.ndarray:
    """mean(a) - mean(b) over each row of `picks`, `ROWS_AT_ONCE` rows at a time."""
    out = np.empty(len(picks))
    for start in range(0, len(picks), ROWS_AT_ONCE):
        rows = picks[start : start + ROWS_AT_ONCE]
        out[start : start + ROWS_AT_ONCE] = a[rows].mean(axis=1) - b[rows].mean(axis=1)
    return out


def interval(
    values: np.ndarray, count: int = COUNT, seed: int = SEED, scale: float = 100.0
) -> tuple[float, float]:
    """95% percentile interval of the mean of `values` (x `scale`, as the report prints)."""
    values = np.asarray(values, dtype=np.float64)
    if values.size == 0:
        raise ValueError("no values to resample")
    means = values[resamples(values.size, count, seed)].mean(axis=1) * scale
    low, high = np.percentile(means, [2.5, 97.5])
    return float(low), float(high)


def paired(
    a: np.ndarray,
    b: np.ndarray,
    count: int = COUNT,
    seed: int = SEED,
    scale: float = 100.0,
    level: float = 95.0,
) -> tuple[float, float]:
    """The `level` percent interval (95 unless told) of mean(a) - mean(b) over the same resampled
    questions.

    A higher `level` is how a notebook that draws many intervals on the same questions corrects
    for their number (Bonferroni: 18 tests at 95% overall each need 100 - 5/18 = 99.72%); it
    draws more resamples (`count_for`), so that each end still rests on many of them."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape or a.size == 0:
        raise ValueError(f"paired scores must have one shape, not {a.shape} and {b.shape}")
    picks = resamples(a.size, count_for(level, count), seed)
    differences = _mean_differences(a, b, picks) * scale
    tail = (100.0 - level) / 2
    low, high = np.percentile(differences, [tail, 100.0 - tail])
    return float(low), float(high)
