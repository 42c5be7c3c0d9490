"""How `MarkdownChunker` holds and merges pieces before it emits them.

The chunker packs each section's blocks into bodies as soon as the section arrives, but it cannot
always write them out at once. A section with no content of its own and a full breadcrumb waits:
it needs a chunk of its heading alone only if none of its subsections with content carries its
title in a full breadcrumb. Until that is known, the sections after it are held too, so that the
chunks still come out in document order.

- `Held`: one section, packed and waiting for its turn (section, breadcrumb, bodies);
- `Emission`: the held sections in document order, the chain of waiting ancestors among them,
  and the chunks they become once nothing waits (each body behind its prefix, numbered in order).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from chunklab.chunkers.prefixes import Contextualizer, fit_prefix
from chunklab.contracts import Chunk, Document
from chunklab.parsing.sections import Section
from chunklab.tokens.budget import Measured, SourceBudget
from chunklab.tokens.packing import split_text

BLOCK_SEP = "\n\n"  # between a chunk's prefix and its body, and between the blocks of a body


@dataclass(slots=True)
class Held:
    """A section packed and held back: its breadcrumb and its bodies (one per child chunk).

    A waiting section's `bodies` stay empty until its subtree ends: then they are its heading
    alone, or nothing, if a subsection's breadcrumb carried its title.
    """

    section: Section
    crumb: Measured
    bodies: list[Measured]


class Emission:
    """Held sections, in document order, until none of them waits on a decision.

    `waiting` is always a chain of ancestors (each one the parent, or an ancestor, of the next),
    because sections arrive in document order: a section outside the chain's subtree ends it.
    """

    __slots__ = (
        "budget",
        "by_id",
        "contextualize",
        "doc",
        "emitted",
        "held",
        "max_tokens",
        "waiting",
    )

    def __init__(
        self,
        doc: Document,
        budget: SourceBudget,
        sections: Sequence[Section],
        max_tokens: int,
        contextualize: Contextualizer | None,
    ) -> None:
        """`contextualize`: the contextual prefix's writer, or None for the breadcrumb (or none)."""
        self.doc, self.budget, self.max_tokens = doc, budget, max_tokens
        self.contextualize = contextualize
        self.by_id = {s.section_id: s for s in sections}
        self.held: list[Held] = []  # in document order
        self.waiting: list[Held] = []  # the entries of `held` still undecided
        self.emitted = 0  # chunks emitted so far: the next one's ordinal

    def pop_ended(self, section: Section) -> Held | None:
        """A waiting section whose subtree ended before `section`, or None when there is none.

        None of its subsections carried its title in a full breadcrumb, so it needs its heading
        alone (the caller packs it into `bodies`).
        """
        if self.waiting and not _descends_from(section, self.waiting[-1].section, self.by_id):
            return self.waiting.pop()
        return None

    def wait(self, entry: Held) -> None:
        """Hold a section whose chunk depends on the subsections still to come."""
        self.waiting.append(entry)
        self.held.append(entry)

    def hold(self, entry: Held, carries_titles: bool) -> Iterator[Chunk]:
        """Hold a section with its bodies; the chunks of everything held, once nothing waits.

        `carries_titles`: the section has content and a full breadcrumb, which carries the titles
        of every waiting section (all of them are its ancestors): none of them waits any longer.
        """
        self.held.append(entry)
        if carries_titles:
            self.waiting.clear()
        if self.waiting:
            return iter(())
        return self.release()

    def undecided(self) -> list[Held]:
        """The sections still waiting when the document ends: each needs its heading alone."""
        return self.waiting

    def release(self) -> Iterator[Chunk]:
        """The chunks of every held section, in order; nothing is held afterwards (at once, not
        when the chunks are read)."""
        ready, self.held, self.waiting = self.held, [], []
        return self._chunks(ready)

    def _chunks(self, ready: list[Held]) -> Iterator[Chunk]:
        for entry in ready:
            new = section_chunks(
                self.doc, self.budget, entry, self.emitted, self.max_tokens, self.contextualize
            )
            self.emitted += len(new)
            yield from new


