"""The baselines a skeptic runs against a path prefix (companion 06b), as strategies for
`run_experiment`: the same cut with the breadcrumb rewritten or removed, and the document's title
handed to the model at answer time instead of written into the index.

Each separates one thing the path prefix changes from the others: the words in the index, the cut
the prefix's room moves, and what the model sees beside a hit. `path_cut_headings_kept` holds the
path's cut with the words of `prefix="none"`, heading lines included, so that it differs from
`none` in the cut alone.
"""

from __future__ import annotations

from collections.abc import Callable

from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.contracts import Chunk, Document
from chunklab.evaluation.experiment import Prepared


def _with_title(chunk: Chunk, doc: Document) -> Chunk:
    """The chunk as handed to the model with its document's title field written above it."""
    return chunk.model_copy(update={"text": f"{doc.title}\n\n{chunk.text}"})


def recut(
    crumb_of: Callable[[str], str], title_at_answer: bool = False, max_tokens: int = 100
) -> Callable[[Document], Prepared]:
    """The path chunks, same boundaries, with each breadcrumb rewritten by `crumb_of(breadcrumb)`
    (an empty result drops it). Holding the cut fixed is what lets a comparison with the path
    speak of the prefix alone. `title_at_answer` hands the model the document's title field beside
    each hit's text, without putting it in the index."""

    def prepare(doc: Document) -> Prepared:
        chunks = []
        for c in MarkdownChunker(max_tokens=max_tokens, prefix="path").split(doc):
            crumb = c.metadata["prefix"]
            body = c.text[len(crumb) :].lstrip("\n") if crumb else c.text
            new_crumb = crumb_of(crumb)
            text = f"{new_crumb}\n\n{body}" if new_crumb else body
            chunks.append(c.model_copy(update={"text": text}))
        handed = {c.chunk_id: _with_title(c, doc) if title_at_answer else c for c in chunks}
        return Prepared(chunks, handed)

    return prepare


def title_at_answer_time(doc: Document, max_tokens: int = 100) -> Prepared:
    """No prefix in the index; the hit's title field handed to the model beside its text. If this
    answers a "which document" question, the title did not need to be in the index."""
    chunks = MarkdownChunker(max_tokens=max_tokens, prefix="none").split(doc)
    return Prepared(chunks, {c.chunk_id: _with_title(c, doc) for c in chunks})


def path_cut_headings_kept(doc: Document, max_tokens: int = 100) -> Prepared:
    """The path chunks, same boundaries, breadcrumb dropped, and each heading line written back
    as `prefix="none"` writes it: above the first chunk of its section, with the heading lines of
    the sections before it that have no chunk of their own. The words are none's, the cut is the
    path's: against `none` it speaks of the cut alone, against the path of the prefix alone."""
    chunker = MarkdownChunker(max_tokens=max_tokens, prefix="path")
    outline = chunker.outline(doc)
    heading_lines = [
        outline.source[s.heading.start : s.heading.end] if s.heading else ""
        for s in outline.sections
    ]
    order = [s.section_id for s in outline.sections]
    written, chunks = 0, []  # how many sections' heading lines are written, in document order
    for c in chunker.split(doc):
        crumb = c.metadata["prefix"]
        body = c.text[len(crumb) :].lstrip("\n") if crumb else c.text
        at = order.index(c.parent_id) + 1 if c.parent_id in order else written
        lines = [h for h in heading_lines[written:at] if h and not body.startswith(h)]
        written = max(written, at)
        chunks.append(c.model_copy(update={"text": "\n\n".join([*lines, body])}))
    return Prepared(chunks, {c.chunk_id: c for c in chunks})
