"""Notebook 03c's exercises refuse plausible wrong answers, each with a hint naming what is wrong,
and accept the right one."""

import sys

import pytest
from conftest import ROOT

from chunklab.teaching.exercises import verdict
from chunklab.teaching.selfcheck import verdict_for

sys.path.insert(0, str(ROOT))
from solutions.exercises import filtered_top_k  # noqa: E402

# --- 03c.1: the smallest k at which rank-then-filter keeps the expense child ----------------------

WRONG_03C_1 = [
    (1, "filtering before ranking"),  # the library's order, not the one asked
    (2, "with BM25"),
    (5, "counts the children ranked ahead"),  # off by one
    (4, "60-token children"),  # the tenants' and adapter's chunker, not notebook 03's
    (7, "share a word with the question"),  # every child with a score, not the first k
    (3, "the value is not right"),
]


@pytest.mark.parametrize(("answer", "hint"), WRONG_03C_1, ids=repr)
def test_03c_1_refuses_with_a_hint(answer, hint):
    message = verdict_for("03c.1", answer)
    assert "not quite" in message and hint in message, message


@pytest.mark.parametrize("answer", [6, 6.0])  # a whole float is the same k, as across the series
def test_03c_1_accepts_the_answer(answer):
    assert verdict_for("03c.1", answer) == "Exercise 03c.1: correct."


# --- 03c.2: filter, then rank ---------------------------------------------------------------------


def _rank_then_filter(scores, passes, k):
    ranked = sorted(scores, key=lambda i: (-scores[i], i))[:k]
    return [i for i in ranked if i in passes]


def _reverse_order(scores, passes, k):
    return sorted((i for i in scores if i in passes), key=lambda i: (scores[i], i))[:k]


def _unfiltered(scores, passes, k):
    return sorted(scores, key=lambda i: (-scores[i], i))[:k]


def _score_only(scores, passes, k):  # a stable sort by score: ties keep insertion order
    return sorted((i for i in scores if i in passes), key=lambda i: scores[i], reverse=True)[:k]


def _one_too_many(scores, passes, k):
    return sorted((i for i in scores if i in passes), key=lambda i: (-scores[i], i))[: k + 1]


def _ties_reversed(scores, passes, k):  # best first, but the larger id first on a tie
    return sorted((i for i in scores if i in passes), key=lambda i: (scores[i], i), reverse=True)[
        :k
    ]


@pytest.mark.parametrize(
    ("fn", "hint"),
    [
        (_rank_then_filter, "filtered after"),
        (_reverse_order, "wrong order"),
        (_unfiltered, "fails the filter"),
        (_score_only, "ties: among equal scores the smaller id"),
        (_one_too_many, "more than k"),
        (_ties_reversed, "ties: among equal scores the smaller id"),
    ],
)
def test_03c_2_refuses_with_a_hint(fn, hint):
    result = verdict("03c.2", fn)
    assert not result.passed and hint in result.message, result.message


def test_03c_2_accepts_the_solution():
    assert verdict("03c.2", filtered_top_k).passed
