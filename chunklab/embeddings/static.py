"""Embedders: text to unit-length vectors, so a dot product is the cosine similarity.

Two of them, behind one protocol (`embed_documents`, `embed_query`):

- `HashingEmbedder`: the article's stand-in. Each word adds 1 to the bucket its hash picks; the
  vector is normalised. It is *not* semantic: two sentences are similar only if they share
  words. The article hashes with Python's `hash()`, which is salted per process
  (PYTHONHASHSEED), so its vectors, and any cut made from them, change from run to run.
  `hash="python"` keeps that behaviour to show it; the default, `hash="blake2b"`, is stable.
- `WordLlamaEmbedder`: real static word embeddings (256 dimensions) shipped inside the
  `wordllama` wheel, loaded without touching the network.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
from collections.abc import Sequence
from functools import cache
from typing import Literal, Protocol, runtime_checkable

import numpy as np

WORDLLAMA_HINT = "pip install wordllama==0.4.0.post1"


class EmbedderUnavailable(RuntimeError):
    """The embedding model cannot be loaded; the message says what to install."""


@runtime_checkable
class Embedder(Protocol):
    """What chunklab needs from an embedder, so the semantic chunker and the dense retriever can
    take any of them: unit-length vectors (a dot product is then the cosine similarity), and a
    `name` for the model, which an index file records so that it never mixes two models' vectors.
    """

    name: str

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """One unit-length row per text, in the order given: the chunks or units to compare."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """The vector of one search query. A method of its own because some models encode a
        query differently from a passage; chunklab's embedders encode both alike."""
        ...


def _normalise(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)


class HashingEmbedder:
    """Bag of words hashed into `dim` buckets. Stable with blake2b; salted with Python's hash()."""

    def __init__(self, dim: int = 64, hash: Literal["blake2b", "python"] = "blake2b") -> None:
        if dim <= 0:
            raise ValueError(f"dim must be positive, got {dim}")
        self.dim, self.hash = dim, hash
        self.name = f"hashing-{hash}-{dim}"

    def _bucket(self, word: str) -> int:
        if self.hash == "python":
            return hash(word) % self.dim  # salted per process: the article's bug, kept to show it
        digest = hashlib.blake2b(word.encode("utf-8"), digest_size=8).digest()
        return int.from_bytes(digest, "little") % self.dim

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Each text's lower-cased words counted into `dim` buckets by their hash, each row then
        normalised (a text without words is a row of zeros): similar only where words are shared.
        """
        matrix = np.zeros((len(texts), self.dim))
        for row, text in enumerate(texts):
            for word in text.lower().split():
                matrix[row, self._bucket(word)] += 1.0
        return _normalise(matrix)

    def embed_query(self, text: str) -> np.ndarray:
        """The query embedded as a one-text document: a word it shares with a chunk lands in the
        same bucket."""
        return self.embed_documents([text])[0]


@cache
def wordllama_model():
    """WordLlama's bundled model, loaded once per process (half a CPU second). Loading starts no
    thread, so a process may load it and then fork (scripts/kernel_fork.py does)."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        import wordllama
        from wordllama import WordLlama
    except ImportError:
        raise EmbedderUnavailable(
            f"the WordLlama embedder needs the wordllama package: {WORDLLAMA_HINT}"
        ) from None
    finally:
        # wordllama calls logging.basicConfig() on import, which would print every other library's
        # log records (bm25s's, say) on stderr: put the root logger back as it was.
        root.handlers[:], root.level = handlers, level
    # WordLlama.load() looks for its bundled tokenizer in the wrong folder and then tries to
    # download it; pointing cache_dir at the package folder finds the files the wheel ships.
    try:
        return WordLlama.load(cache_dir=os.path.dirname(wordllama.__file__), disable_download=True)
    except Exception as exc:  # a broken or partial install
        raise EmbedderUnavailable(
            f"could not load WordLlama's bundled model ({exc}); reinstall: {WORDLLAMA_HINT}"
        ) from None


EMBED_BATCH = 64  # at most this many texts per WordLlama batch (its default)
# ... and about this many characters: WordLlama looks up every token's vector of a batch at once
# (texts x tokens x 256 floats), so 64 blocks of 16,000 characters make a 1 GB array. A batch of
# long texts holds fewer; the vectors are the same, bit for bit (tests/test_embed_batches.py).
EMBED_BATCH_CHARACTERS = 32_000
WORDLLAMA_WEIGHTS = ("weights", "l2_supercat_256.safetensors")  # inside the wordllama package


def _batches(texts: list[str]) -> list[list[str]]:
    """`texts` in runs of at most `EMBED_BATCH` texts and `EMBED_BATCH_CHARACTERS` characters (a
    text longer than that alone is a batch of its own), in order."""
    batches: list[list[str]] = []
    size = 0
    for text in texts:
        if (
            batches
            and len(batches[-1]) < EMBED_BATCH
            and size + len(text) <= EMBED_BATCH_CHARACTERS
        ):
            batches[-1].append(text)
            size += len(text)
        else:
            batches.append([text])
            size = len(text)
    return batches


@cache
def wordllama_weights_hash() -> str:
    """SHA-256 of the weights file the wordllama wheel ships: what an index file records, as it
    records MiniLM's model.safetensors hash, so vectors of other weights are never mixed in.
    The package is located, not imported (importing it reconfigures logging)."""
    try:
        spec = importlib.util.find_spec("wordllama")
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise EmbedderUnavailable(
            f"the WordLlama embedder needs the wordllama package: {WORDLLAMA_HINT}"
        )
    weights = os.path.join(next(iter(spec.submodule_search_locations)), *WORDLLAMA_WEIGHTS)
    try:
        with open(weights, "rb") as file:
            return hashlib.file_digest(file, "sha256").hexdigest()
    except OSError as exc:
        raise EmbedderUnavailable(
            f"cannot read WordLlama's weights ({exc.strerror}); reinstall: {WORDLLAMA_HINT}"
        ) from None


class WordLlamaEmbedder:
    """WordLlama l2_supercat, 256 dimensions: real (static, averaged) word embeddings, offline."""

    name = "wordllama-256"
    dim = 256

    @property
    def model_hash(self) -> str:
        """SHA-256 of the bundled weights file (`wordllama_weights_hash`)."""
        return wordllama_weights_hash()

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Texts embedded in order of length, then put back in the caller's order.

        WordLlama pads every batch to its longest text and averages under a mask: a batch that
        mixes a table row with a one-line paragraph spends most of its work on padding. Sorted,
        neighbours in a batch are about as long; the vectors are the same, the padding is gone
        (embedding the sentences of 1 MB of Markdown: 2.3 s unsorted, 1.0 s sorted). Long texts go
        fewer to a batch (`EMBED_BATCH_CHARACTERS`): 1.4 MB in blocks of 16,000 characters embeds
        about 2-3 times faster than in batches of 64 blocks.
        """
        if not texts:
            return np.zeros((0, 256))
        order = sorted(range(len(texts)), key=lambda k: len(texts[k]))
        ordered = [texts[k] for k in order]
        vectors = np.concatenate(
            [
                wordllama_model().embed(batch, norm=True, batch_size=len(batch))
                for batch in _batches(ordered)
            ]
        )
        matrix = np.empty((len(texts), vectors.shape[1]), dtype=np.float64)
        matrix[order] = vectors
        return _normalise(matrix)

    def embed_query(self, text: str) -> np.ndarray:
        """The query embedded as a one-text document (WordLlama reads queries and passages
        alike)."""
        return self.embed_documents([text])[0]
