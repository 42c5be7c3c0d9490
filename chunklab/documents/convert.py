"""Before the cut: HTML, Word (DOCX) and PDF files to Markdown the chunkers can read.

A chunker keeps only the structure that extraction kept. Headings, lists and tables come out here
as the Markdown the block scanner reads, so a section still has its heading path and a table row
its header; the chunk spans then refer to the converted Markdown (`chunklab chunk --show-markdown`
prints it). Everything runs offline, through permissively licensed libraries:

  - HTML (`documents.html`): parsed as a browser does (`html5lib`), then `markdownify` (MIT)
    over the page's body, scripts and styles dropped, nesting deeper than 256 elements refused;
  - DOCX (`documents.docx`): `mammoth` (BSD-2) to HTML, which keeps headings, lists and tables
    from Word's styles, then the same HTML path; what it drops is named in warnings;
  - PDF: `pdfplumber` (MIT, on pdfminer.six): a line whose font is larger than the body's becomes
    a heading (the largest size `#`, the next `##`, ...), a table with ruled cells becomes a
    Markdown table at its place on the page, bullets become `-` items.

Chosen by measuring on the fixtures of `data/formats/` (three of the series' documents rendered by
pandoc and Chromium; headings kept at their level, table rows kept as rows, share of words kept):
  - HTML: markdownify 27/27 headings, 20/20 rows, 0.997-1.0 of the words; trafilatura 2.3.1
    (Apache-2.0) 0/27 headings and 0.78-0.92 of the words: it extracts a page's main text for
    reading, and drops what it takes for boilerplate;
  - PDF: pdfplumber as used here 27/27, 20/20, 0.97-1.0; pypdfium2's plain text (no fonts, no
    tables) 0/27 and 0/20 with the same words. pdfplumber is slow (about 0.04 MB of Markdown per
    second, `make bench`), the price of reading every character's font and position;
  - DOCX: mammoth 27/27, 20/20; the permissive alternative, python-docx, reads paragraphs and
    tables but leaves their order and the heading styles to the caller (pandoc is GPL).

A PDF has no headings or tables, only characters at positions: those are inferred, and fail where
the layout hides them (tables without rules, multi-column pages, merged cells). A PDF without a
text layer (a scan) has nothing to extract: it is refused with a message that names OCR.
Each failure is a `DocumentError` naming the file and the problem.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from chunklab.documents.docx import docx_to_markdown
from chunklab.documents.files import CONVERTED_SUFFIXES, TEXT_SUFFIXES, DocumentError, decode_text
from chunklab.documents.html import html_to_markdown
from chunklab.parsing.blocks import is_template_expression


class Converted(NamedTuple):
    title: str
    markdown: str
    format: str  # html, docx or pdf
    warnings: tuple[str, ...] = ()  # what conversion could not keep, one line each


def convert(path: str | Path) -> Converted:
    """The file as Markdown, with the title it carries (or its name)."""
    path = Path(path)
    suffix = path.suffix.lower()
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DocumentError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if suffix in (".html", ".htm"):
        title, markdown, warnings = html_to_markdown(decode_text(raw, path), path)
        return Converted(title or path.stem, markdown, "html", tuple(warnings))
    if suffix == ".docx":
        title, markdown, warnings = docx_to_markdown(path)
        return Converted(title or path.stem, markdown, "docx", tuple(warnings))
    if suffix == ".pdf":
        title, markdown = pdf_to_markdown(path)
        return Converted(title or path.stem, markdown, "pdf")
    raise DocumentError(
        f"{path}: cannot convert {suffix or 'a file without an extension'} "
        f"(chunklab reads {', '.join((*TEXT_SUFFIXES, *CONVERTED_SUFFIXES))})"
    )


def _tidy(markdown: str) -> str:
    lines = [line.rstrip() for line in markdown.replace("\r", "").split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip() + "\n"


class _Line(NamedTuple):
    page: int
    top: float
    bottom: float
    size: float
    text: str
    margin: bool = (
        False  # in the top or bottom tenth of its page, where running heads and page numbers sit
    )


def _open_pdf(path: Path):
    """pdfplumber's handle on the file; an encrypted or unreadable file is a `DocumentError` that
    says which (pdfplumber wraps pdfminer's errors, so the cause is unwrapped first)."""
    import pdfplumber
    from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
    from pdfminer.pdfparser import PDFSyntaxError

    try:
        return pdfplumber.open(path)
    except Exception as exc:  # pdfplumber wraps pdfminer's own errors in PdfminerException
        cause = exc.args[0] if exc.args and isinstance(exc.args[0], Exception) else exc
        if isinstance(cause, PDFPasswordIncorrect | PDFEncryptionError):
            raise DocumentError(
                f"{path}: the PDF is encrypted; save an unprotected copy first"
            ) from None
        reason = (
            str(cause).split(" - ")[0]
            if isinstance(cause, PDFSyntaxError)
            else cause.__class__.__name__
        )
        raise DocumentError(f"{path}: not a readable PDF ({reason})") from None


def _page_lines(page, number: int, boxes: list) -> list[_Line]:
    """The text lines of one page outside its tables (those are read as tables), each with its
    most common font size, the one clue to a heading a PDF gives."""
    outside = page.filter(
        lambda obj, boxes=boxes: (
            obj.get("object_type") != "char"
            or not any(
                b[0] <= obj["x0"]
                and obj["x1"] <= b[2]
                and b[1] <= obj["top"]
                and obj["bottom"] <= b[3]
                for b in boxes
            )
        )
    )
    lines = []
    # Spacing relative to the font: some PDFs set word gaps by kerning, not space
    # characters, and a fixed tolerance of 3 points glues their words together.
    for line in outside.extract_text_lines(return_chars=True, x_tolerance_ratio=0.15):
        sizes = Counter(round(c["size"], 1) for c in line["chars"] if c["text"].strip())
        if sizes:
            margin = line["top"] < page.height * 0.1 or line["bottom"] > page.height * 0.9
            lines.append(
                _Line(
                    number,
                    line["top"],
                    line["bottom"],
                    sizes.most_common(1)[0][0],
                    line["text"],
                    margin,
                )
            )
    return lines


def _read_pdf(pdf, path: Path) -> tuple[str, list[tuple[int, float, str]], list[_Line]]:
    """(metadata title, tables as (page, top, Markdown), text lines) of every page; a failure
    part way through is a `DocumentError`, not a half-converted document."""
    try:
        title = str((pdf.metadata or {}).get("Title", "") or "").strip()
        blocks: list[tuple[int, float, str]] = []  # (page, top, Markdown of a table)
        lines: list[_Line] = []
        for number, page in enumerate(pdf.pages):
            tables = page.find_tables()
            for table in tables:
                blocks.append((number, table.bbox[1], _table_markdown(table.extract())))
            lines += _page_lines(page, number, [t.bbox for t in tables])
    except Exception as exc:
        raise DocumentError(
            f"{path}: the PDF could not be read to the end ({exc.__class__.__name__})"
        ) from None
    return title, blocks, lines


def _first_heading(markdown: str) -> str:
    """The text of the first `#` heading, the title a PDF without one in its metadata shows."""
    return next(
        (
            line[2:]
            for line in markdown.split("\n")
            if line.startswith("# ") and not is_template_expression(line[2:])
        ),
        "",
    )


def pdf_to_markdown(path: Path) -> tuple[str, str]:
    """(title, Markdown) of a PDF's text layer; see the module docstring for what is inferred."""
    with _open_pdf(path) as pdf:
        title, blocks, lines = _read_pdf(pdf, path)
    if not lines and not blocks:
        raise DocumentError(
            f"{path}: the PDF has no text layer (a scan?): run OCR first (e.g. ocrmypdf, "
            "or Docling), then convert the result"
        )
    markdown = _pdf_lines_markdown(_without_running_lines(lines), blocks)
    return title or _first_heading(markdown), markdown


def _table_markdown(rows: list[list[str | None]]) -> str:
    def cell(value: str | None) -> str:
        return " ".join((value or "").split()).replace("|", "\\|")

    rows = [[cell(v) for v in row] for row in rows if any((v or "").strip() for v in row)]
    if not rows:
        return ""
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    out = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * width]
    out += ["| " + " | ".join(r) + " |" for r in rows[1:]]
    return "\n".join(out)


