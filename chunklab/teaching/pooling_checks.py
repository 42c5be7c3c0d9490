"""Exercises 09.1 and 09b.1: pooling a transformer's token vectors into one vector, by the
attention mask (masked mean) and by a character span (late chunking); each plausible slip is
computed here and named in the hint. Kept apart from `exercises_measures` because the hints are most
of it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from chunklab.embeddings.late import TokenVectors, pool_spans
from chunklab.teaching.answers_late_chunking import calls_into_late
from chunklab.teaching.checking import NotYet, close, rounded

# --- 09.1 and 09b.1: pooling token vectors -------------------------------------------------------


def _unit(x: np.ndarray) -> np.ndarray:
    return x / np.linalg.norm(x, axis=-1, keepdims=True)


def _masked(vectors: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """The mean of each text's vectors where `keep` is 1 (NaN for a text with none kept)."""
    weights = keep.astype(np.float64)[..., None]
    with np.errstate(invalid="ignore", divide="ignore"):
        return (vectors * weights).sum(axis=1) / weights.sum(axis=1)


def _without_embeddings(fn: Callable, *args: Any) -> Any:
    """fn's answer; refused at its first call into `chunklab.embeddings`, which the prompt rules
    out (the library's pooling would pass without the exercise being done)."""
    got, reached = calls_into_late(fn, *args, package=True)
    if reached:
        raise NotYet(
            f"your function calls into chunklab.embeddings ({reached}): the exercise is to "
            "write the pooling yourself, with numpy"
        )
    return got


def _prefix_slip(vectors: np.ndarray, mask: np.ndarray, prefix: np.ndarray) -> list:
    """The mean of the first n positions (n real tokens), a slip only when padding is not all at
    the end."""
    if np.array_equal(mask, prefix):
        return []
    hint = (
        "a count of real tokens taken from the start misses a text padded on the left, as some "
        "tokenizers pad: use the mask itself"
    )
    return [(_masked(vectors, prefix), hint)]


def _mean_hint(vectors: np.ndarray, mask: np.ndarray, got: Any) -> str:
    """Name the slip: each plausible wrong mean is computed here and compared with `got`."""
    try:
        got = np.asarray(got, dtype=np.float64)
    except (TypeError, ValueError):
        return "an array of shape (texts, dimensions)"
    for wrong, hint in _mean_slips(vectors, mask):
        for form in (wrong, _unit(wrong)):
            if got.shape == form.shape and np.allclose(got, form, atol=1e-5, equal_nan=True):
                return hint
    right = _masked(vectors, mask)
    if got.shape == mask.shape and got.shape != right.shape:
        return (
            "shape (texts, tokens): the mean was taken over the dimensions; take it over the "
            "tokens, axis=1, for shape (texts, dimensions)"
        )
    if got.shape == right.T.shape and np.allclose(got.T, right, atol=1e-5):
        return "the right numbers, transposed: return shape (texts, dimensions), one row per text"
    if got.shape == right.shape and np.allclose(got, right, rtol=1e-2, atol=1e-4):
        # one factor per text is a changed divisor; an error in every number, low precision
        factor = (got * right).sum(axis=1, keepdims=True) / (right**2).sum(axis=1, keepdims=True)
        if np.allclose(got, factor * right, rtol=1e-5, atol=1e-6):
            return (
                "almost the mean, off in the last digits, as when a small eps is added to the "
                "count: every text has a real token, so divide by the count itself"
            )
        return (
            "almost the mean, each number off in its last digits, as when the sums are taken in "
            "float16: keep the vectors' float32 (or float64)"
        )
    return "the mean of each text's real tokens, not scaled"


