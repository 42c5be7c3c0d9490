"""Notebook 09: each exercise refuses the plausible wrong answers, with a hint that names the
mistake, and accepts every correct form (issue 29, item 3)."""

import sys
import warnings

import numpy as np
import pytest
from conftest import ROOT

from chunklab.teaching.exercises import verdict

sys.path.insert(0, str(ROOT))
from solutions import exercises as solutions  # noqa: E402


def _unit(x):
    return x / np.linalg.norm(x, axis=-1, keepdims=True)


def _weights(mask):
    return np.asarray(mask, dtype=np.float64)[:, :, None]


def _mean_over_padding(vectors, mask):
    return np.asarray(vectors, dtype=np.float64).mean(axis=1)


def _mean_scaled(vectors, mask):
    return _unit((np.asarray(vectors) * _weights(mask)).sum(axis=1) / _weights(mask).sum(axis=1))


def _divided_by_padded_length(vectors, mask):
    return (np.asarray(vectors) * _weights(mask)).sum(axis=1) / np.asarray(mask).shape[1]


def _masked_sum(vectors, mask):
    return (np.asarray(vectors) * _weights(mask)).sum(axis=1)


def _inverted_mask(vectors, mask):
    inverted = 1 - _weights(mask)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (np.asarray(vectors) * inverted).sum(axis=1) / inverted.sum(axis=1)


def _one_short(vectors, mask):
    keep = np.asarray(mask).copy()
    for row in keep:
        row[int(row.sum()) - 1] = 0
    with np.errstate(invalid="ignore", divide="ignore"):
        return (np.asarray(vectors) * _weights(keep)).sum(axis=1) / _weights(keep).sum(axis=1)


def _first_token(vectors, mask):
    return _unit(np.asarray(vectors, dtype=np.float64)[:, 0])


def _tokens_scaled_first(vectors, mask):
    units = _unit(np.asarray(vectors, dtype=np.float64))
    return (units * _weights(mask)).sum(axis=1) / _weights(mask).sum(axis=1)


def _first_n_positions(vectors, mask):
    """Assumes padding at the end: the first n positions, n the number of real tokens."""
    n = np.asarray(mask).sum(axis=1)
    return np.stack(
        [np.asarray(v, dtype=np.float64)[:k].mean(axis=0) for v, k in zip(vectors, n, strict=True)]
    )


def _divided_by_batch_total(vectors, mask):
    return (np.asarray(vectors) * _weights(mask)).sum(axis=1) / np.asarray(mask).sum()


def _mask_ignored_in_sum(vectors, mask):
    return np.asarray(vectors, dtype=np.float64).sum(axis=1) / np.asarray(mask).sum(axis=1)[:, None]


