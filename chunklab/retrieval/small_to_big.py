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

A parent has a cap (`parent_tokens`). A document without headings (a plain text file, a PDF whose
headings are bold but not larger) is one section, and handing it over whole would give the model
the whole document for every question. A section over the cap is handed over as a window of its
children around the hit instead (`window_around`): contiguous children, centred on the hit, grown
while the slice of the document they span still fits. Sections are already the smallest unit of
the section tree (a parent holds its section's own blocks, its sub-sections are parents of their
own), so there is no smaller enclosing section to fall back on: the window is it. The window is
an exact slice of the section's text, and its metadata says it was capped (`capped_from`, the
section's `section_tokens`, `first_child` and `last_child`), so no reader takes it for the whole.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from typing import NamedTuple

from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.contracts import Chunk, Chunker, Document, as_document
from chunklab.tokens.budget import SourceBudget
from chunklab.tokens.counters import TokenCounter, cl100k

WHOLE_SUFFIX = "#whole"  # a chunk that is its own parent: the parent's id is the chunk's id + this

# The most a parent hands over, in the tokens of the counter that counted it. Ten times the default
# child budget (200): above every section of the series' documents today (the largest, in
# data/formats/shared-mime-info-spec.pdf, is 1,465 cl100k tokens), so a document with headings
# hands over what it always did, and with `--parents 2` a question costs at most 4,000 tokens.
DEFAULT_PARENT_TOKENS = 2000


class Paired(NamedTuple):
    parents: list[Chunk]
    children: list[Chunk]
    nested: int  # children inside one section, handed over with it
    alone: int  # children that cross a section boundary, handed over as themselves


def parents_and_children(
    chunker: Chunker, doc: Document | str, parent_tokens: int | None = DEFAULT_PARENT_TOKENS
) -> Paired:
    """The parents and children the index stores for `doc`, whatever the strategy, no parent over
    `parent_tokens` (None: whole sections, however long; see `cap_parents`)."""
    own_parents = getattr(chunker, "parents", None)  # MarkdownChunker's sections, with breadcrumbs
    if own_parents is not None:
        children = chunker.split(doc)
        paired = Paired(own_parents(doc), children, len(children), 0)
        count_tokens = getattr(chunker, "count_tokens", cl100k)  # what counted its parents
    else:
        sections = MarkdownChunker()
        paired = pair_with_sections(chunker.split(doc), sections.parents(doc))
        count_tokens = sections.count_tokens
    if parent_tokens is None:
        return paired
    return cap_parents(paired, doc, parent_tokens, count_tokens)


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


def window_around(hit: int, count: int, fits: Callable[[int, int], bool]) -> tuple[int, int]:
    """The children (first, last), both included, handed over for a hit on child `hit` of `count`.

    Grown one child at a time while `fits(first, last)` holds: on the side with fewer children so
    far, so the hit stays in the middle; on a tie after the hit (what follows a match usually
    continues it). A side that would not fit, or has no child left, stops; the other goes on. A
    hit whose child alone does not fit is handed over alone: never less than what was found.
    """
    first = last = hit
    while True:
        before = first > 0 and fits(first - 1, last)
        after = last < count - 1 and fits(first, last + 1)
        if not (before or after):
            return first, last
        if after and (not before or last - hit <= hit - first):
            last += 1
        else:
            first -= 1


def cap_parents(
    paired: Paired,
    doc: Document | str,
    parent_tokens: int,
    count_tokens: TokenCounter = cl100k,
) -> Paired:
    """`paired` with every parent over `parent_tokens` replaced by windows of its children.

    Each child of such a parent gets as its parent the window around it (`window_around`): the
    slice of `doc` from its first child's start to its last child's end, counted with
    `count_tokens` (the counter that counted the parents) and at most `parent_tokens`, unless the
    hit's child alone is over it. Children that get the same window share it. Parents within the
    cap, and the children's own text and spans, are left as they were.
    """
    if parent_tokens < 1:
        raise ValueError(f"parent_tokens must be at least 1, got {parent_tokens}")
    over = {p.chunk_id for p in paired.parents if p.token_count > parent_tokens}
    members: dict[str, list[int]] = {}  # an over-cap parent -> its children, by position
    for i, child in enumerate(paired.children):
        if child.parent_id in over:
            members.setdefault(child.parent_id, []).append(i)
    if not members:
        return paired
    doc = as_document(doc)
    budget = SourceBudget(doc.text, count_tokens)  # any span's exact count, the text read once
    children = list(paired.children)
    parents: list[Chunk] = []
    for section in paired.parents:
        if section.chunk_id not in members:  # within the cap, or no child hands it over
            parents.append(section)
            continue
        mine = sorted(members[section.chunk_id], key=lambda i: (children[i].start, children[i].end))
        windows, window_of = section_windows(
            section, [children[i] for i in mine], doc, budget, parent_tokens
        )
        for i, window_id in zip(mine, window_of, strict=True):
            children[i] = children[i].model_copy(update={"parent_id": window_id})
        parents.extend(windows)
    return Paired(parents, children, paired.nested, paired.alone)


def section_windows(
    section: Chunk, kids: Sequence[Chunk], doc: Document, budget: SourceBudget, parent_tokens: int
) -> tuple[list[Chunk], list[str]]:
    """The windows one over-cap `section` is handed over as, in document order, and the id of the
    window each of its children (`kids`, in document order) hands over."""

    def span(first: int, last: int) -> tuple[int, int]:
        return kids[first].start, max(k.end for k in kids[first : last + 1])

    def fits(first: int, last: int) -> bool:
        return budget.span_count(*span(first, last)) <= parent_tokens

    chosen = [window_around(at, len(kids), fits) for at in range(len(kids))]
    windows: dict[tuple[int, int], Chunk] = {}
    for ordinal, (first, last) in enumerate(sorted(set(chosen))):
        start, end = span(first, last)
        windows[(first, last)] = Chunk(
            chunk_id=f"{section.chunk_id}#w{first}-{last}",
            doc_id=section.doc_id,
            ordinal=ordinal,
            text=doc.text[start:end],
            token_count=budget.span_count(start, end),
            heading_path=section.heading_path,
            start=start,
            end=end,
            metadata={
                **section.metadata,
                "capped_from": section.chunk_id,
                "section_tokens": section.token_count,
                "parent_tokens": parent_tokens,
                "first_child": kids[first].chunk_id,
                "last_child": kids[last].chunk_id,
            },
        )
    return list(windows.values()), [windows[key].chunk_id for key in chosen]
