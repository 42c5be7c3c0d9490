"""`chunklab.integrations.llama_index` with the real llama-index-core (the integrations extra):
nodes are the chunker's chunks on every series document, each node's text its own source text
between its offsets (the breadcrumb in metadata, which LlamaIndex embeds), linked to their source
and, small-to-big, to their sections so that LlamaIndex's own `get_leaf_nodes` and
`AutoMergingRetriever` use them; files read and parsed one call each all stay in a vector store.
Also: the README's example runs, `import chunklab` imports neither framework, and a missing one
is one line naming the extra. llama-index-core takes about a second to import: once, here."""

import contextlib
import io
import re
import subprocess
import sys

import pytest
from conftest import DATA, ROOT
from llama_index.core import SimpleDirectoryReader, StorageContext, VectorStoreIndex
from llama_index.core.embeddings import MockEmbedding
from llama_index.core.ingestion import IngestionPipeline
from llama_index.core.ingestion.pipeline import get_transformation_hash
from llama_index.core.node_parser import SentenceSplitter, get_leaf_nodes, get_root_nodes
from llama_index.core.retrievers import AutoMergingRetriever
from llama_index.core.schema import Document, MetadataMode
from llama_index.core.vector_stores import SimpleVectorStore
from pydantic import ValidationError

from chunklab import FixedSizeChunker, MarkdownChunker, list_documents, load_document
from chunklab.integrations.langchain import langchain_document
from chunklab.integrations.llama_index import ChunklabNodeParser, llama_index_document
from chunklab.retrieval.small_to_big import parents_and_children

FILES = sorted(DATA.glob("*.md"))  # every Markdown file of data/, the series' and the others


@pytest.mark.parametrize("name", list_documents())
def test_the_nodes_are_the_chunkers_chunks_and_sections_on_every_series_document(name):
    doc, chunker = load_document(name), MarkdownChunker()
    nodes = ChunklabNodeParser(chunker=chunker, parents=True).get_nodes_from_documents(
        [llama_index_document(doc)]
    )
    leaves, roots = get_leaf_nodes(nodes), get_root_nodes(nodes)
    chunks = chunker.split(doc)
    parents = [
        p
        for p in parents_and_children(chunker, doc).parents
        if p.chunk_id in {c.parent_id for c in chunks}
    ]
    assert [(n.node_id, n.text, n.start_char_idx, n.end_char_idx) for n in leaves] == [
        (c.chunk_id, doc.text[c.start : c.end], c.start, c.end) for c in chunks
    ]
    assert [n.node_id for n in roots] == [p.chunk_id for p in parents]
    assert [n.text for n in roots] == [doc.text[p.start : p.end] for p in parents]
    for node, chunk in zip([*roots, *leaves], [*parents, *chunks], strict=True):
        # what LlamaIndex embeds and the model reads: the breadcrumb (if any), then the text
        prefix = node.metadata["prefix"]
        assert chunk.text.startswith(prefix)
        for mode in (MetadataMode.EMBED, MetadataMode.LLM):
            shown = node.get_content(metadata_mode=mode)
            assert shown.endswith(node.text) and (f"prefix: {prefix}\n" in shown) == bool(prefix)
    assert [n.parent_node.node_id for n in leaves] == [c.parent_id for c in chunks]
    assert [n.metadata["heading_path"] for n in leaves] == [list(c.heading_path) for c in chunks]
    assert {n.source_node.node_id for n in nodes} == {doc.doc_id}


def test_parent_and_child_links_agree_both_ways_for_a_chunker_that_ignores_headings():
    doc, chunker = load_document("travel_policy"), FixedSizeChunker(size=300, overlap=0)
    nodes = ChunklabNodeParser(chunker=chunker, parents=True).get_nodes_from_documents(
        [llama_index_document(doc)]
    )
    by_id = {n.node_id: n for n in nodes}
    leaves = get_leaf_nodes(nodes)
    assert [n.text for n in leaves] == [c.text for c in chunker.split(doc)]
    for leaf in leaves:
        parent = by_id[leaf.parent_node.node_id]
        assert leaf.node_id in [c.node_id for c in parent.child_nodes]
        assert parent.start_char_idx <= leaf.start_char_idx <= leaf.end_char_idx
        assert leaf.end_char_idx <= parent.end_char_idx  # a section holds its chunks' spans
    alone = [n for n in nodes if n.node_id.endswith("#whole")]  # cut across a heading
    assert alone and all(len(n.child_nodes) == 1 for n in alone)
    assert [n.next_node.node_id for n in leaves[:-1]] == [n.node_id for n in leaves[1:]]


