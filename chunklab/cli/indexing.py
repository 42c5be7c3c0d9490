"""`chunklab index`: documents read, chunked and embedded (here or on Dask workers), then written
into an SQLite index file one document per transaction; `--prune` removes what is gone.

The command in named steps: `check_index_flags` (every mistake said before any work),
`write_documents` (the write loop), `prune`, and `report_index` (the closing lines and exit code).
A file that cannot be converted or chunked, for whatever reason, is named in one line and skipped
(exit code 2 at the end); Ctrl-C says how many documents were done, in one line (exit code 130;
SIGTERM the same, exit code 143): each document is one transaction, so the file is intact and a
re-run resumes.
"""

from __future__ import annotations

import argparse
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chunklab.chunkers.registry import STRATEGIES
from chunklab.cli.parser import (
    USAGE_ERROR,
    UsageError,
    build_chunker,
    pdf_password,
    strategy_options,
)
from chunklab.cli.source_files import (
    no_documents,
    passed_over,
    say_how_cut,
    say_syntax_errors,
    suffixes_for,
)
from chunklab.cli.terminal import (
    Interrupted,
    add_cuts,
    ctrl_c_after,
    exit_code_of,
    progress,
    say_passed_over,
    stopped_by,
    warn,
    warn_cut,
)
from chunklab.documents.files import FoundDocuments, find_documents
from chunklab.embeddings.minilm import Cut, MiniLMEmbedder
from chunklab.embeddings.registry import (
    DEFAULT_DENSE,
    DENSE_EMBEDDERS,
    checked_identity,
    key_of_name,
)
from chunklab.retrieval import ingest
from chunklab.retrieval.index import ParentChildIndex, index_document
from chunklab.retrieval.sqlite_store import EmbedderMismatch, SQLiteStore


@dataclass
class Tally:
    """What the write loop did: documents written and their children, documents unchanged since
    the last run (their rows are already right), the paths of the files it could not read, and
    what the embedder did not read of each document's children."""

    indexed: int = 0
    children: int = 0
    unchanged: int = 0
    skipped: list[str] = field(default_factory=list)
    cuts: list[Cut | None] = field(default_factory=list)


def run_index(args: argparse.Namespace) -> int:
    check_index_flags(args)
    found = find_documents(
        args.paths, follow_links=args.follow_links, suffixes=suffixes_for(args.strategy)
    )
    if not found.documents:
        raise no_documents(found, args.paths, args.strategy)
    created = not Path(args.db).exists()
    if created:  # a missing model is said before the file is made
        checked_identity(args.index_embedder or DEFAULT_DENSE)
    store = SQLiteStore(args.db)
    try:
        args.embedder_key = claim_embedder(store, args)
    except BaseException:
        store.close()
        raise
    tally = Tally()
    try:
        write_documents(store, found, args, tally)
    except KeyboardInterrupt as stop:  # each document is one transaction: what was committed stays
        store.close()
        raise Interrupted(
            interrupted_line(args, found, tally, stopped_by(stop)), exit_code_of(stop)
        ) from None
    except ingest.DaskUnavailable as exc:
        store.close()
        if created:  # nothing was indexed: leave no empty index file behind
            for leftover in (args.db, f"{args.db}-wal", f"{args.db}-shm"):
                Path(leftover).unlink(missing_ok=True)
        raise UsageError(str(exc)) from None
    pruned = prune(store, args) if args.prune else 0
    store.close()
    return report_index(args, found, tally, pruned)


def check_index_flags(args: argparse.Namespace) -> None:
    """A bad strategy option or a bad `--workers` / `--scheduler` is said before any work."""
    build_chunker(args)
    if args.parent_tokens < 1:
        raise UsageError("--parent-tokens must be at least 1")
    if args.workers is not None and args.workers < 1:
        raise UsageError("--workers must be at least 1")
    if args.workers is not None and args.scheduler is not None:
        raise UsageError(
            "--workers starts a local cluster, --scheduler uses an existing one: give one of them"
        )


def claim_embedder(store: SQLiteStore, args: argparse.Namespace) -> str:
    """The registry name of the embedder this run uses: `--embedder`, else the one that made the
    file's vectors, else WordLlama. Its model is checked, and the file claimed for it; a file of
    another embedder's vectors is one line naming both and the command that re-indexes."""
    found = store.embedder()
    key = args.index_embedder or (key_of_name(found.name) if found else DEFAULT_DENSE)
    if key not in DENSE_EMBEDDERS:  # vectors written through the API by some other embedder
        key = DEFAULT_DENSE
    try:
        store.use_embedder(checked_identity(key))
    except EmbedderMismatch as exc:
        again = shlex.join(["chunklab", "index", *args.paths, "--db", "NEW.sqlite"])
        keep = key_of_name(exc.found.name)
        raise UsageError(
            f"{exc}; an index file keeps one embedder's vectors: add to it with --embedder "
            f"{keep}, or re-index everything into a new file: {again} --embedder {key}"
        ) from None
    return key


