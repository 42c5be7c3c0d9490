"""Companion 03h's exercise refuses plausible wrong answers, each with a hint naming what is
wrong, and accepts every correct form of the right one."""

import pytest

from chunklab.teaching.exercises import verdict
from chunklab.teaching.exercises_child_repeats import SLIPS, slipped

# --- 03h.1: per section, the tokens its children store twice -------------------------------------


def _by_counting_lines(children, count):  # another correct route: lines counted, then summed
    from collections import Counter

    out, seen = {}, Counter()
    for section, text in children:
        out.setdefault(section, 0)
        lines = text.split("\n")
        out[section] += sum(count(line) for line in lines if line.strip() and seen[section, line])
        seen.update({(section, line) for line in lines})
    return out


def test_03h_1_accepts_another_correct_route():
    assert verdict("03h.1", _by_counting_lines).passed


@pytest.mark.parametrize("slip, hint", SLIPS, ids=[next(iter(s)) for s, _ in SLIPS])
def test_03h_1_refuses_each_slip_with_its_hint(slip, hint):
    result = verdict("03h.1", lambda children, count: slipped(children, count, **slip))
    assert not result.passed and hint in result.message, result.message


def test_03h_1_refuses_a_list_and_the_lines_themselves():
    listed = verdict("03h.1", lambda children, count: [0 for _ in children])
    assert not listed.passed and "return a dict" in listed.message
    lines = verdict("03h.1", lambda children, count: {s: [] for s, _ in children})
    assert not lines.passed and "not the tokens expected" in lines.message
