"""Exercises 11.1 (cAST's merge of siblings), 11.2 (functions cut), 11b.1 (one question scored
on lines) and 11c.1 (a family read as one): plausible wrong answers are refused, each with the
hint that names its slip, and the reference solutions pass."""

import sys

import pytest
from conftest import ROOT

from chunklab.teaching.exercises import verdict
from chunklab.teaching.exercises_code import check_merge_siblings, merged

sys.path.insert(0, str(ROOT))
from solutions.exercises import functions_cut, merge_siblings  # noqa: E402


def merge_strict(sizes, budget):
    """`<` where the budget allows equality: a group that fills the budget exactly is split."""
    groups, total = [], 0
    for i, size in enumerate(sizes):
        if groups and total + size < budget:
            groups[-1].append(i)
            total += size
        else:
            groups.append([i])
            total = size
    return groups


def merge_closing_at_two(sizes, budget):
    """Greedy and within the budget, but every group closed at two siblings."""
    groups, total = [], 0
    for i, size in enumerate(sizes):
        if groups and len(groups[-1]) < 2 and total + size <= budget:
            groups[-1].append(i)
            total += size
        else:
            groups.append([i])
            total = size
    return groups


def merge_dropping_oversized(sizes, budget):
    """Leaves out a unit bigger than the budget: code lost in silence."""
    return [g for g in merge_siblings(sizes, budget) if not (len(g) == 1 and sizes[g[0]] > budget)]


def merge_best_fit(sizes, budget):
    """Bin packing, biggest first: fewer groups, but not adjacent siblings in file order."""
    groups: list[list[int]] = []
    for i in sorted(range(len(sizes)), key=lambda i: -sizes[i]):
        for group in groups:
            if sum(sizes[j] for j in group) + sizes[i] <= budget:
                group.append(i)
                break
        else:
            groups.append([i])
    return groups


def merge_joining_oversized(sizes, budget):
    """Joins an oversized unit to the group before it."""
    groups, total = [], 0
    for i, size in enumerate(sizes):
        if groups and (total + size <= budget or size > budget):
            groups[-1].append(i)
            total += size
        else:
            groups.append([i])
            total = size
    return groups


def cut_strict(functions, chunks):
    """`<` for `<=`: a chunk that starts or ends exactly where the function does is not whole."""
    return sum(1 for a, b in functions if not any(s < a and b < e for s, e in chunks))


def cut_counting_pieces(functions, chunks):
    """Counts the pieces of each function cut, not the functions."""
    pieces = [sum(1 for s, e in chunks if s < b and a < e) for a, b in functions]
    return sum(p for p in pieces if p > 1)


def cut_counting_starts(functions, chunks):
    """Counts chunk starts inside functions: a function cut twice counts twice."""
    return sum(1 for a, b in functions for s, _ in chunks if a < s < b)


def merge_the_example(sizes, budget):
    """Returns the prompt's example answer, whatever the input."""
    return [[0, 1], [2]]


def merge_fixed_pairs(sizes, budget):
    """Groups siblings two by two, whatever their sizes."""
    return [list(range(i, min(i + 2, len(sizes)))) for i in range(0, len(sizes), 2)]


def cut_meeting_several(functions, chunks):
    """A function is cut when it meets more than one chunk: misses one running into a gap."""
    return sum(1 for a, b in functions if sum(1 for s, e in chunks if s < b and a < e) > 1)


def cut_chunk_starts_inside(functions, chunks):
    """A function is cut when a chunk starts inside it: misses one whose end falls in a gap."""
    return sum(1 for a, b in functions if any(a < s < b for s, _ in chunks))


def merge_starting_with_an_empty_group(sizes, budget):
    """Starts from `groups = [[]]`: the first group stays empty when the first unit is too big."""
    groups, total = [[]], 0
    for i, size in enumerate(sizes):
        if total + size <= budget:
            groups[-1].append(i)
            total += size
        else:
            groups.append([i])
            total = size
    return groups


def cut_counting_whole(functions, chunks):
    """The reverse count: the functions some chunk holds whole."""
    return len(functions) - functions_cut(functions, chunks)


def cut_with_the_library(functions, chunks):
    """Calls the library's own count, which the prompt forbids."""
    from chunklab.teaching.code_search import cut_definitions

    return len(cut_definitions(functions, chunks))


