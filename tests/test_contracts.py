import pytest
from pydantic import ValidationError

from chunklab import Chunk, Chunker, Document, FixedSizeChunker, Scored, ScoreSource


def make_chunk(**overrides):
    fields = dict(
        chunk_id="d#0", doc_id="d", ordinal=0, text="hello", token_count=1, start=0, end=5
    )
    return Chunk(**{**fields, **overrides})


def test_valid_chunk_keeps_its_fields():
    chunk = make_chunk(heading_path=["A", "B"], parent_id="d#s1", metadata={"tenant": "t"})
    assert chunk.heading_path == ("A", "B")
    assert chunk.parent_id == "d#s1"
    assert Chunk.model_validate_json(chunk.model_dump_json()) == chunk


@pytest.mark.parametrize(
    "overrides, says",
    [
        ({"chunk_id": ""}, "chunk_id must not be empty"),
        ({"doc_id": "   "}, "doc_id must not be empty"),
        ({"parent_id": ""}, "parent_id must not be empty"),
        ({"token_count": -1}, "greater than or equal to 0"),
        ({"ordinal": -3}, "greater than or equal to 0"),
        ({"start": 9, "end": 4}, "start (9) must not be greater than end (4)"),
        ({"start": -1}, "greater than or equal to 0"),
        ({"colour": "red"}, "Extra inputs are not permitted"),
    ],
)
def test_invalid_chunk_is_a_validation_error_that_says_why(overrides, says):
    with pytest.raises(ValidationError) as excinfo:
        make_chunk(**overrides)
    assert says in str(excinfo.value)


def test_records_are_frozen():
    chunk = make_chunk()
    with pytest.raises(ValidationError, match="frozen"):
        chunk.text = "changed"


def test_document_content_hash_is_stable_and_tracks_text():
    a = Document(doc_id="a", uri="urn:a", title="A", text="same text")
    b = Document(doc_id="b", uri="urn:b", title="B", text="same text")
    c = Document(doc_id="a", uri="urn:a", title="A", text="other text")
    assert a.content_hash == b.content_hash != c.content_hash
    # blake2b with a 16-byte digest, written out independently of the model:
    import hashlib

    assert a.content_hash == hashlib.blake2b(b"same text", digest_size=16).hexdigest()


def test_document_rejects_empty_id():
    with pytest.raises(ValidationError, match="doc_id must not be empty"):
        Document(doc_id="", uri="urn:x", title="", text="")


def test_scored_rejects_nan_and_unknown_source():
    assert Scored(ref_id="d#0", score=0.5, source="bm25").source is ScoreSource.LEXICAL
    with pytest.raises(ValidationError):
        Scored(ref_id="d#0", score=float("nan"), source="bm25")
    with pytest.raises(ValidationError):
        Scored(ref_id="d#0", score=1.0, source="telepathy")


def test_chunker_protocol_is_structural():
    assert isinstance(FixedSizeChunker(), Chunker)
    assert not isinstance(object(), Chunker)
