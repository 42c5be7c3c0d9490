"""Command line: `chunk` (JSON lines of chunks), `index`, `search` and `tenants` (small-to-big over
SQLite), `experiment` (strategies x retrievers on your questions).

A user mistake (a missing file, bad UTF-8, an unknown strategy, a bad number, a flag the chosen
strategy would ignore) ends with exit code 2 and one line on stderr that names the problem.
Tracebacks are for bugs, not for typos.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from chunklab.chunkers.registry import DEFAULT_STRATEGY, OPTIONS, STRATEGIES, UnknownOption, used_by
from chunklab.contracts import Chunker, Document
from chunklab.documents.files import DocumentError, find_documents, readable_suffixes
from chunklab.documents.reading import read_document
from chunklab.documents.series import load_document
from chunklab.embeddings.static import EmbedderUnavailable
from chunklab.evaluation import experiment
from chunklab.evaluation.questions import QuestionFileError, load_question_file, load_questions
from chunklab.retrieval import ingest
from chunklab.retrieval.index import ParentChildIndex, index_document
from chunklab.retrieval.retrievers import RETRIEVERS, search_terms
from chunklab.retrieval.sqlite_store import IndexFileError, SQLiteStore
from chunklab.tokens.counters import TokenizerUnavailable
from chunklab.version import __version__

USAGE_ERROR = 2


class UsageError(Exception):
    """A mistake in how chunklab was called; its message is printed as one line."""


class _Parser(argparse.ArgumentParser):
    # argparse prints the whole usage block before its message; one line is easier to read in CI.
    def error(self, message: str):  # type: ignore[override]
        raise UsageError(message)


class _Help(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    """Help that shows each option's default and keeps the examples' line breaks."""


# --- chunk and index: the strategies of the registry and the options each one reads -------------


def _strategy_options(args: argparse.Namespace) -> dict[str, Any]:
    """The strategy options the user gave (flags left out fall back to `OPTIONS`' defaults in
    `Strategy.build`); a flag the chosen strategy does not read is an error."""
    given = {name: getattr(args, name) for name in OPTIONS if hasattr(args, name)}
    ignored = [name for name in given if name not in STRATEGIES[args.strategy].options]
    if ignored:  # the registry's own message: which strategies do read it
        try:
            STRATEGIES[args.strategy].build(**{ignored[0]: given[ignored[0]]})
        except UnknownOption as exc:
            raise UsageError(str(exc)) from None
    if args.strategy == "semantic":
        rule = given.get("breakpoint", OPTIONS["breakpoint"].default)
        for flag in ("threshold", "percentile"):
            if flag in given and rule != flag:
                raise UsageError(f"--{flag} applies to --breakpoint {flag} only, not {rule}")
    return given


def _build_chunker(args: argparse.Namespace) -> Chunker:
    """The chosen strategy's chunker; a bad value is one line (pydantic names the field)."""
    try:
        return STRATEGIES[args.strategy].build(**_strategy_options(args))
    except ValidationError as exc:
        raise UsageError(_validation_message(exc)) from None


def _add_strategy_options(parser: argparse.ArgumentParser) -> None:
    """`--strategy` and every option of `OPTIONS`, each saying which strategies read it. They are
    parsed with no default, so a flag the user gave can be told from one left out."""
    parser.add_argument(
        "--strategy",
        choices=list(STRATEGIES),
        default=DEFAULT_STRATEGY,
        help="how to cut: " + "; ".join(f"{s.name}: {s.help}" for s in STRATEGIES.values()),
    )
    for name, option in OPTIONS.items():
        shown = (
            f"; default {option.default}"
            if option.default is not None
            else "; default: the strategy's own"
        )
        parser.add_argument(
            "--" + name.replace("_", "-"),
            default=argparse.SUPPRESS,
            type=option.type,
            choices=option.choices,
            help=f"{option.help} ({used_by(name)}{shown})",
        )