def _markers_dropped(vectors: np.ndarray, mask: np.ndarray) -> list:
    """The mean without each text's first and last real tokens ([CLS] and [SEP], as 09b's
    `PiecesOnly` drops them), a text of two or fewer kept whole or left NaN."""
    inner = mask * (np.cumsum(mask, axis=1) > 1) * (np.cumsum(mask[:, ::-1], axis=1)[:, ::-1] > 1)
    hint = (
        "the first and last real tokens were dropped: this model's mean counts every position "
        "whose mask is 1, [CLS] and [SEP] included"
    )
    kept_whole = np.where(inner.sum(axis=1, keepdims=True) > 0, inner, mask)
    return [(_masked(vectors, inner), hint), (_masked(vectors, kept_whole), hint)]


def _mean_slips(vectors: np.ndarray, mask: np.ndarray) -> list:
    """Each plausible wrong mean, with the hint that names it."""
    lengths = mask.sum(axis=1)
    positions = np.arange(mask.shape[1])[None, :]
    slips = _prefix_slip(vectors, mask, positions < lengths[:, None])
    return slips + [
        (
            _unit(_masked(vectors, mask)),
            "that is scaled to length 1; return the mean itself, before any scaling",
        ),
        (vectors.mean(axis=1), "padding was averaged in: count only the tokens whose mask is 1"),
        (
            (vectors * mask[..., None]).sum(axis=1) / mask.shape[1],
            "divided by the padded length: "
            "divide by each text's number of real tokens, mask.sum(axis=1)",
        ),
        (
            (vectors * mask[..., None]).sum(axis=1),
            "that is the sum: divide by each text's number of real tokens",
        ),
        (
            (vectors * mask[..., None]).sum(axis=1) / mask.sum(),
            "divided by the real tokens of the whole batch, mask.sum(): "
            "divide each text by its own count, mask.sum(axis=1)",
        ),
        (_masked(vectors, 1 - mask), "the mask is read backwards: 1 marks a real token, 0 padding"),
        (
            np.stack([v[m].mean(axis=0) for v, m in zip(vectors, mask, strict=True)]),
            "the int mask was used as an index: v[mask] picks positions 0 and 1 again and again; "
            "select with mask.astype(bool), or multiply by the mask",
        ),
        (
            _masked(vectors, positions < (lengths - 1)[:, None]),
            "one token short: use every position whose mask is 1",
        ),
        (
            _masked(vectors, positions < (lengths + 1)[:, None]),
            "one token too many: use only the positions whose mask is 1",
        ),
        (
            vectors[:, 0],
            "that is the first token alone ([CLS] pooling); this model averages every real token",
        ),
        (
            _masked(_unit(vectors), mask),
            "each token was scaled to length 1 before the mean: the mean of the tokens as they are",
        ),
        (
            vectors.sum(axis=1) / lengths[:, None],
            "the mask was ignored in the sum: the padding's vectors were added in; multiply by "
            "the mask (or select the real tokens) before summing",
        ),
        (
            _masked(vectors, mask * (np.cumsum(mask, axis=1) > 1)),
            "the first real token was dropped: every position whose mask is 1 counts, [CLS] "
            "included",
        ),
        *_markers_dropped(vectors, mask),
        *_other_poolings(vectors, mask),
    ]


def _other_poolings(vectors: np.ndarray, mask: np.ndarray) -> list:
    """Max and median pooling, and wrong divisors (the dimensions too, the first text's count,
    integer division), each with its hint."""
    summed = (vectors * mask[..., None]).sum(axis=1)
    first = np.arange(mask.shape[1])[None, :] < mask[0].sum()
    with np.errstate(invalid="ignore", divide="ignore"):
        over_texts = (vectors * mask[..., None]).sum(axis=0) / mask.sum(axis=0)[:, None]
    return [
        (
            _masked(vectors, np.broadcast_to(first, mask.shape)),
            "every text took the first text's count of real tokens, mask[0]: each text has its "
            "own, mask.sum(axis=1)",
        ),
        (
            over_texts,
            "the sums ran over the texts, axis=0: sum over the tokens, axis=1, for shape (texts, "
            "dimensions)",
        ),
        (
            summed / mask[0].sum(),
            "every text was divided by the first text's count of real tokens: divide each text "
            "by its own, mask.sum(axis=1)",
        ),
        (
            summed // mask.sum(axis=1)[:, None],
            "integer division (//) floors the mean: divide with /",
        ),
        (
            summed / vectors.shape[2],
            "divided by the number of dimensions, vectors.shape[2]: divide by each text's number "
            "of real tokens, mask.sum(axis=1)",
        ),
        (
            np.where(mask[..., None] > 0, vectors, -np.inf).max(axis=1),
            "that is the largest value of each dimension (max pooling): this model takes the mean",
        ),
        (vectors.max(axis=1), "that is max pooling, padding included: take the mean"),
        (
            np.stack([np.median(v[m > 0], axis=0) for v, m in zip(vectors, mask, strict=True)]),
            "that is the median of each dimension over the real tokens: take their mean",
        ),
        (
            (vectors * mask[..., None]).sum(axis=1)
            / (mask.sum(axis=1)[:, None] * vectors.shape[2]),
            "divided by the real tokens times the dimensions: divide by the number of real "
            "tokens alone, mask.sum(axis=1)",
        ),
    ]


