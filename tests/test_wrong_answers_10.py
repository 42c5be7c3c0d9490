"""Exercise 10.1 (precision-Ω of fixed windows): plausible wrong answers are refused, each for the
rule it breaks, and the reference solution passes."""

import sys

import pytest
from conftest import ROOT

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
    """Counts overlapping excerpts' characters twice in the numerator."""
    meeting = [
        (a, b) for a, b in windows(size, length) if any(a <= e and b >= s for s, e in excerpts)
    ]
    seen = {i for a, b in meeting for i in range(a, b)}
    return sum(e - s for s, e in excerpts) / len(seen) if seen else 0.0


WRONG_10 = {"10.1": omega_strict_overlap}


@pytest.mark.parametrize(
    "wrong", [omega_strict_overlap, omega_over_the_document, omega_summing_excerpts]
)
def test_a_plausible_wrong_answer_is_not_yet(wrong):
    result = verdict("10.1", wrong)
    assert not result.passed and ": not yet: " in result.message, result.message


def test_the_reference_solution_passes():
    result = verdict("10.1", window_omega)
    assert result.passed, result.message
