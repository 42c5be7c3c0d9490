"""Companion 04c's check (04c.1): the fixed threshold that makes a percentile rule's cuts, with a
hint naming each predictable slip (the similarities' percentile, a distance left unconverted,
p / 100, another interpolation method, a tie cut as >= would, rounding). The notebook's own
`1 - np.percentile(1 - s, p)` passes, even where 1 - (1 - s) does not round back to s.
Registered in `exercises`. Also the hint for two slips of 04.3's sentence buffer (a window that
slides at the edges, neighbours found by value), which `exercises` names with its other hints, and
04.3's refusal of the library's `with_neighbours`."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from chunklab.chunkers.semantic import SemanticChunker, with_neighbours
from chunklab.embeddings.static import HashingEmbedder
from chunklab.teaching.checking import NotYet, run_without, short


def _threshold_slip(sims: np.ndarray, percentile: float, got: float) -> str:
    """Name the likely slip: the percentile of the similarities, or of the distances unconverted."""
    slips = {
        "that is the percentile of the similarities; the rule reads the percentile of the "
        "distances (1 - similarity), and the threshold is 1 minus that, as sections 2 and 5 "
        "compute it": np.percentile(sims, percentile),
        "that is a distance; a threshold compares similarities: return 1 minus it": np.percentile(
            1 - sims, percentile
        ),
        "that is percentile p + 1 of the distances: read percentile p itself": 1
        - np.percentile(1 - sims, percentile + 1),
        "that is a non-linear percentile method (higher, or nearest rounding up), a distance above "
        "the cut-off: the rule reads the default (linear) percentile": 1
        - np.percentile(1 - sims, percentile, method="higher"),
        "that reads percentile p / 100: np.percentile takes the percentile itself (80, not 0.8)": 1
        - np.percentile(1 - sims, percentile / 100),
    }
    right = 1 - float(np.percentile(1 - sims, percentile))
    on_a_gap = bool(np.isclose(1 - sims, 1 - right, rtol=0, atol=1e-12).any())
    tied = sims[np.isclose(1 - sims, 1 - right, rtol=0, atol=1e-12)]
    if on_a_gap and got != right and ((got > tied) & (got - tied < 1e-6)).any():
        return (
            "that cuts the gap whose distance is exactly percentile p, as >= would; the rule cuts "
            "only distances strictly above it, so a tie is kept: stay at or below its similarity"
        )
    if abs(got - right) < 1e-6:
        return (
            "a hair away from 1 minus percentile p of the distances: return that value itself, "
            "since the gap at the cut-off is cut or kept by a strict comparison"
        )
    kept = sims[1 - sims <= np.percentile(1 - sims, percentile)]
    if ((got > kept) & (got - kept < 1e-9)).any():  # one ulp above, or 1 - (1 - s) rounded up
        return (
            "that is a hair above the similarity of a gap the rule keeps (one step past it, or "
            "1 minus its distance rounded up), and the threshold rule's strict < cuts that gap: "
            "stay at or below the smallest similarity left uncut"
        )
    for slip, wrong in slips.items():
        if abs(got - float(wrong)) < 1e-9 and abs(float(wrong) - right) > 1e-9:
            return slip
    if any(abs(got - round(right, d)) < 1e-12 for d in range(1, 7)):
        return "that is rounded, and rounding moves it past a similarity: do not round it"
    return "read the value off these similarities: a gap is cut when its similarity is below it"


_LIBRARY_RULE: list[Callable] = [
    SemanticChunker.cuts,
    SemanticChunker.split,
    SemanticChunker.optimal_cuts,
]
_LIBRARY_REFUSAL = (
    "your function calls {name}, the library's rule, and reads the threshold off its cuts: "
    "work it out from the similarities and the percentile (the distances' p-th percentile, "
    "then the similarity that cuts the same gaps)"
)


def check_threshold_for(fn: Callable) -> int:
    """Any threshold whose cuts equal the percentile rule's on the same similarities passes."""
    rng, cases = np.random.default_rng(7), 0
    cases_asked = [(12, 80), (23, 80), (9, 90), (30, 70), (17, 95), (40, 85)] * 3
    # long enough that percentile p + 1 falls past another gap, so reading it moves a cut
    # (n - 1) * p / 100 whole: the percentile lands on a gap's own distance, where 1 minus it
    # may not round back to that gap's similarity
    on_a_gap = [(11, 80), (21, 80), (6, 80), (21, 90)] * 3
    for n, percentile in [*cases_asked, (150, 80), (201, 90), (120, 70), *on_a_gap]:
        sims = rng.uniform(-0.1, 0.9, n).round(4)
        rule = SemanticChunker(embedder=HashingEmbedder(), percentile=percentile)
        got = run_without(fn, (sims.copy(), percentile), _LIBRARY_RULE, _LIBRARY_REFUSAL)
        if not isinstance(got, (int, float, np.floating)) or not -1 <= got <= 1:
            raise NotYet(f"return one number, a similarity between -1 and 1, not {short(got)}")
        fixed = SemanticChunker(
            embedder=HashingEmbedder(), breakpoint="threshold", threshold=float(got)
        )
        # the notebook's 1 - (1 - s): on a gap's own distance its rounding may cut that gap
        notebooks = float(got) == 1 - float(np.percentile(1 - sims, percentile))
        if fixed.cuts(sims) != rule.cuts(sims) and not notebooks:
            raise NotYet(
                f"{n} similarities, percentile {percentile}: your threshold {float(got):.4f} cuts "
                f"{len(fixed.cuts(sims))} gaps, the rule {len(rule.cuts(sims))}: "
                + _threshold_slip(sims, percentile, float(got))
            )
        cases += 1
    return cases


