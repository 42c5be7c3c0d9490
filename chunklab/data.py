"""Getting text in: the series' own documents by name, and any file by path.

The documents in `data/` are listed in `data/catalog.json`; each may have a question set
`NAME.questions.json`. A question's facts are checked against its document when it is loaded: a
fact that does not occur in the document is a broken question, and it fails loudly here rather
than as a silently unanswerable question in an experiment.
"""

from __future__ import annotations

import codecs
import json
import os
import re
import sys
import unicodedata
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from pydantic import Field, ValidationError, field_validator

from chunklab.contracts import Contract, Document
from chunklab.markdown import ATX, ATX_CLOSING, is_template_expression, split_front_matter

DATA_ENV = "CHUNKLAB_DATA"


class DocumentError(ValueError):
    """A file that cannot become a `Document`. The message starts with the file's name."""


class Question(Contract):
    """A question and the facts that must all reach the model for the answer to be right."""

    id: str = Field(min_length=1)
    question: str = Field(min_length=1)
    facts: tuple[str, ...] = Field(min_length=1)

    @field_validator("facts")
    @classmethod
    def _facts_not_blank(cls, facts: tuple[str, ...]) -> tuple[str, ...]:
        if any(not f.strip() for f in facts):
            raise ValueError("a fact must not be empty")
        return facts


class QuestionSet(Contract):
    document: str
    source: str = ""
    questions: tuple[Question, ...] = Field(min_length=1)

    @field_validator("questions")
    @classmethod
    def _ids_unique(cls, questions: tuple[Question, ...]) -> tuple[Question, ...]:
        ids = [q.id for q in questions]
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        if duplicates:
            raise ValueError(f"question ids must be unique, repeated: {', '.join(duplicates)}")
        return questions


