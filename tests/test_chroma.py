"""Chroma's benchmark (issue 26): its metrics on hand-made cases, its chunkers' documented rules,
its chunk positions, and the precision-Ω of the report's Recursive rows (no model needed).

The retrieval columns (recall, precision, IoU with MiniLM) take minutes: `make bench` runs
`bench/chroma_reproduce.py --retrieval`, which fails if a Recursive row leaves the tolerances.
"""

import numpy as np
import pytest

from chunklab.chunkers.recursive import RecursiveChunker, cut_before
from chunklab.chunkers.registry import build
from chunklab.chunkers.tokentext import TokenTextChunker, windows
from chunklab.evaluation.benchmark import chunker_cut, cut_corpora, evaluate, nearest
from chunklab.evaluation.chroma import (
    CORPORA,
    Located,
    NotFound,
    Question,
    load_corpora,
    load_questions,
    locate,
    precision_omega,
    retrieval_scores,
    subtract,
    union,
)


def chunk(start: int, end: int, corpus: str = "a") -> Located:
    return Located("x" * (end - start), corpus, start, end)


# --- the metrics, by hand -------------------------------------------------------------------------


def test_recall_precision_and_iou_of_a_top_k_with_a_chunk_of_another_corpus():
    q = Question("q", "a", ((10, 20),))
    # (0,15) covers 10..15 and (15,30) covers 15..20: the excerpt's 10 characters, recall 1.
    # Precision sums *every* retrieved chunk, the other corpus's 100 included: 10 / (15+15+100).
    # Nothing unreached, so IoU = 10 / 130 as well.
    s = retrieval_scores(q, [chunk(0, 15), chunk(15, 30), chunk(0, 100, "b")])
    assert s.recall == 1.0
    assert s.precision == pytest.approx(10 / 130)
    assert s.iou == pytest.approx(10 / 130)


def test_unreached_excerpt_characters_count_in_iou_and_overlapping_chunks_twice_in_precision():
    q = Question("q", "a", ((10, 20), (40, 50)))
    # One chunk (0,15): covers 10..15 = 5 of 20 excerpt characters -> recall 0.25, precision
    # 5/15; unreached 15..20 and 40..50 = 15 characters -> IoU 5 / (15 + 15) = 1/6.
    s = retrieval_scores(q, [chunk(0, 15)])
    assert (s.recall, s.precision, s.iou) == pytest.approx((0.25, 5 / 15, 1 / 6))
    # Two overlapping chunks (0,8) and (4,12) over the excerpt (0,10): the covered characters are
    # a union (10), the retrieved ones a sum (8 + 8): precision 10/16.
    q2 = Question("q", "a", ((0, 10),))
    s2 = retrieval_scores(q2, [chunk(0, 8), chunk(4, 12)])
    assert (s2.recall, s2.precision) == pytest.approx((1.0, 10 / 16))


def test_precision_omega_counts_a_chunk_that_only_touches_an_excerpt():
    q = Question("q", "a", ((10, 20),))
    # (0,15) covers 10..15 (5 characters). (20,30) only touches the excerpt's end: their
    # intersection test is `start <= end`, so it counts, with nothing covered. Denominator: the
    # union of both chunks and the unreached 15..20 = 0..30 = 30 -> 5/30. Without the touching
    # chunk it would be 5 / |0..20| = 1/4.
    assert precision_omega(q, [chunk(0, 15), chunk(20, 30)]) == pytest.approx(5 / 30)
    assert precision_omega(q, [chunk(0, 15)]) == pytest.approx(5 / 20)
    # Chunks of another corpus never count; no chunk meeting an excerpt scores 0.
    assert precision_omega(q, [chunk(0, 15), chunk(0, 30, "b")]) == pytest.approx(5 / 20)
    assert precision_omega(q, [chunk(30, 40)]) == 0.0


def test_span_arithmetic_keeps_their_boundary_cases():
    assert union([(5, 8), (0, 3), (3, 4)]) == [(0, 4), (5, 8)]  # touching spans merge
    assert subtract([(0, 10)], (3, 5)) == [(0, 3), (5, 10)]
    assert subtract([(0, 10)], (0, 10)) == []
    assert subtract([(0, 10)], (10, 10)) == [(0, 10)]  # an empty cut at the end removes nothing


