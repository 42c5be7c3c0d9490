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
