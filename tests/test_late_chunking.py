"""Late chunking (notebook 09): a long text's windows read in one batch give each window's token
vectors as reading it alone does, up to float32 rounding; and the retriever, given a dense
retriever's query vectors, ranks as it does with its own."""

import numpy as np

from chunklab.chunkers.registry import build
from chunklab.documents.series import load_document
from chunklab.embeddings.late import token_vectors, windows
from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.retrieval.late_chunking import LateChunkingRetriever
from chunklab.retrieval.retrievers import DenseRetriever


def _close(got: np.ndarray, want: np.ndarray, steps: int = 64) -> bool:
    return float(np.abs(got - want).max()) <= steps * np.finfo(np.float32).eps * float(
        np.abs(want).max()
    )


def test_windows_read_at_once_are_each_window_read_alone():
    minilm = MiniLMEmbedder()
    encoding = minilm.encoding(load_document("travel_policy").text)
    cls, ids, sep = encoding.ids[0], encoding.ids[1:-1], encoding.ids[-1]
    spans = windows(len(ids), minilm.max_tokens - 2, 64)
    assert len(spans) == 2  # the policy is longer than one window: the test reads two
    rows = [[cls, *ids[start:end], sep] for start, end in spans]
    together = minilm.read_rows(rows)
    assert together.shape == (2, minilm.max_tokens, minilm.dim)
    for row, got in zip(rows, together, strict=True):
        assert _close(got, minilm.read(row))
    # and the document's token vectors take each token from one of those readings
    tokens = token_vectors(minilm, load_document("travel_policy").text)
    assert len(tokens.vectors) == len(ids) and np.all(np.isfinite(tokens.vectors))
    assert _close(tokens.vectors[:10], together[0][1:11])


def test_the_retriever_ranks_alike_with_a_dense_retrievers_query_vectors():
    minilm = MiniLMEmbedder()
    doc = load_document("travel_policy")
    chunks = build("fixed", size=40, overlap=0, unit="tokens").split(doc)
    own = LateChunkingRetriever([doc], minilm)
    shared = LateChunkingRetriever([doc], minilm, query_vector=DenseRetriever(minilm).query_vector)
    for query in ["international hotel costs", "economy class flights"]:
        assert [h.ref_id for h in own.rank(query, chunks, 3)] == [
            h.ref_id for h in shared.rank(query, chunks, 3)
        ]