def test_locate_drops_a_final_full_stop_takes_the_first_occurrence_and_forgives_whitespace():
    corpus = "One. Two.\nTwo again.  Three  four."
    assert locate(corpus, "Two.") == (5, 8)  # "Two" found first at 5, the "." left out
    assert locate(corpus, "three four") == (22, 33)  # whitespace and case differ
    with pytest.raises(NotFound, match="five"):
        locate(corpus, "five")


def test_nearest_is_exact_squared_l2_ties_to_the_earlier_vector():
    vectors = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8], [0.0, 1.0]])
    queries = np.array([[0.0, 1.0], [1.0, 0.0]])
    # Query (0,1): distances 2, 0, 0.4, 0 -> 1 and 3 tie at 0 (1 first), then 2.
    assert nearest(queries, vectors, 3).tolist() == [[1, 3, 2], [0, 2, 1]]


# --- the chunkers' documented rules ---------------------------------------------------------------


def test_recursive_merges_pieces_cut_before_each_separator_and_strips_them():
    # Separator " " (no "\n\n", "\n", ".", "?", "!"): pieces "aaaa", " bbbb", " cccc" (the space
    # starts the next piece). 4 + 5 = 9 <= 10; adding 5 more is 14 > 10: emit "aaaa bbbb".
    text = "aaaa bbbb cccc"
    assert RecursiveChunker(size=10, count_tokens=len).split_text(text) == ["aaaa bbbb", "cccc"]
    # Overlap 5: after the emit, "aaaa" is dropped (9 > 5), " bbbb" (5) stays and starts the next.
    assert RecursiveChunker(size=10, overlap=5, count_tokens=len).split_text(text) == [
        "aaaa bbbb",
        "bbbb cccc",
    ]
    assert cut_before("a\n\nb\n\n\n\nc", 0, 10, "\n\n") == [(0, 1), (1, 4), (4, 6), (6, 10)]


def test_recursive_counts_the_empty_joint_as_the_length_function_does():
    # A counter that adds 2 to every text, as MiniLM's [CLS] and [SEP] do: "" counts 2, so each
    # joint costs 2. Pieces count 6, 7, 7: 6 + 7 + 2 = 15 > 14, so every piece stands alone.
    # With a plain `len` at size 14, 4 + 5 = 9 and 9 + 5 = 14 fit: one chunk.
    text = "aaaa bbbb cccc"
    with_joint = RecursiveChunker(size=14, count_tokens=lambda t: len(t) + 2).split_text(text)
    assert with_joint == ["aaaa", "bbbb", "cccc"]
    assert RecursiveChunker(size=14, count_tokens=len).split_text(text) == [text]


def test_recursive_splits_a_piece_at_or_over_the_size_with_the_next_separators():
    # "\n\n" cuts "ab cd" | "\n\nabcdefgh"; both are >= 4, so each is split again with the
    # separators after "\n\n". "ab cd" -> "ab" | " cd". The other, at "\n": "\n" (alone, only
    # whitespace: dropped) | "\nabcdefgh", which has no ".", "?", "!" or " ", so it is cut into
    # characters and merged four at a time: "\nabc" (the newline counts, then is stripped),
    # "defg", "h".
    text = "ab cd\n\nabcdefgh"
    out = RecursiveChunker(size=4, count_tokens=len).split_text(text)
    assert out == ["ab", "cd", "abc", "defg", "h"]
    spans = RecursiveChunker(size=4, count_tokens=len).spans(text)
    assert [text[a:b] for a, b in spans] == out


def test_recursive_chunks_are_slices_and_respect_the_size_on_a_real_corpus():
    text = load_corpora()["state_of_the_union"][:20000]
    chunker = build("recursive", size=120, overlap=30, length="minilm")
    chunks = chunker.split(text)
    assert all(c.text == text[c.start : c.end] for c in chunks)
    assert max(c.token_count for c in chunks) <= 120


