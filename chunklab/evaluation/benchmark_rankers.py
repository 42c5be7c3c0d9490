"""BM25 and the hybrid on Chroma's benchmark with the collection indexed once: seconds, not minutes.

Why a second way to rank: `benchmark.by_retriever` asks a chunklab retriever question by
question, as an application would, and the retriever checks its candidates each time (BM25: 20 s
for the 472 questions on two cores; the hybrid reads MiniLM's ranking 50 deep on top of that). On
the benchmark the candidates never change: every question is asked of the same one collection.
So here BM25 is indexed once (the same `bm25s` model and `BM25Retriever.tokens`), the dense part
scores every chunk with the same `dot_scores`, and the two are fused by the same
`reciprocal_rank_fusion` constant; ties go to the earlier chunk, as `retrievers._top` breaks them.
`tests/test_benchmark_rankers.py` checks each ranks exactly as `by_retriever` does.

`rescore` scores a cut already evaluated with another ranker, so a notebook cuts each corpus once
and asks MiniLM, BM25 and the hybrid of the same chunks.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence

import numpy as np

from chunklab.embeddings.static import Embedder
from chunklab.evaluation.benchmark import Progress, Ranker, Result
from chunklab.evaluation.chroma import Located, Question, retrieval_scores
from chunklab.retrieval.retrievers import RRF_K, BM25Retriever

HYBRID_DEPTH = 50  # how deep each ranking is read before fusing: HybridRetriever's default


def _best_first(scores: np.ndarray, k: int, keep_zero: bool) -> list[int]:
    """The k best indices, ties to the earlier one; zero scores left out unless `keep_zero`."""
    order = np.argsort(-scores, kind="stable")
    if not keep_zero:
        order = order[scores[order] > 0]
    return [int(i) for i in order[:k]]


# The last collection indexed and its scorer: BM25 alone and the hybrid of the same cut share one
# index (folding and counting 2,500 chunks' words is most of BM25's cost here).
_LAST_INDEX: dict[tuple[str, ...], Callable[[str], np.ndarray | None]] = {}


def _bm25_scores(chunks: Sequence[Located]) -> Callable[[str], np.ndarray | None]:
    """A function from a question to every chunk's BM25 score, the collection indexed once."""
    key = tuple(c.text for c in chunks)
    if key not in _LAST_INDEX:
        _LAST_INDEX.clear()
        _LAST_INDEX[key] = _index(chunks)
    return _LAST_INDEX[key]


def _index(chunks: Sequence[Located]) -> Callable[[str], np.ndarray | None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # bm25s imports tqdm.auto, which warns without ipywidgets
        import bm25s

    model = bm25s.BM25()
    model.index([BM25Retriever.tokens(c.text) or ["\x00"] for c in chunks], show_progress=False)

    def scores(question: str) -> np.ndarray | None:  # None: the question has no word to count
        terms = BM25Retriever.tokens(question)
        return np.asarray(model.get_scores(terms)) if terms else None

    return scores


def _pad(rows: list[list[int]], k: int) -> np.ndarray:
    """(questions, k) indices; -1 where fewer than k chunks were found, as `by_retriever` pads."""
    return np.array([row + [-1] * (k - len(row)) for row in rows], dtype=np.int64).reshape(-1, k)


def bm25_ranker() -> Ranker:
    """BM25 over the one collection, as `by_retriever(BM25Retriever())` ranks it."""

    def rank(chunks: Sequence[Located], questions: Sequence[Question], k: int, report: Progress):
        scores = _bm25_scores(chunks)
        rows = []
        for q in questions:
            s = scores(q.text)
            rows.append([] if s is None else _best_first(s, k, keep_zero=False))
        report("rank", len(questions), len(questions))
        return _pad(rows, k)

    return rank


def hybrid_ranker(embedder: Embedder, depth: int = HYBRID_DEPTH) -> Ranker:
    """BM25 and `embedder`'s cosine fused by reciprocal rank, as
    `by_retriever(HybridRetriever(dense=DenseRetriever(embedder)))` ranks."""

    def rank(chunks: Sequence[Located], questions: Sequence[Question], k: int, report: Progress):
        lexical = _bm25_scores(chunks)
        # `dot_scores` widens float32 vectors to float64 on every call; widened once here, the
        # row-wise sums below are the same numbers, bit for bit.
        vectors = np.asarray(embedder.embed_documents([c.text for c in chunks]), dtype=np.float32)
        wide = vectors.astype(np.float64)
        asked = [embedder.embed_query(q.text) for q in questions]
        deep = max(k, depth)
        rows = []
        for q, query_vector in zip(questions, asked, strict=True):
            fused = np.zeros(len(chunks))
            bm25 = lexical(q.text)
            dense = (wide * query_vector).sum(axis=1)
            rankings = [] if bm25 is None else [_best_first(bm25, deep, keep_zero=False)]
            rankings.append(_best_first(dense, deep, keep_zero=True))
            for ranking in rankings:  # lexical first, then dense: the same sums in the same order
                for place, i in enumerate(ranking, start=1):
                    fused[i] += 1.0 / (RRF_K + place)
            rows.append(_best_first(fused, k, keep_zero=False))
        report("rank", len(questions), len(questions))
        return _pad(rows, k)

    return rank


def rescore(result: Result, ranker: Ranker, k: int = 5) -> Result:
    """The same cut, its chunks and its precision-Ω, with another ranker's top `k` scored."""
    again = Result(list(result.questions), list(result.chunks))
    again.scores["precision_omega"] = result.scores["precision_omega"]
    again.retrieved = ranker(again.chunks, again.questions, k, lambda step, done, of: None)
    scored = [
        retrieval_scores(q, [again.chunks[i] for i in row if i >= 0])
        for q, row in zip(again.questions, again.retrieved, strict=True)
    ]
    for metric in ("recall", "precision", "iou"):
        again.scores[metric] = np.array([getattr(s, metric) for s in scored])
    return again
