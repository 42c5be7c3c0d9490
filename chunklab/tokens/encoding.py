"""The document encoded once: cl100k tokens of a whole document, part by part, in a thread.

`SourceBudget` (`chunklab.tokens.budget`) answers "how many tokens has this span?" thousands of
times per document. Encoding the document once and reading any span's count off that encoding
makes each answer cost the same for a word or a chapter. The parts are encoded in order in a
background thread, so the first sections can be counted while the rest still encodes; where the
source may be cut into parts, and where a span may be read off the whole encoding, are exact
points of cl100k's pre-tokenizer (`PART_BOUNDARY`, `SYNC_AFTER`), checked by `tests/test_budget.py`.
"""

from __future__ import annotations

import threading
from array import array
from bisect import bisect_left
from functools import cache

import numpy as np
import regex

from chunklab.tokens.counters import cl100k, cl100k_encoding
from chunklab.tokens.utf8 import Utf8Offsets

# Where any span of the source may be cut without changing its tokens: right after an ASCII letter
# that an ASCII non-letter follows. Every regex piece that holds a letter ends where its run of
# letters ends (cl100k's pieces: contractions, [^\r\n\p{L}\p{N}]?\p{L}+, digits, symbols,
# whitespace), so every text that holds that letter has a piece boundary there, whether it is the
# whole document or a sentence cut out of it. ASCII on both sides, so no Unicode version question.
SYNC_AFTER = regex.compile(r"[A-Za-z](?=[^A-Za-z\x80-\U0010FFFF])")
LAST_SYNC_AFTER = regex.compile(r"(?r)[A-Za-z](?=[^A-Za-z\x80-\U0010FFFF])")


@cache
def _token_byte_lengths() -> np.ndarray:
    """Length in bytes of every cl100k token, indexed by token id (built once per process)."""
    encoding = cl100k_encoding()
    lengths = np.zeros(encoding.n_vocab, dtype=np.uint8)  # cl100k's longest token has 128 bytes
    ranks = getattr(encoding, "_mergeable_ranks", None)
    if ranks:
        for token_bytes, rank in ranks.items():
            lengths[rank] = len(token_bytes)
    else:  # slower, public route
        for rank in range(encoding.n_vocab):
            try:
                lengths[rank] = len(encoding.decode_single_token_bytes(rank))
            except KeyError:
                pass
    return lengths


# Where the source may be cut into parts that encode to exactly the tokens of the whole: after a
# newline that a non-blank character follows. No cl100k piece runs across such a point (a
# newline only ever ends a piece, or sits in a run of whitespace that this character would end),
# and the pre-tokenizer looks at no text behind it. `tests/test_budget.py` checks it.
PART_BOUNDARY = regex.compile(r"\n(?=\S)")
SMALLEST_PART = 1 << 14
LARGEST_PART = 1 << 21
FIRST_SHARE = 0.4
NEXT_SHARE = 0.5


def part_ends(source: str, smallest: int = SMALLEST_PART, largest: int = LARGEST_PART) -> list[int]:
    """Ends of the parts the source is encoded in, each cut at a PART_BOUNDARY.

    The packer first needs tokens once the outline is built, which costs about 40% of an encoding
    pass: so the first part is 40% of the text, ready about then. The packer then runs faster
    than the encoder, so each next part is half of what is left, down to `smallest` characters:
    little work is left when the encoding ends, and few parts mean few hand-overs of the GIL.
    No part is longer than about `largest` characters: while a part is encoded, its text is held
    twice more (the slice, and the UTF-8 copy tiktoken reads), so parts of a 16 MB document
    capped at 2 MB keep that to a few megabytes instead of a third of the text.
    """
    ends, pos, share = [], 0, FIRST_SHARE
    while len(source) - pos > 2 * smallest:
        m = PART_BOUNDARY.search(source, pos + min(int((len(source) - pos) * share), largest))
        share = NEXT_SHARE
        if m is None:
            break
        ends.append(m.end())
        pos = m.end()
    ends.append(len(source))
    return ends


