"""Measuring what a cut did to a document, from the chunks' own offsets.

These need no retriever: they look at the chunks and the source text only, so they hold for any
search engine you later put in front of them.
"""

from __future__ import annotations

from collections.abc import Sequence

from chunklab.contracts import Chunk, Document


def starts_mid_line(chunks: Sequence[Chunk], doc: Document) -> int:
    """How many chunks begin where no line of the document begins.

    Uses `start`, so it is exact: the article's version compares first lines as strings, which
    is fooled by a fragment that happens to equal some other line.
    """
    return sum(1 for c in chunks if c.start > 0 and doc.text[c.start - 1] != "\n")


def line_spans(doc: Document) -> list[tuple[int, int]]:
    """(start, end) of every non-blank line of the document, end exclusive, newline excluded."""
    spans, pos = [], 0
    for line in doc.text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        if body.strip():
            spans.append((pos, pos + len(body)))
        pos += len(line)
    return spans


def split_lines(chunks: Sequence[Chunk], doc: Document) -> list[str]:
    """Non-blank lines of the document that no single chunk holds whole."""
    return [
        doc.text[a:b]
        for a, b in line_spans(doc)
        if not any(c.start <= a and b <= c.end for c in chunks)
    ]


def indexed_ratio(chunks: Sequence[Chunk], doc: Document) -> float:
    """Characters stored in chunks per character of the document: overlap's cost, as a factor."""
    return sum(len(c.text) for c in chunks) / max(1, len(doc.text))


def chunks_with_all(chunks: Sequence[Chunk], needles: Sequence[str]) -> list[int]:
    """Ordinals of the chunks that contain every needle (case-insensitive)."""
    wanted = [n.lower() for n in needles]
    return [c.ordinal for c in chunks if all(n in c.text.lower() for n in wanted)]


def boundary_scores(chunks: Sequence[Chunk], true_starts: Sequence[int]) -> dict[str, float]:
    """Precision and recall of the chunks' start offsets as topic boundaries (the start 0 excluded).

    A predicted boundary counts when it is exactly a true one: semantic cuts fall between
    sentences, and so do the recorded topic starts.
    """
    predicted = {c.start for c in chunks} - {0}
    truth = set(true_starts) - {0}
    hits = len(predicted & truth)
    return {
        "cuts": len(predicted),
        "precision": round(hits / len(predicted), 2) if predicted else 0.0,
        "recall": round(hits / len(truth), 2) if truth else 0.0,
    }


# --- retrieval: did the search reach the evidence, and does what it reached answer alone? -------


def has_facts(text: str, facts: Sequence[str]) -> bool:
    """All facts occur in the text, ignoring case (the article's test of a complete chunk)."""
    lowered = text.lower()
    return all(f.lower() in lowered for f in facts)


def answer_ids(chunks: Sequence[Chunk], facts: Sequence[str]) -> set[str]:
    """The overlap-tolerant gold set: every chunk holding all the facts (the article, section 11).

    With overlap, or a header repeated per row, several chunks can answer; any of them counts.
    """
    return {c.chunk_id for c in chunks if has_facts(c.text, facts)}


def coverage_at_k(ranked_ids: Sequence[str], gold: set[str], k: int) -> float:
    """1.0 if one of the first k results is in the gold set."""
    return 1.0 if any(r in gold for r in ranked_ids[:k]) else 0.0


def reciprocal_rank(ranked_ids: Sequence[str], gold: set[str]) -> float:
    """1 / the rank of the first gold result (0.0 if none): it ignores everything below that."""
    for position, ref in enumerate(ranked_ids, start=1):
        if ref in gold:
            return 1.0 / position
    return 0.0


def _merge(spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a, b in sorted(s for s in spans if s[1] > s[0]):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _length(spans: Sequence[tuple[int, int]]) -> int:
    return sum(b - a for a, b in spans)


def _intersection(x: Sequence[tuple[int, int]], y: Sequence[tuple[int, int]]) -> int:
    total, i, j = 0, 0, 0
    while i < len(x) and j < len(y):
        lo, hi = max(x[i][0], y[j][0]), min(x[i][1], y[j][1])
        total += max(0, hi - lo)
        if x[i][1] < y[j][1]:
            i += 1
        else:
            j += 1
    return total


def char_scores(
    retrieved: Sequence[tuple[int, int]], gold: Sequence[tuple[int, int]]
) -> dict[str, float]:
    """Recall, precision and IoU of the retrieved characters against the gold evidence.

    The measure of Chroma's "Evaluating Chunking Strategies for Retrieval", on characters of the
    document rather than tokens: a character retrieved twice (overlap) counts once, and a
    repeated header or a prefix, which is not a span of the document, counts nothing.
    """
    r, g = _merge(retrieved), _merge(gold)
    both = _intersection(r, g)
    union = _length(r) + _length(g) - both
    return {
        "char_recall": both / _length(g) if g else 0.0,
        "char_precision": both / _length(r) if r else 0.0,
        "char_iou": both / union if union else 0.0,
    }


# A hit reaches the evidence when it holds at least this share of the evidence's characters.
REACH_SHARE = 0.5


def touches(chunk: Chunk, gold: Sequence[tuple[int, int]]) -> bool:
    """The chunk's span overlaps some gold span by one character or more.

    Too weak to judge ranking by: a chunk that ends on the first letter of the evidence touches
    it. Kept to show how much the stricter `reaches` changes.
    """
    return any(chunk.start < b and a < chunk.end for a, b in gold)


def reaches(chunk: Chunk, gold: Sequence[tuple[int, int]], share: float = REACH_SHARE) -> bool:
    """The chunk's span holds at least `share` of the gold evidence's characters: the search got
    to the right place, not just next to it."""
    evidence = _merge(gold)
    total = _length(evidence)
    return total > 0 and _intersection([(chunk.start, chunk.end)], evidence) >= share * total


def bootstrap_interval(
    values: Sequence[float], rounds: int = 2000, level: float = 0.95, seed: int = 0
) -> tuple[float, float]:
    """A percentile bootstrap interval for the mean of `values` (resampled with a fixed seed, so
    the same values always give the same interval)."""
    import random

    if not values:
        return (0.0, 0.0)
    rng, n = random.Random(seed), len(values)
    means = sorted(sum(rng.choices(values, k=n)) / n for _ in range(rounds))
    tail = (1 - level) / 2
    return means[int(tail * rounds)], means[min(rounds - 1, int((1 - tail) * rounds))]