# --- the parser ------------------------------------------------------------------------------

EXAMPLES = {
    "chunk": """examples:
  chunklab chunk handbook.md               # markdown: breadcrumb + blocks, 200 tokens
  chunklab chunk data/manual.md --strategy fixed --size 200 --overlap 40""",
    "index": """example:
  chunklab index docs/ --db team.sqlite --tenant platform --max-tokens 200""",
    "search": """example:
  chunklab search team.sqlite "How do I rotate the API keys?" \\
      --tenant platform --k 4 --parents 2""",
    "tenants": """example:
  chunklab tenants team.sqlite""",
    "experiment": """examples:
  chunklab experiment --article
  chunklab experiment --docs docs/ --questions questions.yaml --out results/ \\
      --retrievers bm25,wordllama""",
}


def build_parser() -> argparse.ArgumentParser:
    """The `chunklab` parser: one subcommand per entry of `ARGUMENTS`, each with its example."""
    parser = _Parser(
        prog="chunklab",
        formatter_class=_Help,
        description="Chunk documents for retrieval without losing the answer.",
        epilog="Run `chunklab COMMAND --help` for a command's options and an example.",
    )
    parser.add_argument("--version", action="version", version=f"chunklab {__version__}")
    commands = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    for name, (help, add_arguments) in ARGUMENTS.items():
        add_arguments(
            commands.add_parser(
                name, help=help, description=help, epilog=EXAMPLES[name], formatter_class=_Help
            )
        )
    return parser


def _chunk_arguments(chunk: argparse.ArgumentParser) -> None:
    chunk.add_argument(
        "path",
        help="a UTF-8 text or Markdown file, or an HTML, Word (.docx) or PDF file, converted",
    )
    chunk.add_argument(
        "--show-markdown",
        action="store_true",
        help="print the Markdown the chunker reads (what an HTML, Word or PDF file became) "
        "and stop",
    )
    _add_strategy_options(chunk)


def _index_arguments(index: argparse.ArgumentParser) -> None:
    index.add_argument(
        "paths", nargs="+", help=f"files, or folders searched for documents ({readable_suffixes()})"
    )
    index.add_argument("--db", required=True, help="the index file (created if missing)")
    index.add_argument("--tenant", default="default", help="the tenant these documents belong to")
    _add_strategy_options(index)
    index.add_argument(
        "--follow-links",
        action="store_true",
        help="also index files that symbolic links inside a folder lead to outside it",
    )
    index.add_argument(
        "--workers",
        type=int,
        default=None,
        help="read, chunk and embed on N local processes (Dask; the dask extra)",
    )
    index.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="read, chunk and embed on the Dask cluster at ADDRESS (tcp://host:8786); "
        "its workers must see the files at the same paths",
    )
    index.add_argument(
        "--prune",
        action="store_true",
        help="remove this tenant's documents whose files under PATHS are gone",
    )


def _search_arguments(search: argparse.ArgumentParser) -> None:
    search.add_argument("db", help="an index file made by `chunklab index`")
    search.add_argument("question", help="what to search for, in plain words")
    search.add_argument("--k", type=int, default=4, help="children to retrieve")
    search.add_argument("--parents", type=int, default=2, help="sections to hand over")
    search.add_argument("--tenant", default="default", help="whose documents to search")
    search.add_argument(
        "--retriever", choices=sorted(RETRIEVERS), default="bm25", help="how to rank the children"
    )
    search.add_argument("--json", action="store_true", help="print one JSON object instead of text")


def _tenants_arguments(tenants: argparse.ArgumentParser) -> None:
    tenants.add_argument("db", help="an index file made by `chunklab index`")


