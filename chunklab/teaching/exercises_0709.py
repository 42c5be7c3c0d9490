"""Checks for the coding exercises of notebooks 07, 07b, 08 and 09: the learner's function on cases
it has not seen, and, when it is wrong, a hint that names the mistake.

Kept apart from `teaching.exercises` so that file stays small; registered in its `CHECKS`. Each
check knows the plausible wrong answers of its exercise (a rank counted from 0, overlapping spans
counted twice, the body size taken per line instead of per character, padding averaged in) and
says which one it recognised, because "expected 0.5, got 1.0" teaches less than "positions count
from 1". The expected values come from the library where it does the same thing, from the
exercise's rule where it does not.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

from chunklab.documents.convert import heading_levels
from chunklab.embeddings.late import TokenVectors, pool_spans
from chunklab.evaluation.metrics import char_scores, reciprocal_rank
from chunklab.teaching.checking import NotYet, close, rounded, short


def _is(got: Any, value: float) -> bool:
    return isinstance(got, int | float) and not isinstance(got, bool) and abs(got - value) < 1e-9


EMPTY = "an empty case is 0.0: say so before dividing"


def _call(fn: Callable, *args: Any, hint: str = EMPTY) -> Any:
    """The learner's answer for one case; a ZeroDivisionError becomes a hint, not a traceback."""
    try:
        return fn(*args)
    except ZeroDivisionError:
        raise NotYet(
            f"your function raised ZeroDivisionError on {short(args, 60)} ({hint})"
        ) from None


# --- 07.1: reciprocal rank ------------------------------------------------------------------------


def _rr_hint(ranked: list[str], gold: set[str], got: Any) -> str:
    positions = [n for n, ref in enumerate(ranked, start=1) if ref in gold]
    if not positions:
        return "no id is in gold, so the reciprocal rank is 0.0"
    first = positions[0]
    if first > 1 and _is(got, 1 / (first - 1)):
        return "positions count from 1: the first id has rank 1, the second 2"
    if len(positions) > 1 and _is(got, 1 / positions[-1]):
        return "use the first id that is in gold, not the last"
    if _is(got, len(positions) / len(ranked)) or _is(got, 1 / len(ranked)):
        return "it is 1 / the position of the first id in gold, not a share of the list"
    if got == 0 and first > 1:
        return "1 / position as a float (1/3 is 0.333...), not integer division"
    return f"the first id in gold is at position {first}"


def check_reciprocal_rank(fn: Callable) -> int:
    rng, cases = random.Random(7), 0
    ids = [f"d{k}" for k in range(12)]
    fixed = [(["d1", "d2", "d3"], {"d3"}), (["d1", "d2", "d3", "d4"], {"d2", "d4"}), ([], {"d1"})]
    randoms = [
        (rng.sample(ids, rng.randint(0, 8)), set(rng.sample(ids, rng.randint(0, 3))))
        for _ in range(40)
    ]
    for ranked, gold in fixed + randoms:
        hint = "positions count from 1; no id in gold is 0.0"
        got = _call(fn, list(ranked), set(gold), hint=hint)
        expected = reciprocal_rank(ranked, gold)
        if not _is(got, expected):
            raise NotYet(
                f"ranked {ranked}, gold {sorted(gold)}: expected {expected:.4g}, got {short(got)} "
                f"({_rr_hint(ranked, gold, got)})"
            )
        cases += 1
    return cases


# --- 07b.1: character IoU -------------------------------------------------------------------------


def _iou_hint(retrieved: list, gold: list, got: Any) -> str:
    scores = char_scores(retrieved, gold)
    recall = _is(got, scores["char_recall"]) and scores["char_recall"] != scores["char_iou"]
    precision = (
        _is(got, scores["char_precision"]) and scores["char_precision"] != scores["char_iou"]
    )
    if recall or precision:
        which = {
            (True, False): "the recall (shared / gold)",
            (False, True): "the precision (shared / retrieved)",
            (True, True): "the recall and the precision here",
        }
        return f"that is {which[recall, precision]}; IoU divides by the characters in either"
    shared = sum(max(0, min(b, d) - max(a, c)) for a, b in retrieved for c, d in gold)
    either = sum(b - a for a, b in retrieved) + sum(d - c for c, d in gold) - shared
    if either and _is(got, shared / either):
        return "a character retrieved twice counts once: merge overlapping spans first"
    return "shared characters / characters in either, each character counted once"


def _spans(rng: random.Random, n: int) -> list[tuple[int, int]]:
    out = []
    for _ in range(n):
        a = rng.randint(0, 40)
        out.append((a, a + rng.randint(1, 12)))
    return out


