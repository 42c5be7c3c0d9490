"""Notebook 03b's exercises refuse plausible wrong answers, each with a hint naming what is wrong,
and accept every correct form of the right one."""

import sys

import pytest
from conftest import ROOT

from chunklab.evaluation.chroma import union as imported_union
from chunklab.teaching.exercises import verdict
from chunklab.teaching.selfcheck import verdict_for

sys.path.insert(0, str(ROOT))
from solutions.exercises import merged_windows  # noqa: E402

# --- 03b.1: the fewest sentences after t03's hit that hold its facts, in tokens ----------------

WRONG_03B_1 = [
    (68, "4 after it) holds 2 of t03's 3 facts"),  # one sentence short: step 5 left out
    (53, "3 after it) holds 2 of t03's 3 facts"),  # 3 after, the notebook's setting on one side
    (10, "0 after it) holds 0"),  # the hit alone
    (82, "one a sentence shorter"),  # one sentence too many
    (197, "5 sentences on each side"),  # the window on both sides
    (128, "on the wrong side"),  # 5 before, none after
    (143, "the notebook's window, 3 sentences each side"),  # the example the section prints
    (89, "approx_tokens, its words × 4/3, or the whole 'Visa and approvals' section's"),
    (5, "how many sentences after the hit"),  # the count, not the tokens
    (6, "how many sentences the window holds"),  # the window's sentence count, hit included
    (84, "includes the sentence before the hit"),  # one sentence before, as well
    (84, "joined the sentences with spaces"),  # the same count: the sentences joined by " "
    (84, "two slips give this count"),  # neither slip stated as the learner's
    (408, "the window's characters (len)"),  # len(text), not tokens
    (67, "the window's words (split)"),  # len(text.split()), not tokens
    (69, "starts one sentence after the hit"),  # the sentence after the hit taken as the first
    (72, "takes 5 after that start"),  # that late start, then 5 more counted on from it
    (105, "to the document's end"),  # run on past step 5 to the policy's last sentence
    (80, "starts a character early"),  # sliced from the line break before the hit
    (169, "before defaults to 3"),  # window(mine, i, after=5): the default before=3 left in place
]


@pytest.mark.parametrize(("answer", "hint"), WRONG_03B_1, ids=repr)
def test_03b_1_refuses_with_a_hint(answer, hint):
    message = verdict_for("03b.1", answer)
    assert "not quite" in message and hint in message, message


def _window_from_scratch():
    """The learner's way: the hit's sentence, then one more after it until all facts are in.
    The policy and the window's (start, end) in it."""
    from chunklab import load_document, load_questions
    from chunklab.evaluation.recall import fact_recall
    from chunklab.retrieval.retrievers import BM25Retriever
    from chunklab.retrieval.sentence_window import sentence_windows

    policy = load_document("travel_policy")
    t03 = next(q for q in load_questions("travel_policy").questions if q.id == "t03")
    sentences = sentence_windows(policy).children
    (hit,) = BM25Retriever().rank(t03.question, sentences, 1)
    i = [c.chunk_id for c in sentences].index(hit.ref_id)
    start = sentences[i].start
    after = next(
        a
        for a in range(1, len(sentences) - i)
        if fact_recall(policy.text[start : sentences[i + a].end], t03.facts) == 1.0
    )
    return policy, start, sentences[i + after].end


def test_03b_1_names_the_whole_section_notebook_03_hands_over():
    """A fresh reader's slip: the cl100k tokens of the section holding the hit, notebook 03's
    parent. On the policy it equals the window's approx_tokens, so the hint names both."""
    from chunklab import approx_tokens, cl100k
    from chunklab.chunkers.markdown import MarkdownChunker

    policy, start, end = _window_from_scratch()
    parents = MarkdownChunker(max_tokens=45, count_tokens=approx_tokens).parents(policy)
    (section,) = [p for p in parents if p.start <= start < p.end]
    assert section.metadata["section"].endswith("Visa and approvals")
    message = verdict_for("03b.1", cl100k(section.text))
    assert "not quite" in message and "the whole 'Visa and approvals' section's cl100k" in message
    both = cl100k(section.text) == approx_tokens(policy.text[start:end])
    assert ("the window's approx_tokens" in message) == both, message


def test_03b_1_accepts_the_window_built_from_scratch():
    from chunklab import cl100k

    policy, start, end = _window_from_scratch()
    answer = cl100k(policy.text[start:end])
    assert verdict_for("03b.1", answer) == "Exercise 03b.1: correct."
    assert verdict_for("03b.1", float(answer)) == "Exercise 03b.1: correct."


# --- 03b.2: merged windows ------------------------------------------------------------------------


def only_overlapping(windows):
    out = []
    for first, last in sorted(windows):
        if out and first <= out[-1][1]:  # misses windows that touch
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


def unsorted(windows):
    out = []
    for first, last in windows:  # in rank order, not document order
        if out and out[-1][0] <= first <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


def no_sort(windows):
    out = []
    for first, last in windows:  # the answer's sweep, the sort forgotten
        if out and first <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


def not_merged(windows):
    return sorted(set(windows))


def last_sentence_dropped(windows):
    return [(a, b - 1) if b > a else (a, b) for a, b in merged_windows(windows)]


