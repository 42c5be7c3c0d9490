"""Companion 06b's check (06b.2): which verdicts of a family does its size decide?

`decided_by_size(splits)` takes a family's (won, lost) per comparison and returns the positions of
the comparisons whose exact two-sided sign test rejects read alone (p < 0.05) but not at the
family's level (p < 0.05 / m, m the number of comparisons in the list). Checked against
`claims.sign_test` on families the notebook never shows, naming each predictable slip: the
one-sided p (either tail, or the won side only), only the comparisons won counted, m one too
many, Šidák's level in place of Bonferroni's, m counted over the comparisons with a decisive
question or over distinct splits, m fixed at the notebook's 18, a normal approximation, the
comparisons that pass at the family's level returned instead, every comparison that passes alone
returned, and positions counted from 1. Registered in `exercises`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from chunklab.teaching.checking import NotYet, consistent_slips, short
from chunklab.teaching.claims import sign_test

Splits = list[tuple[int, int]]


def _one_sided(won: int, lost: int) -> float:
    """Half the two-sided p, uncapped: the tail on the observed side only."""
    n = won + lost
    return sum(math.comb(n, i) for i in range(min(won, lost) + 1)) / 2**n if n else 1.0


def _won_tail(won: int, lost: int) -> float:
    """One-sided on the won side only: the chance of at least `won` wins, a lost split reads ~1."""
    n = won + lost
    return sum(math.comb(n, i) for i in range(won, n + 1)) / 2**n if n else 1.0


def _normal(won: int, lost: int) -> float:
    """The normal approximation, no continuity correction."""
    n = won + lost
    return math.erfc(abs(won - lost) / math.sqrt(n) / math.sqrt(2)) if n else 1.0


def _decided(
    splits: Splits,
    p: Callable[[int, int], float] = sign_test,
    m: Callable[[Splits], int] = len,
    keep: Callable[[float, float], bool] = lambda p, alpha: p < 0.05 and not p < alpha,
    won_only: bool = False,
    start: int = 0,
    sidak: bool = False,
) -> list[int]:
    alpha = 1 - 0.95 ** (1 / m(splits)) if sidak else 0.05 / m(splits)
    return [
        i + start
        for i, (won, lost) in enumerate(splits)
        if keep(p(won, lost), alpha) and (won > lost or not won_only)
    ]


_SLIPS: list[tuple[Callable[[Splits], list[int]], str]] = [
    (
        lambda s: _decided(s, p=_one_sided),
        "that reads a one-sided p: the sign test is two-sided (a difference either way counts), "
        "twice the tail of the split",
    ),
    (
        lambda s: _decided(s, p=_won_tail),
        "that reads a one-sided p on the won side (the chance of at least that many won): the "
        "sign test is two-sided, twice the smaller tail, so a split lost 7 to 0 counts too",
    ),
    (
        lambda s: _decided(s, sidak=True),
        "that is Šidák's level, 1 - 0.95 ** (1 / m), a hair above 0.05 / m: the family is read "
        "at Bonferroni's 0.05 / m, as the notebook reads it",
    ),
    (
        lambda s: _decided(s, m=lambda s: len(s) + 1),
        "m is one more than the comparisons given: m = len(splits), the family's own count",
    ),
    (
        lambda s: _decided(s, won_only=True),
        "that keeps only comparisons won: a comparison lost 7 to 0 is as decided as one won 7 "
        "to 0; the test reads both ways",
    ),
    (
        lambda s: _decided(s, m=lambda s: max(1, sum(w + lo > 0 for w, lo in s))),
        "m counts only the comparisons with a question won or lost: every comparison in the "
        "family counts, those with none decisive too",
    ),
    (
        lambda s: _decided(s, m=lambda s: len(set(s))),
        "m counts distinct (won, lost) splits: two comparisons with the same split are two "
        "comparisons; m is the length of the list",
    ),
    (
        lambda s: _decided(s, m=lambda s: 18),
        "that reads every family at the notebook's 18: m is the length of the list given",
    ),
    (
        lambda s: _decided(s, p=_normal),
        "that looks like a normal approximation: use the exact sign test, twice the binomial "
        "tail, as section 2 writes it",
    ),
    (
        lambda s: _decided(s, keep=lambda p, alpha: p < alpha),
        "those pass at the family's level, so its size decides nothing for them: return the "
        "ones that pass alone (p < 0.05) and not at 0.05 / m",
    ),
    (
        lambda s: _decided(s, keep=lambda p, alpha: p < 0.05),
        "that is every comparison that passes alone: leave out those that also pass at "
        "0.05 / m, whose verdict the family's size does not change",
    ),
    (
        lambda s: _decided(s, p=lambda won, lost: sign_test(abs(won - lost), 0)),
        "that tests the net margin (won - lost against 0, ties cancelled): the sign test reads "
        "the split as it is, won against lost",
    ),
    (
        lambda s: _decided(s, start=1),
        "positions count from 0, as Python's do",
    ),
]

# Families built so that each slip reads one of them another way: a 5-0 (one-sided p under 0.05)
# beside a 7-0 that passes alone only; 7-0 splits lost as well as won, repeated (6 comparisons,
# 3 distinct splits); an 8-0 that passes at m = 2 but not at 18; a 6-0 that the normal
# approximation passes at m = 2, and a 4-0 it passes alone; a family with no decisive question;
# a 17-5 (p = 0.0169) between 0.05 / 3 and Šidák's level for m = 3, which m + 1 keeps.
_FIXED: list[Splits] = [
    [(5, 0), (0, 0), (2, 1), (7, 0)],
    [(0, 7), (0, 7), (0, 7), (7, 0), (2, 2), (2, 2)],
    [(8, 0), (1, 4)],
    [(6, 0), (3, 0)],
    [(4, 0), (1, 1), (0, 3)],
    [(0, 0), (0, 0), (0, 0)],
    [(9, 1), (1, 9), (4, 4), (10, 0), (0, 2), (12, 1), (3, 0), (8, 1)],
    [(17, 5), (0, 0), (6, 0)],
    [(9, 3), (0, 0)],  # the net margin 6-0 reads p = 0.031, the split p = 0.146
]


def _random_family(rng: random.Random) -> Splits:
    family = []
    for _ in range(rng.randint(2, 20)):
        n = rng.randint(0, 14)
        won = n if rng.random() < 0.3 else rng.randint(0, n)
        family.append((won, n - won) if rng.random() < 0.5 else (n - won, won))
    return family


def _positions(got: object) -> list[int]:
    if isinstance(got, (str, bytes, dict)) or not hasattr(got, "__iter__"):
        raise NotYet(f"return the positions as a list of int, not {short(got)}")
    items = list(got)
    if any(isinstance(i, bool) or not isinstance(i, int) for i in items):
        raise NotYet(f"return the positions as whole numbers (0 for the first), not {short(items)}")
    return sorted(items)


def check_decided_by_size(fn: Callable) -> int:
    """06b.2: `decided_by_size(splits)` on families the notebook never shows."""
    rng = random.Random(62)
    cases = [*_FIXED, *(_random_family(rng) for _ in range(30))]
    for splits in cases:
        expected = _decided(splits)
        got = _positions(fn(list(splits)))
        if got != expected:
            named = consistent_slips(fn, _SLIPS, [(s,) for s in _FIXED], shape=_positions)
            why = (
                "; and also: ".join(named)
                if named
                else "for each comparison take the two-sided sign test's p of (won, lost); keep "
                "it when p < 0.05 and not p < 0.05 / m, m = len(splits)"
            )
            raise NotYet(f"on the family {short(splits)}: expected {expected}, got {got}: {why}")
    return len(cases)


CHECKS_FAMILY_SIZE = {
    "06b.2": ("decided_by_size(splits) -> list of positions", check_decided_by_size),
}
