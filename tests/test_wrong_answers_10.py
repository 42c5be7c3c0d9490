"""Exercise 10.1 (precision-Ω of fixed windows): plausible wrong answers are refused, each told
the slip it made, and the reference solution passes. Exercise 10d.1 (compare's rule by hand) is
tested in test_wrong_answers_10d.py."""

import sys

import pytest
from conftest import ROOT

from chunklab.evaluation.benchmark_rows import row_cut
from chunklab.teaching.exercises import verdict

sys.path.insert(0, str(ROOT))
from solutions.exercises import window_omega  # noqa: E402


def windows(size, length):
    return [(a, min(a + size, length)) for a in range(0, length, size)]


def omega_strict_overlap(excerpts, size, length):
    """Counts only windows that share a character with an excerpt: touching ones are left out."""
    meeting = [
        (a, b) for a, b in windows(size, length) if any(a < e and b > s for s, e in excerpts)
    ]
    if not meeting:
        return 0.0
    wanted = {i for s, e in excerpts for i in range(s, e)}
    seen = {i for a, b in meeting for i in range(a, b)}
    return len(wanted & seen) / len(seen | wanted)


def omega_over_the_document(excerpts, size, length):
    """Divides by the whole document: the precision of retrieving everything, not the best one."""
    return len({i for s, e in excerpts for i in range(s, e)}) / length


def omega_summing_excerpts(excerpts, size, length):
    """Sums the excerpts' lengths over the meeting windows: overlapping characters twice, and
    characters past the last window (no window covers them) counted."""
    meeting = [
        (a, b) for a, b in windows(size, length) if any(a <= e and b >= s for s, e in excerpts)
    ]
    seen = {i for a, b in meeting for i in range(a, b)}
    return sum(e - s for s, e in excerpts) / len(seen) if seen else 0.0


def omega_unclipped_last_window(excerpts, size, length):
    """Lets the last window run past the document's end."""
    meeting = [
        (a, a + size)
        for a in range(0, length, size)
        if any(a <= e and a + size >= s for s, e in excerpts)
    ]
    wanted = {i for s, e in excerpts for i in range(s, e)}
    seen = {i for a, b in meeting for i in range(a, b)}
    return len(wanted & seen) / len(seen | wanted) if seen else 0.0


def omega_unclipped_meet_test(excerpts, size, length):
    """Clips the last window's characters, but tests the meet on the unclipped window."""
    meeting = [
        (a, min(a + size, length))
        for a in range(0, length, size)
        if any(a <= e and a + size >= s for s, e in excerpts)
    ]
    wanted = {i for s, e in excerpts for i in range(s, e)}
    seen = {i for a, b in meeting for i in range(a, b)}
    return len(wanted & seen) / len(seen | wanted) if seen else 0.0


def omega_in_percent(excerpts, size, length):
    return 100 * window_omega(excerpts, size, length)


def omega_without_the_excerpts(excerpts, size, length):
    """Divides by the meeting windows alone: an excerpt's characters past the end are left out."""
    meeting = [
        (a, b) for a, b in windows(size, length) if any(a <= e and b >= s for s, e in excerpts)
    ]
    wanted = {i for s, e in excerpts for i in range(s, e)}
    seen = {i for a, b in meeting for i in range(a, b)}
    return len(wanted & seen) / len(seen) if seen else 0.0


def omega_recall_shaped(excerpts, size, length):
    """The excerpt characters covered over the excerpts' length: recall, not precision-Ω."""
    meeting = [
        (a, b) for a, b in windows(size, length) if any(a <= e and b >= s for s, e in excerpts)
    ]
    wanted = {i for s, e in excerpts for i in range(s, e)}
    seen = {i for a, b in meeting for i in range(a, b)}
    return len(wanted & seen) / len(wanted)


def omega_last_window_dropped(excerpts, size, length):
    """Only full windows: the short last one is lost."""
    full = [(a, a + size) for a in range(0, length - size + 1, size)]
    meeting = [(a, b) for a, b in full if any(a <= e and b >= s for s, e in excerpts)]
    if not meeting:
        return 0.0
    wanted = {i for s, e in excerpts for i in range(s, e)}
    seen = {i for a, b in meeting for i in range(a, b)}
    return len(wanted & seen) / len(seen | wanted)


def omega_per_excerpt_mean(excerpts, size, length):
    """One precision-Ω per excerpt, averaged."""
    return sum(window_omega([x], size, length) for x in excerpts) / len(excerpts)


