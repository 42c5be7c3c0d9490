"""Every embedder by the name the CLI, the registry of strategies and the notebooks use."""

from __future__ import annotations

from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.embeddings.static import HashingEmbedder, WordLlamaEmbedder

EMBEDDERS = {"wordllama": WordLlamaEmbedder, "minilm": MiniLMEmbedder, "hashing": HashingEmbedder}
