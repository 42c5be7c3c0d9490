"""Retrievers: rank chunks for a query, returning `Scored(ref_id, score, source)`.

All of them take the candidates explicitly (`rank(query, chunks, k)`), so whoever calls them
decides which chunks are eligible: filters apply *before* ranking, and no statistic of a chunk
outside the candidates (another tenant's, say) can move a score. Ties are broken by the
candidates' order, so results are the same in every process.
"""

from __future__ import annotations

import math
import re
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from typing import NamedTuple, Protocol

import numpy as np
from pydantic import field_validator

from chunklab.contracts import Chunk, Contract, Scored, ScoreSource
from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.embeddings.registry import EMBEDDERS, embedder_key
from chunklab.embeddings.static import WordLlamaEmbedder
from chunklab.tokens.folding import fold

# Words that carry no topic, in the series' two languages. A question made only of these (or of
# blanks and punctuation) asks for nothing: every retriever would answer it with arbitrary chunks
# (or fail: BM25 on no terms, a zero vector's cosine), so it is refused before ranking.
QUERY_STOP_WORDS = frozenset(
    """
a an and are as at be by do does for from how i in is it of on or the to
what when where which who why with my me you your can could should would
will this that these those there here was were has have
o os as um uma de do da dos das e em no na nos nas que para por com se como qual quais quando onde
""".split()
)


def search_terms(query: str) -> list[str]:
    """The query's words that can be searched for: accent-folded, stop words left out."""
    return [w for w in re.findall(r"\w+", fold(query)) if w not in QUERY_STOP_WORDS]


class Query(Contract):
    """A search question; one with no word to search is a `ValidationError`, not a random answer."""

    text: str

    @field_validator("text")
    @classmethod
    def _asks_for_something(cls, text: str) -> str:
        if not search_terms(text):
            raise ValueError(
                f"{text!r} has no word to search for (only blanks, punctuation or stop words)"
            )
        return text


class StoredRanking(NamedTuple):
    """What an index file must hold to rank as a retriever does without reading every child: its
    BM25 term counts (`"bm25"`), the vectors one embedder made (`"vectors"`, with its name), or
    both, fused by rank (`"fused"`). A retriever says so through `stored_ranking()`; the index
    asks, and never tests a retriever's type."""

    kind: str
    embedder: str | None = None


def index_needs(retriever: object) -> StoredRanking | None:
    """What `retriever` needs from an index file to be ranked inside it; None: rank in memory."""
    ask = getattr(retriever, "stored_ranking", None)
    return ask() if callable(ask) else None


class Retriever(Protocol):
    """What the experiment, the index and the CLI need from a retriever, so they can take any of
    them: a `name` for their reports, and `rank`."""

    name: str

    def rank(self, query: str, chunks: Sequence[Chunk], k: int) -> list[Scored]:
        """At most `k` of `chunks`, best first, as `Scored` whose `ref_id` is the chunk's id.

        Only `chunks` are candidates: the caller filters first (a tenant, a document), and no
        chunk outside them moves a score. Ties go to the chunk given first.
        """
        ...


class RanksByVector(Protocol):
    """A retriever whose `stored_ranking()` is "vectors": it embeds the query (`DenseRetriever`)."""

    def query_vector(self, query: str) -> np.ndarray | None: ...


class FusesRankings(Protocol):
    """A retriever whose `stored_ranking()` is "fused": a dense part, read `depth` deep
    (`HybridRetriever`)."""

    dense: Retriever
    depth: int


def _top(
    scores: Sequence[float],
    chunks: Sequence[Chunk],
    k: int,
    source: ScoreSource,
    keep_zero: bool = False,
) -> list[Scored]:
    """The `k` best of `chunks` by `scores`, ties to the first given, a score of 0 only with
    `keep_zero`. Only those `k` become `Scored` (validated objects, the slow part when a search
    ranks thousands of candidates for a handful)."""
    order = sorted(range(len(chunks)), key=lambda i: (-scores[i], i))
    kept = [i for i in order if keep_zero or scores[i] > 0][:k]
    return [Scored(ref_id=chunks[i].chunk_id, score=float(scores[i]), source=source) for i in kept]


class OverlapRetriever:
    """The article's stub: the share of the query's words that the chunk contains.

    Words are lower-cased, accent-free runs of letters, digits and commas, longer than one
    character ("4,5" is one word). It is not a search engine: it knows no word weights, no
    stemming and no synonyms. Like the article's, it returns the top k even when they score 0,
    and ties go to the chunk that comes first.
    """

    name = "overlap"

    @staticmethod
    def words(text: str) -> set[str]:
        """The words a query and a chunk are compared on: lower-case, accent-free runs of letters,
        digits and commas longer than one character."""
        return {w for w in re.findall(r"[a-z0-9,]+", fold(text)) if len(w) > 1}

    def rank(self, query: str, chunks: Sequence[Chunk], k: int) -> list[Scored]:
        """The top k by the share of the query's words each chunk holds, zero scores included as
        in the article; a query of no words gets no results."""
        wanted = self.words(query)
        if not wanted:
            return []  # a query of no words would "match" every chunk with 0
        scores = [len(wanted & self.words(c.text)) / max(1, len(wanted)) for c in chunks]
        return _top(scores, chunks, k, ScoreSource.LEXICAL, keep_zero=True)


