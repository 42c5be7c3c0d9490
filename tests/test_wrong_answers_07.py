"""Notebooks 07, 07b and 07d: each exercise refuses the plausible wrong answers, with a hint that
names the mistake, and accepts every correct form (issue 29, item 3)."""

import itertools
import math
import re
import sys

import numpy as np
import pytest
from conftest import ROOT

from chunklab.teaching import selfcheck
from chunklab.teaching.answers_paired import (
    AMONG_THREE,
    PAIR,
    RETRIEVER,
    paired_in_family,
    read_pair,
)
from chunklab.teaching.exercises import verdict

sys.path.insert(0, str(ROOT))
from solutions import exercises as solutions  # noqa: E402


def _complete(text, facts):  # one chunk holds every fact, ignoring case: the `complete` of 07
    return all(f.lower() in text.lower() for f in facts)


def _rr_from_zero(ranked, gold):  # the first position is 0: divides by zero, or 1/(k) one too big
    return next((1 / k for k, ref in enumerate(ranked) if _complete(ref, gold)), 0.0)


def _rr_last(ranked, gold):
    backwards = reversed(list(enumerate(ranked, 1)))
    return next((1 / k for k, ref in backwards if _complete(ref, gold)), 0.0)


def _rr_integer(ranked, gold):
    return next((1 // k for k, ref in enumerate(ranked, 1) if _complete(ref, gold)), 0)


def _rr_share(ranked, gold):
    return sum(_complete(ref, gold) for ref in ranked) / len(ranked) if ranked else 0.0


def _rr_none_is_one(ranked, gold):
    return next((1 / k for k, ref in enumerate(ranked, 1) if _complete(ref, gold)), 1.0)


WRONG_RR = {
    _rr_from_zero: "positions count from 1",
    _rr_last: "the first complete chunk, not the last",
    _rr_integer: "not integer division",
    _rr_share: "not a share of the list",
    _rr_none_is_one: "no chunk holds every fact, so the reciprocal rank is 0.0",
}


@pytest.mark.parametrize("wrong", WRONG_RR, ids=lambda f: f.__name__)
def test_07_1_refuses_each_plausible_wrong_answer_naming_it(wrong):
    result = verdict("07.1", wrong)
    assert not result.passed
    assert WRONG_RR[wrong] in result.message, result.message


def test_07_1_accepts_every_correct_form():
    def as_numpy(ranked, gold):
        return np.float64(solutions.reciprocal_rank(ranked, gold))

    def by_index(ranked, gold):
        hits = [i for i, ref in enumerate(ranked) if _complete(ref, gold)]
        return 1 / (hits[0] + 1) if hits else 0

    for fn in (solutions.reciprocal_rank, as_numpy, by_index):
        assert verdict("07.1", fn).passed, verdict("07.1", fn).message


def _rr_by_rote(ranked, gold):  # the textbook reciprocal rank: an id looked up in a gold set
    return next((1 / k for k, ref in enumerate(ranked, 1) if ref in gold), 0.0)


def _rr_one_fact(ranked, facts):  # a chunk holding any one fact counted as complete
    one = [any(f.lower() in t.lower() for f in facts) for t in ranked]
    return next((1 / k for k, held in enumerate(one, 1) if held), 0.0)


def _rr_case_kept(ranked, facts):
    return next((1 / k for k, t in enumerate(ranked, 1) if all(f in t for f in facts)), 0.0)


@pytest.mark.parametrize(
    ("wrong", "named"),
    [
        (_rr_by_rote, "not whether the text is in `facts`"),
        (_rr_one_fact, "holds one fact, not every fact"),
        (_rr_case_kept, "ignore case"),
    ],
    ids=["rote", "one-fact", "case-kept"],
)
def test_07_1_refuses_the_rote_reciprocal_rank_and_the_slips_of_complete(wrong, named):
    """07.1 once asked for the textbook reciprocal rank over ids and a gold set, passed by rote; it
    now asks for 07's `rr`: the rank of the first chunk that holds every fact, ignoring case."""
    result = verdict("07.1", wrong)
    assert not result.passed and named in result.message, result.message


def _iou_unmerged(retrieved, gold):
    shared = sum(max(0, min(b, d) - max(a, c)) for a, b in retrieved for c, d in gold)
    either = sum(b - a for a, b in retrieved) + sum(d - c for c, d in gold) - shared
    return shared / either if either else 0.0


def _iou_recall(retrieved, gold):
    r = {i for a, b in retrieved for i in range(a, b)}
    g = {i for a, b in gold for i in range(a, b)}
    return len(r & g) / len(g) if g else 0.0


def _iou_precision(retrieved, gold):
    r = {i for a, b in retrieved for i in range(a, b)}
    g = {i for a, b in gold for i in range(a, b)}
    return len(r & g) / len(r) if r else 0.0


def _iou_no_empty_case(retrieved, gold):
    r = {i for a, b in retrieved for i in range(a, b)}
    g = {i for a, b in gold for i in range(a, b)}
    return len(r & g) / len(r | g)


def _iou_end_included(retrieved, gold):
    r = {i for a, b in retrieved for i in range(a, b + 1)}
    g = {i for a, b in gold for i in range(a, b + 1)}
    return len(r & g) / len(r | g) if r | g else 0.0


WRONG_IOU = {
    _iou_end_included: "the end is excluded",
    _iou_unmerged: "merge overlapping spans first",
    _iou_recall: "recall",
    _iou_precision: "precision",
    _iou_no_empty_case: "0.0 when neither holds any",
}


@pytest.mark.parametrize("wrong", WRONG_IOU, ids=lambda f: f.__name__)
def test_07d_1_refuses_each_plausible_wrong_answer_naming_it(wrong):
    result = verdict("07d.1", wrong)
    assert not result.passed
    assert WRONG_IOU[wrong] in result.message, result.message


def test_07d_1_accepts_every_correct_form():
    def by_sweep(retrieved, gold):  # another right method: walk the stretches between edges
        edges = sorted({edge for span in retrieved + gold for edge in span})
        both = either = 0
        for lo, hi in itertools.pairwise(edges):
            in_r = any(a <= lo and hi <= b for a, b in retrieved)
            in_g = any(c <= lo and hi <= d for c, d in gold)
            both += (hi - lo) * (in_r and in_g)
            either += (hi - lo) * (in_r or in_g)
        return both / either if either else 0

    for fn in (solutions.char_iou, by_sweep):
        assert verdict("07d.1", fn).passed, verdict("07d.1", fn).message


@pytest.mark.parametrize("exercise", ["07.1", "07c.2", "07d.1", "07b.1", "08.1", "09.1", "09b.1"])
def test_the_notebook_checks_the_function_its_starter_defines(exercise):
    """08's check cell once passed the library's heading_levels to the 08.1 check: the learner's
    function was never run."""
    import json
    import re

    from conftest import NOTEBOOKS

    from chunklab.teaching.exercises import CHECKS

    name = CHECKS[exercise][0].split("(")[0]
    (path,) = [p for p in NOTEBOOKS if p.name.startswith(exercise.split(".")[0] + "_")]
    code = "\n".join(
        "".join(c["source"])
        for c in json.loads(path.read_text())["cells"]
        if c["cell_type"] == "code"
    )
    assert re.search(rf"^def {name}\(", code, flags=re.M), f"no starter def {name} in {path.name}"
    assert f'check("{exercise}", {name})' in code, f"{path.name} does not check {name}"


def _rr_top_only(ranked, gold):
    return 1.0 if ranked and _complete(ranked[0], gold) else 0.0


def _rr_sum(ranked, gold):
    return sum(1 / k for k, ref in enumerate(ranked, 1) if _complete(ref, gold))


def _rr_mean(ranked, gold):
    found = [1 / k for k, ref in enumerate(ranked, 1) if _complete(ref, gold)]
    return sum(found) / len(found) if found else 0.0


@pytest.mark.parametrize(
    ("wrong", "named"),
    [
        (_rr_top_only, "not only the top one"),
        (_rr_sum, "adds 1 / position"),
        (_rr_mean, "averages 1 / position"),
    ],
    ids=["top-only", "sum", "mean"],
)
def test_07_1_names_top_only_sum_and_mean(wrong, named):
    result = verdict("07.1", wrong)
    assert not result.passed and named in result.message, result.message


def test_07_1_top_only_hint_says_nothing_of_integer_division():
    """A float answer that scores only the top hit is told that, and only that."""
    result = verdict("07.1", _rr_top_only)
    message = result.message
    assert "not only the top one" in message and "integer" not in message, message


def _iou_dice(retrieved, gold):
    r = {i for a, b in retrieved for i in range(a, b)}
    g = {i for a, b in gold for i in range(a, b)}
    return 2 * len(r & g) / (len(r) + len(g)) if r or g else 0.0


def _iou_gold_listed_twice(retrieved, gold):
    r = {i for a, b in retrieved for i in range(a, b)}
    g = [i for a, b in gold for i in range(a, b)]
    shared = sum(i in r for i in g)
    either = len(r) + len(g) - shared
    return shared / either if either else 0.0


@pytest.mark.parametrize(
    ("wrong", "named"),
    [
        (_iou_dice, "Dice divides by the sum, IoU by the union"),
        (_iou_gold_listed_twice, "a gold character listed twice counts once"),
    ],
    ids=["dice", "gold-listed-twice"],
)
def test_07d_1_names_dice_and_repeated_gold_apart_from_recall(wrong, named):
    """Both were told 'the recall and the precision here' on the one case that set them apart."""
    result = verdict("07d.1", wrong)
    assert not result.passed and named in result.message, result.message
    assert "recall" not in result.message, result.message


def _iou_after(merged):
    """IoU of the spans as `merged` leaves them: each slip below changes only the merge."""

    def iou(retrieved, gold):
        r, g = merged(retrieved), merged(gold)
        both = sum(max(0, min(b, d) - max(a, c)) for a, b in r for c, d in g)
        either = sum(b - a for a, b in r) + sum(d - c for c, d in g) - both
        return both / either if either else 0.0

    return iou


def _merged_without_sorting(spans):
    out = []
    for a, b in spans:  # the slip: no sorted(spans)
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


_iou_merged_without_sorting = _iou_after(_merged_without_sorting)


def test_07d_1_names_the_merge_without_sorting_and_the_pair_out_of_order():
    message = verdict("07d.1", _iou_merged_without_sorting).message
    assert "sort the spans before merging" in message and " comes after (" in message, message


def _merged_without_max(spans):
    out = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], b)  # the slip: not max(out[-1][1], b)
        else:
            out.append((a, b))
    return out