def test_tokentext_windows_step_size_minus_overlap_and_end_at_the_last_token():
    assert list(windows(10, 4, 2)) == [(0, 4), (2, 6), (4, 8), (6, 10)]
    assert list(windows(8, 4, 0)) == [(0, 4), (4, 8)]
    assert list(windows(0, 4, 0)) == []
    text = load_corpora()["chatlogs"][:3000]
    cl = TokenTextChunker(size=50, overlap=0, length="cl100k")
    assert "".join(cl.split_text(text)) == text  # windows without overlap decode back to the text
    for c in TokenTextChunker(size=50, overlap=10, length="minilm").split(text):
        assert c.token_count <= 50 and c.text == text[c.start : c.end]
    with pytest.raises(ValueError, match="smaller than size"):
        TokenTextChunker(size=10, overlap=10)


# --- the data and the report's figures ------------------------------------------------------------


def test_the_questions_name_the_five_corpora_and_their_excerpts_are_in_them():
    corpora, questions = load_corpora(), load_questions()
    assert len(questions) == 472 and list(corpora) == list(CORPORA)
    assert list(dict.fromkeys(q.corpus for q in questions)) == list(CORPORA)
    assert all(0 <= a < b <= len(corpora[q.corpus]) for q in questions for a, b in q.excerpts)


def test_evaluate_scores_any_cut_of_texts_or_spans_the_same_way():
    corpora = {"a": "Alpha beta. Gamma delta.", "b": "Other text here."}
    questions = [Question("gamma?", "a", ((12, 23),))]

    def halves(text: str) -> list[str]:
        return [text[: len(text) // 2], text[len(text) // 2 :]]

    by_text = evaluate(halves, None, corpora=corpora, questions=questions)
    by_span = evaluate(
        lambda t: [(0, len(t) // 2), (len(t) // 2, len(t))],
        None,
        corpora=corpora,
        questions=questions,
    )
    # Located as the report locates texts: a final "." is left out of the chunk's span.
    assert [(c.start, c.end) for c in by_text.chunks] == [(0, 12), (12, 23), (0, 8), (8, 15)]
    # The excerpt 12..23 (11 characters) lies in the second chunk; the first, 0..12, touches it
    # and so counts too (their `start <= end`). Located: union 0..23 -> 11/23; as spans, the
    # second chunk is 12..24 -> 11/24.
    assert by_text.mean("precision_omega") == pytest.approx(100 * 11 / 23)
    assert by_span.mean("precision_omega") == pytest.approx(100 * 11 / 24)
    spans = cut_corpora(chunker_cut(build("fixed", size=10, overlap=0)), corpora)
    assert spans[0] == Located("Alpha beta", "a", 0, 10)


@pytest.mark.parametrize(
    "size, overlap, length, published",
    [(200, 0, "minilm", 31.2), (250, 125, "minilm", 21.9), (200, 0, "cl100k", 29.9)],
)
def test_the_reports_recursive_precision_omega_reproduces(size, overlap, length, published):
    # MiniLM table: Recursive 200/0 31.2, 250/125 21.9 (lengths in MiniLM word pieces); the
    # text-embedding-3-large table: Recursive 200/0 29.9 (lengths in cl100k). Tolerance 0.5.
    chunker = RecursiveChunker(size=size, overlap=overlap, length=length)
    result = evaluate(chunker.split_text, None)
    assert result.mean("precision_omega") == pytest.approx(published, abs=0.5)


def test_cluster_groups_by_the_best_split_and_keeps_their_start_at_zero_quirk():
    from chunklab.chunkers.cluster import groups

    sim = np.array([[1, 0.9, 0, 0], [0.9, 1, 0, 0], [0, 0, 1, 0.9], [0, 0, 0.9, 1]])
    # Mean of the 6 distinct pairs = 1.8 / 6 = 0.3; less it, diagonal 0: the two alike pairs
    # score 0.6, the others -0.3. Groups (0,1) and (2,3) score 2 x 0.6 each = 2.4 in all; the
    # whole block scores 2 x (0.6 + 0.6 - 4 x 0.3) = 0.
    assert groups(sim, 4) == [(0, 1), (2, 3)]
    # At most one unit per group: every score is 0, never "> 0", so each unit's group is left
    # starting at unit 0 and the walk back makes one group of all four (their code's quirk).
    assert groups(sim, 1) == [(0, 3)]
