"""`claim` and `compare` (chunklab.teaching.claims): a conclusion is printed with its verdict,
two strategies are compared question by question, and a recap can only cite printed claims."""

import math

import nbformat
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunklab.evaluation.bootstrap import count_for
from chunklab.teaching.claims import (
    bare_verdict,
    claim,
    compare,
    recap_problems,
    sign_test,
    signed,
    uncited_recap,
)


def test_a_claim_prints_its_verdict_and_evidence(capsys):
    made = claim(
        "parents-direct", "Searching parents finds every fact.", 1.0 >= 0.99, "recall 1.00"
    )
    assert made.holds
    assert capsys.readouterr().out == (
        "claim parents-direct: HOLDS. Searching parents finds every fact. (recall 1.00)\n"
    )
    claim("parents-direct", "Searching parents finds every fact.", 0.75 >= 0.99, "recall 0.75")
    assert "DOES NOT HOLD" in capsys.readouterr().out


def test_a_claim_refuses_a_typed_verdict_and_a_bad_name():
    with pytest.raises(TypeError):
        claim("x", "s", "yes", "e")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        claim("Not A Name", "s", True, "e")


def test_compare_counts_questions_won_lost_and_tied():
    a = [1, 1, 1, 1, 0, 1, 0]
    b = [0, 0, 1, 1, 1, 1, 0]
    made = compare(a, b, "s2b", "parents", show=False)
    assert (made.won, made.lost, made.tied) == (2, 1, 4)
    assert made.mean_difference == pytest.approx(100 * (5 - 4) / 7)
    assert made.low <= made.mean_difference <= made.high
    assert made.verdict == "no difference shown"  # one question's lead is noise


def test_compare_calls_a_clear_lead_better_and_its_mirror_worse():
    a = [1] * 30 + [0] * 10
    b = [0] * 12 + [1] * 18 + [0] * 10
    assert compare(a, b, show=False).verdict == "better"
    assert compare(b, a, show=False).verdict == "worse"


def test_two_questions_never_decide_even_with_an_interval_above_zero():
    a, b = [1, 1] + [1] * 8, [0, 0] + [1] * 8
    made = compare(a, b, show=False)
    assert made.won == 2 and made.verdict == "no difference shown"


def test_compare_gives_the_mean_win_and_loss_and_widens_at_a_higher_level():
    a = [1.0] * 6 + [0.2] * 6 + [0.0] * 28
    b = [0.0] * 6 + [0.0] * 6 + [0.5] * 4 + [0.0] * 24
    made = compare(a, b, show=False)
    assert (made.won, made.lost) == (12, 4)
    assert made.mean_win == pytest.approx(100 * (6 * 1.0 + 6 * 0.2) / 12)
    assert made.mean_loss == pytest.approx(-50.0)
    assert "95% paired interval" in made.line()  # the default line is the one every notebook stores
    wider = compare(a, b, show=False, level=99.7)
    assert wider.low < made.low and wider.high > made.high
    assert "99.7% paired interval" in wider.line()


def test_compare_refuses_unpaired_scores():
    with pytest.raises(ValueError):
        compare([1, 0], [1, 0, 1])


@given(
    st.lists(
        st.tuples(st.sampled_from([0.0, 0.5, 1.0]), st.sampled_from([0.0, 0.5, 1.0])),
        min_size=1,
        max_size=40,
    )
)
def test_compare_is_antisymmetric(pairs):
    a = np.array([p[0] for p in pairs])
    b = np.array([p[1] for p in pairs])
    ab, ba = compare(a, b, show=False), compare(b, a, show=False)
    assert (ab.won, ab.lost, ab.tied) == (ba.lost, ba.won, ba.tied)
    assert ab.mean_difference == pytest.approx(-ba.mean_difference)
    assert not (ab.better and ab.worse)
    assert ab.better == ba.worse


RECAP = """## Recap

- Parents searched directly find every fact (`claim: parents-direct`).
- Small-to-big pays on long sections
  (`claim: s2b-long`).

Next: 04.
"""


def crafted(outputs: str, recap: str = RECAP):
    nb = nbformat.v4.new_notebook()
    code = nbformat.v4.new_code_cell("...")
    code.outputs = [nbformat.v4.new_output("stream", name="stdout", text=outputs)]
    nb.cells = [code, nbformat.v4.new_markdown_cell(recap)]
    return nb


def test_a_recap_whose_claims_all_printed_and_held_passes():
    printed = "claim parents-direct: HOLDS. x (y)\nclaim s2b-long: HOLDS. x (y)\n"
    assert uncited_recap(RECAP, printed) == []


def test_a_crafted_recap_fails_on_each_kind_of_bad_citation():
    printed = "claim parents-direct: DOES NOT HOLD. x (y)\n"
    problems = uncited_recap(RECAP + "", printed)
    assert any("does not hold" in p for p in problems)
    assert any("s2b-long, which no output prints" in p for p in problems)
    bare = uncited_recap("## Recap\n\n- A bullet with no citation.\n", printed)
    assert bare == ["cites no claim: A bullet with no citation."]


