"""`chunklab experiment`: the article's table (`--article`), or every strategy x retriever on a
folder of documents and a question file, printed as a table and written as rows and charts.

A document that cannot be read, converted or chunked (for whatever reason) is named in one line on
stderr and left out with its questions, for every strategy, so all are measured on the same
questions; the table is printed for the rest, and the exit code is 2.

The table needs only the base install. The charts need pandas and matplotlib (the `lab` extra), so
`chunklab.teaching.report` is the one import left inside a function: without the extra the table
and rows.csv are still written, and one line says the charts were not and how to get them.
"""

from __future__ import annotations

import argparse
import csv
import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

from pydantic import ValidationError

from chunklab.cli.parser import USAGE_ERROR, UsageError, validation_message
from chunklab.cli.terminal import warn, warn_cut
from chunklab.contracts import Document
from chunklab.documents.files import DocumentError, find_documents, readable_suffixes
from chunklab.documents.reading import read_document
from chunklab.documents.series import load_document
from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.evaluation import article, experiment
from chunklab.evaluation.questions import (
    GoldQuestion,
    SkippedDocument,
    load_question_file,
    load_questions,
)
from chunklab.retrieval.ingest import failure
from chunklab.retrieval.retrievers import (
    RETRIEVERS,
    DenseRetriever,
    HybridRetriever,
    make_retriever,
)

LAB_HINT = "pip install -e '.[lab]' in the chunklab folder"
Strategies = Mapping[str, Callable[[Document], experiment.Prepared]]


class FolderDocuments(Mapping[str, Document]):
    """The documents found in a folder by id, each read (and converted) when first asked for: an
    experiment reads only the documents its questions name, so a folder may hold others, even
    files that cannot be read, without stopping it. A document asked for that cannot be read is
    named once on stderr, kept in `skipped` (id -> the one-line reason), and raises
    `SkippedDocument` (its questions are left out)."""

    def __init__(self, found: Sequence[tuple[str, Path]]) -> None:
        self._paths = dict(found)
        self._read: dict[str, Document] = {}
        self.skipped: dict[str, str] = {}

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._paths  # found, whether or not it reads

    def __getitem__(self, doc_id: str) -> Document:
        if doc_id in self.skipped:
            raise SkippedDocument(self.skipped[doc_id])
        if doc_id not in self._read:
            path = self._paths[doc_id]  # KeyError if not found
            try:
                self._read[doc_id] = read_document(path, doc_id)
            except DocumentError as exc:
                raise self.skip(doc_id, str(exc)) from None
            except (Exception, RecursionError, MemoryError) as exc:  # a converter's failure
                raise self.skip(doc_id, f"{path}: could not be converted: {failure(exc)}") from None
        return self._read[doc_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._paths)

    def __len__(self) -> int:
        return len(self._paths)

    def path(self, doc_id: str) -> Path:
        return self._paths[doc_id]

    def skip(self, doc_id: str, reason: str) -> SkippedDocument:
        """Leave a document out, named once on stderr; the exception for the caller to raise."""
        if doc_id not in self.skipped:
            self.skipped[doc_id] = reason
            warn(f"skipped {reason}")
        return SkippedDocument(reason)


def run_experiment_command(args: argparse.Namespace) -> int:
    if args.k < 1:
        raise UsageError(f"--k must be at least 1, not {args.k}")
    if args.article:
        return print_article_table(args)
    names = check_experiment_flags(args)
    documents = FolderDocuments(find_documents([args.docs]).documents)
    if not documents:
        raise UsageError(f"{args.docs}: no documents ({readable_suffixes()}) found")
    left_out: list[str] = []  # questions about documents that could not be read
    questions = load_question_file(args.questions, documents, left_out)
    try:
        strategies = experiment.real_strategies(max_tokens=args.max_tokens)
    except ValidationError as exc:
        raise UsageError(validation_message(exc)) from None
    strategies = cut_in_advance(strategies, documents, questions)
    kept = [q for q in questions if q.document not in documents.skipped]
    left = len(left_out) + len(questions) - len(kept)
    if not kept:
        warn("no question left to measure: every document asked about was skipped (named above)")
        return USAGE_ERROR
    ks = sorted({1, 3, 5, args.k})
    retrievers = {n: make_retriever(n, args.embedder) for n in names}
    warn_minilm_cut(retrievers, strategies, documents, kept)
    rows = experiment.run_experiment(documents, kept, strategies, retrievers, ks)
    print(experiment.format_summary(experiment.summarize(rows, args.k)))
    write_rows_and_charts(rows, args.k, Path(args.out))
    if documents.skipped:
        warn(
            f"{len(documents.skipped)} document(s) skipped (named above); "
            f"{left} question(s) about them left out of the table"
        )
        return USAGE_ERROR
    return 0


