"""`evaluation.benchmark_rankers` ranks exactly as the retrievers asked question by question
(`benchmark.by_retriever`), on a real corpus of Chroma's benchmark and its questions, and
`rescore` scores another ranker's top k over the same chunks and precision-Ω."""

import numpy as np
import pytest

from chunklab.embeddings.static import HashingEmbedder
from chunklab.evaluation.benchmark import by_retriever, dense, evaluate
from chunklab.evaluation.benchmark_rankers import bm25_ranker, hybrid_ranker, rescore
from chunklab.evaluation.chroma import load_corpora, load_questions
from chunklab.retrieval.retrievers import BM25Retriever, DenseRetriever, HybridRetriever


def windows(text, size=1500):
    return [(a, min(a + size, len(text))) for a in range(0, len(text), size)]


@pytest.fixture(scope="module")
def chat_logs():
    """The chat logs (the smallest corpus) cut in fixed windows, ranked by a hashing embedder:
    the same chunks and questions for every ranker, in seconds."""
    corpora = {"chatlogs": load_corpora()["chatlogs"]}
    questions = [q for q in load_questions() if q.corpus == "chatlogs"][:30]
    embedder = HashingEmbedder()
    return evaluate(windows, dense(embedder), corpora=corpora, questions=questions), embedder


def nothing(step, done, of):
    return None


def test_bm25_ranks_as_the_retriever_asked_question_by_question(chat_logs):
    result, _ = chat_logs
    ours = bm25_ranker()(result.chunks, result.questions, 5, nothing)
    theirs = by_retriever(BM25Retriever())(result.chunks, result.questions, 5, nothing)
    assert ours.shape == (len(result.questions), 5)
    np.testing.assert_array_equal(ours, theirs)


def test_the_hybrid_ranks_as_the_retriever_asked_question_by_question(chat_logs):
    result, embedder = chat_logs
    ours = hybrid_ranker(embedder)(result.chunks, result.questions, 5, nothing)
    retriever = HybridRetriever(dense=DenseRetriever(embedder))
    theirs = by_retriever(retriever)(result.chunks, result.questions, 5, nothing)
    np.testing.assert_array_equal(ours, theirs)
    # read only 5 deep, the fusion ranks otherwise: the depth is not ignored
    shallow = hybrid_ranker(embedder, depth=5)(result.chunks, result.questions, 5, nothing)
    assert not np.array_equal(shallow, ours)


def test_rescore_keeps_the_cut_and_scores_the_new_ranking(chat_logs):
    result, _ = chat_logs
    again = rescore(result, bm25_ranker())
    assert again.chunks == result.chunks and again.questions == result.questions
    np.testing.assert_array_equal(again.scores["precision_omega"], result.scores["precision_omega"])
    assert not np.array_equal(again.retrieved, result.retrieved)
    for metric in ("recall", "precision", "iou"):
        assert again.scores[metric].shape == (len(result.questions),)
    assert again.mean("recall") != result.mean("recall")
