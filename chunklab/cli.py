"""Command line: `chunklab chunk PATH --strategy fixed` prints one JSON `Chunk` per line.

A user mistake (a missing file, bad UTF-8, an unknown strategy, a bad number) ends with exit code 2
and one line on stderr that names the problem. Tracebacks are for bugs, not for typos.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from pydantic import ValidationError

from chunklab.contracts import Chunker
from chunklab.data import DocumentError, read_document
from chunklab.fixed import FixedSizeChunker
from chunklab.markdown_chunker import MarkdownChunker
from chunklab.structural import StructuralChunker
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
    return MarkdownChunker(max_tokens=args.max_tokens, count_tokens=get_counter(args.counter or "cl100k"))


# Strategy name -> builder from the parsed options. Later chunkers register here.
STRATEGIES: dict[str, Callable[[argparse.Namespace], Chunker]] = {
    "fixed": _fixed,
    "structural": _structural(repack=False),
    "structural-repack": _structural(repack=True),
    "markdown": _markdown,
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
    return parser


def _validation_message(exc: ValidationError) -> str:
    error = exc.errors()[0]
    field = ".".join(str(part) for part in error["loc"]).replace("_", "-")
    message = error["msg"].removeprefix("Value error, ")
    return f"--{field}: {message}" if field else message


def run_chunk(args: argparse.Namespace) -> int:
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


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return run_chunk(args)
    except (UsageError, DocumentError, TokenizerUnavailable) as exc:
        print(f"chunklab: error: {exc}", file=sys.stderr)
        return USAGE_ERROR
    except BrokenPipeError:
        # `chunklab chunk big.md | head` closes the pipe early; that is not an error.
        sys.stderr.close()
        return 0
