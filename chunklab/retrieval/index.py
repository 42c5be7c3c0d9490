"""Small-to-big: search the small children, hand the model their big parents.

The size that finds is not the size that reads. A child (a few blocks under a breadcrumb) is a
precise search target; its parent (the whole section) is what answers. `ParentChildIndex` stores
both and swaps one for the other at query time.

Tenancy is a partition, not a filter: every record is stored under (tenant, chunk_id), and every
read names its tenant. Two tenants may index documents with the same `doc_id` and the same chunk
ids without colliding, and a query for tenant A only ever sees tenant A's rows. Metadata filters
apply to those rows *before* ranking, so a filtered-out chunk cannot take a place in the top k.

Two stores with one interface (`Store`): `MemoryStore` here (the default), and `SQLiteStore` in
`sqlite_store` (one file, standard library `sqlite3`, parameterised SQL only).

The index hands over the parents it was given. `small_to_big.parents_and_children` (what
`chunklab index` stores) caps them: a section over `parent_tokens` comes as windows of its
children. A chunker's own `parents(doc)` are its whole sections, however long.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, Protocol

import numpy as np

from chunklab.contracts import Chunk, Scored
from chunklab.retrieval.retrievers import LogCountRetriever, Query, Retriever

DEFAULT_TENANT = "default"


class TenantCount(NamedTuple):
    tenant: str
    documents: int
    parents: int
    children: int


class Store(Protocol):
    def upsert(self, tenant: str, parent: Chunk, children: Sequence[Chunk]) -> None: ...
    def replace_document(
        self,
        tenant: str,
        doc_id: str,
        sections: Sequence[tuple[Chunk, Sequence[Chunk]]],
        fingerprint: str | None = None,
        source: str = "",
        vectors: Mapping[str, np.ndarray] | None = None,
    ) -> None: ...
    def ranked(
        self,
        tenant: str,
        query: str,
        k: int,
        filters: Mapping[str, Any] | None,
        retriever: Retriever,
    ) -> list[Scored] | None: ...
    def fingerprint(self, tenant: str, doc_id: str) -> str | None: ...
    def documents(self, tenant: str) -> dict[str, str]: ...
    def remove_document(self, tenant: str, doc_id: str) -> None: ...
    def has_tenant(self, tenant: str) -> bool: ...
    def tenants(self) -> list[TenantCount]: ...
    def parent(self, tenant: str, chunk_id: str) -> Chunk: ...
    def child(self, tenant: str, chunk_id: str) -> Chunk: ...
    def children(self, tenant: str) -> list[Chunk]: ...
    def parents(self, tenant: str) -> list[Chunk]: ...


class MemoryStore:
    """Parents and children in dictionaries, keyed by (tenant, chunk_id), in insertion order."""

    def __init__(self) -> None:
        self._parents: dict[tuple[str, str], Chunk] = {}
        self._children: dict[tuple[str, str], Chunk] = {}
        self._documents: dict[
            tuple[str, str], tuple[str | None, str]
        ] = {}  # -> (fingerprint, source)

    def upsert(self, tenant: str, parent: Chunk, children: Sequence[Chunk]) -> None:
        """One parent with its children. Its old children go first, so re-indexing a parent
        leaves none behind pointing at it."""
        for key in [
            k
            for k, c in self._children.items()
            if k[0] == tenant and c.parent_id == parent.chunk_id
        ]:
            del self._children[key]
        self._parents[(tenant, parent.chunk_id)] = parent
        for child in children:
            self._children[(tenant, child.chunk_id)] = child

    def replace_document(
        self,
        tenant: str,
        doc_id: str,
        sections: Sequence[tuple[Chunk, Sequence[Chunk]]],
        fingerprint: str | None = None,
        source: str = "",
        vectors: Mapping[str, np.ndarray] | None = None,
    ) -> None:
        """All of a document's rows at once: its old parents and children go, the new ones come.
        `vectors` are not kept: the retriever embeds and caches them itself."""
        sections = [
            (parent, list(children)) for parent, children in sections
        ]  # fail before changing anything
        self.remove_document(tenant, doc_id)
        for parent, children in sections:  # the old rows are gone: nothing left to replace
            self._parents[(tenant, parent.chunk_id)] = parent
            self._children.update(((tenant, child.chunk_id), child) for child in children)
        self._documents[(tenant, doc_id)] = (fingerprint, source)

    def ranked(
        self,
        tenant: str,
        query: str,
        k: int,
        filters: Mapping[str, Any] | None,
        retriever: Retriever,
    ) -> list[Scored] | None:
        """None: this store keeps no index of its own, the retriever ranks the candidates."""
        return None

    def fingerprint(self, tenant: str, doc_id: str) -> str | None:
        """What the document's rows were made from (see `replace_document`), to skip it when it
        has not changed; None for a document never stored with one."""
        return self._documents.get((tenant, doc_id), (None, ""))[0]

    def documents(self, tenant: str) -> dict[str, str]:
        """doc_id -> the source it was indexed from, for this tenant."""
        return {d: source for (t, d), (_, source) in self._documents.items() if t == tenant}

    def remove_document(self, tenant: str, doc_id: str) -> None:
        """Every parent and child of one document, and its fingerprint: a document deleted from
        the source leaves nothing to be found."""
        for table in (self._parents, self._children):
            for key in [k for k, c in table.items() if k[0] == tenant and c.doc_id == doc_id]:
                del table[key]
        self._documents.pop((tenant, doc_id), None)

    def has_tenant(self, tenant: str) -> bool:
        """Whether this tenant has any child to search: a search of an unknown tenant is a
        mistake to name, not an empty answer."""
        return any(t == tenant for t, _ in self._children)

    def tenants(self) -> list[TenantCount]:
        """Each tenant with its counts of documents, parents and children, by name."""
        names = sorted({t for t, _ in self._parents} | {t for t, _ in self._children})
        return [
            TenantCount(
                t,
                len({p.doc_id for p in self.parents(t)}),
                len(self.parents(t)),
                len(self.children(t)),
            )
            for t in names
        ]

    def parent(self, tenant: str, chunk_id: str) -> Chunk:
        """One parent of this tenant by id (a `KeyError` if it has none)."""
        return self._parents[(tenant, chunk_id)]

    def child(self, tenant: str, chunk_id: str) -> Chunk:
        """One child of this tenant by id (a `KeyError` if it has none)."""
        return self._children[(tenant, chunk_id)]

    def children(self, tenant: str) -> list[Chunk]:
        """This tenant's children, in the order stored: the candidates a retriever ranks."""
        return [c for (t, _), c in self._children.items() if t == tenant]

    def parents(self, tenant: str) -> list[Chunk]:
        """This tenant's parents, in the order stored."""
        return [p for (t, _), p in self._parents.items() if t == tenant]


