"""Fact recall and what it costs: how much of the needed facts reach the model, for how many tokens.

Fact recall (the design sketch's metric) asks, for each question, what share of its required facts
appear verbatim in the text handed to the model. It needs no judge and no model. Next to it this
module measures cost in real cl100k tokens: tokens indexed (what you store and embed) and tokens
handed to the model per query (what you pay for, k times per query).
"""

from __future__ import annotations

from collections.abc import Sequence

from chunklab.chunkers.fixed import FixedSizeChunker
from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.chunkers.prefixes import prefix_tokens
from chunklab.contracts import Chunk, Document
from chunklab.evaluation.questions import QuestionSet
from chunklab.retrieval.index import ParentChildIndex, index_document
from chunklab.retrieval.retrievers import Retriever
from chunklab.retrieval.sentence_window import SENTENCE_WINDOW, sentence_windows
from chunklab.tokens.counters import TokenCounter, cl100k


def fact_recall(context: str, facts: Sequence[str]) -> float:
    """Share of the facts that occur verbatim in the context."""
    return sum(fact in context for fact in facts) / len(facts)


def _row(
    mode: str, k: int, contexts: list[str], questions: QuestionSet, indexed: Sequence[Chunk]
) -> dict:
    recalls = [fact_recall(c, q.facts) for c, q in zip(contexts, questions.questions, strict=True)]
    return {
        "mode": mode,
        "k": k,
        "fact_recall": round(sum(recalls) / len(recalls), 2),
        "tokens_to_model": round(sum(cl100k(c) for c in contexts) / len(contexts), 1),
        "tokens_indexed": sum(cl100k(c.text) for c in indexed),
    }


def small_to_big_table(
    doc: Document,
    questions: QuestionSet,
    retriever: Retriever,
    count_tokens: TokenCounter,
    max_tokens: int,
    ks: Sequence[int],
    max_parents: int = 2,
) -> list[dict]:
    """Rows (mode, k, fact_recall, tokens_to_model, tokens_indexed) for three ways to answer:

    - `fixed windows`: 200/40 character windows, the top k handed over;
    - `children only`: MarkdownChunker children, the top k handed over;
    - `small-to-big`: the same children searched, their parent sections (at most `max_parents`)
      handed over. Its index holds children and parents, so it indexes more.
    """
    chunker = MarkdownChunker(max_tokens=max_tokens, count_tokens=count_tokens)
    children, parents = chunker.split(doc), chunker.parents(doc)
    windows = FixedSizeChunker(size=200, overlap=40).split(doc)
    index = ParentChildIndex(retriever=retriever)
    index_document(index, parents, children)
    text_of = {c.chunk_id: c.text for c in [*children, *windows]}
    rows = []
    for k in ks:
        asked = [q.question for q in questions.questions]
        rows.append(
            _row(
                "fixed windows",
                k,
                [
                    "\n".join(text_of[h.ref_id] for h in retriever.rank(q, windows, k))
                    for q in asked
                ],
                questions,
                windows,
            )
        )
        rows.append(
            _row(
                "children only",
                k,
                ["\n".join(text_of[h.ref_id] for h in index.search(q, k)) for q in asked],
                questions,
                children,
            )
        )
        used_parents = [p for p in parents if any(c.parent_id == p.chunk_id for c in children)]
        rows.append(
            _row(
                "small-to-big",
                k,
                ["\n".join(p.text for p in index.small_to_big(q, k, max_parents)) for q in asked],
                questions,
                [*children, *used_parents],
            )
        )
    return rows


def sentence_window_table(
    doc: Document,
    questions: QuestionSet,
    retriever: Retriever,
    ks: Sequence[int],
    window_size: int = SENTENCE_WINDOW,
    after: int | None = None,
) -> list[dict]:
    """Rows like `small_to_big_table`'s for the sentence window (`retrieval.sentence_window`):
    single sentences searched, the window of each of the top k handed over (k windows, as
    LlamaIndex's postprocessor does; one window twice only once). Indexed: sentences and windows."""
    paired = sentence_windows(doc, window_size, after)
    index = ParentChildIndex(retriever=retriever)
    index_document(index, paired.parents, paired.children)
    asked = [q.question for q in questions.questions]
    mode = "sentence window" if after is None else f"sentence window ({window_size}+{after})"
    return [
        _row(
            mode,
            k,
            ["\n".join(w.text for w in index.small_to_big(q, k, max_parents=k)) for q in asked],
            questions,
            [*paired.children, *paired.parents],
        )
        for k in ks
    ]


def prefix_cost(
    docs: Sequence[Document],
    max_tokens: int,
    modes: Sequence[str] = ("none", "path", "context"),
    ks: Sequence[int] = (1, 3, 5),
) -> list[dict]:
    """What each MarkdownChunker prefix mode costs, in cl100k tokens, over `docs`.

    Per mode: chunks made, tokens indexed, the mean prefix per chunk, and that prefix times k:
    what every query pays for it when k chunks are handed to the model.
    """

    rows = []
    for mode in modes:
        chunks = [
            c for d in docs for c in MarkdownChunker(max_tokens=max_tokens, prefix=mode).split(d)
        ]
        per_chunk = prefix_tokens(chunks, cl100k)
        mean = sum(per_chunk) / len(per_chunk)
        row = {
            "prefix": mode,
            "chunks": len(chunks),
            "tokens_indexed": sum(c.token_count for c in chunks),
            "prefix_tokens_per_chunk": round(mean, 1),
        }
        row.update({f"k={k}": round(mean * k, 1) for k in ks})
        rows.append(row)
    return rows