def check_masked_mean(fn: Callable) -> int:
    rng, cases = np.random.default_rng(9), 0
    for case in range(30):
        texts, tokens, dim = (int(n) for n in rng.integers(1, 6, size=3) * (1, 3, 2))
        vectors = rng.normal(size=(texts, tokens, dim)).astype(np.float32)
        lengths = rng.integers(1, tokens + 1, size=texts)
        lengths[0] = max(1, tokens - 1) if tokens > 1 else 1  # padding in the first text
        mask = (np.arange(tokens)[None, :] < lengths[:, None]).astype(np.int64)
        if case % 3 == 2:  # padded on the left, as some tokenizers pad: a length is not enough
            mask = mask[:, ::-1].copy()
        expected = _masked(vectors.astype(np.float64), mask)  # the pooling's mean, before scaling
        got = _without_embeddings(fn, vectors.copy(), mask.copy())
        if not close(got, expected):
            hint = _mean_hint(vectors.astype(np.float64), mask, got)
            raise NotYet(
                f"{texts} texts of {tokens} positions, real tokens {lengths.tolist()}: expected "
                f"{rounded(expected)}, got {rounded(got)} ({hint})"
            )
        cases += 1
    return cases


def _membership_slips(offsets: np.ndarray, start: int, end: int) -> dict[str, tuple]:
    """Wrong rules for which tokens a span holds, by name: each is a mask per way of writing it."""
    middle = offsets.sum(axis=1) / 2
    return {
        "its last one": (
            (offsets[:, 1] > start) & (offsets[:, 1] <= end),
            (offsets[:, 1] >= start) & (offsets[:, 1] < end),
        ),
        "any overlap": ((offsets[:, 1] > start) & (offsets[:, 0] < end),),
        "its middle": ((middle >= start) & (middle < end), (middle >= start) & (middle <= end)),
    }


def _rules_fitting(
    offsets: np.ndarray, vectors: np.ndarray, start: int, end: int, got: Any
) -> list:
    """The names of the wrong membership rules whose pooled vector is `got` on this span."""

    def pooled(keep: np.ndarray) -> np.ndarray:
        return _unit(vectors[keep].mean(axis=0)) if keep.any() else np.zeros(vectors.shape[1])

    slips = _membership_slips(offsets, start, end)
    return [name for name, keeps in slips.items() if any(close(got, pooled(k)) for k in keeps)]


