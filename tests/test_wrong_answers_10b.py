"""Exercise 10b.1 (reciprocal rank fusion by hand, from the retrievers' raw scores): each
plausible wrong method is refused with a hint naming its slip, and any correct fusion passes,
whatever container of scores it builds and however it ranks. Exercise 10b.2: the pair, its 95%
interval and the verdict; the interval at the notebook's family level is named."""

import sys
from collections import defaultdict

import pytest
from conftest import ROOT

from chunklab.teaching.exercises import verdict

sys.path.insert(0, str(ROOT))
from solutions.exercises import fuse  # noqa: E402


def on_rankings(method):
    """A fusion of rankings (the old exercise's form, and notebook 10b's `fused_scores`) given the
    new inputs: each dict ranked best first and cut at the depth, then `method`."""

    def wrong(scored, k, depth):
        return method([sorted(d, key=lambda i: -d[i])[:depth] for d in scored], k)

    wrong.__name__ = method.__name__
    return wrong


def fuse_rankings(rankings, k):
    return fuse([{i: -r for r, i in enumerate(ranking)} for ranking in rankings], k, 10**9)


def _terms(rankings, term):
    out = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            out.setdefault(item, []).append(term(rank))
    return out


def fuse_from_zero(rankings, k):
    return {i: sum(v) for i, v in _terms(rankings, lambda r: 1 / (k + r - 1)).items()}


def fuse_without_constant(rankings, k):
    return {i: sum(v) for i, v in _terms(rankings, lambda r: 1 / r).items()}


def fuse_without_brackets(rankings, k):
    return {i: sum(v) for i, v in _terms(rankings, lambda r: 1 / k + r).items()}


def fuse_by_mean(rankings, k):
    return {i: sum(v) / len(v) for i, v in _terms(rankings, lambda r: 1 / (k + r)).items()}


def fuse_over_all_rankings(rankings, k):
    return {i: sum(v) / len(rankings) for i, v in _terms(rankings, lambda r: 1 / (k + r)).items()}


def fuse_by_product(rankings, k):
    return {i: sum(v) for i, v in _terms(rankings, lambda r: 1 / (k * r)).items()}


def fuse_by_max(rankings, k):
    return {i: max(v) for i, v in _terms(rankings, lambda r: 1 / (k + r)).items()}


def fuse_summing_ranks(rankings, k):
    return {i: float(sum(v)) for i, v in _terms(rankings, lambda r: r).items()}


def fuse_with_60(rankings, k):
    return fuse_rankings(rankings, 60)


def fuse_only_common(rankings, k):
    common = set.intersection(*(set(r) for r in rankings))
    return {i: v for i, v in fuse_rankings(rankings, k).items() if i in common}


def fuse_missing_ranked_last(rankings, k):
    ids = {i for r in rankings for i in r}
    return {
        i: sum(1 / (k + (r.index(i) + 1 if i in r else len(r) + 1)) for r in rankings) for i in ids
    }


def fuse_ranked_from_the_end(rankings, k):
    return fuse_rankings([list(reversed(r)) for r in rankings], k)


def fuse_as_a_list(rankings, k):
    scores = fuse_rankings(rankings, k)
    return sorted(scores, key=lambda i: -scores[i])


def fuse_with_the_library(scored, k, depth):
    from chunklab.retrieval.retrievers import reciprocal_rank_fusion

    return reciprocal_rank_fusion([sorted(d, key=lambda i: -d[i])[:depth] for d in scored])


def fuse_raw_scores(scored, k, depth):
    kept = {i for d in scored for i in sorted(d, key=lambda i: -d[i])[:depth]}
    return {i: sum(d[i] for d in scored if i in d) for i in kept}


def fuse_in_given_order(scored, k, depth):
    return fuse_rankings([list(d)[:depth] for d in scored], k)


def fuse_worst_first(scored, k, depth):
    return fuse_rankings([sorted(d, key=d.get)[:depth] for d in scored], k)


def fuse_every_id(scored, k, depth):
    return fuse(scored, k, 10**9)


def fuse_one_too_deep(scored, k, depth):
    return fuse(scored, k, depth + 1)


def fuse_one_too_shallow(scored, k, depth):
    return fuse(scored, k, depth - 1)


WRONG_10B = {"10b.1": fuse_in_given_order}

