"""`chunklab chunk --format`: a file's chunks as JSON lines, CSV or Parquet.

The columns of CSV and Parquet are `Chunk`'s fields in its own order (`COLUMNS`), so a field added
to `Chunk` becomes a column without anyone listing it twice. They are documented in one place,
`chunklab chunk --help` (`FORMAT_HELP`, built from `COLUMNS`); the README points there.

JSON lines and CSV are written as the chunks come, so a long document's chunks are never all in
memory; Parquet is written in row groups of `ROW_GROUP` chunks for the same reason. Parquet goes
through pyarrow, an optional extra (`parquet`), checked before the file is read, so a missing
pyarrow is one line and exit code 2, not a traceback after the work is done.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any, BinaryIO, TextIO

from chunklab.contracts import Chunk

FORMATS = ("jsonl", "csv", "parquet")
COLUMNS = tuple(Chunk.model_fields)
PARQUET_EXTRA = "pip install -e '.[parquet]'"
ROW_GROUP = 1024

FORMAT_HELP = (
    "jsonl (the default): one Chunk per line, as JSON; csv and parquet: one row per chunk, "
    "with the columns "
    + ", ".join(COLUMNS)
    + " (parent_id empty in CSV and null in Parquet when a chunk has none; heading_path a JSON "
    "list in CSV and a list of strings in Parquet; metadata a JSON object in both). parquet needs "
    f"pyarrow ({PARQUET_EXTRA}) and is written to stdout: redirect it to a file"
)


class FormatUnavailable(Exception):
    """A format whose writer is not installed, or cannot write where stdout goes; one line."""


def check_format(name: str, stdout: TextIO) -> None:
    """Before any work: can `name` be written to `stdout`?"""
    if name != "parquet":
        return
    try:
        import pyarrow.parquet  # noqa: F401  (imported, not just found: a broken install fails here)
    except ImportError:
        raise FormatUnavailable(
            f"--format parquet needs pyarrow, which is not installed: {PARQUET_EXTRA}"
        ) from None
    if stdout.isatty():
        raise FormatUnavailable(
            "--format parquet writes a binary file: redirect stdout to one (> chunks.parquet)"
        )


def write_chunks(chunks: Iterable[Chunk], name: str, stdout: TextIO) -> None:
    """`chunks` written to `stdout` in format `name` (one of `FORMATS`)."""
    if name == "jsonl":
        for chunk in chunks:
            stdout.write(chunk.model_dump_json() + "\n")
    elif name == "csv":
        write_csv(chunks, stdout)
    elif name == "parquet":
        stdout.flush()
        write_parquet(chunks, stdout.buffer)
    else:
        raise ValueError(f"unknown format {name!r} (known: {', '.join(FORMATS)})")
    stdout.flush()


def row(chunk: Chunk) -> dict[str, Any]:
    """A chunk as one row of `COLUMNS`: metadata as JSON text (its keys vary between chunkers)."""
    values = chunk.model_dump()
    values["heading_path"] = list(chunk.heading_path)
    values["metadata"] = json.dumps(chunk.metadata, ensure_ascii=False)
    return values


def write_csv(chunks: Iterable[Chunk], stdout: TextIO) -> None:
    writer = csv.writer(stdout, lineterminator="\n")
    writer.writerow(COLUMNS)
    for chunk in chunks:
        values = row(chunk)
        values["heading_path"] = json.dumps(values["heading_path"], ensure_ascii=False)
        writer.writerow(["" if values[c] is None else values[c] for c in COLUMNS])


def write_parquet(chunks: Iterable[Chunk], stream: BinaryIO) -> None:
    import pyarrow as pa  # the parquet extra, checked by `check_format`
    import pyarrow.parquet as pq

    types = {"heading_path": pa.list_(pa.string())}
    types |= {c: pa.int64() for c in ("ordinal", "token_count", "start", "end")}
    schema = pa.schema([(c, types.get(c, pa.string())) for c in COLUMNS])
    writer = pq.ParquetWriter(stream, schema)
    try:
        for group in batches((row(chunk) for chunk in chunks), ROW_GROUP):
            writer.write_table(pa.Table.from_pylist(group, schema=schema))
    finally:
        writer.close()


def batches(rows: Iterator[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    while group := list(islice(rows, size)):
        yield group
