"""`chunklab chunk`: the chunks of files, folders' documents or standard input on stdout, as JSON
lines, CSV or Parquet (`cli.formats`), or with `--show-markdown` the Markdown the chunker reads.

Several documents come out one after the other, in the order given (a folder's in the order
`find_documents` finds them, with its ids: `policies/travel`). Nothing is passed over in silence:
a folder's files of other types are counted on one line, as `index` counts them, and a file that
cannot be read is named on one line and skipped, the others done, exit code 2 at the end. Given a
single document, a bad one is the usual one-line error (nothing is written). `-` is standard
input, doc_id `stdin`: a PDF, Word file or HTML page when its first bytes say so (or
`--stdin-format` does), else Markdown in UTF-8.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from chunklab.cli.formats import FormatUnavailable, check_format, write_chunks
from chunklab.cli.parser import UsageError, build_chunker, pdf_password
from chunklab.cli.source_files import (
    no_documents,
    passed_over,
    say_how_cut,
    saying_syntax_errors,
    suffixes_for,
)
from chunklab.cli.terminal import say_passed_over, warn
from chunklab.contracts import Chunk, Chunker, Document
from chunklab.documents.files import DocumentError, find_documents
from chunklab.documents.reading import read_document
from chunklab.documents.signatures import head_of, kind_of, looks_like_html
from chunklab.retrieval.ingest import failure

STDIN = "-"
STDIN_ID = "stdin"
STDIN_NAME = "<stdin>"  # how messages and the document's uri name standard input
SUFFIX_OF_FORMAT = {"markdown": ".md", "html": ".html", "docx": ".docx", "pdf": ".pdf"}


def run_chunk(args: argparse.Namespace) -> int:
    chunker = build_chunker(args)
    given = getattr(args, "format", None)
    if args.show_markdown and given:
        raise UsageError("--format does not apply to --show-markdown, which prints Markdown")
    format = given or "jsonl"
    try:
        check_format(format, sys.stdout)
    except FormatUnavailable as exc:
        raise UsageError(str(exc)) from None
    documents = documents_given(args)
    if args.show_markdown and len(documents) != 1:
        raise UsageError(f"--show-markdown prints one document's Markdown; {len(documents)} given")
    if len(documents) == 1:  # one document: a bad one is the error, before anything is written
        doc = read_one(*documents[0], args)
        if args.show_markdown:  # chunk spans refer to this text
            for warning in doc.metadata.get("conversion_warnings", []):  # what the Markdown lacks
                print(f"{doc.uri}: {warning}", file=sys.stderr)
            sys.stdout.write(doc.text)
            sys.stdout.flush()
            return 0
        write_chunks(chunks_of(chunker, doc), format, sys.stdout)
        return 0
    skipped: list[str] = []

    def every_chunk() -> Iterator[Chunk]:
        for doc_id, path in documents:
            try:
                doc = read_one(doc_id, path, args)
            except (DocumentError, UsageError) as exc:
                warn(f"skipped {exc}")  # the message names the file and the problem
                skipped.append(path)
                continue
            yield from chunks_of(chunker, doc)

    write_chunks(every_chunk(), format, sys.stdout)
    if skipped:
        warn(f"{len(skipped)} file(s) could not be read and were skipped (named above)")
        return 2
    return 0


def documents_given(args: argparse.Namespace) -> list[tuple[str, str]]:
    """(doc_id, path) of every document the arguments name, `-` as (`STDIN_ID`, "-"); a folder's
    other files counted on stderr; no document at all, or `-` twice, is a `UsageError`."""
    if args.stdin_format and STDIN not in args.paths:
        raise UsageError("--stdin-format says what - (standard input) holds; - is not given")
    if args.paths.count(STDIN) > 1:
        raise UsageError("- (standard input) can be read once only")
    suffixes = suffixes_for(args.strategy)
    found = find_documents([p for p in args.paths if p != STDIN], suffixes=suffixes)
    say_passed_over(found, "not chunked", **passed_over(found, args.strategy))
    documents = [(doc_id, str(path)) for doc_id, path in found.documents]
    if STDIN in args.paths:
        if any(doc_id == STDIN_ID for doc_id, _ in documents):  # its chunk ids would collide
            raise UsageError(f"- (standard input) and a file would both get the id {STDIN_ID!r}")
        before = args.paths[: args.paths.index(STDIN)]  # in the order given: after these
        documents.insert(
            len(find_documents(before, suffixes=suffixes).documents), (STDIN_ID, STDIN)
        )
    if not documents:
        raise no_documents(found, args.paths, args.strategy)
    say_how_cut(documents, args)
    return documents


def read_one(doc_id: str, path: str, args: argparse.Namespace) -> Document:
    """The document at `path` (standard input for `-`); a converter's crash is one line too."""
    if path == STDIN:
        return read_stdin(args)
    try:
        return read_document(path, doc_id=doc_id, password=pdf_password(args))
    except DocumentError:
        raise
    except (Exception, RecursionError, MemoryError) as exc:  # a converter's failure: one line
        raise UsageError(f"{path}: could not be converted: {failure(exc)}") from None


def read_stdin(args: argparse.Namespace) -> Document:
    """Standard input as a document: its bytes in a temporary file named by the format it holds
    (`--stdin-format`, else its first bytes, else Markdown), read as any file is; messages and
    the document name it `<stdin>`, never the temporary file."""
    raw = sys.stdin.buffer.read()
    with tempfile.TemporaryDirectory(prefix="chunklab-stdin-") as folder:
        probe = Path(folder, "stdin")
        probe.write_bytes(raw)
        suffix = SUFFIX_OF_FORMAT[args.stdin_format or stdin_format(probe)]
        path = probe.rename(probe.with_suffix(suffix))
        try:
            doc = read_document(path, doc_id=STDIN_ID, password=pdf_password(args))
        except DocumentError as exc:
            raise DocumentError(str(exc).replace(str(path), STDIN_NAME)) from None
        except (Exception, RecursionError, MemoryError) as exc:
            raise UsageError(f"{STDIN_NAME}: could not be converted: {failure(exc)}") from None
    metadata = doc.metadata | ({"source_file": STDIN_NAME} if "source_file" in doc.metadata else {})
    return doc.model_copy(update={"uri": STDIN_NAME, "metadata": metadata})


def stdin_format(probe: Path) -> str:
    """What standard input holds, by its first bytes: a PDF, a Word file, an HTML page, else
    Markdown."""
    head = head_of(probe)
    kind = kind_of(probe, head)
    if kind in ("pdf", "docx"):
        return kind
    return "html" if looks_like_html(head) else "markdown"


def chunks_of(chunker: Chunker, doc: Document) -> Iterator[Chunk]:
    """A document's chunks, written as they come where the chunker can yield them: a long
    document's chunks are never all in memory at once. Syntax errors in them (the code
    strategy's) are said on one line after them."""
    streamed = getattr(chunker, "iter_chunks", None)
    return saying_syntax_errors(doc.uri, streamed(doc) if streamed else chunker.split(doc))
