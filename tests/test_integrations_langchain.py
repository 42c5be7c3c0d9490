"""`chunklab.integrations.langchain` with the real langchain-text-splitters and langchain-core:
the adapter's chunks are the chunker's on every series document, each piece's text is its own
source text between its offsets (the breadcrumb in metadata), its metadata carries what the
frameworks' users look for, its ids keep every file's chunks in a vector store when files are
added one call each, and it runs in a LangChain pipeline where `RecursiveCharacterTextSplitter`
runs."""

from pathlib import Path

import pytest
from conftest import DATA
from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.runnables import RunnableLambda
from langchain_core.vectorstores import InMemoryVectorStore
from langchain_text_splitters import RecursiveCharacterTextSplitter, TextSplitter

from chunklab import (
    STRATEGIES,
    FixedSizeChunker,
    MarkdownChunker,
    StructuralChunker,
    list_documents,
    load_document,
)
from chunklab.integrations.langchain import ChunklabTextSplitter, langchain_document

FILES = sorted(DATA.glob("*.md"))  # every Markdown file of data/, the series' and the others


def loaded(path: Path) -> Document:
    """A file as a LangChain loader hands it over: its text, and its path as the source."""
    return Document(page_content=path.read_text(encoding="utf-8"), metadata={"source": str(path)})


def expected_metadata(chunk, source: dict) -> dict:
    prefix = chunk.metadata.get("prefix", chunk.metadata.get("section", ""))
    return {
        **source,
        **chunk.metadata,
        "prefix": prefix if chunk.text.startswith(prefix) else "",
        "chunk_id": chunk.chunk_id,
        "doc_id": chunk.doc_id,
        "parent_id": chunk.parent_id,
        "heading_path": list(chunk.heading_path),
        "token_count": chunk.token_count,
        "start_index": chunk.start,
        "end_index": chunk.end,
    }


@pytest.mark.parametrize("name", list_documents())
def test_the_splitters_chunks_are_the_chunkers_on_every_series_document(name):
    doc, chunker = load_document(name), MarkdownChunker()
    given = langchain_document(doc)
    pieces = ChunklabTextSplitter(chunker).split_documents([given])
    chunks = chunker.split(doc)
    assert [p.page_content for p in pieces] == [doc.text[c.start : c.end] for c in chunks]
    assert [p.id for p in pieces] == [c.chunk_id for c in chunks]
    assert [p.metadata for p in pieces] == [expected_metadata(c, given.metadata) for c in chunks]
    assert chunks and all(p.metadata["parent_id"] for p in pieces)
    # the breadcrumb the chunk's text starts with is metadata, not page_content
    assert all(c.text.startswith(p.metadata["prefix"]) for p, c in zip(pieces, chunks, strict=True))
    assert any(p.metadata["prefix"] for p in pieces) == any(c.heading_path for c in chunks)
    with_prefix = ChunklabTextSplitter(chunker, prefix_in_text=True).split_documents([given])
    assert [p.page_content for p in with_prefix] == [c.text for c in chunks]
    assert [p.metadata for p in with_prefix] == [p.metadata for p in pieces]


@pytest.mark.parametrize(
    "strategy",
    [s for s in STRATEGIES if s != "semantic"],  # semantic: WordLlama, seconds to load
)
def test_any_chunker_of_the_registry_goes_through_it_unchanged(strategy):
    doc = load_document("manual_en")
    chunker = STRATEGIES[strategy].build()
    pieces = ChunklabTextSplitter(chunker).transform_documents([langchain_document(doc)])
    chunks = chunker.split(doc)
    assert [(p.page_content, p.metadata["start_index"]) for p in pieces] == [
        (doc.text[c.start : c.end], c.start) for c in chunks
    ]


