"""Sectioned pages with their headings removed, the test a skeptic runs on a semantic cut: each
section's first character is a true topic start that nothing on the page marks any more, so a cut
there is found, not read off a heading; and the chance floor, as many cuts at random sentence
starts; and the skeptic's first cut, a chunk at every blank line (`BlankLines`), the baseline a
semantic cut must beat on such pages.

Used by notebook 04 (`BlankLines` as a retrieval baseline) and its companions 04c (a frozen
cut-off carried to a headless page) and 04d (where the cuts fall, and retrieval, on the headless
pages).
"""

from __future__ import annotations

import re
from math import comb
from typing import Any

import numpy as np

from chunklab.chunkers.fixed import FixedSizeChunker
from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.chunkers.semantic import SemanticChunker
from chunklab.contracts import Chunk, Document, span_chunks
from chunklab.documents.series import data_dir, list_documents, load_document
from chunklab.embeddings.static import WordLlamaEmbedder
from chunklab.evaluation.experiment import plain, run_experiment
from chunklab.evaluation.metrics import boundary_scores
from chunklab.evaluation.questions import load_question_file
from chunklab.retrieval.retrievers import BM25Retriever, DenseRetriever, Retriever
from chunklab.tokens.budget import SourceBudget
from chunklab.tokens.counters import cl100k
from chunklab.tokens.packing import SENTENCE_END, pack_spans, spans_between, word_spans

PARAGRAPH = re.compile(r"[^\n]+(?:\n[^\n]+)*")  # a run of non-blank lines


class BlankLines:
    """The skeptic's cut: a chunk at every blank line, no model; a paragraph over the budget is
    packed by sentences, then words, so it competes with other cuts at the same budget (a single
    word longer than the budget, such as a long URL, stays whole)."""

    def __init__(self, max_tokens: int = 100) -> None:
        self.max_tokens = max_tokens

    def split(self, doc: Document) -> list[Chunk]:
        text, most = doc.text, self.max_tokens
        budget, spans = SourceBudget(text, cl100k), []
        for m in PARAGRAPH.finditer(text):
            for a, b in pack_spans(spans_between(SENTENCE_END, text, *m.span()), most, budget):
                if cl100k(text[a:b]) <= most:
                    spans.append((a, b))
                else:  # a sentence over the budget: runs of words that fit
                    spans += pack_spans(word_spans(text, a, b), most, budget)
        return span_chunks(doc, [(a, b, cl100k(text[a:b])) for a, b in spans], "blank lines")


def without_headings(name: str) -> tuple[Document, list[int]]:
    """The document with its heading lines removed, and where each section's text now starts
    (the first non-blank character after the heading): the true starts a cut should find."""
    kept, starts, at = [], [], 0
    for line in load_document(name).text.splitlines(keepends=True):
        if re.match(r"#{1,6} ", line):
            starts.append(at)  # the section's text follows here
        else:
            kept.append(line)
            at += len(line)
    text = "".join(kept)
    section_starts = sorted({len(text) - len(text[s:].lstrip()) for s in starts} - {len(text)})
    page = Document(doc_id=f"{name}-headless", uri=f"urn:{name}-headless", title="", text=text)
    return page, section_starts


def highest_percentile_with(chunker: SemanticChunker, sims: np.ndarray, cuts: int) -> int:
    """The highest percentile at which `chunker` cuts at least `cuts` times on these
    similarities: the semantic cut made to cut as often as a baseline, so that hits compare."""
    return next(
        p
        for p in range(99, 0, -1)
        if len(chunker.model_copy(update={"percentile": p}).cuts(sims)) >= cuts
    )