def _experiment_arguments(experiment: argparse.ArgumentParser) -> None:
    experiment.add_argument(
        "--article", action="store_true", help="print the article's table (the manual)"
    )
    experiment.add_argument(
        "--docs",
        help=f"a folder of documents ({readable_suffixes()}; HTML, Word and PDF converted)",
    )
    experiment.add_argument("--questions", help="a YAML question file (see the README)")
    experiment.add_argument(
        "--out", default="chunklab-experiment", help="folder for the rows (CSV) and charts (PNG)"
    )
    experiment.add_argument(
        "--retrievers", default="overlap,bm25,wordllama", help="comma-separated"
    )
    experiment.add_argument("--k", type=int, default=3, help="the k of the printed table")
    experiment.add_argument(
        "--max-tokens",
        type=int,
        default=100,
        help="budget of the token-based strategies (markdown, markdown+path, markdown-lin, "
        "markdown-lin+path, small-to-big, semantic)",
    )


# Subcommand -> (one line of help, what adds its arguments). The order is the order of `--help`.
ARGUMENTS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]] = {
    "chunk": ("split a file and print its chunks as JSON lines", _chunk_arguments),
    "index": (
        "index Markdown, text, HTML, Word and PDF files or folders into an SQLite file",
        _index_arguments,
    ),
    "search": ("small-to-big search: matched children, their sections", _search_arguments),
    "tenants": (
        "list an index's tenants with their document, section and chunk counts",
        _tenants_arguments,
    ),
    "experiment": ("compare strategies and retrievers on questions", _experiment_arguments),
}


# --- the commands ----------------------------------------------------------------------------


def _validation_message(exc: ValidationError) -> str:
    error = exc.errors()[0]
    field = ".".join(str(part) for part in error["loc"]).replace("_", "-")
    message = error["msg"].removeprefix("Value error, ")
    return f"--{field}: {message}" if field else message


def _progress(done: int, total: int, name: str) -> None:
    """A one-line progress bar on stderr, only when stderr is a terminal."""
    if not sys.stderr.isatty():
        return
    width = 30
    filled = width * done // max(1, total)
    end = "\n" if done == total else ""
    print(
        f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {name[:40]:<40}",
        end=end,
        file=sys.stderr,
    )


def _warn(message: str) -> None:
    if sys.stderr.isatty():
        print("\r\033[K", end="", file=sys.stderr)  # clear a progress bar first
    print(f"chunklab: {message}", file=sys.stderr)


def run_chunk(args: argparse.Namespace) -> int:
    chunker = _build_chunker(args)
    doc = read_document(args.path)
    out = sys.stdout
    if args.show_markdown:  # chunk spans refer to this text
        out.write(doc.text)
        out.flush()
        return 0
    # Written as they come: a long document's chunks are never all in memory at once.
    streamed = getattr(chunker, "iter_chunks", None)  # chunkers that can yield as they cut
    chunks = streamed(doc) if streamed else chunker.split(doc)
    for chunk in chunks:
        out.write(chunk.model_dump_json() + "\n")
    out.flush()
    return 0


