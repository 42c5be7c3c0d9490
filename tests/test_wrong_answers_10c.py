"""Exercise 10c.1 (windows of MiniLM word pieces with an overlap): each plausible wrong method is
refused with its slip named, any correct way of writing the windows passes, and the reference
solution gives the TokenText port's spans on a real text. Exercise 10c.2 (precision-Ω of those
windows at 114/57, scored as spans): each plausible wrong setting, and the port's texts located
the report's way, is refused with its slip named."""

import sys

import numpy as np
import pytest
from conftest import ROOT

from chunklab.chunkers.recursive import RecursiveChunker
from chunklab.chunkers.tokentext import TokenTextChunker
from chunklab.evaluation.benchmark import evaluate
from chunklab.teaching import selfcheck
from chunklab.teaching.exercises import verdict
from chunklab.tokens.wordpiece import minilm_tokenizer

sys.path.insert(0, str(ROOT))
from solutions.exercises import token_windows  # noqa: E402


def stepped(offsets, width, step, stop=True):
    spans, start = [], 0
    while start < len(offsets):
        end = min(start + width, len(offsets))
        spans.append((offsets[start][0], offsets[end - 1][1]))
        if stop and end == len(offsets):
            break
        start += step
    return spans


def windows_of_size_pieces(offsets, size, overlap):
    return stepped(offsets, size, size - overlap)


def windows_of_size_minus_one(offsets, size, overlap):
    return stepped(offsets, size - 1, size - 1 - overlap)


def windows_without_overlap(offsets, size, overlap):
    return stepped(offsets, size - 2, size - 2)


def step_of_size_minus_overlap(offsets, size, overlap):
    return stepped(offsets, size - 2, size - overlap)


def step_of_overlap(offsets, size, overlap):
    return stepped(offsets, size - 2, max(overlap, 1))


def windows_past_the_end(offsets, size, overlap):
    return stepped(offsets, size - 2, size - 2 - overlap, stop=False)


def ends_at_the_next_piece(offsets, size, overlap):
    spans, start, width = [], 0, size - 2
    while start < len(offsets):
        end = min(start + width, len(offsets))
        spans.append((offsets[start][0], offsets[end][0] if end < len(offsets) else offsets[-1][1]))
        if end == len(offsets):
            break
        start += width - overlap
    return spans


def ends_at_the_last_piece_start(offsets, size, overlap):
    spans, start, width = [], 0, size - 2
    while start < len(offsets):
        end = min(start + width, len(offsets))
        spans.append((offsets[start][0], offsets[end - 1][0]))
        if end == len(offsets):
            break
        start += width - overlap
    return spans


def piece_indices(offsets, size, overlap):
    pairs, start, width = [], 0, size - 2
    while start < len(offsets):
        end = min(start + width, len(offsets))
        pairs.append((start, end))
        if end == len(offsets):
            break
        start += width - overlap
    return pairs


WRONG_10C = {"10c.1": windows_without_overlap}


@pytest.mark.parametrize(
    ("wrong", "named"),
    [
        (windows_of_size_pieces, "[CLS] and [SEP] count in the size"),
        (windows_of_size_minus_one, "size - 1 text pieces"),
        (windows_without_overlap, "do not overlap"),
        (step_of_size_minus_overlap, "your step is size - overlap"),
        (step_of_overlap, "your step is `overlap`"),
        (windows_past_the_end, "kept stepping"),
        (ends_at_the_next_piece, "end where the next piece starts"),
        (ends_at_the_last_piece_start, "last piece's start"),
        (piece_indices, "piece indices"),
    ],
)
def test_10c_1_refuses_each_wrong_method_and_names_its_slip(wrong, named):
    result = verdict("10c.1", wrong)
    assert not result.passed and named in result.message, result.message
    assert "; or " not in result.message, result.message


def windows_by_range(offsets, size, overlap):
    """Another correct way: starts from range(), stopping at the first window reaching the end."""
    width = size - 2
    spans = []
    for start in range(0, max(len(offsets), 1), width - overlap):
        if start >= len(offsets):
            break
        end = min(start + width, len(offsets))
        spans.append([offsets[start][0], offsets[end - 1][1]])  # lists, not tuples: also accepted
        if end == len(offsets):
            break
    return spans


