"""Notebook 04d's exercise refuses the plausible wrong chance floors, each with a hint naming the
slip, and accepts the exact tail written two ways."""

from math import comb

import pytest

from chunklab.teaching.exercises import verdict


def _exactly(n, m, c, h):
    return comb(m, h) * comb(n - m, c - h) / comb(n, c)


def _at_least(n, m, c, h):
    return sum(_exactly(n, m, c, i) for i in range(h, min(m, c) + 1))


def test_04d_1_accepts_the_tail_and_one_minus_the_head():
    assert verdict("04d.1", _at_least).passed
    head = lambda n, m, c, h: 1 - sum(_exactly(n, m, c, i) for i in range(0, h))  # noqa: E731
    assert verdict("04d.1", head).passed


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (lambda n, m, c, h: _exactly(n, m, c, h), "exactly as many hits"),
        (lambda n, m, c, h: _at_least(n, m, c, h + 1), "(>=, not >)"),
        (
            lambda n, m, c, h: sum(
                comb(c, i) * (m / n) ** i * (1 - m / n) ** (c - i) for i in range(h, c + 1)
            ),
            "draws with replacement",
        ),
        (lambda n, m, c, h: 1 - _at_least(n, m, c, h), "fewer hits than the cut"),
        (lambda n, m, c, h: [0.5], "return one number"),
        (lambda n, m, c, h: _at_least(n, m, c, max(h, 1)), "leaves out 0 hits"),
        (
            lambda n, m, c, h: sum(_exactly(n, m, c, i) for i in range(h, min(m, c))),
            "misses its last term",
        ),
        (
            lambda n, m, c, h: (
                sum(comb(m, i) * comb(n - 1 - m, c - i) for i in range(h, c + 1)) / comb(n - 1, c)
            ),
            "counts among places - 1",
        ),
    ],
)
def test_04d_1_names_each_slip(wrong, hint):
    result = verdict("04d.1", wrong)
    assert not result.passed
    assert hint in result.message, result.message


def test_04d_1_names_a_missing_module_instead_of_raising_it():
    def with_scipy(n, m, c, h):
        raise ModuleNotFoundError("No module named 'scipy'", name="scipy")

    result = verdict("04d.1", with_scipy)
    assert not result.passed
    assert "scipy is not installed here" in result.message, result.message


def _sampled(seed):
    import numpy as np

    def chance_as_many(places, marked, cuts, hits):
        rng = np.random.default_rng(seed)
        order = rng.random((4000, places)).argsort(axis=1)[:, :cuts]
        return float(((order < marked).sum(axis=1) >= hits).mean())

    return chance_as_many


@pytest.mark.parametrize("seed", [0, None])
def test_04d_1_names_a_sampled_estimate(seed):
    """A simulation got "sum the chances of hits, hits + 1, ...", which does not say
    that a drawn answer is not exact; seeded or not, the hint now does."""
    result = verdict("04d.1", _sampled(seed))
    assert not result.passed
    assert "a sampled estimate is not exact" in result.message, result.message


def test_04d_1_accepts_an_exact_fraction_a_decimal_and_a_numpy_float():
    from decimal import Decimal
    from fractions import Fraction

    import numpy as np

    def exact(n, m, c, h):
        return sum(
            Fraction(comb(m, i) * comb(n - m, c - i), comb(n, c)) for i in range(h, min(m, c) + 1)
        )

    assert verdict("04d.1", exact).passed
    assert verdict("04d.1", lambda n, m, c, h: Decimal(_at_least(n, m, c, h))).passed
    assert verdict("04d.1", lambda n, m, c, h: np.float64(_at_least(n, m, c, h))).passed
