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

from pydantic import ConfigDict, Field

from chunklab.contracts import Chunk, Contract, Document
from chunklab.markdown import _delimiter_columns, split_cells
from chunklab.tokens import TokenCounter, word_count


@dataclass(frozen=True)
class Table:
    header_line: int  # 0-based line numbers in the document
    delimiter_line: int
    row_lines: tuple[int, ...]
    header: str  # the header row as written (stripped)
    rows: tuple[str, ...]  # the data rows as written (stripped)
    cells: tuple[tuple[str, ...], ...]  # the data rows' cells


def find_tables(text: str) -> list[Table]:
    """Pipe tables: a line with a pipe, then a delimiter row with as many columns, then rows with pipes."""
    lines = text.split("\n")
    tables, i = [], 0
    while i + 1 < len(lines):
        head = lines[i]
        columns = _delimiter_columns(lines[i + 1])
        if "|" in head and columns and columns == len(split_cells(head)):
            j = i + 2
            while j < len(lines) and "|" in lines[j] and lines[j].strip():
                j += 1
            rows = tuple(range(i + 2, j))
            tables.append(Table(i, i + 1, rows, head.strip(), tuple(lines[k].strip() for k in rows),
                                tuple(tuple(split_cells(lines[k])) for k in rows)))
            i = j
        else:
            i += 1
    return tables


def linearize_tables(text: str) -> str:
    """Each data row preceded by its table's header row; everything else unchanged.

    Like the article's, the delimiter row is dropped: once every row carries its header, the
    text no longer needs to render as a table, and the delimiter only costs tokens.
    """
    lines = text.split("\n")
    out: list[str] = []
    tables = {t.header_line: t for t in find_tables(text)}
    k = 0
    while k < len(lines):
        table = tables.get(k)
        if table is None:
            out.append(lines[k])
            k += 1
            continue
        for row in table.rows:
            out.extend([table.header, row])
        k = (table.row_lines[-1] if table.row_lines else table.delimiter_line) + 1
    return "\n".join(out)


def pack_lines(lines: Sequence[str], size: int, atoms: bool = False,
               headers: Collection[str] | None = None) -> list[str]:
    """Greedily join lines (with "\\n") into pieces of at most `size` characters.

    `atoms=True` glues each header line to the line after it (the row it names), so a repeated
    header is never cut from its row: the step that linearizing alone leaves out. `headers` are
    the header rows as written (`Table.header`); without them, the article's rule stands in: a
    line starting with "|" is glued to the next, which fits linearized tables with outer pipes
    only (`Plan | Price` rows would be cut from their header). A single group longer than `size`
    becomes a piece of its own.
    """
    def is_header(line: str) -> bool:
        return line.strip() in headers if headers is not None else line.strip().startswith("|")

    groups: list[str] = []
    i = 0
    while i < len(lines):
        if atoms and is_header(lines[i]) and i + 1 < len(lines):
            groups.append(lines[i] + "\n" + lines[i + 1])
            i += 2
        else:
            groups.append(lines[i])
            i += 1
    pieces: list[str] = []
    current = ""
    for group in groups:
        if current and len(current) + len(group) + 1 > size:
            pieces.append(current)
            current = group
        else:
            current = f"{current}\n{group}" if current else group
    if current:
        pieces.append(current)
    return pieces


class LinearizedChunker(Contract):
    """The article's section 7: linearize the tables, then pack lines of at most `size` characters.

    A chunk's text is not a slice of the document (headers are repeated), so `start`/`end`
    span the document lines its own lines came from.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    size: int = Field(200, gt=0)
    atoms: bool = True
    count_tokens: TokenCounter = word_count

    def split(self, doc: Document) -> list[Chunk]:
        linear = linearize_tables(doc.text)
        headers = {t.header for t in find_tables(doc.text)}
        pieces = [p for p in pack_lines(linear.splitlines(), self.size, atoms=self.atoms, headers=headers) if p.strip()]
        spans = _source_spans(doc.text, pieces)
        return [
            Chunk(chunk_id=f"{doc.doc_id}#{i}", doc_id=doc.doc_id, ordinal=i, text=piece,
                  token_count=self.count_tokens(piece), start=a, end=b,
                  metadata={"strategy": "linearized", "tenant": doc.metadata.get("tenant", "default")})
            for i, (piece, (a, b)) in enumerate(zip(pieces, spans, strict=True))
        ]


def _source_spans(text: str, pieces: Sequence[str]) -> list[tuple[int, int]]:
    """For each piece, the span of the document from the first to the last line it holds that is
    not a repeated header (found in document order)."""
    headers = {t.header for t in find_tables(text)}
    spans, pos = [], 0
    for piece in pieces:
        own = [line for line in piece.split("\n") if line.strip() and line.strip() not in headers]
        if not own:
            own = [piece.split("\n")[0]]
        start = text.find(own[0], pos)
        start = start if start >= 0 else pos
        end_at = text.find(own[-1], start)
        end = end_at + len(own[-1]) if end_at >= 0 else start
        spans.append((start, max(start, end)))
        pos = max(pos, start)
    return spans


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
        t for t in tables
        if line != t.header and any(
            (row.startswith(line) or row.endswith(line)) and any(c.strip("-: ") and c in line for c in cells)
            for row, cells in zip(t.rows, t.cells, strict=True))
    ]