def windows_with_the_library(offsets, size, overlap):
    from chunklab.chunkers.fixed import char_windows

    return [
        (offsets[i][0], offsets[j - 1][1]) for i, j in char_windows(len(offsets), size - 2, overlap)
    ]


def windows_for_empty_input(offsets, size, overlap):
    """Right on every text, but one empty window for no offsets."""
    return token_windows(offsets, size, overlap) if offsets else [(0, 0)]


def test_10c_1_names_a_window_made_of_no_offsets():
    result = verdict("10c.1", windows_for_empty_input)
    assert not result.passed and "no offsets, no windows" in result.message, result.message


def step_of_overlap_past_the_end(offsets, size, overlap):
    """Starts every `overlap` pieces (a whole window when 0), never stopping at the end."""
    width = size - 2
    return [
        (offsets[i][0], offsets[min(i + width, len(offsets)) - 1][1])
        for i in range(0, len(offsets), overlap or width)
    ]


def last_window_moved_back(offsets, size, overlap):
    """Right until the last window, which is moved back to hold a full size - 2 pieces."""
    spans, start, width = [], 0, size - 2
    while offsets:
        if start + width >= len(offsets):
            start = max(0, len(offsets) - width)
            return [*spans, (offsets[start][0], offsets[-1][1])]
        spans.append((offsets[start][0], offsets[start + width - 1][1]))
        start += width - overlap
    return spans


def crashes_on_no_offsets(offsets, size, overlap):
    """Right on every text, but indexes offsets[0] before asking whether there are any."""
    first = offsets[0]
    return token_windows(offsets, size, overlap) if first else []


@pytest.mark.parametrize(
    ("wrong", "named"),
    [
        (step_of_overlap_past_the_end, "kept stepping after window"),
        (last_window_moved_back, "last window was moved back"),
        (crashes_on_no_offsets, "no offsets, no windows"),
    ],
)
def test_10c_1_names_the_slips_a_generic_hint_used_to_cover(wrong, named):
    result = verdict("10c.1", wrong)
    assert not result.passed and named in result.message, result.message


def test_10c_1_refuses_the_librarys_windows():
    result = verdict("10c.1", windows_with_the_library)
    assert not result.passed and "without chunklab" in result.message, result.message


@pytest.mark.parametrize("right", [token_windows, windows_by_range])
def test_10c_1_accepts_any_correct_windows(right):
    result = verdict("10c.1", right)
    assert result.passed, result.message


def test_10c_1_reference_gives_the_tokentext_ports_spans():
    text = "The report's TokenText 250/125 row repeats half of each window in the next one. " * 4
    offsets = minilm_tokenizer().encode(text, add_special_tokens=False).offsets
    port = TokenTextChunker(size=12, overlap=4, length="minilm")
    assert token_windows(offsets, 12, 4) == [(a, b) for a, b, _ in port.spans(text)]


@pytest.mark.xdist_group("exercise-10c.2")  # with its selfcheck test: one worker, one solve
def test_10c_2_refuses_the_plausible_wrong_values_naming_each_slip():
    """Each value is cut here from the settings its slip names, so a hint attached to the wrong
    setting in the check fails this test. The answer is the windows' spans, scored as section 3
    scores `fixed_windows`; the port's texts, located the report's way, are a named miss."""

    def spans_omega(size, overlap):
        chunker = TokenTextChunker(size=size, overlap=overlap, length="minilm")
        cut = lambda text: [(a, b) for a, b, _ in chunker.spans(text)]  # noqa: E731
        return round(evaluate(cut, None).mean("precision_omega"), 2)

    def texts_omega(chunker):
        return round(evaluate(chunker.split_text, None).mean("precision_omega"), 2)

    right = spans_omega(114, 57)
    wrong = {
        texts_omega(TokenTextChunker(size=114, overlap=57, length="minilm")): "split_text texts",
        spans_omega(114, 0): "no overlap",
        spans_omega(116, 57): "[CLS] and [SEP] count in the 114",
        spans_omega(114, 56): "half of the 112 text pieces",
        texts_omega(RecursiveChunker(size=114, overlap=57, length="minilm")): "recursive splitter",
        round(right / 100, 4): "a share",
        texts_omega(TokenTextChunker(size=250, overlap=125, length="minilm")): "TokenText 250/125",
    }
    assert right not in wrong and len(wrong) == 7
    for answer, slip in wrong.items():
        line = selfcheck.verdict_for("10c.2", answer)
        assert "not quite" in line and slip in line, line
    for answer in (right, right + 0.003):  # any value that rounds to it
        assert "correct." in selfcheck.verdict_for("10c.2", answer), answer


