"""The article's structural splitter: ask the text where its units end, largest unit first.

Blocks are cut at blank lines. A block longer than `size` is cut at the next separator in
`SEPARATORS` ("\\n\\n", "\\n", ". ", " "), piece by piece, until every piece fits; what no
separator can shorten is cut every `size` characters. Sizes are in characters, as in the
article. With `repack=True`, neighbouring pieces of the same block are packed back together up to
`size`, one line of code that takes the manual from 11 chunks to 6. With `glue=True`, a chunk of
heading lines only (a heading, or a stack of them) takes the chunks after it while the joined span
fits `size` (`glue_headings`, notebook 02c), so a heading is not left apart from its text.

One fix against the article's code: it splits with `str.split(separator)`, which throws the
separator away, so cutting at ". " deletes the sentence's full stop. Here each piece keeps its
separator, and a chunk is always an exact slice of the document (`text == doc.text[start:end]`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import ConfigDict, Field

from chunklab.contracts import Chunk, Contract, Document, as_document, span_chunks
from chunklab.tokens.counters import TokenCounter, word_count

SEPARATORS = ("\n\n", "\n", ". ", " ")
HEADING_LINE = re.compile(r"#{1,6} ")  # `#`s first, then a space: an indented line is none


def _strip_span(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def split_span(text: str, start: int, end: int, separator: str) -> list[tuple[int, int]]:
    """Cut text[start:end] after each `separator`; the separator stays with the piece before it."""
    spans, pos = [], start
    while True:
        at = text.find(separator, pos, end)
        if at < 0:
            break
        spans.append((pos, at + len(separator)))
        pos = at + len(separator)
    spans.append((pos, end))
    stripped = [_strip_span(text, a, b) for a, b in spans]
    return [(a, b) for a, b in stripped if a < b]


def recursive_split(
    text: str, start: int, end: int, size: int, separators: Sequence[str] = SEPARATORS
) -> list[tuple[int, int]]:
    """Spans no longer than `size`, cut at the largest separator that gets every piece to fit.

    As in the article, the next separator is tried on the whole level at once. The article keeps
    a piece that no separator can shorten (a long URL, minified JSON, a line of base64) whole,
    longer than `size`; here it is cut every `size` characters, as LangChain's splitter does
    with its last separator "": the size is a promise.
    """
    pieces = [(start, end)]
    for separator in separators:
        if all(b - a <= size for a, b in pieces):
            break
        pieces = [
            span
            for a, b in pieces
            for span in ([(a, b)] if b - a <= size else split_span(text, a, b, separator))
        ]
    return [(k, min(k + size, b)) for a, b in pieces for k in range(a, b, size)]


def repack(spans: list[tuple[int, int]], size: int) -> list[tuple[int, int]]:
    """Greedily merge neighbouring spans while the merged slice stays within `size` characters.

    The article joins the pieces with "\\n" and measures `len(current) + len(next) + 1`; for
    pieces cut at line breaks that is the same as measuring the slice of the document.
    """
    out: list[tuple[int, int]] = []
    for a, b in spans:
        if out and b - out[-1][0] <= size:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def headings_only(text: str) -> bool:
    """Whether every non-blank line of `text` is a heading line (and there is one at least)."""
    lines = [line for line in text.split("\n") if line.strip()]
    return bool(lines) and all(HEADING_LINE.match(line) for line in lines)


def glue_headings(text: str, spans: list[tuple[int, int]], size: int) -> list[tuple[int, int]]:
    """Join each chunk of heading lines only to the chunks after it, while the chunk being built is
    still headings only and the joined span, first start to last end, is at most `size` characters.

    A stack (`## A`, then `### B`, then the text) is joined whole to its text, not to itself only.
    """
    out: list[tuple[int, int]] = []
    for a, b in spans:
        if out and headings_only(text[out[-1][0] : out[-1][1]]) and b - out[-1][0] <= size:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


class StructuralChunker(Contract):
    """Blocks at blank lines, cut recursively at separators; optionally repacked up to `size`, and
    optionally each heading-only chunk glued to its text (`glue`)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    size: int = Field(200, gt=0, description="maximum piece length, in characters")
    repack: bool = False
    glue: bool = False
    separators: tuple[str, ...] = SEPARATORS
    count_tokens: TokenCounter = word_count

    def spans(self, text: str) -> list[tuple[int, int]]:
        """(start, end) of each piece of `text`, before it becomes a chunk: what `split` cuts, for
        a caller that cuts a slice of a document (the article's two scales cut inside parents)."""
        out: list[tuple[int, int]] = []
        for a, b in split_span(text, 0, len(text), "\n\n"):
            pieces = recursive_split(text, a, b, self.size, self.separators)
            out.extend(repack(pieces, self.size) if self.repack else pieces)
        return glue_headings(text, out, self.size) if self.glue else out

    def split(self, doc: Document | str) -> list[Chunk]:
        """The pieces of `spans` as chunks, each an exact slice of the text (separators kept).

        No piece is longer than `size` characters; `token_count` comes from `count_tokens` (the
        article's word count by default), and the strategy is "structural-repack" with `repack`,
        "-glue" added with `glue`.
        """
        doc = as_document(doc)
        strategy = ("structural-repack" if self.repack else "structural") + "-glue" * self.glue
        spans = [(a, b, self.count_tokens(doc.text[a:b])) for a, b in self.spans(doc.text)]
        return span_chunks(doc, spans, strategy)


def two_scale_chunks(
    doc, parent_size: int = 800, child_size: int = 200
) -> tuple[list[Chunk], list[Chunk]]:
    """The article's two scales: parents are blocks at blank lines (up to `parent_size` characters),
    children are those blocks cut structurally and repacked to `child_size`, pointing at them.

    Sizes are in characters and `token_count` is the article's word count, so its demo reproduces.
    """
    parents = StructuralChunker(size=parent_size).split(doc)
    parents = [p.model_copy(update={"chunk_id": f"{doc.doc_id}#p{p.ordinal}"}) for p in parents]
    cutter = StructuralChunker(size=child_size, repack=True)
    children: list[Chunk] = []
    for parent in parents:
        for a, b in cutter.spans(parent.text):
            start, end = parent.start + a, parent.start + b
            children.append(
                Chunk(
                    chunk_id=f"{parent.chunk_id}.c{len(children)}",
                    doc_id=doc.doc_id,
                    parent_id=parent.chunk_id,
                    ordinal=len(children),
                    text=doc.text[start:end],
                    token_count=len(doc.text[start:end].split()),
                    start=start,
                    end=end,
                    metadata=dict(parent.metadata),
                )
            )
    return parents, children