def _matches(chunk: Chunk, filters: Mapping[str, Any]) -> bool:
    return all(chunk.metadata.get(key) == value for key, value in filters.items())


def _inside_a_window(child: Chunk, parent: Chunk, handed: Sequence[Chunk]) -> bool:
    """Whether `child`'s span lies inside a window already `handed` over of the section that
    `parent`, a window too, was cut from (`capped_from` in both)."""
    section = parent.metadata.get("capped_from")
    return section is not None and any(
        p.metadata.get("capped_from") == section and p.start <= child.start and child.end <= p.end
        for p in handed
    )


class ParentChildIndex:
    """Children are searched; parents are returned. One tenant per call, filters before ranking."""

    def __init__(self, store: Store | None = None, retriever: Retriever | None = None) -> None:
        self.store = store if store is not None else MemoryStore()
        self.retriever = retriever if retriever is not None else LogCountRetriever()

    def upsert(
        self, parent: Chunk, children: Sequence[Chunk], tenant: str = DEFAULT_TENANT
    ) -> None:
        """Store one parent with its children (its old children replaced). Every child must point
        at this parent (`parent_id`), or `expand` could not hand it over: a `ValueError` names the
        ones that do not."""
        strays = [c.chunk_id for c in children if c.parent_id != parent.chunk_id]
        if strays:
            raise ValueError(f"children {strays} do not point at parent {parent.chunk_id!r}")
        self.store.upsert(tenant, parent, children)

    def expand(self, child_id: str, tenant: str = DEFAULT_TENANT) -> Chunk:
        """The parent of a retrieved child (the child itself if it has none)."""
        child = self.store.child(tenant, child_id)
        return self.store.parent(tenant, child.parent_id) if child.parent_id else child

    def search(
        self,
        query: str,
        k: int = 4,
        filters: Mapping[str, Any] | None = None,
        tenant: str = DEFAULT_TENANT,
    ) -> list[Scored]:
        """The top k children of this tenant that pass the filters.

        A query with no word to search for is a `ValidationError` (see `retrievers.Query`)."""
        Query(text=query)
        ranked = self.store.ranked(tenant, query, k, filters, self.retriever)
        if ranked is not None:  # the store ranked inside itself, reading only what it needed
            return ranked
        candidates = [c for c in self.store.children(tenant) if _matches(c, filters or {})]
        return self.retriever.rank(query, candidates, k)

    def small_to_big(
        self,
        query: str,
        k: int = 4,
        max_parents: int = 2,
        filters: Mapping[str, Any] | None = None,
        tenant: str = DEFAULT_TENANT,
    ) -> list[Chunk]:
        """Parents of the top k children, without repeats, in the rank order of their best child."""
        return self.parents_of(self.search(query, k, filters, tenant), max_parents, tenant)

    def parents_of(
        self, hits: Sequence[Scored], max_parents: int = 2, tenant: str = DEFAULT_TENANT
    ) -> list[Chunk]:
        """The parents of children already found, without repeats, in the order of their best child:
        a caller that shows the children too ranks once, not twice.

        A long section is stored as windows of its children (`small_to_big.cap_parents`), and two
        hits in it have two windows that overlap. A hit whose child already lies inside a window
        of the same section handed over for a better hit adds nothing, so it hands over nothing.
        """
        parents: list[Chunk] = []
        seen: set[str] = set()
        for hit in hits:
            child = self.store.child(tenant, hit.ref_id)
            parent = self.store.parent(tenant, child.parent_id) if child.parent_id else child
            if parent.chunk_id in seen or _inside_a_window(child, parent, parents):
                continue
            seen.add(parent.chunk_id)
            parents.append(parent)
        return parents[:max_parents]


