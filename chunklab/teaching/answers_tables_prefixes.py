"""The answer exercises of notebooks 05, 05b and 06 (tables, a table's room, prefixes): each
expected answer computed from the library when asked, and the plausible wrong answers each
refusal recognises, with why.

Kept apart from `teaching.selfcheck`, which registers them in its `SOLUTIONS` and `FORMS`.
Reading this file gives the answers away: try first.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.chunkers.tables import LinearizedChunker, find_tables, orphans
from chunklab.contracts import Document
from chunklab.documents.series import data_dir, list_documents, load_document
from chunklab.evaluation.experiment import plain, run_experiment
from chunklab.evaluation.questions import load_question_file
from chunklab.evaluation.recall import prefix_cost
from chunklab.retrieval.retrievers import BM25Retriever, DenseRetriever, HybridRetriever
from chunklab.teaching.answers import Form
from chunklab.tokens.counters import cl100k


@lru_cache(maxsize=512)
def policy_linearized_at(size: int) -> tuple[int, int]:
    """(rows not kept whole beside their header, orphans) of LinearizedChunker on the travel
    policy at `size` characters."""
    doc = load_document("travel_policy")
    chunks = LinearizedChunker(size=size).split(doc)
    tables = find_tables(doc.text)
    kept = [any(t.header in c.text and r in c.text for c in chunks) for t in tables for r in t.rows]
    lost = kept.count(False)
    return lost, orphans(chunks, doc)


def linearized_size_keeping_policy_rows() -> int:
    """05.2: the size from which on (to 300 characters) LinearizedChunker keeps every row of the
    travel policy's table whole beside its header."""
    return max(s for s in range(10, 301) if policy_linearized_at(s)[0]) + 1


def _policy_blind_sizes() -> list[int]:
    """The sizes from 60 to 300 at which orphans() reads 0 on the travel policy while a row is
    not kept whole beside its header."""
    return [
        s for s in range(60, 301) if policy_linearized_at(s)[0] and not policy_linearized_at(s)[1]
    ]


def policy_size_and_blind_count() -> tuple[int, int]:
    """05.2: (the size from which on every row is kept, the sizes from 60 to 300 whose 0 orphans
    hide a lost row). The first number is section 4's prediction; the second needs rows counted."""
    return linearized_size_keeping_policy_rows(), len(_policy_blind_sizes())


def _widest_pair_tokens(doc: Document) -> int:
    """A document's widest breadcrumb + header + row, in tokens, as linearize mode writes them."""
    sections = MarkdownChunker(max_tokens=2000).split(doc)
    return max(
        cl100k(c.metadata["prefix"] + "\n\n" + t.header + "\n" + row)
        for t in find_tables(doc.text)
        for row in t.rows
        for c in sections
        if t.header in c.text and row in c.text
    )


def _policy_size_misses() -> dict[Any, str]:
    right = linearized_size_keeping_policy_rows()
    doc = load_document("travel_policy")
    pairs = [(t.header, row) for t in find_tables(doc.text) for row in t.rows]
    misses: dict[Any, str] = {
        max(len(row) for _, row in pairs): "that is the longest row alone; the chunk holds its "
        "header too, glued to it by a newline",
        max(len(h) + len(r) for h, r in pairs): "off by one: the pair is header, newline, row; "
        "count the newline between them",
        max(cl100k(h + "\n" + r) for h, r in pairs): "that is the longest header + row in tokens; "
        "LinearizedChunker's size counts characters",
        197: "that is the cloud.gov page's longest header + row (section 4); this asks about "
        "the travel policy",
    }
    for size in range(1, right):  # from 1: orphans() reads 0 there, the slip the prompt warns of
        lost, left = policy_linearized_at(size)
        why = f"at that size {lost} row(s) are not kept whole beside the header"
        if not left:
            why += (
                ", yet orphans() reports 0: a row cut in two leaves pieces that are not rows. "
                "Count rows kept (row_fates), not orphans"
            )
        misses.setdefault(size, why)
    for size in range(right + 1, 301):
        misses.setdefault(
            size,
            "every row is kept there, but a smaller size keeps them too: stop at the first size "
            "from which no row is lost",
        )
    return misses