_iou_merged_without_max = _iou_after(_merged_without_max)


def test_07d_1_names_a_merge_that_forgets_max():
    message = verdict("07d.1", _iou_merged_without_max).message
    assert "must not shorten it" in message and "max(end, previous_end)" in message, message


def _iou_stepping_past_the_retrieved_span(retrieved, gold):
    """A two-pointer over the merged spans that steps past the retrieved span after every overlap:
    a second gold span under the same retrieved span is never counted."""
    r, g = _merged_without_sorting(sorted(retrieved)), _merged_without_sorting(sorted(gold))
    i = j = both = 0
    while i < len(r) and j < len(g):
        overlap = min(r[i][1], g[j][1]) - max(r[i][0], g[j][0])
        if overlap > 0:
            both, i = both + overlap, i + 1  # the slip: step past the span ending first
        elif r[i][1] <= g[j][0]:
            i += 1
        else:
            j += 1
    either = sum(b - a for a, b in r) + sum(d - c for c, d in g) - both
    return both / either if either else 0.0


def test_07d_1_names_a_two_pointer_that_steps_past_the_retrieved_span():
    """The check before this test had no two gold spans under one retrieved span, and passed it."""
    message = verdict("07d.1", _iou_stepping_past_the_retrieved_span).message
    assert "may cover two gold spans" in message and "ending first" in message, message