def with_markers_omega(markers=True, overlap=57):
    """The windows cut from encode(text)'s offsets, [CLS] and [SEP] still among them (or not)."""

    def cut(text):
        offsets = minilm_tokenizer().encode(text, add_special_tokens=markers).offsets
        return token_windows(offsets, 114, overlap)

    return round(evaluate(cut, None).mean("precision_omega"), 2)


def scores_of(overlap):
    """Each question's precision-Ω under windows of 114 pieces with `overlap`, as spans."""

    def cut(text):
        offsets = minilm_tokenizer().encode(text, add_special_tokens=False).offsets
        return token_windows(offsets, 114, overlap)

    return evaluate(cut, None).scores["precision_omega"]


@pytest.mark.xdist_group("exercise-10c.2")
def test_10c_2_names_offsets_that_still_hold_the_markers():
    line = selfcheck.verdict_for("10c.2", with_markers_omega())
    assert "not quite" in line and "add_special_tokens=False" in line, line


@pytest.mark.xdist_group("exercise-10c.2")
def test_10c_2_answers_its_question_once_right():
    """The right value is told the prompt's answer: the overlap against 31.14 without one, paired
    on the questions (its won and lost counted here), not read from the two means alone."""
    line = selfcheck.verdict_for("10c.2", with_markers_omega(markers=False))
    without = with_markers_omega(markers=False, overlap=0)
    assert "correct." in line and "lowers precision-Ω" in line and f"{without:.2f}" in line, line
    half, none = (np.array(scores_of(overlap)) for overlap in (57, 0))
    won, lost = int((half > none).sum()), int((half < none).sum())
    assert f"{won} won, {lost} lost" in line and "Paired on the 472 questions" in line, line


def step_one_too_long(offsets, size, overlap):
    return stepped(offsets, size - 2, size - 1 - overlap)


def overlap_reduced_by_two(offsets, size, overlap):
    return stepped(offsets, size - 2, size - 2 - max(overlap - 2, 0))


def last_window_dropped(offsets, size, overlap):
    whole = token_windows(offsets, size, overlap)
    return whole[:-1] if len(whole) > 1 else whole


def windows_of_size_pieces_right_step(offsets, size, overlap):
    return stepped(offsets, size, size - 2 - overlap)


@pytest.mark.parametrize(
    ("wrong", "named"),
    [
        (step_one_too_long, "your second window starts"),
        (overlap_reduced_by_two, "your second window starts"),
        (last_window_dropped, "the last window, however short"),
        (windows_of_size_pieces_right_step, "your first window holds"),
    ],
)
def test_10c_1_names_a_slip_no_listed_hint_covers_by_measuring_it(wrong, named):
    """A step off by one, an overlap reduced by 2, the last window dropped and `size` pieces a
    window at the right step each got only the rule restated; the hint now measures the answer."""
    result = verdict("10c.1", wrong)
    assert not result.passed and named in result.message, result.message


def test_10c_2_names_the_right_value_at_one_decimal():
    """22.0 for 22.04 was told only "the value is not right"."""
    right = selfcheck.SOLUTIONS["10c.2"][1]()
    line = selfcheck.verdict_for("10c.2", round(right, 1))
    assert "not quite" in line and "one decimal" in line, line
