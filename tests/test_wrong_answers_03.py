"""Notebook 03's exercises refuse plausible wrong answers, each with a hint naming what is wrong,
and accept every correct form of the right one."""

import sys

import pytest
from conftest import ROOT

from chunklab.teaching.exercises import verdict
from chunklab.teaching.selfcheck import verdict_for

sys.path.insert(0, str(ROOT))
from solutions.exercises import parents_within  # noqa: E402

# --- 03.1: the questions 80-token children alone miss with BM25 at k = 2 ------------------------

WRONG_03_1 = [
    ([], "for the parents handed over"),  # small-to-big's parents, not the children
    ([], "with the log-count scorer"),  # the scorer of section 2's worked example
    ([], "at k = 3"),
    (["t01", "t03"], "at k = 1"),  # the right method at the neighbouring k
    (["t01", "t03"], "the notebook's 45-token children"),  # the notebook's children, not 80
    (["t03"], "log-count scorer and the notebook's 45-token children"),
    (["t02", "t04"], "the prompt's example"),  # the form shown in the prompt, copied
    (["t01", "t02"], "1 of your 2 items do not belong"),
    (["t01", "t01"], "repeats items"),
    ("t01", "a str where a list or tuple"),
]


@pytest.mark.parametrize(("answer", "hint"), WRONG_03_1, ids=repr)
def test_03_1_refuses_with_a_hint(answer, hint):
    message = verdict_for("03.1", answer)
    assert "not quite" in message and hint in message, message


# ids named, not repr: a set's repr follows the hash seed, and xdist's workers must collect the
# same test ids
@pytest.mark.parametrize("answer", [["t01"], ("t01",), {"t01"}], ids=["list", "tuple", "set"])
def test_03_1_accepts_any_form(answer):
    assert verdict_for("03.1", answer) == "Exercise 03.1: correct."


# --- 03.2: tokens handed over with three parents --------------------------------------------------

WRONG_03_2 = [
    (141.5, "the default max_parents=2"),
    (153.2, "the log-count scorer"),
    (698.0, "the total over the four questions"),
    (132.0, "at k = 2"),
    (188.0, "the fixed windows row"),  # small_to_big_table's other rows, read by mistake
    (130.2, "the children only row"),
    (122.5, "section 8's cost table"),  # read off the notebook's own table
    (735.0, "the tokens_indexed column"),
    (442.0, "the tokens_indexed column"),
    (145.2, "at k = 3"),
    (205.2, "max_parents=4"),
    (153.3, "the log-count scorer"),  # 153.25 rounded half up, by hand
    (174.4, "round it"),
    (174.6, "not a rounding slip"),  # above the answer: not digits cut off
    (175, "the value is not right"),
    ("174.5", "a str"),
]


@pytest.mark.parametrize(("answer", "hint"), WRONG_03_2, ids=repr)
def test_03_2_refuses_with_a_hint(answer, hint):
    message = verdict_for("03.2", answer)
    assert "not quite" in message and hint in message, message


@pytest.mark.parametrize("answer", [174.5, 174.54, 174.46, 174.5000001])
def test_03_2_accepts_any_rounding_within_one_decimal(answer):
    assert verdict_for("03.2", answer) == "Exercise 03.2: correct."


# --- 03.3: parents within a token budget ---------------------------------------------------------


def skipping(children, parent_of, tokens, budget):
    chosen, spent = [], 0
    for child in children:
        parent = parent_of[child]
        if parent not in chosen and spent + tokens[parent] <= budget:
            chosen.append(parent)
            spent += tokens[parent]
    return chosen


def strict_budget(children, parent_of, tokens, budget):
    chosen, spent = [], 0
    for child in children:
        parent = parent_of[child]
        if parent in chosen:
            continue
        if spent + tokens[parent] >= budget:  # off by one: a parent that fills it exactly fits
            break
        chosen.append(parent)
        spent += tokens[parent]
    return chosen


def with_repeats(children, parent_of, tokens, budget):
    chosen, spent = [], 0
    for child in children:
        parent = parent_of[child]
        if spent + tokens[parent] > budget:
            break
        chosen.append(parent)
        spent += tokens[parent]
    return chosen


def sorted_ids(children, parent_of, tokens, budget):
    return sorted(parents_within(children, parent_of, tokens, budget))


def child_ids(children, parent_of, tokens, budget):
    chosen = parents_within(children, parent_of, tokens, budget)
    return [next(c for c in children if parent_of[c] == p) for p in chosen]


def budget_before_repeat(children, parent_of, tokens, budget):
    chosen, spent = [], 0
    for child in children:
        parent = parent_of[child]
        if spent + tokens[parent] > budget:  # a repeat is tested against the budget too
            break
        if parent not in chosen:
            chosen.append(parent)
            spent += tokens[parent]
    return chosen


def repeat_counted(children, parent_of, tokens, budget):
    chosen, spent = [], 0
    for child in children:
        parent = parent_of[child]
        if spent + tokens[parent] > budget:
            break
        spent += tokens[parent]  # a repeat's tokens counted again
        if parent not in chosen:
            chosen.append(parent)
    return chosen


def smallest_first(children, parent_of, tokens, budget):
    unique = sorted(dict.fromkeys(parent_of[c] for c in children), key=lambda p: tokens[p])
    return parents_within(unique, {p: p for p in unique}, tokens, budget)


WRONG_03_3 = [
    (budget_before_repeat, "skip repeats before testing the budget"),
    (repeat_counted, "counted a repeated parent's tokens again"),
    (smallest_first, "took the smallest parents first"),
    (skipping, "stop at the first parent that does not fit"),
    (strict_budget, "fills the budget exactly still fits"),
    (with_repeats, "a parent appears twice"),
    (sorted_ids, "the right parents in the wrong order"),
    (child_ids, "return parent ids"),
]


@pytest.mark.parametrize(("fn", "hint"), WRONG_03_3, ids=lambda x: getattr(x, "__name__", ""))
def test_03_3_refuses_with_a_hint(fn, hint):
    result = verdict("03.3", fn)
    assert not result.passed and hint in result.message, result.message


@pytest.mark.parametrize(
    "fn",
    [
        parents_within,
        lambda *args: tuple(parents_within(*args)),
        lambda *args: iter(parents_within(*args)),
    ],
)
def test_03_3_accepts_a_list_a_tuple_or_an_iterator(fn):
    assert verdict("03.3", fn).passed
