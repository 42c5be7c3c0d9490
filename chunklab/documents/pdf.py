"""PDF to Markdown, read with pypdfium2 (Apache-2.0/BSD-3, PDFium's own text layer).

A PDF stores characters at positions in fonts, not headings or paragraphs; this module infers
them. PDFium gives each page's text in the file's order (with the spaces and line ends it
infers from the gaps) and each character's box and font size: the words are read from that text
(one box at each end of a word, one font size per word), runs of words on one baseline become
fragments, and `pdf_layout` puts the fragments in reading order (columns, bands) and drops the
page furniture. Then:

  - a line whose font is larger than the body's is a heading (the largest size `#`, the next
    `##`, ...; `heading_levels`), and so is a short bold line at the body's size (as registers
    set their headings), as deep under those as its section number says (`3.3.1` is 3 deep);
  - a table drawn with rules (thin filled or stroked paths, the way browsers and most writers draw
    cell borders) is a grid: its cells are read from the words inside them and it becomes a
    Markdown table at its place in the reading order; a table without rules is found from its
    bold header and the rows lined up under it (`pdf_grid.aligned_tables`);
  - bullets become `-` items; lines closer than most of a line's height join into a paragraph.

Read as printed (issue 39): a page turned for reading (/Rotate) is read turned; digits PDFium
parts with a space of its own are one number when the gap is no wider than letter-spacing; a
column gap is found from where the words sit, so a file that writes its lines across the columns
is read column by column.

Measured on the PDFs of `data/formats/` (`make bench`): the same headings, tables and words as the
pdfplumber path it replaced, 10x to 40x faster; pdfplumber read every character through
pdfminer's Python parser. A page whose order could not be decided is named in the warnings
(`Document.metadata["conversion_warnings"]`).
"""

from __future__ import annotations

import ctypes
import os
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from chunklab.documents.files import DocumentError
from chunklab.documents.pdf_grid import aligned_tables, ruled_tables
from chunklab.documents.pdf_layout import Fragment, Line, Run, reading_order, without_furniture
from chunklab.documents.pdf_words import HYPHEN, fragments, page_turn, page_words
from chunklab.parsing.blocks import is_template_expression


class PdfMarkdown(NamedTuple):
    title: str
    markdown: str
    warnings: list[str]  # one line per page whose reading order could not be decided


class _Line(NamedTuple):
    page: int
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    em: float  # the font size in points on the page (the size scaled by the text's matrix)
    text: str
    table: bool = False
    weight: float = 0.0  # the lightest font weight on the line
    figure: bool = False  # inside a figure's box: a chart's labels, not headings or paragraphs


PDFIUM_ERRORS = {1: "unknown error", 2: "file not found or unreadable", 3: "not a PDF or corrupt"}


def _open_pdf(path: Path, password: str | None = None):
    """PDFium's raw handle on the file (pypdfium2's raw API: no Python object per page, which
    costs more than reading a small page), opened with `password` if given; an encrypted file
    without the right password, or an unreadable one, is a `DocumentError` (which never holds
    the password)."""
    import pypdfium2  # noqa: F401 (initialises PDFium)
    import pypdfium2.raw as pdfium_c

    secret = password.encode("utf-8") if password else None
    doc = pdfium_c.FPDF_LoadDocument(os.fsencode(path), secret)
    if not doc:
        error = pdfium_c.FPDF_GetLastError()
        if error == pdfium_c.FPDF_ERR_PASSWORD:
            raise DocumentError(
                f"{path}: the PDF is encrypted and the password given is wrong"
                if password
                else f"{path}: the PDF is encrypted: give its password (--password, or the "
                "CHUNKLAB_PDF_PASSWORD variable), or save an unprotected copy"
            )
        reason = PDFIUM_ERRORS.get(error, f"PDFium error {error}")
        raise DocumentError(f"{path}: not a readable PDF ({reason})")
    return doc


def _utf16(read, *args) -> str:
    """A string PDFium writes as UTF-16LE, asked for twice: its length, then its text."""
    size = read(*args, None, 0)
    if size <= 2:
        return ""
    buffer = ctypes.create_string_buffer(size)
    read(*args, buffer, size)
    return buffer.raw[: size - 2].decode("utf-16-le", errors="replace")


def _read_pdf(doc, path: Path) -> tuple[str, list[tuple[float, list[Fragment]]], list[str]]:
    """(metadata title, each page's (height, fragments and tables), warnings); a failure part way
    through is a `DocumentError`, not a half-converted document."""
    import pypdfium2.raw as pdfium_c

    try:
        title = _utf16(pdfium_c.FPDF_GetMetaText, doc, b"Title").strip()
        pages, warnings = [], []
        for number in range(pdfium_c.FPDF_GetPageCount(doc)):
            page = pdfium_c.FPDF_LoadPage(doc, number)
            try:
                turn = page_turn(page)
                words = page_words(page, turn)
                tables, words, crowded = ruled_tables(page, turn, words)
            finally:
                pdfium_c.FPDF_ClosePage(page)
            if crowded:
                warnings.append(
                    f"page {number + 1}: too many rules to look for tables; read as text"
                )
            pages.append((turn.reading_height, fragments(words) + tables))
    except Exception as exc:
        raise DocumentError(
            f"{path}: the PDF could not be read to the end ({exc.__class__.__name__})"
        ) from None
    return title, pages, warnings


