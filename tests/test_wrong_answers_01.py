"""Notebook 01's, 01c's and 01d's exercises refuse the plausible wrong answers, each with a hint
that names what is wrong, and accept every correct form (issue 29: "exercises that cannot be
gamed").

Wrong answers are computed here from the library (the Portuguese manual's overlap, the counts
without overlap, ...), never typed in, so they stay the plausible mistakes when the data changes.
"""

import math
import sys

import numpy as np
import pytest
from conftest import ROOT

from chunklab import FixedSizeChunker, load_document
from chunklab.evaluation.metrics import chunks_with_all, split_lines
from chunklab.teaching import selfcheck
from chunklab.teaching.exercises import verdict

sys.path.insert(0, str(ROOT))
from solutions.exercises import line_windows  # noqa: E402


def expected(exercise):
    return selfcheck.SOLUTIONS[exercise][1]()


def refused(exercise, answer, *hints):
    message = selfcheck.verdict_for(exercise, answer)
    assert "not quite" in message, f"{answer!r} was accepted: {message}"
    for hint in hints:
        assert hint in message, f"{answer!r}: the hint does not say {hint!r}: {message}"
    return message


def accepted(exercise, answer):
    message = selfcheck.verdict_for(exercise, answer)
    assert message.endswith("correct."), f"{answer!r} was refused: {message}"


def splits_at(size):
    doc = load_document("manual")
    return [
        len(split_lines(FixedSizeChunker(size=size, overlap=o).split(doc), doc))
        for o in range(size)
    ]


def test_01d_1_refuses_the_threshold_guess_the_sampled_sweep_and_size_200():
    right = expected("01d.1")
    splits = splits_at(120)
    assert not any(splits[right:]) and splits[right - 1], "not where the lines stay whole"
    first_whole = splits.index(0)
    assert first_whole < right, "keeping lines whole must not be a threshold here"
    refused("01d.1", first_whole, "not where they stay whole")
    sampled = [o for o in range(0, 120, 10) if not any(splits[p] for p in range(o, 120, 10))][0]
    assert sampled != right
    refused("01d.1", sampled, "multiples of 10", "sweep every overlap")
    at_200 = splits_at(200)
    refused("01d.1", max(o for o in range(200) if at_200[o]) + 1, "size 200")
    longest = max(map(len, load_document("manual").text.splitlines()))
    refused("01d.1", longest, "the longest line", "not the smallest")  # 01d section 2's bound
    refused("01d.1", right - 1, "line(s) are still split")
    refused("01d.1", right + 2 if right + 1 == sampled else right + 1, "from a smaller one too")
    refused("01d.1", str(right), "a str", "where an int is asked")
    refused("01d.1", [right], "a list", "where an int is asked")
    for form in (right, float(right), np.int64(right)):
        accepted("01d.1", form)


def _size_for_budget_by_windows(text, budget, count):  # a second correct way: the window loop
    best = 0
    for size in range(1, len(text) + 1):
        spans, start = [], 0
        while start < len(text):
            spans.append((start, min(start + size, len(text))))
            start += size
        if max(count(text[a:b]) for a, b in spans) <= budget:
            best = size
    return best


def _sizes_until(fits):  # the largest size for which `fits(text, size, budget, count)` holds
    return lambda text, budget, count: next(
        (s for s in range(len(text), 0, -1) if fits(text, s, budget, count)), 0
    )


def test_01c_1_is_written_runs_on_unseen_texts_and_names_each_slip():
    from test_exercises import _size_until_first_failure

    from solutions.exercises import size_for_budget

    def code(fn):
        return verdict("01c.1", fn)

    for right in (size_for_budget, _size_for_budget_by_windows):
        assert code(right).passed, code(right).message
    # the old route, an answer read off the notebook (a pair of chunk counts), is refused
    old = code((6, 5))
    assert not old.passed and "pass your function itself" in old.message

    def every(t, s, b, c, last=True):  # every window of size s costs at most b
        return all(c(t[k : k + s]) <= b for k in range(0, len(t) - (0 if last else s - 1), s))

    slips = {
        "the first size that does not fit": _size_until_first_failure,
        "the first window only": _sizes_until(lambda t, s, b, c: c(t[:s]) <= b),
        "the last, shorter window": _sizes_until(lambda t, s, b, c: every(t, s, b, c, False)),
        "'at most' is <=, not <": _sizes_until(lambda t, s, b, c: every(t, s, b - 1, c)),
        "one size too many": lambda t, b, c: size_for_budget(t, b, c) + 1,
        "rule of thumb": lambda t, b, c: 4 * b,
    }
    for hint, wrong in slips.items():
        message = code(wrong).message
        assert ": not yet: " in message and hint in message, (hint, message)


# --- 01.1 (write code): compare_cuts, won/lost/tied from two cuts' spans ------------------------


def _read(cut):  # what a cut hands over: each chunk, and each with the next one as one span
    return [*cut, *((a, d) for (a, _), (_, d) in zip(cut, cut[1:], strict=False))]


def _has(fact, chunk):  # as whole words: no word character just before or after
    import re

    return re.search(r"(?<!\w)" + re.escape(fact) + r"(?!\w)", chunk) is not None


def compare_whole_words(text, cut_a, cut_b, questions):  # a correct answer, returned as a list
    def answered(cut, facts):
        return any(all(_has(f, text[a:b]) for f in facts) for a, b in _read(cut))

    a = [answered(cut_a, q) for q in questions]
    b = [answered(cut_b, q) for q in questions]
    won = sum(x and not y for x, y in zip(a, b, strict=True))
    lost = sum(y and not x for x, y in zip(a, b, strict=True))
    return [won, lost, len(questions) - won - lost]  # a list, not a tuple


