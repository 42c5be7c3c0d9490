from chunklab import Chunk, ScoreSource, load_document
from chunklab.retrievers import BM25Retriever, LogCountRetriever, OverlapRetriever
from chunklab.structural import StructuralChunker


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
    assert [h.ref_id for h in BM25Retriever().rank("identical", same, k=4)] == ["d#0", "d#1", "d#2", "d#3"]
    assert BM25Retriever().rank("anything", [], k=3) == []
