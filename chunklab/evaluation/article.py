"""The article's section 8 table, reproduced with its stub retriever.

Its four cuts at 200 characters (`ARTICLE_STRATEGIES`), its word-overlap retriever and the
manual's ten questions: `article_table` gives the rows, `format_article_table` prints them as the
article does. Deterministic, and kept apart from the general runner (`experiment`) so that the
article's numbers can be read in one place; notebook 07 and `chunklab experiment --article` start
here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from chunklab.chunkers.fixed import FixedSizeChunker
from chunklab.chunkers.structural import StructuralChunker
from chunklab.chunkers.tables import LinearizedChunker, orphans
from chunklab.contracts import Chunk, Document
from chunklab.evaluation.metrics import answer_ids, coverage_at_k, has_facts, starts_mid_line
from chunklab.evaluation.questions import QuestionSet
from chunklab.retrieval.retrievers import OverlapRetriever

ARTICLE_STRATEGIES: dict[str, Callable[[Document], list[Chunk]]] = {
    "fixed_size": lambda d: FixedSizeChunker(size=200, overlap=40).split(d),
    "structural": lambda d: StructuralChunker(size=200).split(d),
    "structural+": lambda d: StructuralChunker(size=200, repack=True).split(d),
    "linearized": lambda d: LinearizedChunker(size=200).split(d),
}


def article_table(doc: Document, questions: QuestionSet, k: int = 3) -> list[dict]:
    """The article's section 8 and 11, one row per strategy, with its stub retriever.

    `coverage@k` and `complete@1` count questions whose top k (or top 1) holds a chunk with every
    fact (the article's `has_facts`); `tolerant` is section 11's coverage@k against the set of
    every chunk holding the facts, as a share. The two agree by construction: the article words
    the same measure twice.
    """
    retriever = OverlapRetriever()
    rows = []
    for name, strategy in ARTICLE_STRATEGIES.items():
        chunks = strategy(doc)
        by_id = {c.chunk_id: c for c in chunks}
        top_k, top_1, tolerant = 0, 0, 0.0
        for q in questions.questions:
            ranked = [h.ref_id for h in retriever.rank(q.question, chunks, k)]
            top_k += any(has_facts(by_id[r].text, q.facts) for r in ranked[:k])
            top_1 += any(has_facts(by_id[r].text, q.facts) for r in ranked[:1])
            gold = answer_ids(chunks, q.facts)
            tolerant += coverage_at_k(ranked, gold, k) if gold else 0.0
        rows.append(
            {
                "strategy": name,
                "chunks": len(chunks),
                f"coverage@{k}": top_k,
                "complete@1": top_1,
                "questions": len(questions.questions),
                "mid_line": starts_mid_line(chunks, doc),
                "orphans": orphans(chunks, doc),
                f"tolerant@{k}": round(tolerant / len(questions.questions), 2),
            }
        )
    return rows


def format_article_table(rows: Sequence[dict], k: int = 3) -> str:
    """The table as the article prints it (in English), one line per strategy."""
    return "\n".join(
        f"{r['strategy']:<12} {r['chunks']:>2} chunks  coverage@{k} "
        f"{r[f'coverage@{k}']}/{r['questions']}  "
        f"complete@1 {r['complete@1']}/{r['questions']}  mid-line {r['mid_line']}  "
        f"orphans {r['orphans']}"
        for r in rows
    )
