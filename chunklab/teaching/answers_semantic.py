"""The answer exercises of notebooks 04, 04b, 04c and 04e (semantic cuts, LLM-chosen cuts, what
moves a semantic cut, the semantic cut as retrieval): each expected answer computed from the
library when asked, and the plausible wrong answers each refusal recognises, with why.

Kept apart from `teaching.selfcheck`, which registers them in its `SOLUTIONS` and `FORMS`.
Reading this file gives the answers away: try first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chunklab.chunkers.semantic import SemanticChunker
from chunklab.documents.series import data_dir, list_documents, load_document, load_topic_boundaries
from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.embeddings.static import HashingEmbedder, WordLlamaEmbedder
from chunklab.evaluation.questions import load_question_file
from chunklab.teaching.answers import Form
from chunklab.teaching.answers_stdevs import stdevs_and_gaps, stdevs_misses, stdevs_off_the_grid


def budgeted_semantic(
    max_tokens: int = 30, embedder: str = "wordllama", **rule: Any
) -> tuple[int, float]:
    """04.2: (chunks, precision) on the topics document, precision being the share of the cuts
    (chunks after the first) that start on a true topic change. `embedder` and `rule`
    (breakpoint, unit, ...) vary it to name the slips a wrong answer comes from."""
    chunks, on_true = _budgeted_counts(max_tokens, embedder, **rule)
    return chunks, on_true / max(chunks - 1, 1)


def _budgeted_counts(
    max_tokens: int = 30, embedder: str = "wordllama", **rule: Any
) -> tuple[int, int]:
    """(chunks, chunks starting on a true topic change, the document's start left out)."""
    known = {"wordllama": WordLlamaEmbedder, "hashing": HashingEmbedder, "minilm": MiniLMEmbedder}
    chosen = known[embedder]()
    options = {"breakpoint": "percentile", "percentile": 80, **rule}
    chunks = SemanticChunker(embedder=chosen, max_tokens=max_tokens, **options).split(
        load_document("topics")
    )
    truth = set(load_topic_boundaries("topics")) - {0}
    return len(chunks), sum(c.start in truth for c in chunks)


def _share_slips(chunks: int, on_true: int) -> list[tuple[Any, str]]:
    """The ways to get precision wrong with the right chunk count: the count itself, a share of
    the chunks, the first chunk counted, recall."""
    return [
        (
            (chunks, on_true),
            "that second number counts the chunks on a true change; the question asks their "
            "share of the cuts (precision, from 0 to 1)",
        ),
        (
            (chunks, on_true / chunks),
            "that divides by the chunks; precision divides by the cuts, one fewer (the "
            "document's start is not a cut)",
        ),
        (
            (chunks, (on_true + 1) / chunks),
            "the first chunk counted as a cut on a true change: the document's start is neither"
            + (
                "; or, if you rounded precision to one decimal, give two decimals"
                if round(on_true / (chunks - 1), 1) == round((on_true + 1) / chunks, 2)
                else ""
            ),
        ),
        (
            (chunks, 1.0),
            "that is the recall (the share of true changes that got a cut); the question asks "
            "precision, the share of the cuts that fall on a true change",
        ),
    ]


def _miscounted_slips(chunks: int, on_true: int, precision: float) -> list[tuple[Any, str]]:
    """The right chunk count with the cuts on true changes miscounted (over the cuts or over the
    chunks), and the right precision given as a percent."""
    slips: list[tuple[Any, str]] = [
        (
            (chunks, n / (chunks - 1)),
            "the chunk count is right; count again the cuts whose chunk starts exactly at one of "
            "load_topic_boundaries('topics'), and divide by the cuts",
        )
        for n in range(0, chunks)
        if n != on_true
    ]
    slips += [
        (
            (chunks, n / chunks),
            "that divides by the chunks, and the count on true changes is off too: count the "
            "cuts whose chunk starts exactly at a true topic start, and divide by the cuts",
        )
        for n in range(0, chunks)
        if n != on_true
    ]
    slips.append(
        (
            (chunks, round(100 * precision)),
            "that is a percent: give precision as a share, from 0 to 1, to two decimals",
        )
    )
    return slips


def _other_embedders() -> list[tuple[Any, str]]:
    """MiniLM's answer and the hash's, each named; where the two coincide (on the topics document
    at max_tokens=30 they do), the hint names both, MiniLM first, so neither is blamed alone."""
    minilm, hashed = budgeted_semantic(embedder="minilm"), budgeted_semantic(embedder="hashing")
    both = " (the hashing embedder gives the same numbers)" if minilm == hashed else ""
    return [
        (minilm, f"those are MiniLM's numbers{both}: use WordLlamaEmbedder()"),
        (hashed, "those are the hashing embedder's numbers: use WordLlamaEmbedder()"),
    ]


def _budgeted_semantic_misses() -> dict[Any, str]:
    """The slips one makes on the way, each named: the count for the share, the chunks for the
    cuts, recall for precision, the order, the default budget, another embedder, the fixed rule,
    line units."""
    chunks, precision = budgeted_semantic()
    _, on_true = _budgeted_counts()
    at_200, at_100 = budgeted_semantic(200), budgeted_semantic(100)
    slips: list[tuple[Any, str]] = _share_slips(chunks, on_true) + [
        ((precision, chunks), "the right numbers in the wrong order: (chunks, precision)"),
        (at_200, "those are the numbers at the default budget (200): set max_tokens=30"),
        (at_100, "those are the numbers at max_tokens=100, 04e's budget: set max_tokens=30"),
        (
            (chunks, at_200[1]),
            f"{at_200[1]:.2f} is section 2's precision, where no budget binds: count the cuts "
            "on true changes at max_tokens=30",
        ),
        (
            (at_200[0], precision),
            f"{at_200[0]} chunks is the default 200-token budget's count: pass max_tokens=30",
        ),
        (
            (chunks - 1, precision),
            "that first number counts the cuts; the question counts the chunks (one more than "
            "the cuts)",
        ),
        *_other_embedders(),
        (
            budgeted_semantic(breakpoint="threshold"),
            "those are the fixed 0.6 threshold's numbers: "
            'keep the percentile rule (breakpoint="percentile", percentile=80)',
        ),
        (
            budgeted_semantic(unit="line"),
            'those cut lines, not sentences: keep the default unit="sentence"',
        ),
        (
            (at_200[0] - 1, at_200[1]),
            "cuts at the default budget (200): set max_tokens=30 and count chunks, not cuts",
        ),
    ]
    slips += _miscounted_slips(chunks, on_true, precision)
    misses: dict[Any, str] = {}
    for answer, hint in slips:
        if answer != (chunks, precision):
            misses.setdefault(answer, hint)
    return misses


def _starts_and_rule(
    max_tokens: int, names: tuple[str, ...], percentile: int = 80
) -> tuple[int, int]:
    """(chunk starts, of them the rule's own cuts) of WordLlama's semantic cut at `max_tokens` and
    `percentile`, summed over `names`, each document's own start left out."""
    chunker = SemanticChunker(
        embedder=WordLlamaEmbedder(), percentile=percentile, max_tokens=max_tokens
    )
    starts = own = 0
    for name in names:
        document = load_document(name)
        units, sims = chunker.similarities(document)
        rule = {units[i + 1][0] for i in chunker.cuts(sims)}
        chunk_starts = sorted(c.start for c in chunker.split(document))[1:]
        starts, own = starts + len(chunk_starts), own + len(rule & set(chunk_starts))
    return starts, own


def _asked() -> tuple[str, ...]:
    """The documents the series' questions ask about (notebook 04e's five)."""
    docs = {name: load_document(name) for name in list_documents()}
    questions = load_question_file(data_dir() / "experiment.questions.yaml", docs)
    return tuple(sorted({q.document for q in questions}))


def rule_share(max_tokens: int = 300, percentile: int = 90) -> tuple[int, int]:
    """04e.2: the semantic cut's chunk starts over the five asked documents at `max_tokens` and
    `percentile`, and how many of them the rule chose (the rest are the budget's). Percentile 90,
    not 04e's 80: at 80 the rule's count (39) is printed in the notebook at every budget."""
    return _starts_and_rule(max_tokens, _asked(), percentile)


def _rule_share_misses() -> dict[Any, str]:
    """The slips on the way: percentile 80's counts (04e's own, whose rule count is printed),
    either number carried over from them, 04e's budgets, the documents' starts counted, the order,
    every start or only the budget's counted as the rule's, one document alone."""
    starts, own = rule_share()
    at_80 = rule_share(300, 80)
    slips: list[tuple[Any, str]] = [
        (at_80, "those are percentile 80's counts: set percentile=90 as well as max_tokens=300"),
        (
            (starts, at_80[1]),
            f"{at_80[1]} is percentile 80's rule: the budget never moves the rule's count, the "
            "percentile does; count the rule's cuts at percentile 90",
        ),
        (
            (at_80[0], own),
            f"{at_80[0]} is the chunk starts at percentile 80: fewer rule cuts leave fewer starts; "
            "count them at percentile 90",
        ),
        (rule_share(100), "those are the numbers at 04e's budget (100): set max_tokens=300"),
        (rule_share(200), "those are the numbers at section 3's budget (200): set max_tokens=300"),
        (
            (starts + len(_asked()), own),
            "that counts each document's own start; leave it out (it is no cut)",
        ),
        ((own, starts), "the right numbers in the wrong order: (starts, the rule's own)"),
        (
            (starts, starts),
            "not every chunk start is the rule's: count those at a gap `chunker.cuts(sims)` "
            "cuts; the others are the budget's",
        ),
        (
            (starts, starts - own),
            "that second number counts the budget's starts; the question asks the rule's own",
        ),
    ]
    alone: dict[tuple[int, int], list[str]] = {}
    for name in _asked():  # two documents may give the same pair: the hint names both
        alone.setdefault(_starts_and_rule(300, (name,), 90), []).append(name)
    slips += [
        (pair, f"that is {' or '.join(names)} alone: sum over the five documents")
        for pair, names in alone.items()
    ]
    misses: dict[Any, str] = {}
    for answer, hint in slips:
        if answer != (starts, own):
            misses.setdefault(answer, hint)
    return misses


SOLUTIONS_SEMANTIC: dict[str, tuple[str, Callable[[], Any]]] = {
    "04.1": (
        "a tuple (stdevs, gaps): a multiple of 0.25, then the gaps cut there",
        stdevs_and_gaps,
    ),
    "04.2": ("a tuple (chunks, precision), precision to two decimals", budgeted_semantic),
    "04e.2": ("a tuple (chunk starts, the rule's own), two ints", rule_share),
}

# exercise -> (answer, solution) -> what is wrong with the answer, in words ("": nothing named)
HINTS_SEMANTIC: dict[str, Callable[[Any, Any], str]] = {"04.1": stdevs_off_the_grid}

FORMS_SEMANTIC: dict[str, Form] = {
    "04.1": Form(misses=stdevs_misses),
    "04.2": Form(decimals=2, misses=_budgeted_semantic_misses),
    "04e.2": Form(misses=_rule_share_misses),
}