def test_07d_1_refuses_a_set_of_positions_on_long_spans_naming_it():
    def by_set(retrieved, gold):  # right on every small case; a set of a million positions
        r = {i for a, b in retrieved for i in range(a, b)}
        g = {i for a, b in gold for i in range(a, b)}
        return len(r & g) / len(r | g) if r | g else 0.0

    result = verdict("07d.1", by_set)
    assert not result.passed
    assert "a set of character positions is too large" in result.message, result.message


def test_07d_1_refuses_a_mask_of_positions_by_the_memory_it_allocates():
    """A mask of a million flags is fast on any machine: the check counts bytes, not seconds."""

    def by_mask(retrieved, gold):
        size = max([b for _, b in retrieved + gold], default=0)
        r, g = np.zeros(size, dtype=bool), np.zeros(size, dtype=bool)
        for a, b in retrieved:
            r[a:b] = True
        for a, b in gold:
            g[a:b] = True
        either = int((r | g).sum())
        return int((r & g).sum()) / either if either else 0.0

    result = verdict("07d.1", by_mask)
    assert not result.passed
    assert "it allocated" in result.message and "MB" in result.message, result.message
    assert "a mask of them" in result.message, result.message  # named as a mask, not only a set


@pytest.mark.xdist_group("exercise-07c.2")
def test_07c_1_names_markdown_in_place_of_markdown_lin_and_k_1():
    from chunklab.teaching.answers_paired import AMONG_THREE, RETRIEVER, read_pair

    plain = read_pair(RETRIEVER, AMONG_THREE, ("markdown", "fixed_size"))
    at_one = read_pair(RETRIEVER, AMONG_THREE, k=1)
    assert "that is `markdown`" in selfcheck.verdict_for("07c.1", (3, *plain))
    assert "that is k=1" in selfcheck.verdict_for("07c.1", (3, *at_one))


@pytest.mark.xdist_group("exercise-07c.2")
def test_07c_1_names_the_path_twin_and_k_5():
    """A fresh reader's two slips: the `+path` twin of markdown-lin, and reading at k = 5."""
    from chunklab.teaching.answers_paired import AMONG_THREE, PAIR, RETRIEVER, read_pair

    twin = read_pair(RETRIEVER, AMONG_THREE, (f"{PAIR[0]}+path", PAIR[1]))
    at_five = read_pair(RETRIEVER, AMONG_THREE, k=5)
    for answer, hint in [
        ((3, *twin), "that is `markdown-lin+path`"),
        ((3, *at_five), "that is k=5"),
    ]:
        assert answer != selfcheck.SOLUTIONS["07c.1"][1]()
        message = selfcheck.verdict_for("07c.1", answer)
        assert "not quite" in message and hint in message, message


def _iou_gold_unmerged(retrieved, gold):
    r = _merged_without_sorting(sorted(retrieved))
    shared = sum(max(0, min(b, d) - max(a, c)) for a, b in r for c, d in gold)
    either = sum(b - a for a, b in r) + sum(d - c for c, d in gold) - shared
    return shared / either if either else 0.0


def _iou_union_as_sum(retrieved, gold):
    r, g = _merged_without_sorting(sorted(retrieved)), _merged_without_sorting(sorted(gold))
    shared = sum(max(0, min(b, d) - max(a, c)) for a, b in r for c, d in g)
    either = sum(b - a for a, b in r) + sum(d - c for c, d in g)
    return shared / either if either else 0.0


def test_07d_1_names_unmerged_gold_and_a_union_without_the_overlap_subtracted():
    assert "merge the gold spans too" in verdict("07d.1", _iou_gold_unmerged).message
    message = verdict("07d.1", _iou_union_as_sum).message
    assert "subtract the shared characters once" in message, message


def test_07c_1_names_the_uncorrected_verdict_the_totals_and_the_reversed_pair():
    m, won, lost, low, verdict = paired_in_family()
    assert selfcheck.verdict_for("07c.1", (m, won, lost, low, verdict)).endswith("correct.")
    at_005 = read_pair(RETRIEVER, 95.0)
    assert "the line read at 0.05" in selfcheck.verdict_for("07c.1", (3, *at_005))
    assert "the line read at 0.05" in selfcheck.verdict_for("07c.1", (1, *at_005))
    reversed_pair = (3, lost, won, -low, verdict)
    assert "fixed_size against markdown-lin" in selfcheck.verdict_for("07c.1", reversed_pair)
    assert "compare's words" in selfcheck.verdict_for("07c.1", (3, won, lost, low, "not shown"))
    found = _fixed_rows(RETRIEVER, PAIR, ks=(3,))
    total = {s: int(sum(r["complete"] for r in found if r["strategy"] == s)) for s in PAIR}
    totals = (3, total[PAIR[0]], total[PAIR[1]], low, verdict)
    assert "two cuts' totals" in selfcheck.verdict_for("07c.1", totals)


