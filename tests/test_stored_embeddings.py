"""Stored embeddings (embeddings.stored): a vector is used only for the model and the text it was
made from, and the stored MiniLM vectors of Chroma's benchmark are what the live model computes.

The sample test rebuilds stored texts from their recorded source (a corpus slice or a question),
checks each text's hash against its key, embeds them with the live MiniLM and compares.
"""

import random

import numpy as np
import pytest

from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.embeddings.stored import (
    NotStored,
    StaleStore,
    StoredEmbedder,
    VectorStore,
    store_texts,
    text_key,
)
from chunklab.evaluation.benchmark_rows import store_stem
from chunklab.evaluation.chroma import load_corpora, load_questions

# float16 keeps 11 significant bits: a component of a unit vector (|x| < 1) is off by at most
# 2**-12 (2.4e-4) after rounding. `make embeddings` measured the whole store against float32
# (max |diff| and min cosine printed per row); the bounds below are that rounding, with room for
# nothing else.
MAX_DIFF = 2.5e-4
MIN_COSINE = 0.99999
SAMPLE = 12


class Counting:
    """A tiny deterministic embedder that counts what it is asked to embed."""

    name, dim, model_hash = "counting", 3, "a" * 64

    def __init__(self) -> None:
        self.asked: list[str] = []

    def embed_documents(self, texts):
        self.asked += list(texts)
        return np.array([[len(t), 1.0, 0.0] for t in texts], dtype=np.float32)

    def embed_query(self, text):
        return self.embed_documents([text])[0]


def small_store(tmp_path, model_hash="a" * 64) -> VectorStore:
    store = VectorStore(
        "counting",
        model_hash,
        [text_key("alpha"), text_key("beta")],
        ["c 0 5", "c 6 10"],
        np.array([[0.5, 0.25, 0.0], [0.0, 0.0, 1.0]], dtype=np.float16),
    )
    store.save(tmp_path / "s")
    return VectorStore.load(tmp_path / "s")


def test_a_stored_text_is_read_a_new_one_embedded_live_and_a_changed_one_is_not_matched(tmp_path):
    live = Counting()
    embedder = StoredEmbedder(live, small_store(tmp_path))
    out = embedder.embed_documents(["beta", "gamma", "alpha", "alpha "])
    assert out[0].tolist() == [0.0, 0.0, 1.0] and out[2].tolist() == [0.5, 0.25, 0.0]
    # "gamma" is not stored and "alpha " differs by one space: both are computed by the model.
    assert live.asked == ["gamma", "alpha "]
    assert out[1].tolist() == [5.0, 1.0, 0.0] and out[3].tolist() == [6.0, 1.0, 0.0]
    assert embedder.live_texts == 2


def test_strict_refuses_a_text_not_stored_and_another_models_store_is_refused(tmp_path):
    strict = StoredEmbedder(Counting(), small_store(tmp_path), strict=True)
    assert strict.embed_documents(["alpha"]).shape == (1, 3)
    with pytest.raises(NotStored, match="gamma"):
        strict.embed_documents(["alpha", "gamma"])
    with pytest.raises(StaleStore, match="make embeddings"):
        StoredEmbedder(Counting(), small_store(tmp_path, model_hash="b" * 64))


def test_store_texts_keeps_stored_vectors_writes_the_same_bytes_and_fresh_embeds_all(tmp_path):
    stem = tmp_path / "made"
    texts = {"beta": "c 6 10", "alpha": "c 0 5", "gamma": "c 11 16"}
    first = Counting()
    sums = store_texts(first, texts, stem)
    assert sorted(first.asked) == ["alpha", "beta", "gamma"]
    assert sums[0].startswith("made.tsv ") and sums[1].startswith("made.npy ")
    again = Counting()
    assert store_texts(again, dict(reversed(list(texts.items()))), stem) == sums
    assert again.asked == []  # every text already stored by this model: nothing embedded live
    fresh = Counting()
    store_texts(fresh, texts, stem, fresh=True)
    assert sorted(fresh.asked) == ["alpha", "beta", "gamma"]
    stored = VectorStore.load(stem)
    assert stored.vectors[stored.row[text_key("gamma")]].tolist() == [5.0, 1.0, 0.0]


def test_the_store_round_trips_byte_for_byte_and_a_damaged_index_is_named(tmp_path):
    store = small_store(tmp_path)
    first = (tmp_path / "s.tsv").read_bytes(), (tmp_path / "s.npy").read_bytes()
    store.save(tmp_path / "s")
    assert ((tmp_path / "s.tsv").read_bytes(), (tmp_path / "s.npy").read_bytes()) == first
    (tmp_path / "s.tsv").write_text("not a store\n", encoding="utf-8")
    with pytest.raises(ValueError, match="s.tsv"):
        VectorStore.load(tmp_path / "s")


def rebuilt(source: str, corpora: dict[str, str], questions) -> str:
    kind, *place = source.split(" ")
    if kind == "questions":
        return questions[int(place[1])].text
    start, end = int(place[0]), int(place[1])
    return corpora[kind][start:end]


def test_a_random_sample_of_the_stored_minilm_vectors_is_what_the_live_model_computes():
    store = VectorStore.load(store_stem())
    live = MiniLMEmbedder()
    store.check_model(live)  # the store was made by these very weights
    corpora, questions = load_corpora(), load_questions()
    rows = [i for i, s in enumerate(store.sources) if s != "unlocated"]
    assert len(rows) == len(store.keys)  # every stored text can be rebuilt from its source
    picked = random.Random(26).sample(rows, SAMPLE)
    texts = [rebuilt(store.sources[i], corpora, questions) for i in picked]
    assert [text_key(t) for t in texts] == [store.keys[i] for i in picked]
    fresh = live.embed_documents(texts)
    stored = store.vectors[picked].astype(np.float32)
    assert np.abs(fresh - stored).max() <= MAX_DIFF
    cosine = (fresh * stored).sum(1) / np.linalg.norm(stored, axis=1)
    assert cosine.min() >= MIN_COSINE
