"""`chunklab experiment`: the article's table (`--article`), or every strategy x retriever on a
folder of documents and a question file, printed as a table and written as rows and charts.

The charts need pandas and matplotlib (the `lab` extra), so `chunklab.teaching.report` is the one
import left inside a function: without the extra the command still says what is missing.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from types import ModuleType

from pydantic import ValidationError

from chunklab.cli.parser import UsageError, validation_message
from chunklab.contracts import Document
from chunklab.documents.files import find_documents, readable_suffixes
from chunklab.documents.reading import read_document
from chunklab.documents.series import load_document
from chunklab.evaluation import article, experiment
from chunklab.evaluation.questions import load_question_file, load_questions
from chunklab.retrieval.retrievers import RETRIEVERS


class FolderDocuments(Mapping[str, Document]):
    """The documents found in a folder by id, each read (and converted) when first asked for: an
    experiment reads only the documents its questions name, so a folder may hold others, even
    files that cannot be read, without stopping it."""

    def __init__(self, found: Sequence[tuple[str, Path]]) -> None:
        self._paths = dict(found)
        self._read: dict[str, Document] = {}

    def __getitem__(self, doc_id: str) -> Document:
        if doc_id not in self._read:
            self._read[doc_id] = read_document(self._paths[doc_id], doc_id)  # KeyError if not found
        return self._read[doc_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._paths)

    def __len__(self) -> int:
        return len(self._paths)


def run_experiment_command(args: argparse.Namespace) -> int:
    if args.k < 1:
        raise UsageError(f"--k must be at least 1, not {args.k}")
    if args.article:
        return print_article_table(args)
    names = check_experiment_flags(args)
    documents = FolderDocuments(find_documents([args.docs]).documents)
    if not documents:
        raise UsageError(f"{args.docs}: no documents ({readable_suffixes()}) found")
    questions = load_question_file(args.questions, documents)
    try:
        strategies = experiment.real_strategies(max_tokens=args.max_tokens)
    except ValidationError as exc:
        raise UsageError(validation_message(exc)) from None
    report = chart_module()
    ks = sorted({1, 3, 5, args.k})
    rows = experiment.run_experiment(
        documents, questions, strategies, {n: RETRIEVERS[n]() for n in names}, ks
    )
    print(experiment.format_summary(experiment.summarize(rows, args.k)))
    write_rows_and_charts(report, rows, args.k, Path(args.out))
    return 0


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
    names = [name.strip() for name in args.retrievers.split(",") if name.strip()]
    unknown = [n for n in names if n not in RETRIEVERS]
    if unknown or not names:
        raise UsageError(
            f"--retrievers: unknown {', '.join(unknown) or '(none given)'} "
            f"(known: {', '.join(RETRIEVERS)})"
        )
    return names


def chart_module() -> ModuleType:
    """`chunklab.teaching.report`, or a `UsageError` that names the missing extra."""
    try:  # the one import left in a function: the charts need the optional lab extra (pandas)
        from chunklab.teaching import report
    except ImportError:
        raise UsageError(
            "writing charts needs pandas and matplotlib: pip install -e '.[lab]'"
        ) from None
    return report


def write_rows_and_charts(report: ModuleType, rows: list[dict], k: int, out: Path) -> None:
    """rows.csv and the two charts (ranking vs content, ranking vs character IoU) into `out`."""
    out.mkdir(parents=True, exist_ok=True)
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
