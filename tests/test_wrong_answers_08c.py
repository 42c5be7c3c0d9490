"""Companion 08c: exercise 08c.1 asks for a conversion's lead over its plain text with the
yardstick's flaws left out (section 1's check of the yardstick, then its won-lost). Each slip is
refused with its hint, the reference solution passes, and 03d.3's answer no longer fits."""

import sys
from pathlib import Path

import pytest

from chunklab.teaching import exercises_yardstick_flaws as yf
from chunklab.teaching.exercises import verdict
from chunklab.teaching.plain_text_baseline import plain

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from solutions.exercises import family_verdicts, lead_without_flaws  # noqa: E402


def _lead(
    found=lambda f, t: plain(f) in plain(t),
    *,
    join=all,
    own=True,
    skip_missed=False,
    ties=False,
    swap=False,
):
    """A learner's lead_without_flaws, written out here (not from the check's slip table), one
    part switched at a time."""

    def lead(questions, conversion, baseline, texts):
        won, lost = [], []
        for q in questions:
            where = [texts[q["document"]]] if own else list(texts.values())
            if not join(any(found(f, t) for t in where) for f in q["facts"]):
                continue
            if skip_missed and not baseline[q["id"]]:
                continue
            a, b = conversion[q["id"]], baseline[q["id"]]
            if a and (ties or not b):
                won.append(q["id"])
            elif b and not a:
                lost.append(q["id"])
        return (lost, won) if swap else (won, lost)

    return lead


def _words(text):  # word by word without plain's padding
    return " ".join(plain(text).split())


def test_08c_1_accepts_the_reference_solution_and_any_correct_method():
    assert verdict("08c.1", lead_without_flaws).passed
    assert verdict("08c.1", _lead()).passed
    as_sets = _lead()
    assert verdict("08c.1", lambda *a: tuple(set(g) for g in as_sets(*a))).passed


def test_08c_1_refuses_03d_3s_answer():
    result = verdict("08c.1", family_verdicts)
    assert not result.passed, result.message


@pytest.mark.parametrize(
    ("fn", "hint"),
    [
        (_lead(lambda f, t: True), "you left nothing out"),
        (_lead(lambda f, t: f in t), "as raw characters"),
        (_lead(lambda f, t: plain(f) in t), "one side word by word"),
        (_lead(lambda f, t: f in plain(t)), "as raw characters"),  # the fact raw
        (_lead(join=any), "one of its facts"),
        (_lead(join=lambda found: list(found)[-1]), "one fact of the question, its last"),
        (_lead(join=lambda found: next(iter(found))), "one fact of the question, its first"),
        (_lead(own=False), "every document's text"),
        (_lead(lambda f, t: _words(f) in _words(t)), "inside longer words"),
        (_lead(lambda f, t: set(_words(f).split()) <= set(_words(t).split())), "as a set"),
        (_lead(skip_missed=True), "every question the baseline misses"),
        (_lead(ties=True), "both answer"),
        (_lead(swap=True), "swapped"),
        (_lead(lambda f, t: plain(f.split(". ", 1)[-1]) in plain(t)), "you edited the facts"),
    ],
)
def test_08c_1_refuses_each_slip_with_its_hint(fn, hint):
    result = verdict("08c.1", fn)
    assert not result.passed and hint in result.message, result.message


def test_08c_1_each_slip_reads_the_fixed_case_its_own_way():
    """One fixed case tells every slip apart, so a refusal names one slip, not several."""
    case = yf.FIXED[0]
    reads = [tuple(map(tuple, map(sorted, slip(case)))) for slip, _ in yf.SLIPS]
    answer = tuple(map(tuple, map(sorted, yf._split(case))))
    assert answer not in reads and len(set(reads)) == len(reads)
