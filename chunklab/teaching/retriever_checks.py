"""The checks of notebook 10b's exercises (which retriever, on the same cuts), and their slips.

10b.1 asks for `fuse(rankings, k)`: each id's fused score, the sum over the rankings that hold it
of 1 / (k + its rank there), ranks counted from 1 (Cormack, Clarke and Büttcher, 2009; the
library's `retrievers.reciprocal_rank_fusion` with k = `RRF_K`). Fusion is where the hybrid's
verdict comes from, and each predictable slip gives another score on a case picked to tell the
slips apart: ranks counted from 0, the constant left out, `1 / k + rank` (the brackets),
`1 / (k * rank)`, a mean (over the rankings holding the id, or over all of them) or a maximum
instead of the sum, ranks added instead of their reciprocals, k fixed at 60, only the
ids every ranking holds, an id a ranking lacks counted as ranked just past its end, and each
ranking read from its end; and scores rounded. A wrong
answer that matches one is told which.

10b.2 asks whether BM25's lead over MiniLM holds on another cut: on markdown 150's chunks, the
questions BM25 wins and loses on recall and `compare`'s verdict at 95%, `(won, lost, verdict)`, so
the learner, not the check, answers the prompt's question. The refusals name the likely slips: a
verdict read from the interval or the counts alone (the verdict needs both), the
pair swapped, Recursive 200/0's pair (printed in the notebook), markdown 200's, the hybrid's,
BM25 against the hybrid, IoU, precision or precision-Ω paired instead of recall (precision-Ω ties
every question: it belongs to the cut),
and the cut paired instead of the retriever (markdown 150 against Recursive 200/0, both by BM25);
a verdict in capitals is told to write compare's word, whichever word it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

import numpy as np

from chunklab.evaluation.benchmark import Result, dense, evaluate
from chunklab.evaluation.benchmark_rankers import bm25_ranker, hybrid_ranker, rescore
from chunklab.evaluation.benchmark_rows import row_cut, stored_minilm
from chunklab.evaluation.stored_cuts import stored_cut
from chunklab.retrieval.retrievers import reciprocal_rank_fusion
from chunklab.teaching.answers import Form
from chunklab.teaching.checking import NotYet, run_without, short
from chunklab.teaching.claims import Comparison, compare

Rankings = list[list[str]]


def expected_fusion(rankings: Rankings, k: float) -> dict[str, float]:
    """Each id's sum, over the rankings that hold it, of 1 / (k + its rank from 1)."""
    fused: dict[str, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            fused[item] = fused.get(item, 0.0) + 1.0 / (k + rank)
    return fused


def _per_item(rankings: Rankings, score: Callable[[int], float]) -> dict[str, list[float]]:
    """Each id's list of `score(rank)`, one per ranking that holds it (ranks from 1)."""
    out: dict[str, list[float]] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            out.setdefault(item, []).append(score(rank))
    return out


def _slips(rankings: Rankings, k: float) -> dict[str, dict[str, float]]:
    """What each predictable slip returns on one case -> the words that name it."""
    reciprocal = _per_item(rankings, lambda r: 1.0 / (k + r))
    every = set.intersection(*(set(r) for r in rankings))
    ids = list(expected_fusion(rankings, k))
    past_end = {
        item: sum(1.0 / (k + (r.index(item) + 1 if item in r else len(r) + 1)) for r in rankings)
        for item in ids
    }
    return {
        "you counted ranks from 0: the first item has rank 1, so it scores 1 / (k + 1)": {
            i: sum(1.0 / (k + r - 1) for r in ranks)
            for i, ranks in _per_item(rankings, float).items()
        },
        "you left out the constant: each term is 1 / (k + rank), not 1 / rank": {
            i: sum(v) for i, v in _per_item(rankings, lambda r: 1.0 / r).items()
        },
        "you wrote 1 / k + rank: the brackets go round the sum, 1 / (k + rank)": {
            i: sum(v) for i, v in _per_item(rankings, lambda r: 1.0 / k + r).items()
        },
        "you averaged over the rankings that hold the id: fusion adds them, so an id two "
        "rankings agree on rises": {i: float(np.mean(v)) for i, v in reciprocal.items()},
        "you divided the sum by the number of rankings: fusion adds the terms, it does not "
        "average them": {i: sum(v) / len(rankings) for i, v in reciprocal.items()},
        "you multiplied, 1 / (k * rank): the constant is added to the rank, 1 / (k + rank)": {
            i: sum(v) for i, v in _per_item(rankings, lambda r: 1.0 / (k * r)).items()
        },
        "you kept the best of the id's terms: fusion adds one term per ranking that holds it": {
            i: max(v) for i, v in reciprocal.items()
        },
        "you added the ranks themselves: add their reciprocals, 1 / (k + rank)": {
            i: sum(v) for i, v in _per_item(rankings, float).items()
        },
        "you used 60 whatever k is: use the k you are given": expected_fusion(rankings, 60),
        "you kept only the ids every ranking holds: an id found by one ranking still scores its "
        "term there": {i: v for i, v in expected_fusion(rankings, k).items() if i in every},
        "you counted an id a ranking lacks as ranked just past its end: a ranking that lacks "
        "an id adds nothing for it": past_end,
        "you ranked from the end: each ranking is best first, so its first id has rank 1": {
            i: sum(v) for i, v in _reversed_terms(rankings, k).items()
        },
    }


def _reversed_terms(rankings: Rankings, k: float) -> dict[str, list[float]]:
    """Each id's terms with every ranking read from its end (the last id rank 1)."""
    return _per_item([list(reversed(r)) for r in rankings], lambda r: 1.0 / (k + r))


def _cases() -> list[tuple[Rankings, float]]:
    """Hand-picked cases first (the first tells every slip apart), then random ones."""
    cases: list[tuple[Rankings, float]] = [
        ([["a", "b", "c"], ["c", "d", "a", "e"]], 2),
        ([["x", "y"], ["y", "x"]], 60),
        ([["p", "q", "r"]], 1),
        ([["a", "b"], ["c"], ["b", "c", "a"]], 10),
    ]
    rng = np.random.default_rng(1009)
    pool = [f"c{i}" for i in range(12)]
    for _ in range(20):
        rankings = [
            [str(x) for x in rng.choice(pool, size=int(rng.integers(1, 9)), replace=False)]
            for _ in range(int(rng.integers(1, 4)))
        ]
        cases.append((rankings, float(rng.choice([1, 5, 20, 60]))))
    return cases


def _same(got: Mapping, want: Mapping[str, float]) -> bool:
    if set(got) != set(want):
        return False
    try:
        return all(abs(float(got[i]) - want[i]) <= 1e-9 for i in want)
    except (TypeError, ValueError):
        return False


def _which_slip(got: object, rankings: Rankings, k: float) -> str:
    if not isinstance(got, Mapping):
        return "return a dict from each id to its fused score"
    expected = expected_fusion(rankings, k)
    matched = [
        words
        for words, slipped in _slips(rankings, k).items()
        if not _same(slipped, expected) and _same(got, slipped)
    ]
    if matched:
        return "; or ".join(matched)
    if set(got) != set(expected):
        return "every id any ranking holds gets a score, and no other id"
    for decimals in range(1, 10):
        if _same(got, {i: round(v, decimals) for i, v in expected.items()}):
            return "you rounded the scores: return them unrounded"
    return "each id scores the sum, over the rankings that hold it, of 1 / (k + its rank from 1)"


def check_fuse(fn: Callable) -> int:
    cases = 0
    for rankings, k in _cases():
        expected = expected_fusion(rankings, k)
        got = run_without(
            fn,
            ([list(r) for r in rankings], k),
            reciprocal_rank_fusion,
            "your function calls chunklab's reciprocal_rank_fusion: the exercise asks you to "
            "write the fusion yourself",
        )
        if not (isinstance(got, Mapping) and _same(got, expected)):
            want = {i: round(v, 4) for i, v in expected.items()}
            raise NotYet(
                f"rankings {rankings}, k = {k:g}: expected {short(want)}, got "
                f"{short(got)}: {_which_slip(got, rankings, k)}"
            )
        cases += 1
    return cases


CHECKS_FUSION: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "10b.1": ("fuse(rankings, k) -> dict of id to fused score", check_fuse),
}