def merge_from_the_right(sizes, budget):
    """Greedy from the last sibling, each group's indices in the order they were met."""
    groups, total = [], 0
    for i in range(len(sizes) - 1, -1, -1):
        if groups and total + sizes[i] <= budget:
            groups[-1].append(i)
            total += sizes[i]
        else:
            groups.append([i])
            total = sizes[i]
    return groups


def merge_returning_sizes(sizes, budget):
    """The right groups, each as its units' sizes rather than their indices."""
    return [[sizes[i] for i in group] for group in merge_siblings(sizes, budget)]


def cut_only_by_a_boundary_inside(functions, chunks):
    """A function is cut when a chunk starts or ends strictly inside it: misses a function lying
    wholly in a gap that no chunk touches."""
    return sum(1 for a, b in functions if any(a < s < b or a < e < b for s, e in chunks))


def cut_as_a_share(functions, chunks):
    """The share of functions cut, not their count."""
    return functions_cut(functions, chunks) / len(functions) if functions else 0


def merge_joining_empty_units(sizes, budget):
    """An empty unit is always joined to the group before it, even an oversized one."""
    groups, total = [], 0
    for i, size in enumerate(sizes):
        if groups and (total + size <= budget or size == 0):
            groups[-1].append(i)
            total += size
        else:
            groups.append([i])
            total = size
    return groups


def family_read_at_95(budget):
    """Each comparison of the family read at 95%, as if it were the only one drawn."""
    from chunklab.teaching.exercises_code_family import bm25_family, shown_better

    pairs = bm25_family(budget, level=95.0)
    return len(pairs), list(shown_better(pairs))


WRONG_11 = {
    "11.1": merge_strict,
    "11.2": cut_strict,
    "11c.1": family_read_at_95,
    "11b.1": lambda text, gold, top: [],  # no line split
}


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (merge_strict, "the test is `<=`, not `<`"),
        (merge_dropping_oversized, "never dropped"),
        (merge_best_fit, "merge only adjacent siblings, in their order"),
        (merge_joining_oversized, "a unit over the budget goes alone"),
        (merge_joining_empty_units, "a unit over the budget goes alone"),
        (merge_the_example, "the prompt's example is one case of many"),
        (merge_fixed_pairs, "not a fixed count of siblings"),
        (merge_closing_at_two, "more than two siblings"),
        (merge_starting_with_an_empty_group, "start with groups = []"),
        (merge_from_the_right, "merge left to right"),
        (merge_returning_sizes, "return each group as the list of its units' indices"),
    ],
)
def test_a_wrong_merge_is_refused_naming_its_slip(wrong, hint):
    result = verdict("11.1", wrong)
    assert not result.passed and hint in result.message, result.message


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (cut_strict, "holds it whole: `<=`"),
        (cut_counting_pieces, "count functions, not pieces or cuts"),
        (cut_counting_starts, "count functions, not pieces or cuts"),
        (cut_meeting_several, "meeting one chunk is not being held whole"),
        (cut_chunk_starts_inside, "a gap is another"),
        (cut_counting_whole, "counts the functions held whole"),
        (cut_with_the_library, "calls chunklab.teaching.code_search.cut_definitions"),
        (cut_as_a_share, "that is the share of functions cut"),
        (cut_only_by_a_boundary_inside, "a function no chunk touches is not held whole either"),
    ],
)
def test_a_wrong_count_is_refused_naming_its_slip(wrong, hint):
    result = verdict("11.2", wrong)
    assert not result.passed and hint in result.message, result.message


def test_the_reference_solutions_pass():
    assert verdict("11.1", merge_siblings).passed
    assert verdict("11.2", functions_cut).passed


