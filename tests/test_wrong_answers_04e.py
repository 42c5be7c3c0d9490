"""Companion 04e's exercise refuses the plausible wrong counts of a family's power, each with a
hint naming the slip, and accepts the count written two ways."""

import pytest

from chunklab.teaching import selfcheck
from chunklab.teaching.claims import fewest_decisive, sign_test
from chunklab.teaching.exercises import verdict


def _fewest(questions, alpha):
    return next((n for n in range(1, questions + 1) if 2 * 0.5**n < alpha), None)


def test_04e_1_accepts_the_count_by_formula_and_by_a_loop():
    assert verdict("04e.1", _fewest).passed

    def by_loop(questions, alpha):
        for n in range(1, questions + 1):
            if 2 * 0.5**n < alpha:
                return n
        return None

    assert verdict("04e.1", by_loop).passed


def _fewest_by_the_library(questions, alpha):
    try:
        return fewest_decisive(questions, alpha)
    except StopIteration:  # the library's raises where the exercise asks for None
        return None


@pytest.mark.parametrize(
    "calls_the_library",
    [
        lambda q, a: next((n for n in range(1, q + 1) if sign_test(n, 0) < a), None),
        _fewest_by_the_library,
    ],
)
def test_04e_1_refuses_a_call_into_the_library(calls_the_library):
    """The exercise says: do not call sign_test or fewest_decisive."""
    result = verdict("04e.1", calls_the_library)
    assert not result.passed
    assert "the library's" in result.message, result.message


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (lambda q, a: next((n for n in range(1, q + 1) if 0.5**n < a), None), "one-sided p"),
        (lambda q, a: next((n for n in range(1, q + 1) if 2 * 0.5**n <= a), None), "p <= alpha"),
        (lambda q, a: None if _fewest(q, a) is None else _fewest(q, a) - 1, "one more"),
        (lambda q, a: next(n for n in range(1, 999) if 2 * 0.5**n < a), "return None"),
        (lambda q, a: None if _fewest(q, a) is None else _fewest(q, a) + 1, "not n + 1"),
        (
            lambda q, a: next((n for n in range(1, q + 1) if 2 * 0.5**n < a), q),
            "number of questions",
        ),
        (lambda q, a: 2 * 0.5 ** (_fewest(q, a) or 1), "a whole number"),
        (lambda q, a: next((n for n in range(1, q) if 2 * 0.5**n < a), None), "stops one short"),
    ],
)
def test_04e_1_names_each_slip(wrong, hint):
    result = verdict("04e.1", wrong)
    assert not result.passed
    assert hint in result.message, result.message


def _starts(
    max_tokens=300, names=None, with_own_start=False, every_start_the_rules=False, percentile=90
):
    """04e.2 counted as a learner would, with a slip when asked: (chunk starts, the rule's own)."""
    from chunklab.chunkers.semantic import SemanticChunker
    from chunklab.documents.series import load_document
    from chunklab.embeddings.static import WordLlamaEmbedder

    names = names or ["manual_md", "sensitive_code", "topics", "travel_policy", "work_schedules"]
    chunker = SemanticChunker(
        embedder=WordLlamaEmbedder(), percentile=percentile, max_tokens=max_tokens
    )
    starts = own = 0
    for name in names:
        document = load_document(name)
        units, sims = chunker.similarities(document)
        rule = {units[i + 1][0] for i in chunker.cuts(sims)}
        chunk_starts = sorted(c.start for c in chunker.split(document))
        chunk_starts = chunk_starts if with_own_start else chunk_starts[1:]
        starts += len(chunk_starts)
        own += len(chunk_starts) if every_start_the_rules else len(rule & set(chunk_starts))
    return starts, own


@pytest.mark.xdist_group("exercise-04e.2")
def test_04e_2_accepts_the_count_and_names_each_slip():
    right = _starts()
    assert selfcheck.verdict_for("04e.2", right).endswith("correct.")
    assert selfcheck.verdict_for("04e.2", list(right)).endswith("correct.")
    for wrong, hint in [
        (_starts(100), "04e's budget"),
        (_starts(200), "section 3's budget"),
        (_starts(with_own_start=True), "own start"),
        (_starts(every_start_the_rules=True), "not every chunk start is the rule's"),
        ((right[1], right[0]), "wrong order"),
        (_starts(names=["work_schedules"]), "work_schedules alone"),
    ]:
        line = selfcheck.verdict_for("04e.2", wrong)
        assert "not quite" in line and hint in line, line


@pytest.mark.xdist_group("exercise-04e.2")
def test_04e_2_the_rules_own_count_does_not_move_with_the_budget():
    """The exercise's written half: the budget adds or removes starts, never the rule's."""
    assert _starts(100)[1] == _starts(300)[1] and _starts(100)[0] > _starts(300)[0]
    assert _starts(300, percentile=80)[1] > _starts(300)[1]  # the percentile moves it


@pytest.mark.xdist_group("exercise-04e.2")
def test_04e_2_refuses_the_rule_count_the_notebook_prints():
    """Percentile 80's rule count is printed (39 at 100 and at 200 tokens) and does not move with
    the budget, so at percentile 80 the second number needed no work (a cold reader's finding):
    the exercise asks percentile 90, and refuses 39 carried over, with either half, by name."""
    at_80, right = _starts(300, percentile=80), _starts()
    for wrong, hint in [
        (at_80, "percentile 80's counts"),
        ((right[0], at_80[1]), "the budget never moves the rule's count"),
        ((at_80[0], right[1]), "chunk starts at percentile 80"),
    ]:
        line = selfcheck.verdict_for("04e.2", wrong)
        assert "not quite" in line and hint in line, line


@pytest.mark.xdist_group("exercise-04e.2")
def test_04e_2_counting_the_rules_cuts_is_a_correct_form():
    """A cold reader found `len(cuts)` accepted without matching the cuts to chunk starts. It is
    right, not a slip: every rule cut opens a group and every group's first chunk starts there, so
    the rule's cuts are all chunk starts, at any budget or percentile; no case can part them."""
    from chunklab.chunkers.semantic import SemanticChunker
    from chunklab.documents.series import load_document
    from chunklab.embeddings.static import WordLlamaEmbedder

    chunker = SemanticChunker(embedder=WordLlamaEmbedder(), percentile=90, max_tokens=300)
    for name in ["manual_md", "sensitive_code", "topics", "travel_policy", "work_schedules"]:
        units, sims = chunker.similarities(load_document(name))
        starts = {c.start for c in chunker.split(load_document(name))}
        assert {units[i + 1][0] for i in chunker.cuts(sims)} <= starts
