"""Companion 06b's exercises refuse plausible wrong answers with a hint naming what is wrong, and
accept every correct form: 06b.1, two strategies' rows paired by question id, written by hand;
06b.2, the comparisons of a family whose verdict the family's size decides."""

import math

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


# 06b.2: the comparisons of a family whose verdict its size decides, written as a learner would.


def _two_sided(won, lost):
    n = won + lost
    tail = sum(math.comb(n, i) for i in range(min(won, lost) + 1))
    return min(1.0, 2 * tail / 2**n) if n else 1.0


def _won_tail(won, lost):
    n = won + lost
    return sum(math.comb(n, i) for i in range(won, n + 1)) / 2**n if n else 1.0


def _decided(splits, p=_two_sided, m=len, won_only=False):
    alpha = 0.05 / m(splits)
    return [
        i
        for i, (won, lost) in enumerate(splits)
        if p(won, lost) < 0.05 and not p(won, lost) < alpha and (won > lost or not won_only)
    ]


def test_06b_2_accepts_the_reading_written_two_ways():
    from chunklab.teaching.claims import sign_test

    def with_the_library_test(splits):
        m = len(splits)
        return {i for i, s in enumerate(splits) if 0.05 / m <= sign_test(*s) < 0.05}

    for right in (_decided, with_the_library_test):
        result = verdict("06b.2", right)
        assert result.passed and "correct on all" in result.message, result.message


@pytest.mark.parametrize(
    ("slip", "hint"),
    [
        (lambda s: _decided(s, p=lambda w, lo: _two_sided(w, lo) / 2), "one-sided p"),
        (lambda s: _decided(s, p=_won_tail), "one-sided p on the won side"),
        (lambda s: _decided(s, m=lambda s: len(s) + 1), "m is one more than the comparisons given"),
        (lambda s: _decided(s, won_only=True), "keeps only comparisons won"),
        (
            lambda s: _decided(s, m=lambda s: max(1, sum(w + lo > 0 for w, lo in s))),
            "none decisive",
        ),
        (lambda s: _decided(s, m=lambda s: len(set(s))), "distinct (won, lost) splits"),
        (lambda s: _decided(s, m=lambda s: 18), "the notebook's 18"),
        (
            lambda s: _decided(
                s, p=lambda w, lo: math.erfc(abs(w - lo) / math.sqrt(2 * (w + lo))) if w + lo else 1
            ),
            "normal approximation",
        ),
        (
            lambda s: [i for i, x in enumerate(s) if _two_sided(*x) < 0.05 / len(s)],
            "pass at the family's level",
        ),
        (lambda s: [i for i, x in enumerate(s) if _two_sided(*x) < 0.05], "passes alone"),
        (lambda s: [i + 1 for i in _decided(s)], "count from 0"),
        (lambda s: ",".join(map(str, _decided(s))), "list of int"),
    ],
)
def test_06b_2_names_each_slip(slip, hint):
    result = verdict("06b.2", slip)
    assert not result.passed and hint in result.message, result.message


def test_06b_1_accepts_a_filter_on_k_and_names_a_missing_key():
    def filtered_on_k(rows, a, b, measure):  # the notebook's per_question filters on k
        ours = {r["question"]: r[measure] for r in rows if r["strategy"] == a and r["k"] == 3}
        theirs = {r["question"]: r[measure] for r in rows if r["strategy"] == b and r["k"] == 3}
        return {q: ours[q] - theirs[q] for q in ours if q in theirs}

    def filtered_on_retriever(rows, a, b, measure):
        keep = [r for r in rows if r["retriever"] == "hybrid"]
        return _paired_by_dicts(keep, a, b, measure)

    result = verdict("06b.1", filtered_on_k)
    assert result.passed, result.message
    result = verdict("06b.1", filtered_on_retriever)
    assert not result.passed and "the rows hold the keys" in result.message, result.message


def test_06b_2_names_sidak_level():
    def sidak(splits):
        alpha = 1 - 0.95 ** (1 / len(splits))
        return [i for i, s in enumerate(splits) if alpha <= _two_sided(*s) < 0.05]

    result = verdict("06b.2", sidak)
    assert not result.passed and "Šidák" in result.message, result.message
    assert "one more than" not in result.message, result.message


def test_06b_2_names_the_net_margin_not_sidak():
    def net_margin(splits):
        p = [_two_sided(abs(w - lo), 0) for w, lo in splits]
        return [i for i, x in enumerate(p) if x < 0.05 and not x < 0.05 / len(splits)]

    result = verdict("06b.2", net_margin)
    assert not result.passed and "net margin" in result.message, result.message
    assert "Šidák" not in result.message, result.message
