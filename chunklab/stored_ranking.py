"""Ranking inside the index file: BM25 from stored term counts, cosine from stored vectors.

`search` used to load and validate every child of a tenant and build a BM25 index from scratch
for each question. Here the index file holds what ranking needs, written in the same transaction
as the document's rows, and a question reads only the posting rows of its own terms, then the
top k children and their parents.

Why an inverted index of our own (term, child, count, length) and not SQLite's FTS5 or a saved
bm25s index: both were measured on the series' corpus (`bench/bench_index.py --choose`), and
neither can rank as `BM25Retriever` ranks, which is what the series' experiments measure:
  - FTS5's `bm25()` uses Robertson's IDF clamped at zero and k1 = 1.2 (bm25s: Lucene's IDF,
    k1 = 1.5), and its statistics span the whole table, so one tenant's documents move another
    tenant's scores. Its top 4 differed from `BM25Retriever`'s on part of the 43 questions
    (the bench prints how many).
  - A saved bm25s index ranks exactly, but it is a matrix of precomputed scores: a document
    added or changed moves every IDF, so the whole tenant's matrix is rebuilt and rewritten,
    outside the one-transaction-per-document rule that makes indexing incremental and kill-safe.
Term counts are the statistics BM25 needs and nothing more: a document changes only its own rows,
N, the average length and each term's document frequency are read at query time, and the scores
are computed the way bm25s computes them (float32 per term, summed in float32 in query order),
so the top k and the scores are the same as `BM25Retriever`'s over the same children. A
filter narrows the children first and the statistics are those of the children that pass, as
with `BM25Retriever` over the filtered candidates.

Vectors are stored as float32 (1 KB per child for WordLlama's 256 dimensions) and scored with
`retrievers.dot_scores`, the function `DenseRetriever` uses, so the two rank alike too.
"""

from __future__ import annotations

import math
import re
import sqlite3
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from chunklab.retrievers import BM25Retriever, dot_scores

K1, B = 1.5, 0.75  # bm25s's defaults, the ones BM25Retriever uses
SLACK = 20  # candidates beyond k re-scored exactly, so a float64 near-tie cannot hide one

SCHEMA = """
CREATE TABLE IF NOT EXISTS terms (
    tenant TEXT NOT NULL, term TEXT NOT NULL, seq INTEGER NOT NULL, tf INTEGER NOT NULL, length INTEGER NOT NULL,
    PRIMARY KEY (tenant, term, seq)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS terms_by_child ON terms (seq);
CREATE TABLE IF NOT EXISTS vectors (
    tenant TEXT NOT NULL, seq INTEGER NOT NULL, vector BLOB NOT NULL,
    PRIMARY KEY (tenant, seq)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS children_length ON children (tenant, length);
"""

SAFE_KEY = re.compile(r"[A-Za-z0-9_\-]+")


def term_counts(text: str) -> tuple[int, Counter[str]]:
    """(length, count of each term) of a text, as `BM25Retriever` tokenizes it. An empty text has
    length 1: bm25s is given one placeholder token for it, which no query can contain."""
    tokens = BM25Retriever.tokens(text)
    return max(1, len(tokens)), Counter(tokens)


def term_rows(tenant: str, seq: int, text: str) -> tuple[int, list[tuple[str, str, int, int, int]]]:
    length, counts = term_counts(text)
    return length, [(tenant, term, seq, tf, length) for term, tf in counts.items()]


def eligible(tenant: str, filters: Mapping[str, Any] | None) -> tuple[str, list[Any]] | None:
    """SQL selecting the seq of the tenant's children that pass `filters` (metadata equal to each
    value), or None when a filter cannot be said in SQL exactly (a key with unusual characters, a
    list or dict value): the caller then ranks in memory, which is slower but never wrong."""
    sql, params = "SELECT seq, length FROM children WHERE tenant = ?", [tenant]
    for key, value in (filters or {}).items():
        # Python's == is the rule (`index._matches`). SQL says it exactly for text and numbers;
        # True == 1 and a missing key == None it does not say alike, so those stay in memory.
        if not SAFE_KEY.fullmatch(key) or isinstance(value, bool) or not isinstance(value, str | int | float):
            return None
        sql += (f" AND json_type(record, '$.metadata.{key}') IN ('text', 'integer', 'real')"
                f" AND json_extract(record, '$.metadata.{key}') = ?")
        params.append(value)
    return sql, params


