"""Counting tokens in linear time: each line of the source once, joins by arithmetic.

The obvious packer re-counts the whole candidate chunk every time it adds a unit, so a section of
n units costs O(n²) tokenizer work. Here every source line is counted once, and the count of
any run of lines, or of pieces joined by newlines, is computed from those counts.

Why the arithmetic is exact for cl100k: tiktoken first splits text with a regex and runs BPE on
each piece separately, so a count is the sum over pieces. When two stripped texts are joined with a
newline separator, the separator's piece ends at its last newline and the right-hand text starts a
piece of its own, so only the left text's *last* piece can change (punctuation absorbs the
following newlines: `.` + `\\n\\n` is one piece). Hence

    count(a + sep + b) = count(a) + [count(tail(a) + sep) - count(tail(a))] + count(b)

where tail(a) is a suffix of `a` that starts on a piece boundary. The bracket depends only on
that short tail and the separator, so it is cached. The word counter is additive the same way.
For any other counter (`approx_tokens`, your own) the sums are not trusted and the joined text
is counted directly: correct, and slower.

`tests/test_markdown_chunker.py` checks on generated Markdown that every chunk's `token_count`
equals a fresh count of its text.
"""

from __future__ import annotations

import threading
from bisect import bisect_left
from dataclasses import dataclass
from functools import cache
from itertools import accumulate

import numpy as np
import regex

from chunklab.tokens import TokenCounter, _encoding, cl100k, word_count

# Counters whose counts add up across newline joins as described above.
EXACT_JOINS: frozenset = frozenset({cl100k, word_count})

# The last regex piece of a text ends in one of: a run of whitespace, a run of symbols (with one
# optional space before it), or a letter or digit (then the separator stays a piece of its own).
_TAIL = regex.compile(r"(?r)(?:\s+| ?[^\s\p{L}\p{N}]+)\Z")


def tail(text: str) -> str:
    """The suffix of `text` whose token count can change when a newline separator follows it."""
    m = _TAIL.search(text)
    return m.group(0) if m else ""


@dataclass(frozen=True, slots=True)
class Measured:
    """A piece of chunk text with its exact token count and the tail that a join may change."""

    text: str
    count: int
    tail: str
    start: int  # the span of the source it was cut from
    end: int


class LineCounts:
    """Token counts of every line of `source`, computed in a background thread.

    tiktoken releases the GIL while it encodes, so counting overlaps with parsing in the main
    thread. `get()` waits for the result.
    """

    def __init__(self, source: str, count: TokenCounter) -> None:
        self._lines = source.split("\n")
        self._count = count
        self._result: list[int] | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        count = self._count
        self._result = [count(line) if line.strip() else 0 for line in self._lines]

    def get(self) -> list[int]:
        self._thread.join()
        if self._result is None:  # the thread failed: count here, so the error surfaces
            self._run()
        return self._result


@cache
def _token_byte_lengths() -> np.ndarray:
    """Length in bytes of every cl100k token, indexed by token id (built once per process)."""
    encoding = _encoding()
    lengths = np.zeros(encoding.n_vocab, dtype=np.int64)
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


class DocumentTokens:
    """One cl100k encoding of the whole source, run in a background thread, and where each token starts.

    tiktoken releases the GIL while it encodes, so this overlaps with parsing. The count of the
    text between two piece boundaries is the number of tokens that start between them: every line
    start is a piece boundary, and so is the start of a line's `tail` (see the module docstring).
    """

    def __init__(self, source: str) -> None:
        self._source = source
        self._starts: list[int] | None = None
        self._error: BaseException | None = None
        lengths = _token_byte_lengths()  # build before the thread starts: it holds the GIL
        self._thread = threading.Thread(target=self._run, args=(lengths,), daemon=True)
        self._thread.start()

    def _run(self, lengths: np.ndarray) -> None:
        try:
            tokens = np.asarray(_encoding().encode_ordinary(self._source), dtype=np.int64)
            token_lengths = lengths[tokens]
            self._starts = (np.cumsum(token_lengths) - token_lengths).tolist()  # byte offsets
        except BaseException as exc:  # re-raised in the caller's thread by `starts`
            self._error = exc

    @property
    def starts(self) -> list[int]:
        if self._starts is None:  # wait for the thread once; after that this is a lookup
            self._thread.join()
            if self._error is not None:
                raise self._error
        return self._starts

    def between(self, first_byte: int, end_byte: int) -> int:
        """Tokens that start at a byte offset in [first_byte, end_byte)."""
        starts = self.starts
        return bisect_left(starts, end_byte) - bisect_left(starts, first_byte)


