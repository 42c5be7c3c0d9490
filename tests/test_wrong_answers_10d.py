"""Exercise 10d.1 (compare's two-part rule, written by hand): a correct answer written two ways
passes, the old route (a number read off one cut, or the notebook's one-line sign test with no
rule) is refused, and each slip gets its hint."""

import math
import sys

import numpy as np
import pytest
from conftest import ROOT

from chunklab.teaching.exercises import verdict

sys.path.insert(0, str(ROOT))
from solutions.exercises import paired_verdict  # noqa: E402

WRONG_10D = {"10d.1": lambda a, b, low, high, level: (0.05, "better")}


# Exercise 10d.1: compare's rule by hand, (p, verdict)


def _split(a, b):
    won = sum(x > y for x, y in zip(a, b, strict=True))
    lost = sum(x < y for x, y in zip(a, b, strict=True))
    return won, lost


def _tail(k, n):
    return sum(math.comb(n, i) for i in range(k + 1)) / 2**n


def _rule(p, won, lost, low, high, level):
    alpha = (100 - level) / 100
    if low > 0 and won > lost and p < alpha:
        return "better"
    if high < 0 and lost > won and p < alpha:
        return "worse"
    return "no difference shown"


def verdict_with_numpy(a, b, low, high, level):
    """Another correct method: numpy's signs, the tail summed from the other end."""
    d = np.asarray(a) - np.asarray(b)
    won, lost = int((d > 0).sum()), int((d < 0).sum())
    n = won + lost
    upper = sum(math.comb(n, i) for i in range(max(won, lost), n + 1)) / 2**n if n else 0.5
    p = min(1.0, 2 * upper)
    return [p, _rule(p, won, lost, low, high, level)]  # a list is a pair too


def verdict_interval_only(a, b, low, high, level):
    won, lost = _split(a, b)
    p = min(1.0, 2 * _tail(min(won, lost), won + lost)) if won + lost else 1.0
    return p, "better" if low > 0 else "worse" if high < 0 else "no difference shown"


def verdict_sign_only(a, b, low, high, level):
    won, lost = _split(a, b)
    p = min(1.0, 2 * _tail(min(won, lost), won + lost)) if won + lost else 1.0
    return p, _rule(p, won, lost, 1, -1, level)  # the interval read as always excluding 0


def verdict_at_five_percent(a, b, low, high, level):
    return paired_verdict(a, b, low, high, 95.0)[0], paired_verdict(a, b, low, high, 95.0)[1]


def verdict_one_sided(a, b, low, high, level):
    won, lost = _split(a, b)
    p = _tail(min(won, lost), won + lost) if won + lost else 1.0
    return p, _rule(p, won, lost, low, high, level)


def verdict_ties_as_tosses(a, b, low, high, level):
    won, lost = _split(a, b)
    p = min(1.0, 2 * _tail(min(won, lost), len(a)))
    return p, _rule(p, won, lost, low, high, level)


def verdict_uncapped(a, b, low, high, level):
    won, lost = _split(a, b)
    p = 2 * _tail(min(won, lost), won + lost) if won + lost else 1.0
    return p, _rule(p, won, lost, low, high, level)


def verdict_undirected(a, b, low, high, level):
    p, _ = paired_verdict(a, b, low, high, level)
    alpha = (100 - level) / 100
    word = "better" if low > 0 and p < alpha else "worse" if high < 0 and p < alpha else None
    return p, word or "no difference shown"


def verdict_touching(a, b, low, high, level):
    return paired_verdict(a, b, low + 1e-12 if low == 0 else low, high, level)


def verdict_calls_compare(a, b, low, high, level):
    from chunklab.teaching.claims import compare

    c = compare(a, b, show=False, level=level)
    return c.p_value, c.verdict


def verdict_calls_sign_test(a, b, low, high, level):
    from chunklab.teaching.claims import sign_test

    won, lost = _split(a, b)
    p = sign_test(won, lost)
    return p, _rule(p, won, lost, low, high, level)


