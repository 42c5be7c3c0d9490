"""Questions: the series' question sets (`load_questions`), and question files.

Question files say what to ask of a set of documents, the facts an answer needs, and where they are.
A question file is YAML (the README's "measure your own base" shows one;
data/experiment.questions.yaml is the series' own):

    questions:
      - id: q1                      # unique in the file
        document: handbook          # a document id (file name without extension) or file name
        question: How long do I have to submit expenses?
        facts: ["within 15 days"]   # all must reach the model; matched ignoring case
        gold:                       # optional: the evidence, as spans of the document
          - {start: 812, end: 856, text: "Submit expenses within 15 days of returning."}
          - "a quote also works: it is located, and must occur exactly once"

Without `gold`, each fact's first occurrence is its evidence. Every fact and span is checked
against the document when the file is loaded, so a broken question fails here, by name, rather
than scoring zero in silence.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import yaml
from pydantic import Field, ValidationError, field_validator

from chunklab.contracts import Contract, Document
from chunklab.documents.series import data_dir, load_document
from chunklab.tokens.folding import fold


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
    """A document's questions (`load_questions`): what an experiment asks of every strategy's
    chunks of that `document`. Question ids are unique, so results can be matched by id."""

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


class QuestionFileError(ValueError):
    """A question file that cannot be used. The message starts with the file's name."""


class Span(Contract):
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    text: str


class GoldQuestion(Question):
    """A question of a question file: which document it asks about, and where the evidence is."""

    document: str = Field(min_length=1)
    gold: tuple[Span, ...] = ()


def _document_for(name: str, documents: Mapping[str, Document]) -> Document | None:
    if name in documents:
        return documents[name]
    stem = Path(name).stem
    return documents.get(stem)


def _locate(quote: str, text: str, where: str) -> Span:
    count = text.count(quote)
    if count != 1:
        problem = (
            "is not in the document"
            if count == 0
            else f"occurs {count} times; give its start and end"
        )
        raise QuestionFileError(f"{where}: gold quote {quote[:40]!r} {problem}")
    start = text.index(quote)
    return Span(start=start, end=start + len(quote), text=quote)


def _question_items(path: Path) -> list:
    """The file's list of questions; a file that cannot be read, decoded or parsed, or that holds
    no list of questions, is a `QuestionFileError` that says which."""
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise QuestionFileError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise QuestionFileError(f"{path}: not valid UTF-8") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}" if mark else ""
        raise QuestionFileError(f"{path}: not valid YAML{at}") from None
    items = raw.get("questions") if isinstance(raw, dict) else None
    if not isinstance(items, list) or not items:
        raise QuestionFileError(f"{path}: expected a mapping with a non-empty list 'questions'")
    return items


def _named_document(item: dict, where: str, documents: Mapping[str, Document]) -> Document | None:
    """The document a question names; an unknown name lists the known ones. A missing `document`
    gives None here and is left to validation, which names the missing field."""
    doc = _document_for(str(item.get("document", "")), documents)
    if "document" in item and doc is None:
        known = ", ".join(sorted(documents)) or "none"
        raise QuestionFileError(f"{where}: unknown document {item['document']!r} (known: {known})")
    return doc


def _validated(item: dict, name: object, where: str, doc: Document | None) -> GoldQuestion:
    """The item as a `GoldQuestion`, its gold quotes located in the document first; pydantic's
    first error becomes one line naming the question, not a traceback."""
    gold = item.get("gold")
    if doc is not None and isinstance(gold, list):
        item = {
            **item,
            "gold": [_locate(g, doc.text, where) if isinstance(g, str) else g for g in gold],
        }
    try:
        return GoldQuestion.model_validate({**item, "id": str(name)})
    except ValidationError as exc:
        error = exc.errors()[0]
        field = ".".join(str(p) for p in error["loc"])
        message = (
            f"missing field {field!r}" if error["type"] == "missing" else f"{field}: {error['msg']}"
        )
        raise QuestionFileError(f"{where}: {message}") from None


def _check_evidence(question: GoldQuestion, doc: Document, where: str) -> None:
    """Every fact is in the document (ignoring case) and every gold span quotes it exactly, so a
    broken question fails on load, by name, rather than scoring zero in silence."""
    folded = doc.text.lower()
    for fact in question.facts:
        if fact.lower() not in folded:
            raise QuestionFileError(f"{where}: fact {fact!r} is not in document {doc.doc_id!r}")
    for span in question.gold:
        if doc.text[span.start : span.end] != span.text:
            raise QuestionFileError(
                f"{where}: gold span {span.start}:{span.end} "
                f"is {doc.text[span.start : span.end][:40]!r}, "
                f"not {span.text[:40]!r}"
            )


def _with_default_gold(question: GoldQuestion, doc: Document) -> GoldQuestion:
    """Without `gold`, each fact's first occurrence (ignoring case) is its evidence."""
    if question.gold:
        return question
    folded = doc.text.lower()
    spans = []
    for fact in question.facts:
        start = folded.index(fact.lower())
        spans.append(
            Span(start=start, end=start + len(fact), text=doc.text[start : start + len(fact)])
        )
    return question.model_copy(update={"gold": tuple(spans)})


def _checked_question(
    item: dict, name: object, where: str, documents: Mapping[str, Document]
) -> GoldQuestion:
    """One question of a file, validated, checked against its document, with its evidence, and
    named by the document's id (a file may name the document by its file name)."""
    doc = _named_document(item, where, documents)
    question = _validated(item, name, where, doc)
    assert doc is not None  # `document` is a required field, checked just above
    _check_evidence(question, doc, where)
    question = _with_default_gold(question, doc)
    return question.model_copy(update={"document": doc.doc_id})


class SkippedDocument(Exception):
    """Raised by a documents mapping for a document that exists but could not be read: its
    questions are left out of `load_question_file`'s list (and named in `left_out`), the file is
    not at fault."""


def load_question_file(
    path: str | Path, documents: Mapping[str, Document], left_out: list[str] | None = None
) -> list[GoldQuestion]:
    """Read and check a question file against `documents` (by id); errors: `QuestionFileError`.
    A question about a document the mapping skips (`SkippedDocument`) is left out, its id added
    to `left_out` (without that list, the exception goes through)."""
    path = Path(path)
    out: list[GoldQuestion] = []
    seen: set[str] = set()
    for n, item in enumerate(_question_items(path), start=1):
        name = item.get("id", f"#{n}") if isinstance(item, dict) else f"#{n}"
        where = f"{path}: question {name}"
        if not isinstance(item, dict):
            raise QuestionFileError(
                f"{where}: expected a mapping with id, document, question, facts"
            )
        if name in seen:
            raise QuestionFileError(f"{where}: id used twice")
        seen.add(name)
        try:
            out.append(_checked_question(item, name, where, documents))
        except SkippedDocument:
            if left_out is None:
                raise
            left_out.append(str(name))
    return out
