"""An answer counts as inside only when one piece holds each excerpt whole."""

from chunklab.contracts import Chunk
from chunklab.retrieval.retrievers import BM25Retriever
from chunklab.teaching.excerpt_inside import answer_inside, answer_inside_merged, runs, top_chunks


def _piece(i: int, start: int, end: int, text: str = "x") -> Chunk:
    return Chunk(
        chunk_id=f"d#{i}", doc_id="d", ordinal=i, text=text, token_count=1, start=start, end=end
    )


TEXT = "Sentence one here. Sentence two, then more text to the end."  # no white space at 10


def test_an_excerpt_inside_one_piece_counts():
    assert answer_inside([_piece(0, 0, 10), _piece(1, 20, 30)], [(22, 28)]) == 1


def test_an_excerpt_split_across_two_touching_pieces_does_not():
    assert answer_inside([_piece(0, 0, 10), _piece(1, 10, 20)], [(5, 15)]) == 0


def test_merged_an_excerpt_across_two_overlapping_pieces_counts():
    overlapping = [_piece(0, 0, 12), _piece(1, 8, 20)]
    assert answer_inside(overlapping, [(5, 15)]) == 0
    assert answer_inside_merged(overlapping, [(5, 15)], TEXT) == 1


def test_merged_a_gap_between_pieces_still_cuts_the_excerpt():
    assert answer_inside_merged([_piece(0, 0, 10), _piece(1, 11, 20)], [(5, 15)], TEXT) == 0


def test_every_excerpt_must_be_inside():
    assert answer_inside([_piece(0, 0, 10)], [(1, 2), (40, 50)]) == 0


def test_top_chunks_hands_back_the_chunks_best_first():
    chunks = [_piece(0, 0, 5, "apples and pears"), _piece(1, 5, 9, "tokyo daily limit")]
    best = top_chunks(BM25Retriever(), "daily limit in tokyo", chunks, 1)
    assert [c.chunk_id for c in best] == ["d#1"]


def test_runs_join_pieces_with_only_white_space_between():
    """Windows that touch at a sentence boundary (one ends at sentence 5, the next starts at 6)
    are one run, as exercise 03b.2 merges them; text between two pieces keeps them apart."""
    text = "One. Two. Three."
    assert runs([(5, 9), (0, 4)], text) == [(0, 9)]  # a space between: one run
    assert runs([(0, 4), (10, 16)], text) == [(0, 4), (10, 16)]  # "Two. " between: apart
    assert answer_inside_merged([_piece(0, 0, 4), _piece(1, 5, 9)], [(2, 7)], text) == 1
