"""Which fixed-size cuts MiniLM reads whole (notebook 09): the word pieces of every token window,
at every size, from one encoding of the document.

A window of `size` cl100k tokens is read whole when its word pieces, with [CLS] and [SEP], fit the
embedder's positions. Tokenizing every window of every size costs about a millisecond a window;
here the document is tokenized once. BERT's split is made character by character (spaces,
punctuation, CJK characters), so a window holds exactly the pieces of the words wholly inside it,
plus those of the word cut at each edge, re-tokenized alone (`tests/test_read_fit.py` checks the
count against tokenizing each window).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np

from chunklab.chunkers.fixed import FixedSizeChunker
from chunklab.contracts import Document
from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.tokens.encoding import DocumentTokens


def window_pieces(doc: Document) -> Callable[[int], list[int]]:
    """A function of a size: the word pieces (markers left out) of each window of
    `FixedSizeChunker(size, overlap=0, unit="tokens")` over `doc`, in order (a window of blanks
    only counts 0). `doc` is tokenized and encoded once, whatever sizes are asked."""
    embedder, text = MiniLMEmbedder(), doc.text
    encoding = embedder.encoding(text)
    offsets = encoding.offsets  # a new list at each read: read once
    words: dict[int, list[int]] = {}  # word -> its pieces' indices
    for k, word in enumerate(encoding.word_ids):
        if word is not None:
            words.setdefault(word, []).append(k)
    spans = [(offsets[ks[0]][0], offsets[ks[-1]][1]) for ks in words.values()]
    first = np.array([a for a, _ in spans], dtype=np.int64)
    last = np.array([b for _, b in spans], dtype=np.int64)
    before = np.concatenate([[0], np.cumsum([len(ks) for ks in words.values()])])

    @cache
    def alone(a: int, b: int) -> int:  # pieces of text[a:b] tokenized alone
        return len(embedder.encoding(text[a:b]).ids) - 2

    def count(a: int, b: int) -> int:
        lo = int(np.searchsorted(first, a))  # first word starting at a or after
        hi = int(np.searchsorted(last, b, side="right"))  # words ending at b or before
        n = int(before[hi] - before[lo]) if hi > lo else 0
        if lo > 0 and last[lo - 1] > a:  # a word cut by the window's start
            n += alone(a, min(int(last[lo - 1]), b))
        if lo <= hi < len(spans) and first[hi] < b:
            n += alone(int(first[hi]), b)  # a word cut by the window's end
        return n

    tokens = DocumentTokens(text)

    def pieces_at(size: int) -> list[int]:
        windows = FixedSizeChunker(size=size, overlap=0, unit="tokens").token_spans(tokens)
        return [count(a, b) for a, b in windows]

    return pieces_at