def compare_like_the_notebook(text, cut_a, cut_b, questions):  # 01's folded matcher, in pairs
    import re

    from chunklab.tokens.folding import fold

    def scores(cut):
        texts = [fold(text[a:b]) for a, b in _read(cut)]
        return [
            int(
                any(
                    all(re.search(r"(?<!\w)" + re.escape(fold(f)) + r"(?!\w)", t) for f in q)
                    for t in texts
                )
            )
            for q in questions
        ]

    pairs = list(zip(scores(cut_a), scores(cut_b), strict=True))
    return sum(x > y for x, y in pairs), sum(x < y for x, y in pairs), sum(x == y for x, y in pairs)


@pytest.mark.parametrize("right", [compare_whole_words, compare_like_the_notebook])
def test_01_1_accepts_a_correct_compare_cuts_written_two_ways(right):
    result = verdict("01.1", right)
    assert result.passed, result.message


def test_01_1_refuses_the_old_answer_copied_from_a_cell_with_a_number_changed(capsys):
    """An older 01 exercise asked for (size, True or False): the notebook's size sweep re-run on the
    English rendering. That pair, or a function returning it, is no answer now."""
    doc = load_document("manual_en")
    size = next(
        n
        for n in range(100, 801, 10)
        if chunks_with_all(FixedSizeChunker(size=n, overlap=0).split(doc), ["92", "Limit"])
    )
    saved = bool(
        chunks_with_all(FixedSizeChunker(size=size, overlap=0).split(doc), ["0.08", "Limit"])
    )
    selfcheck.check("01.1", (size, saved))
    assert "not yet: pass your function itself" in capsys.readouterr().out
    assert not verdict("01.1", lambda *args: (size, saved)).passed


def _spread(text, cut_a, cut_b, questions):  # each fact from any chunk
    def answered(cut, facts):
        return all(any(_has(f, text[a:b]) for a, b in _read(cut)) for f in facts)

    pairs = [(answered(cut_a, q), answered(cut_b, q)) for q in questions]
    return (
        sum(x and not y for x, y in pairs),
        sum(y and not x for x, y in pairs),
        sum(x == y for x, y in pairs),
    )


def _totals(text, cut_a, cut_b, questions):  # the two totals compared, not question by question
    ta, tb = (
        sum(any(all(_has(f, text[a:b]) for f in q) for a, b in _read(cut)) for q in questions)
        for cut in (cut_a, cut_b)
    )
    return max(ta - tb, 0), max(tb - ta, 0), len(questions) - abs(ta - tb)


def _swapped(text, cut_a, cut_b, questions):
    won, lost, tied = compare_whole_words(text, cut_a, cut_b, questions)
    return lost, won, tied


def _tied_only_both(text, cut_a, cut_b, questions):
    won, lost, _ = compare_whole_words(text, cut_a, cut_b, questions)
    both = sum(
        all(
            any(all(_has(f, text[a:b]) for f in q) for a, b in _read(cut)) for cut in (cut_a, cut_b)
        )
        for q in questions
    )
    return won, lost, both


def _whole_text(text, cut_a, cut_b, questions):  # the facts looked up in the document
    found = [all(f in text for f in q) for q in questions]  # the same for both cuts
    return 0, 0, len(found)


def _any_fact(text, cut_a, cut_b, questions):
    def answered(cut, facts):
        return any(any(_has(f, text[a:b]) for f in facts) for a, b in _read(cut))

    pairs = [(answered(cut_a, q), answered(cut_b, q)) for q in questions]
    return (
        sum(x and not y for x, y in pairs),
        sum(y and not x for x, y in pairs),
        sum(x == y for x, y in pairs),
    )


def _by_the_library(text, cut_a, cut_b, questions):  # chunklab's matcher called, not written
    from chunklab import Chunk

    def chunks(cut):
        return [
            Chunk(
                chunk_id=f"d#{k}",
                doc_id="d",
                ordinal=k,
                text=text[a:b],
                token_count=1,
                start=a,
                end=b,
            )
            for k, (a, b) in enumerate(_read(cut))
        ]

    a = [bool(chunks_with_all(chunks(cut_a), q)) for q in questions]
    b = [bool(chunks_with_all(chunks(cut_b), q)) for q in questions]
    pairs = list(zip(a, b, strict=True))
    return sum(x > y for x, y in pairs), sum(x < y for x, y in pairs), sum(x == y for x, y in pairs)


def _end_inclusive(text, cut_a, cut_b, questions):  # each chunk one character too long
    return compare_whole_words(
        text, [(a, b + 1) for a, b in cut_a], [(a, b + 1) for a, b in cut_b], questions
    )


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (_end_inclusive, "end is exclusive"),
        (_spread, "ONE chunk holds all its facts"),
        (_totals, "compared the two totals"),
        (_swapped, "won and lost are swapped"),
        (_tied_only_both, "the ones neither answers too"),
        (_any_fact, "ALL of a question's facts"),
        (_by_the_library, "calls chunklab.evaluation.metrics.chunks_with_all"),
    ],
    ids=lambda x: getattr(x, "__name__", "hint"),
)
def test_01_1_names_each_slip(wrong, hint):
    result = verdict("01.1", wrong)
    assert not result.passed and hint in result.message, result.message


def _by_library_holds_fact(text, cut_a, cut_b, questions):  # chunklab's matcher, per chunk
    from chunklab.teaching.fact_matching import holds_fact
    from chunklab.tokens.folding import fold

    def scores(cut):
        texts = [fold(text[a:b]) for a, b in _read(cut)]
        return [any(all(holds_fact(f, t) for f in q) for t in texts) for q in questions]

    pairs = list(zip(scores(cut_a), scores(cut_b), strict=True))
    return sum(x > y for x, y in pairs), sum(x < y for x, y in pairs), sum(x == y for x, y in pairs)