def test_11c_1_accepts_the_answer_and_names_each_slip():
    from chunklab.teaching.exercises_code_family import (
        FAMILY_BUDGET,
        bm25_family,
        shown_better,
        tree_family_at_500,
    )
    from solutions.exercises import tree_family

    m, shown = tree_family_at_500()
    assert (m, list(shown)) == tree_family(
        FAMILY_BUDGET
    )  # the reference solution computes the same
    at_95 = shown_better(bm25_family(level=95.0))
    assert sorted(at_95) != sorted(shown), (
        "at this budget the 95% reading must differ from the family's"
    )
    slips = {
        (m, at_95): "that reads each comparison at 95%",
        (1, at_95): "that reads each comparison at 95%",
        (m, tuple(reversed(at_95))): "that reads each comparison at 95%",  # any order
        (2 * m, shown): "m counts the comparisons the question draws",
        (1, shown): "m counts the comparisons the question draws",
        (m, shown_better(bm25_family(200))): "the budget of 200",
        (m, shown_better(bm25_family(metric="recall@5"))): "recall@5 for complete@5",
    }
    for answer, why in slips.items():
        out = verdict("11c.1", lambda budget, answer=answer: answer).message
        assert "correct" not in out and why in out, (answer, out)

    def solved(budget, kind):  # the reference's method on the scores bm25_family keeps: seconds
        pairs = bm25_family(budget)  # less a run; its compare calls still drawn, watched, stretched
        return len(pairs), kind(other for other, pair in pairs.items() if pair.verdict == "better")

    for kind in (list, set, tuple):  # any collection of the cuts, in any order
        out = verdict("11c.1", lambda b, kind=kind: solved(b, kind)).message
        assert out.startswith("Exercise 11c.1: correct"), (kind, out)
    out = verdict("11c.1", lambda budget: (m, list(shown))).message  # a fixed answer, right at 500
    assert "at 200 tokens" in out and "correct" not in out, out


def test_11_1_accepts_groups_given_as_tuples():
    # a group of indices as a tuple is the same answer as a list; only the content is checked
    def as_tuples(sizes, budget):
        return [tuple(g) for g in merged(sizes, budget)]

    assert check_merge_siblings(as_tuples) > 0


# --- the library routes: the job done by a chunklab function the learner was shown elsewhere ----


def merge_with_repack(sizes, budget):
    """cAST's merge handed to notebook 02's `repack`: the sizes laid end to end as spans, merged
    by the library, mapped back to indices. Right answers, but the merge is the library's."""
    from chunklab.chunkers.structural import repack

    ends = [sum(sizes[: i + 1]) for i in range(len(sizes))]
    spans = [(end - size, end) for end, size in zip(ends, sizes, strict=True)]
    return [
        [i for i, s in enumerate(spans) if a <= s[0] and s[1] <= b]
        for a, b in repack(spans, budget)
    ]


def cut_with_answer_inside(functions, chunks):
    """The count handed to companion 03b's `answer_inside` (is an excerpt inside one piece?)."""
    from types import SimpleNamespace

    from chunklab.teaching.excerpt_inside import answer_inside

    handed = [SimpleNamespace(start=a, end=b) for a, b in chunks]
    return sum(1 - answer_inside(handed, [f]) for f in functions)


def test_the_library_routes_are_refused_naming_the_call():
    result = verdict("11.1", merge_with_repack)
    assert not result.passed and "calls chunklab.chunkers.structural.repack" in result.message
    result = verdict("11.2", cut_with_answer_inside)
    assert (
        not result.passed
        and "calls chunklab.teaching.excerpt_inside.answer_inside" in result.message
    )


def merge_recounting(sizes, budget):
    """A second correct 11.1: the group's total summed afresh each time, groups as tuples."""
    groups = []
    for i in range(len(sizes)):
        if groups and sum(sizes[j] for j in groups[-1]) + sizes[i] <= budget:
            groups[-1] = (*groups[-1], i)
        else:
            groups.append((i,))
    return groups


def cut_by_loops(functions, chunks):
    """A second correct 11.2: explicit loops and a flag, chunks as lists."""
    count = 0
    for start, end in functions:
        whole = False
        for s, e in chunks:
            if s <= start and end <= e:
                whole = True
        if not whole:
            count += 1
    return count


def test_correct_answers_written_another_way_pass():
    assert verdict("11.1", merge_recounting).passed
    assert verdict("11.2", cut_by_loops).passed


def merge_leaving_the_last_group_open(sizes, budget):
    """Closes a group only when the next unit does not fit: the last group is never appended."""
    return merge_siblings(sizes, budget)[:-1]


def merge_one_based(sizes, budget):
    """The right groups, with indices counted from 1."""
    return [[i + 1 for i in group] for group in merge_siblings(sizes, budget)]


def cut_returning_the_list(functions, chunks):
    """The functions cut, not how many."""
    return [(a, b) for a, b in functions if not any(s <= a and b <= e for s, e in chunks)]


def cut_testing_the_start_only(functions, chunks):
    """A function is whole when its start lies in a chunk, whatever its end."""
    return sum(1 for a, b in functions if not any(s <= a < e for s, e in chunks))


