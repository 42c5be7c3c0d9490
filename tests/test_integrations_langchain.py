"""`chunklab.integrations.langchain` with the real langchain-text-splitters and langchain-core:
the adapter's chunks are the chunker's on every series document, its metadata carries what the
frameworks' users look for, and it runs in a LangChain pipeline where
`RecursiveCharacterTextSplitter` runs."""

import pytest
from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.runnables import RunnableLambda
from langchain_core.vectorstores import InMemoryVectorStore
from langchain_text_splitters import RecursiveCharacterTextSplitter, TextSplitter

from chunklab import STRATEGIES, FixedSizeChunker, MarkdownChunker, list_documents, load_document
from chunklab.integrations.langchain import ChunklabTextSplitter, langchain_document


def expected_metadata(chunk, source: dict) -> dict:
    return {
        **source,
        **chunk.metadata,
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
    assert [p.page_content for p in pieces] == [c.text for c in chunks]
    assert [p.id for p in pieces] == [c.chunk_id for c in chunks]
    assert [p.metadata for p in pieces] == [expected_metadata(c, given.metadata) for c in chunks]
    assert chunks and all(p.metadata["parent_id"] for p in pieces)


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
        (c.text, c.start) for c in chunks
    ]


def test_split_text_and_create_documents_are_langchains_methods_with_the_chunkers_cuts():
    text = load_document("travel_policy").text
    chunker = FixedSizeChunker(size=300, overlap=50)
    splitter = ChunklabTextSplitter(chunker)
    assert isinstance(splitter, TextSplitter)
    assert splitter.split_text(text) == [c.text for c in chunker.split(text)]
    made = splitter.create_documents([text, text[:500]], [{"team": "a"}, {"team": "b"}])
    counts = [len(chunker.split(text)), len(chunker.split(text[:500]))]
    assert [d.metadata["doc_id"] for d in made] == ["text-0"] * counts[0] + ["text-1"] * counts[1]
    assert len({d.id for d in made}) == len(made) and counts[1] > 1  # no id shared by two texts
    assert all(text[d.metadata["start_index"] :].startswith(d.page_content) for d in made)
    assert [d.metadata["team"] for d in made] == ["a"] * counts[0] + ["b"] * counts[1]


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
    # what differs: chunklab's chunks start with their section's breadcrumb and say their section
    ours = splitters["chunklab"].split_documents(docs)
    assert all(p.page_content.startswith(" > ".join(p.metadata["heading_path"])) for p in ours)
    assert not any(
        "heading_path" in p.metadata for p in splitters["recursive"].split_documents(docs)
    )


def test_a_plain_langchain_document_keeps_its_id_as_the_doc_id():
    given = Document(
        id="faq-7", page_content="# FAQ\n\nQ: When?\n\nA: Now.", metadata={"title": "FAQ"}
    )
    (piece,) = ChunklabTextSplitter().split_documents([given])
    assert piece.metadata["doc_id"] == "faq-7" and piece.id.startswith("faq-7#")
    assert piece.page_content.startswith("FAQ")
