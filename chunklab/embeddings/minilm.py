"""`MiniLMEmbedder`: all-MiniLM-L6-v2, a real transformer, run by our own numpy forward pass.

It is the model behind sentence-transformers' tutorials and Chroma's default embedding function,
and unlike WordLlama it has a length limit: it reads at most `max_tokens` word pieces of a text
and silently ignores the rest. sentence-transformers cuts it at 256 (the model has 512 positions
but was tuned on 128). Here the limit is explicit and the cut is *reported*: after each call,
`last_cut` says how many texts were truncated and how many of their words the model never read.
A chunk whose tail was cut cannot be found by what its tail says.

Texts are batched by length: each text is padded to a length set by its own length alone, at
most an eighth more (`padded_length`), and a batch holds texts of the same padded length
(`padded_length_batches`). How much padding a
text gets depends on the text alone, never on what else is in its batch, so its vector is
bit-for-bit the same whatever it was embedded with; and texts of 129 to 144 pieces share one
batch instead of sixteen. Padding is masked out of attention and of the pooling.

`read` gives the vector of every word piece of one row, before pooling: what late chunking pools
(`embeddings/late.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from chunklab.embeddings.static import EmbedderUnavailable
from chunklab.embeddings.transformer import (
    F32,
    Bert,
    encode,
    load_bert,
    mean_pool,
)
from chunklab.embeddings.two_cores import encode_batches
from chunklab.memo import Memo
from chunklab.tokens.wordpiece import MODEL_HASH, ModelUnavailable, minilm_tokenizer

MODEL_POSITIONS = 512
READ_LIMIT = 256  # sentence-transformers' max_seq_length for this model


class Cut(NamedTuple):
    """What the embedder did not read in one call: texts cut short, and what was lost."""

    texts: int  # texts embedded
    truncated: int  # of which cut short
    pieces_dropped: int  # word pieces past the limit, summed over the truncated texts
    words_dropped: int  # whitespace-separated words that begin past the last piece read


class MiniLMSettings(BaseModel):
    """The embedder's two knobs, validated: a wrong value is a ValidationError naming it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_tokens: int = Field(READ_LIMIT, ge=8, le=MODEL_POSITIONS)
    batch_size: int = Field(32, ge=1, le=4096)


def _bert() -> Bert:
    try:
        return load_bert()
    except ModelUnavailable as exc:
        raise EmbedderUnavailable(str(exc)) from None


def _tokenizer():
    try:
        return minilm_tokenizer()
    except ModelUnavailable as exc:
        raise EmbedderUnavailable(str(exc)) from None


