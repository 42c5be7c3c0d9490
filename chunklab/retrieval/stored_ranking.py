"""Ranking inside the index file: BM25 from stored term counts, cosine from stored vectors.

`search` used to load and validate every child of a tenant and build a BM25 index from scratch
for each question. Here the index file holds what ranking needs, written in the same transaction
as the document's rows, and a question reads only the posting rows of its own terms, then the
top k children and their parents.

Why an inverted index of our own (term, child, count, length) and not SQLite's FTS5 or a saved
bm25s index: both were measured (`make bench` runs `bench/bench_index.py --choose`), and neither
ranks as `BM25Retriever` ranks, which is what the series' experiments measure, while also
updating one document at a time:
  - FTS5's `bm25()` uses Robertson's IDF clamped at zero and k1 = 1.2 (bm25s: Lucene's IDF,
    k1 = 1.5), and its statistics span the whole table, so one tenant's documents move another
    tenant's scores. Its top 4 differed from `BM25Retriever`'s on 16 of the experiment's 43
    questions over a 12,891-child wiki, and on 1 of 43 over 50,488 children of copies; a query
    took 30 ms warm there.
  - A saved bm25s index ranks exactly and fast (2 ms), but it is a matrix of precomputed scores:
    a document added or changed moves every IDF, so the whole tenant's matrix is rebuilt (4.9 s at
    50k children) and rewritten, outside the one-transaction-per-document rule that makes
    indexing incremental and kill-safe.
Term counts are the statistics BM25 needs and nothing more: a document changes only its own rows
and moves the kept totals (N, total length, each term's document frequency) in the same
transaction, and the scores are computed the way bm25s computes them (float32 per term, summed in
float32 in query order), so the top k and the scores are the same as `BM25Retriever`'s over the
same children. A filter narrows the children first and the statistics are counted over the
children that pass, as with `BM25Retriever` over the filtered candidates. Costs, from `make
bench`: about 17 MB of index file per MB of Markdown (vectors, term counts and records), and a
writer that takes about half of the indexing time on two cores.

Vectors are stored as float32 (1 KB per child for WordLlama's 256 dimensions, in a rowid table:
a WITHOUT ROWID table spills a 1 KB row to an overflow page, 4.7 KB per vector measured) and
scored with `retrievers.dot_scores`, the function `DenseRetriever` uses, so the two rank alike too.
"""

from __future__ import annotations

import heapq
import math
import re
import sqlite3
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from chunklab.retrieval.retrievers import BM25Retriever, dot_scores
from chunklab.retrieval.scoreboard import Scoreboard, score_candidates

K1, B = 1.5, 0.75  # bm25s's defaults, the ones BM25Retriever uses

SCHEMA = """
CREATE TABLE IF NOT EXISTS terms (
    tenant TEXT NOT NULL, term TEXT NOT NULL, seq INTEGER NOT NULL, tf INTEGER NOT NULL,
    length INTEGER NOT NULL,
    PRIMARY KEY (tenant, term, seq)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS terms_by_child ON terms (seq);
CREATE TABLE IF NOT EXISTS vectors (seq INTEGER PRIMARY KEY, vector BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS term_stats (
    tenant TEXT NOT NULL, term TEXT NOT NULL, df INTEGER NOT NULL,
    PRIMARY KEY (tenant, term)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tenant_stats (
    tenant TEXT PRIMARY KEY, children INTEGER NOT NULL, length INTEGER NOT NULL);
"""

SAFE_KEY = re.compile(r"[A-Za-z0-9_\-]+")


def term_counts(text: str) -> tuple[int, Counter[str]]:
    """(length, count of each term) of a text, as `BM25Retriever` tokenizes it. An empty text has
    length 1: bm25s is given one placeholder token for it, which no query can contain."""
    tokens = BM25Retriever.tokens(text)
    return max(1, len(tokens)), Counter(tokens)