@cache
def _nonspacing_marks() -> re.Pattern[str]:
    """A regex of the code points this Python's `unicodedata` calls Mn (0.1 s, once). Not the
    `regex` module's \\p{Mn}: its newer Unicode has marks this Python's has not, and folding
    must not depend on which library answers."""
    marks = [c for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Mn"]
    ranges, start = [], marks[0]
    for before, after in zip(marks, [*marks[1:], None], strict=True):
        if after != before + 1:
            ranges.append(f"\\U{start:08x}-\\U{before:08x}" if start != before else f"\\U{start:08x}")
            start = after
    return re.compile(f"[{''.join(ranges)}]+")


def fold(text: str) -> str:
    """Lower case without accents, so 'Responsável' and 'responsavel' compare equal.

    Every child is folded when it is indexed, so this is on the indexing path: ASCII text (most
    of it) is only lowered, and the accents of the rest are removed by one regex pass in C rather
    than a Python test per character (term counts of 15,607 children: 3.6 s -> 0.5 s)."""
    if text.isascii():
        return text.lower()
    return _nonspacing_marks().sub("", unicodedata.normalize("NFD", text.lower()))


def data_dir() -> Path:
    """The series' data folder: `$CHUNKLAB_DATA` if set; else the copy an installed wheel carries
    (`chunklab.series_data`); else the `data/` folder of this checkout."""
    if os.environ.get(DATA_ENV):
        folder = Path(os.environ[DATA_ENV])
    else:
        candidates = [Path(__file__).resolve().parent / "series_data", Path(__file__).resolve().parent.parent / "data"]
        folder = next((c for c in candidates if (c / "catalog.json").is_file()), candidates[-1])
    if not (folder / "catalog.json").is_file():
        raise DocumentError(f"{folder}: no catalog.json, so the series' documents cannot be found; "
                            f"run from a checkout of chunklab, or set {DATA_ENV} to its data/ folder")
    return folder


def _catalog() -> dict[str, dict[str, Any]]:
    return json.loads((data_dir() / "catalog.json").read_text(encoding="utf-8"))


def list_documents() -> list[str]:
    """Names accepted by `load_document`, in catalogue order."""
    return list(_catalog())


def load_document(name: str) -> Document:
    """One of the series' documents, e.g. `load_document("manual")`."""
    catalog = _catalog()
    if name not in catalog:
        raise KeyError(f"unknown document {name!r} (known: {', '.join(catalog)})")
    entry = catalog[name]
    text = (data_dir() / entry["file"]).read_text(encoding="utf-8")
    metadata = {"language": entry["language"], **entry.get("metadata", {})}
    return Document(
        doc_id=name, uri=f"data/{entry['file']}", title=entry["title"], text=text, metadata=metadata
    )


def unmatched_facts(questions: QuestionSet, doc: Document) -> dict[str, list[str]]:
    """Facts that do not occur verbatim (case-insensitively) in the document, by question id.

    Facts must occur at least after folding case and accents; one that only matches folded is
    reported here, because an exact-substring check (the article's) will never find it.
    """
    text = doc.text.lower()
    found: dict[str, list[str]] = {}
    for q in questions.questions:
        missing = [f for f in q.facts if f.lower() not in text]
        if missing:
            found[q.id] = missing
    return found


def load_questions(name: str) -> QuestionSet:
    """The question set of a document; raises `ValueError` naming any fact the document lacks."""
    path = data_dir() / f"{name}.questions.json"
    questions = QuestionSet.model_validate_json(path.read_text(encoding="utf-8"))
    doc = load_document(questions.document)
    folded = fold(doc.text)
    for q in questions.questions:
        for fact in q.facts:
            if fold(fact) not in folded:
                raise ValueError(f"{path.name}: question {q.id}: fact {fact!r} is not in {doc.uri}")
    return questions


def read_document(path: str | Path, doc_id: str | None = None) -> Document:
    """Read a UTF-8 text file as a `Document`, or an HTML, Word or PDF file converted to Markdown
    (`chunklab.convert`); any problem is a `DocumentError` naming the file."""
    path = Path(path)
    from chunklab.convert import CONVERTED_SUFFIXES, REFUSED_SUFFIXES, convert

    if path.suffix.lower() in (*CONVERTED_SUFFIXES, *REFUSED_SUFFIXES) and not path.is_dir():
        converted = convert(path)
        try:
            return Document(doc_id=doc_id or path.stem or "document", uri=str(path), title=converted.title,
                            text=converted.markdown,
                            metadata={"source_file": path.name, "format": converted.format})
        except ValidationError as exc:
            raise DocumentError(f"{path}: {exc.errors()[0]['msg']}") from None
    try:
        raw = path.read_bytes()
    except IsADirectoryError:
        raise DocumentError(f"{path}: is a directory, not a file") from None
    except OSError as exc:
        raise DocumentError(f"{path}: cannot read ({exc.strerror or exc})") from None
    # Line endings as Python's text mode reads them: CRLF and a lone CR are newlines, not content.
    text = decode_text(raw, path).replace("\r\n", "\n").replace("\r", "\n")
    try:
        return Document(doc_id=doc_id or path.stem or "document", uri=str(path),
                        title=document_title(text, fallback=path.stem), text=text)
    except ValidationError as exc:
        raise DocumentError(f"{path}: {exc.errors()[0]['msg']}") from None


# Byte-order marks: they say how the bytes are encoded, and are not part of the text.
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def decode_text(raw: bytes, path: str | Path) -> str:
    """UTF-8 (a BOM dropped), or UTF-16/32 when a BOM says so; anything else is a `DocumentError`.

    Editors on Windows save "Unicode" text as UTF-16 with a BOM; it is read, not refused. Without
    a BOM there is no safe way to tell other encodings apart, so the error names the byte.
    """
    encoding = next((name for bom, name in _BOMS if raw.startswith(bom)), "utf-8")
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as exc:
        where = f"byte 0x{raw[exc.start]:02x} at offset {exc.start}"
        if encoding == "utf-8":
            raise DocumentError(f"{path}: not valid UTF-8 ({where})") from None
        raise DocumentError(f"{path}: starts with a {encoding.upper()} byte-order mark but is not valid "
                            f"{encoding.upper()} ({where})") from None


TITLE_MAX_CHARS = 100  # a longer first line is a sentence, not a title
TITLE_SCAN_CHARS = 1 << 16  # front matter and the first lines are far shorter


def document_title(text: str, fallback: str) -> str:
    """The title a reader would give the document.

    In order: the YAML front matter's `title:`; the first line after it when it is an ATX heading,
    or a short line standing alone (the manual's "MANUAL DE OPERAÇÕES"); else `fallback` (the
    file's stem). A template tag (`<%= current_page.data.title %>`) is never a title: the page's
    generator fills it in, and the source does not say with what.
    """
    # The title is at the top: a long document is not copied (twice, by the splits below) to find it.
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
            candidates = [ATX_CLOSING.sub("", heading.group(2)).strip()]
        else:
            candidates = [first] if alone and len(first) <= TITLE_MAX_CHARS else []
    return next((c for c in candidates if c and not is_template_expression(c)), fallback)


def _yaml_mapping(raw: str) -> dict[str, Any]:
    """Front matter as a mapping; {} when there is none, or it is not valid YAML or not a mapping."""
    try:
        fields = yaml.safe_load(raw) if raw.strip() else {}
    except yaml.YAMLError:
        return {}
    return fields if isinstance(fields, dict) else {}


def load_topic_boundaries(name: str) -> list[int]:
    """Character offsets where each topic of a prose document starts (the first is 0).

    Read from `NAME.boundaries.json`; a boundary whose words are not found exactly once is an error.
    """
    path = data_dir() / f"{name}.boundaries.json"
    spec = json.loads(path.read_text(encoding="utf-8"))
    text = load_document(spec["document"]).text
    offsets = []
    for topic in spec["topics"]:
        needle = topic["starts_with"]
        if text.count(needle) != 1:
            raise ValueError(f"{path.name}: topic {topic['topic']!r}: {needle!r} must occur exactly once in the text")
        offsets.append(text.index(needle))
    if offsets != sorted(offsets):
        raise ValueError(f"{path.name}: topics are not in document order")
    return offsets