@pytest.mark.parametrize(
    ("task", "wrong", "hint"),
    [
        ("11.1", merge_leaving_the_last_group_open, "the last group is left open"),
        ("11.1", merge_one_based, "indices count from 0"),
        ("11.2", cut_returning_the_list, "return how many, len(...)"),
        ("11.2", cut_testing_the_start_only, "must hold the other end too"),
    ],
)
def test_a_predictable_slip_gets_its_own_hint(task, wrong, hint):
    result = verdict(task, wrong)
    assert not result.passed and hint in result.message, result.message


def test_11c_1_names_a_family_of_seven_and_a_cut_too_many():
    from chunklab.teaching.exercises_code_family import (
        bm25_family,
        shown_better,
        tree_family_at_500,
    )

    m, shown = tree_family_at_500()
    at_95 = shown_better(bm25_family(level=95.0))  # a cut too many that is not the 95% reading
    other = next(c for c in bm25_family() if c not in shown and c not in at_95)
    for answer, why in {
        (m + 1, shown): "m counts the comparisons the question draws",
        (m, (*shown, other)): "is not 'better' at 100 - 5/m",
    }.items():
        out = verdict("11c.1", lambda budget, answer=answer: answer).message
        assert "correct" not in out and why in out, (answer, out)


def test_11c_1_prompt_leaves_m_to_count():
    import json

    cells = json.loads((ROOT / "notebooks" / COMPANION).read_text())["cells"]
    prompt = next("".join(c["source"]) for c in cells if "**11c.1" in "".join(c["source"]))
    assert "six comparisons" not in prompt and "all six" not in prompt


COMPANION = "11c_tree_peers_and_read_limit.ipynb"  # the notebook that holds 11c.1 and its family


def _notebook_m():
    """11c's family of the peers, its size as the stored output prints it ("the peers: m = 20
    comparisons")."""
    import json
    import re

    cells = json.loads((ROOT / "notebooks" / COMPANION).read_text())["cells"]
    printed = "".join(
        "".join(o.get("text", "")) for c in cells if c["cell_type"] == "code" for o in c["outputs"]
    )
    return int(re.search(r"the peers: m = (\d+) comparisons", printed).group(1))


def test_11c_1_names_the_notebooks_own_level_and_family_sizes():
    """(6, []) is m counted right but read at 11c's level for its peers (m = 20, as 11c prints it):
    the hint names the level to use instead; (20, []) and (12, []) are 11c's family of the peers and
    six cuts with both retrievers: each hint names that slip."""
    from chunklab.teaching.exercises_code_family import (
        bm25_family,
        shown_better,
        tree_family_at_500,
    )

    m, _ = tree_family_at_500()
    notebook_m = _notebook_m()
    at_notebook = shown_better(bm25_family(level=100 - 5 / notebook_m))
    for answer, why in {
        (
            m,
            at_notebook,
        ): f"read at 11c's level for the peers (m = {notebook_m}), not at level=100 - 5/{m}",
        (notebook_m, at_notebook): f"{notebook_m} counts every line of 11c's family of the peers",
        (12, ()): "12 counts the six other cuts with both retrievers",
    }.items():
        out = verdict("11c.1", lambda budget, answer=answer: answer).message
        assert "correct" not in out and why in out, (answer, out)


def family_read_on_the_interval_alone(budget):
    """The family's level, but a cut kept when its interval excludes 0, the sign test ignored."""
    from chunklab.teaching.exercises_code_family import bm25_family

    pairs = bm25_family(budget)
    return len(pairs), [other for other, pair in pairs.items() if pair.low > 0]


def test_11c_1_an_interval_only_verdict_is_told_of_the_sign_test():
    result = verdict("11c.1", family_read_on_the_interval_alone)
    assert not result.passed and "sign test" in result.message, result.message
    assert "p below 0.05/m" in result.message, result.message  # a p-value, not the level's percent


def test_11c_1_pass_line_does_not_call_the_named_budgets_unseen():
    """The prompt names both budgets the check runs, so its pass line says what they were."""
    from solutions.exercises import tree_family

    result = verdict("11c.1", tree_family)
    assert result.passed and "had not seen" not in result.message, result.message
    assert "500 tokens and at 200" in result.message, result.message


def family_read_at_seven(budget):
    """m = 6 returned, but each comparison read at 100 - 5/7: the cuts counted with the tree."""
    from chunklab.teaching.exercises_code_family import bm25_family, shown_better

    pairs = bm25_family(budget, level=100 - 5 / 7)
    return len(pairs), list(shown_better(pairs))


