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

Comments. mammoth leaves a reviewer's comments (`word/comments.xml`) out of the body without a
message; a comment is not the document's text, so it stays out of the Markdown, but each is said
in the warnings (`word_comments`): who wrote it, on which words, and what it says.
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
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
COMMENTS = "/relationships/comments"  # the type of the document part's link to its comments
MAX_COMMENTS_SAID = 20  # one warning each; the rest counted on one more line
MAX_QUOTE_CHARS = 120  # of a comment, and of the words it is on


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
    said = [*mammoth_warnings(result.messages), *core_warnings, *word_comments(path), *warnings]
    return HtmlMarkdown(core or heading, markdown, said)


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


def _quoted(text: str) -> str:
    """`text` on one line, in quotes, cut to `MAX_QUOTE_CHARS`."""
    text = " ".join(text.split())
    return f'"{text[: MAX_QUOTE_CHARS - 1]}…"' if len(text) > MAX_QUOTE_CHARS else f'"{text}"'


def comments_part(package: zipfile.ZipFile) -> str | None:
    """The name of the comments part, as the document part's relationships give it (Word and
    LibreOffice write `word/comments.xml`); None when there is none."""
    rels_name = "word/_rels/document.xml.rels"
    if rels_name not in package.namelist():
        return None
    rels = ElementTree.fromstring(package.read(rels_name))
    for rel in rels.iter(RELATIONSHIP):
        if rel.get("Type", "").endswith(COMMENTS) and rel.get("TargetMode") != "External":
            target = rel.get("Target", "")
            name = target.lstrip("/") if target.startswith("/") else f"word/{target}"
            return posixpath.normpath(name)
    return None


def commented_words(document: ElementTree.Element) -> dict[str, str]:
    """Comment id -> the words of the body it is on (between its range start and end marks)."""
    open_ids: list[str] = []
    words: dict[str, list[str]] = {}
    for element in document.iter():
        if element.tag == f"{W}commentRangeStart":
            open_ids.append(element.get(f"{W}id", ""))
        elif element.tag == f"{W}commentRangeEnd":
            closing = element.get(f"{W}id", "")
            open_ids = [i for i in open_ids if i != closing]
        elif element.tag == f"{W}t" and element.text:
            for comment_id in open_ids:
                words.setdefault(comment_id, []).append(element.text)
    return {comment_id: "".join(parts) for comment_id, parts in words.items()}


def word_comments(path: Path) -> list[str]:
    """One warning per reviewer's comment (mammoth leaves them out without a word): its number,
    author, the words it is on and its text; past `MAX_COMMENTS_SAID`, a count of the rest. A
    comments part that cannot be read is one warning that says so."""
    try:
        with zipfile.ZipFile(path) as package:
            part = comments_part(package)
            if part is None or part not in package.namelist():
                return []
            comments = ElementTree.fromstring(package.read(part)).findall(f"{W}comment")
            if not comments:
                return []
            anchors = commented_words(ElementTree.fromstring(package.read("word/document.xml")))
    except (zipfile.BadZipFile, KeyError, ElementTree.ParseError) as exc:
        return [f"Word comments: not readable ({exc.__class__.__name__}); any comments are lost"]
    total, lines = len(comments), []
    for number, comment in enumerate(comments[:MAX_COMMENTS_SAID], start=1):
        author = comment.get(f"{W}author") or "an unnamed author"
        on = anchors.get(comment.get(f"{W}id", ""), "")
        where = f" on {_quoted(on)}" if on.strip() else ""
        text = "".join(t.text or "" for t in comment.iter(f"{W}t"))
        lines.append(
            f"Word comment {number} of {total}, not in the text: by {author}{where}: "
            f"{_quoted(text)}"
        )
    if total > MAX_COMMENTS_SAID:
        lines.append(f"Word comments: {total - MAX_COMMENTS_SAID} more, not in the text")
    return lines