def test_07c_1_refuses_a_verdict_read_at_another_family_or_guessed_without_the_level():
    """The verdict alone passed at any level stricter than 0.05: the interval's low end shows the
    level, so 0.05 / 36, and 'no difference shown' guessed beside the 0.05 interval, are refused."""
    m, won, lost, low, verdict = paired_in_family()
    assert "m, won, lost, high, verdict" in selfcheck.verdict_for(
        "07c.1", (won, lost, low, verdict)
    )
    strict = read_pair(RETRIEVER, 100 - 5 / 36)
    assert strict[3] == verdict and strict[2] != low
    assert "0.05 / 36" in selfcheck.verdict_for("07c.1", (3, *strict))
    assert "0.05 / 36" in selfcheck.verdict_for("07c.1", (36, *strict))
    guessed = (3, *read_pair(RETRIEVER, 95.0)[:3], verdict)
    assert "at 0.05 / 3" in selfcheck.verdict_for("07c.1", guessed)


def test_07c_1_refuses_m_3_written_beside_the_line_read_at_0_05_over_12():
    """The low end is the same at every m from 3 to 12, so the check before this test passed m = 3
    written beside a line read at 0.05 / 12; the high end it asks now differs."""
    m, won, lost, high, verdict = paired_in_family()
    for family in (6, 12):
        wide = read_pair(RETRIEVER, 100 - 5 / family)
        assert wide[2] != high
        assert f"0.05 / {family}" in selfcheck.verdict_for("07c.1", (3, *wide))


def test_07_1_integer_division_hint_names_only_that_slip():
    """`1 // position` scores every position; its hint says integer division and nothing else."""
    message = verdict("07.1", _rr_integer).message
    assert "not integer division" in message and "top one" not in message, message


def test_07c_1_names_worse_for_a_pair_that_wins_more_than_it_loses():
    m, won, lost, low, _ = paired_in_family()
    message = selfcheck.verdict_for("07c.1", (m, won, lost, low, "worse"))
    assert "'worse' would say markdown-lin completes fewer" in message, message


@pytest.mark.xdist_group("exercise-07c.2")
def test_07c_1_names_better_read_at_0_05_alone():
    """Right counts and low end with "better": the sign test read at 0.05, not at 0.05 / 3."""
    m, won, lost, low, _ = paired_in_family()
    message = selfcheck.verdict_for("07c.1", (m, won, lost, low, "better"))
    assert "against 0.05 / 3" in message, message


def _fixed_rows(retriever, strategies=("fixed_size",), ks=(1, 3, 5)):
    """notebook 07's rows for `strategies` with `retriever`, from the public API."""
    from chunklab.documents.series import data_dir, list_documents, load_document
    from chunklab.evaluation.experiment import real_strategies, run_experiment
    from chunklab.evaluation.questions import load_question_file
    from chunklab.retrieval.retrievers import RETRIEVERS

    docs = {n: load_document(n) for n in list_documents()}
    questions = load_question_file(data_dir() / "experiment.questions.yaml", docs)
    chosen = {s: real_strategies()[s] for s in strategies}
    return run_experiment(
        docs, questions, chosen, {retriever: RETRIEVERS[retriever]()}, ks=ks, progress=False
    )


# --- 07c.2: cannot_answer(chunks, facts), written by the learner ---------------------------------


def _answer_by_sets(
    chunks, facts
):  # a second right form: casefold, a set of chunks that hold each fact
    return sorted(
        q
        for q, fs in facts.items()
        if not set.intersection(
            *[{i for i, c in enumerate(chunks) if f.casefold() in c.casefold()} for f in fs]
        )
    )


def _answer_spread(chunks, facts):  # every fact somewhere: fact_recall 1, not one chunk
    return sorted(
        q
        for q, fs in facts.items()
        if not all(any(f.lower() in c.lower() for c in chunks) for f in fs)
    )


def _answer_any_fact(chunks, facts):
    return sorted(
        q for q, fs in facts.items() if not any(f.lower() in c.lower() for c in chunks for f in fs)
    )


def _answer_with_case(chunks, facts):
    return sorted(q for q, fs in facts.items() if not any(all(f in c for f in fs) for c in chunks))


def _answer_the_answerable(chunks, facts):
    return sorted(
        q for q, fs in facts.items() if any(all(f.lower() in c.lower() for f in fs) for c in chunks)
    )


def _answer_unsorted(chunks, facts):
    return list(reversed(solutions.cannot_answer(chunks, facts)))


def _answer_find_above_zero(chunks, facts):  # misses a fact at a chunk's start
    return sorted(
        q
        for q, fs in facts.items()
        if not any(all(c.lower().find(f.lower()) > 0 for f in fs) for c in chunks)
    )


def _answer_last_chunk_skipped(chunks, facts):
    return sorted(
        q
        for q, fs in facts.items()
        if not any(all(f.lower() in c.lower() for f in fs) for c in chunks[: len(chunks) - 1])
    )


def _answer_with_library(chunks, facts):
    from chunklab.evaluation.metrics import has_facts

    return sorted(q for q, fs in facts.items() if not any(has_facts(c, fs) for c in chunks))


def test_07c_2_accepts_two_right_forms():
    for fn in (solutions.cannot_answer, _answer_by_sets):
        result = verdict("07c.2", fn)
        assert result.passed, result.message


def test_07c_2_refuses_the_old_route_the_notebook_list_and_a_function_returning_it(capsys):
    """The old 07c.2 took the list of fixed_size's ten ids, found by re-running a cell with
    another strategy name; now the learner writes the test, and the list is no answer."""
    listed = ["m09", "m11", "s05", "s07", "t01", "t02", "t03", "t08", "w05", "w10"]
    selfcheck.check("07c.2", listed)
    assert ": correct" not in capsys.readouterr().out
    assert not verdict("07c.2", lambda chunks, facts: listed).passed


