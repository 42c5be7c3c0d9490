"""Semantic chunking: cut where the topic changes, measured as a drop in similarity.

The text is split into units (sentences, or lines), each unit is embedded, and the cosine
similarity of every pair of neighbours is computed. A cut goes between two units when their
similarity is low, by one of three rules:

- `threshold`: similarity below `threshold` (the article's rule, 0.6);
- `percentile`: distance (1 − similarity) above the `percentile`-th percentile of all distances;
- `stdev`: distance above the mean distance plus `stdevs` standard deviations.

The default rule is relative (`percentile` 80): a fixed threshold is a number tuned for one
embedder, and on WordLlama 0.6 cuts at nearly every sentence (notebook 04).

`partition="optimal"` chooses all cuts at once instead of gap by gap: the split of the units into
consecutive chunks, each within `max_tokens`, that maximises the summed similarity of every pair of
units inside the same chunk, less the document's mean pair similarity (so a pair less alike than
average costs). Dynamic programming finds the best split exactly, as Chroma's
`ClusterSemanticChunker` does with a cap on units where this uses the token budget.

With `buffer_size=b` (Greg Kamradt's "buffer"), each unit is embedded together with its b
neighbours on each side (`with_neighbours`): one short sentence then weighs less, and the
similarity curve is smoother. The cut still falls between the two units themselves.

Unlike Kamradt's splitter (and LangChain's `SemanticChunker`, built from it), this one has a
hard budget: a group of units longer than `max_tokens` is packed into pieces that fit, unit by
unit (then by sentences, words and word prefixes, as in `MarkdownChunker`). Every chunk is an
exact slice of the document, and the same input gives the same cuts in every process, given a
deterministic embedder (the hashing embedder's default hash, or WordLlama; not the article's
salted `hash()`).
"""

from __future__ import annotations

import re
from typing import Literal

import numpy as np
from pydantic import ConfigDict, Field

from chunklab.contracts import Chunk, Contract, Document, as_document
from chunklab.embeddings.static import Embedder
from chunklab.tokens.budget import SourceBudget
from chunklab.tokens.counters import TokenCounter, cl100k
from chunklab.tokens.packing import MIN_TOKENS, pack_spans, split_text

# A sentence ends at . ! or ? followed by white space; a blank line always ends a unit.
SENTENCE_BOUNDARY = re.compile(r"(?<=[.!?])[ \t]+|\n[ \t]*\n\s*")


def with_neighbours(texts: list[str], buffer_size: int) -> list[str]:
    """Each text joined by spaces with up to `buffer_size` texts before it and after it.

    Kamradt's `combine_sentences`: at the edges there are fewer neighbours, never a wrap-around.
    """
    if buffer_size < 0:
        raise ValueError(f"buffer_size must be >= 0, got {buffer_size}")
    return [
        " ".join(texts[max(0, i - buffer_size) : i + buffer_size + 1]) for i in range(len(texts))
    ]


