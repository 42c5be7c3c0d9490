"""Companion 04e's exercise refuses the plausible wrong counts of a family's power, each with a
hint naming the slip, and accepts the count written two ways."""

import pytest

from chunklab.teaching.claims import sign_test
from chunklab.teaching.exercises import verdict


def _fewest(questions, alpha):
    return next((n for n in range(1, questions + 1) if 2 * 0.5**n < alpha), None)


def test_04e_1_accepts_the_count_by_formula_and_by_the_sign_test():
    assert verdict("04e.1", _fewest).passed
    by_test = lambda q, a: next((n for n in range(1, q + 1) if sign_test(n, 0) < a), None)  # noqa: E731
    assert verdict("04e.1", by_test).passed


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (lambda q, a: next((n for n in range(1, q + 1) if 0.5**n < a), None), "one-sided p"),
        (lambda q, a: next((n for n in range(1, q + 1) if 2 * 0.5**n <= a), None), "p <= alpha"),
        (lambda q, a: None if _fewest(q, a) is None else _fewest(q, a) - 1, "one more"),
        (lambda q, a: next(n for n in range(1, 999) if 2 * 0.5**n < a), "return None"),
        (lambda q, a: None if _fewest(q, a) is None else _fewest(q, a) + 1, "not n + 1"),
        (
            lambda q, a: next((n for n in range(1, q + 1) if 2 * 0.5**n < a), q),
            "number of questions",
        ),
        (lambda q, a: 2 * 0.5 ** (_fewest(q, a) or 1), "a whole number"),
    ],
)
def test_04e_1_names_each_slip(wrong, hint):
    result = verdict("04e.1", wrong)
    assert not result.passed
    assert hint in result.message, result.message