@pytest.mark.parametrize(
    ("wrong", "named"),
    [
        (_answer_spread, "`fact_recall` 1"),
        (_answer_any_fact, "it must hold every fact"),
        (_answer_with_case, "whatever its case"),
        (_answer_the_answerable, "CAN answer"),
        (_answer_unsorted, "not in ascending order"),
        (_answer_with_library, "has_facts"),
        (_answer_find_above_zero, "find(fact) > 0"),
        (_answer_last_chunk_skipped, "skipped the last chunk"),
    ],
    ids=["spread", "any-fact", "case", "answerable", "unsorted", "library", "find", "last"],
)
def test_07c_2_names_each_slip(wrong, named):
    result = verdict("07c.2", wrong)
    assert not result.passed and named in result.message, result.message


@pytest.mark.parametrize("wrong", [_answer_find_above_zero, _answer_last_chunk_skipped])
def test_07c_2_names_no_slip_the_function_does_not_make(wrong):
    """The old checker named any slip matching on the failing case alone: 'compared with case'."""
    result = verdict("07c.2", wrong)
    assert not result.passed and "whatever its case" not in result.message, result.message


# --- 07b.1: standing(family), the family's reading written by the learner -----------------------


def _p(won, lost, sides=2):
    n = won + lost
    return (
        min(1.0, sides * sum(math.comb(n, i) for i in range(min(won, lost) + 1)) / 2**n)
        if n
        else 1.0
    )


def _standing_by_tail(
    family,
):  # a second right form: the tail of the winning side, level computed once
    alpha = 0.05 / len(family) if family else 0
    tail = [
        (
            name,
            won,
            lost,
            low,
            sum(math.comb(won + lost, i) for i in range(won, won + lost + 1)) / 2 ** (won + lost),
        )
        for name, won, lost, low in family
    ]
    return [
        name
        for name, won, lost, low, t in tail
        if won > lost and low > 0 and min(1.0, 2 * t) < alpha
    ]


def _reading(alpha_of, interval=True, sign=True, sides=2):
    def standing(family):
        alpha = alpha_of(family)
        return [
            name
            for name, won, lost, low in family
            if (not interval or low > 0)
            and (not sign or (won > lost and _p(won, lost, sides) < alpha))
        ]

    return standing


_each_at_95 = _reading(lambda f: 0.05)
_among_three = _reading(
    lambda f: 0.05 / 3
)  # 07's AMONG_THREE copied: the old route of a copied cell
_by_leaning = _reading(lambda f: 0.05 / max(1, sum(won > lost for _, won, lost, _ in f)))
_interval_only = _reading(lambda f: 0.05 / len(f), sign=False)
_sign_only = _reading(lambda f: 0.05 / len(f), interval=False)
_one_sided = _reading(lambda f: 0.05 / len(f), sides=1)


def test_07b_1_accepts_two_right_forms():
    for fn in (solutions.standing, _standing_by_tail):
        result = verdict("07b.1", fn)
        assert result.passed, result.message


def test_07b_1_refuses_the_old_filter_and_a_copied_level():
    """The old 07b.1 asked for a pandas filter already written in the notebook: a function of
    (rows, strategy, retriever, k) is no reading of a family, and 07's level copied is named."""
    assert not verdict("07b.1", solutions.complete_not_reached).passed
    result = verdict("07b.1", _among_three)
    assert not result.passed and "divided by 3" in result.message, result.message


@pytest.mark.parametrize(
    ("wrong", "named"),
    [
        (_each_at_95, "read each comparison at 0.05"),
        (_by_leaning, "lean ahead"),
        (_interval_only, "interval only"),
        (_sign_only, "sign test only"),
        (_one_sided, "one-sided"),
    ],
    ids=["each-at-95", "m-leaning", "interval-only", "sign-only", "one-sided"],
)
def test_07b_1_names_each_slip(wrong, named):
    result = verdict("07b.1", wrong)
    assert not result.passed and named in result.message, result.message


def test_07b_1_refuses_a_call_into_the_library_sign_test():
    from chunklab.teaching.claims import sign_test

    def with_library(family):
        return [
            n
            for n, won, lost, low in family
            if low > 0 and won > lost and sign_test(won, lost) < 0.05 / len(family)
        ]

    result = verdict("07b.1", with_library)
    assert not result.passed and "sign_test" in result.message, result.message


# --- slips the checkers once accepted: whole-word facts (07c.2), ties and worse members (07b.1) ---


def _answer_whole_words(chunks, facts):  # a fact as one token of the chunk split on spaces
    return sorted(
        q
        for q, fs in facts.items()
        if not any(all(f.lower() in set(c.lower().split()) for f in fs) for c in chunks)
    )


def _answer_word_boundaries(chunks, facts):  # a fact between \b's: misses 'cap' in 'capped'
    import re

    return sorted(
        q
        for q, fs in facts.items()
        if not any(
            all(re.search(rf"\b{re.escape(f.lower())}\b", c.lower()) for f in fs) for c in chunks
        )
    )


@pytest.mark.parametrize(
    ("wrong", "named"),
    [(_answer_whole_words, "whole words"), (_answer_word_boundaries, "word boundaries")],
    ids=["whole-words", "word-boundaries"],
)
def test_07c_2_refuses_facts_matched_as_words(wrong, named):
    result = verdict("07c.2", wrong)
    assert not result.passed and named in result.message, result.message


_by_decisive = _reading(lambda f: 0.05 / max(1, sum(won + lost > 0 for _, won, lost, _ in f)))