class SemanticChunker(Contract):
    """Groups of neighbouring units that stay similar; a hard token budget on every chunk."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    embedder: Embedder
    unit: Literal["sentence", "line"] = "sentence"
    breakpoint: Literal["threshold", "percentile", "stdev"] = "percentile"
    threshold: float = Field(0.6, ge=-1, le=1)
    percentile: float = Field(80, ge=0, le=100)
    stdevs: float = Field(1.0, ge=0)
    buffer_size: int = Field(0, ge=0, description="neighbours on each side embedded with a unit")
    partition: Literal["greedy", "optimal"] = Field(
        "greedy",
        description="greedy: cut at each gap the rule picks; optimal: the best split overall",
    )
    max_tokens: int = Field(200, ge=MIN_TOKENS)
    count_tokens: TokenCounter = cl100k

    def units(self, text: str) -> list[tuple[int, int]]:
        """(start, end) of each unit, stripped; blank ones dropped."""
        if self.unit == "line":
            pattern = re.compile(r"\n")
        else:
            pattern = SENTENCE_BOUNDARY
        spans, pos = [], 0
        for m in pattern.finditer(text):
            spans.append((pos, m.start()))
            pos = m.end()
        spans.append((pos, len(text)))
        out = []
        for a, b in spans:
            while a < b and text[a].isspace():
                a += 1
            while b > a and text[b - 1].isspace():
                b -= 1
            if a < b:
                out.append((a, b))
        return out

    def vectors(self, doc: Document) -> tuple[list[tuple[int, int]], np.ndarray]:
        """The units and their unit-length vectors (each embedded with its buffer of neighbours)."""
        spans = self.units(doc.text)
        if len(spans) < 2:
            return spans, np.zeros((len(spans), 0))
        return spans, self.embedder.embed_documents(
            with_neighbours([doc.text[a:b] for a, b in spans], self.buffer_size)
        )

    def similarities(self, doc: Document) -> tuple[list[tuple[int, int]], np.ndarray]:
        """The units and each unit's cosine similarity with the next (len(units) − 1 values)."""
        spans, vectors = self.vectors(doc)
        if len(spans) < 2:
            return spans, np.zeros(0)
        return spans, np.einsum("ij,ij->i", vectors[:-1], vectors[1:])

    def optimal_cuts(
        self, spans: list[tuple[int, int]], vectors: np.ndarray, budget: SourceBudget
    ) -> list[int]:
        """The cuts of the best split (see the module docstring): indices i, a cut after unit i.

        best[i] is the best score of the units 0..i split into chunks; the last chunk j..i is any
        that fits the budget (one unit always may: `_fit` splits it further). Its score is built
        as j moves left: adding unit j adds its similarity to each unit already in, less the mean,
        twice (the matrix is symmetric). Each step costs one dot product with a running sum, so
        the whole search is linear in the units times the units a chunk can hold.
        """
        n = len(spans)
        if n < 2:
            return []
        total = vectors.sum(axis=0)
        mean = (float(total @ total) - float(np.einsum("ij,ij->", vectors, vectors))) / (
            n * (n - 1)
        )
        best = np.full(n, -np.inf)
        start = np.zeros(n, dtype=int)
        for i in range(n):
            running, inside = np.zeros(vectors.shape[1]), 0.0
            for j in range(i, -1, -1):
                if j < i:
                    if budget.span_count(spans[j][0], spans[i][1]) > self.max_tokens:
                        break
                    running += vectors[j + 1]
                    inside += 2 * (float(vectors[j] @ running) - mean * (i - j))
                score = inside + (best[j - 1] if j else 0.0)
                if score > best[i]:
                    best[i], start[i] = score, j
        cuts, i = [], n - 1
        while i >= 0:
            if start[i] > 0:
                cuts.append(int(start[i]) - 1)
            i = start[i] - 1
        return sorted(cuts)

    def cuts(self, similarities: np.ndarray) -> list[int]:
        """Indices i such that a cut goes between unit i and unit i + 1."""
        if similarities.size == 0:
            return []
        if self.breakpoint == "threshold":
            chosen = similarities < self.threshold
        else:
            distance = 1 - similarities
            if self.breakpoint == "percentile":
                chosen = distance > np.percentile(distance, self.percentile)
            else:
                chosen = distance > distance.mean() + self.stdevs * distance.std()
        return [int(i) for i in np.flatnonzero(chosen)]

    def split(self, doc: Document | str) -> list[Chunk]:
        """Chunks that end where the units stop resembling each other, each an exact slice.

        The units are embedded once; the cuts come from `cuts` (one gap at a time) or from
        `optimal_cuts` (`partition="optimal"`). A group longer than `max_tokens` is packed into
        pieces that fit. The metadata names the embedder and, on a group's first chunk, the
        similarity across the cut before it (`similarity_before`), to see why it was cut there.
        """
        doc = as_document(doc)
        spans, vectors = self.vectors(doc)
        if not spans:
            return []
        sims = np.einsum("ij,ij->i", vectors[:-1], vectors[1:]) if len(spans) > 1 else np.zeros(0)
        budget = SourceBudget(doc.text, self.count_tokens)
        cut_after = (
            self.optimal_cuts(spans, vectors, budget)
            if self.partition == "optimal"
            else self.cuts(sims)
        )
        bounds = [-1, *cut_after, len(spans) - 1]
        chunks: list[Chunk] = []
        for first, last in ((bounds[k] + 1, bounds[k + 1]) for k in range(len(bounds) - 1)):
            before = float(sims[first - 1]) if first > 0 else None
            for a, b, n in self._fit(spans[first : last + 1], budget):
                # Every value is computed here: built without validation (the tests re-validate).
                chunks.append(
                    Chunk.trusted(
                        chunk_id=f"{doc.doc_id}#{len(chunks)}",
                        doc_id=doc.doc_id,
                        parent_id=None,
                        ordinal=len(chunks),
                        text=doc.text[a:b],
                        token_count=n,
                        heading_path=(),
                        start=a,
                        end=b,
                        metadata={
                            "strategy": "semantic"
                            if self.partition == "greedy"
                            else "semantic-optimal",
                            "tenant": doc.metadata.get("tenant", "default"),
                            "embedder": self.embedder.name,
                            "similarity_before": None if before is None else round(before, 4),
                        },
                    )
                )
                before = None  # only the first piece of a group starts at a semantic cut
        return chunks

    def _fit(
        self, group: list[tuple[int, int]], budget: SourceBudget
    ) -> list[tuple[int, int, int]]:
        """(start, end, tokens) of the group as one span if it fits, else of its units packed, and
        of a unit too big split further."""
        whole = budget.span_count(group[0][0], group[-1][1])
        if whole <= self.max_tokens:  # the common case: one count, nothing to pack
            return [(group[0][0], group[-1][1], whole)]
        out = []
        for a, b in pack_spans(group, self.max_tokens, budget):
            n = budget.span_count(a, b)
            if n <= self.max_tokens:
                out.append((a, b, n))
            else:
                out.extend(
                    (p.start, p.end, p.count) for p in split_text(a, b, self.max_tokens, budget)
                )
        return out