BULLET = re.compile(r"^[•●▪◦‣∙·]\s*")
NUMBERED = re.compile(r"^\d{1,3}[.)]\s")


def _without_running_lines(lines: list[_Line]) -> list[_Line]:
    """Lines without the page furniture: a page number, or a line repeated in the margins of
    several pages (a running head or foot), is not part of the text a reader follows."""
    pages = len({line.page for line in lines})
    repeated = Counter(" ".join(line.text.split()) for line in lines if line.margin)

    def furniture(line: _Line) -> bool:
        text = " ".join(line.text.split())
        running = (
            line.page > 0 and pages >= 3 and repeated[text] >= max(3, pages // 2)
        )  # page 1 holds the title
        return line.margin and (text.isdigit() or running)

    return [line for line in lines if not furniture(line)]


HEADING_RATIO = 1.05  # a font this much larger than the body's is a heading's


def heading_levels(sizes: Sequence[float]) -> dict[float, int]:
    """Font size -> heading level, from the size of every character of a document.

    The body's size is the most common one (on a tie, the smaller). Every size clearly larger is
    a heading: the largest `#`, the next `##`, and so on, at most six levels. This is all a PDF
    says about structure: it stores characters at positions in fonts, not headings.
    """
    counts = Counter(sizes)
    if not counts:
        return {}
    body = min(counts, key=lambda size: (-counts[size], size))
    larger = sorted((size for size in counts if size > body * HEADING_RATIO), reverse=True)
    return {size: min(6, rank) for rank, size in enumerate(larger, start=1)}


def _pdf_lines_markdown(lines: list[_Line], tables: list[tuple[int, float, str]]) -> str:
    """Lines grouped into paragraphs by the space between them; sizes above the body's become
    heading levels; tables put back at their place."""
    level = heading_levels([line.size for line in lines for _ in line.text])
    items: list[tuple[int, float, str, str]] = [
        (p, top, "table", md) for p, top, md in tables if md
    ]
    previous: _Line | None = None
    for line in lines:
        text = line.text.strip()
        if line.size in level:
            kind, text = "heading", f"{'#' * level[line.size]} {text}"
        elif BULLET.match(text):
            kind, text = "item", "- " + BULLET.sub("", text)
        elif NUMBERED.match(text):
            kind = "item"
        else:
            gap = line.top - previous.bottom if previous and previous.page == line.page else None
            joins = (
                previous is not None and gap is not None and gap < (line.bottom - line.top) * 0.8
            )
            kind = "continued" if joins and items and items[-1][2] in ("para", "item") else "para"
        if kind == "continued":
            p, top, k, md = items[-1]
            items[-1] = (p, top, k, f"{md} {text}")
        else:
            items.append((line.page, line.top, kind, text))
        previous = line
    items.sort(key=lambda item: (item[0], item[1]))
    blocks: list[tuple[str, str]] = []  # (kind, Markdown): a list's items stay one block
    for _, _, kind, md in items:
        if kind == "item" and blocks and blocks[-1][0] == "item":
            blocks[-1] = ("item", f"{blocks[-1][1]}\n{md}")
        else:
            blocks.append((kind, md))
    return _tidy("\n\n".join(md for _, md in blocks))
