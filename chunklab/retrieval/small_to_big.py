"""Parents for any strategy's chunks, so every strategy can be indexed small-to-big.

The index searches children and hands the model their parents. `MarkdownChunker` makes both: its
children point at whole sections. Any other strategy's chunks become children the same way when
they fit: a chunk that lies inside one section of the document's section tree gets that section
as its parent, so a hit on a small piece still hands over the whole section.

Where it does not make sense, it is not forced: a chunk cut across a heading (a fixed window over
the end of one section and the start of the next, a semantic cut that ignores headings) lies in no
single section, and handing over either section would lose the part it took from the other. Such a
chunk is its own parent: search finds it and hands it over whole, as plain retrieval would.
`pair_with_sections` says how many chunks were nested and how many stand alone.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import NamedTuple

from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.contracts import Chunk, Chunker, Document

WHOLE_SUFFIX = "#whole"  # a chunk that is its own parent: the parent's id is the chunk's id + this


class Paired(NamedTuple):
    parents: list[Chunk]
    children: list[Chunk]
    nested: int  # children inside one section, handed over with it
    alone: int  # children that cross a section boundary, handed over as themselves


def parents_and_children(chunker: Chunker, doc: Document) -> Paired:
    """The parents and children the index stores for `doc`, whatever the strategy."""
    own_parents = getattr(chunker, "parents", None)  # MarkdownChunker's sections, with breadcrumbs
    if own_parents is not None:
        children = chunker.split(doc)
        return Paired(own_parents(doc), children, len(children), 0)
    return pair_with_sections(chunker.split(doc), MarkdownChunker().parents(doc))


def pair_with_sections(chunks: Sequence[Chunk], sections: Sequence[Chunk]) -> Paired:
    """Each chunk as the child of the section that holds its whole span, or as its own parent.

    Sections are the document's section tree in order (`MarkdownChunker.parents`): their spans do
    not overlap, so the one that could hold a chunk is the last to start at or before it.
    """
    starts = [s.start for s in sections]
    used: dict[str, Chunk] = {}
    children, alone = [], 0
    for chunk in chunks:
        at = bisect.bisect_right(starts, chunk.start) - 1
        section = sections[at] if at >= 0 else None
        if section is not None and chunk.end <= section.end:
            used.setdefault(section.chunk_id, section)
            parent_id = section.chunk_id
        else:
            whole = chunk.model_copy(
                update={"chunk_id": chunk.chunk_id + WHOLE_SUFFIX, "parent_id": None}
            )
            used[whole.chunk_id] = whole
            parent_id, alone = whole.chunk_id, alone + 1
        children.append(chunk.model_copy(update={"parent_id": parent_id}))
    parents = sorted(used.values(), key=lambda p: (p.start, p.end, p.chunk_id))
    return Paired(parents, children, len(children) - alone, alone)