def _apart_either_way(family):  # the reader's form: a comparison shown worse returned too
    m = len(family)
    return [
        name
        for name, won, lost, low in family
        if (low > 0 or won < lost) and won != lost and _p(won, lost) < 0.05 / m
    ]


@pytest.mark.parametrize(
    ("wrong", "named"),
    [(_by_decisive, "decisive question"), (_apart_either_way, "shown worse")],
    ids=["m-decisive", "worse-too"],
)
def test_07b_1_refuses_m_without_ties_and_worse_members(wrong, named):
    result = verdict("07b.1", wrong)
    assert not result.passed and named in result.message, result.message


def test_07c_1_names_each_level_that_prints_the_low_end_a_fraction_and_reached():
    """0.05 / 2 prints the low end 0.05 does: both are named, not 0.05 alone; the low end as a
    fraction is named as that, not as the 0.05 / 36 line alone; `reached` is named."""
    m, won, lost, low, verdict = paired_in_family()
    at_two = read_pair(RETRIEVER, 97.5)
    assert at_two[2] != low
    message = selfcheck.verdict_for("07c.1", (m, *at_two))
    assert "0.05 / 2" in message and "0.05 / 3" in message, message
    message = selfcheck.verdict_for("07c.1", (m, won, lost, low / 100, verdict))
    assert "as a fraction" in message and f"{low / 100:g}" not in message.split("): ", 1)[1], (
        message
    )
    message = selfcheck.verdict_for(
        "07c.1", (m, *read_pair(RETRIEVER, AMONG_THREE, measure="reached"))
    )
    assert "that is `reached`" in message, message


def _rr_one_too_far(ranked, gold):  # enumerate from 1, then 1 added again
    return next((1 / (k + 1) for k, ref in enumerate(ranked, 1) if _complete(ref, gold)), 0.0)


def _rr_hit(ranked, gold):  # found or not, 1 or 0
    return 1.0 if any(_complete(ref, gold) for ref in ranked) else 0.0


@pytest.mark.parametrize(
    ("wrong", "named"),
    [(_rr_one_too_far, "one position too far"), (_rr_hit, "that is a hit")],
    ids=["one-too-far", "hit"],
)
def test_07_1_names_one_too_far_and_a_hit(wrong, named):
    result = verdict("07.1", wrong)
    assert not result.passed and named in result.message, result.message


def test_07c_1_asks_the_family_size_the_line_alone_cannot_tell():
    """The right line reads the same at m = 3 and 4 (its low end at every m from 3 to 12): a learner
    who counts four retrievers (a fourth) or the 11 cuts passed. m is asked, each wrong m named."""
    from chunklab.teaching.answers_paired import AMONG_THREE, RETRIEVER, read_pair

    line = read_pair(RETRIEVER, AMONG_THREE)
    assert read_pair(RETRIEVER, 100 - 5 / 4) == line  # why the line alone cannot tell
    assert selfcheck.verdict_for("07c.1", (3, *line)).endswith("correct.")
    four = selfcheck.verdict_for("07c.1", (4, *line))
    assert "not quite" in four and "a fourth retriever" in four, four
    eleven = selfcheck.verdict_for("07c.1", (11, *line))
    assert "not quite" in eleven and "counts the cuts" in eleven, eleven
    assert "not quite" in selfcheck.verdict_for("07c.1", line)  # the line without m


def test_07b_1_refuses_a_low_end_of_zero_as_above_zero():
    """`low >= 0` passed every case: the task asks for the low end above 0, and an interval that
    touches 0 does not exclude it. A family with a low end of exactly 0 now tells them apart."""

    def touching(family):
        alpha = 0.05 / len(family) if family else 0
        return [
            n for n, won, lost, low in family if low >= 0 and won > lost and _p(won, lost) < alpha
        ]

    result = verdict("07b.1", touching)
    assert not result.passed and "low end of exactly 0" in result.message, result.message


def _answer_without_accents(
    chunks, facts
):  # 07 section 1's slip: 'responsavel' is not 'responsável'
    import unicodedata

    def fold(text):
        return "".join(
            ch
            for ch in unicodedata.normalize("NFKD", text.lower())
            if not unicodedata.combining(ch)
        )

    return sorted(
        q for q, fs in facts.items() if not any(all(fold(f) in fold(c) for f in fs) for c in chunks)
    )


def test_07c_2_refuses_accent_stripping_by_name():
    result = verdict("07c.2", _answer_without_accents)
    assert not result.passed and "stripped accents" in result.message, result.message


def test_07c_2_names_a_set_returned():
    result = verdict("07c.2", lambda chunks, facts: set(solutions.cannot_answer(chunks, facts)))
    assert not result.passed and "sorted list" in result.message, result.message


def _iou_gold_unmerged_by_sweep(retrieved, gold):  # the retrieved side merged, the gold side not
    merged = []
    for a, b in sorted(retrieved):
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    g = sorted(gold)
    i = j = both = 0
    while i < len(merged) and j < len(g):
        both += max(0, min(merged[i][1], g[j][1]) - max(merged[i][0], g[j][0]))
        i, j = (i + 1, j) if merged[i][1] < g[j][1] else (i, j + 1)
    either = sum(b - a for a, b in merged) + sum(b - a for a, b in g) - both
    return both / either if either else 0.0


def test_07d_1_names_the_gold_left_unmerged_when_counted_by_a_sweep():
    result = verdict("07d.1", _iou_gold_unmerged_by_sweep)
    assert not result.passed and "merge the gold spans too" in result.message, result.message


def test_07b_1_names_sorted_output():
    def sorted_standing(family):
        return sorted(solutions.standing(family))

    result = verdict("07b.1", sorted_standing)
    assert not result.passed and "do not sort them" in result.message, result.message


