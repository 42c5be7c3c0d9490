"""The answer exercises of notebooks 04, 05 and 06: each expected answer computed from the library
when asked, and the plausible wrong answers each refusal recognises, with why.

Kept apart from `teaching.selfcheck`, which registers them in its `SOLUTIONS` and `FORMS`.
Reading this file gives the answers away: try first.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.chunkers.prefixes import article_path_chunks
from chunklab.chunkers.semantic import SemanticChunker
from chunklab.chunkers.tables import orphans
from chunklab.documents.reading import read_document
from chunklab.documents.series import data_dir, list_documents, load_document, load_topic_boundaries
from chunklab.embeddings.static import WordLlamaEmbedder
from chunklab.evaluation.questions import load_question_file
from chunklab.evaluation.recall import prefix_cost
from chunklab.teaching.answers import Form


@lru_cache(maxsize=64)
def _stdev_cuts(stdevs: float) -> int:
    chunker = SemanticChunker(embedder=WordLlamaEmbedder(), breakpoint="stdev", stdevs=stdevs)
    return len(chunker.split(load_document("topics"))) - 1


def _stdevs_for_three_cuts() -> float:

    for n in range(0, 41):
        if _stdev_cuts(n * 0.25) == 3:
            return n * 0.25
    raise AssertionError("no stdevs up to 10 leaves exactly 3 cuts")


def _stdevs_misses() -> dict[Any, str]:
    right = _stdevs_for_three_cuts()
    misses: dict[Any, str] = {}
    for n in range(0, 41):
        stdevs, cuts = n * 0.25, _stdev_cuts(n * 0.25)
        if cuts == 2 and stdevs not in misses:
            misses[stdevs] = "that leaves 3 chunks, which is 2 cuts: count the cuts, not the chunks"
        elif cuts == 3 and stdevs > right:
            misses[stdevs] = "3 cuts, but not the smallest such stdevs: try smaller values too"
        elif stdevs not in misses and stdevs != right and abs(stdevs - right) <= 0.5:
            misses[stdevs] = f"at that stdevs WordLlama makes {cuts} cut(s), not 3"
    return misses


def budgeted_semantic(max_tokens: int = 30) -> tuple[int, int]:

    chunks = SemanticChunker(
        embedder=WordLlamaEmbedder(), breakpoint="percentile", percentile=80, max_tokens=max_tokens
    ).split(load_document("topics"))
    truth = set(load_topic_boundaries("topics")) - {0}
    return len(chunks), sum(c.start in truth for c in chunks)


def _budgeted_semantic_misses() -> dict[Any, str]:
    chunks, on_true = budgeted_semantic()
    return {
        (chunks, on_true + 1): "the first chunk starts the document, not a topic change: leave "
        "character 0 out",
        (on_true, chunks): "the right numbers in the wrong order: (chunks, on_true_changes)",
        budgeted_semantic(200): "those are the counts at the default budget (200): set "
        "max_tokens=30",
    }


@lru_cache(maxsize=2048)
def _cloudgov_orphans(max_tokens: int, mode: str = "rows") -> int:
    doc = read_document(data_dir() / "cloudgov-space-egress.md")
    return orphans(MarkdownChunker(max_tokens=max_tokens, table_mode=mode).split(doc), doc)


def rows_budget_without_orphans_on_cloudgov(mode: str = "rows") -> int:

    for budget in range(8, 1000):
        if _cloudgov_orphans(budget, mode) == 0:
            return budget
    raise AssertionError("no budget below 1000 leaves no orphan")


def _cloudgov_misses() -> dict[Any, str]:
    right = rows_budget_without_orphans_on_cloudgov()
    misses: dict[Any, str] = {}
    linearize = rows_budget_without_orphans_on_cloudgov("linearize")
    if linearize != right:
        misses[linearize] = "that is linearize mode's budget; the question asks for rows mode"
    for budget in (right - 1, right - 2):
        misses.setdefault(budget, f"at that budget {_cloudgov_orphans(budget)} orphan(s) remain")
    return misses


def _article_paths(fixed: bool = False) -> list[str]:
    return [c.metadata["path"] for c in article_path_chunks(load_document("manual"), fixed=fixed)]


def _article_paths_nesting_a_sibling() -> int:

    return sum(1 for path in _article_paths() if path.count(". ") > 1)


def _article_paths_misses() -> dict[Any, str]:
    return {
        sum(1 for path in _article_paths(fixed=True) if path.count(". ") > 1): "that is the "
        "fixed version's count; the question is about the article's, bug included",
        len(_article_paths()): "that is every chunk; count those whose path holds two numbered "
        "sections or more",
        sum(1 for path in _article_paths() if path.count(". ") >= 1): "that counts the paths with "
        "at least one numbered section; the question asks for more than one (a section nested "
        "under another)",
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


def _prefix_cost_misses() -> dict[Any, str]:
    return {
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


SOLUTIONS_0406: dict[str, tuple[str, Callable[[], Any]]] = {
    "04.1": ("a float, a multiple of 0.25", _stdevs_for_three_cuts),
    "04.2": ("a tuple (chunks, on_true_changes)", budgeted_semantic),
    "05.2": ("an int: max_tokens", rows_budget_without_orphans_on_cloudgov),
    "06.1": ("an int: the number of chunks", _article_paths_nesting_a_sibling),
    "06.2": ("a float: tokens per query, one decimal", _path_prefix_tokens_at_k5_on_policy),
}

FORMS_0406: dict[str, Form] = {
    "04.1": Form(misses=_stdevs_misses),
    "04.2": Form(misses=_budgeted_semantic_misses),
    "05.2": Form(misses=_cloudgov_misses),
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


HINTS_0406: dict[str, Callable[[Any, Any], str]] = {"06.2": _near_prefix_cost}
