"""The answer exercises of notebooks 04, 04b and 04c (semantic cuts, LLM-chosen cuts, what moves
a semantic cut): each expected answer computed from the library when asked, and the plausible
wrong answers each refusal recognises, with why.

Kept apart from `teaching.selfcheck`, which registers them in its `SOLUTIONS` and `FORMS`.
Reading this file gives the answers away: try first.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numpy as np

from chunklab.chunkers.semantic import SemanticChunker
from chunklab.documents.series import load_document, load_topic_boundaries
from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.embeddings.static import HashingEmbedder, WordLlamaEmbedder
from chunklab.evaluation.metrics import boundary_scores
from chunklab.teaching.answers import Form
from chunklab.teaching.answers_llm_cuts import first_pass_misses, first_pass_on_schedules


@lru_cache(maxsize=2)
def _topic_similarities(embedder: str) -> tuple[SemanticChunker, np.ndarray]:
    """A stdev-rule chunker and the neighbour similarities of the topics document's sentences:
    the rule only reads them, so every stdevs value tried shares one pass of the model (41
    values, one embedding)."""
    chosen = {"minilm": MiniLMEmbedder, "wordllama": WordLlamaEmbedder}[embedder]()
    chunker = SemanticChunker(embedder=chosen, breakpoint="stdev")
    _, sims = chunker.similarities(load_document("topics"))
    return chunker, sims


@lru_cache(maxsize=128)
def _stdev_cuts(stdevs: float, embedder: str = "minilm") -> int:
    """The cuts the stdev rule itself makes (`cuts(sims)`), before the token budget packs a long
    group into more chunks: the exercise asks about the rule, not the budget. MiniLM is asked,
    not WordLlama, whose answer section 2's table already prints."""
    chunker, sims = _topic_similarities(embedder)
    return len(chunker.model_copy(update={"stdevs": stdevs}).cuts(sims))


_CUTS_ASKED = 5  # exercise 04.1 asks for exactly this many cuts


def stdevs_for_asked_cuts(embedder: str = "minilm") -> float:
    for n in range(0, 41):
        if _stdev_cuts(n * 0.25, embedder) == _CUTS_ASKED:
            return n * 0.25
    raise AssertionError(f"no stdevs up to 10 leaves exactly {_CUTS_ASKED} cuts")


def _stdevs_misses() -> dict[Any, str]:
    right, asked = stdevs_for_asked_cuts(), _CUTS_ASKED
    misses: dict[Any, str] = {}
    wordllama = stdevs_for_asked_cuts("wordllama")
    if wordllama != right:
        cuts = _stdev_cuts(wordllama)
        counted = f" ({asked} chunks): count the cuts, not the chunks" if cuts == asked - 1 else ""
        misses[wordllama] = (
            f"that is WordLlama's answer (section 2's table); with MiniLMEmbedder() the rule "
            f"makes {cuts} cut(s) there{counted}"
        )
    for n in range(0, 41):
        stdevs, cuts = n * 0.25, _stdev_cuts(n * 0.25)
        if stdevs in misses or stdevs == right:
            continue
        if cuts == asked - 1:
            misses[stdevs] = (
                f"that leaves {asked} chunks, which is {asked - 1} cuts: count the cuts, "
                "not the chunks"
            )
        elif cuts == asked and stdevs > right:
            misses[stdevs] = f"{asked} cuts, but not the smallest such stdevs: try smaller values"
        else:
            misses[stdevs] = f"at that stdevs MiniLM makes {cuts} cut(s), not {asked}"
    return misses


def wide_buffer_scores(buffer_size: int = 3, **options: Any) -> tuple[float, float]:
    """04.3b: (precision, recall) of the greedy rule with a wider buffer on the topics document
    (3: buffer 2 scores as buffer 1, whose row the notebook prints); `options` vary it to name
    the slips."""
    chosen = {"wordllama": WordLlamaEmbedder, "minilm": MiniLMEmbedder}[
        options.pop("embedder", "wordllama")
    ]()
    chunks = SemanticChunker(embedder=chosen, buffer_size=buffer_size, **options).split(
        load_document("topics")
    )
    scored = boundary_scores(chunks, load_topic_boundaries("topics"))
    return scored["precision"], scored["recall"]


def _wide_buffer_misses() -> dict[Any, str]:
    right = wide_buffer_scores()
    slips: list[tuple[Any, str]] = [
        (wide_buffer_scores(0), "that is no buffer at all: pass buffer_size=3"),
        (
            wide_buffer_scores(1),
            "that is buffer_size=1, companion 04c's section 3 row (and buffer_size=2's): "
            "pass buffer_size=3",
        ),
        (wide_buffer_scores(4), "that is buffer_size=4: the question asks buffer_size=3"),
        (
            wide_buffer_scores(partition="optimal"),
            'that is the optimal partition: keep the greedy rule (no partition="optimal")',
        ),
        (wide_buffer_scores(embedder="minilm"), "that is MiniLM: use WordLlamaEmbedder()"),
        (
            (round(right[0] * 100), round(right[1] * 100)),
            "give shares from 0 to 1, as boundary_scores prints them, not percentages",
        ),
    ]
    misses: dict[Any, str] = {}
    for answer, hint in slips:
        if tuple(answer) != tuple(right):
            misses.setdefault(tuple(answer), hint)
    return misses


def budgeted_semantic(
    max_tokens: int = 30, embedder: str = "wordllama", **rule: Any
) -> tuple[int, int]:
    """(chunks, chunks starting on a true topic change) on the topics document; `embedder` and
    `rule` (breakpoint, unit, ...) vary it to name the slips a wrong answer comes from."""
    chosen = {"wordllama": WordLlamaEmbedder, "hashing": HashingEmbedder}[embedder]()
    options = {"breakpoint": "percentile", "percentile": 80, **rule}
    chunks = SemanticChunker(embedder=chosen, max_tokens=max_tokens, **options).split(
        load_document("topics")
    )
    truth = set(load_topic_boundaries("topics")) - {0}
    return len(chunks), sum(c.start in truth for c in chunks)