class SourceBudget:
    """Exact token counts for spans of one source text and for pieces joined by newlines."""

    def __init__(self, source: str, count: TokenCounter) -> None:
        self.source = source
        self.count = count
        self.exact = count in EXACT_JOINS
        self.lines = source.split("\n")
        self.line_start = [0, *accumulate(len(line) + 1 for line in self.lines)]
        self._tokens = DocumentTokens(source) if count is cl100k else None
        self._line_counts = LineCounts(source, count) if self.exact and self._tokens is None else None
        self._line_bytes: list[int] | None = None
        self._prefix: list[int] | None = None
        self._delta_cache: dict[tuple[str, str], int] = {}
        self._tail_cache: dict[int, tuple[str, int]] = {}

    # --- joins ---------------------------------------------------------------------------------

    def delta(self, left_tail: str, sep: str) -> int:
        """Tokens that joining `sep` after a text with this tail adds (see the module docstring)."""
        key = (left_tail, sep)
        if key not in self._delta_cache:
            self._delta_cache[key] = self.count(left_tail + sep) - self.count(left_tail)
        return self._delta_cache[key]

    def join(self, left: Measured, sep: str, right: Measured) -> Measured:
        """`left + sep + right`, counted without re-reading either side when the counter allows."""
        text = left.text + sep + right.text
        if self.exact:
            n = left.count + self.delta(left.tail, sep) + right.count
        else:
            n = self.count(text)
        return Measured(text, n, right.tail, min(left.start, right.start), max(left.end, right.end))

    def text(self, text: str, start: int = 0, end: int = 0) -> Measured:
        """A piece of text that is not a run of whole source lines: counted directly."""
        return Measured(text, self.count(text), tail(text), start, end)

    # --- spans of whole lines --------------------------------------------------------------------

    def _prefix_sums(self) -> list[int]:
        """prefix[k]: tokens of lines 0..k-1 (blank ones count nothing) plus the joins after them."""
        if self._prefix is None:
            counts = self._line_counts.get()
            contributions = [0] * len(self.lines)
            previous = None  # the last non-blank line seen
            for k, line in enumerate(self.lines):
                if counts[k] == 0 and not line.strip():
                    continue
                if previous is not None:
                    # The separator between two non-blank lines: newlines and blank lines.
                    sep = self.source[self.line_start[previous] + len(self.lines[previous]) : self.line_start[k]]
                    contributions[k] += self.delta(tail(self.lines[previous]), sep)
                contributions[k] += counts[k]
                previous = k
            self._prefix = [0, *accumulate(contributions)]
        return self._prefix

    def lines_span(self, first: int, last: int) -> Measured:
        """Lines first..last (inclusive; both non-blank) of the source, as one piece."""
        start = self.line_start[first]
        end = self.line_start[last] + len(self.lines[last])
        text = self.source[start:end]
        if not self.exact:
            return Measured(text, self.count(text), tail(text), start, end)
        if self._tokens is not None:
            line_tail, n = self._line_tail(last)
            tail_bytes = len(line_tail.encode("utf-8"))
            n += self._tokens.between(self._byte_start(first), self._byte_end(last) - tail_bytes)
            return Measured(text, n, line_tail, start, end)
        prefix = self._prefix_sums()
        # Lines first+1..last each carry the join from the line before them; line `first` must
        # not carry the join from whatever came before the span.
        n = prefix[last + 1] - prefix[first + 1] + self._line_counts.get()[first]
        return Measured(text, n, tail(self.lines[last]), start, end)

    # --- byte offsets of lines, for the whole-document encoding -------------------------------

    def _byte_starts(self) -> list[int]:
        if self._line_bytes is None:
            raw = np.frombuffer(self.source.encode("utf-8"), dtype=np.uint8)
            newlines = np.flatnonzero(raw == 10)
            self._line_bytes = [0, *(newlines + 1).tolist()]
        return self._line_bytes

    def _byte_start(self, line: int) -> int:
        return self._byte_starts()[line]

    def _byte_end(self, line: int) -> int:
        """Byte offset just past the line's last character (before its newline)."""
        starts = self._byte_starts()
        return starts[line + 1] - 1 if line + 1 < len(starts) else len(self.source.encode("utf-8"))

    def _line_tail(self, line: int) -> tuple[str, int]:
        """(tail of the line, tokens of that tail counted alone), cached per line."""
        if line not in self._tail_cache:
            line_tail = tail(self.lines[line])
            self._tail_cache[line] = (line_tail, self.count(line_tail) if line_tail else 0)
        return self._tail_cache[line]
