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
from chunklab.chunkers.prefixes import article_path_chunks
from chunklab.chunkers.tables import LinearizedChunker, find_tables, orphans
from chunklab.contracts import Document
from chunklab.documents.reading import read_document
from chunklab.documents.series import data_dir, list_documents, load_document
from chunklab.evaluation.questions import load_question_file
from chunklab.evaluation.recall import prefix_cost
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
    for size in range(10, right):
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


@lru_cache(maxsize=1024)
def _rows_orphans(file: str, max_tokens: int) -> int:
    doc = read_document(data_dir() / file)
    return orphans(MarkdownChunker(max_tokens=max_tokens).split(doc), doc)


def _rows_budget_from_which(file: str) -> int:
    """The budget from which rows mode leaves no orphan on `file`, up to 130 tokens."""
    return max(b for b in range(8, 131) if _rows_orphans(file, b)) + 1


def rows_budget_from_which_policy_keeps_rows() -> int:
    """05b.2: the budget from which rows mode leaves no orphan on the travel policy, a document
    companion 05b does not sweep, up to 130 tokens."""
    return _rows_budget_from_which("travel_policy.md")


def _policy_misses() -> dict[Any, str]:
    right = rows_budget_from_which_policy_keeps_rows()
    misses: dict[Any, str] = {}
    for budget in range(8, right - 1):
        left = _rows_orphans("travel_policy.md", budget)
        misses[budget] = f"at that budget {left} orphan(s) remain in rows mode"
    for budget in range(right + 1, 131):
        misses[budget] = (
            "no orphan there, but a smaller budget also leaves none: sweep every budget upward, "
            "one token at a time, and stop at the first from which none is left"
        )
    tenth = min(b for b in range(10, 131, 10) if b >= right)
    if tenth != right:
        misses[tenth] = (
            "the first tenth with no orphan; a budget between the tenths already leaves none: "
            "sweep every budget, one token at a time"
        )
    linearize_width = _widest_pair_tokens(read_document(data_dir() / "travel_policy.md"))
    misses[linearize_width] = (
        "that is the policy's widest breadcrumb + header + row, linearize mode's need; rows mode "
        "also writes the delimiter row under the header: count it too, or sweep rows mode itself"
    )
    gds = _rows_budget_from_which("gdsway-managing-sensitive-information.md")
    misses[gds] = (
        "that is the GDS page's budget (section 1 prints it); this asks about the travel policy"
    )
    misses[right - 1] = (
        "off by one: at that budget an orphan remains; answer the first budget from which "
        "none is left"
    )
    return misses


def _article_paths(fixed: bool = False) -> list[str]:
    return [c.metadata["path"] for c in article_path_chunks(load_document("manual"), fixed=fixed)]


def _article_paths_nesting_a_sibling() -> int:

    return sum(1 for path in _article_paths() if path.count(". ") > 1)


def _article_paths_misses() -> dict[Any, str]:
    printed = len(_article_paths()[2:4])  # section 2 prints the third and fourth chunks' paths
    return {
        printed: "that counts the paths section 2 prints; count every chunk of "
        f"article_path_chunks(manual), all {len(_article_paths())} of them",
        sum(1 for path in _article_paths(fixed=True) if path.count(". ") > 1): "that is the "
        "fixed version's count; the question is about the article's, bug included",
        len(_article_paths()): "that is every chunk; count those whose path holds two numbered "
        "sections or more",
        sum(1 for path in _article_paths() if path.count(". ") >= 1): "that counts the paths with "
        "at least one numbered section; the question asks for more than one (a section nested "
        "under another)",
        sum(1 for path in _article_paths() if path.count(". ") == 2): "that counts the paths "
        "with exactly two numbered sections; 'more than one' also takes the deeper paths, where "
        "three or four numbered sections nest",
    }


