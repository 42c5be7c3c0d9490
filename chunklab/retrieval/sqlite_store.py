"""`SQLiteStore`: the index's `Store` in one SQLite file.

One transaction per document, the fingerprints that let `chunklab index` skip unchanged documents,
and every SQLite error turned into an `IndexFileError` that says in words what is wrong with the
file. Opening the file (schema, format, write-ahead log) is `index_file`'s; the ranking inside
the file is `stored_ranking`'s, and this module chooses which.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

import numpy as np

from chunklab.contracts import Chunk, Scored, ScoreSource
from chunklab.embeddings.registry import EmbedderIdentity
from chunklab.retrieval import stored_ranking
from chunklab.retrieval.index import TenantCount
from chunklab.retrieval.index_file import (
    BUSY_TIMEOUT,
    IndexFileError,
    connect,
    fault_message,
    record_embedder,
    recorded_embedder,
)
from chunklab.retrieval.retrievers import (
    FusesRankings,
    RanksByVector,
    Retriever,
    index_needs,
    reciprocal_rank_fusion,
)


class EmbedderMismatch(IndexFileError):
    """Vectors of one embedder asked to sit beside, or be searched with, another's. An index file
    keeps one embedder's vectors (`SQLiteStore.use_embedder`); the message names the file and
    both embedders, and `found` / `asked` say which, for a caller that names a command too."""

    def __init__(self, path: Path, found: EmbedderIdentity, asked: EmbedderIdentity) -> None:
        self.path, self.found, self.asked = path, found, asked
        same_name = found.name == asked.name
        what = (
            f"{asked.name} with other weights (sha256 {asked.model_hash[:12]}, the file's "
            f"{found.model_hash[:12]})"
            if same_name
            else asked.name
        )
        super().__init__(
            f"{path}: its vectors were made by {found.name} ({found.dim} dimensions), not by {what}"
        )


class SQLiteStore:
    """The same store in one SQLite file: it survives closing and reopening.

    `read_only=True` (what `search` uses) never creates or changes the file: a missing, empty or
    foreign file is an `IndexFileError`, not a new index. Every SQLite error is turned into an
    `IndexFileError` at this boundary, naming the file and what went wrong in words (locked,
    read-only, disk full, corrupt), so no caller shows a traceback for a file-system problem.
    """

    def __init__(
        self, path: str | Path, read_only: bool = False, timeout: float = BUSY_TIMEOUT
    ) -> None:
        if not str(path).strip():
            raise IndexFileError("the index file name is empty")
        self.path = Path(path)
        self.timeout = timeout
        with self._guard():
            self._db = connect(self.path, read_only, timeout)

    @contextmanager
    def _guard(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as exc:
            raise IndexFileError(f"{self.path}: {fault_message(exc, self.timeout)}") from None

    def close(self) -> None:
        """Close the file: every write is already committed (one transaction per call)."""
        self._db.close()

    def embedder(self) -> EmbedderIdentity | None:
        """What made the file's vectors (`index_file.recorded_embedder`); None before any."""
        with self._guard():
            return recorded_embedder(self._db)

    def use_embedder(self, embedder: EmbedderIdentity) -> None:
        """Claim the file for `embedder`'s vectors before writing any: recorded if the file has
        none yet (or only an old file's unrecorded WordLlama ones), else checked. Vectors of
        another embedder are an `EmbedderMismatch`, never written beside these."""
        with self._guard(), self._db:
            found = recorded_embedder(self._db)
            if found is not None and not found.same_vectors(embedder):
                raise EmbedderMismatch(self.path, found, embedder)
            if found != embedder:
                record_embedder(self._db, embedder)

    def upsert(self, tenant: str, parent: Chunk, children: Sequence[Chunk]) -> None:
        """One parent with its children, its old children replaced, in one transaction."""
        self._write(tenant, [(parent, children)], doc_id=None)

    def replace_document(
        self,
        tenant: str,
        doc_id: str,
        sections: Sequence[tuple[Chunk, Sequence[Chunk]]],
        fingerprint: str | None = None,
        source: str = "",
        vectors: Mapping[str, np.ndarray] | None = None,
    ) -> None:
        """A document's parents and children in one transaction, after every old row of the
        document (sections it no longer has too), with the fingerprint of what they were made
        from, each child's BM25 term counts and, if given, its vector (by chunk_id). A crash or an
        error part-way leaves the file as it was, never half old and half new, and never a
        fingerprint without its rows."""
        self._write(
            tenant, sections, doc_id=doc_id, document=(fingerprint, source), vectors=vectors
        )

    def fingerprint(self, tenant: str, doc_id: str) -> str | None:
        """What the document's rows were made from (see `replace_document`), to skip it when it
        has not changed; None for a document never stored with one."""
        with self._guard():
            row = self._db.execute(
                "SELECT fingerprint FROM documents WHERE tenant = ? AND doc_id = ?",
                (tenant, doc_id),
            ).fetchone()
        return row[0] if row else None

    def documents_fingerprints(self, tenant: str) -> dict[str, str]:
        """doc_id -> the fingerprint its rows were made from, for this tenant (one query, not one
        per document)."""
        with self._guard():
            rows = self._db.execute(
                "SELECT doc_id, fingerprint FROM documents WHERE tenant = ? "
                "AND fingerprint IS NOT NULL",
                (tenant,),
            )
            return dict(rows.fetchall())

    def documents(self, tenant: str) -> dict[str, str]:
        """doc_id -> the source it was indexed from, for this tenant."""
        with self._guard():
            rows = self._db.execute(
                "SELECT doc_id, source FROM documents WHERE tenant = ? ORDER BY doc_id", (tenant,)
            )
            return dict(rows.fetchall())

    def remove_document(self, tenant: str, doc_id: str) -> None:
        """Every row of one document, in one transaction."""
        self._write(tenant, [], doc_id=doc_id, document=None)

    def _write(
        self,
        tenant: str,
        sections: Sequence[tuple[Chunk, Sequence[Chunk]]],
        doc_id: str | None,
        document: tuple[str | None, str] | None = None,
        vectors: Mapping[str, np.ndarray] | None = None,
    ) -> None:
        with self._guard(), self._db:
            if vectors:
                self._check_dimension(vectors)
            if doc_id is not None:  # the whole document goes
                self._drop_children(
                    "tenant = ? AND json_extract(record, '$.doc_id') = ?", (tenant, doc_id)
                )
                self._db.execute(
                    "DELETE FROM parents WHERE tenant = ? AND json_extract(record, '$.doc_id') = ?",
                    (tenant, doc_id),
                )
                self._db.execute(
                    "DELETE FROM documents WHERE tenant = ? AND doc_id = ?", (tenant, doc_id)
                )
                if document is not None:
                    self._db.execute(
                        "INSERT INTO documents (tenant, doc_id, fingerprint, source) "
                        "VALUES (?, ?, ?, ?)",
                        (tenant, doc_id, *document),
                    )
            for parent, children in sections:
                if doc_id is None:  # one section: only its own old children go
                    self._drop_children("tenant = ? AND parent_id = ?", (tenant, parent.chunk_id))
                self._db.execute(
                    "INSERT OR REPLACE INTO parents (tenant, chunk_id, record) VALUES (?, ?, ?)",
                    (tenant, parent.chunk_id, parent.model_dump_json()),
                )
                stored_ranking.add_children(
                    self._db,
                    tenant,
                    [
                        self._insert_child(
                            tenant, child, None if vectors is None else vectors.get(child.chunk_id)
                        )
                        for child in children
                    ],
                )

    def _check_dimension(self, vectors: Mapping[str, np.ndarray]) -> None:
        """Vectors of another size than the recorded embedder's are refused before any row."""
        found = recorded_embedder(self._db)
        sizes = {np.asarray(v).size for v in vectors.values()}
        if found is not None and sizes != {found.dim}:
            raise IndexFileError(
                f"{self.path}: vectors of {', '.join(map(str, sorted(sizes)))} dimensions, but "
                f"the file holds {found.name}'s ({found.dim}); an index file keeps one embedder's"
            )

    def _drop_children(self, where: str, params: tuple[Any, ...]) -> None:
        """Children matching `where`, with their term counts and vectors."""
        stored_ranking.forget_children(self._db, f"SELECT seq FROM children WHERE {where}", params)
        self._db.execute(f"DELETE FROM children WHERE {where}", params)

    def _insert_child(
        self, tenant: str, child: Chunk, vector: np.ndarray | None
    ) -> tuple[int, int, Counter[str]]:
        """The child's row and vector; returns (seq, length, term counts) for `add_children`."""
        if self._db.execute(
            "SELECT 1 FROM children WHERE tenant = ? AND chunk_id = ?", (tenant, child.chunk_id)
        ).fetchone():
            # one id, one row
            self._drop_children("tenant = ? AND chunk_id = ?", (tenant, child.chunk_id))
        length, counts = stored_ranking.term_counts(child.text)
        seq = self._db.execute(
            "INSERT INTO children (tenant, chunk_id, parent_id, record, length) "
            "VALUES (?, ?, ?, ?, ?)",
            (tenant, child.chunk_id, child.parent_id or "", child.model_dump_json(), length),
        ).lastrowid
        assert seq is not None  # an INSERT sets lastrowid
        if vector is not None:
            self._db.execute(
                "INSERT INTO vectors (seq, vector) VALUES (?, ?)",
                (seq, np.asarray(vector, dtype=np.float32).tobytes()),
            )
        return seq, length, counts

    def ranked(
        self,
        tenant: str,
        query: str,
        k: int,
        filters: Mapping[str, Any] | None,
        retriever: Retriever,
    ) -> list[Scored] | None:
        """The top k children ranked inside the file, reading only the rows the ranking needs:
        the posting rows of the query's terms, or the vectors (see `stored_ranking`). For BM25,
        the dense retriever of the file's embedder (`embedder()`) and their hybrid, the same
        order as the retriever's over `children(tenant)`; None for other retrievers, for a dense
        one whose embedder did not make the file's vectors (it ranks in memory, embedding the
        children itself), or when a filter needs the in-memory path."""
        with self._guard():
            plan = index_needs(retriever)
            stored = recorded_embedder(self._db)
            stored_name = stored.name if stored else None
            if plan is None or (plan.kind == "vectors" and plan.embedder != stored_name):
                return None
            if plan.kind == "bm25":
                hits = stored_ranking.bm25_top(self._db, tenant, query, k, filters)
                return _scored(hits, ScoreSource.LEXICAL)
            # The plan says what the retriever is: "vectors" embeds, "fused" has a dense part.
            if plan.kind == "vectors":
                hits = self._vector_top(tenant, query, k, filters, cast(RanksByVector, retriever))
                return _scored(hits, ScoreSource.VECTOR)
            # "fused": both rankings, read `depth` deep, fused by rank
            hybrid = cast(FusesRankings, retriever)
            dense_plan = index_needs(hybrid.dense)
            assert dense_plan is not None  # "fused" is said only when both parts are stored
            if dense_plan.embedder != stored_name:
                return None
            depth = max(k, hybrid.depth)
            words = stored_ranking.bm25_top(self._db, tenant, query, depth, filters)
            dense = cast(RanksByVector, hybrid.dense)
            meaning = self._vector_top(tenant, query, depth, filters, dense)
            if words is None or meaning is None:
                return None
            seq_of = {c: s for s, c, _ in words + meaning}
            fused = reciprocal_rank_fusion([[c for _, c, _ in words], [c for _, c, _ in meaning]])
            best = sorted(fused, key=lambda c: (-fused[c], seq_of[c]))[:k]
            return [Scored(ref_id=c, score=fused[c], source=ScoreSource.FUSED) for c in best]

    def _vector_top(
        self,
        tenant: str,
        query: str,
        k: int,
        filters: Mapping[str, Any] | None,
        retriever: RanksByVector,
    ) -> list[tuple[int, str, float]] | None:
        if not stored_ranking.has_every_vector(self._db, tenant):
            return None  # before embedding the query: the in-memory path will do it
        q = retriever.query_vector(query)
        return [] if q is None else stored_ranking.vector_top(self._db, tenant, q, k, filters)

    def has_tenant(self, tenant: str) -> bool:
        """Whether this tenant has any child to search: `chunklab search` names an unknown
        tenant as a mistake instead of answering nothing."""
        with self._guard():
            row = self._db.execute("SELECT 1 FROM children WHERE tenant = ? LIMIT 1", (tenant,))
            return row.fetchone() is not None

    def tenants(self) -> list[TenantCount]:
        """Each tenant with its counts of documents, parents and children, by name
        (`chunklab tenants`)."""
        with self._guard():
            rows = self._db.execute("""
                SELECT tenant, COUNT(DISTINCT json_extract(record, '$.doc_id')), COUNT(*),
                       (SELECT COUNT(*) FROM children c WHERE c.tenant = p.tenant)
                FROM parents p GROUP BY tenant ORDER BY tenant""").fetchall()
        return [TenantCount(*row) for row in rows]

    def _one(self, table: str, tenant: str, chunk_id: str) -> Chunk:
        query = {
            "parents": "SELECT record FROM parents WHERE tenant = ? AND chunk_id = ?",
            "children": "SELECT record FROM children WHERE tenant = ? AND chunk_id = ?",
        }[table]
        with self._guard():
            row = self._db.execute(query, (tenant, chunk_id)).fetchone()
        if row is None:
            raise KeyError(chunk_id)
        return Chunk.model_validate_json(row[0])

    def parent(self, tenant: str, chunk_id: str) -> Chunk:
        """One parent of this tenant by id (a `KeyError` if it has none)."""
        return self._one("parents", tenant, chunk_id)

    def child(self, tenant: str, chunk_id: str) -> Chunk:
        """One child of this tenant by id (a `KeyError` if it has none)."""
        return self._one("children", tenant, chunk_id)

    def children(self, tenant: str) -> list[Chunk]:
        """This tenant's children, in the order written: the candidates a retriever ranks when
        the file cannot rank inside itself."""
        return self._records("SELECT record FROM children WHERE tenant = ? ORDER BY seq", tenant)

    def parents(self, tenant: str) -> list[Chunk]:
        """This tenant's parents, in the order written."""
        return self._records("SELECT record FROM parents WHERE tenant = ? ORDER BY rowid", tenant)

    def _records(self, sql: str, tenant: str) -> list[Chunk]:
        with self._guard():
            rows = self._db.execute(sql, (tenant,)).fetchall()
        return [Chunk.model_validate_json(r[0]) for r in rows]


def _scored(hits: list[tuple[int, str, float]] | None, source: ScoreSource) -> list[Scored] | None:
    """(seq, chunk id, score) rows as `Scored`; None stays None (rank in memory instead)."""
    if hits is None:
        return None
    return [Scored(ref_id=c, score=x, source=source) for _, c, x in hits]