def test_auto_merging_retriever_hands_over_the_sections_whose_chunks_all_came_back():
    doc = load_document("travel_policy")
    parser = ChunklabNodeParser(chunker=MarkdownChunker(max_tokens=60), parents=True)
    nodes = parser.get_nodes_from_documents([llama_index_document(doc)])
    leaves = get_leaf_nodes(nodes)
    storage = StorageContext.from_defaults()
    storage.docstore.add_documents(nodes)
    index = VectorStoreIndex(
        leaves, storage_context=storage, embed_model=MockEmbedding(embed_dim=8)
    )
    retriever = AutoMergingRetriever(index.as_retriever(similarity_top_k=len(leaves)), storage)
    merged = retriever.retrieve("how long do I have to submit expenses?")
    assert sorted(n.node.node_id for n in merged) == sorted({c.parent_node.node_id for c in leaves})
    assert len(merged) < len(leaves)  # some sections held several chunks


def test_it_is_a_step_of_an_ingestion_pipeline_where_sentence_splitter_was():
    docs = [llama_index_document(load_document(n)) for n in ("travel_policy", "manual_en")]
    ours = IngestionPipeline(transformations=[ChunklabNodeParser()]).run(documents=docs)
    theirs = IngestionPipeline(
        transformations=[SentenceSplitter(chunk_size=120, chunk_overlap=20)]
    ).run(documents=docs)
    expected = [
        c for d in ("travel_policy", "manual_en") for c in MarkdownChunker().split(load_document(d))
    ]
    texts = {d.metadata["doc_id"]: d.text for d in docs}
    assert [(n.node_id, n.text) for n in ours] == [
        (c.chunk_id, texts[c.doc_id][c.start : c.end]) for c in expected
    ]
    assert len(theirs) > 2 and all(n.start_char_idx is not None for n in theirs)
    # what LlamaIndex embeds: the document's metadata, the breadcrumb and the chunk's source text,
    # not chunklab's bookkeeping
    embedded = ours[1].get_content(metadata_mode="embed")
    assert ours[1].metadata["prefix"].startswith("Travel Policy > ")
    assert f"prefix: {ours[1].metadata['prefix']}\n" in embedded and embedded.endswith(ours[1].text)
    assert "token_count" not in embedded and "chunk_id" not in embedded


def read(path) -> list[Document]:
    """A file as `SimpleDirectoryReader` reads it, without `filename_as_id`: each read draws a new
    random id for the document."""
    return SimpleDirectoryReader(input_files=[path]).load_data()


@pytest.mark.parametrize(
    "chunker", [MarkdownChunker(), FixedSizeChunker()], ids=["markdown", "fixed"]
)
def test_files_read_and_parsed_one_call_each_all_stay_in_a_vector_store_index(chunker):
    """Each file read and parsed in its own call, its nodes inserted: every node stays, and a file
    read and inserted again replaces its nodes (e32713f named them after the random id LlamaIndex
    draws at each read, so a second read added a copy of every node)."""
    parser = ChunklabNodeParser(chunker=chunker)
    index = VectorStoreIndex([], embed_model=MockEmbedding(embed_dim=8))
    made = {}
    for path in FILES:
        nodes = parser.get_nodes_from_documents(read(path))
        made[path] = [n.node_id for n in nodes]
        index.insert_nodes(nodes)
    stored = index.vector_store.data.embedding_dict
    assert len(FILES) > 10 and len(stored) == sum(map(len, made.values())) > 100
    again = parser.get_nodes_from_documents(read(FILES[0]))
    index.insert_nodes(again)
    assert len(stored) == sum(map(len, made.values()))
    assert [n.node_id for n in again] == made[FILES[0]]
    for path in FILES[:3]:  # each node's text is its own source text, between its offsets
        (doc,) = read(path)
        for node in parser.get_nodes_from_documents([doc]):
            assert doc.text[node.start_char_idx : node.end_char_idx] == node.text


