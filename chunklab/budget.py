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
from dataclasses import dataclass
from itertools import accumulate

import regex

from chunklab.tokens import TokenCounter, cl100k, word_count

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


class SourceBudget:
    """Exact token counts for spans of one source text and for pieces joined by newlines."""

    def __init__(self, source: str, count: TokenCounter) -> None:
        self.source = source
        self.count = count
        self.exact = count in EXACT_JOINS
        self.lines = source.split("\n")
        self.line_start = [0, *accumulate(len(line) + 1 for line in self.lines)]
        self._line_counts = LineCounts(source, count) if self.exact else None
        self._prefix: list[int] | None = None
        self._delta_cache: dict[tuple[str, str], int] = {}

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
        prefix = self._prefix_sums()
        # Lines first+1..last each carry the join from the line before them; line `first` must
        # not carry the join from whatever came before the span.
        n = prefix[last + 1] - prefix[first + 1] + self._line_counts.get()[first]
        return Measured(text, n, tail(self.lines[last]), start, end)
