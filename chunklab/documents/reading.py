"""Any file by path as a `Document`: text files read as they are, HTML, Word and PDF converted.

A document's title is the one a reader would give it (front matter, first heading, a short first
line); any problem is a `DocumentError` that names the file. What a file is comes from its suffix,
unless its first bytes say otherwise (`documents.signatures`): a PDF named `notes.md` is converted
as a PDF, with a warning that its suffix said otherwise.

A source file (`.py`, `.js`, ...: `parsing.languages`) is a text file: UTF-8 as `.txt` is (a byte
that is not is one line naming it, exit code 2, as for `.txt`: Go and Rust sources are UTF-8 by
their language's definition, Python 3's by default, and a guessed encoding would put misread
string literals in the index without a word; `documents.charsets` guesses for HTML only, where a
browser guesses too). Its title is its file name, its metadata says its `language`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from chunklab.contracts import Document
from chunklab.documents.convert import KIND_OF_SUFFIX, convert
from chunklab.documents.files import REFUSED_SUFFIXES, DocumentError, decode_text, readable_suffixes
from chunklab.documents.signatures import NAMES, head_of, kind_of, looks_like_html
from chunklab.parsing.blocks import ATX, ATX_CLOSING, is_template_expression, split_front_matter
from chunklab.parsing.languages import language_for, syntax_error_lines
from chunklab.parsing.sections import plain_title


def read_document(
    path: str | Path, doc_id: str | None = None, password: str | None = None
) -> Document:
    """Read a UTF-8 text file as a `Document`, or an HTML, Word or PDF file converted to Markdown
    (`chunklab.documents.convert`; `password` opens an encrypted PDF); any problem is a
    `DocumentError` naming the file."""
    path = Path(path)
    if path.is_dir():
        raise DocumentError(f"{path}: is a directory, not a file")
    kind, said = what_it_is(path)
    if kind is not None or path.suffix.lower() in REFUSED_SUFFIXES:
        converted = convert(path, kind, password)
        warnings = [*said, *converted.warnings]
        try:
            return Document(
                doc_id=doc_id or path.stem or "document",
                uri=str(path),
                title=converted.title,
                text=converted.markdown,
                metadata={"source_file": path.name, "format": converted.format}
                | ({"conversion_warnings": warnings} if warnings else {}),
            )
        except ValidationError as exc:
            raise DocumentError(f"{path}: {exc.errors()[0]['msg']}") from None
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DocumentError(f"{path}: cannot read ({exc.strerror or exc})") from None
    # Line endings as Python's text mode reads them: CRLF and a lone CR are newlines, not content.
    text = decode_text(raw, path).replace("\r\n", "\n").replace("\r", "\n")
    language = language_for(path)
    metadata: dict[str, Any] = {}
    if language:
        metadata["language"] = language.name
        errors = syntax_error_lines(text, language)
        if errors:
            metadata["conversion_warnings"] = [syntax_errors_said(errors)]
    try:
        return Document(
            doc_id=doc_id or path.stem or "document",
            uri=str(path),
            # A source file's first line is a docstring, an import or a `# comment` that reads as
            # a Markdown heading: its name is the title a reader gives it.
            title=path.name if language else document_title(text, fallback=path.stem),
            text=text,
            metadata=metadata,
        )
    except ValidationError as exc:
        raise DocumentError(f"{path}: {exc.errors()[0]['msg']}") from None


def syntax_errors_said(lines: list[int], named: int = 10) -> str:
    """The warning a source file with syntax errors carries: it still chunks (tree-sitter parses
    around an error), and the reader of its document learns which lines the tree could not place."""
    shown = ", ".join(map(str, lines[:named])) + (
        f" and {len(lines) - named} more" if len(lines) > named else ""
    )
    return (
        f"syntax errors at line{'s' if len(lines) > 1 else ''} {shown}: parsed around them, "
        "so the file still chunks; the chunks holding them say syntax_errors"
    )


def what_it_is(path: Path) -> tuple[str | None, list[str]]:
    """(the converter the file needs: "html", "docx", "pdf", or None for text, warnings): by its
    suffix, unless its first bytes are a PDF or a Word file (converted so, with a warning), an
    HTML page where the suffix says PDF or Word (likewise), or a format chunklab does not read (a
    `DocumentError` that says what the file is)."""
    try:
        head = head_of(path)
    except OSError as exc:
        raise DocumentError(f"{path}: cannot read ({exc.strerror or exc})") from None
    suffix = path.suffix.lower()
    by_suffix = KIND_OF_SUFFIX.get(suffix)
    found = kind_of(path, head)
    if found is None and by_suffix in ("pdf", "docx") and looks_like_html(head):
        found = "html"
    if found is None or found == by_suffix:
        return by_suffix, []
    named = f"named {suffix}" if suffix else "named without a suffix"
    if found in NAMES:
        return found, [f"{named} but the file is {NAMES[found]}: converted as {NAMES[found]}"]
    if suffix in REFUSED_SUFFIXES:  # refused by its suffix already, in `convert`'s words
        return None, []
    raise DocumentError(
        f"{path}: {named} but the file is {found}, which chunklab does not read "
        f"(it reads {readable_suffixes()})"
    )


TITLE_MAX_CHARS = 100  # a longer first line is a sentence, not a title
TITLE_SCAN_CHARS = 1 << 16  # front matter and the first lines are far shorter


def document_title(text: str, fallback: str) -> str:
    """The title a reader would give the document.

    In order: the YAML front matter's `title:`; the first line after it when it is an ATX heading,
    or a short line standing alone (the manual's "MANUAL DE OPERAÇÕES"); else `fallback` (the
    file's stem). A template tag (`<%= current_page.data.title %>`) is never a title: the page's
    generator fills it in, and the source does not say with what.
    """
    # The title is at the top: a long document is not copied (twice, by the splits below) to find
    # it.
    raw, body = split_front_matter(text[:TITLE_SCAN_CHARS])
    title = _yaml_mapping(raw).get("title")
    if isinstance(title, str | int | float):
        candidates = [str(title).strip()]
    else:
        first, _, rest = body.lstrip().partition("\n")
        first = first.strip()
        heading = ATX.fullmatch(first)
        alone = not rest.partition("\n")[0].strip()
        if heading:
            candidates = [plain_title(ATX_CLOSING.sub("", heading.group(2)).strip())]
        else:
            candidates = [first] if alone and len(first) <= TITLE_MAX_CHARS else []
    return next((c for c in candidates if c and not is_template_expression(c)), fallback)


def _yaml_mapping(raw: str) -> dict[str, Any]:
    """Front matter as a mapping; {} when there is none, or it is invalid YAML or not a mapping."""
    try:
        fields = yaml.safe_load(raw) if raw.strip() else {}
    except yaml.YAMLError:
        return {}
    return fields if isinstance(fields, dict) else {}