def prefix_cost_on_policy(
    k: int = 5, max_tokens: int = 100, mode: str = "path", documents: tuple[str, ...] = ()
) -> float:
    names = documents or ("travel_policy",)
    (row,) = prefix_cost(
        [load_document(name) for name in names], max_tokens=max_tokens, modes=(mode,), ks=(k,)
    )
    return row[f"k={k}"]


def _asked() -> tuple[str, ...]:
    """The documents the experiment's questions ask about: notebook 06's cost table (section 5)."""
    names = list_documents()
    questions = load_question_file(
        data_dir() / "experiment.questions.yaml", {name: load_document(name) for name in names}
    )
    return tuple(sorted({q.document for q in questions}))


def _path_prefix_tokens_at_k5_on_policy() -> float:

    return prefix_cost_on_policy()


def _prefix_without_separator(k: int = 5) -> float:
    """The path prefix's tokens counted alone, without the blank line that joins it to the body."""
    chunks = MarkdownChunker(max_tokens=100, prefix="path").split(load_document("travel_policy"))
    return round(k * sum(cl100k(c.metadata["prefix"]) for c in chunks) / len(chunks), 1)


def _prefix_cost_misses() -> dict[Any, str]:
    five_times_section_5 = round(5 * prefix_cost_on_policy(k=1, documents=_asked()), 1)
    return {
        five_times_section_5: "that is 5 times section 5's tokens per chunk over its five "
        "documents; the question asks the travel policy alone: read its own k=5 column",
        _prefix_without_separator(): "that counts the prefix text alone: the blank line that joins "
        "it to the body is part of what the prefix adds; read the k=5 column of prefix_cost",
        prefix_cost_on_policy(k=3, documents=_asked()): "that is section 5's table (five "
        "documents, k=3); the question asks the travel policy alone at k=5",
        prefix_cost_on_policy(k=1): "that is one chunk's prefix; a query hands the model k=5 "
        "chunks",
        prefix_cost_on_policy(k=3): "that is k=3; the question asks k=5",
        prefix_cost_on_policy(max_tokens=200): "that is at the 200-token budget; the question "
        "asks max_tokens=100",
        prefix_cost_on_policy(documents=_asked()): "that is over the five documents of section 5's "
        "table; the question asks the travel policy alone",
        round(5 * prefix_cost_on_policy(k=1), 1): "that is 5 times the rounded tokens per chunk; "
        "read the k=5 column, which multiplies before it rounds",
        prefix_cost_on_policy(mode="context"): "that is the contextual prefix; the question asks "
        "the path prefix",
        prefix_cost_on_policy(mode="context", documents=_asked()): "that is the contextual prefix "
        "over the five documents; the question asks the path prefix on the travel policy alone",
    }


SOLUTIONS_TABLES_PREFIXES: dict[str, tuple[str, Callable[[], Any]]] = {
    "05.2": ("an int: size, in characters", linearized_size_keeping_policy_rows),
    "05b.2": ("an int: max_tokens", rows_budget_from_which_policy_keeps_rows),
    "06.1": ("an int: the number of chunks", _article_paths_nesting_a_sibling),
    "06.2": ("a float: tokens per query, one decimal", _path_prefix_tokens_at_k5_on_policy),
}

FORMS_TABLES_PREFIXES: dict[str, Form] = {
    "05.2": Form(misses=_policy_size_misses),
    "05b.2": Form(misses=_policy_misses),
    "06.1": Form(misses=_article_paths_misses),
    "06.2": Form(misses=_prefix_cost_misses),
}


def _near_prefix_cost(answer: Any, solution: Any) -> str:
    """06.2: an answer near the right one is usually a hand computation of the k=5 column."""
    if isinstance(answer, (int, float)) and abs(answer - solution) <= 0.15 * solution:
        return (
            "close, but not the library's figure: read the k=5 column of prefix_cost for the "
            "travel policy alone, path prefix, max_tokens=100, rather than computing it by hand"
        )
    return ""


HINTS_TABLES_PREFIXES: dict[str, Callable[[Any, Any], str]] = {"06.2": _near_prefix_cost}
