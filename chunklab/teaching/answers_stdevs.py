"""Exercise 04.1's answer (notebook 04): the smallest stdevs at which MiniLM's stdev rule makes
the asked number of cuts on the topics document, the gaps it cuts there, and the wrong answers
each refusal names. Registered by `teaching.answers_semantic`.
Reading this file gives the answer away: try first.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from chunklab.chunkers.semantic import SemanticChunker
from chunklab.documents.series import load_document, load_topic_boundaries
from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.embeddings.static import WordLlamaEmbedder


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


@lru_cache(maxsize=128)
def stdev_gaps(stdevs: float, embedder: str = "minilm") -> tuple[int, ...]:
    """The gaps the stdev rule itself cuts at `stdevs` (gap i lies after sentence i)."""
    chunker, sims = _topic_similarities(embedder)
    return tuple(chunker.model_copy(update={"stdevs": stdevs}).cuts(sims))


def stdevs_and_gaps(embedder: str = "minilm") -> tuple[float, tuple[int, ...]]:
    """04.1: the smallest stdevs (a multiple of 0.25) at which the rule makes the asked number of
    cuts, and the gaps it cuts there: the gaps cannot be walked to by trying values unrun."""
    stdevs = stdevs_for_asked_cuts(embedder)
    return stdevs, stdev_gaps(stdevs, embedder)


def stdevs_misses() -> dict[Any, str]:
    """Keyed by (stdevs, the gaps MiniLM's rule cuts there): a wrong stdevs, run, is named."""
    return {(s, stdev_gaps(s)): hint for s, hint in _stdevs_value_misses().items()} | {
        (
            stdevs_for_asked_cuts("wordllama"),
            stdev_gaps(stdevs_for_asked_cuts("wordllama"), "wordllama"),
        ): "that is WordLlama's answer: ask MiniLMEmbedder()",
        (
            stdevs_for_asked_cuts(),
            stdev_gaps(stdevs_for_asked_cuts(), "wordllama"),
        ): "the stdevs is right; those gaps are WordLlama's: take MiniLM's cuts there",
        (stdevs_for_asked_cuts(), _true_change_gaps()): (
            "the stdevs is right; those are the gaps before the true topic changes: give the gaps "
            "MiniLM's rule cuts there, chunker.cuts(sims)"
        ),
        (stdevs_for_asked_cuts(), tuple(g + 1 for g in stdev_gaps(stdevs_for_asked_cuts()))): (
            "the stdevs is right; those are the sentences where each new chunk starts, one past "
            "each gap: gap i lies after sentence i, so give chunker.cuts(sims) as it is"
        ),
    }


def _true_change_gaps() -> tuple[int, ...]:
    """The gaps just before the topics document's true topic starts (gap i lies after sentence i):
    the answer key, not the rule's cuts."""
    units, _ = _topic_similarities("minilm")[0].similarities(load_document("topics"))
    truth = set(load_topic_boundaries("topics"))
    return tuple(i for i in range(len(units) - 1) if units[i + 1][0] in truth)


def _stdevs_value_misses() -> dict[Any, str]:
    right, asked = stdevs_for_asked_cuts(), _CUTS_ASKED
    misses: dict[Any, str] = {}
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
        else:  # the count is not printed: it would let a guess walk to the answer unrun
            misses[stdevs] = (
                f"at that stdevs MiniLM's rule does not make exactly {asked} cuts: "
                'run MiniLMEmbedder() with breakpoint="stdev" and count len(chunker.cuts(sims)), '
                "the rule's own cuts (not the chunks, which the token budget can add to), at each "
                "multiple of 0.25 from 0"
            )
    return misses


def stdevs_off_the_grid(answer: Any, solution: Any) -> str:
    """04.1's hint for a stdevs that is no multiple of 0.25 (0.8 is percentile 80 read as a
    fraction): named without saying which multiple is right."""
    stdevs = answer[0] if isinstance(answer, (list, tuple)) and answer else answer
    if not isinstance(stdevs, (int, float)) or isinstance(stdevs, bool):
        return ""
    if (float(stdevs) * 4).is_integer():
        return _right_gaps_wrong_stdevs(answer, solution)
    hint = f"{stdevs} is not a multiple of 0.25: run the rule at 0, 0.25, 0.5, ... in turn"
    if round(stdevs * 100) == 80:
        hint += (
            " (0.8 is section 1's percentile 80 as a fraction; stdevs counts standard "
            "deviations of the distances, another scale)"
        )
    return hint


def _right_gaps_wrong_stdevs(answer: Any, solution: Any) -> str:
    """The gaps copied right beside a stdevs on the grid that is not the smallest one: named
    without saying which multiple of 0.25 is right."""
    if not isinstance(answer, (list, tuple)) or len(answer) != 2 or answer[0] == solution[0]:
        return ""
    if tuple(answer[1]) != tuple(solution[1]):
        return ""
    return (
        "the gaps are right, the stdevs is not: give the smallest multiple of 0.25 at which "
        f"MiniLM's rule makes exactly {_CUTS_ASKED} cuts (run it at each, from 0)"
    )