def cut_in_advance(
    strategies: Strategies, documents: FolderDocuments, questions: Sequence[GoldQuestion]
) -> dict[str, Callable[[Document], experiment.Prepared]]:
    """Every strategy's cut of every document asked about, made before anything is measured: a
    document some chunker fails on is skipped (named once) for every strategy, so all strategies
    are measured on the same questions. The strategies returned hand out these cuts."""
    cuts: dict[tuple[str, str], experiment.Prepared] = {}
    for doc_id in sorted({q.document for q in questions}):
        for name, prepare in strategies.items():
            try:
                cuts[name, doc_id] = prepare(documents[doc_id])
            except (Exception, RecursionError, MemoryError) as exc:
                where = documents.path(doc_id)
                documents.skip(doc_id, f"{where}: could not be chunked ({name}): {failure(exc)}")
                break
    return {name: functools.partial(_cut_made, cuts, name) for name in strategies}


def warn_minilm_cut(
    retrievers: Mapping[str, object],
    strategies: Mapping[str, Callable[[Document], experiment.Prepared]],
    documents: FolderDocuments,
    questions: Sequence[GoldQuestion],
) -> None:
    """One line when a retriever ranks with MiniLM and some searched chunks (of any strategy) are
    longer than it reads: counted from the word pieces, before the model runs."""
    dense = [r.dense if isinstance(r, HybridRetriever) else r for r in retrievers.values()]
    minilm = next(
        (r.embedder for r in dense if isinstance(r, DenseRetriever) and r.name == "minilm"), None
    )
    if not isinstance(minilm, MiniLMEmbedder):
        return
    texts = list(
        dict.fromkeys(
            chunk.text
            for doc_id in sorted({q.document for q in questions})
            for prepare in strategies.values()
            for chunk in prepare(documents[doc_id]).searched
        )
    )
    remedy = "a smaller --max-tokens cuts the token strategies' chunks shorter"
    warn_cut(minilm.cut(texts), minilm.name, minilm.max_tokens, remedy)


def _cut_made(
    cuts: Mapping[tuple[str, str], experiment.Prepared], name: str, doc: Document
) -> experiment.Prepared:
    return cuts[name, doc.doc_id]


def print_article_table(args: argparse.Namespace) -> int:
    """`--article`: the article's table on the series' manual and its questions."""
    if args.docs or args.questions:
        raise UsageError("--article runs on the series' manual; it takes no --docs or --questions")
    print(
        article.format_article_table(
            article.article_table(load_document("manual"), load_questions("manual"))
        )
    )
    return 0


def check_experiment_flags(args: argparse.Namespace) -> list[str]:
    """`--docs`, `--questions`, `--out` and `--retrievers` checked before any work; the names of
    the retrievers to compare."""
    if not (args.docs and args.questions):
        raise UsageError("give --article, or both --docs DIR and --questions FILE.yaml")
    if not Path(args.docs).is_dir():
        raise UsageError(f"{args.docs}: not a folder")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {args.out}: is a file; give a folder for rows.csv and the charts")
    given = args.retrievers or f"overlap,bm25,{args.embedder}"
    names = [name.strip() for name in given.split(",") if name.strip()]
    unknown = [n for n in names if n not in RETRIEVERS]
    if unknown or not names:
        raise UsageError(
            f"--retrievers: unknown {', '.join(unknown) or '(none given)'} "
            f"(known: {', '.join(RETRIEVERS)})"
        )
    return names


def write_rows_and_charts(rows: list[dict], k: int, out: Path) -> None:
    """rows.csv and the two charts (ranking vs content, ranking vs character IoU) into `out`;
    without the lab extra, rows.csv alone and one line on stderr saying what is missing."""
    out.mkdir(parents=True, exist_ok=True)
    try:  # the one import left in a function: the charts need the optional lab extra (pandas)
        from chunklab.teaching import report
    except ImportError as exc:
        write_rows(rows, out / "rows.csv")
        print(f"wrote {out}/rows.csv")
        missing = (exc.name or "pandas or matplotlib").split(".")[0]
        warn(
            f"charts not written: they need pandas and matplotlib ({missing} is not installed); "
            f"for ranking_vs_content.png and ranking_vs_iou.png, {LAB_HINT}"
        )
        return
    report.experiment_frame(rows).to_csv(out / "rows.csv", index=False)
    summary = report.summary_frame(rows, k)
    report.save_figure(
        report.plot_ranking_vs_content(summary, f"ranking vs content at k={k}"),
        out / "ranking_vs_content.png",
    )
    report.save_figure(
        report.plot_ranking_vs_content(summary, f"ranking vs character IoU at k={k}", y="char_iou"),
        out / "ranking_vs_iou.png",
    )
    print(f"wrote {out}/rows.csv, ranking_vs_content.png, ranking_vs_iou.png")


def write_rows(rows: Sequence[dict], path: Path) -> None:
    """The rows as CSV without pandas: one column per key, in the order the rows first have them."""
    columns = list(dict.fromkeys(key for row in rows for key in row))
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)