class DocumentTokens:
    """The cl100k encoding of the whole source, made part by part in a background thread.

    tiktoken releases the GIL while it encodes, so encoding overlaps with parsing and packing.
    The source is cut into parts (see PART_BOUNDARY) encoded in order, so the first sections can
    be packed while the last ones are still being encoded. The thread does as little as it can
    while holding the GIL (it hands each part's raw tokens over); turning tokens into where each
    token starts happens here, in the caller's thread, when a count first needs that part.

    The count of the text between two piece boundaries is the number of tokens that start
    between them: every line start is a piece boundary, and so is the start of a line's `tail`
    (see the module docstring), and so is every SYNC_AFTER point (`span_count`).

    Where tokens start is kept in a typed array, 4 bytes a token (8 past 2 GB): as a list of
    Python ints it was about 40, more than half of the memory a split used.
    """

    def __init__(self, source: str) -> None:
        self.source = source
        self._lengths = _token_byte_lengths()  # built before the thread starts: it holds the GIL
        self._ends = part_ends(source)
        self._encoded: list[np.ndarray | None] = []  # raw tokens of each part encoded so far
        self._error: BaseException | None = None
        self._arrived = threading.Condition()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        self.bytes = Utf8Offsets(source)  # while the first part encodes
        # Byte offsets where tokens start, for the parts converted: 4 bytes each when they fit.
        wide = self.bytes.byte_of(len(source)) >= 2**31
        self._start_type: type[np.int32] | type[np.int64]
        self._starts, self._start_type = (array("q"), np.int64) if wide else (array("i"), np.int32)
        self._converted = 0  # parts whose tokens are in _starts
        self._ready = 0  # bytes of the source covered by those parts
        self._short: dict[str, int] = {}

    def _run(self) -> None:
        encoding, begin = cl100k_encoding(), 0
        try:
            for end in self._ends:
                tokens = encoding.encode_to_numpy(self.source[begin:end], disallowed_special=())
                with self._arrived:
                    self._encoded.append(tokens)
                    self._arrived.notify()
                begin = end
        except BaseException as exc:  # re-raised in the caller's thread by `between`
            with self._arrived:
                self._error = exc
                self._arrived.notify()

    def _convert_next(self) -> None:
        """Wait for the next part's tokens and append where each of them starts."""
        k = self._converted
        with self._arrived:
            self._arrived.wait_for(lambda: len(self._encoded) > k or self._error is not None)
        if self._error is not None:
            raise self._error
        token_lengths = self._lengths[self._encoded[k]]
        self._encoded[k] = None  # free the raw tokens before the next array is made
        ends: np.ndarray = np.cumsum(token_lengths, dtype=self._start_type)
        ends -= token_lengths
        ends += self._ready  # now where each token starts
        # The buffer itself, no copy (numpy's stubs give ndarray `__buffer__` only for 3.12+).
        self._starts.frombytes(memoryview(ends).cast("B"))  # type: ignore[arg-type]
        self._ready = self.bytes.byte_of(self._ends[k])
        self._converted += 1

    def _wait_for(self, end_byte: int) -> None:
        while end_byte > self._ready and self._converted < len(self._ends):
            self._convert_next()

    def between(self, first_byte: int, end_byte: int) -> int:
        """Tokens that start at a byte offset in [first_byte, end_byte)."""
        if end_byte > self._ready:
            self._wait_for(end_byte)
        starts = self._starts
        return bisect_left(starts, end_byte) - bisect_left(starts, first_byte)

    def starts(self, needed: int) -> tuple[array, bool]:
        """Byte offsets where the tokens of the source start, at least `needed` of them unless
        the source has fewer, and whether that is all of them.

        Waits only for the parts it needs, so a caller can work on the first tokens while the
        last are still being encoded. The array grows in place as more parts arrive.
        """
        while len(self._starts) < needed and self._converted < len(self._ends):
            self._convert_next()
        return self._starts, self._converted == len(self._ends)

    def span_count(self, start: int, end: int) -> int:
        """The cl100k count of source[start:end] on its own, exact, without encoding it again.

        The span is read off the document's encoding between its first and last SYNC_AFTER
        points, where the span's own pieces and the document's coincide; only the short head
        before the first and the tail after the last are encoded again. So the cost of a count
        does not grow with the span: packing a paragraph of 20,000 sentences probes many
        candidates and stays linear. A span without such a point (no ASCII letter followed by an
        ASCII non-letter: digits, symbols, other scripts) is counted directly.
        """
        source = self.source
        head = SYNC_AFTER.search(source, start, end)
        if head is None:
            return cl100k(source[start:end])
        first = head.end()
        last = end if self._sync_at(end) else first
        if last != end:
            m = LAST_SYNC_AFTER.search(source, first, end)
            last = m.end() if m is not None else first
        byte_of = self.bytes.byte_of
        return (
            self._short_count(source[start:first])
            + self.between(byte_of(first), byte_of(last))
            + self._short_count(source[last:end])
        )

    def _sync_at(self, p: int) -> bool:
        """Is p a SYNC_AFTER point of the document (an ASCII letter before it, no letter at it)?"""
        source = self.source
        before = source[p - 1 : p]
        if not (before.isascii() and before.isalpha()):
            return False
        return p == len(source) or (source[p].isascii() and not source[p].isalpha())

    def _short_count(self, text: str) -> int:
        """A span's head or tail: usually a word or a mark, so the short ones are cached."""
        if len(text) > 16:
            return cl100k(text)
        n = self._short.get(text)
        if n is None:
            n = self._short[text] = cl100k(text)
        return n