def test_two_ingestion_pipelines_over_the_same_files_store_each_node_once():
    """Two pipelines (two runs of an ingestion job, no cache shared) into one vector store, the
    files read again for the second: each node is stored once."""
    store = SimpleVectorStore()
    runs = [
        IngestionPipeline(
            transformations=[ChunklabNodeParser(), MockEmbedding(embed_dim=8)],
            vector_store=store,
            disable_cache=True,
        ).run(documents=[d for path in FILES for d in read(path)])
        for _ in range(2)
    ]
    assert [n.node_id for n in runs[1]] == [n.node_id for n in runs[0]]
    assert len(store.data.embedding_dict) == len(runs[0]) > 100


def test_an_id_given_to_a_document_names_its_nodes_and_a_drawn_one_does_not():
    text = FILES[0].read_text(encoding="utf-8")
    parser = ChunklabNodeParser()
    (given,) = parser.get_nodes_from_documents([Document(id_="handbook/leave", text=text)])[:1]
    assert given.node_id.startswith("handbook/leave#")
    drawn = [parser.get_nodes_from_documents([Document(text=text)])[0] for _ in range(2)]
    assert drawn[0].node_id == drawn[1].node_id != given.node_id
    assert drawn[0].source_node.node_id != drawn[1].source_node.node_id  # LlamaIndex's own ids


def test_the_ingestion_cache_tells_two_chunkers_apart_and_the_same_one_again():
    """IngestionPipeline caches a step's nodes under a hash of the step's settings: a parser whose
    chunker settings did not reach that hash would be served another chunker's nodes."""
    docs = [llama_index_document(load_document("travel_policy"))]
    parsers = [
        ChunklabNodeParser(),
        ChunklabNodeParser(chunker=MarkdownChunker()),
        ChunklabNodeParser(chunker=MarkdownChunker(max_tokens=60)),
        ChunklabNodeParser(chunker=FixedSizeChunker()),
        ChunklabNodeParser(parents=True),
    ]
    hashes = [get_transformation_hash(docs, p) for p in parsers]
    assert hashes[0] == hashes[1] and len(set(hashes)) == 4


def test_a_chunker_that_is_not_one_is_a_validation_error_naming_what_to_pass():
    with pytest.raises(ValidationError, match="chunklab chunker"):
        ChunklabNodeParser(chunker=SentenceSplitter())


def test_the_readme_example_runs_and_prints_what_the_library_computes():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### Use it from LangChain / LlamaIndex") :]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    doc = load_document("travel_policy")
    chunks = MarkdownChunker(max_tokens=120).split(doc)
    assert langchain_document(doc).metadata["title"] == doc.title
    assert out.getvalue().splitlines() == [
        f"{list(chunks[1].heading_path)} {chunks[1].start}",
        f"{chunks[-1].parent_id} {chunks[-1].start} {chunks[-1].end}",
    ]


def test_import_chunklab_imports_no_framework_and_a_missing_one_is_a_line_naming_the_extra(
    tmp_path,
):
    for package in ("llama_index", "langchain_text_splitters"):  # found first, and missing
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text(
            f"raise ModuleNotFoundError(name={package!r})\n"
        )
    script = (
        "import sys, chunklab\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & "
        "{'llama_index', 'langchain_core', 'langchain_text_splitters'}))\n"
        "for name in ('langchain', 'llama_index'):\n"
        "    try:\n"
        "        __import__('chunklab.integrations.' + name)\n"
        "    except ImportError as exc:\n"
        "        print(exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(tmp_path), "PATH": ""},
        timeout=60,
    )
    lines = done.stdout.decode().splitlines()
    assert done.returncode == 0, done.stderr.decode()
    assert lines[0] == "[]" and len(lines) == 3
    assert all("pip install -e '.[integrations]'" in line for line in lines[1:])
    assert "langchain_text_splitters is not installed" in lines[1]
    assert "llama_index is not installed" in lines[2]