def run_index(args: argparse.Namespace) -> int:
    _build_chunker(args)  # a bad option is said before any work
    if args.workers is not None and args.workers < 1:
        raise UsageError("--workers must be at least 1")
    if args.workers is not None and args.scheduler is not None:
        raise UsageError(
            "--workers starts a local cluster, --scheduler uses an existing one: give one of them"
        )
    found = find_documents(args.paths, follow_links=args.follow_links)
    if not found.documents:
        raise UsageError(f"no documents ({readable_suffixes()}) found in {', '.join(args.paths)}")
    created = not Path(args.db).exists()
    store = SQLiteStore(args.db)
    index = ParentChildIndex(store=store)
    known = store.documents_fingerprints(args.tenant)
    children_total = indexed = unchanged = 0
    skipped: list[str] = []
    # Read, chunk and embed here or on Dask workers; write here, one document per transaction,
    # in the order the documents were found, so the file is the same however it was computed.
    try:
        results = ingest.prepared(
            found.documents,
            known,
            args.strategy,
            _strategy_options(args),
            args.tenant,
            workers=args.workers,
            scheduler=args.scheduler,
        )
        for n, ready in enumerate(results, start=1):
            if ready.error:
                skipped.append(ready.path)
                _warn(f"skipped {ready.error}")  # the message names the file and the problem
            elif ready.unchanged:
                unchanged += (
                    1  # same text, same settings, same chunklab: its rows are already right
                )
            else:
                index_document(
                    index,
                    ready.parents,
                    ready.children,
                    tenant=args.tenant,
                    doc_id=ready.doc_id,
                    fingerprint=ready.fingerprint,
                    source=str(Path(ready.path).resolve()),
                    vectors={
                        c.chunk_id: v for c, v in zip(ready.children, ready.vectors, strict=True)
                    },
                )
                children_total += len(ready.children)
                indexed += 1
            _progress(n, len(found.documents), ready.doc_id)
    except ingest.DaskUnavailable as exc:
        store.close()
        if created:  # nothing was indexed: leave no empty index file behind
            for leftover in (args.db, f"{args.db}-wal", f"{args.db}-shm"):
                Path(leftover).unlink(missing_ok=True)
        raise UsageError(str(exc)) from None
    pruned = _prune(store, args) if args.prune else 0
    store.close()
    passed_over = [f"{n} {suffix or '(no extension)'}" for suffix, n in found.other_types.items()]
    if found.hidden:
        passed_over.append(f"{found.hidden} hidden")
    if passed_over:
        count = sum(found.other_types.values()) + found.hidden
        _warn(
            f"not indexed (not a document type chunklab reads): {count} files: "
            f"{', '.join(passed_over)}"
        )
    if found.outside:
        _warn(
            f"not indexed: {found.outside} link(s) to files outside the folder "
            "(--follow-links indexes them)"
        )
    print(
        f"indexed {indexed} documents, {children_total} children, tenant {args.tenant!r}, "
        f"into {args.db}"
        + (f"; {unchanged} unchanged, skipped" if unchanged else "")
        + (f"; {pruned} removed (--prune)" if pruned else "")
    )
    if skipped:
        _warn(f"{len(skipped)} file(s) could not be read and were skipped (named above)")
        return USAGE_ERROR
    return 0


def _prune(store: SQLiteStore, args: argparse.Namespace) -> int:
    """Remove the tenant's documents indexed from under PATHS whose file is no longer there."""
    roots = [Path(p).resolve() for p in args.paths]
    gone = [
        doc_id
        for doc_id, source in store.documents(args.tenant).items()
        if source
        and any(Path(source) == root or root in Path(source).parents for root in roots)
        and not Path(source).is_file()
    ]
    for doc_id in gone:
        store.remove_document(args.tenant, doc_id)
    return len(gone)


def _open_index(db: str) -> SQLiteStore:
    if not Path(db).is_file():
        raise UsageError(f"{db}: no such index file (make one with `chunklab index`)")
    return SQLiteStore(db, read_only=True)  # a read command never creates or changes the file