def _pair_hint(
    answer: Any, solution: Any, unit: str, misses: Callable[[], dict], sweep: str
) -> str:
    """05.2 and 05b.2 ask the same pair, (from which `unit` on, how many `unit`s hide a lost
    row): the hint when the answer is no such pair, the right pair swapped, or its first number
    wrong (named by `misses`, else `sweep`); "" when the first number is right."""
    if not (isinstance(answer, (tuple, list)) and len(answer) == 2):
        return f"answer two ints, (from which {unit} on, how many {unit}s hide a lost row)"
    first, count = answer
    if isinstance(first, str) or isinstance(count, str):
        return f"answer two ints, not strings: ({first!s}, {count!s}) without the quotes"
    if (count, first) == tuple(solution) and first != count:
        return f"the two numbers are swapped: the {unit} first, then the count of {unit}s"
    return misses().get(first, sweep) if first != solution[0] else ""


def _policy_hint(answer: Any, solution: Any) -> str:
    """05.2: name the slip in whichever of the two numbers is wrong."""
    sweep = "sweep every size up to 300 with row_fates"
    hint = _pair_hint(answer, solution, "size", _policy_size_misses, sweep)
    if hint:
        return hint
    blind = answer[1]
    lost_sizes = [s for s in range(60, 301) if policy_linearized_at(s)[0]]
    slips = {
        0: "0 is what orphans alone say: a row cut in two leaves pieces that are not rows. At each "
        "size count the rows no chunk holds whole beside their header as well",
        len(lost_sizes): "that counts every size that loses a row; count only those where "
        "orphans() also reads 0",
        sum(not policy_linearized_at(s)[1] for s in range(60, 301)): "that counts every size "
        "with 0 orphans; count only those where a row is still lost",
        sum(
            policy_linearized_at(s)[0] > 0 and not policy_linearized_at(s)[1] for s in range(1, 301)
        ): "that counts sizes under 60 too; the question asks the sizes from 60 to 300",
    }
    slips.pop(solution[1], None)
    return slips.get(
        blind,
        "count the sizes from 60 to 300 where orphans() gives 0 and a row is still not kept "
        "whole beside its header",
    )


@lru_cache(maxsize=1024)
def _linearize_losses(name: str, max_tokens: int) -> tuple[int, int]:
    """(orphans, rows not kept whole beside their header) of linearize mode on a series document."""
    doc = load_document(name)
    chunks = MarkdownChunker(max_tokens=max_tokens, table_mode="linearize").split(doc)
    apart = sum(
        not any(t.header in c.text and row in c.text for c in chunks)
        for t in find_tables(doc.text)
        for row in t.rows
    )
    return orphans(chunks, doc), apart


def linearize_budget_from_which_gds_copy_keeps_rows() -> int:
    """The budget from which linearize mode orphans no row and keeps every row whole with its
    header on the series' copy of the GDS page, up to 130 tokens. Its first zero comes earlier,
    the trap notebook 05b's section 1 names."""
    return max(b for b in range(8, 131) if any(_linearize_losses("sensitive_code", b))) + 1


def _gds_copy_blind_budgets() -> int:
    """How many budgets from 30 to 130 leave 0 orphans on the GDS copy yet a row not kept."""
    losses = [_linearize_losses("sensitive_code", b) for b in range(30, 131)]
    return sum(left == 0 and apart > 0 for left, apart in losses)


def gds_copy_budget_and_blind_count() -> tuple[int, int]:
    """05b.2: (the budget from which on, the budgets with 0 orphans and a row not kept)."""
    return linearize_budget_from_which_gds_copy_keeps_rows(), _gds_copy_blind_budgets()


@lru_cache(maxsize=256)
def _rows_mode_losses(name: str, max_tokens: int) -> tuple[int, int]:
    """(orphans, rows not kept) of rows mode, the default, on a series document."""
    doc = load_document(name)
    chunks = MarkdownChunker(max_tokens=max_tokens).split(doc)
    apart = sum(
        not any(t.header in c.text and row in c.text for c in chunks)
        for t in find_tables(doc.text)
        for row in t.rows
    )
    return orphans(chunks, doc), apart