def test_split_text_and_create_documents_are_langchains_methods_with_the_chunkers_cuts():
    text = load_document("travel_policy").text
    chunker = FixedSizeChunker(size=300, overlap=50)
    splitter = ChunklabTextSplitter(chunker)
    assert isinstance(splitter, TextSplitter)
    assert splitter.split_text(text) == [c.text for c in chunker.split(text)]  # slices already
    made = splitter.create_documents([text, text[:500]], [{"team": "a"}, {"team": "b"}])
    counts = [len(chunker.split(text)), len(chunker.split(text[:500]))]
    doc_ids = [d.metadata["doc_id"] for d in made]
    assert len(set(doc_ids[: counts[0]])) == len(set(doc_ids[counts[0] :])) == 1
    assert len({d.id for d in made}) == len(made) and counts[1] > 1  # no id shared by two texts
    assert all(text[d.metadata["start_index"] :].startswith(d.page_content) for d in made)
    assert [d.metadata["team"] for d in made] == ["a"] * counts[0] + ["b"] * counts[1]
    # the same texts in another call, in another order: the same ids
    again = splitter.create_documents([text[:500], text])
    assert {d.id for d in again} == {d.id for d in made}


def test_metadata_that_does_not_match_the_texts_is_an_error_not_a_silent_loss():
    with pytest.raises(ValueError, match="2 texts but 1 metadata"):
        ChunklabTextSplitter().create_documents(["a", "b"], [{}])
    with pytest.raises(TypeError, match="chunklab chunker"):
        ChunklabTextSplitter(RecursiveCharacterTextSplitter())  # type: ignore[arg-type]


def test_it_runs_in_a_langchain_pipeline_next_to_recursive_character_text_splitter():
    docs = [langchain_document(load_document(n)) for n in ("travel_policy", "manual_en")]
    splitters = {
        "recursive": RecursiveCharacterTextSplitter(
            chunk_size=400, chunk_overlap=40, add_start_index=True
        ),
        "chunklab": ChunklabTextSplitter(MarkdownChunker(max_tokens=120)),
    }
    for name, splitter in splitters.items():
        store = InMemoryVectorStore(DeterministicFakeEmbedding(size=16))
        pipeline = RunnableLambda(splitter.transform_documents) | RunnableLambda(
            store.add_documents
        )
        ids = pipeline.invoke(docs)
        pieces = splitter.split_documents(docs)
        assert len(ids) == len(pieces) > 4, name
        retriever = store.as_retriever(search_kwargs={"k": 1})
        for piece in pieces:  # a piece's own text finds it again, metadata and all
            (hit,) = retriever.invoke(piece.page_content)
            assert (hit.page_content, hit.metadata) == (piece.page_content, piece.metadata), name
        assert all(isinstance(p.metadata["start_index"], int) for p in pieces)
    # what differs: chunklab's pieces say their section and its breadcrumb, and say where they end
    ours = splitters["chunklab"].split_documents(docs)
    assert all(p.metadata["prefix"] == " > ".join(p.metadata["heading_path"]) for p in ours)
    assert not any(
        "heading_path" in p.metadata for p in splitters["recursive"].split_documents(docs)
    )


def test_a_plain_langchain_document_keeps_its_id_as_the_doc_id():
    given = Document(
        id="faq-7", page_content="# FAQ\n\nQ: When?\n\nA: Now.", metadata={"title": "FAQ"}
    )
    (piece,) = ChunklabTextSplitter().split_documents([given])
    assert piece.metadata["doc_id"] == "faq-7" and piece.id.startswith("faq-7#")
    assert (piece.metadata["prefix"], piece.page_content) == ("FAQ", "Q: When?\n\nA: Now.")