STOP_WORDS = frozenset("a an the is are i do what for in of to my on how".split())


class LogCountRetriever:
    """The design sketch's scorer: for each query term in the chunk, 1 + log(its count).

    Terms are lower-case ASCII letters and digits, minus a few English stop words. A stand-in
    for a real index: no document-length normalisation and no inverse document frequency, so a
    long chunk that repeats a common word wins. Chunks that share no term are not returned.
    """

    name = "logcount"

    @staticmethod
    def terms(text: str) -> list[str]:
        """The terms counted: runs of lower-cased ASCII letters and digits, minus `STOP_WORDS`."""
        return [t for t in re.findall(r"[a-z0-9]+", text.lower()) if t not in STOP_WORDS]

    def rank(self, query: str, chunks: Sequence[Chunk], k: int) -> list[Scored]:
        """The top k by the sum, over the query's distinct terms a chunk holds, of 1 + log(count);
        a chunk that shares no term is left out."""
        wanted = set(self.terms(query))
        scores = []
        for c in chunks:
            counts = Counter(self.terms(c.text))
            scores.append(sum(1 + math.log(counts[t]) for t in wanted if counts[t]))
        return _top(scores, chunks, k, ScoreSource.LEXICAL)


class BM25Retriever:
    """Okapi BM25 from `bm25s`, over the candidates only: a real lexical retriever.

    Words are accent-folded runs of two or more word characters; no stemming, no stop words
    (the question sets are short, and in two languages). It matches words, not meaning: "fee"
    does not find "charge". The index is rebuilt for each distinct candidate set and cached.
    """

    name = "bm25"

    def __init__(self) -> None:
        self._cache: dict[tuple[str, ...], object] = {}

    def stored_ranking(self) -> StoredRanking:
        """ "bm25": an index file that keeps BM25 term counts ranks inside itself as this does,
        without reading every child (`index_needs`)."""
        return StoredRanking("bm25")

    @staticmethod
    def tokens(text: str) -> list[str]:
        """The terms BM25 counts: accent-folded runs of two or more word characters."""
        return re.findall(r"\w\w+", fold(text))

    def _index(self, chunks: Sequence[Chunk]):
        with warnings.catch_warnings():
            # bm25s imports tqdm.auto, which warns when ipywidgets is missing (as in a notebook).
            warnings.simplefilter("ignore")
            import bm25s

        key = tuple(f"{c.chunk_id}\x00{c.text}" for c in chunks)
        if key not in self._cache:
            model = bm25s.BM25()
            model.index([self.tokens(c.text) or ["\x00"] for c in chunks], show_progress=False)
            self._cache = {key: model}  # one candidate set at a time is enough
        return self._cache[key]

    def rank(self, query: str, chunks: Sequence[Chunk], k: int) -> list[Scored]:
        """The top k by BM25, its statistics taken over the candidates alone; a chunk that scores
        0 (no query term) is left out."""
        terms = self.tokens(query)
        if not chunks or not terms:
            return []  # bm25s fails on a query of no terms
        scores = self._index(chunks).get_scores(terms)
        return _top(list(scores), chunks, k, ScoreSource.LEXICAL)


