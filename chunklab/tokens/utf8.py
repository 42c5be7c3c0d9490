"""Character offsets to UTF-8 byte offsets and back, for one text, in memory that grows with its
non-ASCII characters only.

A tokenizer works on bytes and Python slices strings by characters, so every place that reads
token counts off a document's one encoding must turn one kind of offset into the other. Encoding
`text[:p]` to learn the byte offset of `p` costs O(p) per call: quadratic when it is done for
every sentence of a long paragraph. Here each conversion is one binary search over the positions
of the non-ASCII characters (none at all for ASCII text, which most Markdown is).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right

import numpy as np

# Converting a long text to code points takes 4 bytes per character; a block at a time keeps that
# temporary small.
BLOCK_CHARS = 1 << 20


class Utf8Offsets:
    """`byte_of(p)`: UTF-8 offset of character `p`; `char_of(x)`: the character holding byte `x`."""

    def __init__(self, text: str) -> None:
        self.length = len(text)
        self.ascii = text.isascii()
        # For each non-ASCII character: its character index, and the extra bytes (beyond one per
        # character) of all the non-ASCII characters up to and including it.
        # Typed arrays, not lists: 4 bytes an entry (8 past 2 GB) instead of about 36.
        self._type: type[np.int32] | type[np.int64]
        code, self._type = ("i", np.int32) if 4 * len(text) < 2**31 else ("q", np.int64)
        self._chars, self._extra, self._bytes = array(code), array(code), array(code)
        if self.ascii:
            return
        chars, extras, carried = [], [], 0
        for begin in range(0, len(text), BLOCK_CHARS):
            points = np.frombuffer(
                text[begin : begin + BLOCK_CHARS].encode("utf-32-le"), dtype=np.uint32
            )
            wide = np.flatnonzero(points >= 0x80)
            extra = (
                (points[wide] >= 0x80).astype(np.int64)
                + (points[wide] >= 0x800)
                + (points[wide] >= 0x10000)
            )
            chars.append(wide + begin)
            cumulative = np.cumsum(extra) + carried
            extras.append(cumulative)
            carried = int(cumulative[-1]) if len(cumulative) else carried
        char_at: np.ndarray = np.concatenate(chars).astype(self._type)
        del chars
        extra_through: np.ndarray = np.concatenate(extras).astype(self._type)
        del extras
        # frombytes reads each numpy buffer in place: one copy, not two.
        # numpy's stubs give ndarray `__buffer__` only for Python >= 3.12, hence the ignores.
        self._chars.frombytes(memoryview(char_at).cast("B"))  # type: ignore[arg-type]
        self._extra.frombytes(memoryview(extra_through).cast("B"))  # type: ignore[arg-type]
        extra_through -= np.diff(extra_through, prepend=0)  # now the extra bytes before each one
        char_at += extra_through  # now where each one's bytes start
        self._bytes.frombytes(memoryview(char_at).cast("B"))  # type: ignore[arg-type]

    def _width(self, k: int) -> int:
        """Bytes of the k-th non-ASCII character."""
        return self._extra[k] - (self._extra[k - 1] if k else 0) + 1

    def byte_of(self, p: int) -> int:
        """Byte offset where character `p` starts (`p == len(text)`: the total byte length)."""
        if self.ascii:
            return p
        k = bisect_left(self._chars, p)  # non-ASCII characters before p
        return p + (self._extra[k - 1] if k else 0)

    def char_of(self, x: int) -> int:
        """Index of the character that byte `x` belongs to (its start, if `x` falls inside it)."""
        if self.ascii:
            return x
        k = bisect_right(self._bytes, x)  # non-ASCII characters that start at or before x
        if k and x < self._bytes[k - 1] + self._width(k - 1):
            return self._chars[k - 1]  # x is one of that character's bytes
        return x - (self._extra[k - 1] if k else 0)