def index_options(args: argparse.Namespace) -> dict[str, Any]:
    """The strategy's options; the semantic strategy finds its cuts with the index's embedder
    (named only when it is not the default, so earlier index files' fingerprints still hold)."""
    options = strategy_options(args)
    if "embedder" in STRATEGIES[args.strategy].options and args.embedder_key != DEFAULT_DENSE:
        options["embedder"] = args.embedder_key
    return options


def interrupted_line(
    args: argparse.Namespace, found: FoundDocuments, tally: Tally, how: str = "interrupted"
) -> str:
    """What Ctrl-C (or SIGTERM: `how` says which) leaves: the documents committed so far, and
    that a re-run resumes."""
    done = tally.indexed + tally.unchanged + len(tally.skipped)
    return (
        f"{how}: {done} of {len(found.documents)} documents done ({tally.indexed} indexed"
        + (f", {tally.unchanged} unchanged" if tally.unchanged else "")
        + (f", {len(tally.skipped)} skipped" if tally.skipped else "")
        + f") into {args.db}, which is intact; run the same command again to resume "
        "(what was indexed is not redone)"
    )


def write_documents(
    store: SQLiteStore, found: FoundDocuments, args: argparse.Namespace, tally: Tally
) -> Tally:
    """Read, chunk and embed here or on Dask workers; write here, one document per transaction,
    in the order the documents were found, so the file is the same however it was computed.
    `tally` is counted as it goes (Ctrl-C reports it)."""
    index = ParentChildIndex(store=store)
    known = store.documents_fingerprints(args.tenant)
    results = ingest.prepared(
        found.documents,
        known,
        args.strategy,
        index_options(args),
        args.tenant,
        workers=args.workers,
        scheduler=args.scheduler,
        embedder=args.embedder_key,
        parent_tokens=args.parent_tokens,
        password=pdf_password(args),
    )
    for n, ready in enumerate(results, start=1):
        if ready.error:
            tally.skipped.append(ready.path)
            warn(f"skipped {ready.error}")  # the message names the file and the problem
        elif ready.unchanged:
            tally.unchanged += 1  # same text, same settings, same chunklab: its rows are right
        else:
            assert ready.vectors is not None  # `prepare` embeds every document it returns
            with ctrl_c_after():  # the document committed is the document counted
                index_document(
                    index,
                    ready.parents,
                    ready.children,
                    tenant=args.tenant,
                    doc_id=ready.doc_id,
                    fingerprint=ready.fingerprint,
                    source=str(Path(ready.path).resolve()),
                    vectors=dict(
                        zip([c.chunk_id for c in ready.children], ready.vectors, strict=True)
                    ),
                )
                tally.children += len(ready.children)
                tally.indexed += 1
                tally.cuts.append(ready.cut)
            say_syntax_errors(ready.path, ready.children)
        progress(n, len(found.documents), ready.doc_id)
    return tally


def prune(store: SQLiteStore, args: argparse.Namespace) -> int:
    """Remove the tenant's documents indexed from under PATHS whose file is no longer there."""
    roots = [Path(p).resolve() for p in args.paths]
    gone = [
        doc_id
        for doc_id, source in store.documents(args.tenant).items()
        if source
        and any(Path(source) == root or root in Path(source).parents for root in roots)
        and not Path(source).is_file()
    ]
    for doc_id in gone:
        store.remove_document(args.tenant, doc_id)
    return len(gone)


def remedy(args: argparse.Namespace) -> str:
    """The flags of the chosen strategy that cut chunks MiniLM reads whole."""
    pieces = MiniLMEmbedder().max_tokens
    options = STRATEGIES[args.strategy].options
    if {"counter", "max_tokens"} <= set(options):
        return f"cut with --counter minilm --max-tokens {pieces} to fit"
    if {"counter", "size", "unit"} <= set(options):
        return f"cut with --unit tokens --counter minilm --size {pieces} to fit"
    return f"--strategy markdown --counter minilm --max-tokens {pieces} cuts to fit"


def report_index(args: argparse.Namespace, found: FoundDocuments, tally: Tally, pruned: int) -> int:
    """The closing lines: what was passed over (stderr), what was done (stdout); the exit code."""
    say_passed_over(
        found,
        "not indexed",
        links="--follow-links indexes them",
        **passed_over(found, args.strategy),
    )
    say_how_cut([(doc_id, str(path)) for doc_id, path in found.documents], args)
    warn_cut(add_cuts(tally.cuts), MiniLMEmbedder.name, MiniLMEmbedder().max_tokens, remedy(args))
    print(
        f"indexed {tally.indexed} document{'' if tally.indexed == 1 else 's'}, "
        f"{tally.children} children, tenant {args.tenant!r}, "
        f"into {args.db}"
        + (f"; {tally.unchanged} unchanged, skipped" if tally.unchanged else "")
        + (f"; {pruned} removed (--prune)" if pruned else "")
    )
    if tally.skipped:
        warn(f"{len(tally.skipped)} file(s) could not be read and were skipped (named above)")
        return USAGE_ERROR
    return 0
