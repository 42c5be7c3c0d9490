"""Any chunklab chunker as a LlamaIndex `NodeParser`, so it goes where `SentenceSplitter` went.

`ChunklabNodeParser(chunker=chunklab.MarkdownChunker(max_tokens=200))` turns LlamaIndex
documents (`Document`) into nodes (`TextNode`), one per chunk, cut where the chunker cuts:
`get_nodes_from_documents`, or a step of an `IngestionPipeline` (a node parser is a
transformation, called on nodes).

What each node carries, and why:
- its id is the chunk id (`manual#preamble-c1`), not a random uuid: unique across calls and the
  same for the same source and text (`chunklab.integrations.records` says how), so the same file
  parsed twice, or read twice by `SimpleDirectoryReader`, gives the same nodes and a store
  replaces them instead of adding copies, and two files never share an id;
- its `text` is the chunk's own text in the document, `text[start_char_idx:end_char_idx]`: the
  chunker's span, where it cut. LlamaIndex's base class would find the node's text in the
  document with `str.find`, which can land on an earlier copy of a repeated line, so this parser
  sets the offsets itself and does not run that step. A chunk whose chunker text is not one slice
  of the source (a table piece repeating its header, a linearized table) gets the slice it was
  cut from: the source as written;
- the breadcrumb is metadata, `prefix` (what the chunker wrote before the source text: the
  breadcrumb, or a contextual prefix), and the one added key LlamaIndex shows: its metadata
  template puts it before the text in what it embeds and what the model reads, so
  `node.get_content(metadata_mode=MetadataMode.EMBED)` holds the breadcrumb and the text,
  while `node.text` is the source slice. A chunk without a prefix shows nothing;
- relationships: SOURCE, the document it came from; PREVIOUS / NEXT between the chunks of one
  document (with `include_prev_next_rel`, LlamaIndex's default);
- with `parents=True`, small-to-big: the document's sections (`MarkdownChunker.parents`, or for
  another strategy the section holding each chunk, `chunklab.retrieval.small_to_big`) come first
  as nodes of their own (those that hold a chunk), each chunk linked to its section by PARENT
  and each section to its chunks by CHILD, exactly as `HierarchicalNodeParser` links its
  levels. So LlamaIndex's `get_leaf_nodes` finds the chunks to embed, and `AutoMergingRetriever`
  (all nodes in the docstore) hands over a section when enough of its chunks are retrieved. A
  section's text is its heading and its own blocks as written, its breadcrumb its `prefix`;
- metadata: the document's (with `include_metadata`, the default), plus `prefix`, `chunk_id`,
  `doc_id`, `parent_id`, `heading_path`, `token_count` and the chunker's keys (strategy,
  section, ...). All but `prefix` are excluded from the text LlamaIndex embeds and the text the
  model reads: they describe the chunk.

A document's `doc_id` (which names its chunk ids) is its metadata's `doc_id`, else an id given to
it (by the caller, or `filename_as_id`), else one made from its `source` or `file_path` and its
text: not the uuid LlamaIndex draws for a document given none, which differs at every read. Its
title is its metadata's `title`, else the one read from the text. `llama_index_document` writes
both for a chunklab `Document`.

Needs `llama-index-core` (`pip install -e '.[integrations]'`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.contracts import Chunk, Chunker, Document
from chunklab.integrations.records import (
    chunk_metadata,
    chunklab_metadata,
    missing_framework,
    prefix_of,
    require_chunker,
    source_documents,
    source_text,
)
from chunklab.retrieval.small_to_big import parents_and_children

try:
    from llama_index.core.bridge.pydantic import Field, field_validator
    from llama_index.core.callbacks import CBEventType, EventPayload
    from llama_index.core.node_parser import NodeParser
    from llama_index.core.schema import (
        BaseNode,
        MetadataMode,
        NodeRelationship,
        RelatedNodeInfo,
        TextNode,
    )
    from llama_index.core.schema import Document as LlamaDocument
except ImportError as exc:
    raise missing_framework(__name__, "LlamaIndex (llama-index-core)", exc) from None

__all__ = ["ChunklabNodeParser", "llama_index_document"]


class ChunklabNodeParser(NodeParser):
    """A LlamaIndex `NodeParser` that cuts with a chunklab chunker (see the module docstring)."""

    chunker: Any = Field(
        default_factory=MarkdownChunker, description="a chunklab chunker (anything with split)"
    )
    parents: bool = Field(
        default=False,
        description="also return each chunk's section as a parent node (small-to-big, for "
        "AutoMergingRetriever); index get_leaf_nodes(nodes), keep all nodes in the docstore",
    )

    @field_validator("chunker", mode="before")
    @classmethod
    def _a_chunker(cls, value: Any) -> Chunker:
        try:
            return require_chunker(value)
        except TypeError as exc:  # pydantic reports a ValueError as a ValidationError
            raise ValueError(str(exc)) from None

    @classmethod
    def class_name(cls) -> str:
        return "ChunklabNodeParser"

    def get_nodes_from_documents(
        self, documents: Sequence[BaseNode], show_progress: bool = False, **kwargs: Any
    ) -> list[BaseNode]:
        """The nodes of every document: its parents first (with `parents=True`), then its chunks.

        Overridden, as `HierarchicalNodeParser` does, because the base class's post-processing
        would re-derive the offsets with `str.find` and link a parent to a chunk as PREVIOUS/NEXT.
        """
        with self.callback_manager.event(
            CBEventType.NODE_PARSING, payload={EventPayload.DOCUMENTS: documents}
        ) as event:
            nodes = self._parse_nodes(documents, show_progress=show_progress, **kwargs)
            event.on_end(payload={EventPayload.NODES: nodes})
        return nodes

    async def aget_nodes_from_documents(
        self, documents: Sequence[BaseNode], show_progress: bool = False, **kwargs: Any
    ) -> list[BaseNode]:
        return self.get_nodes_from_documents(documents, show_progress=show_progress, **kwargs)

    def _parse_nodes(
        self, nodes: Sequence[BaseNode], show_progress: bool = False, **kwargs: Any
    ) -> list[BaseNode]:
        docs = source_documents(
            [node.get_content(metadata_mode=MetadataMode.NONE) for node in nodes],
            [node.metadata for node in nodes],
            [node.node_id if _given_id(node) else None for node in nodes],
        )
        out: list[BaseNode] = []
        for doc, node in zip(docs, nodes, strict=True):
            out += self._nodes_of(doc, node)
        return out

    def _nodes_of(self, doc: Document, source: BaseNode) -> list[BaseNode]:
        """One document's parent nodes (if asked) and chunk nodes, linked."""
        if self.parents:
            paired = parents_and_children(self.chunker, doc)
            # Only parents some chunk points at: a section whose heading only a subsection's
            # breadcrumb carries has no chunk, and would be a "leaf" to `get_leaf_nodes`.
            used = {c.parent_id for c in paired.children}
            parents = {
                p.chunk_id: self._node(doc, p, source) for p in paired.parents if p.chunk_id in used
            }
            children = [self._node(doc, c, source) for c in paired.children]
            links: dict[str, list[RelatedNodeInfo]] = {}
            for chunk, child in zip(paired.children, children, strict=True):
                parent = parents[chunk.parent_id or ""]
                child.relationships[NodeRelationship.PARENT] = parent.as_related_node_info()
                links.setdefault(parent.node_id, []).append(child.as_related_node_info())
            for parent_id, infos in links.items():
                parents[parent_id].relationships[NodeRelationship.CHILD] = infos
        else:
            parents = {}
            children = [self._node(doc, c, source) for c in self.chunker.split(doc)]
        if self.include_prev_next_rel:
            for before, after in zip(children, children[1:], strict=False):
                before.relationships[NodeRelationship.NEXT] = after.as_related_node_info()
                after.relationships[NodeRelationship.PREVIOUS] = before.as_related_node_info()
        return [*parents.values(), *children]

    def _node(self, doc: Document, chunk: Chunk, source: BaseNode) -> TextNode:
        inherited = dict(source.metadata) if self.include_metadata else {}
        added = chunk_metadata(chunk)
        # the prefix is shown (embedded, read), unless there is none; the rest is bookkeeping
        hidden = [key for key in added if key != "prefix" or not prefix_of(chunk)]
        return TextNode(
            id_=chunk.chunk_id,
            text=source_text(doc, chunk),
            start_char_idx=chunk.start,
            end_char_idx=chunk.end,
            metadata={**inherited, **added},
            excluded_embed_metadata_keys=[*source.excluded_embed_metadata_keys, *hidden],
            excluded_llm_metadata_keys=[*source.excluded_llm_metadata_keys, *hidden],
            metadata_separator=source.metadata_separator,
            metadata_template=source.metadata_template,
            relationships={NodeRelationship.SOURCE: source.as_related_node_info()},
        )


def _given_id(node: BaseNode) -> bool:
    """Was the node's id given (by the caller, a reader's `filename_as_id`, a stored copy), not
    drawn? A node made without one gets a random uuid, which pydantic does not count as set."""
    return "id_" in node.model_fields_set


def llama_index_document(doc: Document) -> LlamaDocument:
    """A chunklab `Document` (`chunklab.load_document("manual")`) as a LlamaIndex Document whose
    nodes get the same ids and breadcrumbs as `chunker.split(doc)` gives."""
    return LlamaDocument(id_=doc.doc_id, text=doc.text, metadata=chunklab_metadata(doc))