def test_01_1_refuses_chunklabs_matcher_called_per_chunk():
    result = verdict("01.1", _by_library_holds_fact)
    assert not result.passed and "fact_matching.holds_fact" in result.message, result.message


def test_01_1_names_the_facts_looked_up_in_the_whole_text():
    result = verdict("01.1", _whole_text)
    assert not result.passed and "in the whole text" in result.message, result.message


def _single_chunks(text, cut_a, cut_b, questions):  # section 2's cells pasted: no chunk pairs
    from chunklab.tokens.folding import fold

    def scores(cut):
        texts = [fold(text[a:b]) for a, b in cut]
        return [int(any(all(_has(fold(f), t) for f in q) for t in texts)) for q in questions]

    pairs = list(zip(scores(cut_a), scores(cut_b), strict=True))
    return sum(x > y for x, y in pairs), sum(x < y for x, y in pairs), sum(x == y for x, y in pairs)


def _reading(spans_of):  # the right count, each cut handed over as `spans_of(cut)` makes it
    def count(text, cut_a, cut_b, questions):
        def answered(cut, facts):
            return any(all(_has(f, text[a:b]) for f in facts) for a, b in spans_of(cut))

        pairs = [(answered(cut_a, q), answered(cut_b, q)) for q in questions]
        return (
            sum(x > y for x, y in pairs),
            sum(x < y for x, y in pairs),
            sum(x == y for x, y in pairs),
        )

    return count


def _glued(text, cut_a, cut_b, questions):  # a chunk with the next one as two texts glued
    def answered(cut, facts):
        texts = [text[a:b] for a, b in cut]
        joined = [*texts, *(x + y for x, y in zip(texts, texts[1:], strict=False))]
        return any(all(_has(f, t) for f in facts) for t in joined)

    pairs = [(answered(cut_a, q), answered(cut_b, q)) for q in questions]
    return sum(x > y for x, y in pairs), sum(x < y for x, y in pairs), sum(x == y for x, y in pairs)


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (_single_chunks, "you counted single chunks only"),
        (_glued, "not the two texts glued"),
        (_reading(lambda cut: _read(cut)[len(cut) :]), "a chunk alone counts too"),
        (
            _reading(
                lambda cut: [
                    *_read(cut),
                    *((a, d) for (a, _), _, (_, d) in zip(cut, cut[1:], cut[2:], strict=False)),
                ]
            ),
            "the NEXT one only",
        ),
    ],
    ids=["single_chunks", "glued", "pairs_only", "both_neighbours"],
)
def test_01_1_refuses_section_2_pasted_and_names_each_misreading_of_the_pairs(wrong, hint):
    """R22 passed 01.1 by pasting section 2's three cells (single chunks): the exercise now reads
    each cut as a retriever handing over a chunk with the next one, which no cell of 01 does, and
    the paste is refused with a hint naming the pairs; so are the pairs glued as two texts (an
    overlap repeated), pairs without the single chunks, and a chunk read with both neighbours."""
    result = verdict("01.1", wrong)
    assert not result.passed and hint in result.message, result.message


# --- 01d.2 (write code): plausible wrong line_windows --------------------------------------------


def no_line_snap(text, size):
    return [(a, min(a + size, len(text))) for a in range(0, len(text), size)]


def first_break(text, size):
    spans, start = [], 0
    while start < len(text):
        stop = min(start + size, len(text))
        if stop < len(text) and (k := text.find("\n", start, stop)) >= 0:
            stop = k + 1
        spans.append((start, stop))
        start = stop
    return spans


def ends_on_the_break(text, size):  # off by one: the break goes to the next window
    spans, start = [], 0
    while start < len(text):
        stop = min(start + size, len(text))
        if stop < len(text) and (k := text.rfind("\n", start, stop)) > start:
            stop = k
        spans.append((start, stop))
        start = stop
    return spans


def skips_the_break(text, size):  # ends at the break and starts the next window after it
    spans, start = [], 0
    while start < len(text):
        stop, after = min(start + size, len(text)), None
        if stop < len(text) and (k := text.rfind("\n", start, stop)) > start:
            stop, after = k, k + 1
        spans.append((start, stop))
        start = stop if after is None else after
    return spans


def snaps_the_last_window(text, size):
    spans, start = [], 0
    while start < len(text):
        stop = min(start + size, len(text))
        if (k := text.rfind("\n", start, stop)) >= 0 and k + 1 < stop:
            stop = k + 1
        spans.append((start, stop))
        start = stop
    return spans


def one_past_the_window(text, size):  # looks one character beyond the window for a break
    spans, start = [], 0
    while start < len(text):
        stop = min(start + size, len(text))
        if stop < len(text) and (k := text.rfind("\n", start, stop + 1)) >= 0:
            stop = k + 1
        spans.append((start, stop))
        start = stop
    return spans


def with_overlap(text, size):  # the notebook's `windows`, snapped, but still stepping back
    spans, start = [], 0
    while start < len(text):
        stop = min(start + size, len(text))
        if stop < len(text) and (k := text.rfind("\n", start, stop)) >= 0:
            stop = k + 1
        spans.append((start, stop))
        if stop == len(text):
            break
        start = max(start + 1, stop - 1)
    return spans


WRONG = [
    no_line_snap,
    first_break,
    ends_on_the_break,
    skips_the_break,
    snaps_the_last_window,
    one_past_the_window,
    with_overlap,
]


@pytest.mark.parametrize("wrong", WRONG, ids=lambda f: f.__name__)
def test_01d_2_refuses_each_plausible_wrong_line_windows(wrong):
    result = verdict("01d.2", wrong)
    assert not result.passed, f"{wrong.__name__} passed"
    assert "window" in result.message and "should be" in result.message, result.message
    assert "size=" in result.message, "the hint names the case it failed"


