"""WordLlama's texts go to it in batches of at most EMBED_BATCH texts and about
EMBED_BATCH_CHARACTERS characters: only the speed changes, not one bit of a vector."""

import numpy as np
import pytest

from chunklab.embeddings import static
from chunklab.embeddings.static import WordLlamaEmbedder


@pytest.fixture(scope="module")
def texts():
    from chunklab.evaluation.chroma import load_corpora

    text = load_corpora()["state_of_the_union"]
    sizes = [5, 40, 800, 800, 3000, 16_000, 16_000, 33_000, 120]  # one longer than a batch
    out, at = [], 0
    for size in sizes * 3:
        out.append(text[at : at + size])
        at = (at + size) % (len(text) - 40_000)
    return out


def test_batches_by_characters_give_the_vectors_of_batches_of_64(texts, monkeypatch):
    got = WordLlamaEmbedder().embed_documents(texts)
    monkeypatch.setattr(static, "EMBED_BATCH_CHARACTERS", 10**9)  # 64 texts a batch, as before
    assert np.array_equal(got, WordLlamaEmbedder().embed_documents(texts))


def test_a_batch_holds_at_most_its_characters_unless_one_text_is_longer(texts, monkeypatch):
    from wordllama.inference import WordLlamaInference

    seen: list[list[str]] = []
    real = WordLlamaInference.embed

    def spy(self, batch, **options):
        seen.append(list(batch))
        return real(self, batch, **options)

    monkeypatch.setattr(WordLlamaInference, "embed", spy)
    WordLlamaEmbedder().embed_documents(texts)
    assert sum(len(b) for b in seen) == len(texts) and len(seen) > 1
    for batch in seen:
        assert len(batch) <= static.EMBED_BATCH
        assert len(batch) == 1 or sum(map(len, batch)) <= static.EMBED_BATCH_CHARACTERS