@cache  # seconds each, from the stored MiniLM vectors; shared by the check and the tests
def _minilm_cut(label: str) -> Result:
    cut = row_cut(label) if label.startswith("Recursive") else stored_cut(label)
    return evaluate(cut, dense(stored_minilm(strict=True)), k=5)


@cache  # the 10b.2 check and its afterword read the same pair
def _against_minilm(label: str, ranker: str = "bm25", metric: str = "recall") -> Comparison:
    """`ranker` paired against MiniLM on `metric`, on `label`'s chunks."""
    minilm = _minilm_cut(label)
    other = rescore(minilm, bm25_ranker() if ranker == "bm25" else hybrid_ranker(stored_minilm()))
    return compare(other.scores[metric], minilm.scores[metric], show=False)


def _won_lost(label: str, ranker: str = "bm25", metric: str = "recall") -> tuple[int, int]:
    """Questions won and lost on `metric` by `ranker` against MiniLM, on `label`'s chunks."""
    paired = _against_minilm(label, ranker, metric)
    return paired.won, paired.lost


def _bm25_cut_against_cut() -> tuple[int, int]:
    """The slip of pairing the cut, not the retriever: BM25 on markdown 150 against BM25 on
    Recursive 200/0, recall."""
    cuts = ("markdown 150", "Recursive 200/0")
    bm25 = [rescore(_minilm_cut(label), bm25_ranker()) for label in cuts]
    paired = compare(bm25[0].scores["recall"], bm25[1].scores["recall"], show=False)
    return paired.won, paired.lost


