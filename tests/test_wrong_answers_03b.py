"""Notebook 03b's exercises refuse plausible wrong answers, each with a hint naming what is wrong,
and accept every correct form of the right one."""

import sys
from importlib.util import find_spec

import pytest
from conftest import ROOT

from chunklab.teaching.exercises import verdict
from chunklab.teaching.selfcheck import verdict_for

sys.path.insert(0, str(ROOT))
from solutions.exercises import merged_windows  # noqa: E402

# --- 03b.1: tokens handed over by one-sentence windows --------------------------------------------

WRONG_03B_1 = [
    (220.8, "3 sentences each side"),  # copied from the table
    (87.5, "none after"),  # after=0: one side only
    (129.8, "log-count scorer"),  # the sketch's scorer, not the BM25 asked
    (58.5, "at k = 1"),
    (508.0, "the total over the four questions"),
    (170.0, "window_size=2"),  # two sentences each side
    (50.8, "window_size=0"),  # the hit alone
    (202.5, "with k = 4"),
    (126.9, "round it"),
    (127.1, "0.1 off the answer"),
    pytest.param(  # the slip the prompt warns about; LlamaIndex is the optional extra
        156.0,
        "LlamaIndex's own parser",
        marks=pytest.mark.skipif(not find_spec("llama_index"), reason="no LlamaIndex"),
    ),
    (122.2, "counts words (approx_tokens)"),
    (0.83, "the value is not right"),  # a recall, not tokens
]


@pytest.mark.parametrize(("answer", "hint"), WRONG_03B_1, ids=repr)
def test_03b_1_refuses_with_a_hint(answer, hint):
    message = verdict_for("03b.1", answer)
    assert "not quite" in message and hint in message, message


@pytest.mark.parametrize("answer", [127.0, 127, 127.04, 126.96])
def test_03b_1_accepts_any_rounding_within_one_decimal(answer):
    assert verdict_for("03b.1", answer) == "Exercise 03b.1: correct."


# --- 03b.2: merged windows ------------------------------------------------------------------------


def only_overlapping(windows):
    out = []
    for first, last in sorted(windows):
        if out and first <= out[-1][1]:  # misses windows that touch
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


def unsorted(windows):
    out = []
    for first, last in windows:  # in rank order, not document order
        if out and out[-1][0] <= first <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


def not_merged(windows):
    return sorted(set(windows))


def last_sentence_dropped(windows):
    return [(a, b - 1) if b > a else (a, b) for a, b in merged_windows(windows)]


def keeps_first_end(windows):
    out = []
    for first, last in sorted(windows):
        if out and first <= out[-1][1] + 1:
            out[-1] = (out[-1][0], last)  # a window inside another shrinks it
        else:
            out.append((first, last))
    return out


def sorted_by_end(windows):
    out = []
    for first, last in sorted(windows, key=lambda w: (w[1], w[0])):  # by last sentence
        if out and first <= out[-1][1] + 1:
            out[-1] = (min(out[-1][0], first), max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


def across_a_gap(windows):
    out = []
    for first, last in sorted(windows):
        if out and first <= out[-1][1] + 2:  # one sentence between is not touching
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


WRONG_03B_2 = [
    (sorted_by_end, "sort by first sentence"),
    (across_a_gap, "don't merge them"),
    (only_overlapping, "windows that touch"),
    (unsorted, "document order"),
    (not_merged, "still in two ranges"),
    (last_sentence_dropped, "the sentences covered changed"),
    (keeps_first_end, "keep the larger end"),
]


@pytest.mark.parametrize(("fn", "hint"), WRONG_03B_2, ids=lambda x: getattr(x, "__name__", ""))
def test_03b_2_refuses_with_a_hint(fn, hint):
    result = verdict("03b.2", fn)
    assert not result.passed and hint in result.message, result.message


@pytest.mark.parametrize(
    "fn",
    [
        merged_windows,
        lambda windows: [list(w) for w in merged_windows(windows)],
        lambda windows: tuple(merged_windows(windows)),
    ],
)
def test_03b_2_accepts_lists_or_tuples(fn):
    assert verdict("03b.2", fn).passed
