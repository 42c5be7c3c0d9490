"""The answer exercises of notebooks 03, 03b and 03c (small-to-big, sentence windows, filters
and ranking): each expected answer computed from the library when asked, and the plausible wrong
answers each refusal recognises, with why.

Kept apart from `teaching.selfcheck`, which registers them in its `SOLUTIONS` and `FORMS`.
Reading this file gives the answers away: try first.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.contracts import Chunk
from chunklab.documents.series import load_document
from chunklab.evaluation.questions import load_questions
from chunklab.evaluation.recall import fact_recall, sentence_window_table
from chunklab.retrieval.index import ParentChildIndex, index_document
from chunklab.retrieval.retrievers import RETRIEVERS
from chunklab.retrieval.sentence_window import sentence_windows
from chunklab.teaching.answers import Form
from chunklab.tokens.counters import approx_tokens, cl100k


def _policy_index(retriever, count, max_tokens: int = 45):
    doc = load_document("travel_policy")
    chunker = MarkdownChunker(max_tokens=max_tokens, count_tokens=count)
    index = ParentChildIndex(retriever=retriever)
    index_document(index, chunker.parents(doc), chunker.split(doc))
    return index


COUNTERS = {"cl100k": cl100k, "approx": approx_tokens}


@functools.cache  # the wrong-answer hints ask the same runs again; each is computed once
def _small_to_big_misses(
    retriever: str = "bm25",
    k: int = 1,
    mode: str = "parents",
    max_tokens: int = 80,
    count: str = "cl100k",
) -> tuple[str, ...]:
    """Question ids whose facts do not all arrive (03.1), for the retriever, k, mode and the
    children's budget (in tokens of `count`)."""
    index = _policy_index(RETRIEVERS[retriever](), COUNTERS[count], max_tokens)
    missed = []
    for q in load_questions("travel_policy").questions:
        if mode == "parents":
            context = "\n".join(p.text for p in index.small_to_big(q.question, k=k))
        else:
            hits = index.search(q.question, k=k)
            context = "\n".join(index.store.child("default", h.ref_id).text for h in hits)
        if fact_recall(context, q.facts) < 1:
            missed.append(q.id)
    return tuple(sorted(missed))


def _bm25_children_misses_at_k2() -> list[str]:
    return list(_small_to_big_misses(k=2, mode="children"))


def _bm25_misses_hints() -> dict[Any, str]:
    """03.1's wrong inputs. Chosen so that each gives another set: at 80 tokens BM25's children
    miss other questions at k = 1 and k = 3 than at k = 2, and the log-count scorer's differ too
    (at the notebook's 45 tokens, BM25 misses the same two at k = 1 and k = 2)."""
    hints: dict[Any, list[str]] = {}
    for answer, where in [
        (
            _small_to_big_misses(k=2, max_tokens=45, mode="children"),
            "with the notebook's 45-token children",
        ),
        (_small_to_big_misses(k=2), "for the parents handed over (small-to-big)"),
        (_small_to_big_misses("logcount", k=2, mode="children"), "with the log-count scorer"),
        (_small_to_big_misses(k=1, mode="children"), "at k = 1"),
        (_small_to_big_misses(k=3, mode="children"), "at k = 3"),
        (
            _small_to_big_misses("logcount", k=2, max_tokens=45, mode="children"),
            "with the log-count scorer and the notebook's 45-token children",
        ),
        (
            _small_to_big_misses(k=2, mode="children", count="approx"),
            "with children cut by the word-based counter (approx_tokens), not cl100k",
        ),
        (("t02", "t04"), "of the prompt's example, which shows the form only"),
    ]:
        hints.setdefault(answer, []).append(where)
    return {
        answer: f"that is the answer {', or '.join(where)}; the question asks the children "
        "alone, 80-token children, BM25, k = 2"
        for answer, where in hints.items()
    }


@functools.cache
def _window_tokens(
    window_size: int = 1,
    k: int = 2,
    after: int | None = None,
    retriever: str = "bm25",
    counter: str = "cl100k",
) -> float:
    """Mean tokens handed over by sentence windows, BM25 and cl100k unless told (03b.1)."""
    doc, questions = load_document("travel_policy"), load_questions("travel_policy")
    ranker = RETRIEVERS[retriever]()
    if counter == "cl100k":
        (row,) = sentence_window_table(doc, questions, ranker, [k], window_size, after)
        return row["tokens_to_model"]
    paired = sentence_windows(doc, window_size, after)
    index = ParentChildIndex(retriever=ranker)
    index_document(index, paired.parents, paired.children)
    sizes = [
        COUNTERS[counter]("\n".join(w.text for w in index.small_to_big(q.question, k, k)))
        for q in questions.questions
    ]
    return round(sum(sizes) / len(sizes), 1)


def _window_one_tokens() -> float:
    return _window_tokens()


def _window_hints() -> dict[Any, str]:
    return {
        _window_tokens(3): "that is with 3 sentences each side (the table above); the question "
        "asks window_size=1",
        _window_tokens(1, after=0): "that is one sentence before the hit and none after; "
        "window_size=1 takes one on each side",
        _window_tokens(retriever="logcount"): "that is with the log-count scorer, the sketch's; "
        "the question asks BM25Retriever",
        _window_tokens(1, k=1): "that is at k = 1; the question asks k = 2",
        round(_window_tokens() * 4, 1): "that is the total over the four questions; give the mean",
        _window_tokens(counter="approx"): "that counts words (approx_tokens); the question asks "
        "cl100k tokens",
        **_llama_index_window_tokens(),
        **{
            round(_window_tokens() + off, 1): "0.1 off the answer: take the mean of the four "
            "questions' cl100k counts and round it to one decimal at the end (round(x, 1))"
            for off in (-0.1, 0.1)
        },
    }


