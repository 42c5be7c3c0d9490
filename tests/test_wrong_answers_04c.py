"""Notebook 04c's exercise refuses the plausible wrong thresholds, each with a hint naming the slip,
and accepts any threshold that makes the percentile rule's cuts."""

import numpy as np
import pytest

from chunklab.teaching import selfcheck
from chunklab.teaching.exercises import verdict


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (lambda sims, p: float(np.percentile(sims, p)), "percentile of the similarities"),
        (lambda sims, p: float(np.percentile(1 - sims, p)), "that is a distance"),
        (lambda sims, p: 0.6, "read the value off these similarities"),
        (lambda sims, p: [0.5], "return one number"),
        (lambda sims, p: 1 - float(np.percentile(1 - sims, p / 100)), "percentile p / 100"),
        (lambda sims, p: 1 - float(np.percentile(1 - sims, p, method="lower")), "a hair above"),
        (lambda sims, p: 1 - float(np.percentile(1 - sims, p, method="higher")), "(higher, or"),
        (lambda sims, p: 1 - float(np.percentile(1 - sims, p, method="nearest")), "non-linear"),
        (lambda sims, p: 1 - float(np.percentile(1 - sims, p)) + 1e-9, "a hair away"),
    ],
)
def test_04c_1_refuses_each_wrong_threshold_naming_the_slip(wrong, hint):
    result = verdict("04c.1", wrong)
    assert not result.passed
    assert hint in result.message, result.message


def test_04c_1_accepts_any_threshold_between_the_cut_and_the_kept_gaps():
    def halfway(sims, p):  # another correct answer: halfway between the two gaps at the cut-off
        distances = np.sort(1 - np.asarray(sims))
        cutoff = np.percentile(distances, p)
        above, below = distances[distances > cutoff].min(), distances[distances <= cutoff].max()
        return float(1 - (above + below) / 2)

    assert verdict("04c.1", halfway).passed


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (lambda sims, p: 1 - float(np.percentile(1 - sims, p)), "lands exactly on one gap"),
        (lambda sims, p: float(np.nextafter(1 - np.percentile(1 - sims, p), 2)), "lands exactly"),
        (lambda sims, p: round(1 - float(np.percentile(1 - sims, p)), 3), "rounded"),
    ],
)
def test_04c_1_refuses_one_minus_a_percentile_that_lands_on_a_gap(wrong, hint):
    """1 minus the cut-off is not exact when the percentile is a gap's own distance: 1 - (1 - s)
    need not round back to s. The checker tries such cases and says so."""
    result = verdict("04c.1", wrong)
    assert not result.passed
    assert hint in result.message, result.message


def test_04c_1_accepts_the_smallest_similarity_left_uncut():
    def smallest_kept(sims, p):
        sims = np.asarray(sims)
        return float(sims[1 - sims <= np.percentile(1 - sims, p)].min())

    assert verdict("04c.1", smallest_kept).passed


def test_04c_2_names_each_slip_and_accepts_the_answer():
    from chunklab.teaching import answers_semantic, selfcheck

    right = selfcheck.SOLUTIONS["04c.2"][1]()
    cuts, on_true = right
    assert selfcheck.verdict_for("04c.2", right).endswith("correct.")
    assert selfcheck.verdict_for("04c.2", (list(cuts), on_true)).endswith("correct.")
    assert "gaps are WordLlama's" in selfcheck.verdict_for(
        "04c.2", answers_semantic.cuts_at_percentile("wordllama")
    )
    assert "percentile 80" in selfcheck.verdict_for(
        "04c.2", answers_semantic.cuts_at_percentile(percentile=80)
    )
    shifted = (tuple(c + 1 for c in cuts), on_true)
    assert "gap i lies after sentence i" in selfcheck.verdict_for("04c.2", shifted)
    early = (tuple(c - 1 for c in cuts), on_true)
    assert "gap i is after sentence i, not before it" in selfcheck.verdict_for("04c.2", early)
    backwards = (tuple(reversed(cuts)), on_true)
    assert "keep the order chunker.cuts(sims) gives" in selfcheck.verdict_for("04c.2", backwards)
    assert "count again" in selfcheck.verdict_for("04c.2", (cuts, on_true - 1))
    assert on_true < len(cuts), "the asked percentile must put a cut off a true change"
    assert "not every cut lands on a true change" in selfcheck.verdict_for(
        "04c.2", (cuts, len(cuts))
    )


def test_04c_2_depends_on_the_model_not_only_on_the_rule():
    """The percentile rule fixes how many gaps are cut, whatever the model; the exercise asks
    which gaps, so WordLlama's answer (the right method, the wrong model) cannot pass."""
    from chunklab.teaching import answers_semantic

    minilm, wordllama = (
        answers_semantic.cuts_at_percentile(),
        answers_semantic.cuts_at_percentile("wordllama"),
    )
    assert len(minilm[0]) == len(wordllama[0])
    assert minilm[0] != wordllama[0]


def test_04c_2_names_the_most_similar_gaps():
    """The predictable reverse-sort slip (the three highest similarities) gets its own hint,
    whatever count goes with it, not a list of wrong items."""
    import numpy as np

    from chunklab.chunkers.semantic import SemanticChunker
    from chunklab.documents.series import load_document
    from chunklab.embeddings.minilm import MiniLMEmbedder

    cuts, _ = selfcheck.SOLUTIONS["04c.2"][1]()
    _, sims = SemanticChunker(embedder=MiniLMEmbedder()).similarities(load_document("topics"))
    most = sorted(int(i) for i in np.argsort(sims)[-len(cuts) :])
    assert set(most) != set(cuts)
    for n in (0, len(cuts)):
        line = selfcheck.verdict_for("04c.2", (most, n))
        assert "most similar gaps" in line and "least similar" in line, line


def test_04c_2_names_another_models_gaps_whatever_count_beside_them():
    """WordLlama's gaps with MiniLM's count (or any count) name the model, not a list of wrong
    items: the round-8 reader got "items 1 and 2 of 3 are not right" for them."""
    from chunklab.teaching import answers_semantic, selfcheck

    for model, name in (("wordllama", "WordLlama"), ("hash", "the hash")):
        gaps, _ = answers_semantic.cuts_at_percentile(model)
        for n in range(len(gaps) + 1):
            line = selfcheck.verdict_for("04c.2", (list(gaps), n))
            assert f"gaps are {name}'s" in line and "MiniLMEmbedder()" in line, line


def test_04c_2_names_percentile_80s_gaps_whatever_count_beside_them():
    from chunklab.teaching import answers_semantic, selfcheck

    gaps, _ = answers_semantic.cuts_at_percentile(percentile=80)
    for n in range(len(gaps) + 1):
        assert "percentile 80's gaps" in selfcheck.verdict_for("04c.2", (list(gaps), n))


def test_04c_2_names_a_share_given_for_the_count():
    cuts, on_true = selfcheck.SOLUTIONS["04c.2"][1]()
    line = selfcheck.verdict_for("04c.2", (cuts, round(on_true / len(cuts), 2)))
    assert "is a share" in line, line


def test_04c_1_names_a_threshold_a_hair_above_a_kept_gap():
    """One ulp above the smallest similarity left uncut cuts that gap through the strict <: an
    off-by-one on the comparison, not another percentile method."""

    def hair_above(sims, p):
        sims = np.asarray(sims)
        return float(np.nextafter(sims[1 - sims <= np.percentile(1 - sims, p)].min(), 2))

    result = verdict("04c.1", hair_above)
    assert not result.passed
    assert "a hair above the similarity of a gap the rule keeps" in result.message, result.message
    assert "percentile method" not in result.message
