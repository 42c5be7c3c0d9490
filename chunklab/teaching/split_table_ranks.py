"""Companion 08b's section 2: what BM25 sees in the pieces of a table cut in two.

A table cut under a repeated header leaves pieces that share the header's words. Which piece BM25
ranks first then turns on length: a word weighs more in a shorter chunk. These two printers show
it for one question: each piece's size, whether it holds the header and the answer, the question's
words BM25 counts in it, and a chunk's score word by word (BM25's score is their sum). Two helpers
keep the bookkeeping out of the notebook: a table's lines alone, and a Word file's copy with its
stored title emptied (the s07 case).
"""

from __future__ import annotations

import re
import zipfile
from collections import Counter
from pathlib import Path

from chunklab.retrieval.retrievers import BM25Retriever
from chunklab.teaching.conversion_measures import words
from chunklab.tokens.counters import cl100k


def _plain(text: str) -> str:
    return " " + " ".join(words(text)) + " "


def show_pieces(label: str, pieces: list, rank: int, top: list, question: dict) -> None:
    """The table's pieces (chunks holding its header), the answer's rank, and BM25's top chunks."""
    sizes = [cl100k(c.text) for c in pieces]
    linked = any("https://www.gov.uk" in c.text for c in pieces)
    print(
        f"{label}: the table in {len(pieces)} chunk(s) of {sizes} tokens; the answer's ranked "
        f"{rank}; link address in the table: {linked}"
    )
    asked = BM25Retriever.tokens(question["question"])
    for place, c in enumerate(top, start=1):
        terms = BM25Retriever.tokens(c.text)  # the words BM25 counts; the question's among them
        holds = all(_plain(f) in _plain(c.text) for f in question["facts"])
        print(
            f"   rank {place}: {cl100k(c.text)} tokens, holds the header: {c in pieces}, "
            f"holds the answer: {holds}; BM25 counts {len(terms)} words, "
            f"the question's: {dict(Counter(w for w in terms if w in asked))}"
        )


def term_scores(chunks: list, chunk, question: str) -> dict[str, float]:
    """BM25's score of `chunk` among `chunks`, word by word of the question (their sum is its
    score); words that score nothing left out."""
    scores = {
        t: next(
            (
                h.score
                for h in BM25Retriever().rank(t, chunks, len(chunks))
                if h.ref_id == chunk.chunk_id
            ),
            0.0,
        )
        for t in BM25Retriever.tokens(question)
    }
    return {t: round(s, 2) for t, s in scores.items() if s}


def table_alone(text: str, header: str = "| Field | Value |") -> str:
    """The table's lines, from `header` to its last row: its size is counted apart from the
    breadcrumb and the text around it, to see which of them pushes a chunk past the budget."""
    lines = text[text.index(header) :].splitlines()
    return "\n".join(lines[: next(i for i, line in enumerate(lines) if not line.startswith("|"))])


def title_emptied(word_file: Path, folder: str) -> Path:
    """A copy of a Word file in `folder`, its stored title (``docProps/core.xml``) emptied, every
    other part as it was: the one change that tests whether the title in the properties carries
    an answer."""
    untitled = Path(folder) / word_file.name
    with zipfile.ZipFile(word_file) as original, zipfile.ZipFile(untitled, "w") as copy:
        for item in original.infolist():
            part = original.read(item)
            if item.filename == "docProps/core.xml":
                part = re.sub(rb"<dc:title>.*?</dc:title>", b"<dc:title></dc:title>", part)
            copy.writestr(item, part)
    return untitled
