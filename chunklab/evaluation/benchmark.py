"""Any cut on Chroma's benchmark: chunk the five corpora, retrieve the top k, score as they do.

Their `BaseEvaluation.run` (`brandonstarxel/chunking_evaluation` @d451fc4, MIT), step by step:
the corpora are cut one by one, in the order the questions name them, and every chunk is located
in its corpus (`chroma.locate`); all chunks go into *one* collection, so a question's top k may
hold chunks of other corpora (no filter by corpus); each question's k nearest chunks are found by
squared L2 distance between embeddings (chromadb's default; on unit vectors it ranks exactly as
cosine similarity). Chromadb's index is approximate (HNSW); here the search is exact, in numpy.
Precision-Ω needs no embeddings and is computed for every question over the whole cut.

A cut is any callable `str -> sequence`: of chunk texts (located as theirs are) or of (start, end)
spans (taken as they are), so a chunklab strategy, the report's chunkers and a LangChain splitter
are scored the same way (`chunker_cut` makes one of a chunklab chunker).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from chunklab.contracts import Chunk, Chunker
from chunklab.embeddings.static import Embedder
from chunklab.evaluation.chroma import (
    Located,
    Question,
    load_corpora,
    load_questions,
    locate_all,
    precision_omega,
    retrieval_scores,
)
from chunklab.retrieval.retrievers import Retriever

Cut = Callable[[str], Sequence[Any]]  # chunk texts, or (start, end) spans
Progress = Callable[[str, int, int], None]  # (step, done, of)
# (chunks, questions, k, progress) -> (questions, k) indices of each question's top k chunks
Ranker = Callable[[Sequence[Located], Sequence[Question], int, Progress], np.ndarray]
METRICS = ("recall", "precision", "precision_omega", "iou")


def cut_corpora(cut: Cut, corpora: Mapping[str, str]) -> list[Located]:
    """Every chunk of every corpus with its position, corpus by corpus in `corpora`'s order."""
    out: list[Located] = []
    for corpus_id, text in corpora.items():
        pieces = list(cut(text))
        if pieces and isinstance(pieces[0], tuple):
            out.extend(Located(text[a:b], corpus_id, a, b) for a, b in pieces)
        else:
            out.extend(locate_all(corpus_id, text, pieces))
    return out


def omega_scores(questions: Sequence[Question], chunks: Sequence[Located]) -> list[float]:
    """Precision-Ω of each question. Only chunks that meet an excerpt change it, so each question
    is given those alone, in their order (the score is the same as over the whole cut)."""
    by_corpus: dict[str, list[Located]] = {}
    for chunk in chunks:
        by_corpus.setdefault(chunk.corpus, []).append(chunk)
    bounds = {c: np.array([(k.start, k.end) for k in ks]) for c, ks in by_corpus.items()}
    scores = []
    for q in questions:
        spans, mine = bounds.get(q.corpus), by_corpus.get(q.corpus, [])
        if spans is None:
            scores.append(0.0)
            continue
        meets = np.zeros(len(mine), dtype=bool)
        for a, b in q.excerpts:
            meets |= (spans[:, 0] <= b) & (spans[:, 1] >= a)
        scores.append(precision_omega(q, [mine[i] for i in np.flatnonzero(meets)]))
    return scores


def nearest(queries: np.ndarray, vectors: np.ndarray, k: int) -> np.ndarray:
    """Indices of each query's k nearest vectors by squared L2 distance, exact; ties go to the
    earlier vector. (queries, k)."""
    q = queries.astype(np.float64)
    v = vectors.astype(np.float64)
    distances = (q * q).sum(1)[:, None] + (v * v).sum(1)[None, :] - 2.0 * q @ v.T
    return np.argsort(distances, axis=1, kind="stable")[:, :k]