SCORE_SLIPS = [
    (fuse_raw_scores, "you added the raw scores"),
    (fuse_in_given_order, "in the order it came in"),
    (fuse_worst_first, "you ranked worst first"),
    (fuse_every_id, "you kept every id"),
    (fuse_one_too_deep, "depth + 1"),
    (fuse_one_too_shallow, "depth - 1"),
]

RANK_SLIPS = [
    (fuse_from_zero, "counted ranks from 0"),
    (fuse_without_constant, "left out the constant"),
    (fuse_without_brackets, "the brackets go round"),
    (fuse_by_mean, "averaged over the rankings"),
    (fuse_over_all_rankings, "divided the sum by the number of rankings"),
    (fuse_by_product, "1 / (k * rank)"),
    (fuse_by_max, "kept the best of the id's terms"),
    (fuse_summing_ranks, "added the ranks themselves"),
    (fuse_with_60, "used 60 whatever k is"),
    (fuse_only_common, "only the ids every ranking holds"),
    (fuse_missing_ranked_last, "just past its end"),
    (fuse_as_a_list, "return a dict"),
]

SLIPS = [
    *SCORE_SLIPS,
    *((on_rankings(f), named) for f, named in RANK_SLIPS),
    (fuse_with_the_library, "calls chunklab's reciprocal_rank_fusion"),
]


def test_10b_1_refuses_the_notebooks_fusion_of_rankings_copied():
    """Notebook 10b's `fused_scores(rankings)` with RRF_K made k: the old answer route. It takes
    rankings, so fed the retrievers' score dicts it reads each dict in its own order."""

    def fused_scores(rankings, k):
        fused = {}
        for ranking in rankings:
            for place, i in enumerate(ranking, start=1):
                fused[i] = fused.get(i, 0.0) + 1 / (k + place)
        return fused

    def copied(scored, k, depth):
        return fused_scores(scored, k)

    result = verdict("10b.1", copied)
    assert not result.passed and "the dicts as they came" in result.message, result.message


@pytest.mark.parametrize("wrong, named", SLIPS, ids=[f.__name__ for f, _ in SLIPS])
def test_10b_1_refuses_each_wrong_method_and_names_its_slip(wrong, named):
    result = verdict("10b.1", wrong)
    assert not result.passed and ": not yet: " in result.message, result.message
    assert named in result.message, result.message


def test_10b_1_the_hint_names_one_slip_on_the_first_case():
    """The first case is built so no two slips give the same scores: each hint is one slip."""
    for wrong, _ in SLIPS[:16]:
        assert "; or " not in verdict("10b.1", wrong).message, wrong.__name__


def fuse_into_a_defaultdict(scored, k, depth):
    fused = defaultdict(float)
    for scores in scored:
        ranked = sorted(scores.items(), key=lambda pair: pair[1], reverse=True)
        for rank, (item, _) in enumerate(ranked):
            if rank < depth:
                fused[item] += 1 / (k + rank + 1)
    return fused


def fuse_with_numpy_argsort(scored, k, depth):
    import numpy as np

    fused = {}
    for scores in scored:
        ids = list(scores)
        order = np.argsort([-scores[i] for i in ids])[:depth]
        for place, j in enumerate(order, start=1):
            fused[ids[j]] = fused.get(ids[j], 0) + 1 / (k + place)
    return fused


@pytest.mark.parametrize("right", [fuse, fuse_into_a_defaultdict, fuse_with_numpy_argsort])
def test_10b_1_accepts_any_correct_fusion(right):
    result = verdict("10b.1", right)
    assert result.passed, result.message


def test_10b_2_refuses_each_known_wrong_pair_naming_its_slip(capsys):
    from chunklab.teaching import selfcheck
    from chunklab.teaching.retriever_checks import FORMS_RETRIEVERS

    right = selfcheck.SOLUTIONS["10b.2"][1]()
    misses = FORMS_RETRIEVERS["10b.2"].misses()
    assert len(misses) >= 5 and right not in misses
    # the cut paired instead of the retriever is named
    assert any("two cuts under BM25" in why for why in misses.values())
    assert any("the cut changed too" in why for why in misses.values())  # the wrong baseline
    # the right counts with a wrong verdict: the verdict needs the interval and the sign test
    assert any(a[:2] == right[:2] and "the verdict not" in why for a, why in misses.items())
    for answer, why in misses.items():
        selfcheck.check("10b.2", answer)
        out = capsys.readouterr().out
        assert "Exercise 10b.2: correct" not in out and why in out, out