def notebook_sign_test_copied(a, b, low, high, level):
    """The old route: cell 20's one line, doubled, no cap, and no rule past the interval."""
    won, lost = _split(a, b)
    decisive = won + lost
    by_hand = 2 * sum(math.comb(decisive, k) for k in range(min(won, lost) + 1)) / 2**decisive
    return by_hand, "better" if low > 0 else "no difference shown"


@pytest.mark.parametrize("right", [paired_verdict, verdict_with_numpy])
def test_10d_1_accepts_a_correct_rule_written_two_ways(right):
    result = verdict("10d.1", right)
    assert result.passed, result.message


def test_10d_1_refuses_the_old_routes():
    """A number read off one cut (the old answer) and the notebook's sign test copied."""
    for old in (38.12, notebook_sign_test_copied):
        result = verdict("10d.1", old)
        assert not result.passed, result.message


@pytest.mark.parametrize(
    "wrong, slip",
    [
        (verdict_interval_only, "interval alone"),
        (verdict_sign_only, "sign test alone"),
        (verdict_at_five_percent, "0.05 whatever the level"),
        (verdict_one_sided, "did not double the tail"),
        (verdict_ties_as_tosses, "ties as coin tosses"),
        (verdict_uncapped, "did not cap p at 1"),
        (verdict_undirected, "which way the questions split"),
        (verdict_touching, "touches 0"),
        (verdict_calls_compare, "compare calls it too"),
        (verdict_calls_sign_test, "calls chunklab's sign_test"),
    ],
    ids=lambda x: getattr(x, "__name__", x),
)
def test_10d_1_names_each_slip(wrong, slip):
    result = verdict("10d.1", wrong)
    assert not result.passed and slip in result.message, result.message


def verdict_touching_read_as_excluding(a, b, low, high, level):
    """`low >= 0` and `high <= 0`: an interval that touches 0 read as excluding it."""
    won, lost = _split(a, b)
    p = min(1.0, 2 * _tail(min(won, lost), won + lost)) if won + lost else 1.0
    alpha = (100 - level) / 100
    if low >= 0 and won > lost and p < alpha:
        return p, "better"
    if high <= 0 and lost > won and p < alpha:
        return p, "worse"
    return p, "no difference shown"