def _llama_index_window_tokens() -> dict[Any, str]:
    """03b.1 answered with LlamaIndex's own parser at window_size=1 (its sentences, its windows
    joined by spaces), BM25, k = 2: the slip the prompt warns about. Empty without LlamaIndex."""
    try:
        from llama_index.core import Document as LlamaDocument
        from llama_index.core.node_parser import SentenceWindowNodeParser
    except ImportError:  # the `integrations` extra is optional
        return {}
    doc = load_document("travel_policy")
    parser = SentenceWindowNodeParser.from_defaults(window_size=1)
    nodes = parser.get_nodes_from_documents([LlamaDocument(text=doc.text)])
    chunks = [
        Chunk(
            chunk_id=f"llama#{i}",
            doc_id=doc.doc_id,
            ordinal=i,
            text=n.get_content(),
            token_count=0,
            start=0,
            end=0,
        )
        for i, n in enumerate(nodes)
    ]
    window = {c.chunk_id: n.metadata["window"] for c, n in zip(chunks, nodes, strict=True)}
    ranker = RETRIEVERS["bm25"]()
    sizes = [
        cl100k("\n".join(window[h.ref_id] for h in ranker.rank(q.question, chunks, 2)))
        for q in load_questions("travel_policy").questions
    ]
    return {
        round(sum(sizes) / len(sizes), 1): "that is LlamaIndex's own parser "
        "(SentenceWindowNodeParser); the question asks chunklab's windows, sentence_window_table"
    }


EXPENSES = {"section": "Travel Policy > Expense Reporting"}
FILTERED_QUESTION = "What is the daily limit when I submit expenses?"


@functools.lru_cache(maxsize=4)
def _first_k_finding_after_ranking(
    retriever: str = "logcount", before: bool = False, max_tokens: int = 45
) -> int:
    """The smallest k at which ranking the policy's children and then filtering to the expense
    section keeps a child (03c.1); with `before`, filtering first (the wrong order's mirror)."""
    doc = load_document("travel_policy")
    children = MarkdownChunker(max_tokens=max_tokens, count_tokens=approx_tokens).split(doc)
    passing = [c for c in children if c.metadata.get("section") == EXPENSES["section"]]
    by_id = {c.chunk_id: c for c in children}
    ranker = RETRIEVERS[retriever]()
    for k in range(1, len(children) + 1):
        hits = ranker.rank(FILTERED_QUESTION, passing if before else children, k)
        if any(by_id[h.ref_id].metadata.get("section") == EXPENSES["section"] for h in hits):
            return k
    return len(children) + 1


def _rank_then_filter_k() -> int:
    return _first_k_finding_after_ranking("bm25")


def _rank_then_filter_hints() -> dict[Any, str]:
    """03c.1 asks BM25, where the expense child ranks second outright; the log-count scorer
    ties it with five per-diem rows, so its answer rests on the tie-break."""
    answer, count = _first_k_finding_after_ranking("bm25"), _policy_child_count()
    hints: dict[Any, str] = {
        k: f"at k = {k} rank then filter keeps the expense child, but already at a smaller k: "
        "the question asks the smallest"
        for k in range(answer + 1, count + 1)
    }
    hints[count] = f"that is every child ({count}); the question asks the smallest k"
    hints[_children_sharing_a_word("bm25")] = (
        "that is how many children share a word with the question (a score above 0); the "
        "question asks the first k whose top k, filtered, keeps it"
    )
    hints[_first_k_finding_after_ranking()] = (
        "that is with the log-count scorer, where the expense child ties five per-diem rows at "
        "2.00 and ranks 6th only by the tie-break; the question asks BM25"
    )
    hints[_first_k_finding_after_ranking("bm25", before=True)] = (
        "at k = 1 BM25's top child is a visa step, which fails the filter: 1 is filtering "
        "before ranking (or counting only the children ranked ahead); the question asks rank "
        "then filter"
    )
    hints.pop(answer, None)
    return hints


def _policy_child_count() -> int:
    doc = load_document("travel_policy")
    return len(MarkdownChunker(max_tokens=45, count_tokens=approx_tokens).split(doc))


def _children_sharing_a_word(retriever: str = "logcount") -> int:
    """How many of the policy's 45-token children the scorer gives a score above 0."""
    doc = load_document("travel_policy")
    children = MarkdownChunker(max_tokens=45, count_tokens=approx_tokens).split(doc)
    hits = RETRIEVERS[retriever]().rank(FILTERED_QUESTION, children, len(children))
    return sum(h.score > 0 for h in hits)


SOLUTIONS_SMALL_TO_BIG: dict[str, tuple[str, Callable[[], Any]]] = {
    "03.1": ("a list of question ids, in any order", _bm25_children_misses_at_k2),
    "03b.1": ("a float, one decimal: tokens per question", _window_one_tokens),
    "03c.1": ("an int: the smallest k", _rank_then_filter_k),
}

FORMS_SMALL_TO_BIG: dict[str, Form] = {
    "03.1": Form(misses=_bm25_misses_hints),
    "03b.1": Form(misses=_window_hints),
    "03c.1": Form(misses=_rank_then_filter_hints),
}
