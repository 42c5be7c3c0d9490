"""Notebook 03d's exercise refuses plausible wrong answers, each with a hint naming what is wrong,
and accepts the count found the learner's way."""

import pytest

from chunklab.teaching.exercises import verdict

# --- 03d.1: the first overlapping block that holds every excerpt of an answer ------------------


def _first_by_loop(excerpts, size, step):
    lo, hi = min(a for a, _ in excerpts), max(b for _, b in excerpts)
    i = 0
    while i * step <= lo:
        if hi <= i * step + size:
            return i
        i += 1
    return None


def _first_by_arithmetic(excerpts, size, step):
    lo, hi = min(a for a, _ in excerpts), max(b for _, b in excerpts)
    i = max(0, -(-(hi - size) // step))  # the first block ending at or after hi
    return i if i * step <= lo else None


@pytest.mark.parametrize("fn", [_first_by_loop, _first_by_arithmetic])
def test_03d_1_accepts_any_correct_block(fn):
    assert verdict("03d.1", fn).passed, verdict("03d.1", fn).message


def test_03d_1_refuses_the_old_number_answer(capsys):
    """The exercise used to ask a count, passed by re-running the notebook's loop at 2400
    characters: that route no longer passes."""
    from chunklab import Document, FixedSizeChunker
    from chunklab.evaluation.chroma import load_corpora, load_questions
    from chunklab.retrieval.retrievers import BM25Retriever
    from chunklab.teaching.selfcheck import check

    won, find_block, find_kid = 0, BM25Retriever(), BM25Retriever()
    for name, text in load_corpora().items():
        if len(text) >= 200_000:
            continue
        doc = Document(doc_id=name, uri=name, title="", text=text)
        blocks = FixedSizeChunker(size=2400, overlap=0).split(doc)
        kids = FixedSizeChunker(size=800, overlap=0).split(doc)
        block_of, kid_of = {b.chunk_id: b for b in blocks}, {c.chunk_id: c for c in kids}
        for q in (q for q in load_questions() if q.corpus == name):
            block = block_of[find_block.rank(q.text, blocks, 1)[0].ref_id]
            kid = kid_of[find_kid.rank(q.text, kids, 1)[0].ref_id]
            around = next(b for b in blocks if b.start <= kid.start < b.end)
            kid_block, found = (
                all(b.start <= s and e <= b.end for s, e in q.excerpts) for b in (around, block)
            )
            won += kid_block and not found
    check("03d.1", won)
    said = capsys.readouterr().out
    assert "correct" not in said and "pass your function itself" in said, said


def _span(excerpts, first=False, listed=False):
    if first:
        excerpts = excerpts[:1]
    if listed:
        return excerpts[0][0], excerpts[-1][1]
    return min(a for a, _ in excerpts), max(b for _, b in excerpts)


def _no_overlap(excerpts, size, step):  # cell 16's rule: blocks every size characters
    lo, hi = _span(excerpts)
    return lo // size if lo // size == (hi - 1) // size else None


def _end_inside(excerpts, size, step):
    lo, hi = _span(excerpts)
    return next((i for i in range(lo // step + 1) if i * step <= lo and hi < i * step + size), None)


def _each_alone(excerpts, size, step):
    blocks = [_first_by_loop([e], size, step) for e in excerpts]
    return None if None in blocks else blocks[0]


def _first_only(excerpts, size, step):
    return _first_by_loop(excerpts[:1], size, step)


def _listed_order(excerpts, size, step):
    lo, hi = _span(excerpts, listed=True)
    return _first_by_loop([(lo, hi)], size, step) if lo < hi else None


def _length_only(excerpts, size, step):
    lo, hi = _span(excerpts)
    return lo // step if hi - lo <= size else None


def _last_block(excerpts, size, step):
    lo, hi = _span(excerpts)
    fits = [i for i in range(lo // step + 1) if hi <= i * step + size]
    return fits[-1] if fits else None


def _start_character(excerpts, size, step):
    i = _first_by_loop(excerpts, size, step)
    return None if i is None else i * step


def _listed_loop(excerpts, size, step):  # excerpts taken as sorted, the span never checked
    lo, hi = _span(excerpts, listed=True)
    return next(
        (i for i in range(lo // step + 1) if i * step <= lo and hi <= i * step + size), None
    )


def _each_in_some_block(excerpts, size, step):  # each excerpt's own first block, the smallest
    blocks = [_first_by_loop([e], size, step) for e in excerpts]
    return None if None in blocks else min(blocks)


def _ceiling_floored(excerpts, size, step):  # (hi - size) // step where it must round up
    lo, hi = _span(excerpts)
    i = max(0, (hi - size) // step)
    return i if i * step <= lo and hi <= i * step + size else None


WRONG_03D_1 = [
    (_listed_loop, "not in order"),
    (_each_in_some_block, "not each excerpt in a block of its own"),
    (_ceiling_floored, "rounded up, not down"),
    (_no_overlap, "not i * size"),
    (_end_inside, "end is exclusive"),
    (_each_alone, "not each excerpt in a block of its own"),
    (_first_only, "not only the first"),
    (_listed_order, "not in order"),
    (_length_only, "shorter than a block"),
    (_last_block, "not the last"),
    (_start_character, "not its first character"),
]


@pytest.mark.parametrize(("fn", "hint"), WRONG_03D_1, ids=lambda x: x if isinstance(x, str) else "")
def test_03d_1_refuses_with_a_hint(fn, hint):
    result = verdict("03d.1", fn)
    assert not result.passed and hint in result.message, result.message


# --- 03d.2: the block that holds most of a child that does not nest -----------------------------


def _holding(position, blocks):
    return next(i for i, a, b in blocks if a <= position < b)


def _shared(child, block):
    return min(child[1], block[2]) - max(child[0], block[1])


WRONG_03D_2 = [
    (lambda child, blocks: _holding(child[0], blocks), "first character"),
    (lambda child, blocks: _holding(child[1] - 1, blocks), "last character"),
    (lambda child, blocks: _holding((child[0] + child[1]) // 2, blocks), "middle"),
    (lambda child, blocks: max(blocks, key=lambda b: (_shared(child, b), b[1]))[0], "earlier"),
    (
        lambda child, blocks: max(
            range(len(blocks)), key=lambda i: (_shared(child, blocks[i]), -i)
        ),
        "position",
    ),
]


def _inclusive_end(child, blocks):  # the block's end read as included: b - 1, then + 1
    shared = [min(child[1], b - 1) - max(child[0], a) + 1 for _, a, b in blocks]
    return blocks[shared.index(max(shared))][0]  # the earlier block on a tie, as asked


WRONG_03D_2.append((_inclusive_end, "one character off"))


def _largest_overlapping(child, blocks):  # the longest block the child touches, not the most shared
    return max((b for b in blocks if _shared(child, b) > 0), key=lambda b: b[2] - b[1])[0]


WRONG_03D_2.append((_largest_overlapping, "longest block the child overlaps"))


def test_03d_2_an_off_by_one_overlap_is_not_told_tie():
    result = verdict("03d.2", _inclusive_end)  # it takes the earlier block on a tie already
    assert not result.passed and "a tie" not in result.message, result.message


@pytest.mark.parametrize(("fn", "hint"), WRONG_03D_2, ids=[h for _, h in WRONG_03D_2])
def test_03d_2_refuses_with_a_hint(fn, hint):
    result = verdict("03d.2", fn)
    assert not result.passed and hint in result.message, result.message


def test_03d_2_accepts_a_loop_over_the_blocks():
    def parent_block(child, blocks):
        best, most = None, -1
        for block_id, a, b in blocks:
            if min(child[1], b) - max(child[0], a) > most:
                best, most = block_id, min(child[1], b) - max(child[0], a)
        return best

    assert verdict("03d.2", parent_block).passed


def _tie_to_smallest_id(child, blocks):  # right while ids sort in block order, as b0, b1 do
    shared = {i: min(child[1], b) - max(child[0], a) for i, a, b in blocks}
    return min(i for i in shared if shared[i] == max(shared.values()))


def test_03d_2_names_an_overlap_taken_with_abs():
    """abs() of a negative overlap makes a far block win; it used to be told "one character off"."""

    def with_abs(child, blocks):
        shared = [abs(min(child[1], b) - max(child[0], a)) for _, a, b in blocks]
        return blocks[shared.index(max(shared))][0]

    result = verdict("03d.2", with_abs)
    assert not result.passed and "abs()" in result.message, result.message
    assert "one character off" not in result.message, result.message


def test_03d_2_refuses_a_tie_to_the_smallest_id():
    """Accepted by the old check, whose ids all sorted in block order."""
    result = verdict("03d.2", _tie_to_smallest_id)
    assert not result.passed and "smallest id" in result.message, result.message


# --- 03d.3: a family of paired comparisons read at 0.05 / m ---------------------------------------


def _reading(alpha=None, interval=True, counts=True, touching=False, worse=True):
    """A reading of one family: compare's rule, or one of its slips."""
    from chunklab.teaching.claims import sign_test

    def family_verdicts(rows):
        level = 0.05 / len(rows) if alpha is None else alpha
        out = []
        for won, lost, low, high in rows:
            p = sign_test(won, lost)
            above = low >= 0 if touching else low > 0
            up = (not interval or above) and (not counts or (won > lost and p < level))
            down = (not interval or high < 0) and (not counts or (lost > won and p < level))
            out.append("better" if up else "worse" if down and worse else "no difference shown")
        return out

    return family_verdicts


def test_03d_3_accepts_any_correct_reading():
    assert verdict("03d.3", _reading()).passed
    as_tuple = lambda rows: tuple(v.upper() for v in _reading()(rows))  # noqa: E731
    assert verdict("03d.3", as_tuple).passed
    with_note = lambda rows: [  # noqa: E731
        v
        if v != "no difference shown"
        else "no difference shown (the sign test rejects, the interval reaches 0)"
        for v in _reading()(rows)
    ]
    assert verdict("03d.3", with_note).passed


@pytest.mark.parametrize(
    ("fn", "hint"),
    [
        (_reading(alpha=0.05), "you read every row at 0.05"),
        (_reading(alpha=0.05 / 30), "the notebook's m"),
        (_reading(counts=False), "the interval alone"),
        (_reading(interval=False), "the sign test alone"),
        (_reading(touching=True), "lower end is 0"),
        (_reading(worse=False), "no row came out 'worse'"),
        (lambda rows: _reading(alpha=0.025 / len(rows))(rows), "you read at 0.025 / m"),
        (lambda rows: "better", "one verdict per row"),
    ],
)
def test_03d_3_refuses_each_slip_with_its_hint(fn, hint):
    result = verdict("03d.3", fn)
    assert not result.passed and hint in result.message, result.message


def _rowwise(up, down):
    """A reading that decides each row by `up(won, lost, low, p, alpha)` and its mirror."""
    from chunklab.teaching.claims import sign_test

    def family_verdicts(rows):
        alpha, out = 0.05 / len(rows), []
        for won, lost, low, high in rows:
            p = sign_test(won, lost)
            v = "better" if up(won, lost, low, p, alpha) else None
            out.append(v or ("worse" if down(won, lost, high, p, alpha) else "no difference shown"))
        return out

    return family_verdicts


@pytest.mark.parametrize(
    ("fn", "hint"),
    [  # each got the generic "not the verdict compare gives", or the wrong slip's hint, before
        (
            _rowwise(
                lambda w, lo, a, p, al: a > 0 and w > lo, lambda w, lo, b, p, al: b < 0 and lo > w
            ),
            "the interval alone, with more questions won",
        ),
        (
            _rowwise(
                lambda w, lo, a, p, al: a > 0 and p < al, lambda w, lo, b, p, al: b < 0 and p < al
            ),
            "you left out who won more",
        ),
        (
            _rowwise(
                lambda w, lo, a, p, al: a > 0 and w > lo and p / 2 < al,
                lambda w, lo, b, p, al: b < 0 and lo > w and p / 2 < al,
            ),
            "you halved the sign test's p",
        ),
        (
            _rowwise(
                lambda w, lo, a, p, al: a > 0 or (w > lo and p < al),
                lambda w, lo, b, p, al: b < 0 or (lo > w and p < al),
            ),
            "either test passes",
        ),
    ],
)
def test_03d_3_names_the_slips_once_left_generic(fn, hint):
    result = verdict("03d.3", fn)
    assert not result.passed and hint in result.message, result.message


def _bounds(excerpts):
    return min(a for a, _ in excerpts), max(b for _, b in excerpts)


def _floor_unchecked(excerpts, size, step):  # (end - size) // step, returned without a check
    return max(0, (_bounds(excerpts)[1] - size) // step)


def _no_clamp(excerpts, size, step):  # rounded up, but never clamped at block 0
    lo, hi = _bounds(excerpts)
    i = -(-(hi - size) // step)
    return i if i * step <= lo else None


def _largest_start_smallest_end(excerpts, size, step):  # the span every excerpt shares
    lo, hi = max(a for a, _ in excerpts), min(b for _, b in excerpts)
    i = max(0, -(-(hi - size) // step))
    return i if i * step <= lo and hi <= i * step + size else None


@pytest.mark.parametrize(
    ("fn", "hint"),
    [  # each got only the generic restatement of the rule before
        (_floor_unchecked, "rounded up, not down"),
        (_no_clamp, "clamp at 0"),
        (_largest_start_smallest_end, "not the largest start and the smallest end"),
    ],
)
def test_03d_1_names_the_slips_once_left_generic(fn, hint):
    result = verdict("03d.1", fn)
    assert not result.passed and hint in result.message, result.message


def test_03d_3_slip_table_starts_from_the_librarys_rule():
    """The slips are written by switching parts of `_rule` off; with none switched off it must
    read every family the check draws as `compare`'s `Comparison.verdict` does (the answer)."""
    from chunklab.teaching import exercises_family_reading as fr

    for rows in fr._families():
        assert fr._rule(rows) == fr.family_expected(rows), rows


def test_03d_3_refuses_the_librarys_own_reading():
    """The old check passed a function that builds the library's Comparison and reads its verdict:
    the rule the exercise asks for, not written."""
    from chunklab.teaching.claims import Comparison
    from chunklab.teaching.exercises_family_reading import family_expected

    def by_comparison(rows):
        level = 100 - 5 / len(rows)
        return [
            Comparison("a", "b", w, lo, 0, 0.0, a, b, 1.0, level=level).verdict
            for w, lo, a, b in rows
        ]

    def by_better(rows):
        level = 100 - 5 / len(rows)
        made = [Comparison("a", "b", w, lo, 0, 0.0, a, b, 1.0, level=level) for w, lo, a, b in rows]
        return [
            "better" if c.better else "worse" if c.worse else "no difference shown" for c in made
        ]

    for fn in (by_comparison, by_better, family_expected):
        result = verdict("03d.3", fn)
        assert not result.passed and "asks the library for the verdict" in result.message, (
            result.message
        )