def as_lists(text, size):
    return [list(span) for span in line_windows(text, size)]


def by_slicing(text, size):
    out, start = [], 0
    while start < len(text):
        window = text[start : start + size]
        cut = window.rfind("\n") + 1 if start + size < len(text) else 0
        out.append((start, start + (cut or len(window))))
        start = out[-1][1]
    return out


@pytest.mark.parametrize("right", [line_windows, as_lists, by_slicing], ids=lambda f: f.__name__)
def test_01d_2_accepts_every_correct_form(right):
    assert verdict("01d.2", right).passed, verdict("01d.2", right).message


def test_01d_1_names_the_wrong_document():
    """The English rendering's answer to 01d.1."""
    english = FixedSizeChunker(size=120, overlap=0)  # 01d.1's size, on the other rendering
    doc = load_document("manual_en")
    at = [
        len(split_lines(FixedSizeChunker(size=120, overlap=o).split(doc), doc)) for o in range(120)
    ]
    english_answer = min(o for o in range(120) if not any(at[o:]))
    assert english.size == 120
    refused("01d.1", english_answer, "English rendering")


def _line_windows_by(text, size, reach, at_the_end):
    """Line windows that look for the break up to `reach` past `size`, or snap the last one too."""
    spans, start = [], 0
    while start < len(text):
        stop = min(start + size, len(text))
        if stop < len(text) or at_the_end:
            last_break = text.rfind("\n", start, min(stop + reach, len(text)))
            if last_break >= start:
                stop = last_break + 1
        spans.append((start, stop))
        start = stop
    return spans


def one_past_size(text, size):  # searches text[start:start + size + 1]: a window can be too long
    return _line_windows_by(text, size, 1, False)


def snaps_the_last_window(text, size):  # the last window ends at its last break, not the end
    return _line_windows_by(text, size, 0, True)


def ends_at_the_break_unless_first(text, size):  # on the break, but past one that opens the window
    spans, start = [], 0
    while start < len(text):
        stop = min(start + size, len(text))
        if stop < len(text) and (k := text.rfind("\n", start, stop)) >= start:
            stop = k if k > start else k + 1
        spans.append((start, stop))
        start = stop
    return spans


@pytest.mark.parametrize(
    ("wrong", "slip"),
    [
        (ends_at_the_break_unless_first, "ends on the line break"),
        (no_line_snap, "never look for a line break"),
        (first_break, "FIRST line break"),
        (ends_on_the_break, "just before the line break"),
        (skips_the_break, "is in no window"),
        (one_past_size, "longer than size"),
        (snaps_the_last_window, "the last window too"),
        (with_overlap, "these have no overlap"),
    ],
    ids=[
        "ends_at_the_break_unless_first",
        "no_line_snap",
        "first_break",
        "ends_on_the_break",
        "skips_the_break",
        "one_past_size",
        "snaps_the_last_window",
        "with_overlap",
    ],
)
def test_01d_2_names_the_common_slips(wrong, slip):
    """A plain window that never looks for a break, the first line break instead of the last,
    the newline left out of the window or skipped between two windows, a window one character
    longer than size, and the rule applied to the last window."""
    assert slip in verdict("01d.2", wrong).message


def _sign_p(won, lost, doubled=True, capped=True):
    tail = sum(math.comb(won + lost, k) for k in range(min(won, lost) + 1)) / 2 ** (won + lost)
    p = 2 * tail if doubled else tail
    return min(1.0, p) if capped else p


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (  # every difference tossed, ties too
            lambda d: _sign_p(sum(x > 0 for x in d), len(d) - sum(x > 0 for x in d)),
            "ties carry no sign",
        ),
        (  # one tail only
            lambda d: _sign_p(sum(x > 0 for x in d), sum(x < 0 for x in d), doubled=False),
            "double it",
        ),
        (  # doubled without the cap: above 1 on an even split
            lambda d: _sign_p(sum(x > 0 for x in d), sum(x < 0 for x in d), capped=False),
            "at most 1",
        ),
        (  # only +1 and -1 counted: the 0.5s and 2s are lost
            lambda d: _sign_p(d.count(1), d.count(-1)),
            "count the signs",
        ),
    ],
)
def test_01b_1_refuses_each_sign_test_slip_naming_it(wrong, hint):
    result = verdict("01b.1", wrong)
    assert not result.passed and hint in result.message, result.message


def test_01b_1_accepts_scipy_style_and_counting_answers():
    from solutions.exercises import sign_test_p

    assert verdict("01b.1", sign_test_p).passed
    assert verdict("01b.1", lambda d: float(sign_test_p(list(np.sign(d))))).passed


def _sign_counts(d):
    return sum(x > 0 for x in d), sum(x < 0 for x in d), sum(x == 0 for x in d)


def _strict_tail(d):  # range(min(won, lost)): the observed split left out of the tail
    won, lost, _ = _sign_counts(d)
    if not won + lost:
        return 1.0
    tail = sum(math.comb(won + lost, k) for k in range(min(won, lost))) / 2 ** (won + lost)
    return min(1.0, 2 * tail)


def _ties_halved(d):  # half the ties to each side
    won, lost, ties = _sign_counts(d)
    return _sign_p(won + ties // 2, lost + ties - ties // 2)


def _no_decisive_zero(d):  # p = 0 when nothing is won or lost
    won, lost, _ = _sign_counts(d)
    return 0.0 if not won + lost else _sign_p(won, lost)


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (_strict_tail, "leaves out the split you saw"),
        (_ties_halved, "nor half each"),
        (_no_decisive_zero, "p is 1, not 0"),
    ],
)
def test_01b_1_names_the_strict_tail_the_halved_ties_and_the_empty_case(wrong, hint):
    result = verdict("01b.1", wrong)
    assert not result.passed and hint in result.message, result.message
    assert "count the signs" not in result.message


