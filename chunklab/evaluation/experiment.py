"""The experiment: strategies x retrievers x documents x questions, measured two ways.

*Ranking* asks whether the search got to the right place: one of the top k units overlaps the
question's gold evidence. *Content* asks whether what the model receives answers on its own:
one unit holds every fact (complete), the share of facts that arrived (fact recall), and how much
of the evidence, and of nothing else, the retrieved characters are (char recall / precision / IoU).
The article's claim is that chunking barely moves the first and moves the second a lot.

`run_experiment` is the general runner, deterministic; the article's section 8 table, with its
stub retriever, is `chunklab.evaluation.article`. Rows are plain dicts;
`chunklab.teaching.report.experiment_frame` makes the DataFrame.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from chunklab.chunkers.fixed import FixedSizeChunker
from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.chunkers.registry import build
from chunklab.chunkers.tables import orphans
from chunklab.contracts import Chunk, Document
from chunklab.evaluation.metrics import (
    answer_ids,
    bootstrap_interval,
    char_scores,
    coverage_at_k,
    reaches,
    reciprocal_rank,
    starts_mid_line,
    touches,
)
from chunklab.evaluation.questions import GoldQuestion
from chunklab.evaluation.recall import fact_recall
from chunklab.retrieval.retrievers import Retriever
from chunklab.tokens.counters import cl100k

# --- the general runner ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Prepared:
    """What a strategy made of one document: the units searched, and what each hands the model."""

    searched: list[Chunk]
    handed: Mapping[str, Chunk]  # searched chunk id -> the unit handed to the model


def plain(chunker) -> Callable[[Document], Prepared]:
    """A strategy that hands over the chunk it found."""

    def prepare(doc: Document) -> Prepared:
        chunks = chunker.split(doc)
        return Prepared(chunks, {c.chunk_id: c for c in chunks})

    return prepare


def small_to_big(chunker: MarkdownChunker) -> Callable[[Document], Prepared]:
    """Search MarkdownChunker's children, hand over their parent sections."""

    def prepare(doc: Document) -> Prepared:
        parents: dict[str | None, Chunk] = {p.chunk_id: p for p in chunker.parents(doc)}
        children = chunker.split(doc)
        return Prepared(children, {c.chunk_id: parents[c.parent_id] for c in children})

    return prepare


def real_strategies(max_tokens: int = 100) -> dict[str, Callable[[Document], Prepared]]:
    """The article's four, MarkdownChunker in both table modes with and without the path prefix,
    small-to-big, and semantic (WordLlama) with the relative default rule and with the article's
    fixed 0.6 threshold. Budgets: the article's 200 characters; `max_tokens` cl100k
    tokens for the others (100 tokens is about 400 characters of English)."""

    def md(table_mode: str, prefix: str) -> MarkdownChunker:
        chunker = build("markdown", max_tokens=max_tokens, table_mode=table_mode, prefix=prefix)
        return cast(MarkdownChunker, chunker)  # the registry's "markdown" builds one

    return {
        "fixed_size": plain(build("fixed", size=200, overlap=40)),
        "structural": plain(build("structural", size=200)),
        "structural+": plain(build("structural-repack", size=200)),
        "linearized": plain(build("linearized", size=200)),
        "markdown": plain(md("rows", "none")),
        "markdown+path": plain(md("rows", "path")),
        "markdown-lin": plain(md("linearize", "none")),
        "markdown-lin+path": plain(md("linearize", "path")),
        "small-to-big": small_to_big(md("rows", "path")),
        "semantic": plain(build("semantic", max_tokens=max_tokens)),
        "semantic@0.6": plain(
            build("semantic", breakpoint="threshold", threshold=0.6, max_tokens=max_tokens)
        ),
    }


SWEEP_SIZES = (50, 100, 200, 400)


