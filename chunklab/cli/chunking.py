"""`chunklab chunk`: one file's chunks on stdout, as JSON lines, CSV or Parquet (`cli.formats`), or
with `--show-markdown` the Markdown the chunker reads."""

from __future__ import annotations

import argparse
import sys

from chunklab.cli.formats import FormatUnavailable, check_format, write_chunks
from chunklab.cli.parser import UsageError, build_chunker
from chunklab.documents.files import DocumentError
from chunklab.documents.reading import read_document
from chunklab.retrieval.ingest import failure


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
    try:
        doc = read_document(args.path)
    except DocumentError:
        raise
    except (Exception, RecursionError, MemoryError) as exc:  # a converter's failure: one line
        raise UsageError(f"{args.path}: could not be converted: {failure(exc)}") from None
    out = sys.stdout
    if args.show_markdown:  # chunk spans refer to this text
        for warning in doc.metadata.get("conversion_warnings", []):  # what the Markdown lacks
            print(f"{args.path}: {warning}", file=sys.stderr)
        out.write(doc.text)
        out.flush()
        return 0
    # Written as they come: a long document's chunks are never all in memory at once.
    streamed = getattr(chunker, "iter_chunks", None)  # chunkers that can yield as they cut
    write_chunks(streamed(doc) if streamed else chunker.split(doc), format, out)
    return 0
