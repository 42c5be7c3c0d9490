"""The checks of notebook 10b's exercises (which retriever, on the same cuts), and their slips.

10b.1, the fusion written by hand, is checked in `teaching.fusion_checks`.

10b.2 asks whether BM25's lead over MiniLM holds on a cut the notebook does not pair them on:
on markdown 200's chunks, the questions BM25 wins and loses on recall, the paired interval at 95%
and `compare`'s verdict, `(won, lost, low, high, verdict)`, so the learner, not the check, answers
the prompt's question. An interval drawn at another level (the notebook's family level, 99.64%,
or 99%) is named. The refusals name the likely slips: a
verdict read from the interval or the counts alone (the verdict needs both), the
pair swapped, Recursive 200/0's or markdown 150's pair (printed in the notebook), the hybrid's,
BM25 against the hybrid, IoU, precision or precision-Ω paired instead of recall (precision-Ω ties
every question: it belongs to the cut),
the cut paired instead of the retriever (markdown 200 against Recursive 200/0, both by BM25), and
either retriever read on the other cut (section 2's `bm25_200` against MiniLM on markdown 200);
a verdict in capitals is told to write compare's word, whichever word it is; the interval's
ends rounded to whole points are named.
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

CUT = "markdown 200"  # 10b.2's cut: no cell of notebook 10b pairs BM25 with MiniLM on it


@cache  # seconds each, from the stored MiniLM vectors; shared by the check and the tests
def _minilm_cut(label: str) -> Result:
    cut = row_cut(label) if label.startswith("Recursive") else stored_cut(label)
    return evaluate(cut, dense(stored_minilm(strict=True)), k=5)


@cache  # every metric, level and slip of a (cut, retriever) reads one retrieval
def _rescored(label: str, ranker: str = "bm25") -> Result:
    """`label`'s chunks retrieved by `ranker` ("bm25" or "hybrid"). Four retrievals serve 10b.2's
    answer, its slips and its afterword; each comparison used to retrieve again (fifteen, BM25's
    index built eight times: most of the check's time)."""
    ranking = bm25_ranker() if ranker == "bm25" else hybrid_ranker(stored_minilm())
    return rescore(_minilm_cut(label), ranking)


@cache  # the 10b.2 check and its afterword read the same pair
def _against_minilm(
    label: str, ranker: str = "bm25", metric: str = "recall", level: float = 95.0
) -> Comparison:
    """`ranker` paired against MiniLM on `metric`, on `label`'s chunks, at `level`."""
    minilm, other = _minilm_cut(label), _rescored(label, ranker)
    return compare(other.scores[metric], minilm.scores[metric], show=False, level=level)


Pair = tuple[int, int, float, float]  # won, lost and the 95% interval's ends to one decimal


def _pair(paired: Comparison) -> Pair:
    return paired.won, paired.lost, round(paired.low, 1), round(paired.high, 1)


def _won_lost(label: str, ranker: str = "bm25", metric: str = "recall") -> Pair:
    """Questions won and lost on `metric` by `ranker` against MiniLM, on `label`'s chunks, and
    the 95% interval."""
    return _pair(_against_minilm(label, ranker, metric))


def _bm25_cut_against_cut() -> Pair:
    """The slip of pairing the cut, not the retriever: BM25 on the exercise's cut against BM25 on
    Recursive 200/0, recall."""
    bm25 = [_rescored(label) for label in (CUT, "Recursive 200/0")]
    return _pair(compare(bm25[0].scores["recall"], bm25[1].scores["recall"], show=False))


def _bm25_against_another_cut(bm25_on: str, minilm_on: str) -> Pair:
    """The slip of the wrong baseline: BM25 on one cut against MiniLM on another, recall (the
    retriever and the cut both changed)."""
    bm25 = _rescored(bm25_on)
    return _pair(
        compare(bm25.scores["recall"], _minilm_cut(minilm_on).scores["recall"], show=False)
    )


def _bm25_against_hybrid() -> Pair:
    """The slip of the wrong second retriever: BM25 against the hybrid on the cut, recall."""
    bm25, hybrid = _rescored(CUT), _rescored(CUT, "hybrid")
    return _pair(compare(bm25.scores["recall"], hybrid.scores["recall"], show=False))


_VERDICTS = ("better", "worse", "no difference shown")


FAMILY_LEVEL = 100 - 5 / 14  # notebook 10b's family of fourteen, which the exercise is not part of


def _answer(paired: Comparison) -> tuple[int, int, float, float, str]:
    """(won, lost, low, high, verdict), the interval to one decimal as compare prints it."""
    return paired.won, paired.lost, round(paired.low, 1), round(paired.high, 1), paired.verdict


def _bm25_on_the_cut() -> tuple[int, int, float, float, str]:
    """10b.2: BM25 against MiniLM on markdown 200's chunks, recall, (won, lost, low, high,
    verdict) at 95%."""
    return _answer(_against_minilm(CUT))


def _at_other_levels() -> dict[Any, str]:
    """The right pair with its interval drawn at the family's level or at 99%, any verdict."""
    out: dict[Any, str] = {}
    for level, name in ((99.0, "99%"), (FAMILY_LEVEL, f"the family level ({FAMILY_LEVEL:.2f}%)")):
        why = (
            f"that interval is drawn at {name}: this exercise is one comparison, named before "
            "looking, so read it at 95%, compare's default level"
        )
        out.update({(*_pair(_against_minilm(CUT, level=level)), w): why for w in _VERDICTS})
    return out


_IN_SHARES = (
    "the interval's ends are in points, as compare prints them (+2.5 for 2.5 points): you gave "
    "them as shares of 1"
)

_WHOLE_POINTS = (
    "the interval's ends to one decimal, as compare prints them (+2.3, not +2): you rounded them "
    "to whole points"
)


def _rounding_slips(paired: Comparison) -> dict[Pair, str]:
    """The right counts with the interval's ends written as shares of 1, or rounded to whole
    points, where that differs from the right ends."""
    interval = (round(paired.low, 1), round(paired.high, 1))
    out: dict[Pair, str] = {}
    for ends, why in (
        ((round(paired.low / 100, 1), round(paired.high / 100, 1)), _IN_SHARES),
        ((float(round(paired.low)), float(round(paired.high))), _WHOLE_POINTS),
    ):
        if ends != interval:
            out[(paired.won, paired.lost, *ends)] = why
    return out


def _bm25_on_the_cut_misses() -> dict[Any, str]:
    """Each wrong pair below with any verdict, the right pair at another level, and the right
    pair with a wrong verdict."""
    paired = _against_minilm(CUT)
    right = (paired.won, paired.lost)
    interval = (round(paired.low, 1), round(paired.high, 1))
    printed = "printed in section 2: the exercise asks markdown 200's chunks"
    swapped = (right[1], right[0], -interval[1], -interval[0])
    pairs: dict[Pair, str] = {
        swapped: "the pair is (won, lost) for BM25: you gave MiniLM's",
        _won_lost("Recursive 200/0"): f"that is Recursive 200/0's pair, {printed}",
        _won_lost("markdown 150"): f"that is markdown 150's pair, {printed}",
        _pair(_against_minilm("markdown 150", level=FAMILY_LEVEL)): f"that is markdown 150's "
        f"pair as {printed}",
        _won_lost(CUT, "hybrid"): "that pairs the hybrid against MiniLM: the exercise "
        "asks BM25 alone",
        _won_lost(CUT, metric="precision"): "that pairs precision: the exercise asks recall",
        _won_lost(CUT, metric="iou"): "that pairs IoU: the exercise asks recall",
        _bm25_against_hybrid(): "that pairs BM25 against the hybrid: the exercise pairs BM25 "
        "against MiniLM",
        _bm25_cut_against_cut(): "that pairs two cuts under BM25 (markdown 200 against Recursive "
        "200/0): the exercise holds the cut, markdown 200, and pairs BM25 against MiniLM",
        _bm25_against_another_cut(CUT, "Recursive 200/0"): "that pairs BM25 on markdown 200 "
        "against MiniLM on Recursive 200/0, so the cut changed too: pair both retrievers on "
        "markdown 200's chunks",
        _bm25_against_another_cut("Recursive 200/0", CUT): "that pairs section 2's bm25_200, "
        "BM25 on Recursive 200/0, against MiniLM on markdown 200, so the cut changed too: "
        "retrieve with BM25 on markdown 200's chunks (rescore)",
        (
            0,
            0,
            0.0,
            0.0,
        ): "both retrievers tie on every question: you paired a measure of the "
        "cut alone (notebook 10's precision-Ω, which no retriever moves); pair recall",
    }
    if _won_lost(CUT, metric="iou") == _won_lost(CUT, metric="precision"):
        pairs[_won_lost(CUT, metric="iou")] = (
            "that pairs precision or IoU (the two split the questions alike here): the exercise "
            "asks recall"
        )
    for key, why in _rounding_slips(paired).items():  # a pair named above keeps its hint
        pairs.setdefault(key, why)
    pairs.pop((*right, *interval), None)
    misses = {(*pair, word): why for pair, why in pairs.items() for word in _VERDICTS}
    misses.update(_at_other_levels())
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


def _bm25_on_the_cut_afterword() -> str:
    """10b.2, once right: the prompt's questions (does BM25's lead hold on markdown 200's chunks,
    and does the family's level change the verdict?), answered by `compare` at both levels."""
    paired, family = _against_minilm(CUT), _against_minilm(CUT, level=FAMILY_LEVEL)
    held = "holds" if paired.better else "is not shown"
    return (
        f"at 95%, {paired.brief()}; at the family's {FAMILY_LEVEL:.2f}%, {family.brief()}. So on "
        f"markdown 200's chunks the lead {held} at 95%, and the family's level gives "
        f"{'the same verdict' if family.verdict == paired.verdict else 'another verdict'}, "
        f"'{family.verdict}' (its sign test needs p < {(100 - FAMILY_LEVEL) / 100:.3g}): with "
        "section 2's two cuts, the lead is shown on "
        f"{2 if family.better else 1} of the three tried."
    )


# exercise -> what a right answer is told besides "correct": the prompt's own question, answered
AFTERWORDS_RETRIEVERS: dict[str, Callable[[], str]] = {"10b.2": _bm25_on_the_cut_afterword}


SOLUTIONS_RETRIEVERS: dict[str, tuple[str, Callable[[], Any]]] = {
    "10b.2": (
        "a tuple (won, lost, low, high, verdict): two integers, the 95% paired interval's ends "
        "to one decimal, and compare's verdict",
        _bm25_on_the_cut,
    ),
}
FORMS_RETRIEVERS: dict[str, Form] = {"10b.2": Form(decimals=1, misses=_bm25_on_the_cut_misses)}