@dataclass
class Result:
    """Per-question scores of one cut, and what the cut was."""

    questions: list[Question]
    chunks: list[Located]
    scores: dict[str, np.ndarray] = field(default_factory=dict)  # metric -> (questions,)
    retrieved: np.ndarray | None = None  # (questions, k) chunk indices

    def mean(self, metric: str, corpus: str | None = None) -> float:
        """Mean over the questions (of one corpus), x 100 as the report prints it."""
        values = self.scores[metric]
        if corpus is not None:
            values = values[[q.corpus == corpus for q in self.questions]]
        return float(values.mean() * 100)

    def row(self, corpus: str | None = None) -> dict[str, float]:
        return {m: self.mean(m, corpus) for m in METRICS if m in self.scores}


def evaluate(
    cut: Cut,
    ranker: Ranker | None,
    k: int = 5,
    corpora: Mapping[str, str] | None = None,
    questions: Sequence[Question] | None = None,
    progress: Progress | None = None,
) -> Result:
    """The benchmark for one cut: precision-Ω always; recall, precision and IoU of each
    question's top `k` when a ranker is given (`dense(embedder)`, `by_retriever(retriever)`)."""
    corpora = load_corpora() if corpora is None else corpora
    questions = load_questions() if questions is None else list(questions)
    report = progress or (lambda step, done, of: None)
    report("cut", 0, 1)
    chunks = cut_corpora(cut, corpora)
    report("cut", 1, 1)
    result = Result(list(questions), chunks)
    result.scores["precision_omega"] = np.array(omega_scores(questions, chunks))
    if ranker is None:
        return result
    result.retrieved = ranker(chunks, questions, k, report)
    scored = [
        retrieval_scores(q, [chunks[i] for i in row if i >= 0])
        for q, row in zip(questions, result.retrieved, strict=True)
    ]
    for metric in ("recall", "precision", "iou"):
        result.scores[metric] = np.array([getattr(s, metric) for s in scored])
    return result


def dense(embedder: Embedder) -> Ranker:
    """Their retrieval: chunks and questions embedded, exact nearest by squared L2."""

    def rank(chunks: Sequence[Located], questions: Sequence[Question], k: int, report: Progress):
        vectors = embed_in_steps(embedder, [c.text for c in chunks], report)
        asked = embedder.embed_documents([q.text for q in questions])
        return nearest(asked, vectors, k)

    return rank


def by_retriever(retriever: Retriever) -> Ranker:
    """Any chunklab retriever (BM25, hybrid, dense) over the one collection of all chunks."""

    def rank(chunks: Sequence[Located], questions: Sequence[Question], k: int, report: Progress):
        records = [
            Chunk(
                chunk_id=str(i),
                doc_id=c.corpus,
                ordinal=i,
                text=c.text,
                token_count=0,
                start=c.start,
                end=c.end,
            )
            for i, c in enumerate(chunks)
        ]
        rows = []
        for n, q in enumerate(questions):
            hits = [int(h.ref_id) for h in retriever.rank(q.text, records, k)]
            rows.append(hits + [-1] * (k - len(hits)))  # -1: nothing found there
            report("rank", n + 1, len(questions))
        return np.array(rows, dtype=np.int64).reshape(len(questions), k)

    return rank


def embed_in_steps(
    embedder: Embedder, texts: Sequence[str], report: Progress, step: int = 500
) -> np.ndarray:
    """The texts' vectors, `step` at a time (their batch of 500), reporting after each."""
    parts = []
    for start in range(0, len(texts), step):
        parts.append(embedder.embed_documents(texts[start : start + step]))
        report("embed", min(start + step, len(texts)), len(texts))
    return np.concatenate(parts) if parts else np.zeros((0, 1), dtype=np.float32)


def chunker_cut(chunker: Chunker) -> Cut:
    """A cut from a chunklab chunker: its chunks' spans, each chunk the slice it was cut from."""
    return lambda text: [(c.start, c.end) for c in chunker.split(text)]