def test_10b_2_accepts_the_right_answer_as_a_tuple_a_list_or_unrounded(capsys):
    from chunklab.evaluation.benchmark import dense, evaluate
    from chunklab.evaluation.benchmark_rankers import bm25_ranker, rescore
    from chunklab.evaluation.benchmark_rows import stored_minilm
    from chunklab.evaluation.stored_cuts import stored_cut
    from chunklab.teaching import selfcheck
    from chunklab.teaching.claims import compare

    won, lost, low, high, word = selfcheck.SOLUTIONS["10b.2"][1]()
    minilm = evaluate(stored_cut("markdown 200"), dense(stored_minilm(strict=True)), k=5)
    bm25 = rescore(minilm, bm25_ranker())
    paired = compare(bm25.scores["recall"], minilm.scores["recall"], show=False)  # a learner's own
    unrounded = (paired.won, paired.lost, paired.low, paired.high, paired.verdict)
    for answer in ((won, lost, low, high, word), [won, lost, low, high, word], unrounded):
        selfcheck.check("10b.2", answer)
        assert "Exercise 10b.2: correct" in capsys.readouterr().out


def test_10b_2_names_the_interval_drawn_at_the_family_level(capsys):
    """The verdict alone is the same at 95% and at the notebook's 99.64%; the interval is not, and
    an answer read at the family level, which the prompt says not to use, is named."""
    from chunklab.evaluation.benchmark import dense, evaluate
    from chunklab.evaluation.benchmark_rankers import bm25_ranker, rescore
    from chunklab.evaluation.benchmark_rows import stored_minilm
    from chunklab.evaluation.stored_cuts import stored_cut
    from chunklab.teaching import selfcheck
    from chunklab.teaching.claims import compare

    minilm = evaluate(stored_cut("markdown 200"), dense(stored_minilm(strict=True)), k=5)
    bm25 = rescore(minilm, bm25_ranker())
    family = compare(bm25.scores["recall"], minilm.scores["recall"], show=False, level=100 - 5 / 14)
    answer = (family.won, family.lost, round(family.low, 1), round(family.high, 1), family.verdict)
    selfcheck.check("10b.2", answer)
    out = capsys.readouterr().out
    assert "correct" not in out and "family level" in out and "95%" in out, out


def test_10b_2_family_level_is_the_notebooks():
    """The check names an interval drawn at the family's level, so its level must be the one
    notebook 10b prints: 100 - 5/m with m counted from the notebook's list (14 once BM25's two
    leads were paired, not 13). Read from the stored output: a comparison added there moves it."""
    import json
    import re

    from chunklab.teaching.retriever_checks import FAMILY_LEVEL

    cells = json.loads((ROOT / "notebooks" / "10b_which_retriever.ipynb").read_text())["cells"]
    text = "".join(
        "".join(out.get("text", ""))
        for cell in cells
        if cell["cell_type"] == "code"
        for out in cell["outputs"]
    )
    found = re.search(r"^m = (\d+) comparisons, each interval drawn at ([\d.]+)%", text, re.M)
    assert found, "notebook 10b prints its family's m and level"
    m, printed = int(found[1]), found[2]
    assert FAMILY_LEVEL == 100 - 5 / m and f"{FAMILY_LEVEL:.2f}" == printed, (m, FAMILY_LEVEL)


def test_10b_2_answers_its_question_once_right(capsys):
    """The right pair is told the verdict it leads to: whether BM25's lead holds on this cut."""
    from chunklab.teaching import selfcheck

    selfcheck.check("10b.2", selfcheck.SOLUTIONS["10b.2"][1]())
    out = capsys.readouterr().out
    assert f"{selfcheck.SOLUTIONS['10b.2'][1]()[0]} won" in out
    assert "lead is not shown" in out or "lead holds" in out, out


def test_10b_2_a_verdict_in_capitals_is_told_to_write_compares_word(capsys):
    """'Better' or 'No difference shown' gets the spelling named, for every word alike, so the
    hint does not tell which word is right."""
    from chunklab.teaching import selfcheck

    won, lost, low, high, _ = selfcheck.SOLUTIONS["10b.2"][1]()
    for word in ("Better", "Worse", "No difference shown", "BETTER"):
        selfcheck.check("10b.2", (won, lost, low, high, word))
        out = capsys.readouterr().out
        assert "correct" not in out and "in lower case" in out, out