def first_heading(markdown: str) -> str:
    """The text of the first `#` heading, the title a PDF without one in its metadata shows."""
    return next(
        (
            line[2:]
            for line in markdown.split("\n")
            if line.startswith("# ") and not is_template_expression(line[2:])
        ),
        "",
    )


def pdf_to_markdown(path: Path, password: str | None = None) -> PdfMarkdown:
    """(title, Markdown, warnings) of a PDF's text layer, opened with `password` if it is
    encrypted; see the module docstring."""
    import pypdfium2.raw as pdfium_c

    doc = _open_pdf(path, password)
    try:
        title, pages, warnings = _read_pdf(doc, path)
    finally:
        pdfium_c.FPDF_CloseDocument(doc)
    if not any(frags for _, frags in pages):
        raise DocumentError(
            f"{path}: the PDF has no text layer (a scan?): run OCR first (e.g. ocrmypdf, "
            "or Docling), then convert the result"
        )
    lines: list[_Line] = []
    for number, frags in enumerate(without_furniture(pages)):
        runs, undecided = reading_order(frags)
        if undecided:
            warnings.append(
                f"page {number + 1}: the reading order could not be decided (text side by side "
                "without a clear column gap); read line by line"
            )
        page_lines = _page_lines(number, runs)
        if any(line.figure for line in page_lines):
            warnings.append(
                f"page {number + 1}: text inside a figure (a chart's labels?) read line by line "
                "where the figure stands; its order is the page's, top to bottom"
            )
        lines += page_lines
    markdown = _pdf_lines_markdown(lines)
    return PdfMarkdown(title or first_heading(markdown), markdown, warnings)


def _page_lines(number: int, runs: list[Run]) -> list[_Line]:
    """The page's lines in reading order, rows printed as a table without rules made a table."""
    lines = []
    page: list[Line] = [line for run in runs for line in run]
    figures = [line[0] for line in page if not (line[0].text or line[0].table)]
    for line in aligned_tables(page):
        if not (line[0].text or line[0].table):  # a figure's box (a line of its own)
            continue
        if line[0].table:
            f = line[0]
            lines.append(_Line(number, f.x0, f.x1, f.top, f.bottom, f.size, 0.0, f.table, True))
            continue
        sizes: Counter[float] = Counter()
        for f in line:
            sizes[f.size] += len(f.text)
        size = min(sizes, key=lambda s: (-sizes[s], s))
        text = " ".join(f.text for f in line)
        top, bottom = min(f.top for f in line), max(f.bottom for f in line)
        x0, x1 = line[0].x0, max(f.x1 for f in line)
        em = max(f.em for f in line)
        weight = min(f.weight for f in line)
        middle = (top + bottom) / 2
        figure = bool(figures) and any(
            g.x0 <= x0 and x1 <= g.x1 and g.top <= middle <= g.bottom for g in figures
        )
        lines.append(
            _Line(number, x0, x1, top, bottom, size, em, text, weight=weight, figure=figure)
        )
    return lines


BULLET = re.compile(r"^[•●▪◦‣∙·]\s*")
NUMBERED = re.compile(r"^\d{1,3}[.)]\s")
HEADING_RATIO = 1.05  # a font this much larger than the body's is a heading's
HEADING_WORDS = 14  # a bold line at the body's size this long or shorter may be a heading
SECTION_NUMBER = re.compile(r"^(\d+(?:\.\d+)*)\.?\s+\S")  # "3.3.1 Types of ...": 3 deep
# Lines whose baselines are closer than this many times the font size are one paragraph: lines of
# a paragraph are 1.2-1.5 font sizes apart in the PDFs of data/formats/, paragraphs and table rows
# 1.8 or more. (pdfplumber's rule was a gap under 0.8 of a line's height, boxes as tall as their
# font: 1.8 sizes, which split the spec's references by a tenth of a point.)
LINE_SPACING = 1.7


def heading_levels(sizes: Sequence[float]) -> dict[float, int]:
    """Font size -> heading level, from the size of every character of a document.

    The body's size is the most common one (on a tie, the smaller). Every size clearly larger is
    a heading: the largest `#`, the next `##`, and so on, at most six levels. This is all a PDF
    says about structure: it stores characters at positions in fonts, not headings.
    """
    return _levels(Counter(sizes))


def _levels(counts: Counter) -> dict[float, int]:
    """`heading_levels` from each size's count of characters."""
    if not counts:
        return {}
    body = min(counts, key=lambda size: (-counts[size], size))
    larger = sorted((size for size in counts if size > body * HEADING_RATIO), reverse=True)
    return {size: min(6, rank) for rank, size in enumerate(larger, start=1)}


