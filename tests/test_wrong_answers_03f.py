"""Notebook 03f's exercise refuses plausible wrong answers, each with a hint naming what is wrong,
and accepts the right one."""

import sys

import pytest
from conftest import ROOT

from chunklab.contracts import Chunk
from chunklab.retrieval.index import DEFAULT_TENANT, MemoryStore, ParentChildIndex, index_document
from chunklab.teaching.exercises import verdict
from chunklab.teaching.exercises_tenants import CASES, held_expected

sys.path.insert(0, str(ROOT))
from solutions.exercises import held_by_tenant  # noqa: E402


def _gathered(docs):  # (tenant, doc_id) -> ids, as tenant -> sorted ids
    held = {}
    for (tenant, _), ids in docs.items():
        held.setdefault(tenant, []).extend(ids)
    return {tenant: sorted(ids) for tenant, ids in held.items()}


def _by_doc_id(calls):  # the flat index: one record per doc_id, whatever the tenant
    docs = {doc_id: (tenant or "default", ids) for tenant, doc_id, ids in calls}
    return _gathered({(t, d): ids for d, (t, ids) in docs.items()})


def _appends(calls):  # a document indexed again: its new chunks added to the old ones
    held = {}
    for tenant, _, ids in calls:
        held.setdefault(tenant or "default", set()).update(ids)
    return {tenant: sorted(ids) for tenant, ids in held.items()}


def _drops_untenanted(calls):  # a call without a tenant skipped
    return _gathered({(t, d): ids for t, d, ids in calls if t is not None})


def _none_as_tenant(calls):  # no tenant filed under None
    return _gathered({(t, d): ids for t, d, ids in calls})


def _unsorted(calls):  # the right chunk ids, in indexing order
    docs = {(tenant or "default", d): ids for tenant, d, ids in calls}
    held = {}
    for (tenant, _), ids in docs.items():
        held.setdefault(tenant, []).extend(ids)
    return held


def _flat_keeps_emptied(calls):  # flat keying, the tenant that lost its document left listed
    held, owner = {}, {}
    for tenant, doc_id, ids in calls:
        tenant = tenant or "default"
        if doc_id in owner:
            held[owner[doc_id]].pop(doc_id, None)
        owner[doc_id] = tenant
        held.setdefault(tenant, {})[doc_id] = list(ids)
    return {t: sorted(c for ids in docs.values() for c in ids) for t, docs in held.items()}


def _whole_tenant(calls):  # each call replaces everything its tenant held
    return {tenant or "default": sorted(ids) for tenant, _, ids in calls}


@pytest.mark.parametrize(
    ("fn", "hint"),
    [
        (_by_doc_id, "key each by (tenant, doc_id)"),
        (_flat_keeps_emptied, "key each by (tenant, doc_id)"),
        (_whole_tenant, "replaces only its own document's chunks"),
        (_appends, "keeps none of its earlier chunks"),
        (_drops_untenanted, "still indexes: its chunks land in the tenant 'default'"),
        (_none_as_tenant, "not None"),
        (_unsorted, "sort each tenant's list"),
    ],
)
def test_03f_1_refuses_each_slip_with_its_hint(fn, hint):
    result = verdict("03f.1", fn)
    assert not result.passed and hint in result.message, result.message


def test_03f_1_accepts_the_solution():
    result = verdict("03f.1", held_by_tenant)
    assert result.passed, result.message


def _keeps_emptied(calls):  # the right records, a tenant whose documents all became empty listed
    docs = {(tenant or "default", d): ids for tenant, d, ids in calls}
    held = {}
    for (tenant, _), ids in docs.items():
        held.setdefault(tenant, []).extend(ids)
    return {tenant: sorted(ids) for tenant, ids in held.items()}


def test_03f_1_refuses_a_tenant_left_holding_nothing():
    result = verdict("03f.1", _keeps_emptied)
    assert not result.passed and "holding nothing is listed" in result.message, result.message


def _library_holds(calls):  # what MemoryStore holds after these index_document calls
    index = ParentChildIndex(store=MemoryStore())
    for tenant, doc_id, ids in calls:
        parent = Chunk(
            chunk_id=f"{doc_id}#p",
            doc_id=doc_id,
            ordinal=0,
            text="p",
            token_count=1,
            start=0,
            end=1,
        )
        kids = [
            Chunk(
                chunk_id=c,
                doc_id=doc_id,
                parent_id=parent.chunk_id,
                ordinal=n,
                text=c,
                token_count=1,
                start=0,
                end=1,
            )
            for n, c in enumerate(ids)
        ]
        index_document(
            index, [parent] if ids else [], kids, tenant=tenant or DEFAULT_TENANT, doc_id=doc_id
        )
    return {
        t.tenant: sorted(c.chunk_id for c in index.store.children(t.tenant))
        for t in index.store.tenants()
    }


def test_03f_1_expected_answer_is_what_the_library_holds():
    for calls in CASES:
        assert held_expected(calls) == _library_holds(calls), calls