def dot_scores(matrix: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Each row's dot product with `query`, in float64, from vectors kept as float32.

    Written as a row-wise sum rather than `matrix @ query` on purpose: BLAS may add a row's
    products in an order that depends on the row's place in the matrix, and then the same chunk
    would score a hair differently among other candidates, in memory or in the index file, and a
    near-tie could flip. A row-wise sum adds each row alike wherever it is.
    """
    return (np.asarray(matrix, dtype=np.float32).astype(np.float64) * query).sum(axis=1)


class DenseRetriever:
    """Cosine similarity of embeddings (default: WordLlama, offline): matches meaning, roughly.

    Static word embeddings average a text's words, so they find "fee" near "charge" but blur a
    long chunk's topics together; MiniLM (`MiniLMEmbedder`) reads words in context but only the
    first 256 word pieces of a chunk. Chunk vectors are cached by text, so re-ranking the same
    chunks for many questions embeds each chunk once. They are kept as float32, as the index file
    keeps them, and scored with `dot_scores`, so an index ranks as this retriever does.

    Its `name` is its embedder's registry name ("wordllama", "minilm"): the experiment's rows and
    the CLI say which model ranked.
    """

    name = "wordllama"  # the default's; an instance's follows its embedder

    def __init__(self, embedder=None) -> None:
        if embedder is None:
            embedder = WordLlamaEmbedder()
        self.embedder = embedder
        self.name = embedder_key(embedder)
        self._vectors: dict[str, np.ndarray] = {}
        self._queries: dict[str, np.ndarray] = {}

    def stored_ranking(self) -> StoredRanking:
        """ "vectors" of this embedder: an index file that holds that model's vectors ranks inside
        itself as this does (`index_needs`)."""
        return StoredRanking("vectors", self.embedder.name)

    def query_vector(self, query: str) -> np.ndarray | None:
        """The query's embedding, or None when it has no known word: a zero (or NaN) vector is
        close to nothing. The index file ranks with it too (`SQLiteStore.ranked`)."""
        if query not in self._queries:  # an experiment asks each question of many strategies
            self._queries[query] = self.embedder.embed_query(query)
        q = self._queries[query]
        return q if np.all(np.isfinite(q)) and np.any(q) else None

    def rank(self, query: str, chunks: Sequence[Chunk], k: int) -> list[Scored]:
        """The top k by cosine similarity to the query, every candidate ranked (low scores too);
        each distinct chunk text is embedded once, then cached. A query that embeds to nothing
        (no known word) gets no results."""
        if not chunks or not query.strip():
            return []
        missing = [c.text for c in chunks if c.text not in self._vectors]
        if missing:
            unique = list(dict.fromkeys(missing))
            for text, vector in zip(unique, self.embedder.embed_documents(unique), strict=True):
                self._vectors[text] = np.asarray(vector, dtype=np.float32)
        q = self.query_vector(query)
        if q is None:
            return []
        scores = dot_scores(np.stack([self._vectors[c.text] for c in chunks]), q)
        return _top(list(scores), chunks, k, ScoreSource.VECTOR, keep_zero=True)


# Reciprocal rank fusion's constant (Cormack, Clarke and Büttcher, 2009): it damps the weight of the
# very first ranks, so one ranking's top hit cannot outvote everything the other found.
RRF_K = 60


class HybridRetriever:
    """BM25 and WordLlama fused by reciprocal rank fusion: each chunk scores the sum, over the two
    rankings, of 1 / (RRF_K + its rank there).

    Fusing ranks, not scores, is the point: a BM25 score and a cosine are on different scales
    (`ScoreSource` says so), and a rank is not. A chunk found by words *and* by meaning rises;
    one found by either still counts. This is the lexical + embedding combination Anthropic's
    contextual-retrieval study measures. Each ranking is read `depth` deep (at least k).

    The dense part is WordLlama's unless `dense` is given, or `embedder` (a `DenseRetriever` with
    that embedder: `HybridRetriever(embedder=MiniLMEmbedder())`).
    """

    name = "hybrid"

    def __init__(
        self,
        lexical: Retriever | None = None,
        dense: Retriever | None = None,
        depth: int = 50,
        embedder=None,
    ) -> None:
        if dense is not None and embedder is not None:
            raise ValueError("give the dense retriever or its embedder, not both")
        self.lexical = lexical or BM25Retriever()
        self.dense = dense or DenseRetriever(embedder)
        self.depth = depth

    def stored_ranking(self) -> StoredRanking | None:
        """ "fused" when both of its parts can be ranked inside an index file; None otherwise, and
        the index ranks in memory."""
        parts = index_needs(self.lexical), index_needs(self.dense)
        return StoredRanking("fused") if None not in parts else None

    def rank(self, query: str, chunks: Sequence[Chunk], k: int) -> list[Scored]:
        """The top k by reciprocal rank fusion of the two rankings, each read `max(k, depth)`
        deep; a chunk neither ranking found is left out."""
        if not chunks:
            return []
        depth = max(k, self.depth)
        fused = reciprocal_rank_fusion(
            [[h.ref_id for h in r.rank(query, chunks, depth)] for r in (self.lexical, self.dense)]
        )
        return _top([fused.get(c.chunk_id, 0.0) for c in chunks], chunks, k, ScoreSource.FUSED)


def reciprocal_rank_fusion(rankings: Sequence[Sequence[str]]) -> dict[str, float]:
    """Each id's fused score: the sum, over the rankings that hold it, of 1 / (RRF_K + its rank)."""
    fused: dict[str, float] = {}
    for ranking in rankings:
        for rank, ref_id in enumerate(ranking, start=1):
            fused[ref_id] = fused.get(ref_id, 0.0) + 1.0 / (RRF_K + rank)
    return fused


def minilm_retriever() -> DenseRetriever:
    """The dense retriever on all-MiniLM-L6-v2 (`RETRIEVERS["minilm"]`)."""
    return DenseRetriever(MiniLMEmbedder())


RETRIEVERS: dict[str, Callable[[], Retriever]] = {
    r.name: r
    for r in (OverlapRetriever, LogCountRetriever, BM25Retriever, DenseRetriever, HybridRetriever)
}
"""Every retriever by the name the CLI and the experiment use -> what makes one. "wordllama" and
"minilm" are both `DenseRetriever`, each on its model, so one experiment can compare them."""
RETRIEVERS["minilm"] = minilm_retriever


def make_retriever(name: str, embedder: str | None = None) -> Retriever:
    """A retriever by its CLI name; `embedder` ("wordllama", "minilm") is the dense model of
    "hybrid" (WordLlama when None). The dense retrievers are named by their model already."""
    if name == "hybrid" and embedder is not None:
        return HybridRetriever(embedder=EMBEDDERS[embedder]())
    return RETRIEVERS[name]()