def _bm25_against_another_cut() -> tuple[int, int]:
    """The slip of the wrong baseline: BM25 on markdown 150 against MiniLM on Recursive 200/0,
    recall (the retriever and the cut both changed)."""
    bm25 = rescore(_minilm_cut("markdown 150"), bm25_ranker())
    paired = compare(
        bm25.scores["recall"], _minilm_cut("Recursive 200/0").scores["recall"], show=False
    )
    return paired.won, paired.lost


def _bm25_against_hybrid() -> tuple[int, int]:
    """The slip of the wrong second retriever: BM25 against the hybrid on markdown 150, recall."""
    minilm = _minilm_cut("markdown 150")
    bm25, hybrid = (rescore(minilm, r) for r in (bm25_ranker(), hybrid_ranker(stored_minilm())))
    paired = compare(bm25.scores["recall"], hybrid.scores["recall"], show=False)
    return paired.won, paired.lost


_VERDICTS = ("better", "worse", "no difference shown")


def _bm25_on_markdown_150() -> tuple[int, int, str]:
    """10b.2: BM25 against MiniLM on markdown 150's chunks, recall, (won, lost, verdict) at 95%."""
    paired = _against_minilm("markdown 150")
    return paired.won, paired.lost, paired.verdict


def _bm25_on_markdown_150_misses() -> dict[Any, str]:
    """Each wrong pair below with any verdict, and the right pair with a wrong verdict."""
    paired = _against_minilm("markdown 150")
    right = (paired.won, paired.lost)
    pairs: dict[tuple[int, int], str] = {
        (right[1], right[0]): "the pair is (won, lost) for BM25: you gave MiniLM's",
        _won_lost("Recursive 200/0"): "that is Recursive 200/0's pair, printed in section 2: the "
        "exercise asks markdown 150's chunks",
        _won_lost("markdown 200"): "that is markdown 200's pair: the exercise asks markdown 150",
        _won_lost("markdown 150", "hybrid"): "that pairs the hybrid against MiniLM: the exercise "
        "asks BM25 alone",
        _won_lost("markdown 150", metric="precision"): "that pairs precision: the exercise asks "
        "recall",
        _won_lost("markdown 150", metric="iou"): "that pairs IoU: the exercise asks recall",
        _bm25_against_hybrid(): "that pairs BM25 against the hybrid: the exercise pairs BM25 "
        "against MiniLM",
        _bm25_cut_against_cut(): "that pairs two cuts under BM25 (markdown 150 against Recursive "
        "200/0): the exercise holds the cut, markdown 150, and pairs BM25 against MiniLM",
        _bm25_against_another_cut(): "that pairs BM25 on markdown 150 against MiniLM on Recursive "
        "200/0, so the cut changed too: pair both retrievers on markdown 150's chunks",
        (0, 0): "both retrievers tie on every question: you paired a measure of the cut alone "
        "(notebook 10's precision-Ω, which no retriever moves); pair recall",
    }
    if _won_lost("markdown 150", metric="iou") == _won_lost("markdown 150", metric="precision"):
        pairs[_won_lost("markdown 150", metric="iou")] = "that pairs precision or IoU (the two "
        "split the questions alike here): the exercise asks recall"
    pairs.pop(right, None)
    misses = {(*pair, word): why for pair, why in pairs.items() for word in _VERDICTS}
    for word in _VERDICTS:  # every word, right or wrong, so the case alone gives nothing away
        for written in {word.capitalize(), word.upper()} - {word}:
            misses[(*right, written)] = (
                "write the verdict as compare prints it, in lower case: 'better', 'worse' or "
                "'no difference shown'"
            )
        if word != paired.verdict:
            misses[(*right, word)] = (
                "the pair is right, the verdict not: compare says 'better' only when the paired "
                "interval excludes 0 and the sign test gives p < 0.05; read both on its line"
            )
    return misses


def _bm25_on_markdown_150_afterword() -> str:
    """10b.2, once right: the prompt's question (does BM25's lead hold on another cut?), answered
    by `compare`'s verdict on the pair."""
    paired = _against_minilm("markdown 150")
    if paired.better:
        return f"{paired.brief()}: the lead holds on markdown 150's chunks too."
    return (
        f"{paired.brief()}: on markdown 150's chunks the lead is not shown, so section 2's "
        "claim stands for Recursive 200/0's chunks only."
    )


# exercise -> what a right answer is told besides "correct": the prompt's own question, answered
AFTERWORDS_RETRIEVERS: dict[str, Callable[[], str]] = {"10b.2": _bm25_on_markdown_150_afterword}


SOLUTIONS_RETRIEVERS: dict[str, tuple[str, Callable[[], Any]]] = {
    "10b.2": (
        "a triple (won, lost, verdict): two integers and compare's verdict at 95%",
        _bm25_on_markdown_150,
    ),
}
FORMS_RETRIEVERS: dict[str, Form] = {"10b.2": Form(misses=_bm25_on_markdown_150_misses)}
