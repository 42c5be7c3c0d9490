"""Tables: the case no chunker saves alone.

A column header is not something the text says; it is a convention of the tool that renders the
table. Any cut that looks at paragraphs, lines or similarity treats the data rows as independent
lines, and a row that lost its header is a row of numbers with no names: an *orphan*.

This module finds the pipe tables a reader would see (a row of cells, then a delimiter row like
`|---|---|`), wherever they stand, even where CommonMark sees lazy paragraph text (the manual).
It linearizes them (the header repeated before each data row), packs lines without cutting a
row from its header (`atoms`), and counts orphans from the document's own tables.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate
from typing import NamedTuple

from pydantic import ConfigDict, Field

from chunklab.chunkers.collector import gc_paused
from chunklab.chunkers.structural import recursive_split, repack
from chunklab.contracts import Chunk, Contract, Document, as_document
from chunklab.parsing.blocks import delimiter_columns, split_cells
from chunklab.tokens.counters import TokenCounter, word_count


@dataclass(frozen=True)
class Table:
    header_line: int  # 0-based line numbers in the document
    delimiter_line: int
    row_lines: tuple[int, ...]
    header: str  # the header row as written (stripped)
    rows: tuple[str, ...]  # the data rows as written (stripped)

    @cached_property
    def cells(self) -> tuple[tuple[str, ...], ...]:
        """The data rows' cells, read on first use: only `orphans` needs them, and splitting every
        row of a long table up front was a third of the linearized chunker's time."""
        return tuple(tuple(split_cells(row)) for row in self.rows)


def find_tables(text: str, lines: Sequence[str] | None = None) -> list[Table]:
    """Pipe tables: a line with a pipe, a delimiter row with as many columns, then rows with pipes.

    `lines` is `text.split("\\n")` when the caller already has it (a long table is mostly lines).
    """
    lines = text.split("\n") if lines is None else lines
    tables, i = [], 0
    while i + 1 < len(lines):
        head = lines[i]
        columns = delimiter_columns(lines[i + 1])
        if "|" in head and columns and columns == len(split_cells(head)):
            j = i + 2
            while j < len(lines) and "|" in lines[j] and lines[j].strip():
                j += 1
            rows = tuple(range(i + 2, j))
            tables.append(
                Table(i, i + 1, rows, head.strip(), tuple(lines[k].strip() for k in rows))
            )
            i = j
        else:
            i += 1
    return tables


def linearized_lines(
    text: str, tables: Sequence[Table] | None = None, lines: Sequence[str] | None = None
) -> list[tuple[str, int | None]]:
    """The lines of `linearize_tables(text)`, each with the document line it comes from (None for
    a repeated header, which stands for no place in the document of its own; the first copy is
    the header itself, in its place)."""
    lines = text.split("\n") if lines is None else lines
    out: list[tuple[str, int | None]] = []
    by_header = {t.header_line: t for t in (find_tables(text, lines) if tables is None else tables)}
    k = 0
    while k < len(lines):
        table = by_header.get(k)
        if table is None:
            out.append((lines[k], k))
            k += 1
            continue
        if not table.row_lines:
            out.append((lines[k], k))  # a header with no rows: kept, not dropped with its delimiter
        for n, (row_line, row) in enumerate(zip(table.row_lines, table.rows, strict=True)):
            out.extend([(table.header, None if n else table.header_line), (row, row_line)])
        k = (table.row_lines[-1] if table.row_lines else table.delimiter_line) + 1
    return out


def linearize_tables(text: str) -> str:
    """Each data row preceded by its table's header row; everything else unchanged.

    Like the article's, the delimiter row is dropped: once every row carries its header, the
    text no longer needs to render as a table, and the delimiter only costs tokens.
    """
    return "\n".join(line for line, _ in linearized_lines(text))


class Piece(NamedTuple):
    """A packed piece of text and the document span its own lines (not repeated headers) cover."""

    text: str
    start: int
    end: int


def pack_line_pieces(
    lines: Sequence[tuple[str, tuple[int, int] | None]],
    size: int,
    atoms: bool = False,
    headers: Collection[str] | None = None,
) -> list[Piece]:
    """`pack_lines`, keeping track of where each piece's text is: every line comes with its span
    in the document (None for text the document does not hold there, a repeated header).

    A group longer than `size` is cut so that no piece is: a header glued to a row goes with
    every part of that row when it leaves a quarter of `size` for it, and a long line is cut as
    `structural.recursive_split` cuts it. Size is a promise, even for a 5 MB line.
    """

    def is_header(line: str) -> bool:
        return line.strip() in headers if headers is not None else line.strip().startswith("|")

    groups: list[tuple[str, str, tuple[int, int] | None]] = []  # (header or "", text, span)
    i = 0
    while i < len(lines):
        (line, span) = lines[i]
        if atoms and is_header(line) and i + 1 < len(lines):
            (row, row_span) = lines[i + 1]
            groups.append((line, row, _cover(span, row_span)))
            i += 2
        else:
            groups.append(("", line, span))
            i += 1
    pieces: list[Piece] = []
    current: tuple[str, tuple[int, int] | None] | None = None
    for header, body, span in groups:
        for text, part_span in _fit(header, body, span, size):
            if current is not None and current[0] and len(current[0]) + len(text) + 1 <= size:
                current = (f"{current[0]}\n{text}", _cover(current[1], part_span))
            elif current is not None and not current[0]:
                current = (
                    text,
                    part_span,
                )  # a blank line opening a piece is dropped, as the article does
            else:
                if current is not None:
                    pieces.append(_piece(*current))
                current = (text, part_span)
    if current is not None:
        pieces.append(_piece(*current))
    return pieces


