"""Companion 03f's exercise 03f.1: what a shared index holds after a list of `index_document`
calls, and the slips it names.

Why a check of its own: the answer is a few lines (file each document under (tenant, doc_id), a
call that names no tenant under `default`, a document indexed again replacing all its chunks), and
each plausible shortcut is right on calls where no document id is shared and none is indexed
twice: a flat store keyed by the document id alone loses one tenant's document to another's, a
store keyed by chunk id keeps the chunks a new version no longer has, and a call that names no
tenant is easily dropped or filed under None. The fixed cases hold each of those.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from chunklab.retrieval.index import DEFAULT_TENANT
from chunklab.teaching.checking import NotYet, short

Call = tuple[str | None, str, list[str]]  # (tenant or None, doc_id, the chunk ids it indexes)
Held = dict[str, list[str]]  # tenant -> the sorted chunk ids it holds


def _sorted_by_tenant(docs: dict) -> Held:
    """(tenant, doc_id) -> chunk ids, gathered into tenant -> sorted chunk ids; a tenant left
    holding nothing is left out, as `store.tenants()` leaves it out."""
    held: dict[str, list[str]] = {}
    for (tenant, _), chunk_ids in docs.items():
        held.setdefault(tenant, []).extend(chunk_ids)
    return {tenant: sorted(ids) for tenant, ids in held.items() if ids}


def held_expected(calls: list[Call]) -> Held:
    """The answer: each document filed under (tenant, doc_id), no tenant meaning `default`, a
    document indexed again under the same tenant replacing all its earlier chunks (with none, when
    it became empty); a tenant left holding nothing is no tenant."""
    docs = {}
    for tenant, doc_id, chunk_ids in calls:
        docs[DEFAULT_TENANT if tenant is None else tenant, doc_id] = list(chunk_ids)
    return _sorted_by_tenant(docs)


def _flat(calls: list[Call]) -> Held:  # keyed by doc_id alone: the last tenant takes it
    docs = {}
    for tenant, doc_id, chunk_ids in calls:
        docs[doc_id] = (DEFAULT_TENANT if tenant is None else tenant, list(chunk_ids))
    return _sorted_by_tenant({(t, d): ids for d, (t, ids) in docs.items()})


def _by_chunk_id(calls: list[Call]) -> Held:  # a chunk id's record replaced, old ones left
    held: dict[str, set[str]] = {}
    for tenant, _, chunk_ids in calls:
        held.setdefault(DEFAULT_TENANT if tenant is None else tenant, set()).update(chunk_ids)
    return {tenant: sorted(ids) for tenant, ids in held.items()}


def _whole_tenant(calls: list[Call]) -> Held:  # each call replaces all its tenant held
    held: Held = {}
    for tenant, _, chunk_ids in calls:
        held[DEFAULT_TENANT if tenant is None else tenant] = sorted(chunk_ids)
    return {tenant: ids for tenant, ids in held.items() if ids}


def _kept(held: object) -> object:  # a tenant left holding nothing, listed or not, is the same
    return {t: ids for t, ids in held.items() if ids} if isinstance(held, dict) else held


SLIPS: list[tuple[Callable[[list[Call]], object], str]] = [
    (
        _flat,
        "you filed each document under its doc_id alone: the same doc_id under two tenants is two "
        "documents, so key each by (tenant, doc_id)",
    ),
    (
        _by_chunk_id,
        "a document indexed again keeps none of its earlier chunks: an old version's chunk that "
        "the new one lacks is still held here",
    ),
    (
        lambda calls: {t: ids for t, ids in held_expected(calls).items() if t != DEFAULT_TENANT},
        "a call that names no tenant still indexes: its chunks land in the tenant 'default'",
    ),
    (
        lambda calls: _sorted_by_tenant({(t, d): list(ids) for t, d, ids in calls}),
        f"a call that names no tenant files under {DEFAULT_TENANT!r} (DEFAULT_TENANT), not None",
    ),
    (
        _whole_tenant,
        "each call replaced everything its tenant held: a call replaces only its own document's "
        "chunks, and the tenant's other documents stay",
    ),
]

CASES: list[list[Call]] = [
    [("acme", "per-diem", ["per-diem#c0"]), ("globex", "per-diem", ["per-diem#c0"])],
    [("acme", "policy", ["policy#c0", "policy#c1"]), ("acme", "policy", ["policy#c0"])],
    [("acme", "a", ["a#c0"]), (None, "b", ["b#c0"])],
    [(None, "b", ["b#c1", "b#c0"]), ("globex", "a", ["a#c0"]), (None, "b", ["b#c0"])],
    [("acme", "b", ["b#c0"]), ("acme", "a", ["a#c1", "a#c0"])],  # a tenant's ids, sorted
    [("acme", "a", ["a#c0"]), ("globex", "a", ["a#c0"]), ("acme", "a", [])],  # acme emptied
]


def _why(got: object, calls: list[Call]) -> str:
    if isinstance(got, dict) and _kept(got) == held_expected(calls):
        return (
            "a tenant left holding nothing is listed: it is no tenant any more "
            "(store.tenants() leaves it out), so leave it out"
        )
    for slip, why in SLIPS:
        if _kept(got) == _kept(slip(calls)):
            return why
    expected = held_expected(calls)
    if isinstance(got, dict) and {t: sorted(ids) for t, ids in got.items()} == expected:
        return "the right chunk ids in another order: sort each tenant's list"
    if isinstance(got, dict) and set(got) != set(expected):
        return f"the tenants differ: expected {sorted(expected)}, got {sorted(got, key=str)}"
    return "not what the index holds"


def check_held_by_tenant(fn: Callable) -> int:
    rng, cases = random.Random(3), list(CASES)
    for _ in range(40):
        calls: list[Call] = []
        for _ in range(rng.randint(1, 6)):
            doc = rng.choice("ab")
            ids = [f"{doc}#c{n}" for n in rng.sample(range(4), rng.randint(1, 3))]
            calls.append((rng.choice([None, "acme", "globex"]), doc, ids))
        cases.append(calls)
    for calls in cases:
        expected = held_expected(calls)
        got = fn([(t, d, list(ids)) for t, d, ids in calls])
        if got != expected:
            raise NotYet(
                f"{_why(got, calls)}. Case: calls {calls}: expected {expected}, got {short(got)}"
            )
    return len(cases)


CHECKS_TENANTS: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "03f.1": ("held_by_tenant(calls) -> dict of tenant to sorted chunk ids", check_held_by_tenant),
}
