"""Preparing documents for the index, in this process or on a Dask cluster; one writer stores them.

Reading, chunking and embedding a document needs nothing but the file: that is the work a folder
spreads over processes or machines. Writing does not spread: SQLite takes one writer at a time,
and an index that must be identical row for row to a single-process one (same `seq` numbers, same
order) needs its documents written in one order. So `prepare` is the unit of work, the same
function everywhere, and `prepared` yields its results in the order of the documents given,
whoever computed them, for the caller to write.

With Dask (`workers` or `scheduler`), the documents go in a Dask bag, a partition of a few
documents per task, collected in order, so a fast worker never makes the writer skip ahead.
`--workers N` runs the bag on Dask's process scheduler over a pool of N local processes: no
sockets, so it works with the network cut (a `distributed` LocalCluster talks TCP, even on one
machine). `--scheduler ADDRESS` sends it to an existing `distributed` cluster, whose workers must
see the files at the same paths (a shared disk). Each worker process loads its embedder (WordLlama
or MiniLM, by name) once. Dask is the optional `dask` extra; without it, `--workers` says how to
install it. What MiniLM left unread of each document's chunks comes back with it (`Prepared.cut`),
so the writer adds up the same counts however the work was spread.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from chunklab.chunkers.registry import DEFAULT_STRATEGY, OPTIONS, STRATEGIES
from chunklab.contracts import Chunk
from chunklab.documents.files import DocumentError
from chunklab.documents.reading import read_document
from chunklab.embeddings.minilm import Cut
from chunklab.embeddings.registry import DEFAULT_DENSE, EMBEDDERS
from chunklab.embeddings.static import EmbedderUnavailable
from chunklab.retrieval.small_to_big import DEFAULT_PARENT_TOKENS, parents_and_children
from chunklab.version import __version__

# Not `pip install chunklab[dask]`: the name chunklab on PyPI is another project.
DASK_HINT = (
    "in the chunklab folder, pip install -e '.[dask]' (the dask extra: dask[bag] and distributed)"
)


class DaskUnavailable(RuntimeError):
    """Dask was asked for and is not installed, or the cluster cannot be reached."""


class Prepared(NamedTuple):
    """One document made ready for the writer, or why it could not be."""

    doc_id: str
    path: str
    fingerprint: str | None = None
    parents: tuple[Chunk, ...] = ()
    children: tuple[Chunk, ...] = ()
    vectors: np.ndarray | None = None  # float32, one row per child
    unchanged: bool = False  # its fingerprint matched the index: nothing to write
    error: str = ""  # why it was skipped, in one line that names the file
    cut: Cut | None = None  # what the embedder did not read of the children (MiniLM's limit)


def settings_label(
    strategy: str, options: Mapping[str, Any], parent_tokens: int = DEFAULT_PARENT_TOKENS
) -> str:
    """The strategy and the options given, as one stable string: `max_tokens=200` for the default
    strategy with its budget (what earlier index files recorded), else every name and value; then
    the parents' cap. Files indexed before parents had a cap recorded no cap, so a re-run
    re-indexes their documents once, and a long section stored whole is replaced by its windows."""
    given = dict(sorted(options.items()))
    if strategy == DEFAULT_STRATEGY and set(given) <= {"max_tokens"}:
        label = f"max_tokens={given.get('max_tokens', OPTIONS['max_tokens'].default)}"
    else:
        label = f"strategy={strategy}|" + json.dumps(given, sort_keys=True)
    return f"{label}|parent_tokens={parent_tokens}"


def document_fingerprint(title: str, text: str, settings: str) -> str:
    """What a document's rows are made from: its text and title, the strategy and its options
    (`settings_label`) and the chunklab version (a new version may cut differently). Equal
    fingerprints, equal rows."""
    made_from = f"chunklab {__version__}|{settings}|{title}\n{text}"
    return hashlib.sha256(made_from.encode("utf-8", "surrogatepass")).hexdigest()


def prepare(
    doc_id: str,
    path: str,
    known: str | None,
    strategy: str,
    options: Mapping[str, Any],
    tenant: str,
    embedder: str = DEFAULT_DENSE,
    parent_tokens: int = DEFAULT_PARENT_TOKENS,
    password: str | None = None,
) -> Prepared:
    """Read, chunk and embed (with the registry's `embedder`) one document, unless its fingerprint
    equals `known` (what the index holds for it), no parent over `parent_tokens`. Never raises
    for a user's file (a missing or broken model is not the file's fault: `EmbedderUnavailable`
    stops the run): a bad one comes back with `error` set, one line naming the file, whatever
    failed (a `DocumentError`, or any exception, `RecursionError` and `MemoryError` included,
    from converting, chunking or embedding it; Ctrl-C still stops the run).

    Any registered strategy: its chunks are the children, their parents as `small_to_big` pairs
    them. Arguments are names and plain values, so the call pickles to a Dask worker; `password`
    opens encrypted PDFs."""

    try:
        doc = read_document(path, doc_id=doc_id, password=password)
    except DocumentError as exc:
        return Prepared(doc_id, path, error=str(exc))
    except (Exception, RecursionError, MemoryError) as exc:  # a converter's bug, not the run's
        return Prepared(doc_id, path, error=f"{path}: could not be converted: {failure(exc)}")
    settings = settings_label(strategy, options, parent_tokens)
    fingerprint = document_fingerprint(doc.title, doc.text, settings)
    if fingerprint == known:
        return Prepared(doc_id, path, fingerprint, unchanged=True)
    doc = doc.model_copy(update={"metadata": {**doc.metadata, "tenant": tenant}})
    try:
        chunker = STRATEGIES[strategy].build(**options)
        parents, children, _, _ = parents_and_children(chunker, doc, parent_tokens)
        model = EMBEDDERS[embedder]()
        vectors = model.embed_documents([c.text for c in children])
    except EmbedderUnavailable:
        raise  # the run's problem, not the document's: one line for the whole run
    except (Exception, RecursionError, MemoryError) as exc:
        return Prepared(doc_id, path, error=f"{path}: could not be chunked: {failure(exc)}")
    cut = getattr(model, "last_cut", None)  # only an embedder with a read limit has one
    return Prepared(
        doc_id,
        path,
        fingerprint,
        tuple(parents),
        tuple(children),
        vectors.astype(np.float32),
        cut=cut,
    )


def failure(exc: BaseException) -> str:
    """An unexpected exception as the one-line reason a document was skipped: its kind, and what
    it means for the two a user cannot read off the name (never a traceback)."""
    if isinstance(exc, RecursionError):
        return "RecursionError (nesting too deep)"
    if isinstance(exc, MemoryError):
        return "MemoryError (out of memory)"
    message = " ".join(str(exc).split())
    if len(message) > 200:
        message = message[:199] + "…"
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def _prepare_all(
    items: Sequence[tuple[str, str, str | None, str, dict[str, Any], str, str, int, str | None]],
) -> list[Prepared]:
    return [prepare(*item) for item in items]


def prepared(
    documents: Sequence[tuple[str, Path]],
    known: Mapping[str, str],
    strategy: str,
    options: Mapping[str, Any],
    tenant: str,
    workers: int | None = None,
    scheduler: str | None = None,
    per_task: int = 8,
    embedder: str = DEFAULT_DENSE,
    parent_tokens: int = DEFAULT_PARENT_TOKENS,
    password: str | None = None,
) -> Iterator[Prepared]:
    """`prepare` for every document, yielded in the order given: in this process by default, on
    `workers` local processes, or on the Dask cluster at `scheduler`. The cluster is reached
    before this returns, so a missing Dask or a wrong address is said before any work."""
    items = [
        (
            doc_id,
            str(path),
            known.get(doc_id),
            strategy,
            dict(options),
            tenant,
            embedder,
            parent_tokens,
            password,
        )
        for doc_id, path in documents
    ]
    if workers is None and scheduler is None:
        return (prepare(*item) for item in items)
    try:
        import dask
        import dask.bag
    except ImportError:
        raise DaskUnavailable(f"--workers and --scheduler need Dask: {DASK_HINT}") from None
    bag = dask.bag.from_sequence(
        items, npartitions=max(1, -(-len(items) // per_task))
    ).map_partitions(_prepare_all)
    partitions = bag.to_delayed()
    if scheduler is None:
        assert workers is not None  # neither given returned above
        return _on_local_processes(dask, partitions, workers)
    try:
        from distributed import Client
    except ImportError:
        raise DaskUnavailable(
            f"--scheduler needs Dask's distributed scheduler: {DASK_HINT}"
        ) from None
    try:
        client = Client(scheduler, timeout="5s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise DaskUnavailable(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    return _on_cluster(client, partitions)


def _on_local_processes(dask, partitions, workers: int) -> Iterator[Prepared]:
    """Dask's process scheduler on a pool of `workers` processes, a window of partitions at a
    time: no sockets (it runs with the network cut), and memory holds two windows of results.
    The next window is computed while the caller writes this one, and the pool lives for the
    whole run, so each process loads WordLlama once."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

    window = 4 * workers
    windows = [partitions[start : start + window] for start in range(0, len(partitions), window)]
    with (
        ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool,
        ThreadPoolExecutor(1) as ahead,
    ):

        def compute(parts):
            return dask.compute(*parts, scheduler="processes", pool=pool)

        coming = ahead.submit(compute, windows[0]) if windows else None
        for following in [*windows[1:], None]:
            assert coming is not None  # from_sequence makes one partition even of nothing
            done = coming.result()
            coming = ahead.submit(compute, following) if following is not None else None
            for part in done:
                yield from part


def _on_cluster(client, partitions) -> Iterator[Prepared]:
    """Every partition computed on the cluster at once, collected in order, each released once
    handed over; the client is closed at the end (or when the caller stops early)."""
    try:
        futures = client.compute(partitions)
        for future in futures:
            yield from future.result()
            future.release()
    finally:
        client.close()
