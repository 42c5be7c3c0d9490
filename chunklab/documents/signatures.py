"""What a file is, from its first bytes, for when its suffix lies.

A PDF saved as `notes.md`, a Word file downloaded as `report.doc`, an error page saved as
`paper.pdf`: the suffix says one thing and the bytes another. Read by the suffix, the first two
ended in "not valid UTF-8". The formats chunklab converts have signatures a file cannot carry by
chance (`%PDF-`, a ZIP holding `word/document.xml`), and so do the formats a user may try that it
does not (images, archives, old Office files); `kind_of` names them, and `documents.reading`
converts what the bytes say, with a warning that the suffix said otherwise, or refuses in one line
that says what the file is.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

HEAD_BYTES = 1024  # enough for every signature, and for `looks_like_html`

# Formats chunklab does not read, by signature: what the error line calls them.
OTHER_SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"II*\x00", "a TIFF image"),
    (b"MM\x00*", "a TIFF image"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old Office file (.doc, .xls or .ppt)"),
    (b"{\\rtf", "an RTF file"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
)
NAMES = {"pdf": "a PDF", "docx": "a Word (.docx) file", "html": "an HTML page"}


def head_of(path: Path) -> bytes:
    """The file's first `HEAD_BYTES` (an `OSError` is the caller's to report)."""
    with path.open("rb") as handle:
        return handle.read(HEAD_BYTES)


def _zip_kind(path: Path) -> str | None:
    """ "docx" for a ZIP holding a Word document, else what the error line calls the archive;
    None for a damaged one (the suffix's converter says what is wrong with it)."""
    try:
        with zipfile.ZipFile(path) as package:
            names = set(package.namelist())
    except (zipfile.BadZipFile, OSError):
        return None
    if "word/document.xml" in names:
        return "docx"
    if "mimetype" in names and "content.xml" in names:
        return "an OpenDocument file (.odt, .ods or .odp)"
    if "ppt/presentation.xml" in names:
        return "a PowerPoint (.pptx) file"
    if "xl/workbook.xml" in names:
        return "an Excel (.xlsx) file"
    return "a ZIP archive"


def looks_like_html(head: bytes) -> bool:
    """The page starts as HTML does (`<!DOCTYPE html`, `<html`), blanks and a UTF-8 BOM aside."""
    start = head.removeprefix(b"\xef\xbb\xbf").lstrip().lower()
    return start.startswith((b"<!doctype html", b"<html"))


def kind_of(path: Path, head: bytes) -> str | None:
    """ "pdf" or "docx" when the first bytes are one, else what the file is when it is a format
    chunklab does not read ("a PNG image", ...); None when the bytes do not say (text, HTML: the
    suffix decides)."""
    if head.startswith(b"%PDF-"):
        return "pdf"
    if head.startswith(b"PK\x03\x04"):
        return _zip_kind(path)
    return next((name for signature, name in OTHER_SIGNATURES if head.startswith(signature)), None)