def eligible(tenant: str, filters: Mapping[str, Any] | None) -> tuple[str, list[Any]] | None:
    """SQL selecting the seq of the tenant's children that pass `filters` (metadata equal to each
    value), or None when a filter cannot be said in SQL exactly (a key with unusual characters, a
    list or dict value): the caller then ranks in memory, which is slower but never wrong."""
    sql = "SELECT seq, length FROM children WHERE tenant = ?"
    params: list[Any] = [tenant]
    for key, value in (filters or {}).items():
        # Python's == is the rule (`index._matches`). SQL says it exactly for text and numbers;
        # True == 1 and a missing key == None it does not say alike, so those stay in memory.
        if (
            not SAFE_KEY.fullmatch(key)
            or isinstance(value, bool)
            or not isinstance(value, str | int | float)
        ):
            return None
        sql += (
            f" AND json_type(record, '$.metadata.{key}') IN ('text', 'integer', 'real')"
            f" AND json_extract(record, '$.metadata.{key}') = ?"
        )
        params.append(value)
    return sql, params


def add_children(
    db: sqlite3.Connection, tenant: str, children: Sequence[tuple[int, int, Mapping[str, int]]]
) -> None:
    """New children's term counts, as (seq, length, counts from `term_counts`), and the statistics
    BM25 reads (N, total length, each term's document frequency) moved by them, in the caller's
    transaction: one statement per table for a whole document."""
    if not children:
        return
    db.executemany(
        "INSERT INTO terms (tenant, term, seq, tf, length) VALUES (?, ?, ?, ?, ?)",
        [
            (tenant, term, seq, tf, length)
            for seq, length, counts in children
            for term, tf in counts.items()
        ],
    )
    holding = Counter(term for _, _, counts in children for term in counts)
    db.executemany(
        "INSERT INTO term_stats (tenant, term, df) VALUES (?, ?, ?) "
        "ON CONFLICT (tenant, term) DO UPDATE SET df = df + excluded.df",
        [(tenant, term, n) for term, n in holding.items()],
    )
    db.execute(
        "INSERT INTO tenant_stats (tenant, children, length) VALUES (?, ?, ?) ON CONFLICT (tenant) "
        "DO UPDATE SET children = children + excluded.children, length = length + excluded.length",
        (tenant, len(children), sum(length for _, length, _ in children)),
    )


def forget_children(db: sqlite3.Connection, doomed: str, params: Sequence[Any]) -> None:
    """Take the children that `doomed` (SQL selecting their seq) names out of the statistics, and
    drop their term counts and vectors; the caller then deletes the children themselves."""
    gone = db.execute(
        f"SELECT tenant, term, COUNT(*) FROM terms WHERE seq IN ({doomed}) GROUP BY tenant, term",
        params,
    ).fetchall()
    db.executemany(
        "UPDATE term_stats SET df = df - ? WHERE tenant = ? AND term = ?",
        [(n, t, w) for t, w, n in gone],
    )
    db.executemany(
        "DELETE FROM term_stats WHERE tenant = ? AND term = ? AND df <= 0",
        [(t, w) for t, w, _ in gone],
    )
    for tenant, children, length in db.execute(
        "SELECT tenant, COUNT(*), SUM(length) FROM children "
        f"WHERE seq IN ({doomed}) GROUP BY tenant",
        params,
    ).fetchall():
        db.execute(
            "UPDATE tenant_stats SET children = children - ?, length = length - ? WHERE tenant = ?",
            (children, length, tenant),
        )
    db.execute(f"DELETE FROM terms WHERE seq IN ({doomed})", params)
    db.execute(f"DELETE FROM vectors WHERE seq IN ({doomed})", params)


class Statistics(NamedTuple):
    """What BM25 needs besides a child's own counts: how many children, their mean length, and
    each asked term's document frequency (terms no child holds are left out, as bm25s does)."""

    n: int
    average: np.float64
    df: dict[str, int]


def bm25_statistics(
    db: sqlite3.Connection, tenant: str, terms: Sequence[str], pool: tuple[str, list[Any]] | None
) -> Statistics:
    """Read from the kept tables for a whole tenant; counted over the pool for a filtered one."""
    asked = list(dict.fromkeys(terms))
    if pool is None:
        row = db.execute(
            "SELECT children, length FROM tenant_stats WHERE tenant = ?", (tenant,)
        ).fetchone()
        n, total = row if row else (0, 0)
        df = dict(
            db.execute(
                "SELECT term, df FROM term_stats "
                f"WHERE tenant = ? AND term IN ({', '.join('?' * len(asked))})",
                [tenant, *asked],
            ).fetchall()
        )
    else:
        pool_sql, pool_params = pool
        n, total = db.execute(
            f"SELECT COUNT(*), COALESCE(SUM(length), 0) FROM ({pool_sql})", pool_params
        ).fetchone()
        df = {}
        for term in asked:
            (count,) = db.execute(
                f"SELECT COUNT(*) FROM terms WHERE tenant = ? AND term = ? "
                f"AND seq IN (SELECT seq FROM ({pool_sql}))",
                [tenant, term, *pool_params],
            ).fetchone()
            if count:
                df[term] = count
    return Statistics(
        n, np.float64(total) / n if n else np.float64(0), {t: d for t, d in df.items() if d > 0}
    )


