"""Companion 11b's exercise, a family read as one: at a budget of 500 tokens, the syntax tree paired
with each of the other six cuts on complete@5 with BM25, every comparison read at 100 - 5/m.

11b.1 asks for `tree_family(budget) -> (m, cuts)`: the family's size and the cuts the tree is shown
better than at that level. The check runs it at 500 tokens, then at 200 (a fixed answer is
refused), and names each known slip: each comparison read at 95% as if it were alone (at 500 the
two readings part), a family counted wrong, the two blind cuts taken for the whole question, 11b's
own m = 45 (its LEVEL) or its 12 complete@5 lines, recall@5 for complete@5, the budget of 200, a
cut too many, the interval read alone without the sign test (at 500 the same cuts as the 95%
reading, so that hint names both).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from chunklab.documents.series import data_dir
from chunklab.retrieval.retrievers import BM25Retriever
from chunklab.teaching.checking import Cases, NotYet, short
from chunklab.teaching.claims import Comparison, compare
from chunklab.teaching.code_search import corpus, cut_corpus, experiment_cuts, score_cut

FAMILY_BUDGET = 500  # 11b.1's budget: where the 95% reading and the family's reading part
NOTEBOOK_M = 45  # 11b's own family (its LEVEL), a slip within reach in 11b.1


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
    """11b.1's answer: (m, the cuts the tree is shown better than at the family's level)."""
    pairs = bm25_family()
    return len(pairs), shown_better(pairs)


def _family_misses() -> dict[tuple[int, tuple[str, ...]], str]:
    """11b.1's known wrong answers, each computed here from the library, with why it is wrong."""
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
    for size, what in ((NOTEBOOK_M, "every line of 11b's table"), (12, "its complete@5")):
        for read in {shown, at_95, at_notebook, shown_better(bm25_family(level=100 - 5 / size))}:
            misses[(size, read)] = f"{size} counts {what}, both retrievers at 200: " + size_hint
    blind = ("fixed tokens", "lines packed")
    two = shown_better({k: v for k, v in bm25_family(level=100 - 5 / 2).items() if k in blind})
    misses[(2, two)] = (
        "the question is every other cut, not only the two blind to structure: " + size_hint
    )
    slips: dict[tuple[str, ...], list[str]] = {}
    for wrong, why in (
        (
            at_notebook,
            f"m right but read at 11b's LEVEL (m = {NOTEBOOK_M}), not at level=100 - 5/{m}",
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
            "test's p below 5/m, so keep the cuts whose verdict is 'better'"
        )
        old = misses.get((m, interval_only))
        misses[(m, interval_only)] = f"either {old}; or {why}" if old else why
    misses.pop((m, shown), None)
    return misses


def _as_answer(got: object) -> tuple[int, tuple[str, ...]] | None:
    """(m, the cuts sorted), or None when `got` is not a pair: a count and a collection of cuts."""
    if not isinstance(got, list | tuple) or len(got) != 2 or isinstance(got[1], str):
        return None
    m, cuts = got
    if not isinstance(m, int) or not isinstance(cuts, list | tuple | set | frozenset):
        return None
    return m, tuple(sorted(cuts))


def check_tree_family(fn: Callable) -> Cases:
    """The learner's `tree_family` at 500 tokens, each known slip named; then at 200, where the
    family shows no cut, so that a fixed answer is refused."""
    raw = fn(FAMILY_BUDGET)
    got = _as_answer(raw)
    if got is None:
        raise NotYet(f"return a pair (m, cuts): a count, and a list of cut names; got {short(raw)}")
    m, shown = tree_family_at_500()
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
    said = f"the family at {FAMILY_BUDGET} tokens and at 200, both budgets the prompt names"
    return Cases(2, said)


CHECKS_FAMILY: dict[str, tuple[str, Callable[[Callable], int | Cases]]] = {
    "11b.1": ("tree_family(budget) -> (m, cuts)", check_tree_family),
}