def test_01d_1_sampled_sweep_hint_points_below_not_between():
    splits = [
        len(
            split_lines(
                FixedSizeChunker(size=120, overlap=o).split(load_document("manual")),
                load_document("manual"),
            )
        )
        for o in range(120)
    ]
    sampled = min(o for o in range(0, 120, 10) if all(not splits[p] for p in range(o, 120, 10)))
    right = expected("01d.1")
    assert right < sampled and all(not splits[o] for o in range(sampled, 120))
    message = refused("01d.1", sampled, "a smaller overlap between the multiples")
    assert "still splits a line" not in message


def test_01b_2_refuses_the_one_sided_the_no_loss_and_a_larger_count():
    from chunklab.teaching.claims import sign_test

    right = expected("01b.2")
    assert sign_test(right, 1) < 0.05 <= sign_test(right - 1, 1)
    one_sided = next(w for w in range(12) if sign_test(w, 1) / 2 < 0.05)
    assert one_sided != right
    refused("01b.2", one_sided, "one side's tail only")
    no_loss = next(w for w in range(12) if sign_test(w, 0) < 0.05)
    assert no_loss not in (right, one_sided)
    refused("01b.2", no_loss, "the fewest with none lost")
    for larger in (right + 1, right + 2):  # the hint asks for the fewest, never names a count
        message = refused("01b.2", larger, "is it the fewest")
        assert f"try {larger - 1}" not in message and f" {right}" not in message.split(":", 2)[-1]
    refused("01b.2", 12, "at most the 12 questions")
    refused("01b.2", str(right), "a str")
    for form in (right, float(right), np.int64(right)):
        accepted("01b.2", form)


def _lost_side_tail(d):  # the tail always counted on the lost side, not min(won, lost)
    won, lost, _ = _sign_counts(d)
    if not won + lost:
        return 1.0
    return min(1.0, 2 * sum(math.comb(won + lost, k) for k in range(lost + 1)) / 2 ** (won + lost))


def _normal_approximation(d, correction=1):  # z with continuity correction, two-sided
    won, lost, _ = _sign_counts(d)
    if not won + lost:
        return 1.0
    return min(1.0, math.erfc(max(abs(won - lost) - correction, 0) / math.sqrt(2 * (won + lost))))


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (_lost_side_tail, "tail on the lost side"),
        (_normal_approximation, "normal approximation"),
        (lambda d: _normal_approximation(d, correction=0), "normal approximation"),
    ],
)
def test_01b_1_names_the_lost_side_tail_and_the_normal_approximation(wrong, hint):
    result = verdict("01b.1", wrong)
    assert not result.passed and hint in result.message, result.message
    assert "count the signs" not in result.message


def _won_side_tail(d):  # the tail always counted on the won side, k = 0..won
    won, lost, _ = _sign_counts(d)
    if not won + lost:
        return 1.0
    return min(1.0, 2 * sum(math.comb(won + lost, k) for k in range(won + 1)) / 2 ** (won + lost))


def test_01b_1_names_the_won_side_tail():
    result = verdict("01b.1", _won_side_tail)
    assert not result.passed and "tail on the won side" in result.message, result.message
    assert "count the signs" not in result.message


def _one_window_per_line(text, size):  # every line its own window, cut at size if longer
    spans, start = [], 0
    for line in text.splitlines(keepends=True):
        end = start + len(line)
        while start < end:
            spans.append((start, min(start + size, end)))
            start = spans[-1][1]
    return spans


def test_01d_2_names_one_window_per_line():
    assert "one line per window" in verdict("01d.2", _one_window_per_line).message


def test_01b_1_names_nan_on_all_ties_as_nan_not_as_zero():
    """All ties and a p of nan (a 0/0): the hint names the nan, not 'not 0'."""

    def nan_on_all_ties(d):
        won, lost = sum(x > 0 for x in d), sum(x < 0 for x in d)
        if not won + lost:
            return float("nan")
        return _sign_p(won, lost)

    result = verdict("01b.1", nan_on_all_ties)
    assert not result.passed and "a 0/0" in result.message, result.message
    assert "not 0" not in result.message, result.message


def _skips_a_break_at_the_last_character(text, size):  # rfind stops one short of the window's end
    spans, start = [], 0
    while start < len(text):
        stop = min(start + size, len(text))
        if stop < len(text) and (k := text.rfind("\n", start, stop - 1)) >= 0:
            stop = k + 1
        spans.append((start, stop))
        start = stop
    return spans


def test_01d_2_names_a_break_missed_at_the_window_end_not_the_first_break():
    message = verdict("01d.2", _skips_a_break_at_the_last_character).message
    assert "last character is missed" in message and "FIRST" not in message, message


def test_01c_1_covers_no_size_and_the_whole_text():
    """0 when no size fits (not 1, not None); len(text) when the whole text fits, which a range
    stopping at len(text) - 1 never tries, and no size past it."""
    from solutions.exercises import size_for_budget

    slips = {
        "not even one character": lambda t, b, c: size_for_budget(t, b, c) or 1,
        "not None": lambda t, b, c: size_for_budget(t, b, c) or None,
        "try size len(text) too": lambda t, b, c: min(size_for_budget(t, b, c), len(t) - 1),
        "no size is larger than the text": lambda t, b, c: (
            10**6 if size_for_budget(t, b, c) == len(t) else size_for_budget(t, b, c)
        ),
    }
    for hint, wrong in slips.items():
        result = verdict("01c.1", wrong)
        assert not result.passed and hint in result.message, (hint, result.message)