def _budget_slips() -> dict[int, str]:
    """Why each wrong first number is wrong: a budget that still loses a row, a first zero, a
    budget past the answer, another file's or another mode's figure."""
    right = linearize_budget_from_which_gds_copy_keeps_rows()
    slips: dict[int, str] = {}
    for budget in range(8, right - 1):
        left, apart = _linearize_losses("sensitive_code", budget)
        slips[budget] = (
            f"at that budget {left} orphan(s) remain and {apart} row(s) are not kept"
            if left
            else "no orphan there, but orphans come back at a larger budget: that is a first zero, "
            "not the budget from which on none is left (section 1's trap); sweep past it"
        )
    for budget in range(right + 1, 131):
        slips[budget] = (
            "none left there, but a smaller budget also leaves none: sweep every budget upward, "
            "one token at a time, and answer the first from which on none is left"
        )
    rows_from = max(b for b in range(8, 131) if any(_rows_mode_losses("sensitive_code", b))) + 1
    slips[rows_from] = (
        "that is rows mode's budget (MarkdownChunker's default table_mode); the question asks "
        "table_mode='linearize'"
    )
    slips[68] = (
        "that is section 1's figure for the GDS file it reads; the series' copy differs: sweep "
        "load_document('sensitive_code') itself"
    )
    slips[right - 1] = (
        "off by one: at that budget a row is still orphaned or not kept; answer the first budget "
        "from which on none is"
    )
    slips.pop(right, None)
    return slips


def _gds_copy_hint(answer: Any, solution: Any) -> str:
    """05b.2: name the slip in whichever of the two numbers is wrong."""
    sweep = "sweep every budget from 30 to 130 in linearize mode"
    hint = _pair_hint(answer, solution, "budget", _budget_slips, sweep)
    if hint:
        return hint
    if answer[1] == 0:
        return (
            "0 is what orphans alone say: a row cut in two leaves pieces that are not rows. At "
            "each budget count the rows no chunk holds whole beside their header as well"
        )
    return (
        "count the budgets from 30 to 130 where orphans() gives 0 and a row is still not kept "
        "whole beside its header"
    )


def prefix_cost_on_policy(
    k: int = 5, max_tokens: int = 100, mode: str = "path", documents: tuple[str, ...] = ()
) -> float:
    names = documents or ("travel_policy",)
    (row,) = prefix_cost(
        [load_document(name) for name in names], max_tokens=max_tokens, modes=(mode,), ks=(k,)
    )
    return row[f"k={k}"]


@lru_cache(maxsize=16)
def added_tokens_on_policy(
    retriever: str = "hybrid", pooled: bool = True, k: int = 3
) -> tuple[float, ...]:
    """Notebook 06's section 6 run at k (3 there), path against no prefix: (the mean tokens the
    path adds to a query's context over the travel policy's questions, paired; the same over all
    questions; the mean context with the path over the policy's questions)."""
    documents = {name: load_document(name) for name in list_documents()}
    questions = load_question_file(data_dir() / "experiment.questions.yaml", documents)
    strategies = {m: plain(MarkdownChunker(max_tokens=100, prefix=m)) for m in ("none", "path")}
    kinds = {"bm25": BM25Retriever, "wordllama": DenseRetriever, "hybrid": HybridRetriever}
    rows = run_experiment(
        documents, questions, strategies, {retriever: kinds[retriever]()}, ks=(k,), pooled=pooled
    )
    tokens = {(r["question"], r["strategy"]): r["tokens_to_model"] for r in rows}
    added = {q.id: tokens[q.id, "path"] - tokens[q.id, "none"] for q in questions}
    policy = [q.id for q in questions if q.document == "travel_policy"]
    return (
        sum(added[q] for q in policy) / len(policy),
        sum(added.values()) / len(added),
        sum(tokens[q, "path"] for q in policy) / len(policy),
    )


def _path_adds_on_policy() -> float:
    return round(added_tokens_on_policy()[0], 1)