def section_chunks(
    doc: Document,
    budget: SourceBudget,
    entry: Held,
    first_ordinal: int,
    max_tokens: int,
    contextualize: Contextualizer | None,
) -> list[Chunk]:
    """A section's chunks: its prefix, a blank line, then each packed body."""
    section, crumb = entry.section, entry.crumb
    section_id, path, breadcrumb = section.section_id, section.heading_path, section.breadcrumb
    doc_id, tenant = doc.doc_id, doc.metadata.get("tenant", "default")
    # CommonMark counts only spaces and tabs as blank, so a line of no-break spaces (U+00A0,
    # U+3000) is a paragraph; alone in a chunk it is nothing to search or to read.
    packed = [body for body in entry.bodies if not body.text.isspace()]
    chunks: list[Chunk] = []
    for n, body in enumerate(packed):
        head = crumb
        if contextualize is not None:
            head = _context_head(
                doc, budget, entry, body, n, first_ordinal, max_tokens, contextualize
            )
        piece = budget.join(head, BLOCK_SEP, body) if head.text else body
        # Every value comes from the chunker itself: built without validation, which would
        # cost more than the packing (the property tests re-validate every chunk).
        chunks.append(
            Chunk.trusted(
                chunk_id=f"{section_id}-c{n}",
                doc_id=doc_id,
                parent_id=section_id,
                ordinal=first_ordinal + n,
                text=piece.text,
                token_count=piece.count,
                heading_path=path,
                start=body.start,
                end=body.end,
                metadata={
                    "strategy": "markdown",
                    "tenant": tenant,
                    "section": breadcrumb,
                    "prefix": head.text,
                },
            )
        )
    return chunks


def _context_head(
    doc: Document,
    budget: SourceBudget,
    entry: Held,
    body: Measured,
    n: int,
    first_ordinal: int,
    max_tokens: int,
    contextualize: Contextualizer,
) -> Measured:
    """The contextual prefix of the n-th body, shortened at a word to the room the body leaves.

    The contextualizer sees the chunk without its prefix.
    """
    section_id = entry.section.section_id
    bare = Chunk(
        chunk_id=f"{section_id}-c{n}",
        doc_id=doc.doc_id,
        parent_id=section_id,
        ordinal=first_ordinal + n,
        text=body.text,
        token_count=body.count,
        heading_path=entry.section.heading_path,
        start=body.start,
        end=body.end,
    )
    context = fit_prefix(
        contextualize(doc, bare),
        lambda p: budget.join(budget.text(p), BLOCK_SEP, body).count <= max_tokens,
    )
    return budget.text(context)


# --- merging pieces while they fit ---------------------------------------------------------


def group_runs(
    runs: list[tuple[int, int]],
    measure: Callable[[int, int], Measured],
    limit: int,
    budget: SourceBudget,
) -> list[Measured]:
    """Merge neighbouring runs of lines while `measure(first, last)` fits the limit.

    A run that does not fit even alone is cut into lines (and those, if need be, further).
    """
    pieces: list[Measured] = []
    group: tuple[int, int] | None = None
    for a, b in runs:
        if group and measure(group[0], b).count <= limit:
            group = (group[0], b)
            continue
        if group:
            pieces.append(measure(*group))
            group = None
        if measure(a, b).count <= limit:
            group = (a, b)
        else:
            pieces.extend(group_lines(a, b, limit, budget))
    if group:
        pieces.append(measure(*group))
    return pieces


def group_lines(first: int, last: int, limit: int, budget: SourceBudget) -> list[Measured]:
    """Runs of whole lines within the limit; a line too big is split by sentences, then words."""
    pieces: list[Measured] = []
    group: tuple[int, int] | None = None
    for k in range(first, last + 1):
        if not budget.lines[k].strip():
            continue
        if group and budget.lines_span(group[0], k).count <= limit:
            group = (group[0], k)
            continue
        if group:
            pieces.append(budget.lines_span(*group))
            group = None
        if budget.lines_span_within(k, k, limit) is not None:
            group = (k, k)
        else:
            start = budget.line_start[k]
            pieces.extend(split_text(start, start + len(budget.lines[k]), limit, budget))
    if group:
        pieces.append(budget.lines_span(*group))
    return pieces


def _descends_from(section: Section, ancestor: Section, by_id: dict[str, Section]) -> bool:
    """Is `ancestor` above `section` in the tree?"""
    parent = section.parent_id
    while parent is not None:
        if parent == ancestor.section_id:
            return True
        parent = by_id[parent].parent_id
    return False
