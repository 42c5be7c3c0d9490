"""Structure-aware chunking of Markdown: breadcrumb + whole blocks, within a hard token budget.

Each section of the outline (chunklab.parsing.sections) becomes one or more child chunks. A child
is the section's breadcrumb ("Travel Policy > International Travel > Per diem"), a blank line, then
as many of the section's blocks as fit in `max_tokens`. Its `parent_id` is the section id, so a
retriever can hand the model the whole section (notebook 03).

A block too big for the budget is split by its kind, so that each piece still reads as that kind:

- table: between rows, each piece repeating the header and delimiter rows;
- list: between items;
- code: between lines, each piece re-opening and closing the fence;
- anything else: between sentences; a sentence still too big between words; a word still too
  big at the longest prefix that fits.

Guarantees (each one a property test over generated Markdown): no chunk's `token_count` exceeds
`max_tokens`; `token_count` is the true count of `text`; every word of the body that fits the
budget appears in the chunks at least as often as in the source; `source[start:end]` appears in
the chunk text (whitespace normalised); the same input gives the same chunks in every process.

The breadcrumb is given at most half the budget. When the full path is longer, it is shortened to
"… > " + the section's own title, then to that title cut to fit (ending in "…"), and at the last
to nothing; in those cases the heading line itself is kept as the first block of the section, so
no heading word is lost. A section with no content of its own gets a chunk only when none of its
subsections carries its title in a full breadcrumb.

`prefix` chooses what heads each chunk (notebook 06): the breadcrumb ("path", the default), nothing
("none": the heading lines stay in the text as written), or a contextual prefix ("context": the
text `contextualize(document, chunk)` returns, shortened at a word to the room the body leaves;
the body leaves it at least a quarter of the budget). Whatever the prefix, it counts in
`max_tokens`.

Sections are held, then emitted in document order, by `chunklab.chunkers.emission`, which also
merges runs of lines into pieces that fit.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from pydantic import ConfigDict, Field

from chunklab.chunkers.collector import gc_paused
from chunklab.chunkers.emission import BLOCK_SEP, Emission, Held, group_lines, group_runs
from chunklab.chunkers.prefixes import Contextualizer, offline_context
from chunklab.contracts import Chunk, Contract, Document, as_document
from chunklab.parsing.blocks import Block
from chunklab.parsing.scanner import closes_fence, indent_width, list_marker, opening_fence
from chunklab.parsing.sections import Outline, Section, build_outline
from chunklab.tokens.budget import Measured, SourceBudget
from chunklab.tokens.counters import TokenCounter, cl100k
from chunklab.tokens.packing import MIN_TOKENS, longest_prefix


class MarkdownChunker(Contract):
    """Children = breadcrumb + packed blocks of one section, never more than `max_tokens`."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    max_tokens: int = Field(200, ge=MIN_TOKENS, description="hard budget per chunk, in tokens")
    count_tokens: TokenCounter = Field(cl100k, description="the counter that defines the budget")
    table_mode: Literal["rows", "linearize", "whole"] = Field(
        "rows",
        description="rows: split a table that does not fit between rows, repeating the header; "
        "linearize: every data row becomes 'header + row', packed without cutting a pair; "
        "whole: a table that fits gets a chunk of its own (one that does not is split as rows: "
        "the budget always wins)",
    )

    prefix: Literal["path", "none", "context"] = Field(
        "path",
        description="path: the heading path (breadcrumb) heads every chunk; none: no prefix, the "
        "heading lines stay in the text as written; context: a contextual prefix from "
        "`contextualize` (default chunklab.chunkers.prefixes.offline_context). Every prefix counts "
        "inside max_tokens",
    )
    contextualize: Contextualizer | None = Field(
        None,
        description="(document, chunk) -> prefix text, for prefix='context'; "
        "see chunklab.chunkers.prefixes",
    )

    def outline(self, doc: Document | str) -> Outline:
        """The section tree `split` and `parents` work from, to see what a chunk will belong to."""
        doc = as_document(doc)
        return build_outline(doc.text, doc.doc_id, doc.title)

    def split(self, doc: Document | str) -> list[Chunk]:
        """The child chunks, in document order: each section's breadcrumb (or prefix) and as many
        of its blocks as fit, never more than `max_tokens`; a block too big is cut by its kind.

        Each child's `parent_id` is its section's id: `parents` builds those parents, for
        small-to-big retrieval.
        """
        with gc_paused():
            return list(self._chunks(as_document(doc)))

    def iter_chunks(self, doc: Document | str) -> Iterator[Chunk]:
        """The chunks of `split`, one section at a time.

        A caller that writes each chunk out and drops it (the CLI) never holds them all, so the
        memory a long document needs is about that of its text and its encoding, not of its
        chunks. Python's cyclic collector stays paused until the iterator is exhausted or closed
        (see `gc_paused`).
        """
        with gc_paused():
            yield from self._chunks(as_document(doc))

    def _chunks(self, doc: Document) -> Iterator[Chunk]:
        budget = SourceBudget(doc.text, self.count_tokens)  # starts counting right away
        outline = self.outline(doc)
        # A contextual prefix is written after the body is packed, so the body leaves it a quarter
        # of the budget; it is then shortened to whatever room the body really left.
        contextual = self.prefix == "context"
        reserve = self.max_tokens // 4 if contextual else 0
        contextualize = (self.contextualize or offline_context) if contextual else None
        emission = Emission(doc, budget, outline.sections, self.max_tokens, contextualize)
        paths: dict[str, Measured] = {}
        for section in outline.sections:  # in document order, the order in which tokens arrive
            crumb, full = self._breadcrumb(section, paths, budget)
            while (ended := emission.pop_ended(section)) is not None:
                self._heading_alone(ended, budget, reserve)
            if section.heading is not None and not section.blocks and full:
                # Its chunk depends on the subsections to come (`chunklab.chunkers.emission`).
                emission.wait(Held(section, crumb, []))
                continue
            blocks = list(section.blocks)
            if section.heading is not None and not full:
                blocks.insert(0, section.heading)  # keep the heading's words somewhere
            bodies = self._bodies(blocks, crumb, budget, reserve)
            yield from emission.hold(Held(section, crumb, bodies), bool(section.blocks) and full)
        for entry in emission.undecided():  # their subtrees ended with the document
            self._heading_alone(entry, budget, reserve)
        yield from emission.release()

    def _heading_alone(self, entry: Held, budget: SourceBudget, reserve: int) -> None:
        """A waiting section whose subtree ended without carrying its title: its heading alone."""
        heading = entry.section.heading
        assert heading is not None  # only a section with a heading waits
        entry.bodies = self._bodies([heading], entry.crumb, budget, reserve)

    def parents(self, doc: Document | str) -> list[Chunk]:
        """One parent per section: its breadcrumb and all of its own blocks, whatever their size.

        The children of `split` point at these by `parent_id`. A parent is what small-to-big
        hands the model, so it is not held to `max_tokens`.
        """
        doc = as_document(doc)
        parents = []
        for n, section in enumerate(self.outline(doc).sections):
            body = (
                doc.text[section.blocks[0].start : section.blocks[-1].end] if section.blocks else ""
            )
            text = "\n\n".join(part for part in (section.breadcrumb, body) if part)
            parents.append(
                Chunk(
                    chunk_id=section.section_id,
                    doc_id=doc.doc_id,
                    parent_id=None,
                    ordinal=n,
                    text=text,
                    token_count=self.count_tokens(text),
                    heading_path=section.heading_path,
                    start=section.start,
                    end=section.end,
                    metadata={
                        "strategy": "markdown-parent",
                        "tenant": doc.metadata.get("tenant", "default"),
                        "section": section.breadcrumb,
                    },
                )
            )
        return parents

    # --- breadcrumbs ----------------------------------------------------------------------------

    def _breadcrumb(
        self, section: Section, paths: dict, budget: SourceBudget
    ) -> tuple[Measured, bool]:
        """(breadcrumb piece, whether it is the full path) within half the budget.

        `paths` holds the full paths of the current section's ancestors (parents come first):
        a full path is its parent's plus one title, so it is counted from the parent's count
        (`SourceBudget.path`), not from scratch.
        """
        if self.prefix != "path":  # no breadcrumb: the heading lines stay in the text, as written
            return budget.text(""), False
        # Sections come in document order, so the ones still needed are this one's ancestors: the
        # top of the stack down to its parent. The others go (a long document has many).
        while paths and next(reversed(paths)) != section.parent_id:
            paths.popitem()
        if section.heading is None:
            full = budget.text("")
        else:
            full = budget.path(paths.get(section.parent_id), section.heading)
        paths[section.section_id] = full
        limit = self.max_tokens // 2
        if full.count + budget.delta(full.tail, BLOCK_SEP) <= limit:
            return full, True
        path = section.heading_path
        if len(path) > 1:
            short = budget.text("… > " + path[-1])
            if short.count + budget.delta(short.tail, BLOCK_SEP) <= limit:
                return short, False
        cut = longest_prefix(path[-1], lambda t: budget.text(t + "…"), limit - 2)
        if cut:
            return budget.text(cut + "…"), False
        return budget.text(""), False

    # --- packing --------------------------------------------------------------------------------

    def _bodies(
        self, blocks: list[Block], crumb: Measured, budget: SourceBudget, reserve: int = 0
    ) -> list[Measured]:
        """Greedy packing of the section's blocks (split where needed) under the body budget."""
        if crumb.text:
            limit = self.max_tokens - crumb.count - budget.delta(crumb.tail, BLOCK_SEP)
        else:
            limit = self.max_tokens - reserve
        if len(blocks) > 1 and self._reads_as_joined(blocks, budget):
            # The common case, settled first: the whole section fits, and in the source its blocks
            # are already joined by one blank line. One count of that span is the chunk.
            span = budget.lines_span(blocks[0].first_line, blocks[-1].last_line)
            if span.count <= limit:
                return [span]
        bodies: list[Measured] = []
        current: Measured | None = None
        previous_alone = False  # the last piece placed stands alone
        linearize = self.table_mode == "linearize"
        for block in blocks:
            whole = budget.lines_span_within(block.first_line, block.last_line, limit)
            if whole is not None and not (linearize and block.kind == "table"):
                parts = [whole]  # the common case: the block fits as it is
            else:
                parts = self._pieces(block, whole, limit, budget)
            split = len(parts) > 1
            # Pieces of a split table stand alone: each carries its own copy of the header. In
            # "whole" mode, and for linearized rows, a table never shares a chunk with other blocks.
            alone = block.kind == "table" and (split or self.table_mode in ("whole", "linearize"))
            for k, piece in enumerate(parts):
                # Pieces of one split block never share a chunk: a code piece re-opens its fence,
                # so two side by side would repeat that markup.
                joinable = not alone and not previous_alone and not (split and k > 0)
                previous_alone = alone
                if current is not None and joinable:
                    joined = budget.join_within(current, BLOCK_SEP, piece, limit)
                    if joined is not None:
                        current = joined
                        continue
                if current is not None:
                    bodies.append(current)
                current = piece
        if current is not None:
            bodies.append(current)
        return bodies

    def _reads_as_joined(self, blocks: list[Block], budget: SourceBudget) -> bool:
        """Is the source from the first block to the last exactly the blocks joined by BLOCK_SEP,
        with nothing that must stand alone (a table outside "rows" mode)?"""
        lines, previous = budget.lines, blocks[0]
        if previous.kind == "table" and self.table_mode != "rows":
            return False
        for block in blocks[1:]:
            if block.first_line != previous.last_line + 2 or lines[previous.last_line + 1]:
                return False
            if block.kind == "table" and self.table_mode != "rows":
                return False
            previous = block
        return True

    def _pieces(
        self, block: Block, whole: Measured | None, limit: int, budget: SourceBudget
    ) -> list[Measured]:
        """The block as one piece if it fits (`whole`: the block measured, None when it does not
        fit), else split by its kind."""
        if (
            block.kind == "table"
            and self.table_mode == "linearize"
            and block.last_line - block.first_line >= 2
        ):
            return self._linearized_rows(block, limit, budget)
        if whole is not None:
            return [whole]
        if block.kind == "table" and block.last_line - block.first_line >= 2:
            return self._split_table(block, limit, budget)
        if block.kind == "list":
            return self._split_list(block, limit, budget)
        if block.kind == "code" and opening_fence(budget.lines[block.first_line]):
            return self._split_code(block, limit, budget)
        return group_lines(block.first_line, block.last_line, limit, budget)

    def _split_table(self, block: Block, limit: int, budget: SourceBudget) -> list[Measured]:
        first = block.first_line
        header = budget.lines_span(first, first + 1)
        rows = [(k, k) for k in range(first + 2, block.last_line + 1) if budget.lines[k].strip()]

        def with_header(a: int, b: int) -> Measured:
            body = budget.lines_span(a, b)
            joined = budget.join(header, "\n", body)
            # The first rows follow the header in the source, so their piece spans it too: the
            # header's own text then lies in a chunk's span, not only in repeated copies.
            start = header.start if a == rows[0][0] and body.start - header.end == 1 else body.start
            return Measured(joined.text, joined.count, joined.tail, start, body.end)

        if not rows or min(with_header(a, b).count for a, b in rows) > limit:
            # The header cannot share the budget with any row (a table wider than the budget):
            # cut the table as plain lines, so the header is kept once rather than lost.
            return group_lines(first, block.last_line, limit, budget)
        # Rows grouped under the repeated header; a row that cannot fit with it even alone is cut
        # bare (notebook 05 counts such orphans and deals with wide tables).
        return group_runs(rows, with_header, limit, budget)

    def _linearized_rows(self, block: Block, limit: int, budget: SourceBudget) -> list[Measured]:
        """Each data row as 'header\nrow' (the delimiter row dropped), pairs packed within the
        limit."""
        header = budget.lines_span(block.first_line, block.first_line)
        rows = [
            k for k in range(block.first_line + 2, block.last_line + 1) if budget.lines[k].strip()
        ]
        candidates = {k: budget.join(header, "\n", budget.lines_span(k, k)) for k in rows}
        if not rows or min(p.count for p in candidates.values()) > limit:
            # A header-only table, or one wider than the budget beside every row: the rows mode's
            # fallback keeps the header once, so no word is lost.
            return self._split_table(block, limit, budget)
        pairs = []
        for k in rows:
            pair = candidates[k]
            if pair.count > limit:  # this row alone is too wide to sit beside its header: cut bare
                pairs.extend(group_lines(k, k, limit, budget))
            else:
                start = budget.line_start[k]
                pairs.append(
                    Measured(pair.text, pair.count, pair.tail, start, start + len(budget.lines[k]))
                )
        out = [pairs[0]]
        for pair in pairs[1:]:
            joined = budget.join(out[-1], "\n", pair)
            if joined.count <= limit:
                out[-1] = Measured(joined.text, joined.count, joined.tail, out[-1].start, pair.end)
            else:
                out.append(pair)
        return out

    def _split_list(self, block: Block, limit: int, budget: SourceBudget) -> list[Measured]:
        first = budget.lines[block.first_line]
        marker = list_marker(first)
        assert marker is not None  # a list block starts at an item's line
        kind, base = marker[0], indent_width(first)
        starts = [
            k
            for k in range(block.first_line, block.last_line + 1)
            if (m := list_marker(budget.lines[k]))
            and m[0] == kind
            and indent_width(budget.lines[k]) == base
        ]
        items = []
        for a, b in zip(starts, [*starts[1:], block.last_line + 1], strict=True):
            last = b - 1
            while last > a and not budget.lines[last].strip():
                last -= 1
            items.append((a, last))
        return group_runs(items, budget.lines_span, limit, budget)

    def _split_code(self, block: Block, limit: int, budget: SourceBudget) -> list[Measured]:
        opening = budget.lines[block.first_line].rstrip("\r")
        fence = opening_fence(opening)
        assert fence is not None  # `_split_block` sends only fenced code here
        char, length = fence
        closed = block.last_line > block.first_line and closes_fence(
            budget.lines[block.last_line], char, length
        )
        body_last = block.last_line - 1 if closed else block.last_line
        fence_open = budget.text(opening, budget.line_start[block.first_line])
        fence_close = budget.text(" " * indent_width(opening) + char * length)
        reserve = budget.delta(fence_open.tail, "\n") + fence_open.count + fence_close.count + 2
        body_lines = [
            k for k in range(block.first_line + 1, body_last + 1) if budget.lines[k].strip()
        ]
        if not body_lines or limit - reserve < self.max_tokens // 2:
            # Fences would leave less than half the budget (the share every word is promised):
            # cut the block as plain lines, fences included.
            return group_lines(block.first_line, block.last_line, limit, budget)
        pieces = []
        for piece in group_lines(body_lines[0], body_lines[-1], limit - reserve, budget):
            wrapped = budget.join(budget.join(fence_open, "\n", piece), "\n", fence_close)
            if wrapped.count > limit:  # the reserve is a margin, not a proof: check, and fall back
                return group_lines(block.first_line, block.last_line, limit, budget)
            pieces.append(
                Measured(wrapped.text, wrapped.count, wrapped.tail, piece.start, piece.end)
            )
        return pieces
