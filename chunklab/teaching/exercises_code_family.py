"""Companion 11c's exercise, a family read as one: at a budget of 500 tokens, the syntax tree paired
with each of the other six cuts on complete@5 with BM25, every comparison read at 100 - 5/m.

11c.1 asks for `tree_family(budget) -> (m, cuts)`: the family's size and the cuts the tree is shown
better than at that level. The check runs it at 500 tokens, then at 200 (a fixed answer is
refused), and names each known slip: each comparison read at 95% as if it were alone (at 500 the
two readings part), a family counted wrong, the two blind cuts taken for the whole question, 11c's
m = 20 for its peers or the 12 lines of six cuts with both retrievers, recall@5 for complete@5,
the budget of 200, a cut too many, the interval read alone without the sign test (at 500 the same
cuts as the 95% reading, so that hint names both), and a level in the wrong unit (1 - 0.05/m, a
fraction, or 100 - 0.05/m: `level` is a percent). Two slips give the right cuts at both budgets,
so the check watches the learner's `compare` calls: a level other than 100 - 5/m (m = 6 read at
100 - 5/7, the cuts counted with the tree), and the sign test read alone (run again with every
interval stretched to reach 0, it still lists a cut).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from types import MappingProxyType
from typing import Any

from chunklab.documents.series import data_dir
from chunklab.retrieval.retrievers import BM25Retriever
from chunklab.teaching import claims
from chunklab.teaching.checking import Cases, NotYet, short
from chunklab.teaching.claims import Comparison, compare
from chunklab.teaching.code_search import corpus, cut_corpus, experiment_cuts, score_cut

FAMILY_BUDGET = 500  # 11c.1's budget: where the 95% reading and the family's reading part
NOTEBOOK_M = 20  # 11c's family of the peers (its LEVEL["the peers"]), a slip within reach in 11c.1


@functools.cache
def _bm25_scores(budget: int) -> dict[str, dict[str, list[float]]]:
    """Every cut of the experiment at `budget`, scored with BM25 (cached: the slips reuse it)."""
    files, questions = corpus(data_dir() / "code" / "toolz")
    return {
        label: score_cut(files, cut_corpus(files, split), questions, BM25Retriever())
        for label, split in experiment_cuts(budget).items()
    }


def bm25_family(
    budget: int = FAMILY_BUDGET, metric: str = "complete@5", level: float | None = None
) -> dict[str, Comparison]:
    """At `budget`: the tree against each of the other cuts on `metric` with BM25, question by
    question, every comparison read at `level` (default: the family's, 100 - 5/m)."""
    scored = _bm25_scores(budget)
    others = [label for label in scored if label != "chunklab code"]
    level = 100 - 5 / len(others) if level is None else level
    return {
        other: compare(
            scored["chunklab code"][metric],
            scored[other][metric],
            a="chunklab code (bm25)",
            b=other,
            level=level,
            show=False,
        )
        for other in others
    }


def shown_better(pairs: dict[str, Comparison]) -> tuple[str, ...]:
    """The cuts the tree is shown better than, in the order of `experiment_cuts`."""
    return tuple(other for other, pair in pairs.items() if pair.verdict == "better")


def tree_family_at_500() -> tuple[int, tuple[str, ...]]:
    """11c.1's answer: (m, the cuts the tree is shown better than at the family's level)."""
    pairs = bm25_family()
    return len(pairs), shown_better(pairs)


@functools.cache
def _family_misses() -> Mapping[tuple[int, tuple[str, ...]], str]:
    """11c.1's known wrong answers, each computed here from the library, with why it is wrong
    (once per process: a wrong answer's hint reads them, and they depend on the data alone)."""
    m, shown = tree_family_at_500()
    at_95 = shown_better(bm25_family(level=95.0))
    level_hint = (
        "that reads each comparison at 95%, as if it were the only one drawn; the question draws "
        "a family, so each is read at 100 - 5/m (compare(..., level=100 - 5/m))"
    )
    size_hint = (
        "m counts the comparisons the question draws: the tree against each other cut, on "
        "complete@5, with BM25"
    )
    misses: dict[tuple[int, tuple[str, ...]], str] = {}
    for size in sorted({m, 1, 2, m - 1, m + 1, 2 * m}):
        if size not in (1, m):  # a family counted wrong, whichever level it was then read at
            misses[(size, at_95)] = misses[(size, shown)] = size_hint
        elif sorted(at_95) != sorted(shown):  # m = 1 is the 95% reading itself
            misses[(size, at_95)] = level_hint
    misses[(1, shown)] = size_hint
    at_notebook = shown_better(bm25_family(level=100 - 5 / NOTEBOOK_M))
    for size, what in (
        (NOTEBOOK_M, "every line of 11c's family of the peers, both retrievers at 200"),
        (12, "the six other cuts with both retrievers"),
    ):
        for read in {shown, at_95, at_notebook, shown_better(bm25_family(level=100 - 5 / size))}:
            misses[(size, read)] = f"{size} counts {what}: " + size_hint
    blind = ("fixed tokens", "lines packed")
    two = shown_better({k: v for k, v in bm25_family(level=100 - 5 / 2).items() if k in blind})
    misses[(2, two)] = (
        "the question is every other cut, not only the two blind to structure: " + size_hint
    )
    slips: dict[tuple[str, ...], list[str]] = {}
    for wrong, why in (
        (
            at_notebook,
            f"m right but read at 11c's level for the peers (m = {NOTEBOOK_M}), "
            f"not at level=100 - 5/{m}",
        ),
        (shown_better(bm25_family(metric="recall@5")), "recall@5 for complete@5"),
        (shown_better(bm25_family(200)), f"the budget of 200 for {FAMILY_BUDGET}"),
    ):
        if sorted(wrong) != sorted(shown):
            slips.setdefault(wrong, []).append(why)
    for wrong, whys in slips.items():
        misses.setdefault((m, wrong), "those are the verdicts with " + ", or with ".join(whys))
    extra = "one of your cuts is not 'better' at 100 - 5/m: list a cut only if its verdict says so"
    for other in bm25_family():
        if other not in shown:
            misses.setdefault((m, (*shown, other)), extra)
    interval_only = tuple(o for o, pair in bm25_family().items() if pair.low > 0)
    if sorted(interval_only) != sorted(shown):  # compare's verdict needs the sign test too
        why = (
            "that reads the interval alone (its low end above 0): 'better' also needs the sign "
            "test's p below 0.05/m, so keep the cuts whose verdict is 'better'"
        )
        old = misses.get((m, interval_only))
        misses[(m, interval_only)] = f"either {old}; or {why}" if old else why
    misses.pop((m, shown), None)
    return MappingProxyType(misses)


def _as_answer(got: object) -> tuple[int, tuple[str, ...]] | None:
    """(m, the cuts sorted), or None when `got` is not a pair: a count and a collection of cuts."""
    if not isinstance(got, list | tuple) or len(got) != 2 or isinstance(got[1], str):
        return None
    m, cuts = got
    if not isinstance(m, int) or not isinstance(cuts, list | tuple | set | frozenset):
        return None
    return m, tuple(sorted(cuts))


@contextmanager
def compare_watched(stretch: bool = False) -> Iterator[list[float]]:
    """The level of every `compare` call made while the block runs (found by its code object, so
    any import of it is seen). With `stretch`, every paired interval `compare` draws is widened to
    reach 0, its counts and sign test unchanged: a reading that still says "better" then reads
    the sign test alone."""
    levels: list[float] = []
    previous, drawn = sys.getprofile(), claims.paired

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code is compare.__code__:
            levels.append(float(frame.f_locals["level"]))

    def reaching_0(*args: Any, **kwargs: Any) -> tuple[float, float]:
        low, high = drawn(*args, **kwargs)
        return min(low, 0.0), max(high, 0.0)

    claims.paired = reaching_0 if stretch else drawn
    sys.setprofile(profile)
    try:
        yield levels
    finally:
        sys.setprofile(previous)
        claims.paired = drawn


def _level_named(level: float) -> str:
    """A level as the learner may have written it: 95% alone, or 100 - 5/k."""
    return "95%, one by one" if level == 95 else f"{level:.2f}% (100 - 5/{5 / (100 - level):.3g})"


def _scale_slip(levels: list[float], m: int) -> str | None:
    """The hint for a level written in the wrong unit: a fraction (1 - 0.05/m, read as under 1%)
    or 100 minus the sign test's fraction (100 - 0.05/k): `level` is a percent, 100 - 5/m."""
    right = f"level=100 - 5/{m} = {100 - 5 / m:.2f}"
    for level in levels:
        if level < 50:
            return (
                f"your compare calls read at level={level:.4g}: the level is a percent (95 for a "
                f"95% interval), not a fraction such as 1 - 0.05/m; the family's is {right}"
            )
        k = 0.05 / (100 - level) if level < 100 else 0.0
        if k >= 1 and abs(k - round(k)) < 1e-6:
            return (
                f"your compare calls read at {level:.4f}% (100 - 0.05/{round(k)}): 0.05/m is the "
                f"sign test's threshold as a fraction; the level in percent is {right}"
            )
    return None


def _read_as_drawn(fn: Callable, m: int, levels: list[float]) -> None:
    """Refused when the learner's `compare` calls (their `levels`) are read at another level than
    100 - 5/m, or its cuts follow the sign test alone: with every interval stretched to reach 0,
    no cut is better."""
    if not levels:
        raise NotYet(
            "your function draws no paired interval: pair the tree with each cut through "
            "compare(..., level=100 - 5/m); a verdict needs the interval above 0 and the sign "
            "test, not the sign test alone"
        )
    wrong = sorted({round(level, 9) for level in levels if abs(level - (100 - 5 / m)) > 1e-9})
    if wrong:
        raise NotYet(
            f"your comparisons are read at {', '.join(map(_level_named, wrong))}; the family has "
            f"m = {m} comparisons (the tree against each other cut, not against itself), so each "
            f"is read at 100 - 5/{m} = {100 - 5 / m:.2f}%: at {FAMILY_BUDGET} tokens the two "
            "readings happen to list the same cuts"
        )
    with compare_watched(stretch=True):
        probed = _as_answer(fn(FAMILY_BUDGET))
    if probed is not None and probed[1]:
        raise NotYet(
            f"your cuts follow the sign test alone: with every paired interval stretched to reach "
            f"0 (the counts unchanged), your function still lists {list(probed[1])}; 'better' "
            "needs the interval above 0 too: keep the cuts whose compare(...).verdict is 'better'"
        )


def check_tree_family(fn: Callable) -> Cases:
    """The learner's `tree_family` at 500 tokens, each known slip named; then at 200, where the
    family shows no cut, so that a fixed answer is refused; then the level of its `compare` calls
    at 500, and a run at 500 with every interval stretched to reach 0 (the sign test alone)."""
    with compare_watched() as levels:
        raw = fn(FAMILY_BUDGET)
    got = _as_answer(raw)
    if got is None:
        raise NotYet(f"return a pair (m, cuts): a count, and a list of cut names; got {short(raw)}")
    m, shown = tree_family_at_500()
    scale = _scale_slip(levels, m)  # the level in the wrong unit: named before any other hint
    if scale:
        raise NotYet(scale)
    if got != (m, tuple(sorted(shown))):
        misses: dict[tuple[int, tuple[str, ...]], str] = {}
        for (k, cuts), why in _family_misses().items():  # the first hint for an answer stands
            misses.setdefault((k, tuple(sorted(cuts))), why)
        why = misses.get(got, "pair the tree with each other cut, count m, read each at 100 - 5/m")
        raise NotYet(f"at {FAMILY_BUDGET} tokens your function returns {short(got)}: {why}")
    at_200 = bm25_family(200)
    expected = (len(at_200), tuple(sorted(shown_better(at_200))))
    got = _as_answer(fn(200))
    if got != expected:
        raise NotYet(
            f"at 200 tokens your function returns {short(got)}, not that budget's family: "
            "cut and score at `budget`, not at a fixed 500"
        )
    _read_as_drawn(fn, m, levels)  # the right cuts at both budgets: read as the family draws them?
    said = f"the family at {FAMILY_BUDGET} tokens and at 200, both budgets the prompt names"
    return Cases(2, said)


CHECKS_FAMILY: dict[str, tuple[str, Callable[[Callable], int | Cases]]] = {
    "11c.1": ("tree_family(budget) -> (m, cuts)", check_tree_family),
}
