"""What the LangChain and LlamaIndex adapters share: the way in, and the way out.

The way in: a framework hands over text and a metadata dict, while a chunklab chunker reads a
`Document` whose `doc_id` names the chunk ids and parent ids, and whose `title` heads the
breadcrumb. So the title comes from `metadata["title"]` (the breadcrumb of the series' documents
starts with it) and the id from `metadata["doc_id"]`, else from the framework's own id of the
text, else from the text's position in the call. A `source` key (what LangChain's loaders set)
is kept as the uri, never as the id: a PDF loader gives every page the same source, and ids made
from it would collide.

The way out: a chunk's own fields (`chunk_id`, `parent_id`, `heading_path`, `token_count`) and the
chunker's metadata (strategy, tenant, section) as one flat dict of plain values, because both
frameworks keep flat metadata and most vector stores refuse nested or tuple values.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.contracts import Chunk, Chunker, Document

EXTRA = "pip install -e '.[integrations]'"  # the extra that installs both frameworks


def missing_framework(module: str, framework: str, exc: ImportError) -> ImportError:
    """The one-line error an adapter raises when its framework is not installed."""
    missing = exc.name or framework
    return ImportError(f"{module} needs {framework} ({missing} is not installed): {EXTRA}")


def require_chunker(chunker: Any) -> Chunker:
    """The chunker an adapter wraps: MarkdownChunker() by default, anything with `split`."""
    if chunker is None:
        return MarkdownChunker()
    if not isinstance(chunker, Chunker):
        raise TypeError(
            f"expected a chunklab chunker (anything with split(doc) -> list[Chunk]), not "
            f"{type(chunker).__name__}: e.g. chunklab.MarkdownChunker(max_tokens=200)"
        )
    return chunker


def source_document(text: str, metadata: Mapping[str, Any], default_id: str) -> Document:
    """A framework's text and metadata as the `Document` a chunker reads (see the module doc)."""
    doc_id = str(metadata.get("doc_id") or default_id)
    uri = str(metadata.get("source") or metadata.get("file_path") or doc_id)
    title = str(metadata.get("title") or "")
    return Document(doc_id=doc_id, uri=uri, title=title, text=text, metadata=dict(metadata))


def chunk_metadata(chunk: Chunk) -> dict[str, Any]:
    """The chunk's fields and its chunker's metadata as one flat dict (the fields win a clash)."""
    return {
        **chunk.metadata,
        "chunk_id": chunk.chunk_id,
        "doc_id": chunk.doc_id,
        "parent_id": chunk.parent_id,
        "heading_path": list(chunk.heading_path),
        "token_count": chunk.token_count,
    }


def chunklab_metadata(doc: Document) -> dict[str, Any]:
    """A chunklab `Document` as the metadata `source_document` reads back into the same one."""
    return {**doc.metadata, "doc_id": doc.doc_id, "title": doc.title, "source": doc.uri}