def fuse_rounded(scored, k, depth):
    return {i: round(v, 6) for i, v in fuse(scored, k, depth).items()}


def test_10b_1_rounded_scores_are_named():
    result = verdict("10b.1", fuse_rounded)
    assert not result.passed and "you rounded the scores" in result.message, result.message


def test_10b_2_names_precision_and_bm25_against_the_hybrid(capsys):
    """Precision splits the questions as IoU does here, so its hint names precision too; BM25
    paired against the hybrid (not MiniLM) is named, not told 'items 1 and 2 are not right'."""
    from chunklab.evaluation.benchmark import dense, evaluate
    from chunklab.evaluation.benchmark_rankers import bm25_ranker, hybrid_ranker, rescore
    from chunklab.evaluation.benchmark_rows import stored_minilm
    from chunklab.evaluation.stored_cuts import stored_cut
    from chunklab.teaching import selfcheck
    from chunklab.teaching.claims import compare

    minilm = evaluate(stored_cut("markdown 200"), dense(stored_minilm(strict=True)), k=5)
    bm25, hybrid = (rescore(minilm, r) for r in (bm25_ranker(), hybrid_ranker(stored_minilm())))
    precision = compare(bm25.scores["precision"], minilm.scores["precision"], show=False)
    selfcheck.check("10b.2", (*_four(precision), "worse"))
    out = capsys.readouterr().out
    assert "correct" not in out and "precision" in out, out
    # the whole hint, not its first half cut off by a string concatenation
    assert "split the questions alike here): the exercise asks recall" in out, out
    pair = compare(bm25.scores["recall"], hybrid.scores["recall"], show=False)
    selfcheck.check("10b.2", (*_four(pair), "no difference shown"))
    out = capsys.readouterr().out
    assert "correct" not in out and "against the hybrid" in out, out


def _four(paired):
    return paired.won, paired.lost, round(paired.low, 1), round(paired.high, 1)


def fuse_then_cut_to_depth(scored, k, depth):
    """Each dict ranked whole and fused, then the fused dict cut to its top `depth`: the depth
    applied in the wrong place."""
    fused = fuse(scored, k, 10**9)
    return {i: fused[i] for i in sorted(fused, key=lambda i: -fused[i])[:depth]}


def cut_each_and_the_fused(scored, k, depth):
    fused = fuse(scored, k, depth)
    return {i: fused[i] for i in sorted(fused, key=lambda i: -fused[i])[:depth]}


@pytest.mark.parametrize("wrong", [fuse_then_cut_to_depth, cut_each_and_the_fused])
def test_10b_1_names_the_depth_cut_made_on_the_fused_result(wrong):
    """Cutting the fused dict to `depth` was told "you kept depth - 1 ids": the slip is where the
    cut is made, not how many ids each ranking keeps."""
    message = verdict("10b.1", wrong).message
    assert "cut the fused result" in message and "depth - 1" not in message, message


@pytest.mark.parametrize(
    "wrong, where",
    [
        (fuse_one_too_deep, "ids yours should not hold"),
        (fuse_every_id, "ids yours should not hold"),
    ],
)
def test_10b_1_the_message_names_the_ids_that_differ(wrong, where):
    """The printed dicts are cut short, so the ids that differ are named before them."""
    message = verdict("10b.1", wrong).message
    assert where in message, message
    named = message.split(where, 1)[1].split(";")[0].split(".")[0]
    assert "'" in named, message


def _learners_pair(bm25_on, minilm_on, level=95.0):
    from chunklab.evaluation.benchmark import dense, evaluate
    from chunklab.evaluation.benchmark_rankers import bm25_ranker, rescore
    from chunklab.evaluation.benchmark_rows import row_cut, stored_minilm
    from chunklab.evaluation.stored_cuts import stored_cut
    from chunklab.teaching.claims import compare

    def minilm(label):
        cut = row_cut(label) if label.startswith("Recursive") else stored_cut(label)
        return evaluate(cut, dense(stored_minilm(strict=True)), k=5)

    bm25 = rescore(minilm(bm25_on), bm25_ranker())
    return compare(
        bm25.scores["recall"], minilm(minilm_on).scores["recall"], show=False, level=level
    )


