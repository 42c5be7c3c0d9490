"""Exercise 03d.3's check: one family of paired comparisons read at 0.05 / m, and the slips it
names.

Why a check of its own: companion 03d's skill is not computing a comparison but reading a family
of them. A row is "better" only when its interval lies above 0 **and** a wins more questions
**and** the sign test's p is below 0.05 / m, m counted from the family; "worse" is the mirror.
Each plausible shortcut agrees with that on most rows: the threshold left at 0.05, m fixed at the
notebook's 30, the interval alone, the sign test alone, an interval whose lower end is 0 read as
above 0 ([0, +17.8], say), no row ever "worse". The families below are built here,
none shown in the notebook, and each shortcut reads one of their rows another way. Any correct
reading passes: the verdicts as a list or tuple, written in any case, with or without the note
`compare` prints after "no difference shown". The library's own reading is refused: a function
that asks `Comparison` (or `compare`) for the verdict has not written the rule.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from chunklab.teaching.checking import NotYet, run_without, short
from chunklab.teaching.claims import Comparison, bare_verdict, compare, sign_test

Row = tuple[int, int, float, float]  # (won, lost, low, high), the interval drawn at 100 - 5/m


def _rule(
    rows: list[Row],
    alpha: float | None = None,
    *,
    interval: bool = True,
    counts: bool = True,
    sided: bool = True,
    p_test: bool = True,
    p_scale: float = 1.0,
    join: Callable = all,
) -> list[str]:
    """compare's rule over one family; `alpha` None reads it at 0.05 / len(rows). The keywords
    switch a part off (or halve p, or let either test do), to write the slips."""
    alpha = 0.05 / len(rows) if alpha is None else alpha
    out = []
    for won, lost, low, high in rows:
        p_ok = not p_test or sign_test(won, lost) * p_scale < alpha
        up = [not interval or low > 0, not counts or ((won > lost or not sided) and p_ok)]
        down = [not interval or high < 0, not counts or ((lost > won or not sided) and p_ok)]
        out.append("better" if join(up) else "worse" if join(down) else "no difference shown")
    return out


def family_expected(rows: list[Row]) -> list[str]:
    """The answer: each row's verdict at 0.05 / m, m the number of rows, as the library's
    `Comparison` reads it (the one implementation of the rule; `_rule` only writes the slips)."""
    level = 100 - 5 / len(rows)
    return [
        Comparison("a", "b", won, lost, 0, 0.0, low, high, 1.0, level=level).verdict
        for won, lost, low, high in rows
    ]


def _touching(rows: list[Row]) -> list[str]:  # an interval from 0 read as above 0
    return _rule([(w, lost, low if low != 0 else 1e-9, high) for w, lost, low, high in rows])


SLIPS: list[tuple[Callable[[list[Row]], list[str]], str]] = [
    (
        lambda rows: _rule(rows, 0.05),
        "you read every row at 0.05: a family of m comparisons is read at 0.05 / m, so that all "
        "m together rarely show a difference by chance",
    ),
    (
        lambda rows: _rule(rows, 0.05 / 30),
        "you read every family at 0.05 / 30, the notebook's m: count m from the list you are "
        "given, len(rows)",
    ),
    (
        lambda rows: _rule(rows, counts=False),
        "you read the interval alone: a verdict also needs the sign test to reject at 0.05 / m, "
        "with more questions won than lost (or lost than won)",
    ),
    (
        lambda rows: _rule(rows, p_test=False),
        "you read the interval alone, with more questions won than lost: a verdict also needs "
        "sign_test(won, lost) below 0.05 / m",
    ),
    (
        lambda rows: _rule(rows, sided=False),
        "you left out who won more: 'better' needs more questions won than lost, 'worse' more "
        "lost than won (the sign test's p is the same either way round)",
    ),
    (
        lambda rows: _rule(rows, p_scale=0.5),
        "you halved the sign test's p (a one-sided test): sign_test gives the two-sided p that "
        "compare reads; use it as it is",
    ),
    (
        lambda rows: _rule(rows, 0.025 / len(rows)),
        "you read at 0.025 / m, half of 0.05 / m (two-sided counted twice): sign_test's p is "
        "already two-sided, so compare it with 0.05 / m as it is",
    ),
    (
        lambda rows: _rule(rows, join=any),
        "you gave a verdict when either test passes: 'better' needs both, the interval wholly "
        "above 0 and the sign test below 0.05 / m",
    ),
    (
        lambda rows: _rule(rows, interval=False),
        "you read the sign test alone: a verdict also needs the interval to lie wholly above 0 "
        "(or wholly below)",
    ),
    (
        _touching,
        "an interval whose lower end is 0 reaches 0, it does not lie above it: 'better' needs "
        "low > 0",
    ),
    (
        lambda rows: [v if v != "worse" else "no difference shown" for v in _rule(rows)],
        "no row came out 'worse': the mirror rule, the interval below 0 and more lost than won "
        "with p < 0.05 / m, gives 'worse'",
    ),
]

FIXED: list[list[Row]] = [
    [(30, 10, 2.0, 9.0), (22, 9, 0.5, 6.0), (9, 30, -9.0, -2.0)],  # p of 22-9 = 0.03: 0.05 / 3
    [(12, 2, 1.0, 8.0)],  # m = 1: p = 0.013 < 0.05; at 0.05 / 30 it would not be
    [(48, 10, 0.0, 17.8), (15, 12, 1.0, 5.0), (30, 10, -4.0, -0.5), (10, 40, -12.0, -3.0)],
    [(15, 6, 0.5, 4.0)],  # m = 1: p = 0.078, above 0.05; halved, it would pass
    [(20, 8, 0.5, 6.0)],  # m = 1: p = 0.036, below 0.05 but not below 0.025
]


def _families() -> list[list[Row]]:
    rng, families = random.Random(5), [list(f) for f in FIXED]
    for _ in range(30):
        family = []
        for _ in range(rng.randint(1, 20)):
            won, lost = rng.randint(0, 60), rng.randint(0, 60)
            centre = (won - lost) / 4 + rng.uniform(-3, 3)
            half = rng.uniform(0.5, 8)
            family.append((won, lost, round(centre - half, 1), round(centre + half, 1)))
        families.append(family)
    return families


def _read(got: object, m: int) -> list[str]:
    if not isinstance(got, list | tuple) or len(got) != m:
        raise NotYet(f"return one verdict per row, {m} in a list, got {short(got)}")
    if not all(isinstance(v, str) for v in got):
        raise NotYet(f"each verdict is a str ('better', 'worse', 'no difference shown'): {got!r}")
    return [bare_verdict(v.strip().lower()) for v in got]


def _slips_matching(fn: Callable) -> list[str]:
    """The hints of the slips that read every fixed family as the learner's function does: one
    family can match several slips, the three together tell them apart."""
    try:
        got = [_read(fn([tuple(r) for r in rows]), len(rows)) for rows in FIXED]
    except Exception:  # a function that raises or misreads a fixed family: no slip is named
        return []
    return [
        hint for slip, hint in SLIPS if all(slip(r) == g for r, g in zip(FIXED, got, strict=True))
    ]


# What reads a verdict in the library: compare, and Comparison's three readings (its properties).
LIBRARY_READERS = [
    compare,
    *(getattr(Comparison, name).fget for name in ("verdict", "better", "worse")),
]
REFUSE_LIBRARY = (
    "your function asks the library for the verdict ({name}, Comparison's own reading): that is "
    "the rule this exercise asks you to write: read each row's two tests yourself, as section 1 "
    "does, at 0.05 / m"
)


def check_family_verdicts(fn: Callable) -> int:
    """Run the learner's `family_verdicts(rows)` on every family; a wrong reading names its slip,
    and one that asks the library's `Comparison` for the verdict is refused."""
    families = _families()
    for rows in families:
        expected = family_expected(rows)
        asked = run_without(fn, ([tuple(r) for r in rows],), LIBRARY_READERS, REFUSE_LIBRARY)
        got = _read(asked, len(rows))
        if got != expected:
            n = next(i for i, (g, e) in enumerate(zip(got, expected, strict=True)) if g != e)
            why = "; or ".join(_slips_matching(fn))
            won, lost, low, high = rows[n]
            raise NotYet(
                f"{why or 'not the verdict compare gives'}. Case: a family of m = {len(rows)}, "
                f"row {n}: {won} won, {lost} lost, p = {sign_test(won, lost):.4g}, interval "
                f"[{low}, {high}]: expected {expected[n]!r}, got {got[n]!r}"
            )
    return len(families)


CHECKS_FAMILY_READING: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "03d.3": ("family_verdicts(rows) -> list of verdicts", check_family_verdicts),
}
