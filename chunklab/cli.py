"""Command line: `chunk` (JSON lines of chunks), `index` and `search` (small-to-big over SQLite).

A user mistake (a missing file, bad UTF-8, an unknown strategy, a bad number) ends with exit code 2
and one line on stderr that names the problem. Tracebacks are for bugs, not for typos.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import ValidationError

from chunklab.contracts import Chunker
from chunklab.data import DocumentError, read_document
from chunklab.embeddings import EMBEDDERS, EmbedderUnavailable
from chunklab.fixed import FixedSizeChunker
from chunklab.index import (
    IndexFileError,
    ParentChildIndex,
    SQLiteStore,
    index_document,
    markdown_files,
)
from chunklab.markdown_chunker import MarkdownChunker
from chunklab.questions import QuestionFileError, load_question_file
from chunklab.retrievers import RETRIEVERS
from chunklab.semantic import SemanticChunker
from chunklab.structural import StructuralChunker
from chunklab.tables import LinearizedChunker
from chunklab.tokens import COUNTERS, TokenizerUnavailable, get_counter

USAGE_ERROR = 2


class UsageError(Exception):
    """A mistake in how chunklab was called; its message is printed as one line."""


class _Parser(argparse.ArgumentParser):
    # argparse prints the whole usage block before its message; one line is easier to read in CI.
    def error(self, message: str):  # type: ignore[override]
        raise UsageError(message)


def _fixed(args: argparse.Namespace) -> Chunker:
    options = {"size": args.size, "overlap": args.overlap, "unit": args.unit}
    if args.counter:
        options["count_tokens"] = get_counter(args.counter)
    return FixedSizeChunker(**options)


def _structural(repack: bool) -> Callable[[argparse.Namespace], Chunker]:
    def build(args: argparse.Namespace) -> Chunker:
        options = {"size": args.size, "repack": repack}
        if args.counter:
            options["count_tokens"] = get_counter(args.counter)
        return StructuralChunker(**options)

    return build


def _markdown(args: argparse.Namespace) -> Chunker:
    return MarkdownChunker(max_tokens=args.max_tokens, count_tokens=get_counter(args.counter or "cl100k"),
                           prefix=args.prefix or "path", table_mode=args.table_mode)


def _semantic(args: argparse.Namespace) -> Chunker:
    return SemanticChunker(embedder=EMBEDDERS[args.embedder](), unit=args.semantic_unit,
                           breakpoint=args.breakpoint, threshold=args.threshold, max_tokens=args.max_tokens)


# Strategy name -> builder from the parsed options. Later chunkers register here.
STRATEGIES: dict[str, Callable[[argparse.Namespace], Chunker]] = {
    "fixed": _fixed,
    "structural": _structural(repack=False),
    "structural-repack": _structural(repack=True),
    "markdown": _markdown,
    "semantic": _semantic,
    "linearized": lambda args: LinearizedChunker(size=args.size),
}


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="chunklab", description="Chunk documents for retrieval.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    chunk = commands.add_parser("chunk", help="split a file and print its chunks as JSON lines")
    chunk.add_argument("path", help="a UTF-8 text or Markdown file")
    chunk.add_argument("--strategy", choices=sorted(STRATEGIES), default="fixed")
    chunk.add_argument("--size", type=int, default=200, help="window or piece size (fixed, structural)")
    chunk.add_argument("--overlap", type=int, default=40, help="window overlap (fixed)")
    chunk.add_argument("--unit", choices=["chars", "tokens"], default="chars", help="(fixed)")
    chunk.add_argument("--max-tokens", type=int, default=200, help="hard token budget (markdown)")
    chunk.add_argument("--counter", choices=sorted(COUNTERS), help="token counter for token_count")
    chunk.add_argument("--prefix", choices=["path", "none", "context"],
                       help="what heads each chunk, inside the budget (markdown; default path)")
    chunk.add_argument("--table-mode", choices=["rows", "linearize", "whole"], default="rows", help="(markdown)")
    chunk.add_argument("--embedder", choices=sorted(EMBEDDERS), default="wordllama", help="(semantic)")
    chunk.add_argument("--semantic-unit", choices=["sentence", "line"], default="sentence", help="(semantic)")
    chunk.add_argument("--breakpoint", choices=["threshold", "percentile", "stdev"], default="threshold",
                       help="(semantic)")
    chunk.add_argument("--threshold", type=float, default=0.6, help="similarity below which to cut (semantic)")

    index = commands.add_parser("index", help="index Markdown files or folders into an SQLite file")
    index.add_argument("paths", nargs="+", help="Markdown files, or folders searched for *.md")
    index.add_argument("--db", required=True, help="the index file (created if missing)")
    index.add_argument("--tenant", default="default", help="the tenant these documents belong to")
    index.add_argument("--max-tokens", type=int, default=200, help="hard token budget of a child")

    experiment = commands.add_parser("experiment", help="compare strategies and retrievers on questions")
    experiment.add_argument("--article", action="store_true", help="print the article's table (the manual)")
    experiment.add_argument("--docs", help="a folder of Markdown files")
    experiment.add_argument("--questions", help="a YAML question file (see the README)")
    experiment.add_argument("--out", default="chunklab-experiment", help="folder for the rows (CSV) and charts (PNG)")
    experiment.add_argument("--retrievers", default="overlap,bm25,wordllama", help="comma-separated")
    experiment.add_argument("--k", type=int, default=3, help="the k of the printed table")
    experiment.add_argument("--max-tokens", type=int, default=100, help="budget of the token-based strategies")

    search = commands.add_parser("search", help="small-to-big search: matched children, their sections")
    search.add_argument("db", help="an index file made by `chunklab index`")
    search.add_argument("question")
    search.add_argument("--k", type=int, default=4, help="children to retrieve")
    search.add_argument("--parents", type=int, default=2, help="sections to hand over")
    search.add_argument("--tenant", default="default")
    search.add_argument("--retriever", choices=sorted(RETRIEVERS), default="bm25")
    search.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    return parser


def _progress(done: int, total: int, name: str) -> None:
    """A one-line progress bar on stderr, only when stderr is a terminal."""
    if not sys.stderr.isatty():
        return
    width = 30
    filled = width * done // max(1, total)
    end = "\n" if done == total else ""
    print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {name[:40]:<40}", end=end, file=sys.stderr)


def run_index(args: argparse.Namespace) -> int:
    try:
        chunker = MarkdownChunker(max_tokens=args.max_tokens)
    except ValidationError as exc:
        raise UsageError(_validation_message(exc)) from None
    files = markdown_files(args.paths)
    if not files:
        raise UsageError(f"no Markdown files found in {', '.join(args.paths)}")
    store = SQLiteStore(args.db)
    index = ParentChildIndex(store=store)
    children_total = 0
    for n, (doc_id, path) in enumerate(files, start=1):
        doc = read_document(path, doc_id=doc_id)
        doc = doc.model_copy(update={"metadata": {**doc.metadata, "tenant": args.tenant}})
        children = chunker.split(doc)
        index_document(index, chunker.parents(doc), children, tenant=args.tenant)
        children_total += len(children)
        _progress(n, len(files), doc_id)
    store.close()
    print(f"indexed {len(files)} documents, {children_total} children, tenant {args.tenant!r}, into {args.db}")
    return 0


def run_search(args: argparse.Namespace) -> int:
    if args.k <= 0 or args.parents <= 0:
        raise UsageError("--k and --parents must be at least 1")
    if not Path(args.db).is_file():
        raise UsageError(f"{args.db}: no such index file (make one with `chunklab index`)")
    index = ParentChildIndex(store=SQLiteStore(args.db), retriever=RETRIEVERS[args.retriever]())
    hits = index.search(args.question, k=args.k, tenant=args.tenant)
    parents = index.small_to_big(args.question, k=args.k, max_parents=args.parents, tenant=args.tenant)
    children = [index.store.child(args.tenant, h.ref_id) for h in hits]
    if args.json:
        out = {
            "question": args.question,
            "children": [{"chunk_id": c.chunk_id, "score": round(h.score, 4), "heading_path": list(c.heading_path)}
                         for c, h in zip(children, hits, strict=True)],
            "parents": [json.loads(p.model_dump_json()) for p in parents],
        }
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return 0
    if not hits:
        print("no matching children")
        return 0
    print("matched children:")
    for c, h in zip(children, hits, strict=True):
        print(f"  {h.score:7.3f}  {c.chunk_id}")
    for p in parents:
        print(f"\n=== {p.doc_id}: {' > '.join(p.heading_path) or '(no heading)'}  [{p.token_count} tokens]")
        print(p.text)
    return 0


def _validation_message(exc: ValidationError) -> str:
    error = exc.errors()[0]
    field = ".".join(str(part) for part in error["loc"]).replace("_", "-")
    message = error["msg"].removeprefix("Value error, ")
    return f"--{field}: {message}" if field else message


def run_chunk(args: argparse.Namespace) -> int:
    if args.prefix and args.strategy != "markdown":
        raise UsageError(f"--prefix applies to --strategy markdown only, not {args.strategy}")
    try:
        chunker = STRATEGIES[args.strategy](args)
    except ValidationError as exc:
        raise UsageError(_validation_message(exc)) from None
    doc = read_document(args.path)
    out = sys.stdout
    for chunk in chunker.split(doc):
        out.write(chunk.model_dump_json() + "\n")
    out.flush()
    return 0


def run_experiment_command(args: argparse.Namespace) -> int:
    from chunklab import experiment

    if args.article:
        if args.docs or args.questions:
            raise UsageError("--article runs on the series' manual; it takes no --docs or --questions")
        from chunklab.data import load_document, load_questions

        print(experiment.format_article_table(experiment.article_table(load_document("manual"), load_questions("manual"))))
        return 0
    if not (args.docs and args.questions):
        raise UsageError("give --article, or both --docs DIR and --questions FILE.yaml")
    if not Path(args.docs).is_dir():
        raise UsageError(f"{args.docs}: not a folder")
    names = [name.strip() for name in args.retrievers.split(",") if name.strip()]
    unknown = [n for n in names if n not in RETRIEVERS]
    if unknown or not names:
        raise UsageError(f"--retrievers: unknown {', '.join(unknown) or '(none given)'} (known: {', '.join(RETRIEVERS)})")
    documents = {doc_id: read_document(path, doc_id) for doc_id, path in markdown_files([args.docs])}
    if not documents:
        raise UsageError(f"{args.docs}: no Markdown files found")
    questions = load_question_file(args.questions, documents)
    try:
        strategies = experiment.real_strategies(max_tokens=args.max_tokens)
    except ValidationError as exc:
        raise UsageError(_validation_message(exc)) from None
    ks = sorted({1, 3, 5, args.k})
    rows = experiment.run_experiment(documents, questions, strategies, {n: RETRIEVERS[n]() for n in names}, ks)
    print(experiment.format_summary(experiment.summarize(rows, args.k)))
    try:
        from chunklab import report
    except ImportError:
        raise UsageError("writing charts needs pandas and matplotlib: pip install 'chunklab[lab]'") from None
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    report.experiment_frame(rows).to_csv(out / "rows.csv", index=False)
    summary = report.summary_frame(rows, args.k)
    report.save_figure(report.plot_ranking_vs_content(summary, f"ranking vs content at k={args.k}"),
                       out / "ranking_vs_content.png")
    report.save_figure(report.plot_ranking_vs_content(summary, f"ranking vs character IoU at k={args.k}", y="char_iou"),
                       out / "ranking_vs_iou.png")
    print(f"wrote {out}/rows.csv, ranking_vs_content.png, ranking_vs_iou.png")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        run = {"chunk": run_chunk, "index": run_index, "search": run_search,
               "experiment": run_experiment_command}[args.command]
        return run(args)
    except (UsageError, DocumentError, TokenizerUnavailable, IndexFileError, EmbedderUnavailable,
            QuestionFileError) as exc:
        print(f"chunklab: error: {exc}", file=sys.stderr)
        return USAGE_ERROR
    except BrokenPipeError:
        # `chunklab chunk big.md | head` closes the pipe early; that is not an error.
        sys.stderr.close()
        return 0