def article_cuts_in_fresh_process(
    seed: str, doc_name: str = "manual", unit: str = "line", hash: str = "python"
) -> list[int]:
    """Where the article's semantic cut (lines, Python's hash(), 64 buckets, threshold 0.6) starts
    its chunks, computed in a new Python process with PYTHONHASHSEED=`seed` (`hash="blake2b"`: the
    fix).

    A demonstration of why the article's cuts are not reproducible: each process salts hash()
    differently, so the same document gets different cuts.
    """
    return article_cuts_per_process(seed, [(doc_name, hash)], unit)[0]


def article_cuts_per_process(
    seed: str, runs: list[tuple[str, str]], unit: str = "line"
) -> list[list[int]]:
    """`article_cuts_in_fresh_process` for several (document, hash) runs in one new process with
    PYTHONHASHSEED=`seed`: the runs share the process's salt, and a notebook starts one process
    per seed instead of one per run (starting Python and importing chunklab is most of the cost).
    """
    import os
    import subprocess
    import sys

    script = (
        "from chunklab import load_document; "
        "from chunklab.embeddings.static import HashingEmbedder;"
        "from chunklab.chunkers.semantic import SemanticChunker;"
        f"runs = {runs!r};"
        "[print(' '.join(str(c.start) for c in SemanticChunker("
        f"embedder=HashingEmbedder(hash=h), unit={unit!r}, breakpoint='threshold')"
        ".split(load_document(d)))) for d, h in runs]"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": seed},
    )
    return [[int(x) for x in line.split()] for line in done.stdout.splitlines()]
