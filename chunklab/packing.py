"""Packing text into pieces that fit a token budget: sentences, then words, then word prefixes.

Used by every chunker with a hard budget (`MarkdownChunker`, `SemanticChunker`) when a unit is
too big to keep whole. Each candidate piece is counted directly: joins inside a line (a space)
are not additive the way newline joins are (see `budget`), and this path only runs for text that
is already oversized, so the cost stays small.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from chunklab.budget import Measured, SourceBudget

SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+")
WORD = re.compile(r"\S+")
# A single character can cost 4 cl100k tokens, and a breadcrumb may take half the budget: with
# at least 8 tokens, the other half always holds any one character.
MIN_TOKENS = 8


def split_text(start: int, end: int, limit: int, budget: SourceBudget) -> list[Measured]:
    """Sentences of source[start:end] packed within the limit; words, then prefixes, if needed."""
    source = budget.source
    spans = spans_between(SENTENCE_END, source, start, end)
    out: list[Measured] = []
    for a, b in pack_spans(spans, limit, budget):
        piece = budget.text(source[a:b], a, b)
        if piece.count <= limit:
            out.append(piece)
            continue
        for wa, wb in pack_spans(word_spans(source, a, b), limit, budget):
            word = budget.text(source[wa:wb], wa, wb)
            if word.count <= limit:
                out.append(word)
            else:
                out.extend(cut_word(source, wa, wb, limit, budget))
    return out


def spans_between(pattern: re.Pattern, source: str, start: int, end: int) -> list[tuple[int, int]]:
    """Spans of source[start:end] between matches of `pattern` (the separators), stripped."""
    spans, pos = [], start
    for m in pattern.finditer(source, start, end):
        if m.start() > pos:
            spans.append((pos, m.start()))
        pos = m.end()
    if pos < end:
        spans.append((pos, end))
    return [(a, b) for a, b in spans if source[a:b].strip()]


def word_spans(source: str, start: int, end: int) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in WORD.finditer(source, start, end)]


def pack_spans(spans: list[tuple[int, int]], limit: int, budget: SourceBudget) -> list[tuple[int, int]]:
    """Merge neighbouring spans while source[first:last] still fits. Counts each candidate directly:
    joins inside a line (a space) are not additive, and this path only runs for oversized text."""
    out: list[tuple[int, int]] = []
    for a, b in spans:
        if out and budget.count(budget.source[out[-1][0] : b]) <= limit:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def largest_fitting(most: int, fits: Callable[[int], bool]) -> int:
    """The largest n in 1..most with fits(n), found by binary search (fits must only ever turn
    false as n grows); 0 when none fits."""
    lo, hi = 0, most
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def longest_prefix(text: str, measure, limit: int) -> str:
    """The longest prefix of `text` whose measured count fits `limit`."""
    return text[: largest_fitting(len(text), lambda n: measure(text[:n]).count <= limit)]


def cut_word(source: str, start: int, end: int, limit: int, budget: SourceBudget) -> list[Measured]:
    """A word longer than the budget, cut into the longest prefixes that fit."""
    out = []
    while start < end:
        prefix = longest_prefix(source[start:end], budget.text, limit) or source[start]
        out.append(budget.text(prefix, start, start + len(prefix)))
        start += len(prefix)
    return out
