"""The `chunklab` argument parser: each command's arguments and example, the strategy options the
registry declares, and `UsageError`, the one-line mistake that ends in exit code 2."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from chunklab.chunkers.registry import DEFAULT_STRATEGY, OPTIONS, STRATEGIES, UnknownOption, used_by
from chunklab.cli.benchmarking import EXAMPLE as BENCHMARK_EXAMPLE
from chunklab.cli.benchmarking import add_benchmark_arguments
from chunklab.cli.formats import FORMAT_HELP, FORMATS
from chunklab.contracts import Chunker
from chunklab.documents.files import SOURCE_SUFFIXES, readable_suffixes
from chunklab.embeddings.registry import DEFAULT_DENSE, DENSE_EMBEDDERS
from chunklab.retrieval.retrievers import RETRIEVERS
from chunklab.retrieval.small_to_big import DEFAULT_PARENT_TOKENS
from chunklab.version import __version__

USAGE_ERROR = 2
STDIN_FORMATS = ("markdown", "html", "docx", "pdf")  # what `chunk -` may be told standard input is


class UsageError(Exception):
    """A mistake in how chunklab was called; its message is printed as one line."""


class _Parser(argparse.ArgumentParser):
    # argparse prints the whole usage block before its message; one line is easier to read in CI.
    def error(self, message: str):
        raise UsageError(message)


class _Help(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    """Help that shows each option's default and keeps the examples' line breaks."""


def validation_message(exc: ValidationError) -> str:
    """pydantic's first error as one line, named by its flag (`--max-tokens: ...`)."""
    error = exc.errors()[0]
    field = ".".join(str(part) for part in error["loc"]).replace("_", "-")
    message = error["msg"].removeprefix("Value error, ")
    return f"--{field}: {message}" if field else message


# --- chunk and index: the strategies of the registry and the options each one reads -------------


def strategy_options(args: argparse.Namespace) -> dict[str, Any]:
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


def build_chunker(args: argparse.Namespace) -> Chunker:
    """The chosen strategy's chunker; a bad value is one line (pydantic names the field)."""
    try:
        return STRATEGIES[args.strategy].build(**strategy_options(args))
    except ValidationError as exc:
        raise UsageError(validation_message(exc)) from None


def add_strategy_options(parser: argparse.ArgumentParser, skip: tuple[str, ...] = ()) -> None:
    """`--strategy` and every option of `OPTIONS` but `skip`, each saying which strategies read
    it. They are parsed with no default, so a flag the user gave can be told from one left out."""
    parser.add_argument(
        "--strategy",
        choices=list(STRATEGIES),
        default=DEFAULT_STRATEGY,
        help="how to cut: " + "; ".join(f"{s.name}: {s.help}" for s in STRATEGIES.values()),
    )
    for name, option in OPTIONS.items():
        if name in skip:
            continue
        shown = (
            f"; default {option.default}"
            if option.default is not None
            else "; default: the strategy's own"
        )
        parser.add_argument(
            "--" + name.replace("_", "-"),
            default=argparse.SUPPRESS,
            # None is argparse's own default for `type`; typeshed's stub leaves it out.
            type=option.type,  # type: ignore[arg-type]
            choices=option.choices,
            help=f"{option.help} ({used_by(name)}{shown})",
        )


# --- an encrypted PDF's password ------------------------------------------------------------

PASSWORD_VARIABLE = "CHUNKLAB_PDF_PASSWORD"


def add_password_option(parser: argparse.ArgumentParser) -> None:
    """`--password`, for encrypted PDFs; the variable `PASSWORD_VARIABLE` when it is not given
    (read in `pdf_password`, never as the flag's default: help would print it)."""
    parser.add_argument(
        "--password",
        default=None,
        help=f"the password of encrypted PDFs (default: the {PASSWORD_VARIABLE} variable, "
        "which other users of the machine cannot read in the process list); never printed",
    )


def pdf_password(args: argparse.Namespace) -> str | None:
    """The password `--password` or `PASSWORD_VARIABLE` gives; None when neither does."""
    return getattr(args, "password", None) or os.environ.get(PASSWORD_VARIABLE) or None


# --- the parser ------------------------------------------------------------------------------

