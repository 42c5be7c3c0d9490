"""An embedder that embeds a given list of texts once, however often it is asked.

Why: comparing two breakpoint rules on one document embeds the same units twice, and with a
transformer that is most of the time a comparison takes. `EmbedOnce(embedder)` keeps the vectors
of each list of texts it has embedded, keyed by the texts themselves, so both rules read the very
same vectors. It keeps everything it is given: meant for a handful of documents, not a corpus.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class EmbedOnce:
    """Wraps any embedder (`embed_documents`, `embed_query`, `name`); a list seen before is not
    embedded again."""

    def __init__(self, embedder: Any) -> None:
        self.embedder = embedder
        self.name: str = embedder.name
        self.seen: dict[tuple[str, ...], Any] = {}

    def embed_documents(self, texts: Sequence[str]) -> Any:
        key = tuple(texts)
        if key not in self.seen:
            self.seen[key] = self.embedder.embed_documents(list(texts))
        return self.seen[key]

    def embed_query(self, text: str) -> Any:
        return self.embedder.embed_query(text)
