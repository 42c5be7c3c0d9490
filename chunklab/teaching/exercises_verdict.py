"""The check of notebook 10d's exercise 10d.1: `compare`'s two-part rule, written by hand.

10d.1 asks for `paired_verdict(a, b, low, high, level)`: `a` and `b` are two cuts' scores on the
same questions, `low` and `high` the paired interval of their mean difference drawn at `level`
percent. The learner counts the questions won and lost (ties carry no sign), writes the exact
two-sided sign test, and applies the rule notebook 10d states in prose: "better" only when the
interval lies above 0 **and** a wins more questions **and** p < (100 - level) / 100; "worse" the
mirror; else "no difference shown". It returns `(p, verdict)`. Notebook 10d writes the sign test by
hand (the cap included, no rule); the cases here are built by the check, each near one of the rule's
edges, so every predictable slip gives another answer on one of them: the interval alone, the sign
test alone, the threshold fixed at 0.05, the tail not doubled, the ties counted as coin tosses or
split between won and lost, p not capped at 1, the direction of the split ignored or read from the
mean difference instead of the count (one case wins a few questions by much and loses many by
little, its mean and interval above 0, its count below), an interval
touching 0 read as excluding it, the observed split left out of the tail, a p equal to the
threshold let through (`<=`), the threshold halved. A call into `compare` or
`sign_test` is refused; any correct method (math.comb, numpy) passes. scipy is not installed
here: an answer that imports it (`scipy.stats.binomtest`) is told so, and pointed at `math.comb`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from chunklab.teaching import claims
from chunklab.teaching.checking import NotYet, run_without

Case = tuple[list[float], list[float], float, float, float]
_WORDS = ("better", "worse", "no difference shown")


def _counts(a: list[float], b: list[float]) -> tuple[int, int, int]:
    won = sum(x > y for x, y in zip(a, b, strict=True))
    lost = sum(x < y for x, y in zip(a, b, strict=True))
    return won, lost, len(a) - won - lost


def _tail(k: int, n: int) -> float:
    return sum(math.comb(n, i) for i in range(k + 1)) / 2**n if n else 1.0


def _rule(
    p: float, won: int, lost: int, low: float, high: float, level: float, at: bool = False
) -> str:
    """compare's verdict; `at` lets a p equal to the threshold through (the `<=` slip)."""
    alpha = (100 - level) / 100
    below = p <= alpha if at else p < alpha
    if low > 0 and won > lost and below:
        return "better"
    if high < 0 and lost > won and below:
        return "worse"
    return "no difference shown"


def expected_verdict(a: list[float], b: list[float], low: float, high: float, level: float):
    won, lost, _ = _counts(a, b)
    p = claims.sign_test(won, lost)  # the library's test: what the learner writes must match it
    return p, _rule(p, won, lost, low, high, level)


MEAN_SLIP = (
    "you took the direction from the mean difference: 'better' needs a to win more questions than "
    "it loses (the count); the mean weighs the wins and losses, and says neither"
)

SIDES_SLIP = (
    "the interval excludes 0 on the side against the count: 'better' needs the interval above 0 "
    "and a ahead on more questions, both the same way"
)