def as_many_cuts(
    chunker: SemanticChunker, page: Document, section_starts: list[int], total: int
) -> dict[int, list[Chunk]]:
    """Every percentile at which `chunker` makes as many chunk starts (the budget's included) as
    the highest percentile making at least `total`, with its chunks. Found by halving: a lower
    percentile cuts a superset of gaps, which packs into no fewer chunks."""
    memo: dict[int, list[Chunk]] = {}

    def made(p: int) -> int:
        if p not in memo:
            memo[p] = chunker.model_copy(update={"percentile": p}).split(page)
        return int(boundary_scores(memo[p], section_starts)["cuts"])

    lo, hi = 1, 99  # the highest percentile making at least `total`
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if made(mid) >= total else (lo, mid - 1)
    count, low, high = made(lo), 1, lo  # the lowest percentile making no more than that
    while low < high:
        mid = (low + high) // 2
        low, high = (low, mid) if made(mid) <= count else (mid + 1, high)
    return {p: memo[p] for p in range(low, lo + 1) if made(p) == count}


def random_hits(
    units: list[tuple[int, int]],
    section_starts: list[int],
    cuts: int,
    draws: int = 10_000,
    seed: int = 0,
) -> np.ndarray:
    """Hits on section starts when `cuts` chunk starts are placed at random sentence starts, once
    per draw (seeded: the same floor in every process). A page opening with a blank line starts
    its first chunk after it, for every cut, random ones included."""
    opening = {units[0][0]} - {0}
    starts = np.array([a for a, _ in units[1:]])  # each gap opens the sentence after it
    order = np.random.default_rng(seed).random((draws, len(starts))).argsort(axis=1)
    picks = order[:, : cuts - len(opening)]
    return np.isin(starts[picks], section_starts).sum(axis=1) + len(opening & set(section_starts))


def _floor(
    units: list[tuple[int, int]], section_starts: list[int], chunks: list[Chunk], draws: int
) -> tuple[int, int, float]:
    """A cut's chunk starts, those on a section start, how often as many random ones match."""
    made = int(boundary_scores(chunks, section_starts)["cuts"])
    hits = round(boundary_scores(chunks, section_starts)["precision"] * made)
    drawn = random_hits(units, section_starts, made, draws)
    return made, hits, round(float((drawn >= hits).mean()), 3)


def headless_scores(
    names: list[str], draws: int = 10_000
) -> tuple[Any, dict[str, dict[str, tuple[int, int, float]]], dict[str, Any]]:
    """04d's section 1 in one table: per page (headings removed), three cuts (every blank line,
    WordLlama at percentile 80, WordLlama at the highest percentile cutting at least as often as
    the blank lines, counted as the floor counts them, the budget's cuts included), their scores
    against the section starts, and how often as many random cuts
    hit as many starts. Also, per page opening on a section start (a free hit for every cut), per
    cut, its cuts and hits without that start and their exact chance (`without_first_start`).
    And per page, every percentile at which WordLlama makes the matched count: its cuts, hits and
    random floor."""
    import pandas as pd

    rows: list[dict[str, Any]] = []
    notes: dict[str, dict[str, tuple[int, int, float]]] = {}
    band: dict[str, dict[int, tuple[int, int, float]]] = {}
    for name in names:
        page, section_starts = without_headings(name)
        blocks = [m.span() for m in PARAGRAPH.finditer(page.text)]
        wordllama = SemanticChunker(embedder=WordLlamaEmbedder())
        units, sims = wordllama.similarities(page)
        spans = [(a, b, cl100k(page.text[a:b])) for a, b in blocks]
        blank = span_chunks(page, spans, "paragraphs")
        total = int(boundary_scores(blank, section_starts)["cuts"])  # the count the floor draws
        same = as_many_cuts(wordllama, page, section_starts, total)
        top = max(same)
        cuts_by = {
            "paragraphs": (blank, len(blocks) - 1),
            "WordLlama, pct 80": (wordllama.split(page), len(wordllama.cuts(sims))),
            f"WordLlama, pct {top}, at least as many cuts": (
                same[top],
                len(wordllama.model_copy(update={"percentile": top}).cuts(sims)),
            ),
        }
        for cut, (chunks, own) in cuts_by.items():  # own: the rule's cuts, no budget, no page start
            scores = boundary_scores(chunks, section_starts)
            made = int(scores["cuts"])
            hits = round(scores["precision"] * made)
            drawn = random_hits(units, section_starts, made, draws)
            rows.append(
                {
                    "page, headings removed": name,
                    "cut": cut,
                    "rule's cuts": own,
                    **scores,
                    "cuts on a start": hits,
                    "random: mean": round(float(drawn.mean()), 1),
                    "random: as many": round(float((drawn >= hits).mean()), 3),
                }
            )
        band[name] = {p: _floor(units, section_starts, c, draws) for p, c in same.items()}
        if units[0][0] in set(section_starts) - {0}:
            notes[name] = {
                r["cut"]: without_first_start(
                    units, section_starts, r["cuts"], r["cuts on a start"]
                )
                for r in rows[-3:]
            }
    return pd.DataFrame(rows).set_index(["page, headings removed", "cut"]), notes, band