def family_by_the_sign_test_alone(budget):
    """compare at the family's level, but a cut kept when its sign test clears 0.05/m."""
    from chunklab.teaching.exercises_code_family import bm25_family

    pairs = bm25_family(budget)
    m = len(pairs)
    return m, [other for other, c in pairs.items() if c.won > c.lost and c.p_value < 0.05 / m]


def family_by_the_sign_test_by_hand(budget):
    """No compare at all: won and lost counted, the sign test read at 0.05/m, no interval."""
    from chunklab.documents.series import data_dir
    from chunklab.retrieval.retrievers import BM25Retriever
    from chunklab.teaching.claims import sign_test
    from chunklab.teaching.code_search import corpus, cut_corpus, experiment_cuts, score_cut

    files, questions = corpus(data_dir() / "code" / "toolz")
    scored = {
        label: score_cut(files, cut_corpus(files, split), questions, BM25Retriever())["complete@5"]
        for label, split in experiment_cuts(budget).items()
    }
    tree, others = scored.pop("chunklab code"), scored
    shown = []
    for other, theirs in others.items():
        won = sum(a > b for a, b in zip(tree, theirs, strict=True))
        lost = sum(a < b for a, b in zip(tree, theirs, strict=True))
        if won > lost and sign_test(won, lost) < 0.05 / len(others):
            shown.append(other)
    return len(others), shown


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (family_read_at_seven, "read at 99.29% (100 - 5/7)"),
        (family_by_the_sign_test_alone, "your cuts follow the sign test alone"),
        (family_by_the_sign_test_by_hand, "not the sign test alone"),
    ],
)
def test_11c_1_the_right_cuts_read_the_wrong_way_are_refused(wrong, hint):
    """Each returns the right (m, cuts) at 500 and at 200, so the old check passed it; the check
    now reads the level of each compare call, and runs the function with every interval stretched
    to reach 0."""
    result = verdict("11c.1", wrong)
    assert not result.passed and hint in result.message, result.message


def cell_11_copied(text, gold, top):
    """11b's section-1 cell copied with new names: (complete, recall), not the split lines."""

    def whole_lines(a, b):
        out, pos = set(), 0
        for n, line in enumerate(text.split("\n"), 1):
            first, last = pos + len(line) - len(line.lstrip()), pos + len(line.rstrip())
            if line.strip() and a <= first and last <= b:
                out.add(n)
            pos += len(line) + 1
        return out

    lines = whole_lines(*gold)
    held = set().union(*(whole_lines(a, b) for a, b in top))
    return float(lines <= held), len(lines & held) / len(lines)


def test_11b_1_the_section_1_cell_copied_is_refused():
    """It passed the old 11b.1 (section 1's scoring, `line_scores`); the new one asks for the lines
    held only together, which no cell of 11b computes."""
    result = verdict("11b.1", cell_11_copied)
    assert not result.passed and "complete and recall, are not asked here" in result.message


def _split_by(whole, together, keep=lambda line, first, last, gold: True, base=1):
    """11b.1 written with `whole(top, line_start, first, last)` for section 1's rule, `together(
    text, top, line_start, first, last)` for the split-line rule, `keep` for a line of gold."""

    def split_lines(text, gold, top):
        out, pos = [], 0
        for n, line in enumerate(text.split("\n"), base):
            first, last = pos + len(line) - len(line.lstrip()), pos + len(line.rstrip())
            start, pos = pos, pos + len(line) + 1
            if keep(line, first, last, gold) and together(text, top, start, first, last):
                if not whole(top, start, first, last):
                    out.append(n)
        return out

    return split_lines


def _one(top, start, first, last):
    return any(a <= first and last <= b for a, b in top)


def _cover(text, top, start, first, last):
    return all(any(a <= c < b for a, b in top) for c in range(first, last) if not text[c].isspace())


