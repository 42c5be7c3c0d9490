"""Counting tokens in linear time: each line of the source once, joins by arithmetic.

The obvious packer re-counts the whole candidate chunk every time it adds a unit, so a section of
n units costs O(n²) tokenizer work. Here the source is encoded once (for cl100k: the whole
document, part by part in a background thread, see `chunklab.tokens.encoding`), and the count of
any run of lines, of pieces joined by newlines, or of a breadcrumb made of heading titles is
computed from that one encoding.

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
equals a fresh count of its text; `tests/test_budget.py` checks each shortcut on its own.
"""

from __future__ import annotations

import threading
from array import array
from collections.abc import Iterator
from itertools import accumulate
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
import regex

from chunklab.parsing.blocks import Block
from chunklab.tokens.counters import TokenCounter, cl100k, word_count
from chunklab.tokens.encoding import DocumentTokens

# A piece of `limit` tokens is far shorter than this many characters per token (cl100k's tokens
# average about 4 characters; its longest runs of one letter are 16 or so): a prefix this long that
# is over the limit proves the whole is.
PROBE_CHARS_PER_TOKEN = 32

# Counters whose counts add up across newline joins as described above.
EXACT_JOINS: frozenset = frozenset({cl100k, word_count})

# The last regex piece of a text ends in one of: a run of whitespace, a run of symbols (with one
# optional space before it), or a letter or digit (then the separator stays a piece of its own).
_TAIL = regex.compile(r"(?r)(?:\s+| ?[^\s\p{L}\p{N}]+)\Z")


def tail(text: str) -> str:
    """The suffix of `text` whose token count can change when a newline separator follows it."""
    last = text[-1:]
    if last.isascii():  # fast paths, exact for ASCII: a letter or digit ends a piece of its own
        if last.isalnum():
            return ""
        if len(text) > 1 and text[-2].isascii() and text[-2].isalnum() and not last.isspace():
            return last  # "word." : the symbol alone
    m = _TAIL.search(text)
    return m.group(0) if m else ""


def _starts_a_piece(text: str) -> bool:
    """Whether `text` surely starts a regex piece of its own after a newline separator. Not when
    it starts with white space: a span cut inside a string (a file cut mid-docstring) can begin
    with a newline, and cl100k then merges the separator's newlines with it ("\n\n" + "\n" is
    one piece), so the sum would be one token off; such a join is counted directly."""
    return not text[:1].isspace()


class Measured(NamedTuple):
    """A piece of chunk text with its exact token count and the tail that a join may change.

    A named tuple: packing builds tens of thousands of these, and a tuple is the cheapest record.
    """

    text: str
    count: int  # type: ignore[assignment]  # shadows tuple.count, on purpose: the token count
    tail: str
    start: int  # the span of the source it was cut from
    end: int


# `_new(Measured, (...))` builds the same tuple as `Measured(...)` without going through the
# Python-level constructor that named tuples have: a third of the cost, on the hottest paths.
_new = tuple.__new__


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
        assert self._result is not None  # _run sets it, or raises
        return self._result


def line_starts(source: str) -> array:
    """Where each line of `source` starts, then len(source) + 1: 8 bytes a line, no line strings."""
    starts = array("q", [0])
    for begin in range(0, len(source), LINE_BLOCK_CHARS):
        points = np.frombuffer(
            source[begin : begin + LINE_BLOCK_CHARS].encode("utf-32-le"), dtype=np.uint32
        )
        starts.frombytes((np.flatnonzero(points == 10) + (begin + 1)).astype(np.int64).tobytes())
    starts.append(len(source) + 1)
    return starts


LINE_BLOCK_CHARS = 1 << 20  # a block at a time: its code points take 4 bytes a character


