"""The baselines a skeptic runs against a path prefix (companion 06b), as strategies for
`run_experiment`: the same cut with the breadcrumb rewritten or removed, and the document's title
handed to the model at answer time instead of written into the index.

Each separates one thing the path prefix changes from the others: the words in the index, the cut
the prefix's room moves, and what the model sees beside a hit.
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
