"""Packing text into pieces that fit a token budget: sentences, then words, then word prefixes.

Used by every chunker with a hard budget (`MarkdownChunker`, `SemanticChunker`) when a unit is
too big to keep whole. Joins inside a line (a space) are not additive the way newline joins are
(see `budget`), so each candidate piece gets its own exact count, `SourceBudget.span_count`: for
cl100k that is read off the document's one encoding, so a candidate is never encoded again from
its start as it grows, and a paragraph written on one line packs in linear time.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from chunklab.tokens.budget import Measured, SourceBudget

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
        piece = span_within(budget, a, b, limit)
        if piece is not None:
            out.append(piece)
            continue
        for wa, wb in pack_spans(word_spans(source, a, b), limit, budget):
            piece = span_within(budget, wa, wb, limit)
            out.extend([piece] if piece is not None else cut_word(source, wa, wb, limit, budget))
    return out


def span_fits(budget: SourceBudget, a: int, b: int, limit: int) -> bool:
    """Whether source[a:b] counts at most `limit`. Tokenizers are not linear on one giant piece
    (a 640 kB word without spaces costs tiktoken 6x what 160 kB does), so an oversized line is
    never counted whole just to learn that it is too big (`SourceBudget.surely_over`)."""
    return not budget.surely_over(a, b, limit) and budget.span_count(a, b) <= limit


def span_within(budget: SourceBudget, a: int, b: int, limit: int) -> Measured | None:
    """source[a:b] as a measured piece if it fits `limit`, else None."""
    if budget.surely_over(a, b, limit):
        return None
    piece = budget.span(a, b)
    return piece if piece.count <= limit else None


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


def pack_spans(
    spans: list[tuple[int, int]], limit: int, budget: SourceBudget
) -> list[tuple[int, int]]:
    """Merge neighbouring spans while source[first:last] still fits: each piece takes as many of
    the next spans as fit (a span too big alone is a piece of its own).

    Candidates are counted directly (joins inside a line, a space, are not additive), but not one
    per added span: the number of spans is found by `largest_fitting`, guessing the last piece's,
    so a piece costs a few counts of about its own length, not one count per span it holds.
    """
    out: list[tuple[int, int]] = []
    i, guess = 0, 1
    while i < len(spans):
        a = spans[i][0]

        def fits(k: int, a: int = a, i: int = i) -> bool:
            return span_fits(budget, a, spans[i + k][1], limit)

        more = largest_fitting(len(spans) - 1 - i, fits, guess)
        out.append((a, spans[i + more][1]))
        i, guess = i + more + 1, max(more, 1)
    return out


def largest_fitting(most: int, fits: Callable[[int], bool], first: int = 64) -> int:
    """The largest n in 1..most with fits(n) (fits must only ever turn false as n grows); 0 when
    none fits.

    An exponential search around a guess: from `first`, steps of 1, 2, 4 … away from it until the
    answer is bracketed, then bisection. Each probe costs about n, so the search costs about what
    the answer costs, whatever `most` is; with a good guess (the last piece's size) it takes two
    or three probes. A plain bisection over 1..most would start at most/2: cutting a 1 MB word
    into 200-token pieces would re-count half a megabyte per probe, quadratic in the word.
    """
    if most <= 0:
        return 0
    guess = min(max(first, 1), most)
    if fits(guess):
        lo, hi, step = guess, most, 1
        while lo < hi:
            probe = min(lo + step, hi)
            if not fits(probe):
                hi = probe - 1
                break
            lo, step = probe, step * 2
    else:
        lo, hi, step = 0, guess - 1, 1
        while hi > 0:
            probe = max(guess - step, 1)
            if fits(probe):
                lo = probe
                break
            hi, step = probe - 1, step * 2
    while lo < hi:  # fits(lo), and nothing above hi fits
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
    out: list[Measured] = []
    while start < end:
        guess = len(out[-1].text) if out else 64  # the next piece is likely as long as the last

        def fits(n: int, start: int = start) -> bool:
            return budget.span_count(start, start + n) <= limit

        n = largest_fitting(end - start, fits, guess) or 1
        out.append(budget.span(start, start + n))
        start += n
    return out
