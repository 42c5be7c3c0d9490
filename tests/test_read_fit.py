"""teaching.read_fit: each window's word pieces, counted off one encoding, are those of the window
tokenized alone, on pages whose windows cut words (Portuguese accents, code, a table)."""

import pytest

from chunklab.chunkers.registry import build
from chunklab.documents.series import load_document
from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.teaching.read_fit import window_pieces


@pytest.mark.parametrize(
    ("name", "sizes"), [("manual", (7, 61, 215)), ("sensitive_code", (13, 188))]
)
def test_window_pieces_are_those_of_each_window_tokenized(name, sizes):
    doc, embedder = load_document(name), MiniLMEmbedder()
    pieces_at = window_pieces(doc)
    for size in sizes:
        chunks = build("fixed", size=size, overlap=0, unit="tokens").split(doc)
        counted = [n for n in pieces_at(size) if n]  # the chunker drops windows of blanks only
        assert counted == [len(embedder.encoding(c.text).ids) - 2 for c in chunks]