def run_search(args: argparse.Namespace) -> int:
    if args.k <= 0 or args.parents <= 0:
        raise UsageError("--k and --parents must be at least 1")
    if not search_terms(args.question):
        raise UsageError(
            f"the question {args.question!r} has no word to search for "
            "(only blanks, punctuation or stop words)"
        )
    store = _open_index(args.db)
    if not store.has_tenant(args.tenant):
        tenants = [t.tenant for t in store.tenants()]
        raise UsageError(
            f"{args.db}: tenant {args.tenant!r} has no documents; the index holds "
            f"{', '.join(repr(t) for t in tenants) or 'no tenant at all'} (see `chunklab tenants`)"
        )
    index = ParentChildIndex(store=store, retriever=RETRIEVERS[args.retriever]())
    hits = index.search(args.question, k=args.k, tenant=args.tenant)
    parents = index.parents_of(hits, max_parents=args.parents, tenant=args.tenant)
    children = [store.child(args.tenant, h.ref_id) for h in hits]
    if args.json:
        out = {
            "question": args.question,
            "children": [
                {
                    "chunk_id": c.chunk_id,
                    "score": round(h.score, 4),
                    "heading_path": list(c.heading_path),
                }
                for c, h in zip(children, hits, strict=True)
            ],
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
        print(
            f"\n=== {p.doc_id}: {' > '.join(p.heading_path) or '(no heading)'}  "
            f"[{p.token_count} tokens]"
        )
        print(p.text)
    return 0


def run_tenants(args: argparse.Namespace) -> int:
    rows = _open_index(args.db).tenants()
    if not rows:
        print(f"{args.db}: no tenants (nothing indexed yet)")
        return 0
    width = max(len("tenant"), *(len(r.tenant) for r in rows))
    print(f"{'tenant':<{width}}  documents  sections  chunks")
    for r in rows:
        print(f"{r.tenant:<{width}}  {r.documents:>9}  {r.parents:>8}  {r.children:>6}")
    return 0


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
        if args.docs or args.questions:
            raise UsageError(
                "--article runs on the series' manual; it takes no --docs or --questions"
            )
        print(
            experiment.format_article_table(
                experiment.article_table(load_document("manual"), load_questions("manual"))
            )
        )
        return 0
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
    documents = FolderDocuments(find_documents([args.docs]).documents)
    if not documents:
        raise UsageError(f"{args.docs}: no documents ({readable_suffixes()}) found")
    questions = load_question_file(args.questions, documents)
    try:
        strategies = experiment.real_strategies(max_tokens=args.max_tokens)
    except ValidationError as exc:
        raise UsageError(_validation_message(exc)) from None
    try:  # the one import left in a function: the charts need the optional lab extra (pandas)
        from chunklab.teaching import report
    except ImportError:
        raise UsageError(
            "writing charts needs pandas and matplotlib: pip install -e '.[lab]'"
        ) from None
    ks = sorted({1, 3, 5, args.k})
    rows = experiment.run_experiment(
        documents, questions, strategies, {n: RETRIEVERS[n]() for n in names}, ks
    )
    print(experiment.format_summary(experiment.summarize(rows, args.k)))
    out.mkdir(parents=True, exist_ok=True)
    report.experiment_frame(rows).to_csv(out / "rows.csv", index=False)
    summary = report.summary_frame(rows, args.k)
    report.save_figure(
        report.plot_ranking_vs_content(summary, f"ranking vs content at k={args.k}"),
        out / "ranking_vs_content.png",
    )
    report.save_figure(
        report.plot_ranking_vs_content(
            summary, f"ranking vs character IoU at k={args.k}", y="char_iou"
        ),
        out / "ranking_vs_iou.png",
    )
    print(f"wrote {out}/rows.csv, ranking_vs_content.png, ranking_vs_iou.png")
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "chunk": run_chunk,
    "index": run_index,
    "search": run_search,
    "tenants": run_tenants,
    "experiment": run_experiment_command,
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:  # bare `chunklab`: say what it can do
            parser.print_help()
            return 0
        return COMMANDS[args.command](args)
    except (
        UsageError,
        DocumentError,
        TokenizerUnavailable,
        IndexFileError,
        EmbedderUnavailable,
        QuestionFileError,
    ) as exc:
        print(f"chunklab: error: {exc}", file=sys.stderr)
        return USAGE_ERROR
    except sqlite3.Error as exc:  # the index file failed under us (locked, read-only, disk full)
        print(f"chunklab: error: {getattr(args, 'db', 'the index file')}: {exc}", file=sys.stderr)
        return USAGE_ERROR
    except BrokenPipeError:
        # `chunklab chunk big.md | head` closes the pipe early; that is not an error.
        sys.stderr.close()
        return 0
