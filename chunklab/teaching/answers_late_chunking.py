"""Exercise 09b.2's answer: companion 09b's mean cosine between two chunks, alone and
late-chunked, on a longer page (the work-schedules page in 200-token windows), and the wrong
pairs a refusal names (the pair swapped, the diagonal counted, another window or page, late
means never scaled to length 1).

Kept apart from `teaching.answers_experiments`, which registers it in `SOLUTIONS_EXPERIMENTS`
and `FORMS_EXPERIMENTS`. Reading this file gives the answer away: try first.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from chunklab.chunkers.registry import build
from chunklab.documents.series import load_document
from chunklab.embeddings.late import late_chunk_vectors, token_vectors
from chunklab.embeddings.minilm import MiniLMEmbedder


def _mean_pairwise(vectors: np.ndarray, diagonal: bool = False) -> float:
    """Mean cosine over every pair of distinct chunks (or over all pairs, each with itself too)."""
    sims = vectors @ vectors.T
    return float(sims.mean() if diagonal else sims[~np.eye(len(vectors), dtype=bool)].mean())


@lru_cache(maxsize=None)  # the answer and each refusal's variant embed the page once per setting
def _schedule_alone_and_late(
    size: int, unit: str, name: str = "work_schedules"
) -> tuple[np.ndarray, np.ndarray]:
    doc = load_document(name)
    spans = [(c.start, c.end) for c in build("fixed", size=size, overlap=0, unit=unit).split(doc)]
    minilm = MiniLMEmbedder()
    alone = minilm.embed_documents([doc.text[a:b] for a, b in spans])
    return alone, late_chunk_vectors(minilm, doc.text, spans)


@lru_cache(maxsize=None)
def _schedule_late_unscaled(size: int = 200) -> np.ndarray:
    """09b.2's late chunks pooled, never scaled to length 1: dot products, not cosines."""
    doc = load_document("work_schedules")
    chunker = build("fixed", size=size, overlap=0, unit="tokens")
    spans = [(c.start, c.end) for c in chunker.split(doc)]
    tokens = token_vectors(MiniLMEmbedder(), doc.text)
    bounds = [np.searchsorted(tokens.offsets[:, 0], span) for span in spans]
    return np.array([tokens.vectors[first:last].mean(axis=0) for first, last in bounds])


@lru_cache(maxsize=None)
def _schedule_late_without_overlap(size: int = 200) -> np.ndarray:
    """09b.2's late chunks read in windows that do not overlap: an edge token loses context."""
    doc = load_document("work_schedules")
    chunker = build("fixed", size=size, overlap=0, unit="tokens")
    spans = [(c.start, c.end) for c in chunker.split(doc)]
    return late_chunk_vectors(MiniLMEmbedder(), doc.text, spans, overlap=0)


def schedule_pairwise_alone_and_late() -> tuple[float, float]:
    """09b.2: section 2's measure on the work-schedules page, 200-token windows, no overlap."""
    alone, late = _schedule_alone_and_late(200, "tokens")
    return round(_mean_pairwise(alone), 2), round(_mean_pairwise(late), 2)


def pairwise_misses() -> dict[Any, str]:
    right = schedule_pairwise_alone_and_late()
    alone, late = _schedule_alone_and_late(200, "tokens")
    misses: dict[Any, str] = {
        (right[1], right[0]): "the pair is (alone, late), in that order",
        (round(_mean_pairwise(alone, True), 2), round(_mean_pairwise(late, True), 2)): (
            "that mean counts each chunk with itself (the diagonal, all 1); "
            "take distinct pairs only"
        ),
    }
    for size, unit, name, why in (
        (
            200,
            "chars",
            "work_schedules",
            "windows of 200 characters (build's default unit); "
            'the exercise asks tokens (unit="tokens")',
        ),
        (
            40,
            "tokens",
            "work_schedules",
            "that is with section 2's 40-token windows; the exercise asks size=200",
        ),
        (
            40,
            "tokens",
            "travel_policy",
            "that is section 2's travel policy; the exercise asks the work-schedules page",
        ),
    ):
        a, b = _schedule_alone_and_late(size, unit, name)
        misses.setdefault((round(_mean_pairwise(a), 2), round(_mean_pairwise(b), 2)), why)
    unscaled = (right[0], round(_mean_pairwise(_schedule_late_unscaled()), 2))
    misses.setdefault(
        unscaled,
        "your late vectors are means never scaled to length 1, so their dot products are not "
        "cosines: scale each to length 1",
    )
    misses.setdefault(
        (right[0], round(_mean_pairwise(_schedule_late_without_overlap()), 2)),
        "your windows do not overlap, so a token at a window's edge is read with context on one "
        "side only: read windows that overlap by 64 pieces, as late_chunk_vectors does",
    )
    misses.pop(right, None)
    return misses
