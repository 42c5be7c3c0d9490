"""`report.show_cuts`: the picture of where the cuts fall, in its plain-text form."""

import re

import pytest

from chunklab import Document, FixedSizeChunker, load_document
from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.chunkers.structural import StructuralChunker
from chunklab.contracts import Chunk
from chunklab.teaching import report

MARKS = re.compile(r"⟦\d+›|‹\d+⟧|[«»⟨⟩]")


def body(view) -> str:
    """The marked-up document: the lines between the summary and the 'adds' list."""
    lines = str(view).split("\n")[1 + bool(view.title) :]
    while lines and lines[-1].startswith("chunk ") and " adds: " in lines[-1]:
        lines.pop()
    return "\n".join(lines)


@pytest.mark.parametrize(
    "chunker",
    [
        FixedSizeChunker(size=200, overlap=40),
        StructuralChunker(size=200, repack=True),
        MarkdownChunker(max_tokens=60),
    ],
    ids=lambda c: type(c).__name__,
)
@pytest.mark.parametrize("name", ["manual", "travel_policy", "work_schedules"])
def test_removing_the_marks_gives_the_document_back(chunker, name):
    doc = load_document(name)
    chunks = chunker.split(doc)
    view = report.show_cuts(doc, chunks, title="t")
    text = body(view)
    assert MARKS.sub("", text) == doc.text
    assert len(re.findall(r"⟦\d+›", text)) == len(re.findall(r"‹\d+⟧", text)) == len(chunks)


def test_overlap_is_counted_and_striped():
    doc = load_document("manual")
    chunks = FixedSizeChunker(size=200, overlap=40).split(doc)
    view = report.show_cuts(doc, chunks)
    shared = sum(max(0, a.end - b.start) for a, b in zip(chunks, chunks[1:], strict=False))
    assert f"{shared} characters in two chunks or more" in str(view)
    assert view._repr_html_().count("repeating-linear-gradient") == len(chunks) - 1


def test_text_in_no_chunk_is_marked_and_counted():
    doc = Document(doc_id="d", uri="urn:d", title="", text="keep this. lose this. keep that.")
    kept = [
        Chunk(
            chunk_id=f"d#{k}",
            doc_id="d",
            ordinal=k,
            text=doc.text[a:b],
            token_count=2,
            start=a,
            end=b,
        )
        for k, (a, b) in enumerate([(0, 10), (22, 32)])
    ]
    view = report.show_cuts(doc, kept)
    assert "« lose this. »" in str(view)
    assert "12 characters (not blank) in no chunk" in str(view)  # " lose this. ", spaces and all
    assert "line-through" in view._repr_html_()


def test_breadcrumbs_are_listed_apart_and_headings_they_carry_are_not_lost():
    doc = load_document("travel_policy")
    view = report.show_cuts(doc, MarkdownChunker(max_tokens=60).split(doc))
    text = str(view)
    assert "chunk 1 adds: Travel Policy > Domestic Travel > Booking" in text
    assert " 0 characters (not blank) in no chunk" in text and re.search(
        r"⟨\s*## Domestic Travel", text
    )


def test_html_escapes_the_source():
    doc = Document(doc_id="h", uri="urn:h", title="", text="<b>not bold</b> & more")
    chunk = Chunk(
        chunk_id="h#0",
        doc_id="h",
        ordinal=0,
        text=doc.text,
        token_count=4,
        start=0,
        end=len(doc.text),
    )
    html = report.show_cuts(doc, [chunk])._repr_html_()
    assert "&lt;b&gt;not bold&lt;/b&gt; &amp; more" in html and "<b>not bold" not in html


def test_the_summary_names_what_the_gap_is_in_none_of():
    """The label defaults to "in no chunk"; a picture of what an embedder read says so."""
    doc = load_document("manual")
    chunks = FixedSizeChunker(size=200, overlap=0).split(doc)[:1]
    assert "(not blank) in no chunk" in str(report.show_cuts(doc, chunks))
    read = str(report.show_cuts(doc, chunks, gap="in no vector"))
    assert "(not blank) in no vector" in read and "in no chunk" not in read