def _fits_every_window(text, size, budget, count, step=None):
    return all(count(text[k : k + size]) <= budget for k in range(0, len(text), step or size))


def test_01c_1_names_bisection_and_overlapping_windows():
    """Two methods that land below the answer get hints naming them, not "size N fits too"."""

    def bisection(text, budget, count):
        lo, hi = 0, len(text)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            lo, hi = (mid, hi) if _fits_every_window(text, mid, budget, count) else (lo, mid - 1)
        return lo

    def overlapped(text, budget, count):  # section 2's windows, overlap 40
        return next(
            (
                s
                for s in range(len(text), 0, -1)
                if _fits_every_window(text, s, budget, count, max(1, s - 40))
            ),
            0,
        )

    for wrong, hint in [(bisection, "a bisection"), (overlapped, "your windows overlap by 40")]:
        result = verdict("01c.1", wrong)
        assert not result.passed and hint in result.message, (hint, result.message)


def test_01d_1_gives_no_direction_for_a_far_guess():
    """A far guess that is no predictable slip gets the method, not "still split" or "from a
    smaller one too": those would let a learner halve their way to the answer without a sweep."""
    right = expected("01d.1")
    misses = set(selfcheck.FORMS["01d.1"].misses())
    for guess in (right // 2, right + (120 - right) // 2, 3):
        if guess in misses:
            continue
        message = refused("01d.1", guess, "sweep every overlap")
        assert "still split" not in message and "smaller one" not in message, message


def _mid_p_sign_test(differences):  # the observed split counted half in the tail
    won, lost = sum(d > 0 for d in differences), sum(d < 0 for d in differences)
    n, low = won + lost, min(won, lost)
    if not n:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(low)) + math.comb(n, low) / 2
    return min(1.0, 2 * tail / 2**n)


def test_01b_1_names_the_mid_p_not_one_sides_tail():
    result = verdict("01b.1", _mid_p_sign_test)
    assert not result.passed and "mid-p" in result.message, result.message
    assert "one side's tail" not in result.message, result.message


# --- 01b.3: the paired interval by resampling ---


def _interval_with(ends, scale=100, replace=True):
    def paired_interval(differences, draws, seed, level):
        diffs, rng = np.asarray(differences, dtype=float), np.random.default_rng(seed)
        n = len(diffs)
        if replace:
            picks = rng.integers(0, n, size=(draws, n))
        else:
            picks = np.array([rng.permutation(n) for _ in range(draws)])
        low, high = np.percentile(diffs[picks].mean(axis=1) * scale, ends(level))
        return float(low), float(high)

    return paired_interval


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (_interval_with(lambda lv: [2.5, 97.5]), "the ends move with `level`"),
        (_interval_with(lambda lv: [100 - lv, lv]), "beyond EACH end"),
        (_interval_with(lambda lv: [(100 - lv) / 2, 100 - (100 - lv) / 2], scale=1), "by 100"),
        (
            _interval_with(lambda lv: [(100 - lv) / 2, 100 - (100 - lv) / 2], replace=False),
            "WITH replacement",
        ),
    ],
)
def test_01b_3_refuses_each_interval_slip_naming_it(wrong, hint):
    result = verdict("01b.3", wrong)
    assert not result.passed and hint in result.message, result.message


def _interval_legacy_rng(differences, draws, seed, level):  # np.random.seed, not default_rng
    diffs, tail = np.asarray(differences, dtype=float), (100 - level) / 2
    np.random.seed(seed)
    picks = np.random.randint(0, len(diffs), size=(draws, len(diffs)))
    low, high = np.percentile(diffs[picks].mean(axis=1) * 100, [tail, 100 - tail])
    return float(low), float(high)


def test_01b_3_names_the_legacy_generator_not_the_ends():
    result = verdict("01b.3", _interval_legacy_rng)
    assert not result.passed and "legacy generator" in result.message, result.message
    assert "EACH end" not in result.message, result.message


def test_01b_3_accepts_the_resampled_interval():
    from solutions.exercises import paired_interval

    assert verdict("01b.3", paired_interval).passed
    assert verdict("01b.3", lambda *a: list(paired_interval(*a))).passed


def test_01b_1_refuses_the_librarys_sign_test():
    """A fresh reader passed 01b.1 with `claims.sign_test`, imported in cell 1; the check now
    refuses it (and `compare`, which calls it) and says what to write instead."""
    from chunklab.teaching.claims import compare, sign_test

    for calling in [
        lambda d: sign_test(sum(x > 0 for x in d), sum(x < 0 for x in d)),
        lambda d: compare([max(x, 0) for x in d], [max(-x, 0) for x in d]).p_value,
    ]:
        result = verdict("01b.1", calling)
        assert not result.passed and "library's sign test" in result.message, result.message


def test_01b_3_refuses_the_librarys_resampling():
    """A fresh reader passed 01b.3 with `bootstrap.paired`; the check now refuses it, and the
    `resamples` and `interval` it is built on, and says what to write instead."""
    from chunklab.evaluation.bootstrap import interval, paired, resamples

    def by_resamples(d, draws, seed, level):
        d, tail = np.asarray(d, dtype=float), (100 - level) / 2
        means = d[resamples(len(d), draws, seed)].mean(axis=1) * 100
        return tuple(np.percentile(means, [tail, 100 - tail]))

    for calling in [
        lambda d, n, s, lv: paired(np.asarray(d), np.zeros(len(d)), count=n, seed=s, level=lv),
        by_resamples,
        lambda d, n, s, lv: interval(np.asarray(d), count=n, seed=s),  # right only at 95
    ]:
        result = verdict("01b.3", calling)
        assert not result.passed and "library's resampling" in result.message, result.message


