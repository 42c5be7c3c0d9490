"""Notebooks 07 and 07b: each exercise refuses the plausible wrong answers, with a hint that names
the mistake, and accepts every correct form (issue 29, item 3)."""

import itertools
import sys

import numpy as np
import pytest
from conftest import ROOT

from chunklab.teaching import answers_experiments, selfcheck
from chunklab.teaching.answers_paired import PAIR, RETRIEVER, paired_in_family, read_pair
from chunklab.teaching.exercises import verdict

sys.path.insert(0, str(ROOT))
from solutions import exercises as solutions  # noqa: E402


def _rr_from_zero(ranked, gold):  # the first position is 0: divides by zero, or 1/(k) one too big
    return next((1 / k for k, ref in enumerate(ranked) if ref in gold), 0.0)


def _rr_last(ranked, gold):
    return next((1 / k for k, ref in reversed(list(enumerate(ranked, 1))) if ref in gold), 0.0)


def _rr_integer(ranked, gold):
    return next((1 // k for k, ref in enumerate(ranked, 1) if ref in gold), 0)


def _rr_share(ranked, gold):
    return sum(ref in gold for ref in ranked) / len(ranked) if ranked else 0.0


def _rr_none_is_one(ranked, gold):
    return next((1 / k for k, ref in enumerate(ranked, 1) if ref in gold), 1.0)


WRONG_RR = {
    _rr_from_zero: "positions count from 1",
    _rr_last: "the first id that is in gold, not the last",
    _rr_integer: "not integer division",
    _rr_share: "not a share of the list",
    _rr_none_is_one: "no id is in gold, so the reciprocal rank is 0.0",
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
        hits = [i for i, ref in enumerate(ranked) if ref in gold]
        return 1 / (hits[0] + 1) if hits else 0

    for fn in (solutions.reciprocal_rank, as_numpy, by_index):
        assert verdict("07.1", fn).passed, verdict("07.1", fn).message


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
def test_07b_1_refuses_each_plausible_wrong_answer_naming_it(wrong):
    result = verdict("07b.1", wrong)
    assert not result.passed
    assert WRONG_IOU[wrong] in result.message, result.message


def test_07b_1_accepts_every_correct_form():
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
        assert verdict("07b.1", fn).passed, verdict("07b.1", fn).message


@pytest.mark.xdist_group("exercise-07.2")
def test_07_2_refuses_wrong_lists_and_accepts_the_right_one(capsys):
    right = selfcheck.SOLUTIONS["07.2"][1]()
    wrong = [
        right[:-1],  # one missed
        [*right, "m03"] if "m03" not in right else right[1:],  # one too many
        [],  # "every window answers something"
    ]
    for answer in wrong:
        selfcheck.check("07.2", answer)
        assert ": correct" not in capsys.readouterr().out
    selfcheck.check("07.2", list(right))
    assert ": correct." in capsys.readouterr().out


@pytest.mark.xdist_group("exercise-07.2")
def test_07_2_names_the_reached_slip(capsys):
    # built on `reached` 0 (the search missed) instead of `answerable` 0 (no chunk could answer)
    unreached = sorted(answers_experiments.fixed_unreached())
    assert unreached != selfcheck.SOLUTIONS["07.2"][1]()
    selfcheck.check("07.2", unreached)
    assert "`answerable` is about the cut" in capsys.readouterr().out


@pytest.mark.xdist_group("exercise-07.2")
def test_07_2_names_another_cut_the_article_set_and_an_empty_list(capsys):
    # structural+'s list, the article's ten questions, and nothing at all: each gets its own hint
    cases = {
        tuple(answers_experiments.unanswerable("structural+")): "that is structural+'s list",
        tuple(answers_experiments.unanswerable("markdown")): "that is markdown's list",
        tuple(answers_experiments.article_fixed_unanswerable()): "the article's ten questions",
        (): "an empty list",
    }
    for answer, named in cases.items():
        selfcheck.check("07.2", list(answer))
        out = capsys.readouterr().out
        assert ": correct" not in out and named in out, out


def _filter_any_k(rows, strategy, retriever, k):
    mine = rows[(rows["strategy"] == strategy) & (rows["retriever"] == retriever)]
    return sorted(set(mine[(mine["complete"] == 1) & (mine["reached"] == 0)]["question"]))


def _filter_any_retriever(rows, strategy, retriever, k):
    mine = rows[(rows["strategy"] == strategy) & (rows["k"] == k)]
    return sorted(set(mine[(mine["complete"] == 1) & (mine["reached"] == 0)]["question"]))


def _filter_strategy_prefix(rows, strategy, retriever, k):
    mine = rows[
        rows["strategy"].str.startswith(strategy)
        & (rows["retriever"] == retriever)
        & (rows["k"] == k)
    ]
    return sorted(set(mine[(mine["complete"] == 1) & (mine["reached"] == 0)]["question"]))


def _filter_touched(rows, strategy, retriever, k):
    mine = rows[
        (rows["strategy"] == strategy) & (rows["retriever"] == retriever) & (rows["k"] == k)
    ]
    return sorted(set(mine[(mine["complete"] == 1) & (mine["touched"] == 0)]["question"]))


def _filter_reversed(rows, strategy, retriever, k):
    mine = rows[
        (rows["strategy"] == strategy) & (rows["retriever"] == retriever) & (rows["k"] == k)
    ]
    return sorted(set(mine[(mine["complete"] == 0) & (mine["reached"] == 1)]["question"]))


def _filter_unsorted(rows, strategy, retriever, k):
    mine = rows[
        (rows["strategy"] == strategy) & (rows["retriever"] == retriever) & (rows["k"] == k)
    ]
    return sorted(set(mine[(mine["complete"] == 1) & (mine["reached"] == 0)]["question"]))[::-1]


def _filter_not_once(rows, strategy, retriever, k):
    mine = rows[
        (rows["strategy"] == strategy) & (rows["retriever"] == retriever) & (rows["k"] == k)
    ]
    return sorted(mine[(mine["complete"] == 1) & (mine["reached"] == 0)]["question"])


def _filter_any_k_not_once(rows, strategy, retriever, k):  # two slips: no k filter, duplicates kept
    mine = rows[(rows["strategy"] == strategy) & (rows["retriever"] == retriever)]
    return sorted(mine[(mine["complete"] == 1) & (mine["reached"] == 0)]["question"])


# Each of the first three gave the notebook's own answer, ['t02'], on the 43 questions: the check
# runs on frames where they do not.
WRONG_FILTERS = {
    _filter_any_k: "keep only the rows at k=",
    _filter_any_retriever: "keep only the rows of retriever",
    _filter_strategy_prefix: "match the strategy exactly",
    _filter_touched: "`reached` 0, not `touched` 0",
    _filter_reversed: "not the reverse",
    _filter_unsorted: "sorted, each once",
    _filter_not_once: "sorted, each once",
    _filter_any_k_not_once: "keep only the rows at k=",
}


@pytest.mark.parametrize("wrong", WRONG_FILTERS, ids=lambda f: f.__name__)
def test_07b_2_refuses_each_wrong_filter_naming_the_slip(wrong):
    result = verdict("07b.2", wrong)
    assert not result.passed
    assert WRONG_FILTERS[wrong] in result.message, result.message


def test_07b_2_accepts_every_correct_form():
    def with_query(rows, strategy, retriever, k):
        found = rows.query("strategy == @strategy and retriever == @retriever and k == @k")
        return sorted(
            found[found.complete.astype(bool) & ~found.reached.astype(bool)].question.unique()
        )

    def by_loop(rows, strategy, retriever, k):
        out = set()
        for r in rows.itertuples():
            if (
                (r.strategy, r.retriever, r.k) == (strategy, retriever, k)
                and r.complete
                and not r.reached
            ):
                out.add(r.question)
        return sorted(out)

    for fn in (solutions.complete_not_reached, with_query, by_loop):
        assert verdict("07b.2", fn).passed, verdict("07b.2", fn).message


@pytest.mark.parametrize("exercise", ["07.1", "07b.1", "07b.2", "08.1", "09.1", "09b.1"])
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


@pytest.mark.xdist_group("exercise-07.2")
def test_07_2_refuses_the_reversed_list_naming_the_order_and_accepts_a_tuple(capsys):
    """The prompt asks for the sorted list: reversing it is the slip, and it is named."""
    right = selfcheck.SOLUTIONS["07.2"][1]()
    selfcheck.check("07.2", list(reversed(right)))
    out = capsys.readouterr().out
    assert ": correct" not in out and "reverse order" in out, out
    selfcheck.check("07.2", set(right))
    assert ": correct" not in capsys.readouterr().out
    selfcheck.check("07.2", tuple(right))
    assert ": correct." in capsys.readouterr().out


def _rr_top_only(ranked, gold):
    return 1.0 if ranked and ranked[0] in gold else 0.0


def _rr_sum(ranked, gold):
    return sum(1 / k for k, ref in enumerate(ranked, 1) if ref in gold)


def _rr_mean(ranked, gold):
    found = [1 / k for k, ref in enumerate(ranked, 1) if ref in gold]
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


@pytest.mark.xdist_group("exercise-07.2")
def test_07_2_names_repeated_ids_and_answerable_not_complete_without_the_length():
    right = selfcheck.SOLUTIONS["07.2"][1]()
    repeated = selfcheck.verdict_for("07.2", sorted(right * 12))
    assert "more than once" in repeated and str(len(right)) + " " not in repeated.split("]):")[1]
    extra = sorted({*right, next(f"w{n:02d}" for n in range(1, 20) if f"w{n:02d}" not in right)})
    assert "`answerable` asks" in selfcheck.verdict_for("07.2", extra)


def test_07_1_top_only_hint_says_nothing_of_integer_division():
    """A float answer that scores only the top hit is told that, and only that."""
    result = verdict("07.1", _rr_top_only)
    message = result.message
    assert "not only the top one" in message and "integer" not in message, message


@pytest.mark.xdist_group("exercise-07.2")
def test_07_2_names_the_union_over_strategies_and_never_the_expected_length():
    """A list collected over every strategy is told to filter fixed_size; a list of the wrong
    length is told what is wrong with its ids, never how many are expected."""
    from chunklab.teaching.answers_experiments import unanswerable_by_other_strategies

    right = selfcheck.SOLUTIONS["07.2"][1]()
    union = sorted(set(right) | unanswerable_by_other_strategies())
    assert union != right
    assert "strategy == 'fixed_size'" in selfcheck.verdict_for("07.2", union)
    answerable = next(f"p{n:02d}" for n in range(1, 20) if f"p{n:02d}" not in right)
    for wrong in (right[:-1], right[1:], [*right[:-1], answerable], [*right[:-2], answerable]):
        message = selfcheck.verdict_for("07.2", sorted(wrong))
        assert ": correct" not in message
        assert f" {len(right)} " not in message and "are asked" not in message, message


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
def test_07b_1_names_dice_and_repeated_gold_apart_from_recall(wrong, named):
    """Both were told 'the recall and the precision here' on the one case that set them apart."""
    result = verdict("07b.1", wrong)
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


def test_07b_1_names_the_merge_without_sorting_and_the_pair_out_of_order():
    message = verdict("07b.1", _iou_merged_without_sorting).message
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


def test_07b_1_names_a_merge_that_forgets_max():
    message = verdict("07b.1", _iou_merged_without_max).message
    assert "must not shorten it" in message and "max(end, previous_end)" in message, message


@pytest.mark.xdist_group("exercise-07.2")
def test_07_2_names_fact_recall_and_a_missing_id():
    """A list built on `fact_recall` below 1 is told so; a list one id short is told an id is
    missing, not to take every question."""
    right = selfcheck.SOLUTIONS["07.2"][1]()
    for k, short in answers_experiments.fixed_short_of_facts().items():
        if list(short) != right:
            message = selfcheck.verdict_for("07.2", list(short))
            assert "`fact_recall`" in message and f"k={k}" in message, message
    message = selfcheck.verdict_for("07.2", right[1:])
    assert "an id is missing" in message and "every question" not in message, message


def test_07b_1_refuses_a_set_of_positions_on_long_spans_naming_it():
    def by_set(retrieved, gold):  # right on every small case; a set of a million positions
        r = {i for a, b in retrieved for i in range(a, b)}
        g = {i for a, b in gold for i in range(a, b)}
        return len(r & g) / len(r | g) if r | g else 0.0

    result = verdict("07b.1", by_set)
    assert not result.passed
    assert "a set of character positions is too large" in result.message, result.message


def test_07b_1_refuses_a_mask_of_positions_by_the_memory_it_allocates():
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

    result = verdict("07b.1", by_mask)
    assert not result.passed
    assert "it allocated" in result.message and "MB" in result.message, result.message
    assert "a mask of them" in result.message, result.message  # named as a mask, not only a set


@pytest.mark.xdist_group("exercise-07.2")
def test_07_3_names_markdown_in_place_of_markdown_lin_and_k_1():
    from chunklab.teaching.answers_paired import AMONG_THREE, RETRIEVER, read_pair

    plain = read_pair(RETRIEVER, AMONG_THREE, ("markdown", "fixed_size"))
    at_one = read_pair(RETRIEVER, AMONG_THREE, k=1)
    assert "that is `markdown`" in selfcheck.verdict_for("07.3", plain)
    assert "that is k=1" in selfcheck.verdict_for("07.3", at_one)


@pytest.mark.xdist_group("exercise-07.2")
def test_07_3_names_the_path_twin_and_k_5():
    """A fresh reader's two slips: the `+path` twin of markdown-lin, and reading at k = 5."""
    from chunklab.teaching.answers_paired import AMONG_THREE, PAIR, RETRIEVER, read_pair

    twin = read_pair(RETRIEVER, AMONG_THREE, (f"{PAIR[0]}+path", PAIR[1]))
    at_five = read_pair(RETRIEVER, AMONG_THREE, k=5)
    for answer, hint in [(twin, "that is `markdown-lin+path`"), (at_five, "that is k=5")]:
        assert answer != selfcheck.SOLUTIONS["07.3"][1]()
        message = selfcheck.verdict_for("07.3", answer)
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


def test_07b_1_names_unmerged_gold_and_a_union_without_the_overlap_subtracted():
    assert "merge the gold spans too" in verdict("07b.1", _iou_gold_unmerged).message
    message = verdict("07b.1", _iou_union_as_sum).message
    assert "subtract the shared characters once" in message, message


def test_07_3_names_the_uncorrected_verdict_the_totals_and_the_reversed_pair():
    won, lost, low, verdict = paired_in_family()
    assert selfcheck.verdict_for("07.3", (won, lost, low, verdict)).endswith("correct.")
    at_005 = read_pair(RETRIEVER, 95.0)
    assert "read at a looser level" in selfcheck.verdict_for("07.3", at_005)
    reversed_pair = (lost, won, -low, verdict)
    assert "fixed_size against markdown-lin" in selfcheck.verdict_for("07.3", reversed_pair)
    assert "compare's words" in selfcheck.verdict_for("07.3", (won, lost, low, "not shown"))
    found = _fixed_rows(RETRIEVER, PAIR, ks=(3,))
    total = {s: int(sum(r["complete"] for r in found if r["strategy"] == s)) for s in PAIR}
    totals = (total[PAIR[0]], total[PAIR[1]], low, verdict)
    assert "two cuts' totals" in selfcheck.verdict_for("07.3", totals)


def test_07_3_refuses_a_verdict_read_at_another_family_or_guessed_without_the_level():
    """The verdict alone passed at any level stricter than 0.05: the interval's low end shows the
    level, so 0.05 / 36, and 'no difference shown' guessed beside the 0.05 interval, are refused."""
    won, lost, low, verdict = paired_in_family()
    assert "won, lost, low, verdict" in selfcheck.verdict_for("07.3", (won, lost, verdict))
    strict = read_pair(RETRIEVER, 100 - 5 / 36)
    assert strict[3] == verdict and strict[2] != low
    assert "0.05 / 36" in selfcheck.verdict_for("07.3", strict)
    guessed = (*read_pair(RETRIEVER, 95.0)[:3], verdict)
    assert "at 0.05 / 3" in selfcheck.verdict_for("07.3", guessed)


def test_07_1_integer_division_hint_names_only_that_slip():
    """`1 // position` scores every position; its hint says integer division and nothing else."""
    message = verdict("07.1", _rr_integer).message
    assert "not integer division" in message and "top one" not in message, message


def test_07_3_names_worse_for_a_pair_that_wins_more_than_it_loses():
    won, lost, low, _ = paired_in_family()
    message = selfcheck.verdict_for("07.3", (won, lost, low, "worse"))
    assert "'worse' would say markdown-lin completes fewer" in message, message


def _filter_unique_array(rows, strategy, retriever, k):  # the right ids, as pandas' StringArray
    chosen = rows[(rows.strategy == strategy) & (rows.retriever == retriever) & (rows.k == k)]
    return chosen[(chosen.complete == 1) & (chosen.reached == 0)].question.sort_values().unique()


def _filter_series(rows, strategy, retriever, k):  # the right ids, sorted, once, as a Series
    chosen = rows[(rows.strategy == strategy) & (rows.retriever == retriever) & (rows.k == k)]
    ids = chosen[(chosen.complete == 1) & (chosen.reached == 0)].question
    return ids.drop_duplicates().sort_values().reset_index(drop=True)


@pytest.mark.parametrize("wrong", [_filter_unique_array, _filter_series], ids=["unique", "series"])
def test_07b_2_names_the_type_when_the_ids_are_right(wrong):
    result = verdict("07b.2", wrong)
    assert not result.passed
    assert "the right ids, as a" in result.message and "each once" not in result.message, (
        result.message
    )


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


@pytest.mark.xdist_group("exercise-07.2")
def test_07_2_names_complete_for_a_list_built_on_complete_at_each_k():
    """A list of the fixed_size questions BM25 does not complete at k names `complete`, the slip
    made, even where it is the same list as `fact_recall` below 1 (at k=1)."""
    found = _fixed_rows("bm25")
    for k in (1, 3, 5):
        short = sorted(r["question"] for r in found if r["k"] == k and not r["complete"])
        message = selfcheck.verdict_for("07.2", short)
        assert ": correct" not in message and "`complete` 0 at k=" + str(k) in message, message


@pytest.mark.xdist_group("exercise-07.2")
def test_07_3_names_better_read_at_0_05_alone():
    """Right counts and low end with "better": the sign test read at 0.05, not at 0.05 / 3."""
    won, lost, low, _ = paired_in_family()
    message = selfcheck.verdict_for("07.3", (won, lost, low, "better"))
    assert "against 0.05 / 3" in message, message


@pytest.mark.xdist_group("exercise-07.2")
def test_07_2_shape_hint_does_not_give_the_length_away():
    """A set of the ids (another collection) is refused without saying how many ids are asked."""
    right = selfcheck.SOLUTIONS["07.2"][1]()
    message = selfcheck.verdict_for("07.2", set(right))
    assert "not quite" in message and f"{len(right)} items" not in message, message