def check_char_iou(fn: Callable) -> int:
    rng, cases = random.Random(70), 0
    fixed = [([], []), ([(0, 10)], []), ([(0, 10), (5, 15)], [(0, 15)])]
    fixed += [([(0, 4)], [(2, 6), (2, 6)])]  # a gold span listed twice
    randoms = [(_spans(rng, rng.randint(0, 4)), _spans(rng, rng.randint(0, 3))) for _ in range(60)]
    for retrieved, gold in fixed + randoms:
        got = _call(fn, list(retrieved), list(gold))
        expected = char_scores(retrieved, gold)["char_iou"]
        if not _is(got, expected):
            raise NotYet(
                f"retrieved {retrieved}, gold {gold}: expected {expected:.4g}, got {short(got)} "
                f"({_iou_hint(retrieved, gold, got)})"
            )
        cases += 1
    return cases


# --- 08.1: a PDF page's lines as Markdown ------------------------------------------------------


def _render(lines: list[tuple[float, str]], levels: dict[float, int], join: bool = True) -> str:
    blocks: list[str] = []
    paragraph: list[str] = []
    for size, text in lines:
        if size in levels:
            blocks += [" ".join(paragraph)] if paragraph else []
            blocks.append("#" * levels[size] + " " + text)
            paragraph = []
        elif join:
            paragraph.append(text)
        else:
            blocks.append(text)
    blocks += [" ".join(paragraph)] if paragraph else []
    return "\n\n".join(blocks)


def lines_as_markdown(lines: list[tuple[float, str]]) -> str:
    """The exercise's rule: sizes weighed per character; headings by `heading_levels`; runs of body
    lines joined by a space into one paragraph; blocks separated by a blank line."""
    return _render(lines, heading_levels([size for size, text in lines for _ in text]))


def _page(rng: random.Random) -> list[tuple[float, str]]:
    """Short heading lines in few sizes, longer body lines: counted per line, a heading size can be
    the most common; counted per character, the body's always is."""
    body = rng.choice([9.0, 10.0, 11.0, 12.0])
    heads = sorted(rng.sample([13.0, 14.0, 16.0, 18.0, 20.0, 24.0, 28.0, 32.0], rng.randint(1, 7)))
    words = "the per diem covers meals lodging is paid against receipts up to a cap".split()
    lines = []
    for _ in range(rng.randint(2, 7)):
        for _ in range(rng.randint(1, 3)):
            lines.append((rng.choice(heads), rng.choice(["Scope", "Booking", "Per diem", "Notes"])))
        for _ in range(rng.randint(1, 3)):
            lines.append((body, " ".join(rng.choices(words, k=rng.randint(8, 14)))))
    return lines


def _md_hint(lines: list[tuple[float, str]], got: Any) -> str:
    levels = heading_levels([size for size, text in lines for _ in text])
    if got == _render(lines, heading_levels([size for size, _ in lines])):
        return "the body's size is the most common per character: weigh each line by its length"
    if got == _render(lines, levels, join=False):
        return "consecutive body lines are one paragraph, joined by a single space"
    if got == _render(lines, {size: min(6, level + 1) for size, level in levels.items()}):
        return "the largest heading size is level 1 (one #), the next level 2"
    return "headings as '#' * level + ' ' + text, paragraphs, one blank line between blocks"


def check_lines_as_markdown(fn: Callable) -> int:
    rng, cases = random.Random(8), 0
    crowded = [(14.0, "Scope"), (14.0, "Booking"), (14.0, "Notes"), (10.0, "the per diem " * 6)]
    for lines in [crowded * 2] + [_page(rng) for _ in range(40)]:
        got, expected = fn(list(lines)), lines_as_markdown(lines)
        if got != expected:
            raise NotYet(
                f"{len(lines)} lines, sizes {sorted({s for s, _ in lines})}: expected "
                f"{short(expected, 70)}, got {short(got, 70)} ({_md_hint(lines, got)})"
            )
        cases += 1
    return cases


# --- 09.1 and 09.2: pooling token vectors -------------------------------------------------------


def _unit(x: np.ndarray) -> np.ndarray:
    return x / np.linalg.norm(x, axis=-1, keepdims=True)