# 04.3's cases after the random ones: repeated texts (a window is by position, not value),
# texts with a newline and a tab at their edges (joined as they are, never stripped), and empty
# texts (kept, not skipped)
_BUFFER_EDGE_CASES = [
    (["a", "b", "a", "a", "c", "b"], 1),
    (["x", "x", "y", "x"], 2),
    (["One.\n", "\tTwo.", "Three."], 1),
    (["a", "", "b", ""], 1),  # an empty text is a text: kept, and joined like any other
]


def own_windows(fn: Callable, texts: list[str], buffer_size: int) -> object:
    """04.3's `fn(texts, buffer_size)`, refused when it calls the library's `with_neighbours`,
    which the exercise asks the learner to write."""
    refusal = (
        "your function calls {name}, the library's: write the windows yourself (for each text, "
        "the slice from buffer_size before it to buffer_size after it, joined by single spaces)"
    )
    return run_without(fn, (texts, buffer_size), with_neighbours, refusal)


def check_buffer_edges(fn: Callable, slip: Callable[[list[str], int, object], str]) -> int:
    """04.3's edge cases, each refused with `slip` (the notebook's named hints); the count run."""
    for texts, buffer_size in _BUFFER_EDGE_CASES:
        got = own_windows(fn, list(texts), buffer_size)
        got = list(got) if isinstance(got, (list, tuple)) else got
        if got != with_neighbours(texts, buffer_size):
            raise NotYet(
                f"texts={texts}, buffer_size={buffer_size}: expected "
                f"{with_neighbours(texts, buffer_size)}, got {short(got)}: "
                + slip(texts, buffer_size, got)
            )
    return len(_BUFFER_EDGE_CASES)


def empty_texts_skipped(texts: list[str], buffer_size: int) -> dict[str, list[str]]:
    """04.3's windows with the empty texts left out (`if t`), keyed by the hint naming it; none
    when no text is empty."""
    if "" not in texts:
        return {}
    kept = [
        " ".join(t for t in texts[max(0, i - buffer_size) : i + buffer_size + 1] if t)
        for i in range(len(texts))
    ]
    hint = (
        "the empty texts were skipped; keep every text as it is, an empty one too: a window "
        "is taken by position, and joining an empty text still adds its space"
    )
    return {hint: kept}


def buffered_window_slip(texts: list[str], buffer_size: int, got: list) -> str:
    """The window slid or padded with the edge text at the edges to keep its width, texts found
    by value, not position, or each text stripped of its whitespace."""
    n, width = len(texts), 2 * buffer_size + 1
    if texts and got == with_neighbours([t.strip() for t in texts], buffer_size):
        return (
            "each text stripped of its whitespace; join the texts as they are (a sentence keeps "
            "its characters, so that the window is made of the document's own text)"
        )
    slid = [" ".join(texts[max(0, min(i - buffer_size, n - width)) :][:width]) for i in range(n)]
    if got == slid:
        return (
            "the window slides at the edges to keep its width; it should shrink instead: "
            "fewer texts at the edges, never a neighbour further than buffer_size away"
        )
    padded = [
        " ".join(texts[min(max(j, 0), n - 1)] for j in range(i - buffer_size, i + buffer_size + 1))
        for i in range(n)
    ]
    if n and buffer_size and got == padded:
        return (
            "the edge text is repeated to keep the width; the window should shrink instead: "
            "fewer texts at the edges, each text once"
        )
    expected = with_neighbours(texts, buffer_size)
    words = [len(str(g).split()) for g in got]
    if len(set(texts)) < n and words != [len(e.split()) for e in expected]:
        return (
            "a text that appears twice is two sentences: keep repeats, and take neighbours by "
            "position (index i), not by value (texts.index(t) finds only the first)"
        )
    return "compare it with the expected list"
