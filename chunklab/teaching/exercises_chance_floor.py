"""Companion 04d's check (04d.1): the exact chance floor of a cut, the chance that as many cuts
placed at random hit at least as many marked places (a hypergeometric tail), on cases the notebook
never shows, naming each predictable slip (exactly as many hits instead of at least, strictly
more, draws with replacement, the chance of fewer hits, a tail that leaves out 0 hits or its last
term, a count among one place too few), and says what to use when a learner reaches for scipy,
not installed here. The notebook draws this floor 10,000 times; the exercise counts it, so a
learner sees why a third decimal can differ between the two.
Registered in `exercises`."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from math import comb
from numbers import Real
from typing import Any

from chunklab.teaching.checking import NotYet, consistent_slips, short

Case = tuple[int, int, int, int]


def _ways(places: int, marked: int, cuts: int, hits: int) -> float:
    """The chance that exactly `hits` of `cuts` distinct places drawn among `places` are marked."""
    return comb(marked, hits) * comb(places - marked, cuts - hits) / comb(places, cuts)


def _at_least(places: int, marked: int, cuts: int, hits: int) -> float:
    return sum(_ways(places, marked, cuts, i) for i in range(max(hits, 0), min(marked, cuts) + 1))


def _with_replacement(places: int, marked: int, cuts: int, hits: int) -> float:
    p = marked / places
    return sum(comb(cuts, i) * p**i * (1 - p) ** (cuts - i) for i in range(max(hits, 0), cuts + 1))


_SLIPS: list[tuple[Callable[..., float], str]] = [
    (
        lambda n, m, c, h: _ways(n, m, c, h) if h <= min(m, c) else 0.0,
        "that is the chance of exactly as many hits: the floor asks for at least as many, so add "
        "the chances of every larger number of hits too",
    ),
    (
        lambda n, m, c, h: _at_least(n, m, c, h + 1),
        "that counts strictly more hits: chance does as well as the cut when it hits as many, so "
        "the tail starts at `hits` itself (>=, not >)",
    ),
    (
        _with_replacement,
        "that draws with replacement (a binomial): a cut opens a chunk once, so the random cuts "
        "are distinct places; count ways to choose them, comb(marked, i) * comb(rest, cuts - i)",
    ),
    (
        lambda n, m, c, h: 1 - _at_least(n, m, c, h),
        "that is the chance of fewer hits than the cut: the floor is the chance of at least as "
        "many",
    ),
    (
        lambda n, m, c, h: _at_least(n, m, c, max(h, 1)),
        "the tail leaves out 0 hits: with hits = 0 every draw qualifies and the chance is 1; "
        "start the sum at hits itself, 0 included",
    ),
    (
        lambda n, m, c, h: sum(_ways(n, m, c, i) for i in range(max(h, 0), min(m, c))),
        "your tail misses its last term: range's end is exclusive, so sum up to "
        "range(hits, min(marked, cuts) + 1)",
    ),
    (
        lambda n, m, c, h: _at_least(n - 1, m, c, h),
        "that counts among places - 1: `places` is already the starts to draw among (the first "
        "is set aside before the count): divide by comb(places, cuts), not by "
        "comb(places - 1, cuts)",
    ),
]


def _rounded(slip: Callable[..., float]) -> Callable[..., float]:
    return lambda *case: round(float(slip(*case)), 9)


def _cases() -> list[Case]:
    """(places, marked, cuts, hits): sizes like the pages' (up to about 100 sentence starts), a
    hit count of 0 (every draw qualifies), and hit counts above what any draw can reach."""
    cases: list[Case] = [(20, 5, 3, 0), (22, 5, 5, 4), (27, 5, 7, 6), (30, 4, 10, 5)]
    for places, marked, cuts in [(26, 4, 6), (102, 15, 27), (40, 8, 8), (12, 6, 6), (60, 3, 20)]:
        cases += [(places, marked, cuts, hits) for hits in range(0, min(marked, cuts) + 1)]
    return cases


def _unnamed(fn: Callable, case: Case, got: Any, expected: float) -> str:
    """The hint when no listed slip explains the answer: a sampled estimate (it changes from run
    to run, or lands near the exact chance) is named as such."""
    if fn(*case) != got or abs(float(got) - expected) < 0.02:
        return (
            "your answer is near the chance, or changes from run to run: a sampled estimate is "
            "not exact; count the ways the cuts can fall instead of drawing them"
        )
    return "sum the chances of hits, hits + 1, ... up to the most"


def check_chance_as_many(fn: Callable) -> int:
    """04d.1: the chance that `cuts` distinct places drawn among `places`, `marked` of them marked,
    hit at least `hits` marked ones, within 1e-9 on every case."""
    cases = _cases()
    for places, marked, cuts, hits in cases:
        try:
            got = fn(places, marked, cuts, hits)
        except ModuleNotFoundError as missing:  # scipy's hypergeom: not a dependency here
            raise NotYet(
                f"{missing.name} is not installed here; count the tail with math.comb, "
                "comb(marked, i) * comb(places - marked, cuts - i) / comb(places, cuts)"
            ) from None
        if isinstance(got, bool) or not isinstance(got, (Real, Decimal)):  # Fraction, numpy too
            raise NotYet(f"return one number, a chance between 0 and 1, not {short(got)}")
        expected = _at_least(places, marked, cuts, hits)
        if abs(float(got) - expected) > 1e-9:
            rounded = [(_rounded(slip), why) for slip, why in _SLIPS]  # compared as they are shaped
            named = consistent_slips(fn, rounded, cases, shape=lambda r: round(float(r), 9))
            why = named[0] if named else _unnamed(fn, (places, marked, cuts, hits), got, expected)
            raise NotYet(
                f"{places} places, {marked} marked, {cuts} cuts, {hits} hits: expected "
                f"{expected:.6f}, got {float(got):.6f}: {why}"
            )
    return len(cases)


CHECKS_CHANCE_FLOOR = {
    "04d.1": ("chance_as_many(places, marked, cuts, hits) -> float", check_chance_as_many),
}