def sweep_strategies(max_tokens: int) -> dict[str, Callable[[Document], Prepared]]:
    """The main strategies at one size, every budget in cl100k tokens: the fixed windows in tokens
    (overlapping by a fifth, as the article's 200/40), then `real_strategies`' own markdown+path,
    small-to-big and both semantic rules at that budget."""
    real = real_strategies(max_tokens)
    return {
        "fixed (tokens)": plain(
            FixedSizeChunker(size=max_tokens, overlap=max_tokens // 5, unit="tokens")
        ),
        **{
            name: real[name]
            for name in ("markdown+path", "small-to-big", "semantic", "semantic@0.6")
        },
    }


def size_sweep(
    documents: Mapping[str, Document],
    questions: Sequence[GoldQuestion],
    retriever: Retriever,
    sizes: Sequence[int] = SWEEP_SIZES,
    k: int = 3,
) -> list[dict]:
    """`summarize` rows of `sweep_strategies` at each size, with the size in each row: how content
    and cost move with the one number every chunker asks for."""
    out = []
    for size in sizes:
        rows = run_experiment(
            documents,
            questions,
            sweep_strategies(size),
            {"retriever": retriever},
            ks=(k,),
            progress=False,
        )
        out += [{**row, "size": size} for row in summarize(rows, k)]
    return out


def _handed(prepared: Prepared, ranked_ids: Sequence[str], k: int) -> list[Chunk]:
    """The distinct units handed over for the top k, in rank order."""
    out: list[Chunk] = []
    for ref in ranked_ids[:k]:
        unit = prepared.handed[ref]
        if all(u.chunk_id != unit.chunk_id for u in out):
            out.append(unit)
    return out


def _progress(done: int, total: int, enabled: bool) -> None:
    if enabled:
        sys.stderr.write(f"\rexperiment: {done}/{total} runs")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _merged_cut(
    prepare: Callable[[Document], Prepared], documents: Mapping[str, Document], group: list[str]
) -> tuple[Prepared, dict[str, dict[str, int]]]:
    """One search group's documents cut and merged into one index (a pooled run searches them
    together), with what each document's cut did: those counts repeat in every row of it."""
    parts = {d: prepare(documents[d]) for d in group}
    prepared = Prepared(
        [c for p in parts.values() for c in p.searched],
        {ref: unit for p in parts.values() for ref, unit in p.handed.items()},
    )
    cuts = {
        d: {
            "chunks": len(p.searched),
            "mid_line": starts_mid_line(p.searched, documents[d]),
            "orphans": orphans(p.searched, documents[d]),
        }
        for d, p in parts.items()
    }
    return prepared, cuts


def _measures(
    q: GoldQuestion, handed: list[Chunk], answers: set[str], gold: list[tuple[int, int]]
) -> dict:
    """What the units handed to the model are worth, measured both ways: did the search reach
    the evidence (reached, touched, rr), and does the context answer on its own (the rest)."""
    own = [u for u in handed if u.doc_id == q.document]  # offsets mean nothing elsewhere
    context = "\n\n".join(u.text for u in handed)
    handed_ids = [u.chunk_id for u in handed]
    return {
        "reached": float(any(reaches(u, gold) for u in own)),
        "touched": float(any(touches(u, gold) for u in own)),
        "complete": coverage_at_k(handed_ids, answers, len(handed_ids)),
        "rr": reciprocal_rank(handed_ids, answers),
        "answerable": float(bool(answers)),
        "fact_recall": fact_recall(context.lower(), [f.lower() for f in q.facts]),
        **char_scores([(u.start, u.end) for u in own], gold),
        "tokens_to_model": cl100k(context),
    }


def _measured_at_each_k(
    q: GoldQuestion,
    prepared: Prepared,
    answers: set[str],
    retriever: Retriever,
    ks: Sequence[int],
) -> list[tuple[int, dict]]:
    """(k, measures) for one question: searched once to the largest k, then read at each k, so
    every k of a row set comes from the same ranking."""
    ranked = [h.ref_id for h in retriever.rank(q.question, prepared.searched, max(ks))]
    gold = [(s.start, s.end) for s in q.gold]
    return [(k, _measures(q, _handed(prepared, ranked, k), answers, gold)) for k in ks]


def run_experiment(
    documents: Mapping[str, Document],
    questions: Sequence[GoldQuestion],
    strategies: Mapping[str, Callable[[Document], Prepared]],
    retrievers: Mapping[str, Retriever],
    ks: Sequence[int] = (1, 3, 5),
    progress: bool | None = None,
    pooled: bool = False,
) -> list[dict]:
    """One row per (strategy, retriever, k, question).

    Each question is searched within its own document, as behind a metadata filter; with
    `pooled`, within the chunks of every document asked about, as in one shared index (then a
    hit from another document reaches nothing). A progress line goes to stderr when it is a
    terminal (or with `progress=True`).
    """
    if progress is None:
        progress = sys.stderr.isatty()
    asked = sorted({q.document for q in questions})
    groups = [asked] if pooled else [[d] for d in asked]
    total, done = len(strategies) * len(groups) * len(retrievers), 0
    rows = []
    for strategy, prepare in strategies.items():
        for group in groups:
            prepared, cuts = _merged_cut(prepare, documents, group)
            mine = [q for q in questions if q.document in cuts]
            units = list({(u.doc_id, u.chunk_id): u for u in prepared.handed.values()}.values())
            answers = [answer_ids(units, q.facts) for q in mine]  # the same for every retriever
            for retriever_name, retriever in retrievers.items():
                labels = {"strategy": strategy, "retriever": retriever_name}
                for q, answered in zip(mine, answers, strict=True):
                    asked_of = {"document": q.document, "question": q.id, **cuts[q.document]}
                    for k, measures in _measured_at_each_k(q, prepared, answered, retriever, ks):
                        rows.append({**labels, "k": k, **asked_of, **measures})
                done += 1
                _progress(done, total, progress)
    return rows


# --- summaries ------------------------------------------------------------------------------------

MEASURES = (
    "reached",
    "touched",
    "complete",
    "rr",
    "fact_recall",
    "char_recall",
    "char_precision",
    "char_iou",
    "tokens_to_model",
)


def summarize(rows: Sequence[dict], k: int = 3) -> list[dict]:
    """Per (strategy, retriever) at one k: the means of the measures over questions, and the
    cut's totals over documents (chunks, orphans, chunks starting mid-line)."""
    groups: dict[tuple[str, str], list[dict]] = {}
    for row in rows:
        if row["k"] == k:
            groups.setdefault((row["strategy"], row["retriever"]), []).append(row)
    out = []
    for (strategy, retriever), members in groups.items():
        per_doc = {r["document"]: r for r in members}
        summary = {"strategy": strategy, "retriever": retriever, "k": k, "questions": len(members)}
        for measure in MEASURES:
            summary[measure] = round(
                sum(r[measure] for r in members) / len(members),
                2 if measure != "tokens_to_model" else 1,
            )
        # One question moves a mean by 1/n: the count and a bootstrap interval say how much is
        # noise.
        summary["complete_n"] = int(sum(r["complete"] for r in members))
        summary["complete_lo"], summary["complete_hi"] = (
            round(v, 2) for v in bootstrap_interval([r["complete"] for r in members])
        )
        for total in ("chunks", "orphans", "mid_line"):
            summary[total] = sum(r[total] for r in per_doc.values())
        out.append(summary)
    return out


def format_summary(summary: Sequence[dict]) -> str:
    """A plain-text table of `summarize`'s rows (no pandas needed)."""
    columns = [
        "strategy",
        "retriever",
        "chunks",
        "orphans",
        "mid_line",
        "reached",
        "complete",
        "complete_n",
        "rr",
        "fact_recall",
        "char_iou",
        "tokens_to_model",
    ]
    cells = [[str(r[c]) for c in columns] for r in summary]
    widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)).rstrip()]
    lines += [
        "  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip() for row in cells
    ]
    return "\n".join(lines)


