"""Companion 06b's exercise refuses plausible wrong answers with a hint naming what is wrong, and
accepts every correct form: 06b.1, two strategies' rows paired by question id, written by hand."""

import pytest

from chunklab.teaching import exercises_paired_rows
from chunklab.teaching.claims import compare
from chunklab.teaching.exercises import verdict


def _paired_by_dicts(rows, a, b, measure):
    ours = {r["question"]: r[measure] for r in rows if r["strategy"] == a}
    theirs = {r["question"]: r[measure] for r in rows if r["strategy"] == b}
    return {q: ours[q] - theirs[q] for q in ours if q in theirs}


def _paired_by_grouping(rows, a, b, measure):
    by_question = {}
    for r in rows:
        by_question.setdefault(r["question"], {})[r["strategy"]] = float(r[measure])
    return {q: s[a] - s[b] for q, s in sorted(by_question.items()) if a in s and b in s}


def _per_question(rows, strategy, measure):  # the notebook's route: each side sorted, no keys
    return [
        v for _, v in sorted((r["question"], r[measure]) for r in rows if r["strategy"] == strategy)
    ]


def _reversed(rows, a, b, measure):
    return {q: -d for q, d in _paired_by_dicts(rows, a, b, measure).items()}


def test_06b_1_accepts_the_pairing_written_two_ways():
    for right in (_paired_by_dicts, _paired_by_grouping):
        result = verdict("06b.1", right)
        assert result.passed and "correct on all" in result.message, result.message


def test_06b_1_refuses_the_old_routes_sorted_lists_and_compare():
    """The old exercise asked a mean of per_question's lists; sorting and zipping them is refused,
    and so is a wrong answer that calls compare, which pairs lists already lined up."""

    def zipped(rows, a, b, measure):
        ids = sorted({r["question"] for r in rows if r["strategy"] == a})
        ours, theirs = _per_question(rows, a, measure), _per_question(rows, b, measure)
        diffs = [x - y for x, y in zip(ours, theirs, strict=False)]
        return dict(zip(ids, diffs, strict=False))

    result = verdict("06b.1", zipped)
    assert not result.passed and "sorted each side by question id and zipped" in result.message

    def zipped_through_compare(rows, a, b, measure):
        ours, theirs = _per_question(rows, a, measure), _per_question(rows, b, measure)
        compare(ours[:2], theirs[:2], show=False)
        return zipped(rows, a, b, measure)

    refused = verdict("06b.1", zipped_through_compare)
    assert not refused.passed and "chunklab.teaching.claims.compare" in refused.message, (
        refused.message
    )


def test_06b_1_accepts_a_right_answer_that_calls_compare_as_a_side_check():
    """The pairing written by hand, then compare run on it to check the mean: right, so it
    passes; the old checker refused any call to compare."""

    def checked_with_compare(rows, a, b, measure):
        right = _paired_by_dicts(rows, a, b, measure)
        ours = list(right.values())
        compare(ours, [0] * len(ours), show=False)
        return right

    result = verdict("06b.1", checked_with_compare)
    assert result.passed, result.message


def test_06b_1_refuses_compare_even_when_it_raises():
    """Built on compare with each side's own list, one side is a question short: compare raised
    ValueError and the learner saw that error, not the hint that the exercise refuses compare."""

    def through_compare_unpaired(rows, a, b, measure):
        compare(_per_question(rows, a, measure), _per_question(rows, b, measure), show=False)
        return _paired_by_dicts(rows, a, b, measure)

    refused = verdict("06b.1", through_compare_unpaired)
    assert not refused.passed and "chunklab.teaching.claims.compare" in refused.message, (
        refused.message
    )


@pytest.mark.parametrize(
    ("slip", "hint"),
    [
        (
            lambda rows, a, b, m: {q: -d for q, d in _paired_by_dicts(rows, a, b, m).items()},
            "sign is reversed",
        ),
        (
            lambda rows, a, b, m: {q: abs(d) for q, d in _paired_by_dicts(rows, a, b, m).items()},
            "took the size of each difference (abs)",
        ),
        (exercises_paired_rows.paired_by_position, "paired the rows by position"),
        (exercises_paired_rows.paired_missing_as_zero, "has no pair: leave it out"),
        (exercises_paired_rows.paired_any_strategy, "rows whose strategy is b"),
        (lambda rows, a, b, m: sum(_paired_by_dicts(rows, a, b, m).values()), "return a dict"),
    ],
)
def test_06b_1_names_each_slip(slip, hint):
    result = verdict("06b.1", slip)
    assert not result.passed and hint in result.message, result.message
