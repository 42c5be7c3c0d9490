"""The answer exercises of notebooks 01, 02, 02b, 03 and 03b: each expected answer computed from
the library when asked, and the plausible wrong answers each refusal recognises, with why.

Kept apart from `teaching.selfcheck`, which registers them in its `SOLUTIONS` and `FORMS`.
Reading this file gives the answers away: try first.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from chunklab.chunkers.fixed import FixedSizeChunker
from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.chunkers.structural import StructuralChunker
from chunklab.documents.series import load_document
from chunklab.evaluation.metrics import chunks_with_all, split_lines
from chunklab.evaluation.questions import load_questions
from chunklab.evaluation.recall import fact_recall, sentence_window_table
from chunklab.parsing.blocks import with_explicit_headings
from chunklab.retrieval.index import ParentChildIndex, index_document
from chunklab.retrieval.retrievers import RETRIEVERS
from chunklab.teaching.answers import Form
from chunklab.tokens.counters import approx_tokens, cl100k


def _split_lines_at(name: str, size: int, overlap: int) -> int:
    doc = load_document(name)
    return len(split_lines(FixedSizeChunker(size=size, overlap=overlap).split(doc), doc))


def _smallest_overlap_keeping_lines(name: str = "manual_en") -> int:
    for overlap in range(0, 200, 10):
        if not _split_lines_at(name, 200, overlap):
            return overlap
    raise AssertionError("no overlap below 200 keeps every line whole")


def _overlap_misses() -> dict[Any, str]:
    misses = {
        _smallest_overlap_keeping_lines("manual"): "that is the Portuguese manual's overlap (the "
        "sweep in section 3); the English lines have other lengths: measure them"
    }
    for overlap in range(0, _smallest_overlap_keeping_lines(), 10):
        split = _split_lines_at("manual_en", 200, overlap)
        misses.setdefault(overlap, f"at that overlap {split} English line(s) are still split")
    return misses


def _token_windows(overlap: int = 10) -> tuple[int, ...]:
    chunker = FixedSizeChunker(size=40, overlap=overlap, unit="tokens")
    return tuple(len(chunker.split(load_document(name))) for name in ("manual", "manual_en"))


def _token_window_misses() -> dict[Any, str]:
    return {
        _token_windows(0): "those are the counts with no overlap: with 10 tokens of overlap "
        "each window moves forward 30 tokens, not 40",
        _token_windows()[::-1]: "the right counts in the wrong order: Portuguese first",
    }


def _size_joining(needles: list[str]) -> int:
    doc = load_document("manual")
    for size in range(100, 801, 10):
        if chunks_with_all(FixedSizeChunker(size=size, overlap=0).split(doc), needles):
            return size
    raise AssertionError(f"no size up to 800 puts {needles} together")


def _smallest_size_joining_92_and_header() -> tuple[int, bool]:
    size = _size_joining(["92", "Limite"])
    chunks = FixedSizeChunker(size=size, overlap=0).split(load_document("manual"))
    return size, bool(chunks_with_all(chunks, ["0,08", "Limite"]))


def _size_misses() -> dict[Any, str]:
    size, saved = _smallest_size_joining_92_and_header()
    return {
        (size, not saved): "the size is right; look again at that cut for a chunk that holds "
        "both 0,08 and Limite",
        (_size_joining(["0,08", "Limite"]), saved): "that is the size that joins 0,08 and "
        "Limite; the question asks for 92",
    }


def _repack_size_keeping_table() -> tuple[int, int]:

    doc = load_document("manual")
    for size in range(200, 1001, 10):
        chunks = StructuralChunker(size=size, repack=True).split(doc)
        if chunks_with_all(chunks, ["3. Tabela", "Desalinhamento"]):
            return size, len(chunks)
    raise AssertionError("no size up to 1000 keeps the table together")


def _budget_keeping_every_row_with_header() -> int:

    doc = with_explicit_headings(load_document("manual"))
    rows = [
        line for line in doc.text.splitlines() if line.startswith("| ") and "Medida" not in line
    ]
    for budget in range(8, 400):
        chunks = MarkdownChunker(max_tokens=budget).split(doc)
        if all(any(row in c.text and "| Medida |" in c.text for c in chunks) for row in rows):
            return budget
    raise AssertionError("no budget below 400 keeps every row with the header")


def _repack_size_hint(answer: Any, solution: tuple[int, int]) -> str:
    """02.2: which part of (size, chunks) is wrong, said from what the chunker does at that size."""
    if not (isinstance(answer, tuple | list) and len(answer) == 2):
        return "answer a pair (size, chunks)"
    size, chunks = answer
    if (size, chunks) == solution[::-1]:
        return "size first, then chunks: (size, chunks)"
    if not isinstance(size, int) or size % 10 or not 10 <= size <= 2000:
        return "size is a multiple of 10 (and a size in characters, up to 2000)"
    doc = load_document("manual")
    made = StructuralChunker(size=size, repack=True).split(doc)
    if not chunks_with_all(made, ["3. Tabela", "Desalinhamento"]):
        return (
            f"at size={size} the table is still cut: no chunk holds both 3. Tabela and "
            "Desalinhamento"
        )
    if size != solution[0]:
        return (
            f"size={size} keeps the table, but a smaller multiple of 10 does too: find the smallest"
        )
    return f"the size is right; count the chunks StructuralChunker(size={size}, repack=True) makes"


def _rows_budget_hint(answer: Any, solution: int) -> str:
    """02b.2: at the learner's budget, is a row still without the header, or does less do?"""
    if not isinstance(answer, int) or isinstance(answer, bool) or not 8 <= answer <= 400:
        return "answer an int, a max_tokens between 8 and 400"
    doc = with_explicit_headings(load_document("manual"))
    chunks = MarkdownChunker(max_tokens=answer).split(doc)
    rows = [
        line for line in doc.text.splitlines() if line.startswith("| ") and "Medida" not in line
    ]
    bare = [
        row.split("|")[1].strip()
        for row in rows
        if not any(row in c.text and "| Medida |" in c.text for c in chunks)
    ]
    if bare:
        return f"at max_tokens={answer}, {', '.join(bare)} is in no chunk with the header row"
    return (
        f"every row shares a chunk with the header at max_tokens={answer}, and at a smaller "
        "budget too: find the smallest"
    )