def _at_section_5_budget() -> list[tuple[Any, str]]:
    """The counts at max_tokens=100, the budget of notebook 04's section 5: a plausible slip."""
    chunks, on_true = budgeted_semantic(100)
    return [
        (
            (chunks, on_true),
            "those are the counts at max_tokens=100, section 5's budget: set max_tokens=30",
        ),
        (
            (chunks, on_true + 1),
            "max_tokens=100 (section 5's budget) and the first chunk "
            "counted: set max_tokens=30 and leave character 0 out",
        ),
    ]


def _budgeted_semantic_misses() -> dict[Any, str]:
    """The slips one makes on the way, each named: the first chunk counted, the order, the
    default budget, cuts counted for chunks, another embedder, the fixed rule, line units."""
    chunks, on_true = budgeted_semantic()
    slips: list[tuple[Any, str]] = [
        (
            (chunks, on_true + 1),
            "the first chunk starts the document, not a topic change: leave character 0 out",
        ),
        ((on_true, chunks), "the right numbers in the wrong order: (chunks, on_true_changes)"),
        (
            budgeted_semantic(200),
            "those are the counts at the default budget (200): set max_tokens=30",
        ),
        (
            (chunks - 1, on_true),
            "that first number counts the cuts; the question counts the "
            "chunks (one more than the cuts)",
        ),
        (
            budgeted_semantic(embedder="hashing"),
            "those are the hashing embedder's counts: use WordLlamaEmbedder()",
        ),
        (
            budgeted_semantic(breakpoint="threshold"),
            "those are the fixed 0.6 threshold's counts: "
            'keep the percentile rule (breakpoint="percentile", percentile=80)',
        ),
        (
            budgeted_semantic(unit="line"),
            'those cut lines, not sentences: keep the default unit="sentence"',
        ),
    ]
    at_200 = budgeted_semantic(200)
    slips += _at_section_5_budget() + [
        (
            (at_200[0], at_200[1] + 1),
            "the default budget (200) and the first chunk counted: set max_tokens=30 and "
            "leave character 0 out",
        ),
        (
            (at_200[0] - 1, at_200[1]),
            "cuts at the default budget (200): set max_tokens=30 and count chunks, not cuts",
        ),
    ]
    slips += [
        (
            (chunks, n),
            "the chunk count is right; count again the chunks whose start is exactly one of "
            "load_topic_boundaries('topics'), leaving character 0 out",
        )
        for n in range(0, chunks + 1)
        if n != on_true
    ]
    misses: dict[Any, str] = {}
    for answer, hint in slips:
        if answer != (chunks, on_true):
            misses.setdefault(answer, hint)
    return misses


@lru_cache(maxsize=2)
def _percentile_cut_counts(embedder: str) -> tuple[int, ...]:
    """Cuts the percentile rule makes on the topics document at percentiles 1 to 99 (index p-1)."""
    model = {"minilm": MiniLMEmbedder, "wordllama": WordLlamaEmbedder}[embedder]()
    rule = SemanticChunker(embedder=model)
    _, sims = rule.similarities(load_document("topics"))
    return tuple(
        len(SemanticChunker(embedder=model, percentile=p).cuts(sims)) for p in range(1, 100)
    )


def smallest_percentile_for_two_cuts(embedder: str = "minilm", most: int = 2) -> int:
    """04c.2: the smallest whole percentile at which MiniLM's rule makes at most 2 cuts."""
    counts = _percentile_cut_counts(embedder)
    return next(p for p in range(1, 100) if counts[p - 1] <= most)


def _two_cuts_misses() -> dict[Any, str]:
    right = smallest_percentile_for_two_cuts()
    slips = {
        smallest_percentile_for_two_cuts(most=1): "that leaves 2 chunks, which is 1 cut: count "
        "the cuts, not the chunks",
        smallest_percentile_for_two_cuts(most=3): "that is at most 3 cuts: the question asks 2",
        smallest_percentile_for_two_cuts("wordllama"): "that is WordLlama's sweep (section 5's "
        "plot); the question asks MiniLM",
    }
    misses = {answer: hint for answer, hint in slips.items() if answer != right}
    for p, cuts in enumerate(_percentile_cut_counts("minilm"), start=1):
        if p != right and p not in misses:
            smallest = " at most 2, but not the smallest such percentile" if p > right else ""
            misses[p] = f"at percentile {p} MiniLM makes {cuts} cut(s){smallest}"
    return misses


SOLUTIONS_SEMANTIC: dict[str, tuple[str, Callable[[], Any]]] = {
    "04.1": ("a float, a multiple of 0.25", stdevs_for_asked_cuts),
    "04.2": ("a tuple (chunks, on_true_changes)", budgeted_semantic),
    "04.3b": ("a tuple (precision, recall), two decimals", wide_buffer_scores),
    "04b.2": ("a tuple (calls, prompt_tokens)", first_pass_on_schedules),
    "04c.2": ("an int: the percentile", smallest_percentile_for_two_cuts),
}

FORMS_SEMANTIC: dict[str, Form] = {
    "04.1": Form(misses=_stdevs_misses),
    "04.2": Form(misses=_budgeted_semantic_misses),
    "04.3b": Form(decimals=2, misses=_wide_buffer_misses),
    "04b.2": Form(misses=first_pass_misses),
    "04c.2": Form(misses=_two_cuts_misses),
}