class Lines:
    """The lines of a text, each sliced from it when asked for.

    A long document's line strings take as much memory as its text; the budget reads a few lines
    of each block, so it keeps only where they start.
    """

    def __init__(self, source: str, starts: array) -> None:
        self._source = source
        self._starts = starts

    def __len__(self) -> int:
        return len(self._starts) - 1

    def __getitem__(self, k: int) -> str:
        if k < 0:
            k += len(self)
        return self._source[self._starts[k] : self._starts[k + 1] - 1]

    if TYPE_CHECKING:  # iteration goes through __getitem__ (to IndexError); said for mypy

        def __iter__(self) -> Iterator[str]: ...

    def end(self, k: int) -> int:
        """Where line k ends (its newline, or the end of the text)."""
        return self._starts[k + 1] - 1


class SourceBudget:
    """Exact token counts for spans of one source text and for pieces joined by newlines."""

    def __init__(self, source: str, count: TokenCounter) -> None:
        self.source = source
        self.count = count
        self.exact = count in EXACT_JOINS
        self.line_start = line_starts(source)
        self.lines = Lines(source, self.line_start)
        self._tokens = DocumentTokens(source) if count is cl100k else None
        self._line_counts = (
            LineCounts(source, count) if self.exact and self._tokens is None else None
        )
        self._prefix: list[int] | None = None
        self._delta_cache: dict[tuple[str, str], int] = {}
        self._tail_count: dict[str, int] = {"": 0}

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
        if self.exact and _starts_a_piece(right.text):
            n = left.count + self.delta(left.tail, sep) + right.count
        else:
            n = self.count(text)
        return _new(
            Measured, (text, n, right.tail, min(left.start, right.start), max(left.end, right.end))
        )

    def join_within(self, left: Measured, sep: str, right: Measured, limit: int) -> Measured | None:
        """`join(left, sep, right)` if its count fits `limit`, else None (then no text is built)."""
        if self.exact and _starts_a_piece(right.text):
            n = left.count + self.delta(left.tail, sep) + right.count
            if n > limit:
                return None
            return _new(
                Measured,
                (
                    left.text + sep + right.text,
                    n,
                    right.tail,
                    min(left.start, right.start),
                    max(left.end, right.end),
                ),
            )
        joined = self.join(left, sep, right)
        return joined if joined.count <= limit else None

    def text(self, text: str, start: int = 0, end: int = 0) -> Measured:
        """A piece of text that is not a run of whole source lines: counted directly."""
        return Measured(text, self.count(text), tail(text), start, end)

    # --- breadcrumbs ----------------------------------------------------------------------------

    def path(self, parent: Measured | None, heading: Block) -> Measured:
        """The breadcrumb one level down: `parent + " > " + title` (the title alone at the top).

        The parent's text ends in a non-blank character, so no piece runs across the join and
        the count is the parent's plus that of " > " + title. For cl100k that is " >" (a piece of
        its own) plus " " + title, and an ATX heading line holds exactly " " + title when one
        space precedes the title: those tokens are read off the document's encoding, so a
        breadcrumb costs no new encoding however deep it is.
        """
        title = heading.title
        if parent is None or not parent.text or not self.exact:
            text = f"{parent.text} > {title}" if parent is not None and parent.text else title
            return self.text(text)
        spaced = self._spaced_title(heading)
        n = self._tail_tokens(" >") + spaced if spaced is not None else self.count(" > " + title)
        text = f"{parent.text} > {title}"
        return Measured(text, parent.count + n, tail(text), 0, 0)

    def _spaced_title(self, heading: Block) -> int | None:
        """Tokens of " " + title read off the document's encoding, or None if the source does not
        hold exactly that text (a setext heading, a tab before the title, another counter)."""
        at, title = heading.title_at, heading.title
        if self._tokens is None or at < 1 or self.source[at - 1] != " ":
            return None
        spaced_tail = tail(" " + title)
        first = self._tokens.bytes.byte_of(at - 1)
        end = self._tokens.bytes.byte_of(at + len(title) - len(spaced_tail))
        return self._tokens.between(first, end) + self._tail_tokens(spaced_tail)

    # --- spans of whole lines --------------------------------------------------------------------

    def _prefix_sums(self) -> list[int]:
        """prefix[k]: tokens of lines 0..k-1 (blank ones count zero) plus the joins after them."""
        if self._prefix is None:
            assert self._line_counts is not None  # exact counts without the cl100k tokens
            counts = self._line_counts.get()
            contributions = [0] * len(self.lines)
            previous = None  # the last non-blank line seen
            for k, line in enumerate(self.lines):
                if counts[k] == 0 and not line.strip():
                    continue
                if previous is not None:
                    # The separator between two non-blank lines: newlines and blank lines.
                    sep = self.source[
                        self.line_start[previous] + len(self.lines[previous]) : self.line_start[k]
                    ]
                    contributions[k] += self.delta(tail(self.lines[previous]), sep)
                contributions[k] += counts[k]
                previous = k
            self._prefix = [0, *accumulate(contributions)]
        return self._prefix

    def lines_span(self, first: int, last: int) -> Measured:
        """Lines first..last (inclusive; both non-blank) of the source, as one piece."""
        start = self.line_start[first]
        end = self.lines.end(last)
        text = self.source[start:end]
        if not self.exact:
            return Measured(text, self.count(text), tail(text), start, end)
        if self._tokens is not None:
            line_tail = tail(self.lines[last])
            # Tokens from the span's first byte to where the last line's tail starts, then the
            # tail counted alone: at the end of a chunk nothing follows it.
            n = self._tail_tokens(line_tail) + self._tokens.between(
                self._tokens.bytes.byte_of(start), self._tokens.bytes.byte_of(end - len(line_tail))
            )
            return _new(Measured, (text, n, line_tail, start, end))
        prefix = self._prefix_sums()
        assert self._line_counts is not None  # exact, and no cl100k tokens: counted by line
        # Lines first+1..last each carry the join from the line before them; line `first` must
        # not carry the join from whatever came before the span.
        n = prefix[last + 1] - prefix[first + 1] + self._line_counts.get()[first]
        return Measured(text, n, tail(self.lines[last]), start, end)

    def lines_span_within(self, first: int, last: int, limit: int) -> Measured | None:
        """`lines_span(first, last)` if its count fits `limit`, else None.

        A line far longer than the limit may end in one giant regex piece (a run of symbols is
        its own "tail"), and tiktoken's BPE is superlinear on one piece: counting a 1 MB run of
        "[" just to learn it is too big would cost more than the rest of the chunking. When a
        prefix of such a tail is already over the limit, so is the span.
        """
        end = self.lines.end(last)
        if self._tokens is not None and end - self.line_start[last] > PROBE_CHARS_PER_TOKEN * limit:
            if self.surely_over(end - len(tail(self.lines[last])), end, limit):
                return None
        span = self.lines_span(first, last)
        return span if span.count <= limit else None

    # --- any span ---------------------------------------------------------------------------------

    def span(self, start: int, end: int) -> Measured:
        """source[start:end] as a piece, with its exact count (`span_count`)."""
        text = self.source[start:end]
        return _new(Measured, (text, self.span_count(start, end), tail(text), start, end))

    def span_count(self, start: int, end: int) -> int:
        """The exact count of source[start:end] on its own; for cl100k read off the document's one
        encoding (`DocumentTokens.span_count`), so it costs the same for a word or a chapter."""
        if self._tokens is None:
            return self.count(self.source[start:end])
        return self._tokens.span_count(start, end)

    def surely_over(self, start: int, end: int, limit: int) -> bool:
        """True when source[start:end] cannot fit `limit`, known from a prefix alone: a prefix of
        PROBE_CHARS_PER_TOKEN x limit characters that is over the limit proves the whole is. False
        says nothing either way. Counts at most that prefix, never a giant piece."""
        reach = PROBE_CHARS_PER_TOKEN * limit
        return end - start > reach and self.count(self.source[start : start + reach]) > limit

    def _tail_tokens(self, text: str) -> int:
        """Tokens of a short text counted alone, cached: tails are few (".", ":", ")", "**" ...)."""
        n = self._tail_count.get(text)
        if n is None:
            n = self._tail_count[text] = self.count(text)
        return n