def _joins(previous: _Line | None, line: _Line, text: str) -> bool:
    """Whether `line` continues the paragraph of `previous`: close below it in the same column,
    or at the top of the next column of the page when the sentence plainly runs on."""
    if previous is None or previous.table:
        return False
    if previous.page != line.page or line.bottom < previous.top:  # next page or column
        return not re.search(r"[.!?:]\W*$", previous.text) and text[:1].islower()
    return line.bottom - previous.bottom < line.em * LINE_SPACING


def _heading_goes_on(previous: _Line | None, line: _Line, items: list) -> bool:
    """A heading's second line: the same size and weight, right under the first, on the same
    page, not numbered as a heading of its own."""
    return (
        previous is not None
        and items[-1:] != []
        and items[-1][0] == "heading"
        and previous.size == line.size
        and previous.weight == line.weight
        and not SECTION_NUMBER.match(line.text.strip())
        and previous.page == line.page
        and previous.top < line.top
        and line.bottom - previous.bottom < line.em * LINE_SPACING
    )


def _bold_level(lines: list[_Line], at: int, body_weight: float, below: int) -> int:
    """The heading level of a line at the body's size that is a heading by its weight: bold
    (heavier than the body's weight) with the lines that go on with it, short, starting with a
    letter or a section number, not ending as a sentence or a lead-in does, not an entry of a
    list of contents ("1 Introduction 1"). Numbered `1.2.3` it is that deep under the levels
    set by size (`below` of them), else just under them. 0 if it is not such a heading."""
    line = lines[at]
    if line.weight <= body_weight:
        return 0
    block = [line.text.strip()]
    for previous, after in zip(lines[at:], lines[at + 1 :], strict=False):
        if not (
            (after.page, after.size, after.weight, after.table)
            == (previous.page, previous.size, previous.weight, False)
            and 0 < after.bottom - previous.bottom < after.em * LINE_SPACING
            and not SECTION_NUMBER.match(after.text.strip())
        ):
            break
        block.append(after.text.strip())
    text = " ".join(block)
    number = SECTION_NUMBER.match(text)
    if (
        len(text.split()) > HEADING_WORDS
        or not text[:1].isalnum()
        or text.endswith((".", ",", ";", ":"))
        or (number and re.search(r"\s\d+$", text))
    ):
        return 0
    return min(6, below + (number.group(1).count(".") + 1 if number else 1))


def _pdf_lines_markdown(lines: list[_Line]) -> str:
    """Lines in reading order grouped into paragraphs; sizes above the body's become heading
    levels, and so do bold lines at the body's size (`_bold_level`); tables stay at their
    place."""
    chars: Counter[float] = Counter()
    weights: Counter[float] = Counter()
    for line in lines:
        if line.table and line.size:  # a table's cells count toward the body's size, not its weight
            cells = re.sub(r"(?m)^\|[-| ]*\|$", "", line.text)  # the separator row is no text
            chars[line.size] += len(re.sub(r"[|\s]", "", cells))
        elif not line.table and not line.figure:
            chars[line.size] += len(line.text)
            weights[line.weight] += len(line.text)
    level = _levels(chars)
    body_weight = min(weights, key=lambda w: (-weights[w], w)) if weights else 0.0
    items: list[tuple[str, str]] = []  # (kind, Markdown)
    previous: _Line | None = None
    for at, line in enumerate(lines):
        text = line.text.strip()
        bold = 0
        if not (line.table or line.figure) and line.size not in level and line.weight > body_weight:
            runs_on = previous and previous.weight < line.weight and _joins(previous, line, text)
            bold = 0 if runs_on else _bold_level(lines, at, body_weight, len(set(level.values())))
        if line.table:
            kind = "table"
        elif line.figure:
            joins = items[-1:] != [] and items[-1][0] == "figure" and previous and previous.figure
            kind = "continued" if joins else "figure"
        elif (line.size in level or bold) and _heading_goes_on(previous, line, items):
            kind = "continued"
        elif line.size in level:
            kind, text = "heading", f"{'#' * level[line.size]} {text}"
        elif bold:
            kind, text = "heading", f"{'#' * bold} {text}"
        elif BULLET.match(text):
            kind, text = "item", "- " + BULLET.sub("", text)
        elif NUMBERED.match(text):
            kind = "item"
        elif _joins(previous, line, text) and items[-1:] and items[-1][0] in ("para", "item"):
            kind = "continued"
        else:
            kind = "para"
        if kind == "continued":
            joint = "" if items[-1][1].endswith(HYPHEN) else " "
            items[-1] = (items[-1][0], f"{items[-1][1]}{joint}{text}")
        elif kind == "item" and items and items[-1][0] == "item":
            items[-1] = ("item", f"{items[-1][1]}\n{text}")
        else:
            items.append((kind, text))
        previous = line
    return tidy("\n\n".join(md for _, md in items).replace(HYPHEN, "-"))


def tidy(markdown: str) -> str:
    """Trailing spaces and runs of blank lines gone, one newline at the end."""
    out = [line.rstrip() for line in markdown.replace("\r", "").split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip() + "\n"
