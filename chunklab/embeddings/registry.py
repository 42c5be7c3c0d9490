"""Every embedder by the name the CLI, the registry of strategies and the notebooks use, and what
identifies the vectors an embedder makes (`EmbedderIdentity`), which an index file records."""

from __future__ import annotations

from typing import Any, NamedTuple

from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.embeddings.static import HashingEmbedder, WordLlamaEmbedder

EMBEDDERS = {"wordllama": WordLlamaEmbedder, "minilm": MiniLMEmbedder, "hashing": HashingEmbedder}

# The real models: the ones a dense retriever and an index file's vectors are offered with. The
# hashing embedder is the article's stand-in, shown in the notebooks, not a search model.
DENSE_EMBEDDERS = ("wordllama", "minilm")
DEFAULT_DENSE = "wordllama"


class EmbedderIdentity(NamedTuple):
    """What made a set of vectors: the embedder's name, its dimension and the SHA-256 of its
    weights file ("" when not known: an index file written before embedders were recorded)."""

    name: str
    dim: int
    model_hash: str = ""

    def same_vectors(self, other: EmbedderIdentity) -> bool:
        """Whether vectors of `other` may sit beside these: same name and dimension, and the same
        weights when both hashes are known."""
        hashes = {self.model_hash, other.model_hash} - {""}
        return (self.name, self.dim) == (other.name, other.dim) and len(hashes) <= 1


def identity(embedder: Any) -> EmbedderIdentity:
    """The identity of a registered dense embedder (reads, not runs, its weights)."""
    return EmbedderIdentity(embedder.name, embedder.dim, embedder.model_hash)


def embedder_key(embedder: Any) -> str:
    """The registry's name of an embedder object ("wordllama", "minilm", "hashing"), or its own
    `name` for one the registry does not know."""
    return next((k for k, cls in EMBEDDERS.items() if isinstance(embedder, cls)), embedder.name)


def key_of_name(name: str) -> str:
    """The registry's name for an embedder's own name ("minilm-l6-v2" -> "minilm")."""
    known = {"wordllama": WordLlamaEmbedder.name, "minilm": MiniLMEmbedder.name}
    return next((k for k, own in known.items() if own == name), name)


def checked_identity(name: str) -> EmbedderIdentity:
    """The identity of the registry's dense embedder `name`, its model found first: a missing or
    damaged install is `EmbedderUnavailable` (naming the command to run) before any work, found
    cheaply (the tokenizer and the weights' file, not the whole model loaded)."""
    embedder = EMBEDDERS[name]()
    if isinstance(embedder, MiniLMEmbedder):
        embedder.cut(["chunklab"])  # finds the model archive, reads and checks the tokenizer
    return identity(embedder)  # WordLlama: hashes its weights file, so it must be there