def bm25_top(
    db: sqlite3.Connection,
    tenant: str,
    query: str,
    k: int,
    filters: Mapping[str, Any] | None = None,
) -> list[tuple[int, str, float]] | None:
    """The top k children for `query` by BM25: (seq, chunk_id, score), best first, ties in
    index order. None if the filters need the in-memory path (see `eligible`).

    Exact top k without reading every posting (MaxScore, Turtle and Flood 1995): a term adds at
    most its weight (IDF x repeats; tf / (tf + ...) < 1) to a child's score. The rare terms,
    whose postings are short, are read in full and their children scored; once the k-th best
    score is above the sum of the weights of the terms left (the common ones: "the", "is"),
    no child holding only those can reach the top k, and their long postings are only looked up
    for the few candidates that could still make it.
    """
    where = eligible(tenant, filters)
    if where is None:
        return None
    terms = BM25Retriever.tokens(query)
    if not terms or k <= 0:
        return []
    pool = where if filters else None
    stats = bm25_statistics(db, tenant, terms, pool)
    if stats.n == 0 or not stats.df:
        return []
    idf = {
        t: float(np.float32(math.log(1 + (stats.n - d + 0.5) / (d + 0.5))))
        for t, d in stats.df.items()
    }
    asked = [t for t in terms if t in idf]  # bm25s drops words it has not seen, keeps repeats
    bound = {t: idf[t] * m for t, m in Counter(asked).items()}  # the most a term can add
    rare_first = sorted(bound, key=lambda t: (stats.df[t], t))
    restrict = (f"AND seq IN (SELECT seq FROM ({pool[0]}))", pool[1]) if pool else ("", [])
    board = Scoreboard(k, lambda seqs: _bm25s_scores(db, tenant, seqs, asked, idf, stats.average))
    partial, rest = _read_rare_terms(db, tenant, rare_first, bound, stats.average, restrict, board)
    # A child outside `partial` holds only terms that together stay under the bar: it is out.
    score_candidates(partial, rest, board)
    best = board.best()
    if not best:
        return []
    ids = dict(
        db.execute(
            f"SELECT seq, chunk_id FROM children WHERE seq IN ({', '.join('?' * len(best))})", best
        )
    )
    return [(s, ids[s], float(board.scored[s])) for s in best]


def _read_rare_terms(
    db: sqlite3.Connection,
    tenant: str,
    rare_first: Sequence[str],
    bound: Mapping[str, float],
    average: float,
    restrict: tuple[str, list[Any]],
    board: Scoreboard,
) -> tuple[dict[int, float], float]:
    """Read whole postings, rarest term first, while the terms not read yet could still lift a
    child into the top k. Returns what the terms read add to each child's score (float64), and
    the most the terms left unread can add."""
    partial: dict[int, float] = {}
    read, rest = 0, sum(bound.values())
    while read < len(rare_first) and rest >= board.bar():
        term = rare_first[read]
        for seq, part in db.execute(
            f"SELECT seq, ? * tf / (tf + ? * ((1 - ?) + ? * length / ?)) FROM terms "
            f"WHERE tenant = ? AND term = ? {restrict[0]}",
            [bound[term], K1, B, B, float(average), tenant, term, *restrict[1]],
        ):
            partial[seq] = partial.get(seq, 0.0) + part
        read, rest = read + 1, rest - bound[term]
        # the best so far raise the bar
        board.score(heapq.nsmallest(board.k, partial, key=lambda s: (-partial[s], s)))
    return partial, rest


