"""The PDF converter chunklab had before issue 27 (pdfplumber on pdfminer.six), kept verbatim
for `make bench` to measure the pypdfium2 converter against: the "pdfplumber path" that
converting a PDF cost 144x chunking its Markdown on. Not used by the library.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import NamedTuple

from chunklab.documents.files import DocumentError
from chunklab.documents.pdf import first_heading, heading_levels, tidy


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
    return title or first_heading(markdown), markdown


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
    return tidy("\n\n".join(md for _, md in blocks))
