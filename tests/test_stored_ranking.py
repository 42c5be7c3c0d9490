"""The index file ranks as the retrievers rank in memory (issue 16, part 1).

`SQLiteStore.ranked` reads only the posting rows of a question's terms (or the stored vectors) and
the top k children; `BM25Retriever`, `DenseRetriever` and `HybridRetriever` over every child of the
tenant are the reference. Same ids, same order, same scores, on the series' documents and all the
experiment's questions, with filters, and with other tenants in the file.
"""

import sqlite3

import numpy as np
import pytest
import yaml
from conftest import DATA, REAL_DOCUMENTS

from chunklab import Document, MarkdownChunker
from chunklab.documents.reading import read_document
from chunklab.embeddings.static import WordLlamaEmbedder
from chunklab.retrieval.index import MemoryStore, ParentChildIndex, index_document
from chunklab.retrieval.retrievers import BM25Retriever, DenseRetriever, HybridRetriever
from chunklab.retrieval.sqlite_store import SQLiteStore

DOCUMENTS = ["manual_md.md", "travel_policy.md", "topics.md", *REAL_DOCUMENTS]
QUESTIONS = [
    q["question"]
    for q in yaml.safe_load((DATA / "experiment.questions.yaml").read_text())["questions"]
]


def _fill(index: ParentChildIndex, tenant: str, names, embedder) -> None:
    chunker = MarkdownChunker(max_tokens=120)
    for name in names:
        doc = read_document(DATA / name)
        doc = doc.model_copy(
            update={"metadata": {**doc.metadata, "tenant": tenant, "source": name}}
        )
        children = chunker.split(doc)
        vectors = embedder.embed_documents([c.text for c in children])
        index_document(
            index,
            chunker.parents(doc),
            children,
            tenant=tenant,
            vectors={c.chunk_id: v for c, v in zip(children, vectors, strict=True)},
        )


@pytest.fixture(scope="module")
def indexes(tmp_path_factory):
    """The same documents in a file and in memory; the file also holds another tenant's documents,
    which must move no score of tenant 'team'."""
    embedder = WordLlamaEmbedder()
    path = tmp_path_factory.mktemp("stored") / "index.sqlite"
    stored = ParentChildIndex(store=SQLiteStore(path))
    _fill(stored, "team", DOCUMENTS, embedder)
    _fill(stored, "other", DOCUMENTS[:3], embedder)
    memory = ParentChildIndex(store=MemoryStore())
    _fill(memory, "team", DOCUMENTS, embedder)
    return stored, memory, path


def _same(stored, memory, retriever, question, k, filters=None):
    stored.retriever = memory.retriever = retriever
    ranked = stored.store.ranked("team", question, k, filters, retriever)
    assert ranked is not None, "the file should rank this itself"
    expected = memory.search(question, k=k, filters=filters, tenant="team")
    assert [h.ref_id for h in ranked] == [h.ref_id for h in expected], question
    assert [h.source for h in ranked] == [h.source for h in expected]
    np.testing.assert_allclose([h.score for h in ranked], [h.score for h in expected], rtol=1e-6)
    return ranked


def test_bm25_from_the_file_is_bm25_in_memory_for_every_question(indexes):
    stored, memory, _ = indexes
    retriever = BM25Retriever()
    hits = 0
    for question in QUESTIONS:
        for k in (1, 4, 30):
            hits += len(_same(stored, memory, retriever, question, k))
    assert hits > 43 * 25  # the questions find things: the equality is not one of empty lists


def test_bm25_scores_are_bitwise_those_of_bm25s(indexes):
    stored, memory, _ = indexes
    for question in QUESTIONS[:10]:
        ranked = stored.store.ranked("team", question, 5, None, BM25Retriever())
        expected = BM25Retriever().rank(question, memory.store.children("team"), 5)
        assert [h.score for h in ranked] == [h.score for h in expected]


@pytest.mark.parametrize("kind", ["wordllama", "hybrid"])
def test_vectors_and_the_hybrid_from_the_file_rank_as_in_memory(indexes, kind):
    stored, memory, _ = indexes
    dense = DenseRetriever()
    retriever = dense if kind == "wordllama" else HybridRetriever(dense=dense)
    for question in QUESTIONS:
        _same(stored, memory, retriever, question, 4)


def test_filters_narrow_the_children_before_ranking_and_their_statistics(indexes):
    stored, memory, _ = indexes
    for filters in ({"source": "travel_policy.md"}, {"source": "manual_md.md", "tenant": "team"}):
        for question in QUESTIONS[:12]:
            for retriever in (BM25Retriever(), DenseRetriever()):
                for hit in _same(stored, memory, retriever, question, 4, filters):
                    assert (
                        stored.store.child("team", hit.ref_id).metadata["source"]
                        == filters["source"]
                    )
    assert stored.store.ranked("team", "leave", 4, {"source": "nothing.md"}, BM25Retriever()) == []


def test_a_filter_sql_cannot_say_exactly_falls_back_to_memory(indexes):
    stored, memory, _ = indexes
    for odd in ({"source": True}, {"missing": None}, {"we'ird": "x"}, {"source": ["a"]}):
        assert stored.store.ranked("team", "leave", 4, odd, BM25Retriever()) is None
        stored.retriever = memory.retriever = BM25Retriever()
        assert stored.search("annual leave", k=4, filters=odd, tenant="team") == memory.search(
            "annual leave", k=4, filters=odd, tenant="team"
        )


