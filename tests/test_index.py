import sqlite3

import pytest

from chunklab import Document, FixedSizeChunker, approx_tokens, load_document, load_questions
from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.chunkers.structural import two_scale_chunks
from chunklab.retrieval.index import MemoryStore, ParentChildIndex, index_document
from chunklab.retrieval.index_file import IndexFileError
from chunklab.retrieval.retrievers import BM25Retriever, LogCountRetriever
from chunklab.retrieval.sqlite_store import SQLiteStore


def fact_recall(context: str, facts) -> float:
    return sum(f in context for f in facts) / len(facts)


def mean_recall(retrieve) -> float:
    questions = load_questions("travel_policy").questions
    return sum(fact_recall(retrieve(q.question), q.facts) for q in questions) / len(questions)


@pytest.fixture
def policy_index():
    doc = load_document("travel_policy")
    chunker = MarkdownChunker(max_tokens=45, count_tokens=approx_tokens)
    index = ParentChildIndex(retriever=LogCountRetriever())
    index_document(index, chunker.parents(doc), chunker.split(doc), tenant="acme")
    return doc, index


def test_reproduces_the_sketchs_fact_recall(policy_index):
    doc, index = policy_index
    retriever = LogCountRetriever()
    windows = FixedSizeChunker(size=200, overlap=40).split(doc)
    text_of = {w.chunk_id: w.text for w in windows}
    fixed = mean_recall(
        lambda q: "\n".join(text_of[h.ref_id] for h in retriever.rank(q, windows, 2))
    )
    children = mean_recall(
        lambda q: "\n".join(
            index.store.child("acme", h.ref_id).text for h in index.search(q, k=2, tenant="acme")
        )
    )
    parents = mean_recall(
        lambda q: "\n".join(p.text for p in index.small_to_big(q, k=2, tenant="acme"))
    )
    assert (round(fixed, 2), round(children, 2), round(parents, 2)) == (0.75, 0.83, 1.00)


def test_the_articles_0_08_demo():
    doc = load_document("manual")
    parents, children = two_scale_chunks(doc, parent_size=800, child_size=200)
    index = ParentChildIndex()
    index_document(index, parents, children)
    child = next(c for c in children if "0,08" in c.text)
    assert child.text.startswith(
        "| Ruído | dB | 92 | Revisar o isolamento |\n| Desalinhamento | mm | 0,08"
    )
    assert "Limite" not in child.text
    parent = index.expand(child.chunk_id)
    assert parent.text.startswith("3. Tabela de tolerância\n| Medida | Unidade | Limite | Ação |")


def test_parents_are_deduplicated_in_the_order_of_their_best_child(policy_index):
    _, index = policy_index
    hits = index.search("daily limit Tokyo per diem", k=6, tenant="acme")
    expected = []
    for h in hits:
        pid = index.store.child("acme", h.ref_id).parent_id
        if pid not in expected:
            expected.append(pid)
    got = [
        p.chunk_id
        for p in index.small_to_big("daily limit Tokyo per diem", k=6, max_parents=5, tenant="acme")
    ]
    assert got == expected[:5] and len(set(got)) == len(got)


def test_filters_apply_before_ranking(policy_index):
    _, index = policy_index
    only_expenses = {"section": "Travel Policy > Expense Reporting"}
    hits = index.search("daily limit Tokyo", k=3, filters=only_expenses, tenant="acme")
    # Nothing in that section mentions Tokyo, and no better chunk elsewhere may take its place.
    assert hits == []
    assert index.search("submit expenses", k=3, filters=only_expenses, tenant="acme")


def make_stores(tmp_path):
    return [MemoryStore(), SQLiteStore(tmp_path / "index.sqlite")]


@pytest.mark.parametrize("store_kind", [0, 1], ids=["memory", "sqlite"])
def test_tenants_never_see_each_other_even_with_the_same_doc_id(tmp_path, store_kind):
    store = make_stores(tmp_path)[store_kind]
    index = ParentChildIndex(store=store, retriever=BM25Retriever())
    chunker = MarkdownChunker(max_tokens=60)
    for tenant, secret in (("a", "ALPHA-SECRET"), ("b", "BRAVO-SECRET")):
        doc = Document(
            doc_id="handbook",
            uri="urn:h",
            title="H",
            text=f"# Leave\n\nAnnual leave code {secret}.\n",
        )
        index_document(index, chunker.parents(doc), chunker.split(doc), tenant=tenant)
    for tenant, own, other in (("a", "ALPHA", "BRAVO"), ("b", "BRAVO", "ALPHA")):
        for query in ("annual leave code", f"{other}-SECRET", f"{own}-SECRET"):
            texts = [
                index.store.child(tenant, h.ref_id).text
                for h in index.search(query, k=5, tenant=tenant)
            ]
            texts += [p.text for p in index.small_to_big(query, k=5, tenant=tenant)]
            assert all(other not in t for t in texts)
        assert any(own in p.text for p in index.small_to_big("annual leave code", tenant=tenant))
    assert index.search("annual leave", tenant="c") == []