def _standing_normal(correction):
    def standing(family):
        m = len(family)
        out = []
        for name, won, lost, low in family:
            z = max(abs(won - lost) - correction, 0) / math.sqrt(max(won + lost, 1))
            if low > 0 and won > lost and math.erfc(z / math.sqrt(2)) < 0.05 / m:
                out.append(name)
        return out

    return standing


@pytest.mark.parametrize("correction", [0.0, 1.0])
def test_07b_1_names_the_normal_approximation(correction):
    """07b.1 once answered the normal approximation with the generic 'read at 0.05 / m' hint."""
    result = verdict("07b.1", _standing_normal(correction))
    assert not result.passed
    assert "normal approximation" in result.message, result.message


def test_07c_1_a_wrong_m_is_named_without_handing_over_m():
    """Every hint for a wrong m said "so m = 3" (or that the retrievers "are three"): the answer
    given away. Each still names what the wrong m counts, and leaves the count to the learner."""
    from chunklab.teaching.answers_paired import AMONG_THREE, RETRIEVER, read_pair

    line = read_pair(RETRIEVER, AMONG_THREE)
    for m in (1, 2, 4, 5, 11, 36):
        out = selfcheck.verdict_for("07c.1", (m, *line))
        assert "not quite" in out and not re.search(r"m = 3\b|are three", out), out
        assert "count" in out, out


def _rr_whole_words(ranked, gold):  # a fact as one token of the chunk split on spaces
    return next(
        (
            1 / k
            for k, t in enumerate(ranked, 1)
            if all(f.lower() in t.lower().split() for f in gold)
        ),
        0.0,
    )


def _rr_word_boundaries(ranked, gold):  # a fact between \b's: misses 'Limite' in 'Limites:'
    return next(
        (
            1 / k
            for k, t in enumerate(ranked, 1)
            if all(re.search(rf"\b{re.escape(f.lower())}\b", t.lower()) for f in gold)
        ),
        0.0,
    )


@pytest.mark.parametrize("wrong", [_rr_whole_words, _rr_word_boundaries], ids=["split", "bounds"])
def test_07_1_names_facts_matched_as_whole_words(wrong):
    """07's `complete` tests each fact as a substring, ignoring case. A whole-word matcher was told
    "the first complete chunk, not the last"; one at word boundaries passed."""
    result = verdict("07.1", wrong)
    assert not result.passed and "whole words" in result.message, result.message
    assert "not the last" not in result.message, result.message


def _without_majority(family):  # "more won than lost" dropped: interval and two-sided p only
    return [
        name
        for name, won, lost, low in family
        if low > 0 and won != lost and _p(won, lost) < 0.05 / len(family)
    ]


def test_07b_1_refuses_shown_ahead_without_more_won_than_lost():
    """A positive low end and a passing sign test can come with more lost than won (a few large
    wins, many small losses), and the function must not call it ahead. The hint once cited 07b's
    char_precision line (15 won, 27 lost), whose low end is below 0: not the case it describes."""
    result = verdict("07b.1", _without_majority)
    assert not result.passed and "more won than lost" in result.message, result.message
    assert "char_precision" not in result.message and "toward the losses" in result.message


# --- 07.2: a verdict family from raw scores -----------------------------------------------------

from chunklab.teaching.claims import compare  # noqa: E402
from chunklab.teaching.exercises_verdict_family import SLIPS as FAMILY_SLIPS  # noqa: E402


def test_07_2_accepts_the_family_read_at_its_level():
    assert verdict("07.2", solutions.shown_ahead).passed


def test_07_2_accepts_pairing_through_a_frame():
    import pandas as pd

    def through_frame(scores, a, baselines):
        table = pd.DataFrame(scores)  # columns aligned on the question ids
        level = 100 - 5 / len(baselines)
        return [b for b in baselines if compare(table[a], table[b], show=False, level=level).better]

    assert verdict("07.2", through_frame).passed


@pytest.mark.parametrize("wrong, hint", FAMILY_SLIPS)
def test_07_2_names_each_slip(wrong, hint):
    result = verdict("07.2", wrong)
    assert not result.passed and hint in result.message, result.message


def test_07_2_refuses_a_fixed_level_with_its_hint():
    def at_95(scores, a, baselines):
        return [
            b
            for b in baselines
            if compare(
                [scores[a][q] for q in scores[a]], [scores[b][q] for q in scores[a]], show=False
            ).better
        ]

    result = verdict("07.2", at_95)
    assert not result.passed and "every line read at 0.05" in result.message, result.message


def test_07_2_refuses_more_won_than_lost_untested():
    def won_more(scores, a, baselines):
        return [
            b
            for b in baselines
            if sum(scores[a][q] > scores[b][q] for q in scores[a])
            > sum(scores[a][q] < scores[b][q] for q in scores[a])
        ]

    result = verdict("07.2", won_more)
    assert not result.passed and "more won than lost" in result.message, result.message


def _rr_gathered(ranked, gold):  # facts gathered across chunks: fact_recall's rule, not complete's
    seen = set()
    for k, text in enumerate(ranked, 1):
        seen |= {f for f in gold if f.lower() in text.lower()}
        if len(seen) == len(gold):
            return 1 / k
    return 0.0


def test_07_1_names_facts_spread_over_chunks():
    """A reader's answer that gathers the facts across the ranked chunks was told only "no chunk
    holds every fact"; the hint now names the slip: spread facts are fact_recall, not complete."""
    result = verdict("07.1", _rr_gathered)
    assert not result.passed and "spread over the first 2 chunks" in result.message, result.message
    assert "`fact_recall`, not `complete`" in result.message, result.message


def _pairs(scores, a, b):
    return [scores[a][q] for q in scores[a]], [scores[b][q] for q in scores[a]]


