"""Notebook 03d's exercise refuses plausible wrong answers, each with a hint naming what is wrong,
and accepts the count found the learner's way."""

import pytest

from chunklab.teaching.exercises import verdict
from chunklab.teaching.selfcheck import verdict_for

# --- 03d.1: questions where only small-to-big's 2400-character block holds the answer (BM25) ----

WRONG_03D_1 = [
    (21, "small-to-big lost"),  # the other direction
    (9, "at 1600 characters"),  # the notebook's lengths
    (15, "at 4000 characters"),
    (27, "with WordLlama"),
    (245, "the ties"),
    (-11, "won minus lost"),
    (31, "won plus lost"),  # every question where the two blocks differ
    (9, "one off"),  # off by one below, named before the coincidence with 1600 characters
    (11, "one off"),
    (4, "as a percent of the questions"),  # 10 of 276, given as a percent
    (7, "1200-character children"),  # the children cut at half the block
    (166, "both blocks hold the answer"),  # ties where both hold it, not wins
]


@pytest.mark.parametrize(("answer", "hint"), WRONG_03D_1, ids=repr)
def test_03d_1_refuses_with_a_hint(answer, hint):
    message = verdict_for("03d.1", answer)
    assert "not quite" in message and hint in message, message


def test_03d_1_accepts_the_count_found_by_both_searches():
    """The learner's way, without the notebook's helper: cut, search both ways, count."""
    from chunklab import Document, FixedSizeChunker
    from chunklab.evaluation.chroma import load_corpora, load_questions
    from chunklab.retrieval.retrievers import BM25Retriever

    won, find_block, find_kid = 0, BM25Retriever(), BM25Retriever()  # each keeps its own index
    for name, text in load_corpora().items():
        if len(text) >= 200_000:
            continue
        doc = Document(doc_id=name, uri=name, title="", text=text)
        blocks = FixedSizeChunker(size=2400, overlap=0).split(doc)
        kids = FixedSizeChunker(size=800, overlap=0).split(doc)
        # the two cuts name their chunks alike ("wikitexts#c0", ...): one lookup each
        block_of = {b.chunk_id: b for b in blocks}
        kid_of = {c.chunk_id: c for c in kids}
        for q in (q for q in load_questions() if q.corpus == name):
            block = block_of[find_block.rank(q.text, blocks, 1)[0].ref_id]
            kid = kid_of[find_kid.rank(q.text, kids, 1)[0].ref_id]
            around = next(b for b in blocks if b.start <= kid.start < b.end)
            kid_block, found = (
                all(b.start <= s and e <= b.end for s, e in q.excerpts) for b in (around, block)
            )
            won += kid_block and not found
    assert verdict_for("03d.1", won) == "Exercise 03d.1: correct."


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
