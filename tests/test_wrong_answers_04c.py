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
        (lambda sims, p: 1 - float(np.percentile(1 - sims, p, method="lower")), 'method="lower"'),
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


def test_04c_2_names_each_slip_and_accepts_the_answer():
    from chunklab.teaching import selfcheck

    right = selfcheck.SOLUTIONS["04c.2"][1]()
    assert selfcheck.verdict_for("04c.2", right).endswith("correct.")
    hints = {a: selfcheck.verdict_for("04c.2", a) for a in selfcheck.form("04c.2").misses()}
    assert any("count the cuts, not the chunks" in line for line in hints.values())
    assert "not the smallest" in selfcheck.verdict_for("04c.2", right + 1)
    assert "makes" in selfcheck.verdict_for("04c.2", right - 1)