def omega_counting_uncovered(excerpts, size, length):
    """The numerator counts every excerpt character, even those no window covers."""
    meeting = [
        (a, b) for a, b in windows(size, length) if any(a <= e and b >= s for s, e in excerpts)
    ]
    wanted = {i for s, e in excerpts for i in range(s, e)}
    seen = {i for a, b in meeting for i in range(a, b)}
    return len(wanted) / len(seen | wanted) if seen else 0.0


def omega_summed_lengths_over_the_union(excerpts, size, length):
    """The numerator sums the excerpts' lengths: uncovered characters count, overlapping twice."""
    meeting = [
        (a, b) for a, b in windows(size, length) if any(a <= e and b >= s for s, e in excerpts)
    ]
    wanted = {i for s, e in excerpts for i in range(s, e)}
    seen = {i for a, b in meeting for i in range(a, b)}
    return sum(e - s for s, e in excerpts) / len(seen | wanted) if seen else 0.0


def omega_from_the_library(excerpts, size, length):
    """Calls the library's precision_omega, which the prompt forbids."""
    from chunklab.evaluation.chroma import Located, Question, precision_omega

    chunks = [Located("", "doc", a, b) for a, b in windows(size, length)]
    return precision_omega(Question("q", "doc", tuple(excerpts)), chunks)


def omega_inclusive_end(excerpts, size, length):
    """Takes each meeting window's characters as [start, end], its end included."""
    meeting = [
        (a, b) for a, b in windows(size, length) if any(a <= e and b >= s for s, e in excerpts)
    ]
    wanted = {i for s, e in excerpts for i in range(s, e)}
    seen = {i for a, b in meeting for i in range(a, b + 1)}
    return len(wanted & seen) / len(seen | wanted) if seen else 0.0


def omega_short_of_the_end(excerpts, size, length):
    """Meet test against the excerpt's last character: `a <= e - 1`."""
    meeting = [
        (a, b) for a, b in windows(size, length) if any(a <= e - 1 and b >= s for s, e in excerpts)
    ]
    wanted = {i for s, e in excerpts for i in range(s, e)}
    seen = {i for a, b in meeting for i in range(a, b)}
    return len(wanted & seen) / len(seen | wanted) if seen else 0.0


def omega_windows_one_too_long(excerpts, size, length):
    """Each window taken as (start, end + 1): one character too long, in the meet test too."""
    meeting = [
        (a, b + 1)
        for a, b in windows(size, length)
        if any(a <= e and b + 1 >= s for s, e in excerpts)
    ]
    wanted = {i for s, e in excerpts for i in range(s, e)}
    seen = {i for a, b in meeting for i in range(a, b)}
    return len(wanted & seen) / len(seen | wanted) if seen else 0.0


WRONG_10 = {"10.1": omega_strict_overlap}


@pytest.mark.parametrize(
    ("wrong", "slip"),
    [
        (omega_strict_overlap, "only touch an excerpt"),
        (omega_over_the_document, "divided by the whole document"),
        (omega_summing_excerpts, "sums the excerpts' lengths, over the meeting windows'"),
        (omega_unclipped_last_window, "runs past the document"),
        (omega_unclipped_meet_test, "meet test lets the last window run past"),
        (omega_in_percent, "that is a percentage"),
        (omega_without_the_excerpts, "meeting windows alone"),
        (omega_recall_shaped, "that is recall"),
        (omega_last_window_dropped, "dropped the short last window"),
        (omega_per_excerpt_mean, "averaged one precision-Ω per excerpt"),
        (omega_counting_uncovered, "excerpt characters that no window covers"),
        (omega_summed_lengths_over_the_union, "sums the excerpts' lengths"),
        (omega_from_the_library, "calls chunklab.evaluation.chroma.precision_omega"),
        (omega_inclusive_end, "include their end character"),
        (omega_short_of_the_end, "excerpt's last character"),
        (omega_windows_one_too_long, "(start, end + 1)"),
    ],
)
def test_a_plausible_wrong_answer_is_not_yet_and_told_its_slip(wrong, slip):
    result = verdict("10.1", wrong)
    assert not result.passed and ": not yet: " in result.message, result.message
    assert slip in result.message, result.message


def test_the_reference_solution_passes():
    result = verdict("10.1", window_omega)
    assert result.passed, result.message


def omega_last_window_shifted_back(excerpts, size, length):
    """The last window shifted back to full size, (length - size, length): a slip not listed."""
    cut = windows(size, length)
    if cut and cut[-1][1] - cut[-1][0] < size:
        cut[-1] = (max(0, length - size), length)
    meeting = [(a, b) for a, b in cut if any(a <= e and b >= s for s, e in excerpts)]
    if not meeting:
        return 0.0
    wanted = {i for s, e in excerpts for i in range(s, e)}
    seen = {i for a, b in meeting for i in range(a, b)}
    return len(wanted & seen) / len(seen | wanted)