def test_01_1_names_tied_left_at_zero():
    """Won and lost right, tied returned as 0: the hint says what tied counts."""
    result = verdict("01.1", lambda *case: [*compare_whole_words(*case)[:2], 0])
    assert not result.passed and "tied is not 0" in result.message, result.message


def test_01_1_names_tied_left_out():
    """Won and lost right, tied not returned (two numbers): the hint names the one left out."""
    result = verdict("01.1", lambda *case: compare_whole_words(*case)[:2])
    assert not result.passed and "you left tied out" in result.message, result.message


def compare_by_substring(text, cut_a, cut_b, questions):  # plain substrings: 'seal' in 'sealant'
    def answered(cut, facts):
        return any(all(f in text[a:b] for f in facts) for a, b in _read(cut))

    pairs = [(answered(cut_a, q), answered(cut_b, q)) for q in questions]
    won = sum(x and not y for x, y in pairs)
    lost = sum(y and not x for x, y in pairs)
    return won, lost, len(questions) - won - lost


def compare_by_split_words(text, cut_a, cut_b, questions):  # whole words, but one word per fact
    def answered(cut, facts):
        return any(all(f in text[a:b].split() for f in facts) for a, b in _read(cut))

    pairs = [(answered(cut_a, q), answered(cut_b, q)) for q in questions]
    won = sum(x and not y for x, y in pairs)
    lost = sum(y and not x for x, y in pairs)
    return won, lost, len(questions) - won - lost


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (compare_by_substring, "a fact counts as WHOLE words"),
        (compare_by_split_words, "a fact can be several words"),
    ],
    ids=["substring", "split_words"],
)
def test_01_1_refuses_a_substring_test_and_split_words_naming_each(wrong, hint):
    """Section 2 matches facts as whole words; on the manual a substring test finds 'acao' inside
    'vibracao' and turns 6 to 0 into 4 to 0. The old check's texts held no word inside another,
    so a substring test passed; a fact of two words ('pump seal') is never among split words."""
    result = verdict("01.1", wrong)
    assert not result.passed and hint in result.message, result.message


def _fifth_overlap(floor):  # 01c's pooled cuts step size - size/5: windows that overlap
    def size_for_budget(text, budget, count):
        for s in range(len(text), 0, -1):
            step = s - (s // 5 if floor else round(s / 5))
            if all(count(text[k : k + s]) <= budget for k in range(0, len(text), max(1, step))):
                return s
        return 0

    return size_for_budget


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (lambda t, b, c: int(b * len(t) / c(t)), "the text's average rate"),
        (lambda t, b, c: round(b * len(t) / c(t)), "the text's average rate"),
        (_fifth_overlap(floor=True), "overlap by a fifth of the size"),
        (_fifth_overlap(floor=False), "overlap by a fifth of the size"),
    ],
    ids=["rate_floored", "rate_rounded", "fifth_floored", "fifth_rounded"],
)
def test_01c_1_names_the_average_rate_and_a_fifth_overlap(wrong, hint):
    """The budget times the text's characters per token is 01c's 'same budget' match, which its
    costliest window overspends; windows overlapping by a fifth are 01c's pooled cuts. Both got
    only 'some window costs more' before."""
    result = verdict("01c.1", wrong)
    assert not result.passed and hint in result.message, result.message


def _end_minus_one(text, cut_a, cut_b, questions):  # each chunk one character short
    return compare_whole_words(
        text, [(a, b - 1) for a, b in cut_a], [(a, b - 1) for a, b in cut_b], questions
    )


def _tied_only_neither(text, cut_a, cut_b, questions):
    won, lost, _ = compare_whole_words(text, cut_a, cut_b, questions)
    neither = sum(
        not any(
            any(all(_has(f, text[a:b]) for f in q) for a, b in _read(cut)) for cut in (cut_a, cut_b)
        )
        for q in questions
    )
    return won, lost, neither


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (_end_minus_one, "take nothing off"),
        (_tied_only_neither, "the ones both answer too"),
    ],
    ids=["end_minus_one", "tied_only_neither"],
)
def test_01_1_names_end_minus_one_and_tied_counting_only_neither(wrong, hint):
    """R21 found both refused with the generic hint; each is now named."""
    result = verdict("01.1", wrong)
    assert not result.passed and hint in result.message, result.message


def _rate_within_text(rounding):  # 01c's match, the budget times the text's mean rate, capped
    return lambda t, b, c: min(len(t), rounding(b * len(t) / max(c(t), 1)))


def compare_by_word_runs(text, cut_a, cut_b, questions):  # a fact as a run of split words
    def holds(fact, chunk):
        words, parts = chunk.split(), fact.split()
        return any(words[k : k + len(parts)] == parts for k in range(len(words)))

    def answered(cut, facts):
        return any(all(holds(f, text[a:b]) for f in facts) for a, b in _read(cut))

    pairs = [(answered(cut_a, q), answered(cut_b, q)) for q in questions]
    won = sum(x and not y for x, y in pairs)
    lost = sum(y and not x for x, y in pairs)
    return won, lost, len(questions) - won - lost


@pytest.mark.parametrize(
    ("exercise", "wrong", "hint"),
    [
        ("01c.1", _rate_within_text(int), "a rate averaged over the text is not a bound"),
        ("01c.1", _rate_within_text(round), "a rate averaged over the text is not a bound"),
        ("01.1", compare_by_word_runs, "a line break"),
    ],
    ids=["rate_capped_floored", "rate_capped_rounded", "word_runs"],
)
def test_01c_1_names_a_capped_rate_and_01_1_a_fact_across_a_line_break(exercise, wrong, hint):
    """R22: the average-rate conversion kept within the text got 'some window costs more than 20',
    and a fact matched as a run of split words (a line break passing for a space) got the generic
    hint; each now names its slip."""
    result = verdict(exercise, wrong)
    assert not result.passed and hint in result.message, result.message