def _masked(vectors: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """The mean of each text's vectors where `keep` is 1 (NaN for a text with none kept)."""
    weights = keep.astype(np.float64)[..., None]
    with np.errstate(invalid="ignore", divide="ignore"):
        return (vectors * weights).sum(axis=1) / weights.sum(axis=1)


def _mean_hint(vectors: np.ndarray, mask: np.ndarray, got: Any) -> str:
    """Name the slip: each plausible wrong mean is computed here and compared with `got`."""
    try:
        got = np.asarray(got, dtype=np.float64)
    except (TypeError, ValueError):
        return "an array of shape (texts, dimensions)"
    lengths = mask.sum(axis=1)
    positions = np.arange(mask.shape[1])[None, :]
    slips = [
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
        (_masked(vectors, 1 - mask), "the mask is read backwards: 1 marks a real token, 0 padding"),
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
    ]
    for wrong, hint in slips:
        for form in (wrong, _unit(wrong)):
            if got.shape == form.shape and np.allclose(got, form, atol=1e-5, equal_nan=True):
                return hint
    return "the mean of each text's real tokens, not scaled"


def check_masked_mean(fn: Callable) -> int:
    rng, cases = np.random.default_rng(9), 0
    for _ in range(30):
        texts, tokens, dim = (int(n) for n in rng.integers(1, 6, size=3) * (1, 3, 2))
        vectors = rng.normal(size=(texts, tokens, dim)).astype(np.float32)
        lengths = rng.integers(1, tokens + 1, size=texts)
        lengths[0] = max(1, tokens - 1) if tokens > 1 else 1  # padding in the first text
        mask = (np.arange(tokens)[None, :] < lengths[:, None]).astype(np.int64)
        expected = _masked(vectors.astype(np.float64), mask)  # the pooling's mean, before scaling
        got = fn(vectors.copy(), mask.copy())
        if not close(got, expected):
            hint = _mean_hint(vectors.astype(np.float64), mask, got)
            raise NotYet(
                f"{texts} texts of {tokens} positions, real tokens {lengths.tolist()}: expected "
                f"{rounded(expected)}, got {rounded(got)} ({hint})"
            )
        cases += 1
    return cases


def _pool_hint(offsets: np.ndarray, vectors: np.ndarray, start: int, end: int, got: Any) -> str:
    def pooled(keep: np.ndarray) -> np.ndarray:
        return _unit(vectors[keep].mean(axis=0)) if keep.any() else np.zeros(vectors.shape[1])

    if close(got, pooled((offsets[:, 0] >= start) & (offsets[:, 0] <= end))):
        return "end is excluded: a token starting at end belongs to the next chunk"
    if close(got, pooled((offsets[:, 1] > start) & (offsets[:, 0] < end))):
        return "a token belongs by its first character, not by any overlap"
    inside = (offsets[:, 0] >= start) & (offsets[:, 0] < end)
    if inside.any() and close(got, vectors[inside].mean(axis=0)):
        return "scale the mean to length 1"
    return "the tokens whose first character is in start <= position < end; zeros if none"


def check_pool_span(fn: Callable) -> int:
    rng, cases = np.random.default_rng(10), 0
    for _ in range(40):
        n, dim = int(rng.integers(1, 9)), int(rng.integers(2, 5))
        widths, gaps = rng.integers(1, 5, size=n), rng.integers(0, 2, size=n)
        starts = np.cumsum(gaps + np.concatenate([[0], widths[:-1]]))
        offsets = np.stack([starts, starts + widths], axis=1)
        vectors = rng.normal(size=(n, dim)).astype(np.float32)
        inner = [int(a) + 1 for a, b in offsets if b - a > 1]  # inside a token: overlap != start
        points = [int(p) for p in offsets.ravel()] + inner + [int(offsets[-1, 1]) + 2]
        start, end = sorted(int(p) for p in rng.choice(points, size=2))
        expected = pool_spans(TokenVectors(vectors, offsets), [(start, end)])[0].astype(np.float64)
        got = fn(offsets.copy(), vectors.copy(), start, end)
        if not close(got, expected):
            hint = _pool_hint(offsets, vectors.astype(np.float64), start, end, got)
            raise NotYet(
                f"tokens at {offsets.tolist()}, span {start}-{end}: expected "
                f"{rounded(expected)}, got {rounded(got)} ({hint})"
            )
        cases += 1
    return cases


CHECKS_0709: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "07.1": ("reciprocal_rank(ranked_ids, gold) -> float", check_reciprocal_rank),
    "07b.1": ("char_iou(retrieved, gold) -> float", check_char_iou),
    "08.1": ("lines_as_markdown(lines) -> str", check_lines_as_markdown),
    "09.1": ("masked_mean(vectors, mask) -> array (texts, dimensions)", check_masked_mean),
    "09.2": ("pool_span(offsets, vectors, start, end) -> array (dimensions,)", check_pool_span),
}
