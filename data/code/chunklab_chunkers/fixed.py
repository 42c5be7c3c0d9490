"""Fixed-size chunking: count `size` units, step forward `size - overlap`, repeat.

It is the default of most RAG libraries and the baseline of this series. It knows nothing about
lines, sentences or tables, so it cuts wherever the count runs out, and overlap only repeats the
last few characters of the previous window, never the section title or the table header.

Two units: `chars` (the article's cut) and `tokens` (windows of cl100k tokens, so a budget in
tokens is met exactly). Each chunk's `start`/`end` locate its window in `Document.text`, and its
`text` is exactly `doc.text[start:end]`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from pydantic import ConfigDict, Field, model_validator

from chunklab.contracts import Chunk, Contract, Document, as_document
from chunklab.tokens.counters import TokenCounter, cl100k, word_count
from chunklab.tokens.encoding import DocumentTokens


def char_windows(length: int, size: int, overlap: int) -> Iterator[tuple[int, int]]:
    """(start, end) of each window over `length` characters (or tokens: `tokentext` windows token
    ids with it, as LangChain's `split_text_on_tokens` does, which yields no window for none).

    Stops once a window reaches the end. The article's first sketch (`split_by_size`) keeps
    stepping, and on some lengths emits a last window that lies wholly inside the one before it.
    """
    start = 0
    while start < length:
        end = min(start + size, length)
        yield start, end
        if end == length:
            return
        start += size - overlap


class FixedSizeChunker(Contract):
    """Windows of `size` characters (or cl100k tokens) that overlap by `overlap`."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    size: int = Field(200, gt=0, description="window length, in `unit`s")
    overlap: int = Field(40, ge=0, description="how much of each window the next one repeats")
    unit: Literal["chars", "tokens"] = "chars"
    count_tokens: TokenCounter | None = Field(
        None, description="fills `token_count`; default: word count for chars, cl100k for tokens"
    )

    @model_validator(mode="after")
    def _overlap_below_size(self) -> FixedSizeChunker:
        if self.overlap >= self.size:
            raise ValueError(
                f"overlap ({self.overlap}) must be smaller than size ({self.size}), "
                "or the window never moves forward"
            )
        return self

    def split(self, doc: Document | str) -> list[Chunk]:
        """The document's windows as chunks, each an exact slice `doc.text[start:end]`, in order.

        The baseline every other strategy is compared with: it cuts wherever the count runs out.
        A window that is only whitespace is dropped (it carries nothing to find); `token_count`
        comes from `count_tokens`.
        """
        return list(self.iter_chunks(doc))

    def iter_chunks(self, doc: Document | str) -> Iterator[Chunk]:
        """The chunks of `split`, one window at a time: a caller that writes each out and drops
        it (the CLI) never holds them all, and overlapping windows repeat a fifth of the text."""
        doc = as_document(doc)
        count = self.count_tokens or (cl100k if self.unit == "tokens" else word_count)
        spans: Iterator[tuple[int, int, int | None]]
        if self.unit == "chars":
            spans = ((a, b, None) for a, b in char_windows(len(doc.text), self.size, self.overlap))
        else:
            spans = self._token_windows(DocumentTokens(doc.text))
        doc_id, tenant, ordinal = doc.doc_id, doc.metadata.get("tenant", "default"), 0
        for start, end, cl100k_count in spans:
            text = doc.text[start:end]
            if text.isspace():
                continue  # a window of pure whitespace carries nothing to find
            # A token window already knows its cl100k count (read off the one encoding).
            token_count = (
                cl100k_count if count is cl100k and cl100k_count is not None else count(text)
            )
            # Every value is computed here: built without validation, which would cost more than
            # the windows (the tests re-validate every chunk).
            yield Chunk.trusted(
                chunk_id=f"{doc_id}#{ordinal}",
                doc_id=doc_id,
                parent_id=None,
                ordinal=ordinal,
                text=text,
                token_count=token_count,
                heading_path=(),
                start=start,
                end=end,
                metadata={"strategy": "fixed", "tenant": tenant},
            )
            ordinal += 1

    def token_spans(self, tokens: DocumentTokens) -> list[tuple[int, int]]:
        """(start, end) of each token window (whitespace ones too) over a text encoded once: one
        `DocumentTokens`, many sizes, as a sweep over sizes needs (`teaching.read_fit`)."""
        return [(start, end) for start, end, _ in self._token_windows(tokens)]

    def _token_windows(self, tokens: DocumentTokens) -> Iterator[tuple[int, int, int]]:
        """Windows of `size` cl100k tokens, as character spans with their own cl100k count.

        Cutting between two tokens and re-encoding the piece can tokenize it differently (BPE
        merges across the cut are lost), so a window is shrunk until its own count fits `size`.
        The text is encoded once; a window's own count is read off that encoding
        (`DocumentTokens.span_count`), so the windows cost about one encoding pass, not one per
        window.
        """
        char_of, length = tokens.bytes.char_of, len(tokens.source)
        starts, _ = tokens.starts(0)  # the array itself: it grows in place as parts arrive

        def offset(j: int) -> int:
            """Where token j starts, in characters; the end of the text past the last token (the
            loop only asks that once every part is in)."""
            return char_of(starts[j]) if j < len(starts) else length

        i = 0
        while True:
            _, complete = tokens.starts(i + self.size + 1)  # this window and one token after it
            n = len(starts)
            if i >= n:
                return
            j = min(i + self.size, n)
            start, end = offset(i), offset(j)
            count = tokens.span_count(start, end)
            while j > i + 1 and count > self.size:
                j -= 1
                end = offset(j)
                count = tokens.span_count(start, end)
            yield start, end, count
            if j == n and complete:
                return
            # Never step past the end of the window just emitted, or text would fall in a gap.
            i = min(i + self.size - self.overlap, j)