def _pairs_else_single(cut):  # the pairs only, a chunk alone only when a cut has no pair
    return _read(cut)[len(cut) :] or list(cut)


def _one_past_its_end(cut):  # `end_k+1` read as Python: each chunk, and each one character longer
    return [*cut, *((a, b + 1) for a, b in cut)]


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (_reading(_pairs_else_single), "ends inside a word"),
        (_reading(_one_past_its_end), "the NEXT chunk's end"),
    ],
    ids=["pairs_else_single", "one_past_its_end"],
)
def test_01_1_names_pairs_that_drop_a_chunk_cut_mid_word_and_the_pair_read_one_past_the_end(
    wrong, hint
):
    """R24: pairs only (a single chunk only when a cut has no pair) passed every case, since none
    cut a word at a chunk's end, where the chunk holds the fact whole and its pair does not; and
    the notation `text[start_k:end_k+1]` read as Python (one character past the chunk) got the
    generic hint. Both are now refused with a hint naming the slip."""
    result = verdict("01.1", wrong)
    assert not result.passed and hint in result.message, result.message


# --- 01.1's second half: the manual read in pairs, checked; two slips named ----------------------


def test_01_1_checks_the_second_half_on_the_manual():
    """R46: the exercise's second half (200/40 against 200/0 on the manual, read in pairs) had no
    answer to check against; the pass line now says it, and what a pair hands the model."""
    message = verdict("01.1", compare_whole_words).message
    assert "won 0, lost 0, tied 10" in message and "360 characters" in message, message


def _singles_but_the_last(text, cut_a, cut_b, questions):  # the singles loop stops one short
    return _reading(lambda cut: _read(cut)[: len(cut) - 1] + _read(cut)[len(cut) :])(
        text, cut_a, cut_b, questions
    )


def _each_fact_in_either(text, cut_a, cut_b, questions):  # a pair as two chunks, not one span
    def answered(cut, facts):
        texts = [text[a:b] for a, b in cut]
        return any(all(_has(f, t) for f in facts) for t in texts) or any(
            all(_has(f, x) or _has(f, y) for f in facts)
            for x, y in zip(texts, texts[1:], strict=False)
        )

    pairs = [(answered(cut_a, q), answered(cut_b, q)) for q in questions]
    return sum(x > y for x, y in pairs), sum(x < y for x, y in pairs), sum(x == y for x, y in pairs)


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (_singles_but_the_last, "the last one included"),
        (_each_fact_in_either, "in neither chunk alone"),
    ],
    ids=["singles_but_last", "either_chunk"],
)
def test_01_1_names_the_last_chunk_dropped_and_a_pair_read_as_two_chunks(wrong, hint):
    """R46: both were refused with a generic hint that forgot the pair rule."""
    result = verdict("01.1", wrong)
    assert not result.passed and hint in result.message, result.message


def _letters_only(fact, chunk):  # a boundary of letters only: '5' found inside '45'
    import re

    return re.search(r"(?<![a-z])" + re.escape(fact) + r"(?![a-z])", chunk) is not None


@pytest.mark.parametrize(
    ("matcher", "hint"),
    [
        (_letters_only, "'5' is not in '45'"),
        (lambda f, t: f in t if " " in f else f in t.split(), "not in 'pump sealant'"),
    ],
    ids=["letters_only_boundary", "substring_for_phrases"],
)
def test_01_1_refuses_the_two_matchers_r46_passed(matcher, hint):
    """R46 passed 01.1 with a letters-only word boundary (no case put a digit fact beside a digit)
    and with split words for one-word facts but a plain substring for phrases (no case put a
    phrase inside longer words); one case each, and a hint naming each."""

    def count(text, cut_a, cut_b, questions):
        def answered(cut, facts):
            return any(all(matcher(f, text[a:b]) for f in facts) for a, b in _read(cut))

        pairs = [(answered(cut_a, q), answered(cut_b, q)) for q in questions]
        return (
            sum(x > y for x, y in pairs),
            sum(x < y for x, y in pairs),
            sum(x == y for x, y in pairs),
        )

    result = verdict("01.1", count)
    assert not result.passed and hint in result.message, result.message


def _interval_cell_7_copied(differences, draws, seed, level):  # 2000 rows, whatever `draws` is
    diffs, tail = np.asarray(differences, dtype=float), (100 - level) / 2
    picks = np.random.default_rng(seed).integers(0, len(diffs), size=(2000, len(diffs)))
    low, high = np.percentile(diffs[picks].mean(axis=1) * 100, [tail, 100 - tail])
    return float(low), float(high)


def _interval_at_a_whole_level(differences, draws, seed, level):  # `int(level)`: 99.55 -> 99
    return _interval_with(lambda lv: [(100 - int(lv)) / 2, 100 - (100 - int(lv)) / 2])(
        differences, draws, seed, level
    )


def test_01b_3_refuses_an_answer_that_ignores_draws_naming_it():
    """Cell 7's 2000 rows copied passed the old check, which always asked 5000 draws (a cold
    reader's run, round 47): the check now varies `draws` and names the slip."""
    result = verdict("01b.3", _interval_cell_7_copied)
    assert not result.passed and "you ignored `draws`" in result.message, result.message


def test_01b_3_checks_a_familys_level():
    """The exercise says "any `level`, such as a family's 100 - 5/m"; the old check tried 80 to 98
    only, so an answer that reads the level as a whole number passed it."""
    result = verdict("01b.3", _interval_at_a_whole_level)
    assert not result.passed and "level 99.5" in result.message, result.message
