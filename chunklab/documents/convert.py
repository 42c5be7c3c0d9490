"""Before the cut: HTML, Word (DOCX) and PDF files to Markdown the chunkers can read.

A chunker keeps only the structure that extraction kept. Headings, lists and tables come out here
as the Markdown the block scanner reads, so a section still has its heading path and a table row
its header; the chunk spans then refer to the converted Markdown (`chunklab chunk --show-markdown`
prints it). Everything runs offline, through permissively licensed libraries:

  - HTML (`documents.html`): decoded as a browser decodes it (`documents.charsets`: its BOM, its
    `<meta charset>`, else a guess, said in the warnings), parsed as a browser does (`html5lib`),
    then `markdownify` (MIT) over the page's body, scripts and styles dropped, nesting deeper
    than 256 elements refused;
  - DOCX (`documents.docx`): `mammoth` (BSD-2) to HTML, which keeps headings, lists and tables
    from Word's styles, then the same HTML path; what it drops is named in warnings; the title
    from the file's core properties;
  - PDF: `chunklab.documents.pdf`, on pypdfium2 (PDFium's text layer): a line whose font is
    larger than the body's becomes a heading (the largest size `#`, the next `##`, ...), a table
    with ruled cells a Markdown table at its place, bullets `-` items; columns are read one after
    the other and running heads dropped (`pdf_layout`); pages read out of order are warnings.

Chosen by measuring on the fixtures of `data/formats/` (three of the series' documents rendered by
pandoc and Chromium; headings kept at their level, table rows kept as rows, share of words kept):
  - HTML: markdownify 27/27 headings, 20/20 rows, 0.997-1.0 of the words; trafilatura 2.3.1
    (Apache-2.0) 0/27 headings and 0.78-0.92 of the words: it extracts a page's main text for
    reading, and drops what it takes for boilerplate;
  - PDF: pdfplumber (as used until issue 27) 27/27, 20/20, 0.97-1.0, but slow (about 0.04 MB of
    Markdown per second): it reads every character through pdfminer's Python parser; pypdfium2
    with the character boxes and font sizes PDFium exposes keeps the same headings, rows and
    words at 10-40x the speed (`make bench`);
  - DOCX: mammoth 27/27, 20/20; the permissive alternative, python-docx, reads paragraphs and
    tables but leaves their order and the heading styles to the caller (pandoc is GPL).

A PDF has no headings or tables, only characters at positions: those are inferred, and fail where
the layout hides them (tables without rules, merged cells, columns without a clear gap). A PDF
without a text layer (a scan) has nothing to extract: it is refused with a message that names OCR.
Each failure is a `DocumentError` naming the file and the problem.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from chunklab.documents.charsets import decode_html
from chunklab.documents.docx import docx_to_markdown
from chunklab.documents.files import CONVERTED_SUFFIXES, TEXT_SUFFIXES, DocumentError
from chunklab.documents.html import html_to_markdown
from chunklab.documents.pdf import heading_levels as heading_levels
from chunklab.documents.pdf import pdf_to_markdown


class Converted(NamedTuple):
    title: str
    markdown: str
    format: str  # html, docx or pdf
    warnings: tuple[str, ...] = ()  # what conversion changed or could not keep, one line each


KIND_OF_SUFFIX = {".html": "html", ".htm": "html", ".docx": "docx", ".pdf": "pdf"}


def convert(path: str | Path, kind: str | None = None, password: str | None = None) -> Converted:
    """The file as Markdown, with the title it carries (or its name). `kind` ("html", "docx" or
    "pdf") says what the file is when its suffix does not (`documents.signatures`); `password`
    opens an encrypted PDF."""
    path = Path(path)
    suffix = path.suffix.lower()
    kind = kind or KIND_OF_SUFFIX.get(suffix)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DocumentError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if kind == "html":
        text, decoding = decode_html(raw, path)
        title, markdown, warnings = html_to_markdown(text, path)
        return Converted(title or path.stem, markdown, "html", (*decoding, *warnings))
    if kind == "docx":
        title, markdown, warnings = docx_to_markdown(path)
        return Converted(title or path.stem, markdown, "docx", tuple(warnings))
    if kind == "pdf":
        title, markdown, warnings = pdf_to_markdown(path, password=password)
        return Converted(title or path.stem, markdown, "pdf", tuple(warnings))
    raise DocumentError(
        f"{path}: cannot convert {suffix or 'a file without an extension'} "
        f"(chunklab reads {', '.join((*TEXT_SUFFIXES, *CONVERTED_SUFFIXES))})"
    )
