"""The checks of notebook 10b's exercises (which retriever, on the same cuts), and their slips.

10b.1, the fusion written by hand, is checked in `teaching.fusion_checks`.

10b.2 asks whether BM25's lead over MiniLM holds on another cut: on markdown 150's chunks, the
questions BM25 wins and loses on recall, the paired interval at 95% and `compare`'s verdict,
`(won, lost, low, high, verdict)`, so the learner, not the check, answers the prompt's question.
The interval is asked because the verdict alone is the same at the notebook's family level: an
interval drawn at that level (99.62%) is named. The refusals name the likely slips: a
verdict read from the interval or the counts alone (the verdict needs both), the
pair swapped, Recursive 200/0's pair (printed in the notebook), markdown 200's, the hybrid's,
BM25 against the hybrid, IoU, precision or precision-Ω paired instead of recall (precision-Ω ties
every question: it belongs to the cut),
and the cut paired instead of the retriever (markdown 150 against Recursive 200/0, both by BM25);
a verdict in capitals is told to write compare's word, whichever word it is.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from chunklab.evaluation.benchmark import Result, dense, evaluate
from chunklab.evaluation.benchmark_rankers import bm25_ranker, hybrid_ranker, rescore
from chunklab.evaluation.benchmark_rows import row_cut, stored_minilm
from chunklab.evaluation.stored_cuts import stored_cut
from chunklab.teaching.answers import Form
from chunklab.teaching.claims import Comparison, compare


@cache  # seconds each, from the stored MiniLM vectors; shared by the check and the tests
def _minilm_cut(label: str) -> Result:
    cut = row_cut(label) if label.startswith("Recursive") else stored_cut(label)
    return evaluate(cut, dense(stored_minilm(strict=True)), k=5)


@cache  # the 10b.2 check and its afterword read the same pair
def _against_minilm(
    label: str, ranker: str = "bm25", metric: str = "recall", level: float = 95.0
) -> Comparison:
    """`ranker` paired against MiniLM on `metric`, on `label`'s chunks, at `level`."""
    minilm = _minilm_cut(label)
    other = rescore(minilm, bm25_ranker() if ranker == "bm25" else hybrid_ranker(stored_minilm()))
    return compare(other.scores[metric], minilm.scores[metric], show=False, level=level)


Pair = tuple[int, int, float, float]  # won, lost and the 95% interval's ends to one decimal


def _pair(paired: Comparison) -> Pair:
    return paired.won, paired.lost, round(paired.low, 1), round(paired.high, 1)


def _won_lost(label: str, ranker: str = "bm25", metric: str = "recall") -> Pair:
    """Questions won and lost on `metric` by `ranker` against MiniLM, on `label`'s chunks, and
    the 95% interval."""
    return _pair(_against_minilm(label, ranker, metric))


def _bm25_cut_against_cut() -> Pair:
    """The slip of pairing the cut, not the retriever: BM25 on markdown 150 against BM25 on
    Recursive 200/0, recall."""
    cuts = ("markdown 150", "Recursive 200/0")
    bm25 = [rescore(_minilm_cut(label), bm25_ranker()) for label in cuts]
    return _pair(compare(bm25[0].scores["recall"], bm25[1].scores["recall"], show=False))


def _bm25_against_another_cut() -> Pair:
    """The slip of the wrong baseline: BM25 on markdown 150 against MiniLM on Recursive 200/0,
    recall (the retriever and the cut both changed)."""
    bm25 = rescore(_minilm_cut("markdown 150"), bm25_ranker())
    return _pair(
        compare(bm25.scores["recall"], _minilm_cut("Recursive 200/0").scores["recall"], show=False)
    )


def _bm25_against_hybrid() -> Pair:
    """The slip of the wrong second retriever: BM25 against the hybrid on markdown 150, recall."""
    minilm = _minilm_cut("markdown 150")
    bm25, hybrid = (rescore(minilm, r) for r in (bm25_ranker(), hybrid_ranker(stored_minilm())))
    return _pair(compare(bm25.scores["recall"], hybrid.scores["recall"], show=False))


_VERDICTS = ("better", "worse", "no difference shown")


FAMILY_LEVEL = 100 - 5 / 13  # notebook 10b's family of thirteen, which the exercise is not part of


def _answer(paired: Comparison) -> tuple[int, int, float, float, str]:
    """(won, lost, low, high, verdict), the interval to one decimal as compare prints it."""
    return paired.won, paired.lost, round(paired.low, 1), round(paired.high, 1), paired.verdict


