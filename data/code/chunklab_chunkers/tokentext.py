"""The token-window splitter of Chroma's chunking report ("TokenText"): every `size` tokens.

A port of `FixedTokenChunker` from `brandonstarxel/chunking_evaluation` (@d451fc4, MIT, (c) 2024
Brandon Smith), itself LangChain's `TokenTextSplitter` (MIT): the whole text is encoded once,
windows of `size` token ids start every `size - overlap` tokens, the last one ends at the last
token, and each window's text is the tokenizer's decoding of its ids. Nothing else: no regard for
words or sentences.

`length` names the tokenizer. `cl100k` is what their `FixedTokenChunker` uses by default; `r50k`
is GPT-2's BPE, LangChain's default (`encoding_name="gpt2"`), read from the copy `openai-whisper`
ships (`tokens.counters.r50k_encoding`). Both are byte-level BPE: a window can begin or end inside
a character of several bytes, and its decoding then holds U+FFFD where that character's bytes were
cut, as theirs does (`split_text`). `minilm` windows count all-MiniLM-L6-v2's word pieces, [CLS]
and [SEP] included as the `minilm` counter does (so `size - 2` pieces of text per window); word
pieces do not decode back to the text (lower case, accents dropped), so those windows are slices
of the text between the pieces' character offsets.

A `Chunk`'s `text` is always the slice of the document its window covers (from the character
where its first token starts to the one where the next window's tokens start), so it can be
cited; `split_text` gives the decoded texts the report embedded.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from chunklab.chunkers.fixed import char_windows as windows  # the same windows, over token ids
from chunklab.contracts import Chunk, Contract, Document, as_document, span_chunks
from chunklab.tokens.counters import cl100k_encoding, r50k_encoding
from chunklab.tokens.wordpiece import minilm_offsets


class TokenTextChunker(Contract):
    """Chroma's `FixedTokenChunker`: windows of `size` tokens, `overlap` of them repeated."""

    size: int = Field(200, gt=0, description="tokens per window")
    overlap: int = Field(0, ge=0, description="tokens each window repeats from the one before")
    length: Literal["cl100k", "r50k", "minilm"] = "cl100k"

    @model_validator(mode="after")
    def _overlap_below_size(self) -> TokenTextChunker:
        if self.overlap >= self.size:
            raise ValueError(
                f"overlap ({self.overlap}) must be smaller than size ({self.size}), "
                "or the window never moves forward"
            )
        if self.length == "minilm" and self.size - self.overlap <= 2:
            raise ValueError(
                "a minilm window holds size - 2 word pieces: size - overlap must be > 2"
            )
        return self

    def _bpe(self):
        return cl100k_encoding() if self.length == "cl100k" else r50k_encoding()

    def split_text(self, text: str) -> list[str]:
        """The windows' texts as the report's chunker returns them (BPE: the decoded ids)."""
        if self.length == "minilm":
            return [text[a:b] for a, b, _ in self.spans(text)]
        encoding = self._bpe()
        ids = encoding.encode_ordinary(text)
        return [encoding.decode(ids[i:j]) for i, j in windows(len(ids), self.size, self.overlap)]

    def spans(self, text: str) -> list[tuple[int, int, int]]:
        """(start, end, tokens) of each window: its character span in `text`, its token count."""
        if self.length == "minilm":
            offsets = minilm_offsets(text)  # encoded once per text, whatever the window
            # the text's own pieces per window; [CLS] and [SEP] make up the size
            return [
                (int(offsets[i, 0]), int(offsets[j - 1, 1]), j - i + 2)
                for i, j in windows(len(offsets), self.size - 2, self.overlap)
            ]
        encoding = self._bpe()
        ids = encoding.encode_ordinary(text)
        _, starts = encoding.decode_with_offsets(ids)
        starts = [*starts, len(text)]
        return [
            (starts[i], starts[j], j - i) for i, j in windows(len(ids), self.size, self.overlap)
        ]

    def split(self, doc: Document | str) -> list[Chunk]:
        doc = as_document(doc)
        kept = [(a, b, n) for a, b, n in self.spans(doc.text) if doc.text[a:b].strip()]
        return span_chunks(doc, kept, "tokentext", length=self.length)