def _fit(
    header: str, body: str, span: tuple[int, int] | None, size: int
) -> list[tuple[str, tuple[int, int] | None]]:
    """A group (a header glued to its row, or one line) as pieces of at most `size` characters."""
    text = f"{header}\n{body}" if header else body
    if len(text) <= size:
        return [(text, span)]
    start = (
        span[1] - len(body) if span is not None else None
    )  # the body's own place: the span ends with it
    room = size - len(header) - 1
    if header and room >= max(1, size // 4):  # the header goes with every part of its row
        return [(f"{header}\n{part}", part_span) for part, part_span in _windows(body, start, room)]
    return (_windows(header, None, size) if header else []) + _windows(body, start, size)


def _windows(text: str, start: int | None, size: int) -> list[tuple[str, tuple[int, int] | None]]:
    """`text` cut as the structural splitter with repack cuts it (at sentences, then words, then
    characters, packed back up to `size`): the fewest parts of at most `size` characters, each
    with its span when `text` has one."""
    return [
        (text[a:b], None if start is None else (start + a, start + b))
        for a, b in repack(recursive_split(text, 0, len(text), size), size)
    ]


def _cover(a: tuple[int, int] | None, b: tuple[int, int] | None) -> tuple[int, int] | None:
    if a is None or b is None:
        return a or b
    return (min(a[0], b[0]), max(a[1], b[1]))


def _piece(text: str, span: tuple[int, int] | None) -> Piece:
    return Piece(text, *(span or (0, 0)))


def pack_lines(
    lines: Sequence[str], size: int, atoms: bool = False, headers: Collection[str] | None = None
) -> list[str]:
    """Greedily join lines (with "\\n") into pieces of at most `size` characters.

    `atoms=True` glues each header line to the line after it (the row it names), so a repeated
    header is never cut from its row: the step that linearizing alone leaves out. `headers` are
    the header rows as written (`Table.header`); without them, the article's rule stands in: a
    line starting with "|" is glued to the next, which fits linearized tables with outer pipes
    only (`Plan | Price` rows would be cut from their header). A group longer than `size` is cut
    (see `pack_line_pieces`).
    """
    return [
        p.text for p in pack_line_pieces([(line, None) for line in lines], size, atoms, headers)
    ]


class LinearizedChunker(Contract):
    """The article's section 7: linearize the tables, then pack lines of at most `size` characters.

    A chunk's text is not a slice of the document (headers are repeated), so `start`/`end`
    span the document lines its own lines came from: a repeated header has no place of its own.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    size: int = Field(200, gt=0)
    atoms: bool = True
    count_tokens: TokenCounter = word_count

    def split(self, doc: Document | str) -> list[Chunk]:
        """Chunks of lines up to `size` characters, each table row preceded by its header row.

        So a data row keeps its column names: with `atoms` (the default) each header line is glued
        to the row after it when lines are packed. Lines outside tables are packed as written; a
        chunk of only whitespace is dropped.
        """
        with gc_paused():  # one record per line of a long table, none in a cycle
            return self._split(as_document(doc))

    def _split(self, doc: Document) -> list[Chunk]:
        source = doc.text.split("\n")
        starts = [0, *accumulate(len(line) + 1 for line in source)]

        def span(line: str, k: int | None) -> tuple[int, int] | None:
            if k is None:
                return None  # a repeated header
            at = starts[k] + source[k].find(line)  # a table row is its source line, stripped
            return at, at + len(line)

        tables = find_tables(doc.text, source)  # once, on the one list of lines
        lines = [(line, span(line, k)) for line, k in linearized_lines(doc.text, tables, source)]
        headers = {t.header for t in tables}
        pieces = [
            p
            for p in pack_line_pieces(lines, self.size, atoms=self.atoms, headers=headers)
            if p.text.strip()
        ]
        return [
            Chunk(
                chunk_id=f"{doc.doc_id}#{i}",
                doc_id=doc.doc_id,
                ordinal=i,
                text=piece.text,
                token_count=self.count_tokens(piece.text),
                start=piece.start,
                end=piece.end,
                metadata={
                    "strategy": "linearized",
                    "tenant": doc.metadata.get("tenant", "default"),
                },
            )
            for i, piece in enumerate(pieces)
        ]


def orphans(chunks: Sequence[Chunk], doc: Document) -> int:
    """Chunks that hold a row of one of the document's tables without that table's header row.

    A chunk holds a row of table T when one of its lines is a row of T, or a piece of one (a
    character cut can start or end mid-row) that contains one of that row's non-empty cells. Rows
    are matched as lines, not values, so a value that two tables share ("Monday") is not counted
    against the wrong table. Computed from the document's own tables: any pipe table, no list of
    known values.
    """
    tables = find_tables(doc.text)
    count = 0
    for chunk in chunks:
        lines = [line.strip() for line in chunk.text.split("\n") if "|" in line]
        held = {id(t) for line in lines for t in _tables_of_line(line, tables)}
        if any(id(t) in held and t.header not in chunk.text for t in tables):
            count += 1
    return count


def _tables_of_line(line: str, tables: Sequence[Table]) -> list[Table]:
    """The tables a chunk line is a row of: exactly, or else as the start or end of a row (a
    character cut can begin or end mid-row) that holds one of the row's non-empty cells."""
    exact = [t for t in tables if line in t.rows]
    if exact:
        return exact
    return [
        t
        for t in tables
        if line != t.header
        and any(
            (row.startswith(line) or row.endswith(line))
            and any(c.strip("-: ") and c in line for c in cells)
            for row, cells in zip(t.rows, t.cells, strict=True)
        )
    ]
