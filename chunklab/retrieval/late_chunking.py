"""`LateChunkingRetriever`: dense search over late-chunked vectors (notebook 09).

A `DenseRetriever` embeds each chunk's text on its own. This one reads each chunk's *document*
once with the transformer (`embeddings.late.token_vectors`) and gives each chunk the mean of the
token vectors inside its span (`chunk.start`–`chunk.end`), so a chunk that says "it" was read
knowing what "it" is. Any chunker's chunks can be searched this way, since every chunk records its
span; what a chunk adds beyond its span (a breadcrumb, a prefix) is not in the document and so
not in its late vector.

The retriever must be given the documents the chunks come from. Token vectors are kept per
document, so ranking many strategies' chunks of the same documents reads each document once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np

from chunklab.contracts import Chunk, Document, Scored, ScoreSource
from chunklab.embeddings.late import TokenVectors, pool_spans, token_vectors
from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.retrieval.retrievers import dot_scores


class LateChunkingRetriever:
    """Chunks ranked by the cosine of the query with their late-chunked MiniLM vectors."""

    name = "minilm-late"

    def __init__(
        self,
        documents: Iterable[Document],
        embedder: MiniLMEmbedder | None = None,
        overlap: int = 64,
        query_vector: Callable[[str], np.ndarray | None] | None = None,
    ) -> None:
        """`query_vector`, if given, embeds the questions instead of this retriever's embedder:
        a `DenseRetriever(embedder).query_vector` with the same embedder gives the same vectors
        and keeps them, so comparing the two retrievers embeds each question once."""
        self.documents = {d.doc_id: d for d in documents}
        self.embedder = embedder or MiniLMEmbedder()
        self.overlap = overlap
        self._query_vector = query_vector
        self._tokens: dict[tuple[str, str], TokenVectors] = {}
        self._queries: dict[str, np.ndarray] = {}

    def _document_tokens(self, doc_id: str) -> TokenVectors:
        doc = self.documents.get(doc_id)
        if doc is None:
            known = ", ".join(sorted(self.documents)) or "none"
            raise ValueError(
                f"a chunk of document {doc_id!r}, which was not given (given: {known})"
            )
        key = (doc_id, doc.content_hash)
        if key not in self._tokens:
            self._tokens[key] = token_vectors(self.embedder, doc.text, self.overlap)
        return self._tokens[key]

    def chunk_vectors(self, chunks: Sequence[Chunk]) -> np.ndarray:
        """Each chunk's late-chunked vector, in order (zero for a span that holds no word piece)."""
        out = np.zeros((len(chunks), self.embedder.dim), dtype=np.float32)
        by_doc: dict[str, list[int]] = {}
        for row, chunk in enumerate(chunks):
            by_doc.setdefault(chunk.doc_id, []).append(row)
        for doc_id, rows in by_doc.items():
            spans = [(chunks[r].start, chunks[r].end) for r in rows]
            out[rows] = pool_spans(self._document_tokens(doc_id), spans)
        return out

    def rank(self, query: str, chunks: Sequence[Chunk], k: int) -> list[Scored]:
        if not chunks or not query.strip():
            return []
        if self._query_vector is not None:
            q = self._query_vector(query)
            if q is None:  # a query that embeds to nothing finds nothing, as in DenseRetriever
                return []
        else:
            if query not in self._queries:  # the same questions, many strategies
                self._queries[query] = self.embedder.embed_query(query)
            q = self._queries[query]
        scores = dot_scores(self.chunk_vectors(chunks), q)
        order = sorted(range(len(chunks)), key=lambda i: (-scores[i], i))[:k]
        return [
            Scored(ref_id=chunks[i].chunk_id, score=float(scores[i]), source=ScoreSource.VECTOR)
            for i in order
        ]