def test_search_validates_only_the_children_it_returns(indexes, monkeypatch):
    """Before, every question loaded and validated every child of the tenant. Now the file ranks
    and only the k children found (and their parents) are read back as records."""
    from chunklab.contracts import Chunk

    _, _, path = indexes
    index = ParentChildIndex(store=SQLiteStore(path, read_only=True), retriever=BM25Retriever())
    assert len(index.store.children("team")) > 100
    validated = []
    original = Chunk.model_validate_json
    monkeypatch.setattr(
        Chunk,
        "model_validate_json",
        classmethod(lambda cls, s, **kw: validated.append(1) or original(s, **kw)),
    )
    hits = index.search("Tokyo lodging cap", k=4, tenant="team")
    parents = index.parents_of(hits, max_parents=2, tenant="team")
    assert len(hits) == 4 and parents
    assert len(validated) <= 2 * len(hits), len(validated)  # each hit's child, then its parent


def test_changing_and_removing_a_document_leaves_no_term_or_vector_behind(tmp_path):
    store = SQLiteStore(tmp_path / "i.sqlite")
    index = ParentChildIndex(store=store, retriever=BM25Retriever())
    chunker = MarkdownChunker(max_tokens=60)
    embedder = WordLlamaEmbedder()
    for text in ("# A\n\nzebra quagga okapi\n\nmore words here\n", "# A\n\nokapi only now\n"):
        doc = Document(doc_id="d", uri="urn:d", title="", text=text)
        children = chunker.split(doc)
        index_document(
            index,
            chunker.parents(doc),
            children,
            vectors=dict(
                zip(
                    [c.chunk_id for c in children],
                    embedder.embed_documents([c.text for c in children]),
                    strict=True,
                )
            ),
        )
    db = sqlite3.connect(tmp_path / "i.sqlite")
    assert index.search("zebra quagga", k=4) == []
    assert [h.ref_id for h in index.search("okapi", k=4)] == [
        c.chunk_id for c in store.children("default")
    ]
    live = {s for (s,) in db.execute("SELECT seq FROM children")}
    assert {s for (s,) in db.execute("SELECT seq FROM terms")} == live
    assert {s for (s,) in db.execute("SELECT seq FROM vectors")} == live
    store.remove_document("default", "d")
    assert db.execute("SELECT COUNT(*) FROM terms").fetchone() == (0,)
    assert db.execute("SELECT COUNT(*) FROM vectors").fetchone() == (0,)


def _zipf_documents(seed: int, documents: int = 40):
    """Documents of words drawn with Zipf-like frequencies (a few very common words, many rare
    ones) and some exact copies: the shape where pruning the common terms matters, and ties."""
    import random

    rng = random.Random(seed)
    words = [f"w{i}" for i in range(300)]
    weights = [1 / (i + 1) for i in range(len(words))]
    texts = [" ".join(rng.choices(words, weights, k=rng.randint(1, 60))) for _ in range(documents)]
    texts += rng.sample(texts, 8)  # copies: equal scores, decided by index order
    return (
        [
            Document(
                doc_id=f"d{i}",
                uri=f"urn:d{i}",
                title="",
                text=f"{t}\n\n{' '.join(reversed(t.split()))}\n",
            )
            for i, t in enumerate(texts)
        ],
        words,
        weights,
    )


@pytest.mark.parametrize("seed", range(6))
def test_pruned_bm25_equals_bm25s_on_skewed_words_and_copies(tmp_path, seed):
    import random

    docs, words, weights = _zipf_documents(seed)
    stored = ParentChildIndex(store=SQLiteStore(tmp_path / "z.sqlite"))
    memory = ParentChildIndex(store=MemoryStore())
    chunker = MarkdownChunker(max_tokens=30)
    for doc in docs:
        for index in (stored, memory):
            index_document(index, chunker.parents(doc), chunker.split(doc))
    rng = random.Random(seed)
    for _ in range(40):
        query = " ".join(rng.choices(words, weights, k=rng.randint(1, 8)))  # repeats happen too
        for k in (1, 3, 10):
            ranked = stored.store.ranked("default", query, k, None, BM25Retriever())
            expected = BM25Retriever().rank(query, memory.store.children("default"), k)
            assert [(h.ref_id, h.score) for h in ranked] == [
                (h.ref_id, h.score) for h in expected
            ], (query, k)


def test_the_kept_statistics_equal_a_recount_after_changes_and_removals(tmp_path):
    path = tmp_path / "s.sqlite"
    store = SQLiteStore(path)
    index = ParentChildIndex(store=store)
    chunker = MarkdownChunker(max_tokens=30)
    docs, _, _ = _zipf_documents(1, documents=12)
    for doc in docs:
        index_document(index, chunker.parents(doc), chunker.split(doc), tenant=doc.doc_id[-1])
    for doc in docs[:5]:  # changed, then some removed
        changed = doc.model_copy(update={"text": doc.text[: len(doc.text) // 2] + "\n"})
        index_document(
            index, chunker.parents(changed), chunker.split(changed), tenant=doc.doc_id[-1]
        )
    for doc in docs[5:8]:
        store.remove_document(doc.doc_id[-1], doc.doc_id)
    db = sqlite3.connect(path)
    kept = set(db.execute("SELECT tenant, term, df FROM term_stats"))
    recount = set(db.execute("SELECT tenant, term, COUNT(*) FROM terms GROUP BY tenant, term"))
    assert kept == recount and kept
    assert set(
        db.execute("SELECT tenant, children, length FROM tenant_stats WHERE children > 0")
    ) == set(db.execute("SELECT tenant, COUNT(*), SUM(length) FROM children GROUP BY tenant"))