def bm25_top(db: sqlite3.Connection, tenant: str, query: str, k: int,
             filters: Mapping[str, Any] | None = None) -> list[tuple[int, str, float]] | None:
    """The top k children for `query` by BM25: (seq, chunk_id, score), best first, ties in
    index order. None if the filters need the in-memory path (see `eligible`)."""
    where = eligible(tenant, filters)
    if where is None:
        return None
    terms = BM25Retriever.tokens(query)
    if not terms or k <= 0:
        return []
    pool_sql, pool_params = where
    filtered = bool(filters)
    n, total = db.execute(f"SELECT COUNT(*), COALESCE(SUM(length), 0) FROM ({pool_sql})", pool_params).fetchone()
    if n == 0:
        return []
    average = np.float64(total) / n  # bm25s: the mean of the lengths, a float64
    in_pool = f"AND t.seq IN (SELECT seq FROM ({pool_sql}))" if filtered else ""
    weights: dict[str, float] = {}  # term -> its float32 IDF, as bm25s stores it
    for term in dict.fromkeys(terms):
        df = db.execute(f"SELECT COUNT(*) FROM terms t WHERE t.tenant = ? AND t.term = ? {in_pool}",
                        [tenant, term, *(pool_params if filtered else [])]).fetchone()[0]
        if df:
            weights[term] = float(np.float32(math.log(1 + (n - df + 0.5) / (df + 0.5))))
    asked = [t for t in terms if t in weights]  # bm25s drops words it has not seen, keeps repeats
    if not asked:
        return []
    multiplicity = Counter(asked)
    # A first, float64 ranking in SQL finds the candidates; the best k + SLACK are then scored
    # exactly as bm25s scores them, so the order is bm25s's to the last bit.
    values = ", ".join("(?, ?)" for _ in multiplicity)
    rows = db.execute(
        f"""WITH q(term, weight) AS (VALUES {values})
            SELECT t.seq, SUM(q.weight * t.tf / (t.tf + ? * ((1 - ?) + ? * t.length / ?))) AS score
            FROM q JOIN terms t ON t.tenant = ? AND t.term = q.term {in_pool}
            GROUP BY t.seq ORDER BY score DESC, t.seq LIMIT ?""",
        [*(x for term, m in multiplicity.items() for x in (term, weights[term] * m)), K1, B, B, float(average),
         tenant, *(pool_params if filtered else []), k + SLACK]).fetchall()
    seqs = [seq for seq, _ in rows]
    exact = _bm25s_scores(db, tenant, seqs, asked, weights, average)
    ids = dict(db.execute(f"SELECT seq, chunk_id FROM children WHERE seq IN ({', '.join('?' * len(seqs))})", seqs))
    order = sorted(seqs, key=lambda s: (-exact[s], s))[:k]
    return [(s, ids[s], float(exact[s])) for s in order]


def _bm25s_scores(db: sqlite3.Connection, tenant: str, seqs: Sequence[int], asked: Sequence[str],
                  weights: Mapping[str, float], average: np.float64) -> dict[int, np.float32]:
    """bm25s's score of each child: per term, idf32 * tf / (k1 * ((1 - b) + b * length / avg) + tf)
    in float64, stored as float32; the query's terms (repeats too) added in float32, in order."""
    marks = ", ".join("?" * len(seqs))
    found: dict[tuple[int, str], tuple[int, int]] = {}
    for seq, term, tf, length in db.execute(
            f"SELECT seq, term, tf, length FROM terms WHERE tenant = ? AND seq IN ({marks}) "
            f"AND term IN ({', '.join('?' * len(weights))})", [tenant, *seqs, *weights]):
        found[(seq, term)] = (tf, length)
    scores = {}
    for seq in seqs:
        total = np.float32(0)
        for term in asked:
            if (seq, term) in found:
                tf, length = found[(seq, term)]
                tfc = tf / (K1 * ((1 - B) + B * length / average) + tf)
                total = np.float32(total + np.float32(np.float64(weights[term]) * tfc))
        scores[seq] = total
    return scores


def vector_rows(tenant: str, pairs: Sequence[tuple[int, np.ndarray]]) -> list[tuple[str, int, bytes]]:
    return [(tenant, seq, np.asarray(vector, dtype=np.float32).tobytes()) for seq, vector in pairs]


def has_every_vector(db: sqlite3.Connection, tenant: str) -> bool:
    """Whether every child of the tenant has its vector (an index made through the API without an
    embedder has none; the in-memory path then embeds them)."""
    (children,) = db.execute("SELECT COUNT(*) FROM children WHERE tenant = ?", [tenant]).fetchone()
    (vectors,) = db.execute("SELECT COUNT(*) FROM vectors WHERE tenant = ?", [tenant]).fetchone()
    return children > 0 and children == vectors


def vector_top(db: sqlite3.Connection, tenant: str, query_vector: np.ndarray, k: int,
               filters: Mapping[str, Any] | None = None) -> list[tuple[int, str, float]] | None:
    """The top k children by the dot product of their stored vector with `query_vector` (both
    unit length: a cosine). None if the filters need the in-memory path or a vector is missing."""
    where = eligible(tenant, filters)
    if where is None or not has_every_vector(db, tenant):
        return None
    if k <= 0:
        return []
    pool_sql, pool_params = where
    rows = db.execute(f"SELECT v.seq, v.vector FROM vectors v WHERE v.tenant = ? AND v.seq IN (SELECT seq FROM ({pool_sql})) "
                      "ORDER BY v.seq", [tenant, *pool_params]).fetchall()
    if not rows:
        return []
    seqs = np.fromiter((seq for seq, _ in rows), dtype=np.int64, count=len(rows))
    matrix = np.frombuffer(b"".join(blob for _, blob in rows), dtype=np.float32).reshape(len(rows), -1)
    scores = dot_scores(matrix, query_vector)
    best = np.lexsort((seqs, -scores))[:k]  # ties in index order, as `DenseRetriever`
    chosen = [int(seqs[i]) for i in best]
    ids = dict(db.execute(f"SELECT seq, chunk_id FROM children WHERE seq IN ({', '.join('?' * len(chosen))})", chosen))
    return [(s, ids[s], float(scores[i])) for s, i in zip(chosen, best, strict=True)]
