"""Companion 06c's exercise refuses plausible wrong answers with a hint naming what is wrong, and
accepts every correct form: 06c.1, a context sentence shortened to the room a chunk leaves it."""

import pytest

from chunklab.chunkers.prefixes import fit_prefix
from chunklab.teaching import exercises_context_fit as fit
from chunklab.teaching.exercises import verdict
from chunklab.tokens.counters import cl100k
from solutions.exercises import (
    fit_sentence as _from_the_top,
)  # the reference, walking down from the whole sentence


def _from_the_bottom(sentence, room):
    """Grows the cut one word at a time and stops at the first that overflows."""
    if cl100k(sentence) <= room:
        return sentence
    words, kept = sentence.split(" "), 0
    while kept + 1 < len(words) and cl100k(" ".join(words[: kept + 1]) + " …") <= room:
        kept += 1
    if not kept:
        return ""
    if words[kept - 1].endswith(":"):
        sentences = [i + 1 for i, w in enumerate(words[: kept - 1]) if w.endswith(".")]
        return " ".join(words[: sentences[-1] if sentences else 0])
    return " ".join(words[:kept]) + " …"


def test_06c_1_accepts_the_cut_written_two_ways():
    for right in (_from_the_top, _from_the_bottom):
        result = verdict("06c.1", right)
        assert result.passed and "correct on all" in result.message, result.message


def test_06c_1_expected_answers_are_the_librarys():
    for sentence, room in fit._FIXED:
        assert fit._fit(sentence, room) == fit_prefix(sentence, lambda p, r=room: cl100k(p) <= r)


def test_06c_1_refuses_a_call_to_fit_prefix():
    result = verdict("06c.1", lambda s, r: fit_prefix(s, lambda p: cl100k(p) <= r))
    assert not result.passed and "calls chunklab.chunkers.prefixes.fit_prefix" in result.message


def _inside_a_word(sentence, room):
    if cl100k(sentence) <= room:
        return sentence
    for k in range(len(sentence) - 1, 0, -1):
        if cl100k(sentence[:k] + " …") <= room:
            return sentence[:k] + " …"
    return ""


def _mark_not_measured(sentence, room):
    return fit._fit(sentence, room, mark_measured=False)


def _words_as_tokens(sentence, room):
    if len(sentence.split()) <= room:
        return sentence
    words = sentence.split(" ")
    n = max((n for n in range(1, len(words)) if len(words[:n]) + 1 <= room), default=0)
    if n and words[n - 1].endswith(":"):
        return " ".join(
            words[: max((i + 1 for i in range(n - 1) if words[i].endswith(".")), default=0)]
        )
    return " ".join(words[:n]) + " …" if n else ""


def _label_left(sentence, room):
    return fit._fit(sentence, room, label_rule=False)


def _ellipsis_alone(sentence, room):
    return _from_the_top(sentence, room) or "…"


def _always_cut(sentence, room):
    return fit._fit(sentence, room, whole_first=False)


@pytest.mark.parametrize(
    ("slip", "hint"),
    [
        (_inside_a_word, "you cut inside a word"),
        (_mark_not_measured, "measured the cut without its ' …'"),
        (_words_as_tokens, "you counted words"),
        (_label_left, "you left a label dangling"),
        (_ellipsis_alone, "return '' (an empty prefix), not '…'"),
        (_always_cut, "a sentence that fits is kept whole"),
    ],
)
def test_06c_1_names_each_slip(slip, hint):
    result = verdict("06c.1", slip)
    assert not result.passed and hint in result.message, result.message


def test_06c_1_a_result_over_the_room_is_said_to_be_over():
    result = verdict("06c.1", lambda sentence, room: sentence)
    assert not result.passed and "over the room" in result.message, result.message


def _fit_with(count=cl100k, mark=" …", below=False, cut_below=False, label_word_only=False):
    """A hand-written fit_sentence with one slip switched on (not the checker's own _fit)."""

    def fit_sentence(sentence, room):
        if (count(sentence) < room) if below else (count(sentence) <= room):
            return sentence
        words = sentence.split(" ")
        for n in range(len(words) - 1, 0, -1):
            size = count(" ".join(words[:n]) + mark)
            if (size < room) if cut_below else (size <= room):
                if words[n - 1].endswith(":"):
                    if label_word_only:
                        return " ".join(words[: n - 1]) + mark
                    ends = [i + 1 for i in range(n - 1) if words[i].endswith(".")]
                    return " ".join(words[: max(ends, default=0)])
                return " ".join(words[:n]) + mark
        return ""

    return fit_sentence


@pytest.mark.parametrize(
    ("slip", "hint"),
    [
        (_fit_with(count=lambda t: len(t) / 4), "you estimated tokens from characters"),
        (_fit_with(count=lambda t: len(t) // 4), "you estimated tokens from characters"),
        (_fit_with(label_word_only=True), "you dropped only the word ending in ':'"),
        (_fit_with(mark="…"), "a space then '…'"),
        (_fit_with(mark=" ..."), "not three dots"),
        (_fit_with(below=True), "of exactly `room` tokens fits"),
        (_fit_with(below=True, cut_below=True), "of exactly `room` tokens fits"),
    ],
)
def test_06c_1_names_the_slips_the_generic_hint_hid(slip, hint):
    result = verdict("06c.1", slip)
    assert not result.passed and hint in result.message, result.message
    assert "keep the longest start of whole words" not in result.message, result.message
    assert result.message.count(hint) == 1, result.message


def test_06c_1_the_hand_written_fit_with_no_slip_passes():
    result = verdict("06c.1", _fit_with())
    assert result.passed, result.message


def _fit_by_hand(sentence, room, is_label=lambda w: w.endswith(":"), fallback=False, strip=False):
    if cl100k(sentence) <= room:
        return sentence
    words = sentence.split(" ")
    n = next(
        (n for n in range(len(words) - 1, 0, -1) if cl100k(" ".join(words[:n]) + " …") <= room), 0
    )
    if n and is_label(words[n - 1]):
        whole = max((i + 1 for i in range(n - 1) if words[i].endswith(".")), default=0)
        if not whole and fallback:
            return " ".join(words[: n - 1]) + " …"
        return " ".join(words[:whole])
    cut = " ".join(words[:n])
    return (cut.rstrip(",") if strip else cut) + " …" if n else ""


@pytest.mark.parametrize(
    ("slip", "hint"),
    [
        (lambda s, r: _fit_by_hand(s, r, is_label=lambda w: ":" in w), "('10:00') is no label"),
        (lambda s, r: _fit_by_hand(s, r, fallback=True), "no whole sentence before the label"),
    ],
)
def test_06c_1_refuses_a_time_taken_for_a_label_and_a_fallback_past_the_rule(slip, hint):
    result = verdict("06c.1", slip)
    assert not result.passed and hint in result.message, result.message


def test_06c_1_prints_expected_and_got_where_they_part():
    result = verdict("06c.1", lambda s, r: _fit_by_hand(s, r, strip=True))
    assert not result.passed and "comma" in result.message, result.message
    assert "5 minutes, …'" in result.message and "5 minutes …'" in result.message, result.message


def test_06c_1_refuses_the_period_stripped_before_the_mark():
    result = verdict("06c.1", lambda s, r: _from_the_top(s, r).replace(". …", " …"))
    assert not result.passed and "stripped the period" in result.message, result.message
