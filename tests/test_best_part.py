"""Multi-vector scoring (notebook 09): a long text's parts cover it whole, each within what MiniLM
reads; a chunk's best-part score is its own for a short text and at least its own for a long one."""

import numpy as np

from chunklab.documents.series import load_document
from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.retrieval.retrievers import DenseRetriever
from chunklab.teaching.best_part import BestPartScorer, paired, parts


def test_parts_cover_the_text_each_read_whole():
    minilm = MiniLMEmbedder()
    text = load_document("work_schedules").text[:6000]
    pieces = parts(minilm, text)
    assert len(pieces) > 1 and "".join(pieces) == text
    assert all(minilm.read_until(p) == len(p) for p in pieces)  # nothing past the read limit


def test_best_part_is_own_score_for_a_short_text_and_no_lower_for_a_long_one():
    minilm = MiniLMEmbedder()
    scorer = BestPartScorer(minilm, DenseRetriever(minilm))
    query = minilm.embed_documents(["how are overtime hours paid"])[0]
    short = "Overtime is paid at one and a half times the hourly rate."
    assert scorer.chunk_score(0.25, short, query) == 0.25  # one part: the chunk's own score
    long = load_document("work_schedules").text[:6000]
    own = float(minilm.embed_documents([long])[0] @ query)
    assert scorer.chunk_score(own, long, query) >= own
    assert len(scorer.part_vectors) == len(parts(minilm, long)) - 1 and np.isfinite(own)


def test_paired_compares_each_pair_on_the_given_questions_only(capsys):
    found = {"a": {"q1": 1, "q2": 1, "q3": 0, "q4": 1}, "b": {"q1": 0, "q2": 1, "q3": 1, "q4": 0}}
    out = paired(found, [("a", "b"), ("b", "a")], ["q1", "q2", "q3"], level=95)
    ab, ba = out["a", "b"], out["b", "a"]
    assert (ab.won, ab.lost, ab.tied) == (1, 1, 1)  # q4 is not among the questions
    assert (ba.won, ba.lost) == (ab.lost, ab.won) and ab.a == "a" and ab.b == "b"
    assert capsys.readouterr().out.count("on 3 questions") == 2  # each line printed