def _pool_hint(offsets: np.ndarray, vectors: np.ndarray, start: int, end: int, got: Any) -> str:
    def pooled(keep: np.ndarray) -> np.ndarray:
        return _unit(vectors[keep].mean(axis=0)) if keep.any() else np.zeros(vectors.shape[1])

    if close(got, pooled((offsets[:, 0] >= start) & (offsets[:, 0] <= end))):
        return "end is excluded: a token starting at end belongs to the next chunk"
    if close(got, pooled((offsets[:, 0] >= start) & (offsets[:, 1] <= end))):
        return (
            "a token belongs by its first character: one that starts inside the span and ends "
            "after end still counts"
        )
    if close(got, pooled((offsets[:, 0] > start) & (offsets[:, 0] < end))):
        return "start is included: a token starting at start belongs to this chunk"
    if not np.all(np.isfinite(np.asarray(got, dtype=np.float64))):
        return "no token starts in the span: return a vector of zeros, not the mean of nothing"
    named = _rules_fitting(offsets, vectors, start, end, got)
    if named:  # on some spans two rules pick the same tokens: name each that fits
        return f"a token belongs by its first character, not by {' nor by '.join(named)}"
    inside = (offsets[:, 0] >= start) & (offsets[:, 0] < end)
    if inside.any() and close(got, vectors[inside].mean(axis=0)):
        return "scale the mean to length 1"
    if not inside.any():
        return "no token starts in the span: return a vector of zeros"
    if close(got, _unit(_unit(vectors[inside]).mean(axis=0))):
        return "each token was scaled to length 1 before the mean: scale only the mean"
    if any(close(got, f(np.median(vectors[inside], axis=0))) for f in (_unit, np.asarray)):
        return "that is the median of each dimension: take the tokens' mean, scaled to length 1"
    by_index = np.zeros(len(offsets), dtype=bool)
    by_index[start:end] = True
    if by_index.any() and close(got, pooled(by_index)):
        return "start and end are character positions, not token indices: compare them with offsets"
    return "the tokens whose first character is in start <= position < end; zeros if none"


def _span_cases(count: int = 40) -> list:
    """The checker's spans: (offsets, vectors, start, end), some inside a token, some past the
    last one."""
    rng, cases = np.random.default_rng(10), []
    for _ in range(count):
        n, dim = int(rng.integers(1, 9)), int(rng.integers(2, 5))
        widths, gaps = rng.integers(1, 5, size=n), rng.integers(0, 2, size=n)
        starts = np.cumsum(gaps + np.concatenate([[0], widths[:-1]]))
        offsets = np.stack([starts, starts + widths], axis=1)
        vectors = rng.normal(size=(n, dim)).astype(np.float32)
        inner = [int(a) + 1 for a, b in offsets if b - a > 1]  # inside a token: overlap != start
        points = [int(p) for p in offsets.ravel()] + inner + [int(offsets[-1, 1]) + 2]
        start, end = sorted(int(p) for p in rng.choice(points, size=2))
        cases.append((offsets, vectors, start, end))
    return cases


def _narrowed(fn: Callable, later: list, named: list) -> list:
    """The wrong rules still fitting on the later spans the answer also gets wrong: a first span
    where two rules pick the same tokens must not leave the hint naming both."""
    for offsets, vectors, start, end in later:
        expected = pool_spans(TokenVectors(vectors, offsets), [(start, end)])[0]
        got = _without_embeddings(fn, offsets.copy(), vectors.copy(), start, end)
        if not close(got, expected):
            fitting = _rules_fitting(offsets, vectors.astype(np.float64), start, end, got)
            fits = [n for n in named if n in fitting]
            named = fits or named
    return named


def check_pool_span(fn: Callable) -> int:
    cases = _span_cases()
    for done, (offsets, vectors, start, end) in enumerate(cases):
        expected = pool_spans(TokenVectors(vectors, offsets), [(start, end)])[0].astype(np.float64)
        got = _without_embeddings(fn, offsets.copy(), vectors.copy(), start, end)
        if not close(got, expected):
            hint = _pool_hint(offsets, vectors.astype(np.float64), start, end, got)
            named = _rules_fitting(offsets, vectors.astype(np.float64), start, end, got)
            if len(named) > 1 and hint.endswith(" nor by ".join(named)):
                named = _narrowed(fn, cases[done + 1 :], named)
                hint = f"a token belongs by its first character, not by {' nor by '.join(named)}"
            raise NotYet(
                f"tokens at {offsets.tolist()}, span {start}-{end}: expected "
                f"{rounded(expected)}, got {rounded(got)} ({hint})"
            )
    return len(cases)