def test_sqlite_store_survives_closing_and_reopening(tmp_path, policy_index):
    doc, memory_index = policy_index
    path = tmp_path / "policy.sqlite"
    chunker = MarkdownChunker(max_tokens=45, count_tokens=approx_tokens)
    store = SQLiteStore(path)
    index_document(
        ParentChildIndex(store=store), chunker.parents(doc), chunker.split(doc), tenant="acme"
    )
    store.close()
    reopened = ParentChildIndex(store=SQLiteStore(path))
    assert reopened.store.children("acme") == memory_index.store.children("acme")
    assert reopened.store.parents("acme") == memory_index.store.parents("acme")
    question = "What is the lodging cap in New York?"
    assert [p.chunk_id for p in reopened.small_to_big(question, k=2, tenant="acme")] == [
        p.chunk_id for p in memory_index.small_to_big(question, k=2, tenant="acme")
    ]


def test_reindexing_a_parent_replaces_its_children(tmp_path):
    for store in make_stores(tmp_path):
        index = ParentChildIndex(store=store)
        chunker = MarkdownChunker(max_tokens=60)
        for text in ("# A\n\nold words here\n\nmore old words\n", "# A\n\nnew words\n"):
            doc = Document(doc_id="d", uri="urn:d", title="", text=text)
            index_document(index, chunker.parents(doc), chunker.split(doc))
        assert [c.text for c in index.store.children("default")] == ["A\n\nnew words"]


def test_a_foreign_or_corrupt_file_is_a_clear_error(tmp_path):
    foreign = tmp_path / "other.sqlite"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE users (name TEXT)")
    with pytest.raises(
        IndexFileError, match="other.sqlite: is an SQLite file, but not a chunklab index"
    ):
        SQLiteStore(foreign)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(
        IndexFileError, match="junk.sqlite: is not an SQLite file, so not a chunklab index"
    ):
        SQLiteStore(junk)


def test_children_must_point_at_their_parent():
    doc = load_document("travel_policy")
    chunker = MarkdownChunker(max_tokens=60)
    parents, children = chunker.parents(doc), chunker.split(doc)
    with pytest.raises(ValueError, match="do not point at parent"):
        ParentChildIndex().upsert(parents[0], children)


# --- file-system faults: one clear error naming the file, and the index as it was -----------------


def _indexed_store(path, doc_name="travel_policy", **kwargs):
    doc = load_document(doc_name)
    chunker = MarkdownChunker(max_tokens=60)
    store = SQLiteStore(path, **kwargs)
    index_document(ParentChildIndex(store=store), chunker.parents(doc), chunker.split(doc))
    return store


def _snapshot(store):
    return [p.model_dump() for p in store.parents("default")], [
        c.model_dump() for c in store.children("default")
    ]


def test_a_full_disk_rolls_the_document_back_and_says_so(tmp_path):
    store = _indexed_store(tmp_path / "i.sqlite")
    before = _snapshot(store)
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's own "database or disk is full"
    big = load_document("work_schedules")
    chunker = MarkdownChunker(max_tokens=60)
    with pytest.raises(
        IndexFileError,
        match=r"i.sqlite: the disk is full; the document being written was rolled back",
    ):
        index_document(ParentChildIndex(store=store), chunker.parents(big), chunker.split(big))
    assert _snapshot(store) == before


def test_a_lock_held_too_long_is_named_and_changes_nothing(tmp_path):
    path = tmp_path / "i.sqlite"
    store = _indexed_store(path)
    before = _snapshot(store)
    store.close()
    holder = sqlite3.connect(path)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(
            IndexFileError, match=r"i.sqlite: is locked by another process .* longer than 0.2 s"
        ):
            _indexed_store(path, doc_name="topics", timeout=0.2)
    finally:
        holder.rollback()
        holder.close()
    assert _snapshot(SQLiteStore(path)) == before


def test_writing_through_a_read_only_store_is_refused_in_words(tmp_path):
    path = tmp_path / "i.sqlite"
    _indexed_store(path).close()
    reader = SQLiteStore(path, read_only=True)
    with pytest.raises(IndexFileError, match=r"i.sqlite: is read-only here; nothing was written"):
        reader.upsert("default", *_indexed_parent())


def _indexed_parent():
    doc = load_document("topics")
    chunker = MarkdownChunker(max_tokens=60)
    parent = chunker.parents(doc)[0]
    return parent, [c for c in chunker.split(doc) if c.parent_id == parent.chunk_id]


def test_corrupt_pages_under_a_valid_header_are_named_as_corruption(tmp_path):
    path = tmp_path / "i.sqlite"
    _indexed_store(path).close()
    raw = bytearray(path.read_bytes())
    raw[4096:] = bytes((i * 37) % 251 for i in range(len(raw) - 4096))  # every page but the first
    path.write_bytes(bytes(raw))
    with pytest.raises(IndexFileError, match=r"i.sqlite: is corrupt"):
        store = SQLiteStore(path, read_only=True)
        store.children("default")


def test_an_empty_name_or_a_missing_folder_is_said_as_such(tmp_path):
    with pytest.raises(IndexFileError, match="the index file name is empty"):
        SQLiteStore("")
    with pytest.raises(
        IndexFileError, match=r"cannot be created, the folder .*nowhere does not exist"
    ):
        SQLiteStore(tmp_path / "nowhere" / "i.sqlite")
    assert not (tmp_path / "nowhere").exists()
