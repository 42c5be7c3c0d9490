"""The check of exercise 01b.1: the learner writes the exact two-sided sign test from the
per-question differences of two strategies, and the check compares it with the library's
`claims.sign_test` on cases the notebook never shows, naming the slip a learner is likely to make
(one-sided, ties counted, the normal approximation).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from chunklab.teaching.checking import NotYet, run_without, short
from chunklab.teaching.claims import sign_test


def _sign_slip(diffs: list[float], got: float) -> str:
    """Name the predictable slip: ties counted as tosses or split between the sides, one side
    only, no cap at 1, the observed split left out of the tail, the tail always on the lost side,
    a normal approximation, no guard for no decisive one."""
    won, lost, ties = (
        sum(d > 0 for d in diffs),
        sum(d < 0 for d in diffs),
        sum(d == 0 for d in diffs),
    )
    n = won + lost
    if not n:
        why = "your p is nan, a 0/0: if none is decisive, p is 1" if math.isnan(got) else ""
        return "with no question won or lost, nothing points either way: " + (
            why or f"p is 1, not {got:g}"
        )
    one_tail = sum(math.comb(n, k) for k in range(min(won, lost) + 1)) / 2**n
    with_ties = sum(math.comb(n + ties, k) for k in range(min(won, lost) + 1)) / 2 ** (n + ties)
    tie_slips = [min(1.0, 2 * with_ties), sign_test(won + ties, lost), sign_test(won, lost + ties)]
    tie_slips += [sign_test(won + h, lost + ties - h) for h in (ties // 2, ties - ties // 2)]
    if any(math.isclose(got, wrong) for wrong in tie_slips) and ties:
        return (
            "ties carry no sign: leave them out, neither tosses nor wins nor losses, nor half each"
        )
    strict = sum(math.comb(n, k) for k in range(min(won, lost))) / 2**n
    slips = {
        "the tail leaves out the split you saw: count k = 0 to min(won, lost), both ends in": (
            min(1.0, 2 * strict)
        ),
        "that is one side's tail: double it, since a split as uneven the other way counts too": (
            one_tail
        ),
        "a p-value is a chance, at most 1: cap the doubled tail with min(1, ...)": 2 * one_tail,
    }
    for side, count in (("lost", lost), ("won", won)):  # the tail on one fixed side
        why = f"you took the tail on the {side} side; take it on the smaller side, k = 0 to "
        slips[why + "min(won, lost), whichever side that is"] = min(
            1.0, 2 * sum(math.comb(n, k) for k in range(count + 1)) / 2**n
        )
    normal = [math.erfc(max(abs(won - lost) - c, 0) / math.sqrt(2 * n)) for c in (0, 1)]
    if any(math.isclose(got, min(1.0, wrong)) for wrong in normal):  # with and without correction
        return "that is the normal approximation; the sign test is exact: sum comb(n, k) / 2**n"
    return next((why for why, wrong in slips.items() if math.isclose(got, wrong)), "")


def _mid_p(won: int, lost: int) -> float:
    """The mid-p variant: the observed split counted half in the tail (not the exact test)."""
    n, low = won + lost, min(won, lost)
    tail = sum(math.comb(n, k) for k in range(low)) + math.comb(n, low) / 2
    return min(1.0, 2 * tail / 2**n)


def _is_mid_p(fn: Callable) -> bool:
    """At 6 to 0 the mid-p equals one side's tail; two splits where they differ tell them apart."""
    try:
        return all(
            math.isclose(float(fn([1] * w + [-1] * lost)), _mid_p(w, lost))
            for w, lost in ((5, 2), (7, 3))
        )
    except Exception:  # a learner's function may raise on a probe: no slip is named then
        return False


_OWN = (
    "your function calls {name}, the library's sign test: write it yourself (count the won and "
    "the lost, then the doubled tail with math.comb, as sign_p does)"
)


def _check_sign_test(fn: Callable) -> int:
    """Any function giving `claims.sign_test`'s p from the differences' signs passes."""
    rng, cases = random.Random(11), 0
    shapes = [
        (6, 0, 4),
        (0, 6, 4),
        (5, 5, 0),
        (3, 3, 4),
        (8, 2, 0),
        (2, 9, 5),
        (0, 0, 3),
        (4, 1, 7),
    ]
    for won, lost, tied in shapes + [
        (rng.randint(0, 30), rng.randint(0, 30), rng.randint(0, 40)) for _ in range(12)
    ]:
        values = [rng.choice([1, 0.5, 0.25, 2]) for _ in range(won)]
        values += [-rng.choice([1, 0.5, 0.25, 2]) for _ in range(lost)] + [0] * tied
        rng.shuffle(values)
        got = run_without(fn, (list(values),), sign_test, _OWN)
        if not isinstance(got, (int, float)) or isinstance(got, bool):
            raise NotYet(f"return one number, a p between 0 and 1, not {short(got)}")
        right = sign_test(won, lost)
        if not math.isclose(got, right, rel_tol=1e-9, abs_tol=1e-12):
            slip = _sign_slip(values, float(got))
            if _is_mid_p(fn):
                slip = "that is the mid-p: the exact test counts the split you saw WHOLE in it"
            raise NotYet(
                f"{won} won, {lost} lost, {tied} tied: your p is {got:.4g}, the sign test's "
                f"{right:.4g}" + (f": {slip}" if slip else ": count the signs, not the values")
            )
        cases += 1
    return cases


CHECKS_SIGN_TEST: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "01b.1": ("sign_test_p(differences) -> float", _check_sign_test),
}