def without_first_start(
    units: list[tuple[int, int]], section_starts: list[int], cuts: int, hits: int
) -> tuple[int, int, float]:
    """A page opening on a section start gives every cut, random ones too, that start for free.
    Set it aside: the cut's other cuts and hits, and the exact chance (hypergeometric, no draws)
    that as many cuts at the other sentence starts hit at least as many section starts."""
    others = [a for a, _ in units[1:]]
    marked = len(set(others) & set(section_starts))
    made, hit = cuts - 1, hits - 1
    ways = sum(
        comb(marked, i) * comb(len(others) - marked, made - i)
        for i in range(hit, min(marked, made) + 1)
    )
    return hit, made, ways / comb(len(others), made)


def against_blank_lines(
    chunker: SemanticChunker, doc: Document, blank_lines: list[Chunk], truth: list[int]
) -> dict[str, Any]:
    """The semantic cut against a cut at every blank line, on a document with known topic starts:
    the true starts it gains (no blank line marks them) and loses (a blank line marks them), as
    it is and held to the blank lines' number of cuts (the highest percentile that cuts that
    often), with that copy's percentile and scores."""
    true_starts = set(truth) - {0}
    blank = {c.start for c in blank_lines} - {0}
    as_many = chunker.model_copy(
        update={
            "percentile": highest_percentile_with(
                chunker, chunker.similarities(doc)[1], len(blank_lines) - 1
            )
        }
    )
    out: dict[str, Any] = {
        "unmarked": sorted(true_starts - blank),
        "percentile": as_many.percentile,
    }
    for key, cut in (("", chunker), ("as many: ", as_many)):
        starts = {c.start for c in cut.split(doc)} - {0}
        out[key + "gained"] = sorted((starts - blank) & true_starts)
        out[key + "lost"] = sorted((blank - starts) & true_starts)
    out["as many: scores"] = boundary_scores(as_many.split(doc), truth)
    return out


def headless_retrieval(names: list[str]) -> tuple[Any, int]:
    """Notebook 04's section 4 run again on `names` with their headings removed: the same four cuts
    (WordLlama at percentile 80, markdown, fixed 100 tokens, blank lines) at a 100-token budget,
    under BM25 and WordLlama, at k = 1 and 3. One row per (strategy, retriever, k, question), and
    how many questions the pages have."""
    import pandas as pd

    everything = {name: load_document(name) for name in list_documents()}
    questions = load_question_file(data_dir() / "experiment.questions.yaml", everything)
    strategies = {
        "semantic": plain(
            SemanticChunker(embedder=WordLlamaEmbedder(), percentile=80, max_tokens=100)
        ),
        "markdown": plain(MarkdownChunker(max_tokens=100, table_mode="rows", prefix="none")),
        "fixed 100 tokens": plain(FixedSizeChunker(size=100, overlap=20, unit="tokens")),
        "blank lines": plain(BlankLines(max_tokens=100)),
    }
    pages = {name: without_headings(name)[0].model_copy(update={"doc_id": name}) for name in names}
    asked = [q for q in questions if q.document in pages]
    retrievers: dict[str, Retriever] = {"BM25": BM25Retriever(), "WordLlama": DenseRetriever()}
    runs = run_experiment(pages, asked, strategies, retrievers, ks=(1, 3))
    return pd.DataFrame(runs), len(asked)