def keeps_first_end(windows):
    out = []
    for first, last in sorted(windows):
        if out and first <= out[-1][1] + 1:
            out[-1] = (out[-1][0], last)  # a window inside another shrinks it
        else:
            out.append((first, last))
    return out


def sorted_by_end(windows):
    out = []
    for first, last in sorted(windows, key=lambda w: (w[1], w[0])):  # by last sentence
        if out and first <= out[-1][1] + 1:
            out[-1] = (min(out[-1][0], first), max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


def sorts_in_place(windows):
    windows.sort()  # the right ranges, but the caller's list is reordered
    return merged_windows(windows)


def across_a_gap(windows):
    out = []
    for first, last in sorted(windows):
        if out and first <= out[-1][1] + 2:  # one sentence between is not touching
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


WRONG_03B_2 = [
    (sorted_by_end, "sort by first sentence"),
    (across_a_gap, "don't merge them"),
    (only_overlapping, "windows that touch"),
    (unsorted, "document order"),
    (no_sort, "sort the windows by their first sentence first"),
    (not_merged, "still in two ranges"),
    (last_sentence_dropped, "the sentences covered changed"),
    (keeps_first_end, "keep the larger end"),
    (sorts_in_place, "changed the list it was given"),
]


@pytest.mark.parametrize(("fn", "hint"), WRONG_03B_2, ids=lambda x: getattr(x, "__name__", ""))
def test_03b_2_refuses_with_a_hint(fn, hint):
    result = verdict("03b.2", fn)
    assert not result.passed and hint in result.message, result.message


@pytest.mark.parametrize(
    "fn",
    [
        merged_windows,
        lambda windows: [list(w) for w in merged_windows(windows)],
        lambda windows: tuple(merged_windows(windows)),
    ],
)
def test_03b_2_accepts_lists_or_tuples(fn):
    assert verdict("03b.2", fn).passed


# --- hints a cold reading found generic --------------------------------------------------------


def half_open(windows):  # the right ranges, each last made exclusive
    return [(first, last + 1) for first, last in merged_windows(windows)]


def test_03b_1_names_two_sentences_too_many():
    assert "so does one 2 sentences shorter" in verdict_for("03b.1", 92)


def test_03b_2_names_an_exclusive_end():
    result = verdict("03b.2", half_open)
    assert not result.passed and "not a half-open range" in result.message, result.message


def overwrites_in_place(windows):  # the right ranges, written back into the caller's list
    windows[:] = merged_windows(windows)
    return list(windows)


def test_03b_2_names_a_list_overwritten_not_sorted():
    """windows[:] = ... is not windows.sort(): the hint names the assignment, not the sort."""
    result = verdict("03b.2", overwrites_in_place)
    assert not result.passed and "windows[:] = ..." in result.message, result.message
    assert "windows.sort() sorts" not in result.message, result.message


# --- 03b.2: the library's own merge, which does the exercise -----------------------------------


def _through_union(windows):  # the notebook imports union: half-open, merged, made inclusive again
    from chunklab.evaluation.chroma import union

    return [(a, b - 1) for a, b in union((a, b + 1) for a, b in windows)]


def _through_the_package(windows):
    from chunklab import evaluation

    return [(a, b - 1) for a, b in evaluation.chroma.union([(a, b + 1) for a, b in windows])]


def _helper_calls_union(windows):
    return _half_open_union(windows)


def _half_open_union(windows):
    from chunklab.evaluation.chroma import union

    return [(a, b - 1) for a, b in union([(a, b + 1) for a, b in windows])]


def _union_as_default(windows, merge=None):
    from chunklab.evaluation import chroma

    return [(a, b - 1) for a, b in (merge or chroma.union)([(a, b + 1) for a, b in windows])]


@pytest.mark.parametrize(
    ("fn", "name"),
    [
        (lambda w: [(a, b - 1) for a, b in imported_union((a, b + 1) for a, b in w)], "union"),
        (lambda w: _through_union(w), "union"),
        (_through_union, "union"),
        (_through_the_package, "union"),
        (_helper_calls_union, "union"),
        (_union_as_default, "union"),
    ],
)
def test_03b_2_refuses_the_library_merge(fn, name):
    """A cold reader passed 03b.2 with the `union` the notebook imports: the merge this
    exercise asks for, done by the library. Refused, naming the call."""
    result = verdict("03b.2", fn)
    assert not result.passed and f"calls the library's {name}" in result.message, result.message


def against_the_first_range(windows):  # the sweep, each window checked against out[0]
    out = []
    for first, last in sorted(windows):
        if out and first <= out[0][1] + 1:
            out[0] = (out[0][0], max(out[0][1], last))
        else:
            out.append((first, last))
    return out


def crashes_on_no_hits(windows):  # the answer, but it reads a first range before the loop
    ordered = sorted(windows)
    out = [ordered[0]]
    for first, last in ordered[1:]:
        if first <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


@pytest.mark.parametrize(
    ("fn", "hint"),
    [
        (against_the_first_range, "against the first range only"),
        (crashes_on_no_hits, "windows = []"),
    ],
)
def test_03b_2_names_the_first_range_and_the_empty_list(fn, hint):
    result = verdict("03b.2", fn)
    assert not result.passed and hint in result.message, result.message
