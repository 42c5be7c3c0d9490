"""What the LangChain and LlamaIndex adapters share: the way in, and the way out.

The way in: a framework hands over text and a metadata dict, while a chunklab chunker reads a
`Document` whose `doc_id` names the chunk ids and parent ids, and whose `title` stands in for
a heading that is only a template tag (`# <%= current_page.data.title %>`). The title is
`metadata["title"]`, else the one `chunklab.documents.reading` reads from the text (front matter,
first heading), else the source's file name, as `chunklab chunk` reads a file: never the made-up
id below, which would put a hash into a breadcrumb.

Chunk ids. The adapters keep the core's ids: a chunker names each chunk after its document
(`{doc_id}#{n}`, `{doc_id}#{section}-c{n}`), numbered in the document's own order, so within one
document they are distinct (two identical paragraphs are two chunks) and the same text always
gets the same ones. What the adapters must supply is a `doc_id` that is unique across calls and
stable for the same text, because a vector store keys its entries by id: it is
- `metadata["doc_id"]`, when the caller names the document (`langchain_document` and
  `llama_index_document` write chunklab's own, so the ids are those of `chunker.split(doc)`);
- else the id the framework was given for the text (a LangChain `Document.id`, a LlamaIndex id
  set by the caller or by `filename_as_id`). An id LlamaIndex drew at random, because none was
  given, is not used: it differs at every read, so the same file added twice would be two;
- else `{source}@{hash}`: the text's `source` (LangChain's loaders) or `file_path` (LlamaIndex's
  readers), else `text`, then the first 12 hex digits of the text's `Document.content_hash`. Never
  the text's position in the call (which made every file's first text `text-0`, so a store kept
  one file's chunks), and never the source alone (a PDF loader gives every page the same source).

So the same file added twice gets the same ids (the store replaces, it does not add copies), two
files never share one, and an edited file gets new ones. Two texts of one call that would get the
same derived id (the same source and text: two identical pages) are told apart by their
occurrence, `~2`, `~3`, in the call's order; one `doc_id` given to two different texts of one call
is a `ValueError`, not a silent overwrite. Across calls, one source and one text name one document.

Why the core's ids and not a hash per chunk (of its source, heading path, text and occurrence):
they already are unique within a document and stable for its text, a document given its chunklab
`doc_id` gets the ids `chunker.split` and `chunklab index` give it, and parents are named the same
way (`parent_id`, LlamaIndex's PARENT links), so one scheme serves all. The cost: an edited file
gets all-new ids, so its old chunks stay in a store until they are deleted by `source` (per-chunk
hashes would leave behind only the old versions of the chunks that changed).

The way out: a chunk's own fields (`chunk_id`, `parent_id`, `heading_path`, `token_count`), its
`prefix` (what the chunker wrote before the chunk's source text: MarkdownChunker's breadcrumb or
contextual prefix, a section's breadcrumb; empty for a chunker that adds nothing) and the
chunker's metadata (strategy, tenant, section) as one flat dict of plain values, because both
frameworks keep flat metadata and most vector stores refuse nested or tuple values. The text an
adapter hands over is `source_text`: the document's own text between the chunk's offsets.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import PurePath
from typing import Any

from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.contracts import TEXT_ID, Chunk, Chunker, Document
from chunklab.documents.reading import document_title

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


def source_documents(
    texts: Sequence[str], metadatas: Sequence[Mapping[str, Any]], ids: Sequence[str | None]
) -> list[Document]:
    """A framework's texts, with their metadata and the ids the framework was given for them (None
    for none), as the `Document` records a chunker reads, named as the module docstring says."""
    docs: list[Document] = []
    seen: dict[str, str] = {}  # a named doc_id -> the text it names
    occurrences = Counter[str]()  # a made doc_id -> how often the call made it
    for text, metadata, given in zip(texts, metadatas, ids, strict=True):
        named = metadata.get("doc_id") or given
        uri = str(metadata.get("source") or metadata.get("file_path") or named or TEXT_ID)
        doc = Document(
            doc_id=str(named or uri),
            uri=uri,
            title=str(metadata.get("title") or document_title(text, PurePath(uri).stem or uri)),
            text=text,
            metadata=dict(metadata),
        )
        if named:
            if seen.setdefault(doc.doc_id, text) != text:
                raise ValueError(
                    f"two different texts have the doc_id {doc.doc_id!r}: their chunks would "
                    "share ids and a store would keep one text's; give each its own doc_id"
                )
        else:
            doc_id = f"{uri}@{doc.content_hash[:12]}"
            occurrences[doc_id] += 1
            if occurrences[doc_id] > 1:
                doc_id += f"~{occurrences[doc_id]}"
            doc = doc.model_copy(update={"doc_id": doc_id})
        docs.append(doc)
    return docs


def source_text(doc: Document, chunk: Chunk) -> str:
    """The chunk's own text in the source: `doc.text[chunk.start:chunk.end]`.

    What the adapters hand over as the chunk's text, so that the framework's offsets delimit it.
    The chunker's `text` can differ from it: a prefix before it (`prefix_of`), and for some chunks
    a body that is not one slice (a table piece repeating its header, blocks joined by a blank
    line where the source had a line break, a linearized table). The slice is then the source
    the chunk was cut from, as written.
    """
    return doc.text[chunk.start : chunk.end]


def prefix_of(chunk: Chunk) -> str:
    """What the chunker wrote before the chunk's source text: `MarkdownChunker`'s prefix (its
    breadcrumb, or a contextual prefix), a section parent's breadcrumb; "" for other chunkers.

    Taken only when the chunk's text starts with it, so a chunker whose metadata says something
    else under these keys adds nothing here."""
    prefix = chunk.metadata.get("prefix", chunk.metadata.get("section", ""))
    return prefix if isinstance(prefix, str) and chunk.text.startswith(prefix) else ""


def chunk_metadata(chunk: Chunk) -> dict[str, Any]:
    """The chunk's fields and its chunker's metadata as one flat dict (the fields win a clash)."""
    return {
        **chunk.metadata,
        "prefix": prefix_of(chunk),
        "chunk_id": chunk.chunk_id,
        "doc_id": chunk.doc_id,
        "parent_id": chunk.parent_id,
        "heading_path": list(chunk.heading_path),
        "token_count": chunk.token_count,
    }


def chunklab_metadata(doc: Document) -> dict[str, Any]:
    """A chunklab `Document` as the metadata `source_documents` reads back into the same one."""
    return {**doc.metadata, "doc_id": doc.doc_id, "title": doc.title, "source": doc.uri}