def _slips(case: Case) -> dict[str, tuple[float, str]]:
    """What each predictable slip returns on one case -> the words that name it."""
    a, b, low, high, level = case
    won, lost, tied = _counts(a, b)
    n = won + lost
    p, _ = expected_verdict(*case)
    k = min(won, lost)
    one_sided = _tail(k, n)
    with_ties = min(1.0, 2 * _tail(k, len(a)))
    halved = min(1.0, 2 * _tail(min(won + tied // 2, lost + tied - tied // 2), len(a)))
    uncapped = 2 * _tail(k, n) if n else 1.0
    strict_tail = min(1.0, 2 * (_tail(k - 1, n) if k else 0.0)) if n else 1.0
    alpha = (100 - level) / 100
    interval_only = "better" if low > 0 else "worse" if high < 0 else "no difference shown"
    sign_only = _rule(p, won, lost, 1.0, -1.0, level)  # the interval read as excluding 0
    undirected = (
        "better" if low > 0 and p < alpha else "worse" if high < 0 and p < alpha else _WORDS[2]
    )
    touching = (p, _rule(p, won, lost, low + (low == 0), high - (high == 0), level))  # >= 0: > 0
    ahead = float(np.mean(a)) > float(np.mean(b))  # the mean's sign read as the count's
    by_mean = _rule(p, int(ahead), int(not ahead), low, high, level)

    def ruled(q: float) -> tuple[float, str]:
        return q, _rule(q, won, lost, low, high, level)

    return {
        "you read the interval alone: compare also asks the sign test for p below the level's "
        "threshold": (p, interval_only),
        SIDES_SLIP: (p, sign_only if low > 0 or high < 0 else _WORDS[2]),  # 0 out, either side
        "you read the sign test alone: compare also asks the interval to exclude 0": (p, sign_only),
        "you compared p with 0.05 whatever the level: the threshold is (100 - level) / 100": (
            p,
            _rule(p, won, lost, low, high, 95.0),
        ),
        "you did not double the tail: the test is two-sided, p = 2 x the smaller tail": ruled(
            one_sided
        ),
        "you counted the ties as coin tosses: ties carry no sign, leave them out of n": ruled(
            with_ties
        ),
        "you split the ties between won and lost: ties carry no sign, leave them out of n": ruled(
            halved
        ),
        "you did not cap p at 1: twice the tail passes 1 when won and lost are close": ruled(
            uncapped
        ),
        "you left the observed split out of the tail: it sums k = 0 to min(won, lost), the "
        "split itself included": (strict_tail, _rule(strict_tail, won, lost, low, high, level)),
        "you ignored which way the questions split: 'better' also needs a to win more "
        "questions than it loses": (p, undirected),
        MEAN_SLIP: (p, by_mean),
        "you read an interval that touches 0 as excluding it: 'better' needs low > 0": touching,
        "you let a p equal to the threshold through: the rule asks p < (100 - level) / 100, "
        "strictly below": (p, _rule(p, won, lost, low, high, level, at=True)),
        "you halved the threshold: p is already two-sided, so it is compared with "
        "(100 - level) / 100 itself, not half of it": (
            p,
            _rule(p, won, lost, low, high, 100 - (100 - level) / 2),
        ),
    }


def _scores(
    won: int, lost: int, tied: int, seed: int, win_by: float = 0.0
) -> tuple[list[float], list[float]]:
    """Two score lists with exactly this split, shuffled, on a 0-1 scale like the benchmark's; each
    win larger by `win_by` than the steps of 0.01 to 0.1 (a few large wins, many small losses)."""
    rng = np.random.default_rng(seed)
    b = rng.uniform(0.1, 0.9 - win_by, size=won + lost + tied)
    step = rng.uniform(0.01, 0.1, size=b.size)
    step[:won] += win_by
    sign = np.array([1.0] * won + [-1.0] * lost + [0.0] * tied)
    order = rng.permutation(b.size)
    a = b + (sign * step)[order]
    return [float(x) for x in a], [float(x) for x in b]


# (won, lost, tied, low, high, level): each near an edge of the rule, none shown in notebook 10d
_SPLITS = [
    (15, 4, 11, 0.8, 6.2, 95.0),  # better: both halves hold
    (9, 4, 7, 0.5, 4.0, 95.0),  # the interval above 0, the split a coin's (p = 0.267)
    (14, 3, 0, -0.6, 5.5, 95.0),  # the split uneven (p = 0.0127), the interval holds 0
    (16, 5, 3, 1.1, 7.0, 99.0),  # p = 0.0266: below 0.05, not below 0.01
    (13, 5, 2, 0.9, 6.1, 95.0),  # one-sided 0.048, two-sided 0.096
    (12, 3, 20, 0.4, 3.3, 95.0),  # many ties: with them as tosses, p falls below 0.05
    (6, 6, 4, 0.2, 2.0, 95.0),  # won = lost: twice the tail is above 1
    (4, 15, 9, -5.8, -0.7, 95.0),  # worse
    (
        5,
        17,
        2,
        0.3,
        4.4,
        95.0,
    ),  # interval and mean above 0 (large wins), but a loses more questions
    (17, 5, 6, 0.0, 3.9, 95.0),  # the interval touches 0
    (14, 4, 4, 0.6, 4.2, 95.0),  # p = 0.0309; without the observed split's term, 0.0096
    (0, 0, 8, 0.0, 0.0, 95.0),  # every question tied
    (40, 18, 30, 0.7, 3.1, 99.5),  # p = 0.0052: not below 0.005
    (4, 0, 3, 0.5, 3.0, 87.5),  # p = 0.125 exactly, the threshold at 87.5%: not below it
]


_WIN_BY = {8: 0.2}  # the case whose mean must say "ahead" while its count says "behind"


def _cases() -> list[Case]:
    cases: list[Case] = []
    for seed, (won, lost, tied, low, high, level) in enumerate(_SPLITS):
        a, b = _scores(won, lost, tied, 4000 + seed, _WIN_BY.get(seed, 0.0))
        cases.append((a, b, low, high, level))
    return cases


def _same(got: Any, want: tuple[float, str]) -> bool:
    if not isinstance(got, (tuple, list)) or len(got) != 2:
        return False
    try:
        p = float(got[0])
    except (TypeError, ValueError):
        return False
    return math.isclose(p, want[0], rel_tol=1e-9, abs_tol=1e-12) and got[1] == want[1]


def _agreement(fn: Callable, words: str) -> int:
    """On how many cases `fn` returns the slip named by `words`: one case can match several slips
    by chance (the interval alone and the direction ignored agree where a wins more)."""
    agree = 0
    for case in _cases():
        try:
            got = fn(*case)
        except Exception:  # noqa: BLE001 - a learner's function may raise anything
            return 0
        agree += _same(got, _slips(case)[words])
    return agree


def _which_slip(got: Any, case: Case, fn: Callable) -> str:
    if not isinstance(got, (tuple, list)) or len(got) != 2:
        return "return a pair (p, verdict)"
    if isinstance(got[1], str) and got[1] not in _WORDS and got[1].lower() in _WORDS:
        return "write the verdict as compare prints it, in lower case"
    want = expected_verdict(*case)
    named = [w for w, slip in _slips(case).items() if slip != want and _same(got, slip)]
    if named:  # the slips fn makes on the most cases: two slips at once fit neither everywhere
        agree = {w: _agreement(fn, w) for w in named}
        return "; or ".join(w for w in named if agree[w] == max(agree.values()))
    if isinstance(got[1], str) and got[1] == want[1]:
        return "the verdict is right, p is not: the exact two-sided sign test of won against lost"
    return (
        "count won and lost (ties left out), take p = min(1, 2 x the smaller tail), then the rule"
    )


def check_paired_verdict(fn: Callable) -> int:
    done = 0
    for case in _cases():
        a, b, low, high, level = case
        try:
            got = run_without(  # compare's verdict calls sign_test too: one watch catches both
                fn,
                (list(a), list(b), low, high, level),
                claims.sign_test,
                "your function calls chunklab's sign_test (compare calls it too): the exercise "
                "asks you to write the test and the rule",
            )
        except ModuleNotFoundError as missing:  # scipy's binomtest: not a dependency here
            raise NotYet(
                f"{missing.name} is not installed here; sum the tail with math.comb, as section "
                "1's sign_p does"
            ) from None
        want = expected_verdict(*case)
        if not _same(got, want):
            won, lost, tied = _counts(a, b)
            raise NotYet(
                f"{won} won, {lost} lost, {tied} tied, interval [{low:+}, {high:+}] at {level}%: "
                f"expected (p = {want[0]:.4g}, {want[1]!r}), got {got!r:.80}: "
                f"{_which_slip(got, case, fn)}"
            )
        done += 1
    return done


CHECKS_VERDICT: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "10d.1": ("paired_verdict(a, b, low, high, level) -> (p, verdict)", check_paired_verdict),
}