def test_a_crafted_notebook_is_read_from_its_stored_outputs():
    good = crafted("claim parents-direct: HOLDS. x (y)\nclaim s2b-long: HOLDS. x (y)\n")
    assert recap_problems(good) == []
    flipped = crafted("claim parents-direct: HOLDS. x (y)\nclaim s2b-long: DOES NOT HOLD. x (y)\n")
    assert recap_problems(flipped) == [
        "cites claim s2b-long, which does not hold: "
        "Small-to-big pays on long sections (`claim: s2b-long`)."
    ]
    assert recap_problems(crafted("", recap="no recap here")) == [
        "expected one '## Recap' cell, found 0"
    ]


def test_four_questions_to_none_are_not_enough_for_the_sign_test():
    # Every resample of 4 wins and 36 ties has a mean difference >= 0, and most above it, so the
    # interval alone would call this "better"; a fair coin gives 4 heads in 4 one time in 8.
    a, b = [1] * 4 + [0] * 36, [0] * 40
    made = compare(a, b, show=False)
    assert made.p_value == pytest.approx(2 * 0.5**4)
    assert made.verdict == "no difference shown"
    assert "sign test p = 0.125" in made.line()


def test_six_to_none_is_the_fewest_the_sign_test_accepts():
    assert sign_test(5, 0) > 0.05 > sign_test(6, 0)
    assert sign_test(6, 0) == pytest.approx(2 / 2**6)
    assert sign_test(0, 0) == 1.0 and sign_test(3, 3) == 1.0
    assert sign_test(2, 9) == sign_test(9, 2)


@given(st.integers(0, 60), st.integers(0, 60))
def test_the_sign_test_is_the_binomial_two_sided_tail(won, lost):
    n = won + lost
    # the same tail summed from the other end: the chance of at least max(won, lost) heads
    upper = sum(math.comb(n, k) for k in range(max(won, lost), n + 1)) / 2**n if n else 0.5
    assert sign_test(won, lost) == pytest.approx(min(1.0, 2 * upper))


def test_a_large_lead_on_few_questions_passes_the_interval_but_not_the_sign_test():
    a = [1.0] * 5 + [0.0] * 2 + [0.5] * 33
    b = [0.0] * 5 + [0.1] * 2 + [0.5] * 33
    made = compare(a, b, show=False)
    assert made.low > 0 and made.p_value > 0.05
    assert made.verdict == "no difference shown"


def test_printed_bounds_never_round_to_a_signless_zero():
    assert signed(0.03) == "+0.03" and signed(-0.004) == "-0.004"
    assert signed(0.0) == "0" and signed(2.46) == "+2.5"


def test_a_higher_level_draws_enough_resamples_for_its_tails():
    assert count_for(95.0) == 2000
    assert count_for(99.72) * (100 - 99.72) / 200 >= 25
    with pytest.raises(ValueError):
        count_for(100.0)


def test_brief_gives_the_counts_the_sign_test_the_interval_and_the_verdict():
    made = compare([1] * 7 + [0] * 33, [0] * 40, show=False)
    brief = made.brief()
    assert brief.startswith("7 won, 0 lost, p = 0.0156, [")
    assert brief.endswith(f"{signed(made.high)}]: better")
    assert (
        compare([1] * 4 + [0] * 36, [0] * 40, show=False)
        .brief()
        .endswith("no difference shown (the interval excludes 0, the sign test does not reject)")
    )


def test_the_line_names_the_test_that_withheld_the_verdict():
    # many small wins against few large losses: the counts reject a fair coin, the mean does not
    a = [0.6] * 30 + [0.0] * 10 + [0.5] * 10
    b = [0.5] * 30 + [0.4] * 10 + [0.5] * 10
    counts_only = compare(a, b, show=False)
    assert counts_only.p_value < 0.05 and counts_only.low <= 0 <= counts_only.high
    assert counts_only.line().endswith(
        "no difference shown (the sign test rejects, the interval reaches 0)"
    )
    # many tiny wins against a few large losses: the two tests point opposite ways
    opposite = compare([0.51] * 30 + [0.0] * 8, [0.5] * 30 + [0.9] * 8, show=False)
    assert opposite.p_value < 0.05 and opposite.high < 0 and opposite.won > opposite.lost
    assert opposite.brief().endswith("(the sign test and the interval point opposite ways)")


def test_a_verdict_or_two_silent_tests_carry_no_reason():
    assert compare([1] * 7 + [0] * 33, [0] * 40, show=False).line().endswith(": better")
    neither = compare([1, 0, 1, 0], [0, 1, 0, 1], show=False)
    assert neither.withheld_by == "" and neither.line().endswith(": no difference shown")


def test_a_verdict_pasted_with_its_note_reads_as_the_verdict():
    from chunklab.teaching.answers import Form, judge

    noted = compare([1] * 4 + [0] * 36, [0] * 40, show=False).line().rsplit(": ", 1)[1]
    assert noted != "no difference shown"
    assert bare_verdict(noted) == "no difference shown"
    assert judge((7, 1, noted), (7, 1, "no difference shown"), Form()) is None
    assert judge((7, 1, "better (" + noted.split("(", 1)[1]), (7, 1, "no difference shown"), Form())


@pytest.mark.parametrize("alpha", [0.05, 0.05 / 3, 0.05 / 18, 0.05 / 45])
def test_fewest_decisive_is_the_first_count_whose_sign_test_passes(alpha):
    from chunklab.teaching.claims import fewest_decisive, sign_test

    n = fewest_decisive(100, alpha)
    assert sign_test(n, 0) < alpha <= sign_test(n - 1, 0)
