"""Companion 04e's check (04e.1): a family's power before any result, the fewest decisive
questions, all one way, whose exact two-sided sign test falls under the family's alpha, or None
when even every question won cannot reach it. Checked against `claims.sign_test` on question
counts and alphas the notebook never shows, naming each predictable slip: the one-sided p,
``<=`` where the rule is ``<``, the most that cannot reach alpha instead of the fewest that can,
one past the fewest, the number of questions where None is due, an answer beyond the
questions there are, and a loop that stops one short of the last question. It refuses a call into
`sign_test` or `fewest_decisive`, which the exercise asks the learner to write.
Registered in `exercises`."""

from __future__ import annotations

from collections.abc import Callable

from chunklab.teaching.checking import NotYet, consistent_slips, run_without, short
from chunklab.teaching.claims import fewest_decisive, sign_test

Case = tuple[int, float]


def _fewest(
    questions: int,
    alpha: float,
    p: Callable[[int], float] = lambda n: sign_test(n, 0),
    strict: bool = True,
) -> int | None:
    for n in range(1, questions + 1):
        if p(n) < alpha or (not strict and p(n) <= alpha):
            return n
    return None


def _uncapped(questions: int, alpha: float) -> int:
    n = 1
    while sign_test(n, 0) >= alpha:
        n += 1
    return n


def _one_less(questions: int, alpha: float) -> int | None:
    found = _fewest(questions, alpha)
    return None if found is None else found - 1


def _one_more(questions: int, alpha: float) -> int | None:
    found = _fewest(questions, alpha)
    return None if found is None else found + 1


def _all_questions(questions: int, alpha: float) -> int:
    found = _fewest(questions, alpha)
    return questions if found is None else found


_SLIPS: list[tuple[Callable[..., int | None], str]] = [
    (
        lambda q, a: _fewest(q, a, p=lambda n: 0.5**n),
        "that reads the one-sided p, 0.5 ** n: the sign test is two-sided (a difference either "
        "way counts), so all n won has p = 2 * 0.5 ** n",
    ),
    (
        lambda q, a: _fewest(q, a, strict=False),
        "that stops at p <= alpha: a comparison passes only when p is strictly under alpha",
    ),
    (
        _one_less,
        "that is the most that cannot reach alpha: the fewest that can is one more",
    ),
    (
        _one_more,
        "that is one past the fewest: return the first n whose p is under alpha, not n + 1",
    ),
    (
        _all_questions,
        "that returns the number of questions when none reaches alpha: even every question won "
        "does not reach it then, so return None",
    ),
    (
        lambda q, a: _fewest(q - 1, a),
        "your loop stops one short: range(1, questions) never tries every question won; "
        "try n = 1 to questions, inclusive",
    ),
    (
        _uncapped,
        "that is more questions than there are: when even every question won cannot reach "
        "alpha, return None",
    ),
]

# (questions, alpha): the series' 43 at other family sizes, a p exactly equal to alpha (2 * 0.5**5
# and 2 * 0.5**7), and question counts too small to reach alpha at all
_CASES: list[Case] = [
    (43, 0.05),
    (43, 0.05 / 4),
    (43, 0.05 / 20),
    (20, 0.0625),
    (10, 0.015625),
    (30, 0.01),
    (100, 0.001),
    (6, 0.05),
    (5, 0.05),
    (7, 0.05 / 12),
    (12, 0.05 / 8),
    (60, 0.0001),
]


def check_fewest_one_way(fn: Callable) -> int:
    """04e.1: the fewest decisive questions, all won, whose two-sided sign test p is under
    `alpha`, at most `questions`; None when no count up to `questions` reaches it."""
    refusal = (
        "your function calls {name}, the library's: compute p = 2 * 0.5 ** n yourself and stop "
        "at the first n whose p is under alpha"
    )
    for questions, alpha in _CASES:
        got = run_without(fn, (questions, alpha), [sign_test, fewest_decisive], refusal)
        expected = _fewest(questions, alpha)
        if got is not None and (isinstance(got, bool) or not isinstance(got, int)):
            raise NotYet(f"return a whole number of questions (or None), not {short(got)}")
        if got != expected:
            named = consistent_slips(fn, _SLIPS, _CASES, shape=lambda r: r)
            why = named[0] if named else "try n = 1, 2, ... and stop at the first p under alpha"
            raise NotYet(
                f"{questions} questions, alpha {alpha:.6g}: expected {expected}, got {short(got)}: "
                f"{why}"
            )
    return len(_CASES)


CHECKS_FAMILY_POWER = {
    "04e.1": ("fewest_one_way(questions, alpha) -> int or None", check_fewest_one_way),
}
