"""Companion 03b's tables on notebook 03's four questions, kept out of its cells: five ways to
answer (children only, small-to-big, the sentence windows handed over whole, the sections alone,
the windows merged), per retriever and k, as fact recall in points and cl100k tokens handed over.

The first three rows come from `evaluation.recall`'s tables; the sections alone (the top k
sections ranked directly) and the merged windows (overlapping windows joined, each stretch of the
document once) are computed here, question by question, and returned per question as well.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.contracts import Document
from chunklab.evaluation.recall import fact_recall, sentence_window_table, small_to_big_table
from chunklab.retrieval.index import ParentChildIndex, index_document
from chunklab.teaching.excerpt_inside import runs
from chunklab.tokens.counters import approx_tokens, cl100k


def handed_text(
    doc: Document,
    asked: Sequence[Any],
    chunker: MarkdownChunker,
    windows: Any,
    mode: str,
    retriever: Any,
    k: int,
) -> list[str]:
    """What one way hands over per question: the top k sections, or the windows merged."""
    if mode == "sections alone":
        sections = chunker.parents(doc)
        text_of = {p.chunk_id: p.text for p in sections}
        return [
            "\n".join(text_of[h.ref_id] for h in retriever.rank(q.question, sections, k))
            for q in asked
        ]
    merging = ParentChildIndex(retriever=retriever)
    index_document(merging, windows.parents, windows.children)
    return [
        "\n".join(
            doc.text[a:b]
            for a, b in runs(
                ((w.start, w.end) for w in merging.small_to_big(q.question, k, max_parents=k)),
                doc.text,
            )
        )
        for q in asked
    ]


def four_question_tables(
    doc: Document,
    questions: Any,
    chunker: MarkdownChunker,
    windows: Any,
    retrievers: dict[str, Any],
    ks: Sequence[int],
) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """(recall, tokens, per_question): recall in points and mean cl100k tokens handed over, one
    row per (retriever, k), one column per way; per_question[name, mode, k] the fact recall of
    each question for the sections alone and the merged windows."""
    rows: list[dict] = []
    per_question: dict = {}
    for name, retriever in retrievers.items():
        for row in small_to_big_table(doc, questions, retriever, approx_tokens, 45, ks):
            if row["mode"] != "fixed windows":
                rows.append({"retriever": name, **row})
        rows += [
            {"retriever": name, **row}
            for row in sentence_window_table(doc, questions, retriever, ks)
        ]
        for k in ks:
            for mode in ["sections alone", "merged windows"]:
                texts = handed_text(doc, questions.questions, chunker, windows, mode, retriever, k)
                per_question[name, mode, k] = [
                    fact_recall(t, q.facts) for t, q in zip(texts, questions.questions, strict=True)
                ]
                rows.append(
                    {
                        "retriever": name,
                        "mode": mode,
                        "k": k,
                        "fact_recall": round(sum(per_question[name, mode, k]) / len(texts), 2),
                        "tokens_to_model": round(sum(map(cl100k, texts)) / len(texts), 1),
                    }
                )
    runs = pd.DataFrame(rows)
    runs["fact_recall"] = (runs.fact_recall * 100).round().astype(int)  # points, as in notebook 03
    recall, tokens = (
        runs.pivot_table(
            index=["retriever", "k"], columns="mode", values=v, aggfunc="first", sort=False
        )
        for v in ("fact_recall", "tokens_to_model")
    )
    return recall, tokens, per_question