def _policy_index(retriever, count):

    doc = load_document("travel_policy")
    chunker = MarkdownChunker(max_tokens=45, count_tokens=count)
    index = ParentChildIndex(retriever=retriever)
    index_document(index, chunker.parents(doc), chunker.split(doc))
    return index


COUNTERS = {"cl100k": cl100k, "approx": approx_tokens}


@functools.cache  # the wrong-answer hints ask the same runs again; each is computed once
def _small_to_big_misses(
    retriever: str = "bm25", count: str = "cl100k", k: int = 1, mode: str = "parents"
) -> tuple[str, ...]:
    """Question ids whose facts do not all arrive (03.1), for the retriever, counter, k and mode."""
    index = _policy_index(RETRIEVERS[retriever](), COUNTERS[count])
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
    hints: dict[Any, list[str]] = {}
    for answer, where in [
        (_small_to_big_misses(k=2), "for the parents handed over (small-to-big)"),
        (_small_to_big_misses("logcount", k=2, mode="children"), "with the log-count scorer"),
        (_small_to_big_misses(k=1), "for small-to-big at k = 1"),
        (("t02", "t04"), "of the prompt's example, which shows the form only"),
    ]:
        hints.setdefault(answer, []).append(where)
    return {
        answer: f"that is the answer {' and '.join(where)}; the question asks the children "
        "alone, BM25, k = 2"
        for answer, where in hints.items()
    }


@functools.cache
def _parents_tokens(
    retriever: str = "bm25", count: str = "cl100k", k: int = 4, most: int = 3, total: bool = False
) -> float:
    """Mean cl100k tokens handed over per question by small_to_big(k, max_parents=most) (03.2)."""
    index = _policy_index(RETRIEVERS[retriever](), COUNTERS[count])
    qs = load_questions("travel_policy").questions
    sizes = [cl100k("\n".join(p.text for p in index.small_to_big(q.question, k, most))) for q in qs]
    return round(sum(sizes) / (1 if total else len(sizes)), 1)


