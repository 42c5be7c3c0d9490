"""Companion 04c's second check (04c.2): the percentile rule written from scratch and scored
against known topic starts, on similarities the notebook never shows, refusing a call into the
library's rule and naming each predictable slip (a cut at the cut-off itself, the percentile of
the similarities, p / 100, a gap numbered as the sentence before it, every cut counted as a hit,
the two numbers swapped, the document's start counted as a cut or as a hit, chunks counted
instead of cuts, the most similar gaps cut, the cut-off turned back into a similarity, a fixed
count of the largest distances cut).
Registered in `exercises`."""

from __future__ import annotations

from collections.abc import Callable
from math import ceil

import numpy as np

from chunklab.chunkers.semantic import SemanticChunker
from chunklab.embeddings.static import HashingEmbedder
from chunklab.teaching.checking import NotYet, consistent_slips, run_without, short

Case = tuple[np.ndarray, float, list[int]]


def _cut_gaps(sims: np.ndarray, percentile: float, strict: bool = True) -> list[int]:
    distances = 1 - np.asarray(sims, dtype=np.float64)
    cutoff = np.percentile(distances, percentile)
    return [i for i, d in enumerate(distances) if (d > cutoff if strict else d >= cutoff)]


def _score(gaps: list[int], starts: list[int], shift: int = 1) -> tuple[int, int]:
    return sum(i + shift in set(starts) for i in gaps), len(gaps)


def _count(sims: np.ndarray, percentile: float) -> int:
    return ceil(len(sims) * (1 - percentile / 100))


def _expected(sims: np.ndarray, percentile: float, starts: list[int]) -> tuple[int, int]:
    rule = SemanticChunker(embedder=HashingEmbedder(), percentile=percentile)
    return _score(rule.cuts(np.asarray(sims)), starts)


_SLIPS: list[tuple[Callable[..., tuple[int, int]], str]] = [
    (
        lambda s, p, t: _score(_cut_gaps(s, p, strict=False), t),
        "a gap whose distance equals the cut-off is cut there: the rule cuts only distances "
        "strictly above the percentile (>, not >=); it matters where the percentile lands on a gap",
    ),
    (
        lambda s, p, t: _score([i for i, x in enumerate(s) if x < np.percentile(s, p)], t),
        "that reads the percentile of the similarities: the rule reads the percentile of the "
        "distances (1 - similarity) and cuts the largest ones",
    ),
    (
        lambda s, p, t: _score(_cut_gaps(s, p / 100), t),
        "that reads percentile p / 100: np.percentile takes the percentile itself (80, not 0.8)",
    ),
    (
        lambda s, p, t: _score(_cut_gaps(s, p), t, shift=0),
        "gap i lies after sentence i, so a cut there opens sentence i + 1: compare i + 1 with "
        "the topic starts, not i (sentence 0 opens the document, never a gap)",
    ),
    (
        lambda s, p, t: (len(_cut_gaps(s, p)), len(_cut_gaps(s, p))),
        "every cut is counted as on a change: count only the cuts that open a topic start",
    ),
    (
        lambda s, p, t: _score(_cut_gaps(s, p), t)[::-1],
        "the two numbers are swapped: return (cuts on a topic start, all cuts)",
    ),
    (
        lambda s, p, t: (_score(_cut_gaps(s, p), t)[0] + 1, len(_cut_gaps(s, p)) + 1),
        "the document's own start is counted as a cut: sentence 0 opens the document, not a gap; "
        "count only the gaps the rule cuts",
    ),
    (
        lambda s, p, t: (_score(_cut_gaps(s, p), t)[0] + 1, len(_cut_gaps(s, p))),
        "topic start 0 is counted as a hit: sentence 0 opens the document, and no cut opens it; "
        "count only the topic starts a cut opens (gap i opens sentence i + 1)",
    ),
    (
        lambda s, p, t: (_score(_cut_gaps(s, p), t)[0], len(_cut_gaps(s, p)) + 1),
        "that counts chunks, not cuts: k cuts make k + 1 chunks; return how many gaps the rule "
        "cuts",
    ),
    (
        lambda s, p, t: _score([i for i, x in enumerate(s) if x > np.percentile(s, p)], t),
        "that cuts the most similar gaps (the percentile of the similarities, cut above it): the "
        "rule cuts the largest distances (1 - similarity), the least similar gaps",
    ),
    (
        lambda s, p, t: _score([i for i, x in enumerate(s) if x < 1 - np.percentile(1 - s, p)], t),
        "that cuts against 1 - the percentile, a similarity: 1 - (1 - s) need not round back to s, "
        "so a gap at the cut-off can land on the wrong side (exercise 04c.1); compare the "
        "distances with their percentile",
    ),
    (
        lambda s, p, t: _score(sorted(np.argsort(s, kind="stable")[: _count(s, p)]), t),
        "that cuts a fixed count, the ceil(n * (1 - p / 100)) largest distances: the rule cuts "
        "every distance above their percentile, which numpy interpolates between two gaps, so "
        "the count can differ by one; compare each distance with np.percentile",
    ),
]


def _cases() -> list[Case]:
    """Similarities of n gaps (n + 1 sentences), a percentile, and topic starts (sentence numbers,
    0 among them as in `load_topic_boundaries`). (n - 1) * p / 100 whole in the later cases: the
    percentile lands on a gap's own distance, where > and >= differ."""
    rng = np.random.default_rng(404)
    cases: list[Case] = []
    sizes = [(12, 80), (22, 80), (30, 90), (17, 70), (40, 85), (9, 50)] * 3
    on_a_gap = [(11, 80), (21, 80), (21, 90), (6, 80), (41, 75)] * 2
    for n, percentile in sizes + on_a_gap:
        sims = rng.uniform(-0.1, 0.9, n).round(3)
        k = int(rng.integers(2, max(3, n // 3)))
        starts = sorted({0, *(int(x) for x in rng.choice(np.arange(1, n + 1), k, replace=False))})
        cases.append((sims, float(percentile), starts))
    return cases


def check_cuts_on_changes(fn: Callable) -> int:
    """04c.2: (cuts on a topic start, cuts) of the percentile rule, on every case."""
    cases = _cases()
    watched: list[Callable] = [SemanticChunker.cuts, SemanticChunker.split]
    refusal = (
        "your function calls {name}, the library's rule: write the rule itself (the distances, "
        "their percentile, the gaps above it) and count the cuts that open a topic start"
    )
    for sims, percentile, starts in cases:
        got = run_without(fn, (sims.copy(), percentile, list(starts)), watched, refusal)
        if not isinstance(got, (tuple, list)) or len(got) != 2:
            raise NotYet(f"return a pair (cuts on a topic start, cuts), not {short(got)}")
        if any(float(x) != int(float(x)) for x in got):
            raise NotYet(
                f"return two counts, not {short(got)}: how many cuts open a topic start (not the "
                "share of cuts that do, which is precision) and how many cuts the rule makes"
            )
        got = tuple(int(x) for x in got)
        expected = _expected(sims, percentile, starts)
        if got != expected:
            named = consistent_slips(fn, _SLIPS, cases, shape=lambda r: tuple(int(x) for x in r))
            why = named[0] if named else "cut the gaps whose distance is above the percentile"
            raise NotYet(
                f"{len(sims)} similarities, percentile {percentile:g}, topic starts {starts}: "
                f"expected {expected}, got {got}: {why}"
            )
    return len(cases)


CHECKS_CUT_CHANGES = {
    "04c.2": (
        "cuts_on_changes(similarities, percentile, topic_starts) -> (int, int)",
        check_cuts_on_changes,
    ),
}