def index_document(
    index: ParentChildIndex,
    parents: Sequence[Chunk],
    children: Sequence[Chunk],
    tenant: str = DEFAULT_TENANT,
    doc_id: str | None = None,
    fingerprint: str | None = None,
    source: str = "",
    vectors: Mapping[str, np.ndarray] | None = None,
) -> None:
    """Store a document's parents with their children (grouped by `parent_id`), replacing whatever
    the document had before, as one unit: in `SQLiteStore`, one transaction.

    `doc_id` is needed only for a document that now has no parents (it became empty): its old rows
    are removed. `fingerprint` (what the rows were made from) and `source` (where) are stored with
    them, in the same transaction, so `chunklab index` can skip a document that has not changed.
    `vectors` (chunk_id -> embedding of a child) let an `SQLiteStore` rank by meaning without
    embedding every child again at query time.
    """
    ids = {p.doc_id for p in parents} | ({doc_id} if doc_id else set())
    if len(ids) != 1:
        raise ValueError(
            f"index_document stores one document at a time, got {sorted(ids) or 'none'}"
        )
    by_parent: dict[str | None, list[Chunk]] = {p.chunk_id: [] for p in parents}
    strays = [c.chunk_id for c in children if c.parent_id not in by_parent]
    if strays:
        raise ValueError(f"children {strays} do not point at any of the parents given")
    for child in children:
        by_parent[child.parent_id].append(child)
    index.store.replace_document(
        tenant,
        ids.pop(),
        [(p, by_parent[p.chunk_id]) for p in parents],
        fingerprint=fingerprint,
        source=source,
        vectors=vectors,
    )
