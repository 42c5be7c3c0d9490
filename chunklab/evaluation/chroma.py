"""Chroma's chunking benchmark: its corpora, its questions, where chunks lie, its four metrics.

A port of the evaluation in `brandonstarxel/chunking_evaluation` (@d451fc4, MIT, (c) 2024 Brandon
Smith; `evaluation_framework/base_evaluation.py` and `utils.py`), the code of the technical report
"Evaluating Chunking Strategies for Retrieval" (Smith & Troynikov, Chroma, July 2024). The data
is `data/chroma/` (sources and hashes in its SOURCES.md). What their code does, kept exactly:

- **Where a chunk lies** (`locate`, their `rigorous_document_search`): a final "." is dropped
  from the chunk's text, then the *first* occurrence in the corpus is taken (so equal chunks
  share one position); failing that, the words matched with any whitespace between them, case
  ignored. (Their last resort, a fuzzy match of single sentences, is not ported: it needs a
  98/100 match with one sentence and finds nothing for a chunk of many; `locate` raises instead,
  as their evaluation does when it finds nothing.)
- **Spans** are half-open (start, end) pairs; two spans meet if `max(starts) <= min(ends)`, so
  a chunk that only touches an excerpt counts as meeting it (with an empty intersection).
- **Recall**: excerpt characters inside the retrieved chunks of the question's corpus (the union
  of the intersections) over the summed lengths of the excerpts.
- **Precision**: the same numerator over the summed lengths of *all* k retrieved chunks, those
  of other corpora included (they add to the denominator only).
- **IoU**: the same numerator over that sum plus the excerpt characters no chunk reached.
- **Precision-Ω**: the precision the best retriever could get from this cut: over *every* chunk of
  the question's corpus that meets an excerpt, the excerpt characters they cover over the union
  of those chunks and the excerpt characters none covers. It needs no retrieval at all.

Each is a per-question score; the report's figures are means over the 472 questions (x 100).
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from chunklab.documents.series import data_dir

Span = tuple[int, int]
CORPORA = ("state_of_the_union", "wikitexts", "finance", "chatlogs", "pubmed")  # as questions list


def chroma_dir() -> Path:
    """The benchmark's folder: `data/chroma/` of the series' data (`documents.series.data_dir`)."""
    return data_dir() / "chroma"


@dataclass(frozen=True)
class Question:
    """One benchmark question: its text, its corpus, its excerpts' spans in that corpus."""

    text: str
    corpus: str
    excerpts: tuple[Span, ...]


@dataclass(frozen=True)
class Located:
    """A chunk's text and where the evaluation says it lies: `corpus[start:end]`."""

    text: str
    corpus: str
    start: int
    end: int


def load_corpora(folder: Path | None = None) -> dict[str, str]:
    """corpus id -> its text, in the order the questions name them (their `corpus_list`)."""
    folder = folder or chroma_dir()
    return {c: (folder / f"{c}.md").read_text(encoding="utf-8") for c in CORPORA}


def load_questions(folder: Path | None = None) -> list[Question]:
    """The 472 questions of `questions_df.csv`, in the file's order (their `questions_df`)."""
    path = (folder or chroma_dir()) / "questions_df.csv"
    with path.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    return [
        Question(
            text=row["question"],
            corpus=row["corpus_id"],
            excerpts=tuple(
                (int(r["start_index"]), int(r["end_index"])) for r in json.loads(row["references"])
            ),
        )
        for row in rows
    ]


class NotFound(ValueError):
    """A chunk's text is nowhere in its corpus, even with whitespace ignored."""


def locate(corpus: str, chunk: str) -> Span:
    """Where `chunk` lies in `corpus`, found as their `rigorous_document_search` finds it."""
    target = chunk[:-1] if chunk.endswith(".") else chunk
    at = corpus.find(target)
    if at >= 0:
        return at, at + len(target)
    words = re.sub(r"\s+", " ", target).strip().split()
    match = re.compile(r"\s*".join(re.escape(w) for w in words), re.IGNORECASE).search(corpus)
    if match is None:
        raise NotFound(f"chunk not found in its corpus: {chunk[:80]!r}")
    return match.start(), match.end()


def locate_all(corpus_id: str, corpus: str, chunks: Iterable[str]) -> list[Located]:
    """Every chunk of one corpus with its position."""
    return [Located(c, corpus_id, *locate(corpus, c)) for c in chunks]


# --- span arithmetic, as their base_evaluation.py does it --------------------------------------


def total(spans: Iterable[Span]) -> int:
    """Summed lengths (their `sum_of_ranges`); overlapping spans count twice."""
    return sum(b - a for a, b in spans)


def union(spans: Iterable[Span]) -> list[Span]:
    """Spans merged where they overlap or touch (their `union_ranges`), sorted."""
    merged: list[Span] = []
    for a, b in sorted(spans, key=lambda s: s[0]):
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def intersect(x: Span, y: Span) -> Span | None:
    """The common part, possibly empty when they only touch; None when they are apart."""
    a, b = max(x[0], y[0]), min(x[1], y[1])
    return (a, b) if a <= b else None


def subtract(spans: Iterable[Span], cut: Span) -> list[Span]:
    """`spans` less `cut` (their `difference`, its boundary cases included)."""
    out: list[Span] = []
    c, d = cut
    for a, b in spans:
        if b < c or a > d:
            out.append((a, b))
        elif a < c and b > d:
            out.extend([(a, c), (d, b)])
        elif a < c:
            out.append((a, c))
        elif b > d:
            out.append((d, b))
    return out


@dataclass
class Coverage:
    """What a set of chunks did to one question's excerpts."""

    covered: list[Span]  # union of the excerpt parts inside the chunks
    chunks: list[Span]  # union of the chunks that met an excerpt
    unreached: list[Span]  # excerpt parts no chunk met
    met: bool  # some chunk met some excerpt (their `numerator_sets` not empty)


def coverage(question: Question, chunks: Iterable[Located]) -> Coverage:
    """The chunks of the question's corpus against its excerpts, chunk by chunk in order."""
    covered: list[Span] = []
    met_chunks: list[Span] = []
    unreached = list(question.excerpts)
    met = False
    for chunk in chunks:
        if chunk.corpus != question.corpus:
            continue
        for excerpt in question.excerpts:
            common = intersect((chunk.start, chunk.end), excerpt)
            if common is None:
                continue
            met = True
            unreached = subtract(unreached, common)
            covered = union([common, *covered])
            met_chunks = union([(chunk.start, chunk.end), *met_chunks])
    return Coverage(covered, met_chunks, unreached, met)


def precision_omega(question: Question, chunks: Sequence[Located]) -> float:
    """Their `_full_precision_score` for one question: every chunk of the cut is a candidate."""
    cover = coverage(question, chunks)
    if not cover.met:
        return 0.0
    return total(cover.covered) / total(union(cover.chunks + cover.unreached))


@dataclass(frozen=True)
class Scores:
    """One question's scores from its retrieved chunks."""

    recall: float
    precision: float
    iou: float


def retrieval_scores(question: Question, retrieved: Sequence[Located]) -> Scores:
    """Their `_scores_from_dataset_and_retrievals` for one question's top k."""
    cover = coverage(question, retrieved)
    found = total(cover.covered)
    retrieved_chars = total((c.start, c.end) for c in retrieved)
    return Scores(
        recall=found / total(question.excerpts),
        # nothing retrieved (a lexical retriever that finds no word of the question): 0, where
        # their code, which always retrieves k, would divide by zero
        precision=found / retrieved_chars if retrieved_chars else 0.0,
        iou=found / (retrieved_chars + total(cover.unreached)),
    )
