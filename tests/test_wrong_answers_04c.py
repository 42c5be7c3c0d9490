"""Notebook 04c's exercise refuses the plausible wrong thresholds, each with a hint naming the slip,
and accepts any threshold that makes the percentile rule's cuts."""

import numpy as np
import pytest

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
        (lambda sims, p: 1 - float(np.percentile(1 - sims, p)) + 1e-9, "as >= would"),
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
        (lambda sims, p: float(np.nextafter(1 - np.percentile(1 - sims, p), 2)), "as >= would"),
        (lambda sims, p: round(1 - float(np.percentile(1 - sims, p)), 3), "rounded"),
    ],
)
def test_04c_1_refuses_one_minus_a_percentile_that_lands_on_a_gap(wrong, hint):
    """A hair off 1 minus the cut-off, where the percentile is a gap's own distance: refused."""
    result = verdict("04c.1", wrong)
    assert not result.passed
    assert hint in result.message, result.message


def test_04c_1_accepts_the_smallest_similarity_left_uncut():
    def smallest_kept(sims, p):
        sims = np.asarray(sims)
        return float(sims[1 - sims <= np.percentile(1 - sims, p)].min())

    assert verdict("04c.1", smallest_kept).passed


def _distances_above(sims, p):
    distances = 1 - np.asarray(sims)
    return [i for i, d in enumerate(distances) if d > np.percentile(distances, p)]


def test_04c_2_accepts_the_rule_written_two_ways():
    def by_distances(sims, p, starts):
        cuts = _distances_above(sims, p)
        return sum(i + 1 in starts for i in cuts), len(cuts)

    def by_similarities(sims, p, starts):  # the (100 - p)-th percentile of the similarities
        sims = np.asarray(sims)
        cuts = np.flatnonzero(sims < np.percentile(sims, 100 - p))
        opened = {int(i) + 1 for i in cuts}
        return len(opened & set(starts)), len(cuts)

    for right in (by_distances, by_similarities):
        result = verdict("04c.2", right)
        assert result.passed, result.message


def test_04c_2_refuses_the_librarys_rule():
    """The old exercise read chunker.cuts(sims) at one percentile; the library's rule is refused."""
    from chunklab.chunkers.semantic import SemanticChunker
    from chunklab.embeddings.static import HashingEmbedder

    def library(sims, p, starts):
        cuts = SemanticChunker(embedder=HashingEmbedder(), percentile=p).cuts(np.asarray(sims))
        return sum(i + 1 in starts for i in cuts), len(cuts)

    result = verdict("04c.2", library)
    assert not result.passed
    assert "calls chunklab.chunkers.semantic.cuts" in result.message, result.message


def _scored(cuts, starts, shift=1):
    return sum(i + shift in starts for i in cuts), len(cuts)


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (
            lambda s, p, t: _scored(
                [i for i, d in enumerate(1 - s) if d >= np.percentile(1 - s, p)], t
            ),
            "(>, not >=)",
        ),
        (
            lambda s, p, t: _scored([i for i, x in enumerate(s) if x < np.percentile(s, p)], t),
            "percentile of the similarities",
        ),
        (lambda s, p, t: _scored(_distances_above(s, p / 100), t), "percentile p / 100"),
        (lambda s, p, t: _scored(_distances_above(s, p), t, shift=0), "compare i + 1"),
        (lambda s, p, t: (len(_distances_above(s, p)),) * 2, "every cut is counted"),
        (lambda s, p, t: _scored(_distances_above(s, p), t)[::-1], "swapped"),
        (
            lambda s, p, t: tuple(n + 1 for n in _scored(_distances_above(s, p), t)),
            "document's own start is counted",
        ),
        (
            lambda s, p, t: _scored([i for i, x in enumerate(s) if x > np.percentile(s, p)], t),
            "cuts the most similar gaps",
        ),
        (
            lambda s, p, t: _scored(
                [i for i, x in enumerate(s) if x < 1 - np.percentile(1 - s, p)], t
            ),
            "need not round back",
        ),
        (
            lambda s, p, t: (
                _scored(_distances_above(s, p), t)[0] + (0 in t),
                len(_distances_above(s, p)),
            ),
            "topic start 0 is counted as a hit",
        ),
        (
            lambda s, p, t: (
                _scored(_distances_above(s, p), t)[0],
                len(_distances_above(s, p)) + 1,
            ),
            "counts chunks, not cuts",
        ),
        (lambda s, p, t: 3, "return a pair"),
        (
            lambda s, p, t: _scored(
                sorted(np.argsort(1 - s)[::-1][: int(np.ceil(len(s) * (1 - p / 100)))]), t
            ),
            "a fixed count",
        ),
    ],
)
def test_04c_2_names_each_slip(wrong, hint):
    result = verdict("04c.2", wrong)
    assert not result.passed
    assert hint in result.message, result.message


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


def test_04c_2_names_precision_returned_for_a_count():
    """(0.33, 3): the share of cuts on a topic start, precision, where a count was asked."""

    def precision_first(s, p, t):
        hits, cuts = _scored(_distances_above(s, p), t)
        return (hits / cuts if cuts else 0.0, cuts)

    result = verdict("04c.2", precision_first)
    assert not result.passed
    assert "which is precision" in result.message, result.message


def test_04c_1_names_a_tie_cut_as_greater_or_equal_would():
    """The gaps at or past the cut-off's distance cut (>=), the threshold a hair above the largest
    similarity among them: the tie at the cut-off is cut. The hint names the comparison, not a
    rounding accident."""

    def ties_cut(sims, p):
        sims = np.asarray(sims)
        return float(np.nextafter(sims[1 - sims >= np.percentile(1 - sims, p)].max(), 2))

    result = verdict("04c.1", ties_cut)
    assert not result.passed
    assert "as >= would" in result.message, result.message
    assert "rounding accident" not in result.message


def test_04c_1_refuses_a_threshold_read_off_the_librarys_cuts():
    """A fresh reader passed the old check with the library's own rule: the smallest similarity
    SemanticChunker.cuts keeps cut, which needs no percentile worked out."""
    from chunklab.chunkers.semantic import SemanticChunker
    from chunklab.embeddings.static import HashingEmbedder

    def library(sims, p):
        cut = SemanticChunker(embedder=HashingEmbedder(), percentile=p).cuts(np.asarray(sims))
        return float(np.nextafter(max(sims[i] for i in cut), 2)) if cut else float(min(sims))

    result = verdict("04c.1", library)
    assert not result.passed and "the library's rule" in result.message, result.message


def test_04c_1_accepts_the_notebooks_own_formula_even_where_it_rounds():
    """Sections 2 and 5 write 1 - np.percentile(1 - s, p); where p lands on a gap's distance,
    1 - (1 - s) need not round back to s. A learner who writes the notebook's formula passes."""
    assert verdict("04c.1", lambda sims, p: 1 - float(np.percentile(1 - sims, p))).passed
    result = verdict("04c.1", lambda sims, p: float(np.percentile(sims, p)))
    assert "1 minus that, as sections 2 and 5 compute it" in result.message, result.message
