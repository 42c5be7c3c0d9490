"""Notebook 04's exercise 04.3b: the buffered semantic cut written from scratch (the learner's
`buffered`, WordLlama's vectors, the neighbour cosine, section 1's percentile-80 rule), run on
texts the notebook never shows, as given. It refuses a call into the library's chunker, which
gives the same gaps on the topics document and so would pass a value answer unwritten, and names
each predictable slip (no buffer, a buffer of fixed size, another percentile, chunk starts
for gaps, the percentile of the similarities cut above, the hash's vectors, a distance equal to
the cut-off cut, windows after each text only, buffering twice). Registered in `exercises`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np

from chunklab.chunkers.semantic import SemanticChunker, with_neighbours
from chunklab.documents.series import load_document
from chunklab.embeddings.static import HashingEmbedder, WordLlamaEmbedder
from chunklab.teaching.checking import Cases, NotYet, consistent_slips, run_without, short

Case = tuple[list[str], int]


@lru_cache(maxsize=128)
def _neighbour_cosines(given: tuple[str, ...], hashed: bool = False) -> tuple[float, ...]:
    """Each text's cosine with the next, WordLlama's vectors (the hash's if `hashed`)."""
    vectors = (HashingEmbedder() if hashed else WordLlamaEmbedder()).embed_documents(list(given))
    return tuple(
        float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)))
        for u, v in zip(vectors, vectors[1:], strict=False)
    )


def _cosines(texts: tuple[str, ...], buffer_size: int) -> tuple[float, ...]:
    """Each buffered text's cosine with the next, WordLlama's vectors."""
    return _neighbour_cosines(tuple(with_neighbours(list(texts), buffer_size)))


def _cut(
    cosines: tuple[float, ...], percentile: float = 80, shift: int = 0, ties: bool = False
) -> list[int]:
    distances = 1 - np.array(cosines)
    cutoff = np.percentile(distances, percentile)
    return [i + shift for i, d in enumerate(distances) if d > cutoff or (ties and d == cutoff)]


def _gaps(texts: list[str], buffer_size: int, percentile: float = 80, shift: int = 0) -> list[int]:
    return _cut(_cosines(tuple(texts), buffer_size), percentile, shift)


def _after_only(texts: list[str], buffer_size: int) -> tuple[str, ...]:
    return tuple(" ".join(texts[i : i + buffer_size + 1]) for i in range(len(texts)))


def _below_similarity_percentile(texts: list[str], buffer_size: int) -> list[int]:
    sims = np.array(_cosines(tuple(texts), buffer_size))
    return [i for i, s in enumerate(sims) if s > np.percentile(sims, 80)]


_SLIPS: list[tuple[Callable[[list[str], int], list[int]], str]] = [
    (
        lambda t, b: _gaps(t, 0),
        "those are the gaps with no buffer: embed buffered(texts, buffer_size), not the texts",
    ),
    (
        lambda t, b: _gaps(t, 1),
        "that is a buffer of 1 whatever buffer_size says: pass buffer_size to buffered",
    ),
    (
        lambda t, b: _gaps(t, 3),
        "that is a buffer of 3 whatever buffer_size says: pass buffer_size to buffered",
    ),
    (
        lambda t, b: _gaps(t, b, percentile=95),
        "that is percentile 95 (LangChain's default): keep section 1's percentile 80",
    ),
    (
        lambda t, b: _gaps(t, b, shift=1),
        "those number the texts that open each new chunk; gap i lies after text i, as "
        "breakpoints returns it",
    ),
    (
        lambda t, b: _cut(_neighbour_cosines(tuple(with_neighbours(t, b)), hashed=True)),
        "those are the hash's cosines: embed with WordLlamaEmbedder().embed_documents, as asked",
    ),
    (
        lambda t, b: _cut(_cosines(tuple(t), b), ties=True),
        "your rule also cuts the gap whose distance equals the cut-off: cut only the distances "
        "strictly above the 80th percentile (>, as breakpoints does)",
    ),
    (
        lambda t, b: _cut(_neighbour_cosines(_after_only(t, b))),
        "your windows take the texts after each text only: take buffer_size texts before it too",
    ),
    (
        lambda t, b: _cut(_neighbour_cosines(tuple(with_neighbours(with_neighbours(t, b), b)))),
        "you buffered twice: embed buffered(texts, buffer_size) once, not buffered again",
    ),
    (
        _below_similarity_percentile,
        "that cuts the most similar gaps: the rule cuts the distances (1 - similarity) above "
        "their 80th percentile, the least similar gaps",
    ),
]


def _cases() -> list[Case]:
    """Lines of two other pages, some without a closing period (a chunker handed them joined
    would split them into other sentences, so only the texts as given give the expected gaps),
    then the topics document's sentences, the notebook's question (buffer 3) last."""
    topics = load_document("topics")
    units, _ = SemanticChunker(embedder=HashingEmbedder()).similarities(topics)
    sentences = [topics.text[a:b] for a, b in units]
    cases: list[Case] = []
    for name, take, buffer_size in (("travel_policy", 24, 2), ("work_schedules", 30, 0)):
        lines = [line for line in load_document(name).text.splitlines() if line.strip()]
        cases.append((lines[:take], buffer_size))
    return cases + [(sentences[5:17], 2), (sentences, 1), (sentences, 3)]


def check_wide_cuts(fn: Callable) -> Cases:
    """04.3b: the gaps the percentile-80 rule cuts on buffered WordLlama cosines, every case."""
    cases = _cases()
    watched: list[Callable] = [
        SemanticChunker.cuts,
        SemanticChunker.split,
        SemanticChunker.similarities,
        with_neighbours,
    ]
    refusal = (
        "your function calls {name}, the library's: write the cut yourself (your buffered, "
        "WordLlamaEmbedder().embed_documents, the cosine of each text with the next, "
        "section 1's breakpoints)"
    )
    for texts, buffer_size in cases:
        got = run_without(fn, (list(texts), buffer_size), watched, refusal)
        if not isinstance(got, (list, tuple)):
            raise NotYet(f"return the list of gaps breakpoints cuts, not {short(got)}")
        got = [int(g) for g in got]
        expected = _gaps(texts, buffer_size)
        if got != expected:
            named = consistent_slips(fn, _SLIPS, cases, shape=lambda r: [int(g) for g in r])
            why = (
                named[0]
                if named
                else (
                    "embed buffered(texts, buffer_size) as given (do not split or join them "
                    "again), take each cosine with the next, and cut the distances above their "
                    "80th percentile"
                )
            )
            raise NotYet(
                f"{len(texts)} texts starting {short(texts[0], 40)}, buffer_size={buffer_size}: "
                f"your gaps {got} are not right (expected not shown: the last case is the "
                f"notebook's question): {why}"
            )
    return Cases(
        len(cases),
        "lines of two pages it had not seen, then the topics document's sentences",
    )


CHECKS_WIDE_BUFFER = {"04.3b": ("wide_cuts(texts, buffer_size) -> list of int", check_wide_cuts)}