def test_10b_2_names_bm25_200_reused_against_minilm_on_the_exercises_cut(capsys):
    """Section 2's bm25_200 (BM25 on Recursive 200/0) paired against MiniLM on markdown 200: the
    cut changed too. It got only "items ... of 5 are not right"."""
    from chunklab.teaching import selfcheck

    paired = _learners_pair("Recursive 200/0", "markdown 200")
    selfcheck.check("10b.2", (*_four(paired), paired.verdict))
    out = capsys.readouterr().out
    assert "correct" not in out and "bm25_200" in out and "cut changed too" in out, out


def test_10b_2_names_an_interval_drawn_at_99_percent(capsys):
    from chunklab.teaching import selfcheck

    paired = _learners_pair("markdown 200", "markdown 200", level=99.0)
    selfcheck.check("10b.2", (*_four(paired), paired.verdict))
    out = capsys.readouterr().out
    assert "correct" not in out and "drawn at 99%" in out and "95%" in out, out


def test_10b_2_asks_a_cut_the_notebook_does_not_pair(capsys):
    """markdown 150's pair is printed in section 2: copying it is named, not accepted."""
    from chunklab.teaching import selfcheck

    paired = _learners_pair("markdown 150", "markdown 150")
    selfcheck.check("10b.2", (*_four(paired), paired.verdict))
    out = capsys.readouterr().out
    assert "correct" not in out and "markdown 150's pair" in out, out
    selfcheck.check("10b.2", selfcheck.SOLUTIONS["10b.2"][1]())
    out = capsys.readouterr().out
    assert "at the family's 99.64%" in out and "of the three tried" in out, out


def test_10b_2_names_an_interval_given_in_shares_not_points(capsys):
    """The interval's ends divided by 100 (shares, not points) got only "items 3 and 4 of 5 are
    not right"."""
    from chunklab.teaching import selfcheck

    won, lost, low, high, word = selfcheck.SOLUTIONS["10b.2"][1]()
    selfcheck.check("10b.2", (won, lost, low / 100, high / 100, word))
    out = capsys.readouterr().out
    assert "Exercise 10b.2: correct" not in out and "shares of 1" in out, out


def _fuse_keeping(extra):
    """Each ranking cut at depth + extra (every id when extra is None), then fused."""

    def wrong(scored, k, depth):
        out = defaultdict(float)
        for d in scored:
            ranking = sorted(d, key=lambda i: -d[i])
            for r, i in enumerate(ranking if extra is None else ranking[: depth + extra], 1):
                out[i] += 1 / (k + r)
        return dict(out)

    return wrong


@pytest.mark.parametrize("extra", [None, 1])
def test_10b_1_messages_show_the_differing_ids_in_the_dicts_not_cut_before_them(extra):
    """The answer's dict in the message holds every id it should not (rounded, not cut short)."""
    message = verdict("10b.1", _fuse_keeping(extra)).message
    got = message.split(", got ", 1)[1].split("}: ", 1)[0]
    named = message.split("ids yours should not hold ", 1)[1].split("]", 1)[0]
    for i in (x.strip(" '") for x in named.strip("[").split(",")):
        assert f"'{i}'" in got, message
    assert "…" not in got, message


@pytest.mark.parametrize("wrong, named", SCORE_SLIPS, ids=[f.__name__ for f, _ in SCORE_SLIPS])
def test_10b_1_the_named_slip_comes_before_the_cases_dicts(wrong, named):
    """The case's dicts run to hundreds of characters: the hint naming the slip is read first,
    right after "not yet: ", not at the end after the dumps."""
    message = verdict("10b.1", wrong).message
    after = message.split(": not yet: ", 1)[1]
    assert after.index(named) < after.index("expected {"), message


def test_10b_2_ends_rounded_to_whole_points_are_named(capsys):
    """The right counts and verdict with the interval's ends rounded to integers get a hint that
    names the rounding, not the generic 'items 3 and 4 are not right'."""
    from chunklab.teaching import selfcheck

    won, lost, low, high, word = selfcheck.SOLUTIONS["10b.2"][1]()
    selfcheck.check("10b.2", (won, lost, round(low), round(high), word))
    out = capsys.readouterr().out
    assert "correct" not in out and "whole points" in out, out
