"""The recursive splitter of Chroma's chunking report: LangChain's, with chunk length in tokens.

A faithful port of `RecursiveTokenChunker` from `brandonstarxel/chunking_evaluation` (@d451fc4,
MIT, (c) 2024 Brandon Smith), itself adapted from LangChain's `RecursiveCharacterTextSplitter`
(MIT). Its rules, kept exactly, since the benchmark's Recursive rows depend on them:

- Separators `"\\n\\n", "\\n", ".", "?", "!", " ", ""`. For a piece of text, the first one that
  occurs in it is used; the text is cut *before* each occurrence (the separator starts the next
  piece: LangChain's `keep_separator=True`), and empty pieces are dropped.
- A piece whose length is `< size` is kept for merging; a longer one (`>=`) is split again with
  the separators after the one used, or kept whole when none is left.
- Kept pieces are merged left to right into chunks of at most `size`, joined with the empty
  string; a chunk is stripped of surrounding whitespace. Each join also counts the length of the
  separator `""`, which is 0 in cl100k tokens but 2 in MiniLM word pieces (`minilm` counts [CLS]
  and [SEP], as LangChain's `from_huggingface_tokenizer` does): the report's MiniLM rows
  reproduce only with that count. After a chunk is emitted, pieces are dropped from its front
  until at most `overlap` remains, and the next chunk starts with what is left.

The port works on character spans instead of strings, so every chunk is an exact slice of the
document (`text == doc.text[start:end]`): concatenating neighbouring pieces of one text gives back
that text, and stripping only moves the ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import ConfigDict, Field, model_validator

from chunklab.contracts import Chunk, Contract, Document, as_document, span_chunks
from chunklab.tokens.counters import TokenCounter, cl100k, r50k
from chunklab.tokens.wordpiece import minilm_pieces

LENGTHS: dict[str, TokenCounter] = {"cl100k": cl100k, "minilm": minilm_pieces, "r50k": r50k}

SEPARATORS = ("\n\n", "\n", ".", "?", "!", " ", "")

Span = tuple[int, int]


def cut_before(text: str, start: int, end: int, separator: str) -> list[Span]:
    """text[start:end] cut before each non-overlapping occurrence of `separator` (every character
    for ""), empty pieces dropped: LangChain's `_split_text_with_regex` with `keep_separator`."""
    if not separator:
        return [(i, i + 1) for i in range(start, end)]
    cuts, at = [start], text.find(separator, start, end)
    while at >= 0:
        cuts.append(at)
        at = text.find(separator, at + len(separator), end)
    cuts.append(end)
    return [(a, b) for a, b in zip(cuts, cuts[1:], strict=False) if a < b]


def strip_span(text: str, start: int, end: int) -> Span:
    """The span of `text[start:end].strip()`."""
    piece = text[start:end]
    left = len(piece) - len(piece.lstrip())
    right = len(piece.rstrip())
    return (start + left, start + right) if right > left else (start, start)


class RecursiveChunker(Contract):
    """Chroma's `RecursiveTokenChunker`: separators tried in order, pieces merged up to `size`."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    size: int = Field(200, gt=0, description="most tokens of a chunk, by `count_tokens`")
    overlap: int = Field(0, ge=0, description="tokens a chunk may repeat from the one before")
    length: Literal["cl100k", "minilm", "r50k"] = Field("cl100k", description="the length function")
    count_tokens: TokenCounter | None = Field(
        None, description="any length function, over `length`"
    )
    separators: tuple[str, ...] = SEPARATORS

    @model_validator(mode="after")
    def _overlap_not_above_size(self) -> RecursiveChunker:
        if self.overlap > self.size:
            raise ValueError(f"overlap ({self.overlap}) must not exceed size ({self.size})")
        return self

    @property
    def counter(self) -> TokenCounter:
        """The length function: `count_tokens` if given, else the one `length` names."""
        return self.count_tokens or LENGTHS[self.length]

    def spans(self, text: str) -> list[Span]:
        """Where each chunk lies in `text`, in order."""
        return _Run(self, text).split(0, len(text), self.separators)

    def split_text(self, text: str) -> list[str]:
        """The chunks' texts, as Chroma's `split_text` returns them."""
        return [text[a:b] for a, b in self.spans(text)]

    def split(self, doc: Document | str) -> list[Chunk]:
        doc = as_document(doc)
        spans = [(a, b, self.counter(doc.text[a:b])) for a, b in self.spans(doc.text)]
        return span_chunks(doc, spans, "recursive")


class _Run:
    """One split of one text: the chunker's settings and a cache of each span's length."""

    def __init__(self, chunker: RecursiveChunker, text: str) -> None:
        self.size, self.overlap, self.text = chunker.size, chunker.overlap, text
        self.count = chunker.counter
        self.lengths: dict[Span, int] = {}

    def length(self, span: Span) -> int:
        if span not in self.lengths:
            self.lengths[span] = self.count(self.text[span[0] : span[1]])
        return self.lengths[span]

    def split(self, start: int, end: int, separators: Sequence[str]) -> list[Span]:
        """LangChain's `_split_text`: the first separator present, then merge or recurse."""
        separator = separators[-1]
        rest: tuple[str, ...] = ()
        for i, candidate in enumerate(separators):
            if candidate == "":
                separator = candidate
                break
            if self.text.find(candidate, start, end) >= 0:
                separator, rest = candidate, tuple(separators[i + 1 :])
                break
        chunks: list[Span] = []
        good: list[Span] = []
        for piece in cut_before(self.text, start, end, separator):
            if self.length(piece) < self.size:
                good.append(piece)
                continue
            if good:
                chunks.extend(self.merge(good))
                good = []
            chunks.extend(self.split(*piece, rest) if rest else [piece])
        if good:
            chunks.extend(self.merge(good))
        return chunks

    def merge(self, pieces: list[Span]) -> list[Span]:
        """LangChain's `_merge_splits` with the separator "": neighbouring pieces up to `size`."""
        glue = self.count("")  # what each join costs: 0 tokens in cl100k, 2 word pieces in MiniLM
        out: list[Span] = []
        current: list[Span] = []
        total = 0
        for piece in pieces:
            n = self.length(piece)
            if current and total + n + glue > self.size:
                self.emit(current, out)
                while total > self.overlap or (
                    total + n + (glue if current else 0) > self.size and total > 0
                ):
                    total -= self.length(current[0]) + (glue if len(current) > 1 else 0)
                    current = current[1:]
            current.append(piece)
            total += n + (glue if len(current) > 1 else 0)
        self.emit(current, out)
        return out

    def emit(self, current: list[Span], out: list[Span]) -> None:
        """The stripped span of the joined pieces, unless it is only whitespace."""
        if current:
            a, b = strip_span(self.text, current[0][0], current[-1][1])
            if a < b:
                out.append((a, b))