def _added_tokens_misses() -> dict[Any, str]:
    right, over_all, whole = added_tokens_on_policy()
    misses: dict[Any, str] = {}
    misses[round(added_tokens_on_policy(k=1)[0], 1)] = "that is k=1; the question asks k=3"
    at_5 = round(added_tokens_on_policy(k=5)[0], 1)
    misses.setdefault(at_5, "that is k=5; the question asks k=3")
    for name in ("bm25", "wordllama"):
        value = added_tokens_on_policy(name)[0]
        for rounded in {round(value, 1), round(value + 0.04, 1), round(value - 0.04, 1)}:
            misses[rounded] = f"that is {name}'s figure; the question asks the hybrid's"
    for k in (1, 3, 5):  # prefix_cost's columns: the ceiling, which may equal another figure
        ceiling = prefix_cost_on_policy(k=k)
        told = (
            f"prefix_cost's k={k} column, the ceiling: the prefix as if it came on top "
            "of the body. Inside the budget it takes the body's room; pair each query's "
            "tokens_to_model, path against none"
        )
        # a figure that is also another slip's (the retriever, say) keeps that slip's hint alone
        misses.setdefault(ceiling, f"that is {told}")
    documents = {name: load_document(name) for name in list_documents()}
    questions = load_question_file(data_dir() / "experiment.questions.yaml", documents)
    asked = tuple(sorted({q.document for q in questions}))
    for k in (1, 3, 5):  # section 5's table over the documents asked: k times the prefix length
        over_five = round(prefix_cost_on_policy(k=k, documents=asked), 1)
        misses.setdefault(
            over_five,
            f"that is {k} x the path's mean length over the five documents asked (section 5's "
            f"k={k} column), not a paired difference: pair each policy query's tokens_to_model, "
            "path against none",
        )
    policy_count = sum(q.document == "travel_policy" for q in questions)
    misses[round(right * policy_count / len(questions), 1)] = (
        f"that divides the policy's sum by all {len(questions)} questions; divide by the "
        f"policy's {policy_count} questions"
    )
    misses[round(over_all, 1)] = (
        "that is over all 43 questions; the question asks the travel policy's questions alone"
    )
    for name in ("bm25", "wordllama"):  # the other retrievers' figures, over every question
        misses.setdefault(
            round(added_tokens_on_policy(name)[1], 1),
            f"that is {name}'s figure over all {len(questions)} questions; the question asks the "
            "hybrid's, over the travel policy's questions alone",
        )
    misses[round(whole, 1)] = (
        "that is the path's whole context; the question asks what it adds over no prefix"
    )
    misses[round(-right, 1)] = "the sign is reversed: path minus none"
    misses[round(added_tokens_on_policy(pooled=False)[0], 1)] = (
        "that searches the travel policy in an index of its own: pooled=False does, and so does "
        "re-running with the policy's questions alone, since pooled pools only the documents "
        "your questions ask about. Section 6 pools all five: filter its rows to the policy's "
        "questions, don't re-run"
    )
    misses.pop(round(right, 1), None)
    return misses


SOLUTIONS_TABLES_PREFIXES: dict[str, tuple[str, Callable[[], Any]]] = {
    "05.2": ("two ints: (size, sizes)", policy_size_and_blind_count),
    "05b.2": ("two ints: (max_tokens, budgets)", gds_copy_budget_and_blind_count),
    "06.2": ("a float: tokens per query, one decimal", _path_adds_on_policy),
}

FORMS_TABLES_PREFIXES: dict[str, Form] = {
    "06.2": Form(misses=_added_tokens_misses),
}


def _near_added_tokens(answer: Any, solution: Any) -> str:
    """06.2: an answer near the right one is usually a slip in the pairing or the filter."""
    if (
        isinstance(answer, (int, float))
        and float(answer).is_integer()
        and 0 < abs(answer - solution) < 1
    ):
        return "that is the mean rounded to a whole number; the question asks one decimal"
    if isinstance(answer, (int, float)) and abs(answer - solution) <= 0.15 * abs(solution):
        return (
            "close, but not it: for each of the travel policy's questions take tokens_to_model "
            "with the path minus with no prefix (hybrid, k=3, section 6's rows), then the mean"
        )
    return ""


HINTS_TABLES_PREFIXES: dict[str, Callable[[Any, Any], str]] = {
    "05.2": _policy_hint,
    "05b.2": _gds_copy_hint,
    "06.2": _near_added_tokens,
}