def _sign_test_only(scores, a, baselines):  # "better" as more won and the sign test, no interval
    from chunklab.teaching.claims import sign_test

    out = []
    for b in baselines:
        ours, theirs = _pairs(scores, a, b)
        won = sum(x > y for x, y in zip(ours, theirs, strict=True))
        lost = sum(x < y for x, y in zip(ours, theirs, strict=True))
        if won > lost and sign_test(won, lost) < 0.05 / len(baselines):
            out.append(b)
    return out


def _interval_only(scores, a, baselines):
    level = 100 - 5 / len(baselines)
    return [b for b in baselines if compare(*_pairs(scores, a, b), show=False, level=level).low > 0]


def _level_as_fraction(scores, a, baselines):
    level = 1 - 0.05 / len(baselines)
    return [b for b in baselines if compare(*_pairs(scores, a, b), show=False, level=level).better]


def _not_worse(scores, a, baselines):
    level = 100 - 5 / len(baselines)
    lines = {b: compare(*_pairs(scores, a, b), show=False, level=level) for b in baselines}
    return [b for b, line in lines.items() if not line.worse]


def _sorted_names(scores, a, baselines):
    return sorted(solutions.shown_ahead(scores, a, baselines))


@pytest.mark.parametrize(
    "wrong, named",
    [
        (_sign_test_only, "the sign test alone"),
        (_interval_only, "the interval alone"),
        (_level_as_fraction, "the level is a percentage"),
        (_not_worse, "'not worse' also keeps"),
        (_sorted_names, "the right baselines, sorted"),
    ],
    ids=["sign-test-only", "interval-only", "fraction", "not-worse", "sorted"],
)
def test_07_2_names_each_half_of_better_and_each_reading_slip(wrong, named):
    """A reader found the sign test alone passed 07.2 (no made-up case split it from 'better'), and
    the interval alone, the level as a fraction, 'not worse' and a sorted list drew the generic
    hint. A fractional family (many small wins, one large loss) now refuses the sign test alone,
    and each slip is named."""
    result = verdict("07.2", wrong)
    assert not result.passed and named in result.message, result.message


def _any_verdict(scores, a, baselines):  # every line with a verdict, "worse" ones included
    level = 100 - 5 / len(baselines)
    lines = {b: compare(*_pairs(scores, a, b), show=False, level=level) for b in baselines}
    return [b for b, line in lines.items() if line.verdict != "no difference shown"]


def test_07_2_names_a_worse_line_kept():
    """A reader kept every line with a verdict, "worse" included, and got only the generic hint
    ("keep the baselines whose line is better"); the hint now names the slip."""
    result = verdict("07.2", _any_verdict)
    assert not result.passed and "the lines called worse kept too" in result.message, result.message


# --- 07b.1: slips a cold reading found passing or named only by the general hint --------------


def _standing_without_sign_test(family):  # the interval and won > lost, no sign test at all
    return [name for name, won, lost, low in family if low > 0 and won > lost]


def _standing_sidak(family):  # Sidak's level, 1 - 0.95 ** (1 / m): a little more lenient
    alpha = 1 - 0.95 ** (1 / len(family)) if family else 0
    return [n for n, won, lost, low in family if low > 0 and won > lost and _p(won, lost) < alpha]


def test_07b_1_names_a_dropped_sign_test():
    result = verdict("07b.1", _standing_without_sign_test)
    assert not result.passed and "dropped the sign test" in result.message, result.message


def test_07b_1_refuses_sidaks_level_and_names_it():
    result = verdict("07b.1", _standing_sidak)
    assert not result.passed and "Sidak" in result.message, result.message


# --- 07b.1: Holm's step-down, a sign test of the wins alone, m written in (round 45) -----------


def _standing_holm(family):  # Holm by adjusted p-values: the i-th smallest times (m - i), cummax
    m, worst, kept = len(family), 0.0, set()
    for rank, (name, won, lost, _low) in enumerate(sorted(family, key=lambda c: _p(c[1], c[2]))):
        worst = max(worst, (m - rank) * _p(won, lost))
        if worst < 0.05:
            kept.add(name)
    return [n for n, won, lost, low in family if n in kept and low > 0 and won > lost]


def _standing_wins_only(family):  # n = won: the losses never enter the sign test
    return [
        n
        for n, won, lost, low in family
        if low > 0 and won > lost and 2 * 0.5**won < 0.05 / len(family)
    ]


def _standing_m_written_in(family):  # section 1's old family of four, m = 4 for every family
    return [
        n for n, won, lost, low in family if low > 0 and won > lost and _p(won, lost) < 0.05 / 4
    ]


@pytest.mark.parametrize(
    ("wrong", "named"),
    [
        (_standing_holm, "Holm's step-down"),
        (_standing_wins_only, "counts the wins only"),
        (_standing_m_written_in, "you divided by 4 in every family, a number written in"),
    ],
    ids=["holm", "wins-only", "m-written-in"],
)
def test_07b_1_names_holm_wins_only_and_m_written_in(wrong, named):
    """A cold reader's three plausible methods drew the generic hint: Holm's step-down (not the
    notebook's one level 0.05 / m, against which the given low end was read), a sign test with
    n = won, and m = 4 written in. Each is refused and named."""
    result = verdict("07b.1", wrong)
    assert not result.passed and named in result.message, result.message


def test_07d_1_refuses_the_library_s_char_scores():
    from chunklab.evaluation.metrics import char_scores

    result = verdict("07d.1", lambda retrieved, gold: char_scores(retrieved, gold)["char_iou"])
    assert not result.passed
    message = result.message
    assert "char_scores" in message and "merge the spans yourself" in message, message