def verdict_ties_split_in_half(a, b, low, high, level):
    won, lost = _split(a, b)
    tied = len(a) - won - lost
    p = min(1.0, 2 * _tail(min(won + tied // 2, lost + tied - tied // 2), len(a)))
    return p, _rule(p, won, lost, low, high, level)


@pytest.mark.parametrize(
    "wrong, slip, not_named",
    [
        (verdict_undirected, "which way the questions split", "interval alone"),
        (verdict_touching_read_as_excluding, "touches 0", "sign test alone"),
        (verdict_ties_split_in_half, "split the ties between won and lost", "count won and lost"),
    ],
    ids=lambda x: getattr(x, "__name__", x),
)
def test_10d_1_names_only_the_slip_the_function_makes(wrong, slip, not_named):
    """One case can match two slips; the hint names the one the function makes on every case."""
    result = verdict("10d.1", wrong)
    assert not result.passed and slip in result.message, result.message
    assert not_named not in result.message, result.message


def verdict_with_scipy(a, b, low, high, level):
    """A correct method on a machine with scipy; here scipy is not installed."""
    from scipy.stats import binomtest

    won, lost = _split(a, b)
    p = binomtest(won, won + lost).pvalue if won + lost else 1.0
    return p, _rule(p, won, lost, low, high, level)


def test_10d_1_says_scipy_is_not_installed_here():
    """scipy is not a dependency: the answer is refused with a hint, not a ModuleNotFoundError."""
    result = verdict("10d.1", verdict_with_scipy)
    assert not result.passed and "not installed here" in result.message, result.message
    assert "math.comb" in result.message, result.message


def verdict_p_at_threshold_passes(a, b, low, high, level):
    """`p <= alpha`: a p equal to the threshold read as below it."""
    won, lost = _split(a, b)
    p = min(1.0, 2 * _tail(min(won, lost), won + lost)) if won + lost else 1.0
    alpha = (100 - level) / 100
    if low > 0 and won > lost and p <= alpha:
        return p, "better"
    if high < 0 and lost > won and p <= alpha:
        return p, "worse"
    return p, "no difference shown"


def test_10d_1_refuses_a_p_equal_to_the_threshold():
    """4 won, 0 lost: p = 0.125, the threshold at 87.5% exactly; 'better' needs p below it."""
    result = verdict("10d.1", verdict_p_at_threshold_passes)
    assert not result.passed and "strictly below" in result.message, result.message


def verdict_all_inclusive(a, b, low, high, level):
    """`>=` and `<=` throughout: a touching interval and a p at the threshold both let through."""
    won, lost = _split(a, b)
    p = min(1.0, 2 * _tail(min(won, lost), won + lost)) if won + lost else 1.0
    alpha = (100 - level) / 100
    if low >= 0 and won > lost and p <= alpha:
        return p, "better"
    if high <= 0 and lost > won and p <= alpha:
        return p, "worse"
    return p, "no difference shown"


def test_10d_1_names_the_nearest_slip_when_two_are_made():
    """Two slips at once fit neither everywhere: the hint names the one made on most cases (the
    touching interval), not one the function never makes (the sign test alone)."""
    result = verdict("10d.1", verdict_all_inclusive)
    assert not result.passed and "touches 0" in result.message, result.message
    assert "sign test alone" not in result.message, result.message


def verdict_threshold_halved(a, b, low, high, level):
    """alpha = (100 - level) / 200: the two-sided p compared with half the threshold."""
    won, lost = _split(a, b)
    p = min(1.0, 2 * _tail(min(won, lost), won + lost)) if won + lost else 1.0
    return p, _rule(p, won, lost, low, high, 100 - (100 - level) / 2)


def test_10d_1_names_a_halved_threshold():
    result = verdict("10d.1", verdict_threshold_halved)
    assert not result.passed and "halved the threshold" in result.message, result.message


def verdict_direction_from_the_mean(a, b, low, high, level):
    """The direction read from the mean difference, not from the count of questions won and lost:
    section 2 of 10d warns that the mean alone says neither."""
    won, lost = _split(a, b)
    p = min(1.0, 2 * _tail(min(won, lost), won + lost)) if won + lost else 1.0
    ahead = np.mean(a) > np.mean(b)
    alpha = (100 - level) / 100
    if low > 0 and ahead and p < alpha:
        return p, "better"
    if high < 0 and not ahead and p < alpha:
        return p, "worse"
    return p, "no difference shown"


def test_10d_1_refuses_the_direction_taken_from_the_mean():
    """Fails on the old checker: its case of 5 won and 17 lost had a mean below 0 that contradicted
    its own interval, so the mean and the count always agreed."""
    result = verdict("10d.1", verdict_direction_from_the_mean)
    assert not result.passed and "direction from the mean" in result.message, result.message


def verdict_interval_either_side(a, b, low, high, level):
    """The interval asked only to exclude 0, on either side; the direction read from the count."""
    won, lost = _split(a, b)
    p = min(1.0, 2 * _tail(min(won, lost), won + lost)) if won + lost else 1.0
    return p, _rule(p, won, lost, 1, -1, level) if low > 0 or high < 0 else "no difference shown"


def test_10d_1_names_an_interval_on_the_side_against_the_count():
    """Fails on the old checker: it told this function it read the sign test alone, though the
    interval it was shown excluded 0 ([+0.3, +4.4]); the slip is the sides disagreeing."""
    result = verdict("10d.1", verdict_interval_either_side)
    assert not result.passed and "side against the count" in result.message, result.message
    assert "sign test alone" not in result.message, result.message
