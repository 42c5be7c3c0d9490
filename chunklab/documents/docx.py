"""Word (.docx) to Markdown: mammoth's HTML of the file, then the HTML path (`documents.html`).

mammoth (BSD-2) maps Word's styles to HTML: headings, lists (nested ones by their numbering
level), tables (merged cells as `colspan` / `rowspan`), footnotes and endnotes (a numbered list at
the end, each note linked from its mark), and the text of text boxes. What it does not map it
reports as messages (an element ignored, a style it has no mapping for, whose text it keeps as a
plain paragraph); those are never dropped silently: each becomes one line of the document's
`conversion_warnings` (the unmapped styles gathered on one), with what the HTML step
reports (a table's first row taken as its header, cells merged across rows), and
`chunklab chunk --show-markdown` prints them on stderr.

The title. mammoth converts the body only, and a Word file keeps its title outside it, in the
core properties (`dc:title` in the part `_rels/.rels` names, `docProps/core.xml` in practice:
pandoc writes the front matter's title there, Word its File > Info > Title). It is read here and
comes first, as an HTML page's `<title>`, a PDF's metadata title and a Markdown file's front matter
do; when it is missing, empty or a template tag, the first `#` heading of the body, then (in
`documents.convert`) the file's name. Without it, every chunk's heading path of a file such as
`gdsway-managing-sensitive-information.docx` started with the file's name, not its title.
A core-properties part that cannot be read costs only the title, and is named in the warnings.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from pathlib import Path
from xml.etree import ElementTree

from chunklab.documents.files import DocumentError
from chunklab.documents.html import HtmlMarkdown, html_to_markdown
from chunklab.parsing.blocks import is_template_expression

UNMAPPED_STYLE = re.compile(r"Unrecognised (?:paragraph|run|table) style: (.+?) \(Style ID: ")
RELATIONSHIP = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"
# The relationship's type ends so in both spellings writers use: `.../package/2006/...` (Word,
# pandoc) and `.../officedocument/2006/...` (LibreOffice).
CORE_PROPERTIES = "/relationships/metadata/core-properties"
DC_TITLE = "{http://purl.org/dc/elements/1.1/}title"
MAX_CORE_BYTES = 1 << 20  # core properties are a few hundred bytes; a bigger part is not read


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
    core, core_warnings = core_title(path)
    heading, markdown, warnings = html_to_markdown(
        f"<html><body>{result.value}</body></html>", path
    )
    return HtmlMarkdown(
        core or heading, markdown, [*mammoth_warnings(result.messages), *core_warnings, *warnings]
    )


def core_title(path: Path) -> tuple[str, list[str]]:
    """(the core properties' `dc:title`, warnings): its whitespace collapsed; "" when the file has
    no core properties, no title, an empty one or a template tag (the generator's, not a title).
    A part `_rels/.rels` names that cannot be read gives "" and one warning naming it."""
    part = None
    try:
        with zipfile.ZipFile(path) as package:
            part = core_part(package)
            if part is None:
                return "", []
            if package.getinfo(part).file_size > MAX_CORE_BYTES:
                return "", [f"{part}: core properties over {MAX_CORE_BYTES} bytes, title not read"]
            core = ElementTree.fromstring(package.read(part))
    except KeyError:  # the part `_rels/.rels` names is not in the file
        return "", [f"{part}: core properties named in _rels/.rels but missing; title not read"]
    except (zipfile.BadZipFile, ElementTree.ParseError) as exc:
        where = part or "_rels/.rels"
        return "", [f"{where}: not readable ({exc.__class__.__name__}); title not read"]
    found = core.find(DC_TITLE)
    title = " ".join("".join(found.itertext()).split()) if found is not None else ""
    return ("" if is_template_expression(title) else title), []


def core_part(package: zipfile.ZipFile) -> str | None:
    """The name of the core-properties part, as the package's relationships give it; None when
    they name none, or the file has no `_rels/.rels` (mammoth then reads `word/document.xml`)."""
    if "_rels/.rels" not in package.namelist():
        return None
    rels = ElementTree.fromstring(package.read("_rels/.rels"))
    return next(
        (
            posixpath.normpath(rel.get("Target", "").lstrip("/"))
            for rel in rels.iter(RELATIONSHIP)
            if rel.get("Type", "").lower().endswith(CORE_PROPERTIES)
            and rel.get("TargetMode") != "External"
        ),
        None,
    )


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
