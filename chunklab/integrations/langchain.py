"""Any chunklab chunker as a LangChain `TextSplitter`, so it goes where a LangChain splitter went.

`ChunklabTextSplitter(chunklab.MarkdownChunker(max_tokens=200))` is used as
`RecursiveCharacterTextSplitter(...)` is: `split_text`, `create_documents`, `split_documents` and
`transform_documents` (a `BaseDocumentTransformer`'s step in a pipeline). Its chunks are the
chunker's own, text for text; LangChain's length, overlap and separator settings do not apply,
because the chunker has its own budget (tokens, whole blocks, a breadcrumb).

Each LangChain `Document` it returns carries, besides the metadata of the text it came from:
`start_index` and `end_index` (LangChain's name for the offset, and its end: where the chunk's
region lies in the text, exclusive end), `heading_path` (a list), `parent_id` (the section
small-to-big hands over), `token_count`, `chunk_id` and `doc_id`, and the chunker's own keys
(`strategy`, `tenant`, ...). Its `id` is the chunk id, so a vector store that is given the same
chunks again replaces them instead of adding copies.

Why the offsets are the chunker's and not LangChain's: `TextSplitter.create_documents` finds each
chunk's text in the source with `str.find`, which fails for a chunk that starts with a breadcrumb
(text the source does not hold at that place) and can land on an earlier copy of a repeated line.

Needs `langchain-text-splitters` and `langchain-core` (`pip install -e '.[integrations]'`).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import Any

from chunklab.contracts import Chunker, Document
from chunklab.integrations.records import (
    chunk_metadata,
    chunklab_metadata,
    missing_framework,
    require_chunker,
    source_document,
)

try:
    from langchain_core.documents import Document as LangChainDocument
    from langchain_text_splitters import TextSplitter
except ImportError as exc:
    raise missing_framework(__name__, "LangChain", exc) from None

__all__ = ["ChunklabTextSplitter", "langchain_document"]


class ChunklabTextSplitter(TextSplitter):
    """A LangChain `TextSplitter` that cuts with a chunklab chunker (`MarkdownChunker()` if none).

    A text's `doc_id` (which names its chunk ids) is its metadata's `doc_id`, else the LangChain
    Document's `id`, else `text-N` for the N-th text of the call; its `title` (which heads the
    breadcrumb) is its metadata's `title`. `langchain_document` writes both for a chunklab
    `Document`.
    """

    def __init__(self, chunker: Chunker | None = None) -> None:
        # chunk_size and chunk_overlap are LangChain's settings, unused: the chunker decides.
        super().__init__(chunk_overlap=0)
        self.chunker = require_chunker(chunker)

    def split_text(self, text: str) -> list[str]:
        """The chunks' texts, as `chunker.split(text)` cuts them (doc_id "text", no title)."""
        return [chunk.text for chunk in self.chunker.split(text)]

    def create_documents(
        self, texts: list[str], metadatas: list[dict[Any, Any]] | None = None
    ) -> list[LangChainDocument]:
        """One LangChain Document per chunk of each text, its metadata a copy of the text's with
        the chunk's keys added (see the module docstring)."""
        return self._documents(texts, metadatas, [None] * len(texts))

    def split_documents(self, documents: Iterable[LangChainDocument]) -> list[LangChainDocument]:
        """`create_documents` over the documents' texts and metadata, their ids kept as doc_ids."""
        documents = list(documents)
        return self._documents(
            [d.page_content for d in documents],
            [d.metadata for d in documents],
            [d.id for d in documents],
        )

    def transform_documents(
        self, documents: Sequence[LangChainDocument], **kwargs: Any
    ) -> Sequence[LangChainDocument]:
        """A document transformer's step: `split_documents` (LangChain's own definition)."""
        return self.split_documents(list(documents))

    def _documents(
        self,
        texts: Sequence[str],
        metadatas: Sequence[dict[Any, Any]] | None,
        ids: Sequence[str | None],
    ) -> list[LangChainDocument]:
        metadatas = metadatas if metadatas is not None else [{}] * len(texts)
        if len(metadatas) != len(texts):  # zip would drop texts silently
            raise ValueError(f"{len(texts)} texts but {len(metadatas)} metadata dicts")
        out = []
        for n, (text, metadata, id_) in enumerate(zip(texts, metadatas, ids, strict=True)):
            doc = source_document(text, metadata, id_ or f"text-{n}")
            for chunk in self.chunker.split(doc):
                extra = {"start_index": chunk.start, "end_index": chunk.end}
                out.append(
                    LangChainDocument(
                        id=chunk.chunk_id,
                        page_content=chunk.text,
                        metadata={**copy.deepcopy(metadata), **chunk_metadata(chunk), **extra},
                    )
                )
        return out


def langchain_document(doc: Document) -> LangChainDocument:
    """A chunklab `Document` (`chunklab.load_document("manual")`) as a LangChain Document whose
    chunks get the same ids and breadcrumbs as `chunker.split(doc)` gives."""
    return LangChainDocument(id=doc.doc_id, page_content=doc.text, metadata=chunklab_metadata(doc))
