"""Word (.docx) to Markdown: mammoth's HTML of the file, then the HTML path (`documents.html`).

mammoth (BSD-2) maps Word's styles to HTML: headings, lists (nested ones by their numbering
level), tables (merged cells as `colspan` / `rowspan`), footnotes and endnotes (a numbered list at
the end, each note linked from its mark), and the text of text boxes. What it does not map it
reports as messages (an element ignored, a style it has no mapping for, whose text it keeps as a
plain paragraph); those are never dropped silently: each becomes one line of the document's
`conversion_warnings` (the unmapped styles gathered on one), with what the HTML step
reports (a table's first row taken as its header, cells merged across rows), and
`chunklab chunk --show-markdown` prints them on stderr.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from chunklab.documents.files import DocumentError
from chunklab.documents.html import HtmlMarkdown, html_to_markdown

UNMAPPED_STYLE = re.compile(r"Unrecognised (?:paragraph|run|table) style: (.+?) \(Style ID: ")


def docx_to_markdown(path: Path) -> HtmlMarkdown:
    """(title, Markdown, warnings) of a Word file: mammoth's HTML of it, then
    `html_to_markdown`; mammoth's messages lead the warnings."""
    import mammoth

    try:
        with path.open("rb") as handle:
            result = mammoth.convert_to_html(handle)
    except (zipfile.BadZipFile, KeyError, ValueError) as exc:
        raise DocumentError(
            f"{path}: not a readable Word (.docx) file ({exc.__class__.__name__})"
        ) from None
    title, markdown, warnings = html_to_markdown(f"<html><body>{result.value}</body></html>", path)
    return HtmlMarkdown(title, markdown, [*mammoth_warnings(result.messages), *warnings])


def mammoth_warnings(messages) -> list[str]:
    """mammoth's messages, one line each; the styles it has no mapping for (their text kept as
    plain paragraphs and runs) gathered on one line, since every Word file has some."""
    styles, lines = [], []
    for message in messages:
        if style := UNMAPPED_STYLE.match(message.message):
            styles.append(style.group(1))
        else:
            lines.append(f"mammoth {message.type}: {message.message}")
    if styles:
        named = ", ".join(dict.fromkeys(styles))
        lines.insert(0, f"Word styles read as plain text (no Markdown equivalent): {named}")
    return list(dict.fromkeys(lines))
