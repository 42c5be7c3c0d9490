"""EmbedOnce embeds a list of texts once: the second rule reads the first one's vectors."""

from chunklab import load_document
from chunklab.chunkers.semantic import SemanticChunker
from chunklab.embeddings.memo import EmbedOnce
from chunklab.embeddings.static import HashingEmbedder


class Counting(HashingEmbedder):
    calls = 0

    def embed_documents(self, texts):
        Counting.calls += 1
        return super().embed_documents(texts)


def test_two_rules_on_one_document_embed_it_once_and_cut_as_without_it():
    doc, once = load_document("topics"), EmbedOnce(Counting())
    for options in [dict(breakpoint="threshold"), dict()]:
        with_memo = SemanticChunker(embedder=once, **options).split(doc)
        plain = SemanticChunker(embedder=HashingEmbedder(), **options).split(doc)
        assert [(c.start, c.end) for c in with_memo] == [(c.start, c.end) for c in plain]
    assert Counting.calls == 1 and once.name == HashingEmbedder().name