@pytest.mark.parametrize(
    "chunker", [MarkdownChunker(), FixedSizeChunker()], ids=["markdown", "fixed"]
)
def test_one_call_per_file_keeps_every_files_chunks_in_a_vector_store(chunker):
    """The usual loop, one `split_documents` call per file, as loaders hand files over: every
    file's chunks stay (e32713f named every file's first text `text-0`, so a store kept about one
    file's worth), and adding a file again replaces its chunks instead of adding copies."""
    splitter = ChunklabTextSplitter(chunker)
    store = InMemoryVectorStore(DeterministicFakeEmbedding(size=8))
    made = {}
    for path in FILES:
        pieces = splitter.split_documents([loaded(path)])
        made[path] = [p.id for p in pieces]
        assert store.add_documents(pieces) == made[path]
    assert len(FILES) > 10 and len(store.store) == sum(map(len, made.values())) > 100
    again = splitter.split_documents([loaded(FILES[0])])
    store.add_documents(again)
    assert len(store.store) == sum(map(len, made.values()))
    assert [p.id for p in again] == made[FILES[0]]
    without_source = Document(page_content=FILES[0].read_text(encoding="utf-8"))
    assert not set(made[FILES[0]]) & {p.id for p in splitter.split_documents([without_source])}


def test_the_same_text_from_two_sources_and_two_pages_of_one_source_never_share_an_id():
    text = FILES[0].read_text(encoding="utf-8")
    splitter = ChunklabTextSplitter()
    a = splitter.split_documents([Document(page_content=text, metadata={"source": "a/x.md"})])
    b = splitter.split_documents([Document(page_content=text, metadata={"source": "b/x.md"})])
    assert [p.page_content for p in a] == [p.page_content for p in b]
    assert not {p.id for p in a} & {p.id for p in b}
    # a PDF loader's pages: one source each; two pages of the same text are still two
    pages = [
        Document(page_content=t, metadata={"source": "report.pdf", "page": n})
        for n, t in enumerate(["# One\n\nFirst page.", "# Two\n\nSecond.", "# One\n\nFirst page."])
    ]
    pieces = splitter.split_documents(pages)
    assert len({p.id for p in pieces}) == len(pieces) == 3
    assert [p.metadata["page"] for p in pieces] == [0, 1, 2]
    assert [p.id for p in splitter.split_documents(pages)] == [p.id for p in pieces]  # stable
    named = [Document(page_content=t, metadata={"doc_id": "report"}) for t in ("A.", "B.")]
    with pytest.raises(ValueError, match="two different texts have the doc_id 'report'"):
        splitter.split_documents(named)


def test_identical_chunks_of_one_file_get_distinct_ids():
    text = "Same words here.\n\n" * 3
    pieces = ChunklabTextSplitter(StructuralChunker()).split_documents(
        [Document(page_content=text, metadata={"source": "same.md"})]
    )
    assert [p.page_content for p in pieces] == ["Same words here."] * 3
    store = InMemoryVectorStore(DeterministicFakeEmbedding(size=8))
    store.add_documents(pieces)
    assert len(store.store) == 3
    assert [p.metadata["start_index"] for p in pieces] == [0, 18, 36]


@pytest.mark.parametrize(
    "chunker",
    [MarkdownChunker(), MarkdownChunker(table_mode="linearize"), STRATEGIES["linearized"].build()],
    ids=["markdown", "markdown-linearize", "linearized"],
)
def test_the_offsets_delimit_page_content_on_every_file_even_where_the_chunk_is_rewritten(
    chunker,
):
    """LangChain's `add_start_index` convention, `text[start:][:len(page_content)] ==
    page_content`, on every piece of every file. Where the chunker rewrote its text (a table
    piece repeating its header, rows linearized, blocks joined by a blank line), page_content is
    the source it was cut from; with `prefix_in_text` it is the chunker's text."""
    rewritten = 0
    for path in FILES:
        source = loaded(path)
        text = source.page_content
        pieces = ChunklabTextSplitter(chunker).split_documents([source])
        chunks = ChunklabTextSplitter(chunker, prefix_in_text=True).split_documents([source])
        for piece, chunk in zip(pieces, chunks, strict=True):
            start, end = piece.metadata["start_index"], piece.metadata["end_index"]
            assert text[start:end] == piece.page_content
            assert text[start : start + len(piece.page_content)] == piece.page_content
            prefix = piece.metadata["prefix"]
            body = chunk.page_content.removeprefix(f"{prefix}\n\n" if prefix else "")
            rewritten += body != piece.page_content
    assert rewritten > 0  # the case is covered
