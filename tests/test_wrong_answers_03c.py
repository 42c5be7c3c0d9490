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
    (1, "filtering before ranking"),  # the library's order, or the children ranked ahead
    (6, "log-count scorer"),  # the other scorer, where the answer rests on a tie-break
    (11, "share a word with the question"),  # every child with a score, not the first k
    (3, "already at a smaller k"),
    (13, "every child"),
]


@pytest.mark.parametrize(("answer", "hint"), WRONG_03C_1, ids=repr)
def test_03c_1_refuses_with_a_hint(answer, hint):
    message = verdict_for("03c.1", answer)
    assert "not quite" in message and hint in message, message


@pytest.mark.parametrize("answer", [2, 2.0])  # a whole float is the same k, as across the series
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


def _one_too_few(scores, passes, k):
    return sorted((i for i in scores if i in passes), key=lambda i: (-scores[i], i))[: k - 1]


def _fetch_three_k(scores, passes, k):  # the usual patch: over-fetch, filter, cut to k
    ranked = sorted(scores, key=lambda i: (-scores[i], i))[: 3 * k]
    return [i for i in ranked if i in passes][:k]


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
        (_one_too_few, "not [:k-1]"),
        (_fetch_three_k, "fetching a few times k"),
        (_ties_reversed, "ties: among equal scores the smaller id"),
    ],
)
def test_03c_2_refuses_with_a_hint(fn, hint):
    result = verdict("03c.2", fn)
    assert not result.passed and hint in result.message, result.message


def test_03c_2_accepts_the_solution():
    assert verdict("03c.2", filtered_top_k).passed
