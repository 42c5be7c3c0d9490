from chunklab import Chunk, ScoreSource, load_document
from chunklab.chunkers.structural import StructuralChunker
from chunklab.retrieval.retrievers import BM25Retriever, LogCountRetriever, OverlapRetriever


def chunk(i, text):
    return Chunk(chunk_id=f"d#{i}", doc_id="d", ordinal=i, text=text, token_count=1, start=0, end=0)


def test_overlap_is_the_articles_stub_with_ties_by_order():
    chunks = [chunk(0, "limite de ruido"), chunk(1, "limite de vibracao"), chunk(2, "nada")]
    hits = OverlapRetriever().rank("qual o limite de vibração", chunks, k=3)
    assert [h.ref_id for h in hits] == ["d#1", "d#0", "d#2"]  # zero scores kept, as in the article
    assert hits[0].score == 0.75 and hits[0].source is ScoreSource.LEXICAL


def test_logcount_skips_chunks_without_a_shared_term():
    chunks = [chunk(0, "Tokyo Tokyo daily"), chunk(1, "nothing")]
    hits = LogCountRetriever().rank("What is the daily limit in Tokyo?", chunks, k=5)
    assert [h.ref_id for h in hits] == ["d#0"]


def test_bm25_ranks_the_table_chunk_first_and_ties_are_deterministic():
    manual = load_document("manual")
    chunks = StructuralChunker(repack=True).split(manual)
    hits = BM25Retriever().rank("qual o limite de vibracao", chunks, k=3)
    assert hits[0].ref_id == "manual#3"
    same = [chunk(i, "identical text") for i in range(4)]
    assert [h.ref_id for h in BM25Retriever().rank("identical", same, k=4)] == [
        "d#0",
        "d#1",
        "d#2",
        "d#3",
    ]
    assert BM25Retriever().rank("anything", [], k=3) == []


def test_hybrid_fuses_the_two_rankings_by_reciprocal_rank():
    from chunklab.contracts import Chunk, Scored, ScoreSource
    from chunklab.retrieval.retrievers import RRF_K, HybridRetriever

    chunks = [
        Chunk(
            chunk_id=f"d#{i}",
            doc_id="d",
            ordinal=i,
            text=f"t{i}",
            token_count=1,
            start=i,
            end=i + 1,
        )
        for i in range(4)
    ]

    class Fixed:  # a retriever that returns a given order
        def __init__(self, order):
            self.order = order

        def rank(self, query, candidates, k):
            return [
                Scored(ref_id=f"d#{i}", score=1.0, source=ScoreSource.LEXICAL) for i in self.order
            ][:k]

    hybrid = HybridRetriever(lexical=Fixed([0, 1, 2]), dense=Fixed([2, 3, 1]))
    hits = hybrid.rank("q", chunks, k=4)
    expected = {
        0: 1 / (RRF_K + 1),
        1: 1 / (RRF_K + 2) + 1 / (RRF_K + 3),
        2: 1 / (RRF_K + 3) + 1 / (RRF_K + 1),
        3: 1 / (RRF_K + 2),
    }
    assert [h.ref_id for h in hits] == ["d#2", "d#1", "d#0", "d#3"]
    assert all(abs(h.score - expected[int(h.ref_id[2:])]) < 1e-12 for h in hits)
    assert {h.source for h in hits} == {ScoreSource.FUSED}
    assert hybrid.rank("q", [], k=3) == []


def test_hybrid_on_the_travel_policy_finds_what_either_finds():
    from chunklab import load_document
    from chunklab.chunkers.markdown import MarkdownChunker
    from chunklab.retrieval.retrievers import BM25Retriever, DenseRetriever, HybridRetriever

    chunks = MarkdownChunker(max_tokens=60).split(load_document("travel_policy"))
    question = "What is the lodging cap in New York?"
    top = {h.ref_id for h in HybridRetriever().rank(question, chunks, k=3)}
    assert BM25Retriever().rank(question, chunks, k=1)[0].ref_id in top
    assert DenseRetriever().rank(question, chunks, k=1)[0].ref_id in top