# --- the decision (the article's section 10), with the evidence of this series --------------------

DECISIONS: list[dict[str, str]] = [
    {
        "document type": "running prose, no tables",
        "strategy": (
            "any structural cut within a token budget; semantic (relative rule) only if measured"
        ),
        "unit": "paragraph",
        "still breaks": "a paragraph that changes topic with no separator",
        "evidence": (
            "07, per document: on topics every cut is complete at k=3; "
            "04: the topic changes inside paragraphs"
        ),
    },
    {
        "document type": "manual, standard, contract",
        "strategy": (
            "headings made explicit, then sections cut within a token budget, "
            "heading path in the text"
        ),
        "unit": "section, then its blocks",
        "still breaks": "titles no parser can tell from list items",
        "evidence": (
            "07, per document: manual_md complete at k=3 is 1.0 for markdown+path, "
            "below it for structural+; 02: explicit headings"
        ),
    },
    {
        "document type": "documents with tables",
        "strategy": "rows split with the header repeated (or linearized), within the budget",
        "unit": "header + rows",
        "still breaks": "a table wider than the budget",
        "evidence": (
            "07: no orphans for linearized and every MarkdownChunker mode; "
            "05: orphans 1/4/1/0 on the manual"
        ),
    },
    {
        "document type": "code, logs, configuration",
        "strategy": "structural by line, more overlap (the article's; not measured here)",
        "unit": "function block",
        "still breaks": "a long function with a comment in the middle",
        "evidence": (
            "tests/test_markdown_chunker.py: a split code block re-opens its fence; "
            "no code questions in 07"
        ),
    },
    {
        "document type": "short form, FAQ entry, ticket",
        "strategy": "the whole document is the chunk",
        "unit": "document",
        "still breaks": "nothing: the case with no risk",
        "evidence": "(no measurement needed)",
    },
    {
        "document type": "PDF without a text layer",
        "strategy": "none: the cut does not matter",
        "unit": "-",
        "still breaks": "text extraction, which comes before the cut",
        "evidence": "(out of scope)",
    },
]
