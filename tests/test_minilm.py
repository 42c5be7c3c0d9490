"""The transformer embedder: the published table, unit vectors, determinism, what it cuts."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from pydantic import ValidationError

from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.tokens.counters import get_counter

# The similarity table on the all-MiniLM-L6-v2 model card / sentence-transformers' quickstart.
SENTENCES = ["The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."]
PUBLISHED = {(0, 1): 0.6660, (0, 2): 0.1046, (1, 2): 0.1411}


@pytest.fixture(scope="module")
def embedder() -> MiniLMEmbedder:
    return MiniLMEmbedder()


def test_the_published_similarity_table_is_reproduced(embedder):
    vectors = embedder.embed_documents(SENTENCES)
    similarity = vectors @ vectors.T
    for (i, j), published in PUBLISHED.items():
        assert similarity[i, j] == pytest.approx(published, abs=1e-3)
        assert round(float(similarity[i, j]), 4) == published  # and to the 4 decimals printed


def test_vectors_are_float32_unit_length(embedder):
    vectors = embedder.embed_documents([*SENTENCES, "", "a " * 600])
    assert vectors.dtype == np.float32 and vectors.shape == (5, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)


def test_a_vector_does_not_depend_on_the_batch(embedder):
    texts = [*SENTENCES, "short", "a longer sentence about annual leave and how it accrues " * 5]
    whole = embedder.embed_documents(texts)
    for size in (1, 2, 3, 64):
        assert np.array_equal(MiniLMEmbedder(batch_size=size).embed_documents(texts), whole)
    assert np.array_equal(embedder.embed_documents(texts[::-1]), whole[::-1])


def test_vectors_are_the_same_in_another_process(embedder):
    code = (
        "import json, sys; from chunklab.embeddings.minilm import MiniLMEmbedder;"
        "v = MiniLMEmbedder().embed_documents(json.loads(sys.argv[1]));"
        "print(json.dumps(v.tolist()))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, json.dumps(SENTENCES)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert np.array_equal(
        np.array(json.loads(out), dtype=np.float32), embedder.embed_documents(SENTENCES)
    )


def test_the_cut_is_counted(embedder):
    words = [f"word{i}" for i in range(400)]
    text = " ".join(words)
    pieces = len(embedder.encoding(text).ids)
    embedder.embed_documents([text, "short"])
    cut = embedder.last_cut
    assert (cut.texts, cut.truncated) == (2, 1)
    assert cut.pieces_dropped == pieces - 256
    read = embedder.encoding(text).offsets[254][1]
    assert cut.words_dropped == len(text[read:].split()) > 0
    assert embedder.cut([text]) == (1, 1, cut.pieces_dropped, cut.words_dropped)
    assert MiniLMEmbedder(max_tokens=512).cut([text]).pieces_dropped == max(0, pieces - 512)


def test_a_cut_text_reads_only_its_head(embedder):
    head = "Annual leave accrues every pay period. " * 40
    whole = embedder.embed_documents([head + "The tail talks about something else entirely."])
    assert np.array_equal(whole, embedder.embed_documents([head]))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   \n\t ",
        "\x00\x01\x02\x7f",
        "word " * 20_000,
        "x" * 100_000,
        "Olá, São Paulo! 日本語 русский عربى 🙂🚀 | a | b |",
        "https://example.org/a?b=1#c",
    ],
)
def test_no_text_crashes_the_encoder(embedder, text):
    vector = embedder.embed_query(text)
    assert vector.shape == (384,) and np.isfinite(vector).all()
    assert np.linalg.norm(vector) == pytest.approx(1.0, abs=1e-6)


def test_a_long_text_is_cut_and_counted_not_crashed(embedder):
    text = "word " * 20_000  # 100,000 characters
    embedder.embed_documents([text])
    assert embedder.last_cut.truncated == 1 and embedder.last_cut.words_dropped == 20_000 - 254


@pytest.mark.parametrize("settings", [{"max_tokens": 513}, {"max_tokens": 0}, {"batch_size": 0}])
def test_bad_settings_are_a_validation_error(settings):
    with pytest.raises(ValidationError):
        MiniLMEmbedder(**settings)


def test_the_word_piece_counter_counts_what_the_embedder_reads(embedder):
    counter = get_counter("minilm")
    for text in [*SENTENCES, "Olá, São Paulo!"]:
        assert counter(text) == len(embedder.encoding(text).ids)
    assert counter("The weather is lovely today.") == 8  # [CLS] the weather is lovely today . [SEP]


def test_padding_adds_at_most_an_eighth_and_depends_on_the_length_alone():
    from chunklab.embeddings.minilm import padded_length, padded_length_batches

    for n in range(1, 513):
        assert n <= padded_length(n) <= n + n / 8
    lengths = [20, 130, 131, 144, 145, 20, 3]
    for batch in padded_length_batches(lengths, batch_size=2):
        assert len(batch) <= 2 and len({padded_length(lengths[k]) for k in batch}) == 1
    assert sorted(k for b in padded_length_batches(lengths, 2) for k in b) == list(range(7))


def test_a_row_read_again_is_remembered_equal_and_a_copy(embedder, monkeypatch):
    from chunklab.embeddings import minilm
    from chunklab.embeddings.transformer import encode, load_bert

    ids = embedder.encoding("The pump's seal is checked every 30 days.").ids
    row = np.array([ids], dtype=np.int64)
    fresh = encode(load_bert(), row, np.ones_like(row))[0]
    first = embedder.read(ids)
    assert np.array_equal(first, fresh)
    first[:] = 0  # the caller's copy: changing it changes nothing remembered

    def read_again(*args):
        raise AssertionError("the row was read by the model again")

    monkeypatch.setattr(minilm, "encode", read_again)
    again = embedder.read(ids)
    assert np.array_equal(again, fresh) and again is not first