def _gold_line(line, first, last, gold):
    return bool(line.strip()) and gold[0] <= first and last <= gold[1]


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (
            _split_by(lambda *_: False, _cover, _gold_line),
            "a line one chunk holds whole is not split",
        ),
        (_split_by(_one, lambda *_: True, _gold_line), "is missing, not split"),
        (
            _split_by(
                lambda top, s, f, z: any(a <= s and z <= b for a, b in top), _cover, _gold_line
            ),
            "leaves out only its indentation",
        ),
        (
            _split_by(
                _one, _cover, lambda line, f, z, gold: gold[0] <= min(f, z) and max(f, z) <= gold[1]
            ),
            "blank lines are not lines of the function",
        ),
        (_split_by(_one, _cover, _gold_line, base=0), "line numbers count from 1"),
        (
            _split_by(_one, _cover, lambda line, f, z, gold: bool(line.strip())),
            "only the function's lines",
        ),
        (
            lambda text, gold, top: len(_split_by(_one, _cover, _gold_line)(text, gold, top)),
            "not how many",
        ),
        (
            _split_by(
                _one,
                lambda text, top, s, f, z: all(
                    any(a <= c < b for a, b in top) for c in range(f, z)
                ),
                _gold_line,
            ),
            "a gap on the spaces inside a line",
        ),
    ],
)
def test_11b_1_a_wrong_split_rule_is_refused_naming_its_slip(wrong, hint):
    result = verdict("11b.1", wrong)
    assert not result.passed and hint in result.message, result.message


def test_11b_1_covering_only_a_lines_two_ends_is_refused():
    """A line held together when its first and last characters are each in some chunk, the middle
    unchecked: it passed the old 11b.1, whose cases never covered a line's ends without its
    middle."""

    def ends(text, top, start, first, last):
        return any(a <= first < b for a, b in top) and any(a < last <= b for a, b in top)

    result = verdict("11b.1", _split_by(_one, ends, _gold_line))
    assert not result.passed and "is not covering it" in result.message, result.message


def split_by_the_library(text, gold, top):
    """The lines section 1's rule holds, handed to `code_search.code_lines`."""
    from chunklab.teaching.code_search import code_lines

    held = set().union(*(code_lines(text, a, b) for a, b in top))
    return sorted(n for n in code_lines(text, *gold) if n not in held)


def split_by_merging(text, gold, top):
    """A second correct 11b.1: lines as sets of non-blank offsets; one chunk's set against the
    union of all, as numpy-free sets."""
    offsets, pos = {}, 0
    for n, line in enumerate(text.split("\n"), 1):
        offsets[n] = {pos + i for i, ch in enumerate(line) if not ch.isspace()}
        pos += len(line) + 1
    inside = [set(range(a, b)) for a, b in top]
    covered = set().union(*inside)
    gold_chars = set(range(*gold))
    return [
        n
        for n, chars in offsets.items()
        if chars
        and chars <= gold_chars
        and chars <= covered
        and not any(min(chars) >= a and max(chars) < b for a, b in top)
    ]


def test_11b_1_the_library_rule_is_refused_and_correct_answers_pass():
    from solutions.exercises import split_lines

    result = verdict("11b.1", split_by_the_library)
    assert not result.passed and "is the library's line rule" in result.message, result.message
    for right in (split_lines, split_by_merging, lambda *case: tuple(split_lines(*case))):
        result = verdict("11b.1", right)
        assert result.passed, result.message


def test_11b_1_the_right_lines_in_reverse_are_refused():
    """The task asks for the numbers sorted; the old check sorted the answer before comparing, so
    the right lines in reverse passed."""
    from solutions.exercises import split_lines

    result = verdict("11b.1", lambda *case: split_lines(*case)[::-1])
    assert not result.passed and "return them sorted" in result.message, result.message


def _family_read_at(level_of):
    """11c.1's right answer, its compare calls read at `level_of(m)` (three questions here: the
    check reads the level of the call, and a level of 100 - 0.05/m draws 600,000 resamples)."""

    def tree_family(budget):
        from chunklab.teaching.exercises_code_family import tree_family_at_500

        m, shown = tree_family_at_500()
        from chunklab.teaching.claims import compare

        compare([1.0, 0.0, 1.0], [0.0, 0.0, 1.0], level=level_of(m), show=False)
        return m, list(shown)

    return tree_family


@pytest.mark.parametrize(
    ("level_of", "hint"),
    [
        (lambda m: 100 - 0.05 / m, "0.05/m is the sign test's threshold as a fraction"),
        (lambda m: 1 - 0.05 / m, "the level is a percent (95 for a 95% interval)"),
    ],
)
def test_11c_1_a_level_in_the_wrong_unit_is_named(level_of, hint):
    """The old check answered 100 - 0.05/m with 11c's peers' level, recall@5 or the budget of 200,
    and 1 - 0.05/m with its generic hint: neither names the unit."""
    result = verdict("11c.1", _family_read_at(level_of))
    assert not result.passed and hint in result.message, result.message