def test_a_slip_matching_several_named_ones_on_one_case_gets_the_rule_not_a_wrong_name():
    message = verdict("10.1", omega_last_window_shifted_back).message
    assert ": not yet: " in message, message
    assert "divided by the whole document" not in message, message
    assert "include their end character" not in message, message
    assert "not a slip this check knows" in message, message
    assert "only touches" not in message, message  # the touching rule is not this slip


def omega_none_when_nothing_meets(excerpts, size, length):
    value = window_omega(excerpts, size, length)
    return None if value == 0.0 else value


def omega_rounded(excerpts, size, length):
    return round(window_omega(excerpts, size, length), 2)


def omega_integer_division(excerpts, size, length):
    cut = windows(size, length)
    meeting = [(a, b) for a, b in cut if any(a <= e and b >= s for s, e in excerpts)]
    if not meeting:
        return 0.0
    wanted = {i for s, e in excerpts for i in range(s, e)}
    seen = {i for a, b in meeting for i in range(a, b)}
    return len(wanted & seen) // len(seen | wanted)


def omega_first_excerpt_only(excerpts, size, length):
    s, e = excerpts[0]
    meeting = [(a, b) for a, b in windows(size, length) if a <= e and b >= s]
    if not meeting:
        return 0.0
    wanted = {i for s, e in excerpts for i in range(s, e)}
    seen = {i for a, b in meeting for i in range(a, b)}
    return len(wanted & seen) / len(seen | wanted)


@pytest.mark.parametrize(
    ("wrong", "slip"),
    [
        (omega_none_when_nothing_meets, "return 0.0, not None"),
        (omega_rounded, "you rounded the share"),
        (omega_integer_division, "not //"),
        (omega_first_excerpt_only, "first excerpt only"),
    ],
)
def test_slips_outside_the_touching_rule_are_named_not_told_the_touching_rule(wrong, slip):
    message = verdict("10.1", wrong).message
    assert ": not yet: " in message and slip in message, message
    assert "only touch" not in message, message


def test_row_cut_names_the_rows_for_a_label_it_does_not_hold():
    with pytest.raises(KeyError, match="RecursiveChunker"):
        row_cut("Recursive 100/0")


def omega_nan_when_none_meets(excerpts, size, length):
    """Right, except NaN (0/0 left alone) where no window meets an excerpt."""
    meeting = [
        (a, b) for a, b in windows(size, length) if any(a <= e and b >= s for s, e in excerpts)
    ]
    return window_omega(excerpts, size, length) if meeting else float("nan")


def omega_summed_per_pair(excerpts, size, length):
    """Each excerpt's overlap with each meeting window summed: overlaps counted twice."""
    meeting = [
        (a, b) for a, b in windows(size, length) if any(a <= e and b >= s for s, e in excerpts)
    ]
    if not meeting:
        return 0.0
    inside = sum(max(0, min(b, e) - max(a, s)) for a, b in meeting for s, e in excerpts)
    past = sum(max(0, e - max(s, length)) for s, e in excerpts)
    return inside / (sum(b - a for a, b in meeting) + past)


def omega_summed_per_window(excerpts, size, length):
    """Each excerpt's overlap with each meeting window summed, over the meeting windows alone
    (no union with the excerpts): it got "not a slip this check knows"."""
    meeting = [
        (a, b) for a, b in windows(size, length) if any(a <= e and b >= s for s, e in excerpts)
    ]
    if not meeting:
        return 0.0
    inside = sum(max(0, min(b, e) - max(a, s)) for a, b in meeting for s, e in excerpts)
    return inside / sum(b - a for a, b in meeting)


@pytest.mark.parametrize(
    "wrong, slip",
    [
        (omega_nan_when_none_meets, "not NaN"),
        (omega_summed_per_pair, "count twice"),
        (omega_summed_per_window, "over the meeting windows alone"),
    ],
)
def test_nan_and_pairwise_double_counting_are_named(wrong, slip):
    result = verdict("10.1", wrong)
    assert not result.passed and slip in result.message, result.message


def test_summed_lengths_on_excerpts_that_do_not_overlap_is_not_told_overlap():
    """The case it fails on, [(2, 5), (18, 30)], has no two excerpts overlapping: the slip is the
    sum of lengths (an excerpt past the end counted), not an overlap counted twice."""
    result = verdict("10.1", omega_summing_excerpts)
    assert "[(2, 5), (18, 30)]" in result.message, result.message
    assert "overlap twice" not in result.message, result.message
    assert "lengths, over the meeting windows' characters alone" in result.message