def _bm25s_scores(
    db: sqlite3.Connection,
    tenant: str,
    seqs: Sequence[int],
    asked: Sequence[str],
    weights: Mapping[str, float],
    average: np.float64,
) -> dict[int, np.float32]:
    """bm25s's score of each child: per term, idf32 * tf / (k1 * ((1 - b) + b * length / avg) + tf)
    in float64, stored as float32; the query's terms (repeats too) added in float32, in order.
    Element-wise numpy does the same IEEE operations as bm25s, so the scores are equal to the
    bit."""
    if not seqs:
        return {}
    rows = db.execute(
        "SELECT seq, term, tf, length FROM terms "
        f"WHERE tenant = ? AND seq IN ({', '.join('?' * len(seqs))}) "
        f"AND term IN ({', '.join('?' * len(weights))})",
        [tenant, *seqs, *weights],
    ).fetchall()
    where = {seq: i for i, seq in enumerate(seqs)}
    columns = {term: np.zeros(len(seqs), dtype=np.float32) for term in weights}
    if rows:
        at = np.fromiter((where[r[0]] for r in rows), dtype=np.int64, count=len(rows))
        tf = np.fromiter((r[2] for r in rows), dtype=np.float64, count=len(rows))
        length = np.fromiter((r[3] for r in rows), dtype=np.float64, count=len(rows))
        idf = np.fromiter((weights[r[1]] for r in rows), dtype=np.float64, count=len(rows))
        part = (idf * (tf / (K1 * ((1 - B) + B * length / average) + tf))).astype(np.float32)
        for term, column in columns.items():
            mine = np.fromiter((r[1] == term for r in rows), dtype=bool, count=len(rows))
            column[at[mine]] = part[mine]
    total = np.zeros(len(seqs), dtype=np.float32)
    for term in asked:  # float32, in the query's order; + 0 for a missing term changes nothing
        total += columns[term]
    return dict(zip(seqs, total, strict=True))


def has_every_vector(db: sqlite3.Connection, tenant: str) -> bool:
    """Whether every child of the tenant has its vector (an index made through the API without an
    embedder has none; the in-memory path then embeds them)."""
    (children,) = db.execute("SELECT COUNT(*) FROM children WHERE tenant = ?", [tenant]).fetchone()
    (vectors,) = db.execute(
        "SELECT COUNT(*) FROM children c JOIN vectors v ON v.seq = c.seq WHERE c.tenant = ?",
        [tenant],
    ).fetchone()
    return children > 0 and children == vectors


def vector_top(
    db: sqlite3.Connection,
    tenant: str,
    query_vector: np.ndarray,
    k: int,
    filters: Mapping[str, Any] | None = None,
) -> list[tuple[int, str, float]] | None:
    """The top k children by the dot product of their stored vector with `query_vector` (both
    unit length: a cosine). None if the filters need the in-memory path. The caller checks
    `has_every_vector` first: a child without a vector would silently drop out of the ranking."""
    where = eligible(tenant, filters)
    if where is None:
        return None
    if k <= 0:
        return []
    pool_sql, pool_params = where
    cursor = db.execute(
        f"SELECT v.seq, v.vector FROM vectors v WHERE v.seq IN (SELECT seq FROM ({pool_sql})) "
        "ORDER BY v.seq",
        pool_params,
    )
    seq_blocks, score_blocks = [], []
    while rows := cursor.fetchmany(4096):  # a block at a time: memory stays a few MB at any size
        seq_blocks.append(np.fromiter((seq for seq, _ in rows), dtype=np.int64, count=len(rows)))
        matrix = np.frombuffer(b"".join(blob for _, blob in rows), dtype=np.float32).reshape(
            len(rows), -1
        )
        score_blocks.append(dot_scores(matrix, query_vector))
    if not seq_blocks:
        return []
    seqs, scores = np.concatenate(seq_blocks), np.concatenate(score_blocks)
    best = np.lexsort((seqs, -scores))[:k]  # ties in index order, as `DenseRetriever`
    chosen = [int(seqs[i]) for i in best]
    ids = dict(
        db.execute(
            f"SELECT seq, chunk_id FROM children WHERE seq IN ({', '.join('?' * len(chosen))})",
            chosen,
        )
    )
    return [(s, ids[s], float(scores[i])) for s, i in zip(chosen, best, strict=True)]
