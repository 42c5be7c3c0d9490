"""The records every stage of the pipeline agrees on.

A chunker takes a `Document` (or a plain string, `as_document`) and returns a list of `Chunk`; a
retriever returns `Scored` results. They are pydantic models, frozen (nobody edits a record after
it is made) and `extra="forbid"` (a misspelt field is an error, not a silently ignored key).
Invalid values fail at construction time with a message that names the field and says what is
wrong.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from enum import StrEnum
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator


class Contract(BaseModel):
    """Base of every record: frozen, and unknown fields are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @classmethod
    def trusted(cls, **values: Any):
        """A record built from values that need no checking, without running validation.

        For a chunker that computed every value itself and builds thousands of records, where
        validation would cost more than the chunking. Every field must be given (no defaults
        are filled in), and the tests re-validate what it builds (`model_validate(r.model_dump())`).
        This is what pydantic's `model_construct` does, without its per-field Python loop.
        """
        fields = cls.__pydantic_fields__
        if values.keys() != fields.keys():
            raise TypeError(f"{cls.__name__}.trusted needs every field: {', '.join(fields)}")
        record = cls.__new__(cls)
        object.__setattr__(record, "__dict__", values)
        object.__setattr__(record, "__pydantic_fields_set__", set(values))
        object.__setattr__(record, "__pydantic_extra__", None)
        object.__setattr__(record, "__pydantic_private__", None)
        return record


def _require_text(value: str, field: str) -> str:
    if not value.strip():
        raise ValueError(f"{field} must not be empty or only whitespace")
    return value


class Document(Contract):
    """A source unit: one file, one ticket, one policy. `text` is the exact text offsets index."""

    doc_id: str
    uri: str
    title: str
    text: str
    metadata: dict[str, Any] = Field(default_factory=dict)

    @field_validator("doc_id", "uri")
    @classmethod
    def _ids_not_empty(cls, value: str, info) -> str:
        return _require_text(value, info.field_name)

    @property
    def content_hash(self) -> str:
        """A fingerprint of the text, to tell whether a document changed since it was indexed."""
        return hashlib.blake2b(self.text.encode("utf-8"), digest_size=16).hexdigest()


TEXT_ID = "text"  # the doc_id (and uri) of a plain string given to a chunker


def span_chunks(
    doc: Document, spans: Sequence[tuple[int, int, int]], strategy: str, **metadata: Any
) -> list[Chunk]:
    """One chunk per (start, end, tokens) of `doc`, its text the exact slice, numbered in order:
    what every chunker that cuts spans (and adds nothing to them) returns. The metadata says the
    strategy, the document's tenant, then `metadata`."""
    tenant = doc.metadata.get("tenant", "default")
    return [
        Chunk(
            chunk_id=f"{doc.doc_id}#{n}",
            doc_id=doc.doc_id,
            ordinal=n,
            text=doc.text[a:b],
            token_count=tokens,
            start=a,
            end=b,
            metadata={"strategy": strategy, "tenant": tenant, **metadata},
        )
        for n, (a, b, tokens) in enumerate(spans)
    ]


def as_document(doc: Document | str) -> Document:
    """What every chunker's `split` takes: a `Document`, or a plain string, read as a document
    with doc_id and uri `"text"` and no title (its chunks are `text#0`, `text#1`, ...). Anything
    else is a `TypeError` that says what to pass."""
    if isinstance(doc, Document):
        return doc
    if isinstance(doc, str):
        return Document(doc_id=TEXT_ID, uri=TEXT_ID, title="", text=doc)
    raise TypeError(
        f"a chunker splits a str or a chunklab.Document, not {type(doc).__name__}: "
        "chunklab.Document(doc_id=..., uri=..., title=..., text=...)"
    )


class Chunk(Contract):
    """What the index stores and search returns.

    `start`/`end` are character offsets into `Document.text` of the region the chunk was cut from
    (end exclusive), so a citation can point back at the source. `text` may hold more than that
    region (a breadcrumb, a repeated table header), never less of it than the chunker promises.
    `parent_id` exists from day one: adding it later means re-indexing everything to fill it in.
    """

    chunk_id: str
    doc_id: str
    parent_id: str | None = None
    ordinal: int = Field(ge=0, description="position among the chunks of its document or parent")
    text: str
    token_count: int = Field(ge=0, description="tokens of `text`, counted by the chunker's counter")
    heading_path: tuple[str, ...] = ()
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    metadata: dict[str, Any] = Field(default_factory=dict)

    @field_validator("chunk_id", "doc_id")
    @classmethod
    def _ids_not_empty(cls, value: str, info) -> str:
        return _require_text(value, info.field_name)

    @field_validator("parent_id")
    @classmethod
    def _parent_not_empty(cls, value: str | None) -> str | None:
        # None means "no parent"; an empty string would be a parent nobody can look up.
        return None if value is None else _require_text(value, "parent_id")

    @model_validator(mode="after")
    def _span_in_order(self) -> Chunk:
        if self.start > self.end:
            raise ValueError(f"start ({self.start}) must not be greater than end ({self.end})")
        return self


class ScoreSource(StrEnum):
    """Where a retrieval score came from. Scores of different sources are not comparable."""

    VECTOR = "vector"  # similarity of meaning (embeddings)
    LEXICAL = "bm25"  # exact-word match (BM25, word overlap)
    FUSED = "fused"  # several rankings fused by rank (reciprocal rank fusion), not by score
    GRAPH = "graph"  # found through a relation, not through text
    COMMUNITY = "community"  # a summary of a group of graph nodes


class Scored(Contract):
    """One retrieval result: which record, its score, and what kind of search produced it."""

    ref_id: str
    score: float = Field(allow_inf_nan=False)
    source: ScoreSource
    payload: dict[str, Any] = Field(default_factory=dict)

    @field_validator("ref_id")
    @classmethod
    def _ref_not_empty(cls, value: str) -> str:
        return _require_text(value, "ref_id")


@runtime_checkable
class Chunker(Protocol):
    """The one thing the rest of the pipeline needs from a chunker, so chunkers can be swapped."""

    def split(self, doc: Document | str) -> list[Chunk]:
        """The document cut into chunks, in document order, numbered from 0 (`ordinal`).

        Every chunker has this one method, so the CLI, the experiment and the index can take any
        of them. `doc` may be a plain string (`as_document`). Each chunk's `start`/`end` point
        back into `doc.text`; what its `text` holds besides that slice (a breadcrumb, a repeated
        header) depends on the chunker.
        """
        ...