def _three_parents_tokens() -> float:
    return _parents_tokens()


def _three_parents_hints() -> dict[Any, str]:
    return {
        _parents_tokens(most=2): "that is with the default max_parents=2; the question asks 3",
        _parents_tokens("logcount", "approx"): "that is the log-count scorer with "
        "the word-based counter; the question asks BM25 and cl100k children",
        _parents_tokens(total=True): "that is the total over the four questions; give the mean",
        _parents_tokens(k=2): "that is at k = 2; the question asks k = 4",
    }


@functools.cache
def _window_tokens(
    window_size: int = 1, k: int = 2, after: int | None = None, retriever: str = "bm25"
) -> float:
    """Mean cl100k tokens handed over by sentence windows, BM25 unless told (03b.1)."""
    doc, questions = load_document("travel_policy"), load_questions("travel_policy")
    ranker = RETRIEVERS[retriever]()
    (row,) = sentence_window_table(doc, questions, ranker, [k], window_size, after)
    return row["tokens_to_model"]


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
    }


EXPENSES = {"section": "Travel Policy > Expense Reporting"}
FILTERED_QUESTION = "What is the daily limit when I submit expenses?"


@functools.lru_cache(maxsize=4)
def _first_k_finding_after_ranking(retriever: str = "logcount", before: bool = False) -> int:
    """The smallest k at which ranking the policy's children and then filtering to the expense
    section keeps a child (03c.1); with `before`, filtering first (the wrong order's mirror)."""
    doc = load_document("travel_policy")
    children = MarkdownChunker(max_tokens=45, count_tokens=approx_tokens).split(doc)
    passing = [c for c in children if c.metadata.get("section") == EXPENSES["section"]]
    by_id = {c.chunk_id: c for c in children}
    ranker = RETRIEVERS[retriever]()
    for k in range(1, len(children) + 1):
        hits = ranker.rank(FILTERED_QUESTION, passing if before else children, k)
        if any(by_id[h.ref_id].metadata.get("section") == EXPENSES["section"] for h in hits):
            return k
    return len(children) + 1


def _rank_then_filter_k() -> int:
    return _first_k_finding_after_ranking()


def _rank_then_filter_hints() -> dict[Any, str]:
    return {
        _first_k_finding_after_ranking(before=True): "that is filtering before ranking, where "
        "k = 1 already finds it; the question asks rank then filter",
        _first_k_finding_after_ranking("bm25"): "that is with BM25; the question asks the "
        "log-count scorer",
        _first_k_finding_after_ranking() - 1: "that counts the children ranked ahead of it; k "
        "counts the expense child too",
    }


SOLUTIONS_0103: dict[str, tuple[str, Callable[[], Any]]] = {
    "01.1": ("an int: the overlap", _smallest_overlap_keeping_lines),
    "01.2": ("a pair (Portuguese, English) of chunk counts", _token_windows),
    "01.3": ("a pair (size, True or False)", _smallest_size_joining_92_and_header),
    "02.2": ("a pair (size, chunks), a tuple or a list", _repack_size_keeping_table),
    "02b.2": ("an int: max_tokens", _budget_keeping_every_row_with_header),
    "03.1": ("a list of question ids, in any order", _bm25_children_misses_at_k2),
    "03.2": ("a float, one decimal: tokens per question", _three_parents_tokens),
    "03b.1": ("a float, one decimal: tokens per question", _window_one_tokens),
    "03c.1": ("an int: the smallest k", _rank_then_filter_k),
}

# exercise -> (answer, solution) -> what is wrong with that answer, in words.
HINTS_0103: dict[str, Callable[[Any, Any], str]] = {
    "02.2": _repack_size_hint,
    "02b.2": _rows_budget_hint,
}

FORMS_0103: dict[str, Form] = {
    "01.1": Form(misses=_overlap_misses),
    "01.2": Form(misses=_token_window_misses),
    "01.3": Form(misses=_size_misses),
    "03.1": Form(misses=_bm25_misses_hints),
    "03.2": Form(misses=_three_parents_hints),
    "03b.1": Form(misses=_window_hints),
    "03c.1": Form(misses=_rank_then_filter_hints),
}
