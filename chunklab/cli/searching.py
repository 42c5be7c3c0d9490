"""`chunklab search` (small-to-big: matched children, then their sections) and `chunklab tenants`
(who has what in an index file). Both only read: they never create or change the file."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from chunklab.cli.parser import UsageError
from chunklab.contracts import Chunk
from chunklab.embeddings.registry import DENSE_EMBEDDERS, checked_identity, key_of_name
from chunklab.retrieval.index import ParentChildIndex
from chunklab.retrieval.retrievers import Retriever, make_retriever, search_terms
from chunklab.retrieval.sqlite_store import EmbedderMismatch, SQLiteStore


def open_index(db: str) -> SQLiteStore:
    """An existing index file, opened read-only; a missing one is a `UsageError`."""
    if not Path(db).is_file():
        raise UsageError(f"{db}: no such index file (make one with `chunklab index`)")
    return SQLiteStore(db, read_only=True)  # a read command never creates or changes the file


def run_search(args: argparse.Namespace) -> int:
    if args.k <= 0 or args.parents <= 0:
        raise UsageError("--k and --parents must be at least 1")
    if not search_terms(args.question):
        raise UsageError(
            f"the question {args.question!r} has no word to search for "
            "(only blanks, punctuation or stop words)"
        )
    store = open_index(args.db)
    if not store.has_tenant(args.tenant):
        tenants = [t.tenant for t in store.tenants()]
        raise UsageError(
            f"{args.db}: tenant {args.tenant!r} has no documents; the index holds "
            f"{', '.join(repr(t) for t in tenants) or 'no tenant at all'} (see `chunklab tenants`)"
        )
    index = ParentChildIndex(store=store, retriever=search_retriever(store, args))
    hits = index.search(args.question, k=args.k, tenant=args.tenant)
    parents = index.parents_of(hits, max_parents=args.parents, tenant=args.tenant)
    children = [store.child(args.tenant, h.ref_id) for h in hits]
    if args.json:
        # Each matched child with its own text (what matched) and each parent with its text and
        # token count (what is handed over), so a caller needs nothing but this object.
        out = {
            "question": args.question,
            "children": [
                {
                    "chunk_id": c.chunk_id,
                    "doc_id": c.doc_id,
                    "parent_id": c.parent_id,
                    "score": round(h.score, 4),
                    "heading_path": list(c.heading_path),
                    "text": c.text,
                    "token_count": c.token_count,
                }
                for c, h in zip(children, hits, strict=True)
            ],
            "parents": [  # text, token_count, and whether the cap made it a window
                {**json.loads(p.model_dump_json()), "capped": "capped_from" in p.metadata}
                for p in parents
            ],
        }
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return 0
    if not hits:
        print("no matching children")
        return 0
    print("matched children:")
    for c, h in zip(children, hits, strict=True):
        print(f"  {h.score:7.3f}  {c.chunk_id}")
    for p in parents:
        print(
            f"\n=== {p.doc_id}: {' > '.join(p.heading_path) or '(no heading)'}  "
            f"[{p.token_count} tokens{capped_note(p)}]"
        )
        print(p.text)
    return 0


def capped_note(parent: Chunk) -> str:
    """What a capped parent is, for the line above its text: only part of its section (which
    children, which characters of the document), so no reader takes it for the whole."""
    meta = parent.metadata
    if "capped_from" not in meta:
        return ""
    return (
        f", capped at {meta['parent_tokens']}: the window of children {meta['first_child']} to "
        f"{meta['last_child']}, characters {parent.start}-{parent.end} of a "
        f"{meta['section_tokens']}-token section"
    )


def search_retriever(store: SQLiteStore, args: argparse.Namespace) -> Retriever:
    """The retriever asked for, its dense model the one that made the file's vectors: a question
    is never compared with vectors of another model. `--embedder` (or a dense `--retriever`)
    naming another is one line, with the command that re-indexes; the hybrid's dense part is the
    file's model unless `--embedder` says otherwise."""
    dense = args.retriever if args.retriever in DENSE_EMBEDDERS else None
    if dense and args.embedder and dense != args.embedder:
        raise UsageError(
            f"--retriever {dense} ranks with {dense}'s vectors, not --embedder {args.embedder}"
        )
    found = store.embedder()
    if args.retriever != "hybrid" and not dense:
        return make_retriever(args.retriever)  # ranks by words: no vectors read
    asked = dense or args.embedder or (key_of_name(found.name) if found else None)
    if asked not in DENSE_EMBEDDERS:  # vectors written through the API by another embedder
        return make_retriever(args.retriever)  # ranks in memory, embedding the children itself
    wanted = checked_identity(asked)  # a missing model: one line, before anything is read
    if found is not None and not found.same_vectors(wanted):
        file_key = key_of_name(found.name)
        raise UsageError(
            f"{EmbedderMismatch(Path(args.db), found, wanted)}; search it with --embedder "
            f"{file_key} (--retriever {file_key} or hybrid), or re-index the documents with "
            f"{asked}: chunklab index DOCS --db NEW.sqlite --embedder {asked}"
        )
    return make_retriever(args.retriever, asked)


def run_tenants(args: argparse.Namespace) -> int:
    rows = open_index(args.db).tenants()
    if not rows:
        print(f"{args.db}: no tenants (nothing indexed yet)")
        return 0
    width = max(len("tenant"), *(len(r.tenant) for r in rows))
    print(f"{'tenant':<{width}}  documents  sections  chunks")
    for r in rows:
        print(f"{r.tenant:<{width}}  {r.documents:>9}  {r.parents:>8}  {r.children:>6}")
    return 0
