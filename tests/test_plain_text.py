"""Every registered chunker takes a plain string as well as a `Document` (issue 27): the string is
read as a document with doc_id `"text"`, and anything else is a `TypeError` saying what to pass."""

import pytest

from chunklab import Document
from chunklab.chunkers.registry import STRATEGIES, build
from chunklab.contracts import TEXT_ID, as_document

TEXT = (
    "# Install\n\nRun the installer.\n\n## Keys\n\nRotate the API keys every 90 days. "
    "Then restart.\n"
)


@pytest.mark.parametrize("name", list(STRATEGIES))
def test_every_chunker_takes_a_plain_string_as_the_document_it_names(name):
    chunker = build(name)
    from_text = chunker.split(TEXT)
    as_doc = chunker.split(Document(doc_id=TEXT_ID, uri=TEXT_ID, title="", text=TEXT))
    assert from_text == as_doc and from_text
    assert all(c.doc_id == TEXT_ID for c in from_text)


@pytest.mark.parametrize("name", list(STRATEGIES))
def test_anything_else_says_to_pass_a_document(name):
    with pytest.raises(TypeError, match=r"chunklab\.Document\(doc_id=\.\.\., uri=\.\.\."):
        build(name).split(b"bytes are not text")


def test_markdown_parents_and_streaming_take_a_string_too():
    chunker = build("markdown")
    assert chunker.parents(TEXT) == chunker.parents(as_document(TEXT))
    assert list(chunker.iter_chunks(TEXT)) == chunker.split(TEXT)