EXAMPLES = {
    "chunk": """examples:
  chunklab chunk handbook.md               # markdown: breadcrumb + blocks, 200 tokens
  chunklab chunk data/manual.md --strategy fixed --size 200 --overlap 40
  chunklab chunk docs/ notes.md            # every document of docs/, then notes.md
  git show HEAD:README.md | chunklab chunk -    # standard input, read as Markdown
  chunklab chunk data/manual.md --format parquet > manual.parquet   # the parquet extra
  chunklab chunk src/app.py --strategy code   # cut between functions, scope as breadcrumb""",
    "index": """example:
  chunklab index docs/ --db team.sqlite --tenant platform --max-tokens 200
  chunklab index docs/ --db team-minilm.sqlite --tenant platform --embedder minilm \\
      --counter minilm --max-tokens 256     # MiniLM's vectors, chunks it reads whole
  chunklab index src/ --db code.sqlite --strategy code   # a source tree, cut by syntax""",
    "search": """example:
  chunklab search team.sqlite "How do I rotate the API keys?" \\
      --tenant platform --k 4 --parents 2""",
    "tenants": """example:
  chunklab tenants team.sqlite""",
    "experiment": """examples:
  chunklab experiment --article
  chunklab experiment --docs docs/ --questions questions.yaml --out results/ \\
      --retrievers bm25,wordllama""",
    "benchmark": BENCHMARK_EXAMPLE,
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
        "paths",
        nargs="+",
        metavar="path",
        help="files (UTF-8 text or Markdown; HTML, Word (.docx) and PDF converted), folders "
        f"searched for documents ({readable_suffixes()}; with --strategy code, for source files: "
        f"{readable_suffixes(SOURCE_SUFFIXES)}), or - for standard input; the chunks of each "
        "document in turn",
    )
    chunk.add_argument(
        "--stdin-format",
        choices=STDIN_FORMATS,
        default=None,
        help="what - (standard input) holds (default: a PDF, Word file or HTML page when its "
        "first bytes say so, else Markdown in UTF-8)",
    )
    chunk.add_argument(
        "--show-markdown",
        action="store_true",
        help="print the Markdown the chunker reads (what an HTML, Word or PDF file became) "
        "and stop; one document only",
    )
    chunk.add_argument("--format", choices=FORMATS, default=argparse.SUPPRESS, help=FORMAT_HELP)
    add_password_option(chunk)
    add_strategy_options(chunk)


def _index_arguments(index: argparse.ArgumentParser) -> None:
    index.add_argument(
        "paths",
        nargs="+",
        help=f"files, or folders searched for documents ({readable_suffixes()}; with --strategy "
        f"code, for source files: {readable_suffixes(SOURCE_SUFFIXES)})",
    )
    index.add_argument("--db", required=True, help="the index file (created if missing)")
    index.add_argument("--tenant", default="default", help="the tenant these documents belong to")
    add_strategy_options(index, skip=("embedder",))
    index.add_argument(
        "--embedder",
        dest="index_embedder",
        choices=DENSE_EMBEDDERS,
        default=None,
        help="the model that embeds the chunks; an index file keeps one model's vectors "
        f"(default: the file's, {DEFAULT_DENSE} for a new file); with --strategy semantic it also "
        "finds the cuts",
    )
    index.add_argument(
        "--parent-tokens",
        type=int,
        default=DEFAULT_PARENT_TOKENS,
        help="the most a parent hands over, in the tokens of the counter that counts the parents "
        "(--counter for markdown, cl100k for the others): a longer section, a document without "
        "headings, is handed over as the window of its children around the hit",
    )
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
    add_password_option(index)
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
        "--retriever",
        choices=sorted(RETRIEVERS),
        default="bm25",
        help="how to rank the children (wordllama and minilm: by that model's vectors)",
    )
    search.add_argument(
        "--embedder",
        choices=DENSE_EMBEDDERS,
        default=None,
        help="the model of the hybrid retriever's dense part; it must be the one that made the "
        "file's vectors (default: the file's)",
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
        "--retrievers",
        default=None,
        help="comma-separated (default: overlap,bm25 and the --embedder's dense retriever)",
    )
    experiment.add_argument(
        "--embedder",
        choices=DENSE_EMBEDDERS,
        default=DEFAULT_DENSE,
        help="the dense model: the default retrievers' dense one and the hybrid's dense part "
        "(compare both with --retrievers bm25,wordllama,minilm)",
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
    "chunk": (
        "split files, folders' documents or standard input and print the chunks (JSON lines, "
        "CSV or Parquet)",
        _chunk_arguments,
    ),
    "index": (
        "index Markdown, text, HTML, Word and PDF files or folders (source code with --strategy "
        "code) into an SQLite file",
        _index_arguments,
    ),
    "search": ("small-to-big search: matched children, their sections", _search_arguments),
    "tenants": (
        "list an index's tenants with their document, section and chunk counts",
        _tenants_arguments,
    ),
    "experiment": ("compare strategies and retrievers on questions", _experiment_arguments),
    "benchmark": (
        "score a strategy on Chroma's chunking benchmark (recall, precision, precision-Ω, IoU)",
        add_benchmark_arguments,
    ),
}