def _first_real_dropped(vectors, mask):
    keep = np.asarray(mask) * (np.cumsum(mask, axis=1) > 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (np.asarray(vectors) * _weights(keep)).sum(axis=1) / _weights(keep).sum(axis=1)


def _max_pooled(vectors, mask):
    return np.where(_weights(mask) > 0, np.asarray(vectors, dtype=np.float64), -np.inf).max(axis=1)


WRONG_MEAN = {
    _first_n_positions: "misses a text padded on the left",
    _mean_over_padding: "padding was averaged in",
    _mean_scaled: "before any scaling",
    _divided_by_padded_length: "divided by the padded length",
    _masked_sum: "that is the sum",
    _divided_by_batch_total: "real tokens of the whole batch",
    _inverted_mask: "read backwards",
    _one_short: "one token short",
    _first_token: "[CLS] pooling",
    _tokens_scaled_first: "scaled to length 1 before the mean",
    _mask_ignored_in_sum: "the mask was ignored in the sum",
    _first_real_dropped: "the first real token was dropped",
    _max_pooled: "max pooling",
}


@pytest.mark.parametrize("wrong", WRONG_MEAN, ids=lambda f: f.__name__)
def test_09_1_refuses_each_plausible_wrong_answer_naming_it(wrong):
    result = verdict("09.1", wrong)
    assert not result.passed
    assert WRONG_MEAN[wrong] in result.message, result.message


def test_09_1_accepts_every_correct_form():
    def as_lists(vectors, mask):
        return solutions.masked_mean(vectors, mask).tolist()

    def loop(vectors, mask):
        out = []
        for v, m in zip(vectors, mask, strict=True):
            out.append(v[m.astype(bool)].mean(axis=0))
        return np.array(out)

    for fn in (solutions.masked_mean, as_lists, loop):
        assert verdict("09.1", fn).passed, verdict("09.1", fn).message


def _pool(offsets, vectors, keep):
    if not keep.any():
        return np.zeros(np.asarray(vectors).shape[1])
    return _unit(np.asarray(vectors, dtype=np.float64)[keep].mean(axis=0))


def _span_including_end(offsets, vectors, start, end):
    return _pool(offsets, vectors, (offsets[:, 0] >= start) & (offsets[:, 0] <= end))


def _span_by_overlap(offsets, vectors, start, end):
    return _pool(offsets, vectors, (offsets[:, 1] > start) & (offsets[:, 0] < end))


def _span_not_scaled(offsets, vectors, start, end):
    keep = (offsets[:, 0] >= start) & (offsets[:, 0] < end)
    if not keep.any():
        return np.zeros(np.asarray(vectors).shape[1])
    return np.asarray(vectors, dtype=np.float64)[keep].mean(axis=0)


def _span_wholly_inside(offsets, vectors, start, end):
    return _pool(offsets, vectors, (offsets[:, 0] >= start) & (offsets[:, 1] <= end))


def _span_no_zeros(offsets, vectors, start, end):
    keep = (offsets[:, 0] >= start) & (offsets[:, 0] < end)
    # The slip itself: an empty span's mean is NaN (numpy warns "Mean of empty slice"; silenced
    # here, so the test run prints no warning for a wrong answer it builds on purpose).
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        mean = np.asarray(vectors, dtype=np.float64)[keep].mean(axis=0)
        return mean / np.linalg.norm(mean)


WRONG_POOL = {
    _span_wholly_inside: "one that starts inside the span and ends after end still counts",
    _span_no_zeros: "return a vector of zeros",
    _span_including_end: "end is excluded",
    _span_by_overlap: "by any overlap",
    _span_not_scaled: "scale the mean to length 1",
}


def test_09b_1_refuses_the_library_pooling_the_prompt_rules_out():
    def by_library(offsets, vectors, start, end):
        from chunklab.embeddings.late import TokenVectors, pool_spans

        return pool_spans(TokenVectors(vectors, offsets), [(start, end)])[0]

    result = verdict("09b.1", by_library)
    assert not result.passed and "calls into chunklab.embeddings" in result.message, result.message


def test_09_1_names_the_median_and_the_count_times_dimensions():
    def median(vectors, mask):
        real = np.asarray(mask).astype(bool)
        return np.stack([np.median(v[m], 0) for v, m in zip(vectors, real, strict=True)])

    def count_times_dim(vectors, mask):
        weights = np.asarray(mask, float)[..., None]
        return (vectors * weights).sum(1) / (weights.sum(1) * vectors.shape[2])

    for wrong, named in [
        (median, "the median of each dimension"),
        (count_times_dim, "times the dimensions"),
    ]:
        result = verdict("09.1", wrong)
        assert not result.passed and named in result.message, result.message


def test_09_1_names_a_division_by_the_dimensions():
    """The masked sum over vectors.shape[2] used to get the vague "not scaled" hint."""

    def over_dimensions(vectors, mask):
        return (np.asarray(vectors) * _weights(mask)).sum(axis=1) / np.asarray(vectors).shape[2]

    result = verdict("09.1", over_dimensions)
    assert not result.passed and "number of dimensions, vectors.shape[2]" in result.message, (
        result.message
    )


def test_09_1_refuses_the_library_too():
    def by_library(vectors, mask):
        from chunklab.embeddings.late import windows

        windows(3, 2, 1)  # any call into chunklab.embeddings counts
        return solutions.masked_mean(vectors, mask)

    result = verdict("09.1", by_library)
    assert not result.passed and "calls into chunklab.embeddings" in result.message, result.message


@pytest.mark.parametrize("wrong", WRONG_POOL, ids=lambda f: f.__name__)
def test_09_2_refuses_each_plausible_wrong_answer_naming_it(wrong):
    result = verdict("09b.1", wrong)
    assert not result.passed
    assert WRONG_POOL[wrong] in result.message, result.message


def test_09_2_accepts_every_correct_form():
    def as_list(offsets, vectors, start, end):
        return list(solutions.pool_span(offsets, vectors, start, end))

    for fn in (solutions.pool_span, as_list):
        assert verdict("09b.1", fn).passed, verdict("09b.1", fn).message


def _late_by_library(text, spans):
    from chunklab.embeddings.late import late_chunk_vectors
    from chunklab.embeddings.minilm import MiniLMEmbedder

    return late_chunk_vectors(MiniLMEmbedder(), text, spans)


def _late_without_overlap(text, spans):
    from chunklab.embeddings.late import late_chunk_vectors
    from chunklab.embeddings.minilm import MiniLMEmbedder

    return late_chunk_vectors(MiniLMEmbedder(), text, spans, overlap=0)


def _each_chunk_alone(text, spans):
    from chunklab.embeddings.minilm import MiniLMEmbedder

    return MiniLMEmbedder().embed_documents([text[a:b] for a, b in spans])


def test_09c_1_refuses_a_call_into_the_library_and_accepts_the_from_scratch_reading():
    result = verdict("09c.1", _late_by_library)
    assert not result.passed and "calls chunklab.embeddings.late" in result.message, result.message
    # imported under another name, the call is still seen
    result = verdict("09c.1", _late_without_overlap)
    assert not result.passed and "late_chunk_vectors" in result.message, result.message
    for right in (solutions.late_vectors, _from_scratch()):  # the slips' helper, without a slip
        result = verdict("09c.1", right)
        assert result.passed, result.message


def test_09c_1_pass_line_says_its_cases_are_spans_of_one_page_not_unseen_cases():
    # the 8 spans open one page the notebook also reads: "cases it had not seen" would overstate
    result = verdict("09c.1", solutions.late_vectors)
    assert result.passed, result.message
    assert "had not seen" not in result.message, result.message
    said = "correct on all 8 cases: late_chunk_vectors' vectors for 8 spans of one page"
    assert f"{said}, sensitive_code's opening" in result.message, result.message


def test_09c_1_names_each_chunk_embedded_alone():
    result = verdict("09c.1", _each_chunk_alone)
    assert not result.passed and "each chunk embedded alone" in result.message, result.message


def _from_scratch(  # noqa: PLR0913  (one switch per slip)
    overlap=64,
    scale=True,
    later=True,
    moved=True,
    edge=0,
    first_only=False,
    paper=False,
    width=254,
    last_wins=False,
    averaged=False,
    cls_kept=False,
):
    """09c.1 read from the model's own pieces, with one slip switchable: the windows' overlap,
    the means scaled to length 1, a tie kept from the later window, the last window moved back,
    the character a piece is kept by (edge 0 its first, 1 its last), only the first window read."""

    def late_vectors(text, spans):
        from chunklab.embeddings.minilm import MiniLMEmbedder

        minilm = MiniLMEmbedder()
        encoding = minilm.encoding(text)
        ids, offsets = encoding.ids, np.array(encoding.offsets[1:-1])
        n = len(ids) - 2
        vectors, margin = np.zeros((n, minilm.dim)), np.full(n, -1)
        sums, counts = np.zeros((n, minilm.dim)), np.zeros(n)
        starts = [*range(0, n - width, width - overlap), n - width]
        if not moved:
            starts = list(range(0, n, width - overlap))
        for first in starts[:1] if first_only else starts:
            end = min(first + width, n)
            read = minilm.read([ids[0], *ids[1 + first : 1 + end], ids[-1]])
            read = read if cls_kept else read[1:-1]  # cls_kept: [CLS] left at the row's head
            sums[first:end] += read[: end - first]
            counts[first:end] += 1
            for piece in range(first, end):
                here = min(piece - first, end - 1 - piece)
                if paper:  # the paper's code: the first window to read a piece keeps it
                    if margin[piece] < 0:
                        vectors[piece], margin[piece] = read[piece - first], here
                elif last_wins or here > margin[piece] or (later and here == margin[piece]):
                    vectors[piece], margin[piece] = read[piece - first], here
        if averaged:  # every window's reading of a piece averaged
            vectors = sums / counts[:, None]
        at = offsets[:, 1] - 1 if edge else offsets[:, 0]
        means = [vectors[(at >= a) & (at < b)].mean(axis=0) for a, b in spans]
        with np.errstate(invalid="ignore"):  # first_only: a span past the read is all zeros
            return np.array([m / np.linalg.norm(m) if scale else m for m in means])

    return late_vectors


@pytest.mark.parametrize(
    "slip, named",
    [
        ({"overlap": 0}, "do not overlap"),
        ({"scale": False}, "never scaled to length 1"),
        ({"edge": 1}, "kept a piece by its last character"),
        ({"later": False}, "on a tie you kept the earlier window"),
        ({"moved": False}, "move it back"),
        ({"overlap": 32}, "overlap by 32 pieces"),
        ({"overlap": 50}, "overlap by 50 pieces"),
        ({"first_only": True}, "read only the first 254 pieces"),
        ({"paper": True}, "the late-chunking paper's code's rule"),
        ({"width": 252}, "your windows hold 252 pieces"),
        ({"last_wins": True}, "the last window to read a piece always won"),
        ({"overlap": 0, "moved": False}, "do not overlap and the last is not moved back"),
        ({"width": 256}, "a window holds 254 pieces of text"),
        ({"averaged": True}, "you averaged a piece's readings"),
        ({"cls_kept": True}, "took its left neighbour's reading"),
        ({"overlap": 190}, "64 is the overlap"),  # a step of 64: the overlap taken for the step
        ({"width": 126, "overlap": 32}, "126 pieces overlapping by 32"),
    ],
)
def test_09c_1_names_each_slip_of_a_from_scratch_reading(slip, named):
    result = verdict("09c.1", _from_scratch(**slip))
    assert not result.passed and named in result.message, result.message


def test_09c_1_pass_line_answers_the_prompts_second_question_after_the_learners_own():
    # the prompt asks for the learner's two numbers first; only a pass prints the reference
    result = verdict("09c.1", solutions.late_vectors)
    assert result.passed, result.message
    assert "set your three numbers beside these" in result.message, result.message
    assert "0.58 alone and 0.67 late" in result.message, result.message
    assert "0.58" not in verdict("09c.1", _each_chunk_alone).message


def test_09c_1_pass_line_gives_the_number_only_the_learners_own_function_reaches():
    """The alone and late numbers are late_chunk_vectors' own, so a learner could read them off the
    library; the third, each piece kept from the first window that reads it (the paper's code's
    rule), has no switch in the library: it needs the learner's function with one rule changed."""
    from chunklab.chunkers.registry import build
    from chunklab.documents.series import load_document

    doc = load_document("work_schedules")
    chunks = build("fixed", size=200, overlap=0, unit="tokens").split(doc)
    spans = [(c.start, c.end) for c in chunks]
    vectors = _from_scratch(paper=True)(doc.text, spans)
    sims = vectors @ vectors.T
    first = float(sims[~np.eye(len(spans), dtype=bool)].mean())
    message = verdict("09c.1", solutions.late_vectors).message
    assert f"first window that reads it, {first:.2f} late" in message, message


def _counted_in_turn(text, spans):
    """Section 1's first cell's way: each span gets the next run of pieces, as many as it has
    alone, from the right stitched readings."""
    from chunklab.embeddings.minilm import MiniLMEmbedder

    minilm = MiniLMEmbedder()
    vectors, out, position = solutions_tokens(minilm, text), [], 0
    for a, b in spans:
        n = len(minilm.encoding(text[a:b]).ids) - 2
        with np.errstate(invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            mean = vectors[position : position + n].mean(axis=0)
            out.append(mean / np.linalg.norm(mean))
        position += n
    return np.array(out)


def solutions_tokens(minilm, text):
    """Each piece's reading, stitched from windows of 254 overlapping by 64 (as the solution)."""
    ids = minilm.encoding(text).ids
    n, width = len(ids) - 2, 254
    vectors, margin = np.zeros((n, minilm.dim)), np.full(n, -1)
    for first in [*range(0, max(n - width, 0), width - 64), max(n - width, 0)]:
        end = min(first + width, n)
        read = minilm.read([ids[0], *ids[1 + first : 1 + end], ids[-1]])[1:-1]
        for piece in range(first, end):
            here = min(piece - first, end - 1 - piece)
            if here >= margin[piece]:
                vectors[piece], margin[piece] = read[piece - first], here
    return vectors


def test_09c_1_names_counting_each_spans_pieces_in_turn():
    result = verdict("09c.1", lambda text, spans: _counted_in_turn(text, list(spans)))
    assert not result.passed and "counted each span's pieces in turn" in result.message, (
        result.message
    )


def _markers_dropped(vectors, mask):
    """Each text's first and last real tokens left out, as 09b's PiecesOnly leaves out the
    markers (a text of two or fewer real tokens kept whole)."""
    out = []
    for v, m in zip(np.asarray(vectors, dtype=np.float64), np.asarray(mask), strict=True):
        real = v[m.astype(bool)]
        out.append((real[1:-1] if len(real) > 2 else real).mean(axis=0))
    return np.array(out)


def _eps_in_count(vectors, mask):
    return (np.asarray(vectors) * _weights(mask)).sum(axis=1) / (_weights(mask).sum(axis=1) + 1e-3)


def _transposed(vectors, mask):
    return solutions.masked_mean(vectors, mask).T


@pytest.mark.parametrize(
    "wrong, named",
    [
        (_markers_dropped, "the first and last real tokens were dropped"),
        (_eps_in_count, "as when a small eps is added to the count"),
        (_transposed, "transposed: return shape (texts, dimensions)"),
    ],
    ids=["markers dropped", "eps", "transposed"],
)
def test_09_1_names_the_slips_the_generic_hint_hid(wrong, named):
    result = verdict("09.1", wrong)
    assert not result.passed
    assert named in result.message, result.message


def _span_tokens_scaled_first(offsets, vectors, start, end):
    keep = (offsets[:, 0] >= start) & (offsets[:, 0] < end)
    if not keep.any():
        return np.zeros(np.asarray(vectors).shape[1])
    return _unit(_unit(np.asarray(vectors, dtype=np.float64)[keep]).mean(axis=0))


def _span_by_token_index(offsets, vectors, start, end):
    keep = np.zeros(len(offsets), dtype=bool)
    keep[start:end] = True
    return _pool(offsets, vectors, keep)


def _span_ones_when_empty(offsets, vectors, start, end):
    keep = (offsets[:, 0] >= start) & (offsets[:, 0] < end)
    if not keep.any():
        return np.ones(np.asarray(vectors).shape[1])
    return _pool(offsets, vectors, keep)


@pytest.mark.parametrize(
    "wrong, named",
    [
        (_span_tokens_scaled_first, "each token was scaled to length 1 before the mean"),
        (_span_by_token_index, "character positions, not token indices"),
        (_span_ones_when_empty, "return a vector of zeros"),
    ],
    ids=["tokens scaled first", "token indices", "ones when empty"],
)
def test_09b_1_names_the_slips_the_generic_hint_hid(wrong, named):
    result = verdict("09b.1", wrong)
    assert not result.passed
    assert named in result.message, result.message


def _span_by_middle(offsets, vectors, start, end):
    middle = offsets.sum(axis=1) / 2
    return _pool(offsets, vectors, (middle >= start) & (middle < end))


def _span_by_last_character(offsets, vectors, start, end):
    return _pool(offsets, vectors, (offsets[:, 1] > start) & (offsets[:, 1] <= end))


@pytest.mark.parametrize(
    "wrong, named",
    [(_span_by_middle, "its middle"), (_span_by_last_character, "its last one")],
    ids=["by middle", "by last character"],
)
def test_09b_1_names_the_middle_and_last_character_rules(wrong, named):
    """Both once got one generic hint, "not by its last one nor by any overlap"."""
    result = verdict("09b.1", wrong)
    assert not result.passed
    assert named in result.message and "overlap" not in result.message, result.message


def test_09_1_names_the_wrong_axis_the_first_texts_count_and_integer_division():
    """These three once got only the generic hint "the mean of each text's real tokens"."""

    def wrong_axis(vectors, mask):
        weights = np.asarray(mask, float)[..., None]
        return (vectors * weights).mean(axis=2)

    def first_count(vectors, mask):
        weights = np.asarray(mask, float)[..., None]
        return (vectors * weights).sum(1) / weights[0].sum()

    def floor_division(vectors, mask):
        weights = np.asarray(mask, float)[..., None]
        return (vectors * weights).sum(1) // weights.sum(1)

    for wrong, named in [
        (wrong_axis, "the mean was taken over the dimensions"),
        (first_count, "the first text's count"),
        (floor_division, "integer division"),
    ]:
        result = verdict("09.1", wrong)
        assert not result.passed and named in result.message, (wrong.__name__, result.message)


def test_09_1_names_the_wrong_axis_and_the_first_texts_count():
    """Summed over the texts (axis 0), or every text cut at the first text's count of real tokens:
    each gets its own hint, not the generic one."""

    def first_texts_count(vectors, mask):
        n = int(np.asarray(mask)[0].sum())
        return np.asarray(vectors)[:, :n].mean(1)

    def over_the_texts(vectors, mask):
        weights = np.asarray(mask, float)
        with np.errstate(invalid="ignore", divide="ignore"):
            return (vectors * weights[..., None]).sum(0) / weights.sum(0)[..., None]

    for wrong, named in [
        (first_texts_count, "the first text's count of real tokens"),
        (over_the_texts, "the sums ran over the texts, axis=0"),
    ]:
        result = verdict("09.1", wrong)
        assert not result.passed and named in result.message, result.message


def _late_with_markers_pooled(text, spans):
    """09c.1 with the first window's [CLS] and the last window's [SEP] readings kept at their
    encoding offsets, (0, 0), so the span starting at character 0 pools them."""
    from chunklab.embeddings.minilm import MiniLMEmbedder

    minilm = MiniLMEmbedder()
    encoding = minilm.encoding(text)
    ids, offsets = encoding.ids, np.array(encoding.offsets)
    pieces, width, n = ids[1:-1], 254, len(ids) - 2
    starts = [*range(0, n - width, width - 64), n - width] if n > width else [0]
    vectors, margin, first, last = np.zeros((n, minilm.dim)), np.full(n, -1), None, None
    for a in starts:
        b = min(a + width, n)
        full = minilm.read([ids[0], *pieces[a:b], ids[-1]])
        first = full[0] if first is None else first
        last = full[-1]
        for p in range(a, b):
            here = min(p - a, b - 1 - p)
            if here >= margin[p]:
                vectors[p], margin[p] = full[1:-1][p - a], here
    vectors = np.vstack([first, vectors, last])
    out = []
    for s, e in spans:
        keep = (offsets[:, 0] >= s) & (offsets[:, 0] < e)
        out.append(_unit(vectors[keep].mean(axis=0)) if keep.any() else np.zeros(minilm.dim))
    return np.array(out)


def test_09c_1_names_the_markers_pooled():
    result = verdict("09c.1", _late_with_markers_pooled)
    assert not result.passed, result.message
    assert "[CLS] and [SEP] readings too" in result.message, result.message


def test_09b_1_names_the_median():
    def median(offsets, vectors, start, end):
        offsets = np.asarray(offsets)
        inside = (offsets[:, 0] >= start) & (offsets[:, 0] < end)
        if not inside.any():
            return np.zeros(vectors.shape[1])
        m = np.median(vectors[inside], axis=0)
        return m / np.linalg.norm(m)

    result = verdict("09b.1", median)
    assert not result.passed and "median of each dimension" in result.message, result.message


def _pieces(offsets):
    return [o for o in offsets if tuple(o) != (0, 0)]


def _two_markers(text, offsets, limit):  # section 3's my_read_until, as written there
    return 0 if len(offsets) <= limit else len(text) - offsets[limit - 2][1]


def _markers_left_out(text, offsets, limit):
    return 0 if len(offsets) <= limit else len(text) - _pieces(offsets)[limit - 1][1]


def _leading_markers_not_skipped(text, offsets, limit):
    markers = len(offsets) - len(_pieces(offsets))
    return 0 if len(offsets) <= limit else len(text) - offsets[limit - markers - 1][1]


def _never_read_by(text, offsets, limit, last=lambda piece: piece[1], shift=0):
    if len(offsets) <= limit:
        return 0
    markers = len(offsets) - len(_pieces(offsets))
    return len(text) - last(_pieces(offsets)[limit - markers - 1 + shift])


def _start_of_last_piece(text, offsets, limit):
    return _never_read_by(text, offsets, limit, last=lambda piece: piece[0])


def _one_piece_short(text, offsets, limit):
    return _never_read_by(text, offsets, limit, shift=-1)


def _one_piece_over(text, offsets, limit):
    return _never_read_by(text, offsets, limit, shift=1)


def _characters_read(text, offsets, limit):
    return len(text) - _never_read_by(text, offsets, limit)


def _positions_past_the_limit(text, offsets, limit):
    return max(0, len(offsets) - limit)


def _blanks_left_out(text, offsets, limit):
    unread = _never_read_by(text, offsets, limit)
    return len("".join(text[len(text) - unread :].split()))


def _exactly_the_limit_cut(text, offsets, limit):
    if len(offsets) < limit:
        return 0
    markers = len(offsets) - len(_pieces(offsets))
    return len(text) - _pieces(offsets)[limit - markers - 1][1]


def _fit_by_pieces_alone(text, offsets, limit):
    return 0 if len(_pieces(offsets)) <= limit else _never_read_by(text, offsets, limit)


def _by_library(text, offsets, limit):
    from chunklab.embeddings.minilm import MiniLMEmbedder

    return len(text) - MiniLMEmbedder(max_tokens=limit).read_until(text)


WRONG_NEVER_READ = {
    _two_markers: "offsets[limit - 2] is MiniLM's case",
    _markers_left_out: "the markers take positions too",
    _leading_markers_not_skipped: "offsets[i] counts the leading markers",
    _start_of_last_piece: "count from the end of the last piece read",
    _one_piece_short: "one piece of text too few",
    _one_piece_over: "one piece of text too many",
    _characters_read: "the characters it reads",
    _positions_past_the_limit: "that counts positions never read",
    _blanks_left_out: "spaces and line breaks too",
    _exactly_the_limit_cut: "a text of exactly `limit` positions",
    _fit_by_pieces_alone: "whether a text fits counts its markers too",
    _by_library: "calls chunklab.embeddings.minilm.read_until",
}


@pytest.mark.parametrize("wrong", WRONG_NEVER_READ, ids=lambda f: f.__name__)
def test_09_2_never_read_names_each_slip(wrong):
    """09.2 was an integer a one-line read_until call gave; it is now a function checked on a
    made-up tokenizer's offsets, with markers laid out four ways, so the call cannot answer it."""
    result = verdict("09.2", wrong)
    assert not result.passed and WRONG_NEVER_READ[wrong] in result.message, result.message


def test_09_2_never_read_accepts_every_correct_form_and_refuses_a_string():
    def from_the_end(text, offsets, limit):
        if len(offsets) <= limit:
            return 0
        read = [o for o in offsets if tuple(o) != (0, 0)][: limit - offsets.count((0, 0))]
        return np.int64(len(text) - read[-1][1])

    for fn in (solutions.never_read, from_the_end):
        assert verdict("09.2", fn).passed, verdict("09.2", fn).message
    as_text = verdict("09.2", lambda *case: str(solutions.never_read(*case)))
    assert not as_text.passed and "return an int" in as_text.message, as_text.message


def test_09_2_runs_the_learners_function_on_the_manual(capsys):
    from chunklab.documents.series import load_document
    from chunklab.embeddings.minilm import MiniLMEmbedder
    from chunklab.teaching.exercises_never_read import try_on_the_manual

    text = load_document("manual").text
    try_on_the_manual(solutions.never_read)
    unread = len(text) - MiniLMEmbedder().read_until(text)
    assert f"yours says {unread} characters never read" in capsys.readouterr().out


def _float16_sums(vectors, mask):
    return solutions.masked_mean(np.asarray(vectors).astype(np.float16), mask).astype(np.float32)


def _mask_as_index(vectors, mask):
    return np.stack([v[m].mean(axis=0) for v, m in zip(vectors, mask, strict=True)])


@pytest.mark.parametrize(
    "wrong, named",
    [(_float16_sums, "taken in float16"), (_mask_as_index, "the int mask was used as an index")],
    ids=["float16", "mask as index"],
)
def test_09_1_names_low_precision_and_the_mask_as_an_index(wrong, named):
    result = verdict("09.1", wrong)
    assert not result.passed
    assert named in result.message, result.message


def _read_pieces(offsets, limit):
    """The pieces of text and how many of them the model reads (a learner's first lines)."""
    pieces = [o for o in offsets if tuple(o) != (0, 0)]
    return pieces, limit - (len(offsets) - len(pieces))


def from_the_next_piece(text, offsets, limit):  # counts from where the first unread piece starts
    if len(offsets) <= limit:
        return 0
    pieces, k = _read_pieces(offsets, limit)
    return len(text) - pieces[k][0]


def stripped(text, offsets, limit):  # the right stop, the unread part stripped of its blanks
    if len(offsets) <= limit:
        return 0
    pieces, k = _read_pieces(offsets, limit)
    return len(text[pieces[k - 1][1] :].strip())


def rstripped(text, offsets, limit):  # the right stop, the text's end blanks dropped (round 46)
    if len(offsets) <= limit:
        return 0
    pieces, k = _read_pieces(offsets, limit)
    return len(text[pieces[k - 1][1] :].rstrip())


@pytest.mark.parametrize(
    ("fn", "hint"),
    [
        (from_the_next_piece, "the first piece not read"),
        (stripped, "not stripped"),
        (rstripped, "not rstripped"),
    ],
)
def test_09_2_names_the_next_piece_start_and_stripping(fn, hint):
    result = verdict("09.2", fn)
    assert not result.passed and hint in result.message, result.message


def _no_case_for_a_fit(text, offsets, limit):  # no case for a text that fits
    pieces = _pieces(offsets)
    k = min(limit - (len(offsets) - len(pieces)), len(pieces))
    return len(text) - pieces[k - 1][1]


def test_09_2_names_a_text_that_fits_with_blanks_at_its_end():
    """A text that fits is read whole, its end blanks too: the hint must say so, not send the
    learner back to 'count the characters after the last piece read'."""
    result = verdict("09.2", _no_case_for_a_fit)
    assert not result.passed and "is read whole, blanks at its end too" in result.message, (
        result.message
    )


def _two_markers_on_the_pieces(text, offsets, limit):  # 254 of 256: two markers hard-coded
    return 0 if len(offsets) <= limit else len(text) - _pieces(offsets)[limit - 3][1]


def _first_positions(text, offsets, limit):  # offsets[:limit]: the markers after the text dropped
    if len(offsets) <= limit:
        return 0
    return len(text) - _pieces(offsets[:limit])[-1][1]


def _leading_markers_only(text, offsets, limit):  # only the markers before the text counted
    if len(offsets) <= limit:
        return 0
    leading = next(i for i, o in enumerate(offsets) if tuple(o) != (0, 0))
    return len(text) - _pieces(offsets)[limit - leading - 1][1]


def _one_character_short(text, offsets, limit):  # the end taken as the last character's index
    return _never_read_by(text, offsets, limit) - 1 if len(offsets) > limit else 0


@pytest.mark.parametrize(
    ("fn", "hint"),
    [
        (_two_markers_on_the_pieces, "limit - 2 pieces of text is MiniLM's case"),
        (_first_positions, "the markers after the text were left out"),
        (_leading_markers_only, "the markers after the text were left out"),
        (_one_character_short, "one character short"),
    ],
    ids=["two markers on the pieces", "offsets[:limit]", "leading markers only", "one short"],
)
def test_09_2_names_the_markers_a_learner_drops_and_a_character_short(fn, hint):
    """Each got the generic 'find the last piece of text read' hint on the round-44 checker."""
    result = verdict("09.2", fn)
    assert not result.passed and hint in result.message, result.message