# Rows already read by `MiniLMEmbedder.read`, by their ids: the last 128 (at most 50 MB at 256
# pieces a row). Late chunking reads the same windows of a page again and again: a checker runs
# the library's reading and the learner's on one page, and a notebook or a test file tries one
# variant after another (a window's overlap, which window keeps a piece) on the same windows.
# A row's vectors depend on its ids alone, so a row read once is the same row read again.
_READ: Memo[np.ndarray] = Memo(128)


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (384 dimensions, unit vectors) in numpy; reads `max_tokens` word pieces."""

    name = "minilm-l6-v2"
    dim = 384
    model_hash = MODEL_HASH

    def __init__(self, max_tokens: int = READ_LIMIT, batch_size: int = 32) -> None:
        settings = MiniLMSettings(max_tokens=max_tokens, batch_size=batch_size)
        self.max_tokens, self.batch_size = settings.max_tokens, settings.batch_size
        self.last_cut = Cut(0, 0, 0, 0)

    def vocabulary_size(self) -> int:
        """How many word pieces the tokenizer knows (30,522 for this model)."""
        return _tokenizer().get_vocab_size()

    def pieces(self, texts: Sequence[str]) -> list[list[int]]:
        """Each text's word-piece ids, [CLS] and [SEP] included, before any cut."""
        return [e.ids for e in _tokenizer().encode_batch(list(texts))]

    def cut(self, texts: Sequence[str]) -> Cut:
        """What embedding `texts` would leave unread, without running the model."""
        encodings = _tokenizer().encode_batch(list(texts))
        return self._cut(texts, encodings)

    def _cut(self, texts: Sequence[str], encodings) -> Cut:
        truncated = pieces = words = 0
        for text, encoding in zip(texts, encodings, strict=True):
            excess = len(encoding.ids) - self.max_tokens
            if excess > 0:
                truncated += 1
                pieces += excess
                last_read = encoding.offsets[self.max_tokens - 2][1]  # end of the last piece read
                words += len(text[last_read:].split())
        return Cut(len(texts), truncated, pieces, words)

    def read_until(self, text: str) -> int:
        """The character offset where the model stops reading `text` (its length if it reads all).

        Everything from there on is in no vector this embedder makes of `text`.
        """
        encoding = _tokenizer().encode(text)
        if len(encoding.ids) <= self.max_tokens:
            return len(text)
        return encoding.offsets[self.max_tokens - 2][1]

    def _ids(self, encoding) -> list[int]:
        ids = encoding.ids
        if len(ids) > self.max_tokens:
            ids = ids[: self.max_tokens - 1] + ids[-1:]  # keep [SEP] at the end, as truncation does
        return ids

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors (len(texts), 384), float32, in the caller's order; sets `last_cut`."""
        texts = list(texts)
        if not texts:
            self.last_cut = Cut(0, 0, 0, 0)
            return np.zeros((0, self.dim), dtype=F32)
        encodings = _tokenizer().encode_batch(texts)
        self.last_cut = self._cut(texts, encodings)
        ids = [self._ids(e) for e in encodings]
        out = np.empty((len(ids), self.dim), dtype=F32)
        batches = padded_length_batches([len(row) for row in ids], self.batch_size)
        matrices = [padded([ids[k] for k in b], padded_length(len(ids[b[0]]))) for b in batches]
        for batch, vectors in zip(
            batches, encode_batches(_bert(), matrices, mean_pool), strict=True
        ):
            out[batch] = vectors
        return out

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_documents([text])[0]

    def encoding(self, text: str):
        """The tokenizer's full reading of `text` (ids, pieces, character offsets), uncut."""
        return _tokenizer().encode(text)

    def read(self, ids: Sequence[int]) -> np.ndarray:
        """The model's vector for each id of one row read in one pass: (len(ids), 384), a new
        array the caller may change. A row read before in this process is not read again
        (`_READ`)."""
        if not 0 < len(ids) <= self.max_tokens:
            raise ValueError(f"a row of {len(ids)} ids; this embedder reads 1 to {self.max_tokens}")
        row = np.array([list(ids)], dtype=np.int64)
        return _READ.get(row.tobytes(), lambda: encode(_bert(), row, np.ones_like(row))[0]).copy()

    def read_rows(self, rows: Sequence[Sequence[int]]) -> np.ndarray:
        """Rows of ids of one length read at once: (len(rows), length, 384), each row as `read`
        gives it up to float32 rounding. Why: one row at a time leaves the matrix products to
        BLAS's own threads, which on a busy machine spin more than they compute; the rows of one
        batch are split between two cores instead (`two_cores.encode_batches`)."""
        matrix = np.array([list(r) for r in rows], dtype=np.int64)
        if matrix.ndim != 2 or not 0 < matrix.shape[1] <= self.max_tokens:
            raise ValueError(f"rows of one length, 1 to {self.max_tokens} ids each")
        return encode_batches(_bert(), [(matrix, np.ones_like(matrix))])[0]


def padded_length(pieces: int) -> int:
    """The length a text of `pieces` word pieces is padded to: a function of the text alone.

    Rounded up to a multiple of an eighth of its power of two (20 stays 20, 130 becomes 144), so
    padding never adds more than an eighth to a text, and texts of similar length share a batch.
    """
    step = 1 << max(0, pieces.bit_length() - 4)
    return -(-pieces // step) * step


def padded_length_batches(lengths: Sequence[int], batch_size: int) -> list[list[int]]:
    """Indices grouped into batches of texts with the same padded length, shortest first."""
    order = sorted(range(len(lengths)), key=lambda k: (padded_length(lengths[k]), k))
    batches: list[list[int]] = []
    for k in order:
        same = batches and padded_length(lengths[batches[-1][0]]) == padded_length(lengths[k])
        if same and len(batches[-1]) < batch_size:
            batches[-1].append(k)
        else:
            batches.append([k])
    return batches


def padded(rows: Sequence[Sequence[int]], width: int) -> tuple[np.ndarray, np.ndarray]:
    """Id rows padded with 0 ([PAD]) to `width`, and the mask that marks the real ones."""
    matrix = np.zeros((len(rows), width), dtype=np.int64)
    mask = np.zeros((len(rows), width), dtype=np.int64)
    for i, row in enumerate(rows):
        matrix[i, : len(row)] = row
        mask[i, : len(row)] = 1
    return matrix, mask