def _bm25_on_markdown_150() -> tuple[int, int, float, float, str]:
    """10b.2: BM25 against MiniLM on markdown 150's chunks, recall, (won, lost, low, high,
    verdict) at 95%."""
    return _answer(_against_minilm("markdown 150"))


def _at_the_family_level(family: Comparison) -> dict[Any, str]:
    """The right pair with its interval drawn at notebook 10b's family level, any verdict."""
    why = (
        f"that interval is drawn at the notebook's family level ({FAMILY_LEVEL:.2f}%): this "
        "exercise is one comparison, named before looking, so read it at 95%, compare's default "
        "level"
    )
    return {(*_pair(family), word): why for word in _VERDICTS}


_IN_SHARES = (
    "the interval's ends are in points, as compare prints them (+2.5 for 2.5 points): you gave "
    "them as shares of 1"
)


def _bm25_on_markdown_150_misses() -> dict[Any, str]:
    """Each wrong pair below with any verdict, the right pair at the family's level, and the right
    pair with a wrong verdict."""
    paired = _against_minilm("markdown 150")
    right = (paired.won, paired.lost)
    interval = (round(paired.low, 1), round(paired.high, 1))
    family = _against_minilm("markdown 150", level=FAMILY_LEVEL)  # what the prompt says not to use
    pairs: dict[Pair, str] = {
        (
            right[1],
            right[0],
            -interval[1],
            -interval[0],
        ): "the pair is (won, lost) for BM25: you gave MiniLM's",
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
        (
            0,
            0,
            0.0,
            0.0,
        ): "both retrievers tie on every question: you paired a measure of the "
        "cut alone (notebook 10's precision-Ω, which no retriever moves); pair recall",
    }
    if _won_lost("markdown 150", metric="iou") == _won_lost("markdown 150", metric="precision"):
        pairs[_won_lost("markdown 150", metric="iou")] = (
            "that pairs precision or IoU (the two split the questions alike here): the exercise "
            "asks recall"
        )
    shares = (round(paired.low / 100, 1), round(paired.high / 100, 1))
    if shares != interval:  # the interval's ends written as shares of 1, not points
        pairs.setdefault((*right, *shares), _IN_SHARES)
    pairs.pop((*right, *interval), None)
    misses = {(*pair, word): why for pair, why in pairs.items() for word in _VERDICTS}
    misses.update(_at_the_family_level(family))
    for word in _VERDICTS:  # every word, right or wrong, so the case alone gives nothing away
        for written in {word.capitalize(), word.upper()} - {word}:
            misses[(*right, *interval, written)] = (
                "write the verdict as compare prints it, in lower case: 'better', 'worse' or "
                "'no difference shown'"
            )
        if word != paired.verdict:
            misses[(*right, *interval, word)] = (
                "the pair is right, the verdict not: compare says 'better' only when the paired "
                "interval excludes 0 and the sign test gives p < 0.05; read both on its line"
            )
    return misses


def _bm25_on_markdown_150_afterword() -> str:
    """10b.2, once right: the prompt's question (does BM25's lead hold on another cut?), answered
    by `compare`'s verdict on the pair."""
    paired = _against_minilm("markdown 150")
    if paired.better:
        return f"{paired.brief()}: at 95% the lead holds on markdown 150's chunks too."
    return (
        f"{paired.brief()}: at 95% as in section 2's family, on markdown 150's chunks the lead is "
        f"not shown: the sign test's p, {paired.p_value:.3g}, is above 0.05 at either level, "
        "so section 2's claim stands for Recursive 200/0's chunks only."
    )


# exercise -> what a right answer is told besides "correct": the prompt's own question, answered
AFTERWORDS_RETRIEVERS: dict[str, Callable[[], str]] = {"10b.2": _bm25_on_markdown_150_afterword}


SOLUTIONS_RETRIEVERS: dict[str, tuple[str, Callable[[], Any]]] = {
    "10b.2": (
        "a tuple (won, lost, low, high, verdict): two integers, the 95% paired interval's ends "
        "to one decimal, and compare's verdict",
        _bm25_on_markdown_150,
    ),
}
FORMS_RETRIEVERS: dict[str, Form] = {"10b.2": Form(decimals=1, misses=_bm25_on_markdown_150_misses)}
