"""Any chunklab chunker as a LangChain `TextSplitter`, so it goes where a LangChain splitter went.

`ChunklabTextSplitter(chunklab.MarkdownChunker(max_tokens=200))` is used as
`RecursiveCharacterTextSplitter(...)` is: `split_text`, `create_documents`, `split_documents` and
`transform_documents` (a `BaseDocumentTransformer`'s step in a pipeline). Its cuts are the
chunker's; LangChain's length, overlap and separator settings do not apply, because the chunker
has its own budget (tokens, whole blocks, a breadcrumb).

Each LangChain `Document` it returns is one chunk:
- `page_content` is the chunk's own text in the source, `text[start_index:end_index]`, so
  LangChain's convention holds, `text[start_index:][: len(page_content)] == page_content`, as
  with `add_start_index=True` (where LangChain finds each piece again with `str.find`, and can
  land on an earlier copy of a repeated line). Nothing is found again here: the offsets are
  where the chunker cut;
- the breadcrumb goes to metadata, where LangChain's own `MarkdownHeaderTextSplitter` puts a
  piece's headings: `prefix` (what the chunker wrote before the source text: the breadcrumb,
  or a contextual prefix) and `heading_path` (a list);
- also in metadata: the metadata of the text it came from, `end_index` (exclusive),
  `parent_id` (the section small-to-big hands over), `token_count` (the chunker's count of its
  text, prefix included: what its budget bounds), `chunk_id`, `doc_id` and the chunker's keys
  (`strategy`, `tenant`, `section`, ...);
- its `id` is the chunk id: unique across calls, the same for the same source and text, so the
  usual loop, `store.add_documents(splitter.split_documents(loader.load()))` once per file, keeps
  every file's chunks, and adding a file again replaces its chunks instead of adding copies
  (`chunklab.integrations.records` says how the ids are made, and why).

A LangChain vector store embeds `page_content` and nothing else, so a breadcrumb kept in metadata
is not embedded: companion 06b measures what a chunk loses without it. `prefix_in_text=True` makes
`page_content` the chunker's text, prefix and all, as chunklab's own index embeds it; then
`start_index`/`end_index` still delimit the chunk's source text, and `page_content` is that text
behind the prefix and a blank line (rewritten, for the chunks the next paragraph names).

A chunk whose text is not one slice of the source (a table piece that repeats the table's header,
blocks the chunker joined with a blank line where the source had a line break, a linearized table
row) gets the slice it was cut from as its `page_content`: the source as written, offsets exact.
The chunker's rewritten text is `page_content` with `prefix_in_text=True`.

Needs `langchain-text-splitters` and `langchain-core` (`pip install -e '.[integrations]'`).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import Any

from chunklab.contracts import Chunk, Chunker, Document
from chunklab.integrations.records import (
    chunk_metadata,
    chunklab_metadata,
    missing_framework,
    require_chunker,
    source_documents,
    source_text,
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
    Document's `id`, else one made from its `source` and its text (see
    `chunklab.integrations.records`); its `title` is its metadata's `title`, else the one read from
    the text. `langchain_document` writes both for a chunklab `Document`.

    `prefix_in_text`: `page_content` is the chunker's text (its prefix, a blank line, its body)
    instead of the chunk's source text; for a store that should embed the breadcrumb.
    """

    def __init__(self, chunker: Chunker | None = None, *, prefix_in_text: bool = False) -> None:
        # chunk_size and chunk_overlap are LangChain's settings, unused: the chunker decides.
        super().__init__(chunk_overlap=0)
        self.chunker = require_chunker(chunker)
        self.prefix_in_text = prefix_in_text

    def split_text(self, text: str) -> list[str]:
        """The chunks' `page_content`s, as `create_documents([text])` gives them."""
        return [d.page_content for d in self.create_documents([text])]

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
        for doc, metadata in zip(source_documents(texts, metadatas, ids), metadatas, strict=True):
            for chunk in self.chunker.split(doc):
                out.append(
                    LangChainDocument(
                        id=chunk.chunk_id,
                        page_content=self._content(doc, chunk),
                        metadata={
                            **copy.deepcopy(metadata),
                            **chunk_metadata(chunk),
                            "start_index": chunk.start,
                            "end_index": chunk.end,
                        },
                    )
                )
        return out

    def _content(self, doc: Document, chunk: Chunk) -> str:
        return chunk.text if self.prefix_in_text else source_text(doc, chunk)


def langchain_document(doc: Document) -> LangChainDocument:
    """A chunklab `Document` (`chunklab.load_document("manual")`) as a LangChain Document whose
    chunks get the same ids and breadcrumbs as `chunker.split(doc)` gives."""
    return LangChainDocument(id=doc.doc_id, page_content=doc.text, metadata=chunklab_metadata(doc))
