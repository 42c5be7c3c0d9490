"""The paired interval averages its resamples a block of rows at a time, and draws them once per
(questions, count, seed): the interval is the one of all resamples gathered at once, bit for bit."""

import numpy as np
import pytest

from chunklab.evaluation.bootstrap import count_for, paired, resamples


def gathered_at_once(a, b, level, scale=100.0):
    picks = np.random.default_rng(26).integers(0, a.size, size=(count_for(level), a.size))
    differences = (a[picks].mean(axis=1) - b[picks].mean(axis=1)) * scale
    tail = (100.0 - level) / 2
    low, high = np.percentile(differences, [tail, 100.0 - tail])
    return float(low), float(high)


@pytest.mark.parametrize("level", [95.0, 100 - 5 / 18, 100 - 5 / 30])
@pytest.mark.parametrize("n", [7, 472])
def test_paired_is_the_interval_of_every_resample_at_once(level, n):
    rng = np.random.default_rng(n)
    for a, b in [
        ((rng.random(n) < 0.7).astype(float), (rng.random(n) < 0.6).astype(float)),
        (rng.random(n), rng.random(n)),  # fractions too, where the order of a sum could matter
    ]:
        assert paired(a, b, level=level) == gathered_at_once(a, b, level)


def test_resamples_are_drawn_once_and_cannot_be_changed():
    first = resamples(50, 2000)
    assert resamples(50, 2000) is first and not first.flags.writeable
    assert np.array_equal(first, np.random.default_rng(26).integers(0, 50, size=(2000, 50)))
    assert resamples(51, 2000).shape == (2000, 51)
