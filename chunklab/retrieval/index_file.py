"""The index file itself: opening it safely, its schema and format, and what its faults mean.

A writer takes the write lock before it reads anything (two `chunklab index` runs on one new file
take turns instead of deadlocking), writes the schema and the format record in one transaction,
then switches the file to write-ahead logging. A reader opens it read-only and only checks it.
What SQLite's errors mean for someone holding the file is said here in words (`FAULTS`).
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from chunklab.embeddings.registry import EmbedderIdentity
from chunklab.embeddings.static import WordLlamaEmbedder
from chunklab.retrieval import stored_ranking


class IndexFileError(ValueError):
    """A store file that cannot be used (corrupt, or not a chunklab index). Names the file."""


SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS chunklab_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS parents (
    tenant TEXT NOT NULL, chunk_id TEXT NOT NULL, record TEXT NOT NULL,
    PRIMARY KEY (tenant, chunk_id));
CREATE TABLE IF NOT EXISTS children (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant TEXT NOT NULL, chunk_id TEXT NOT NULL, parent_id TEXT NOT NULL, record TEXT NOT NULL,
    length INTEGER NOT NULL DEFAULT 1,
    UNIQUE (tenant, chunk_id));
CREATE INDEX IF NOT EXISTS parents_by_document ON parents (tenant, \
json_extract(record, '$.doc_id'));
CREATE INDEX IF NOT EXISTS children_by_document ON children (tenant, \
json_extract(record, '$.doc_id'));
CREATE INDEX IF NOT EXISTS children_by_parent ON children (tenant, parent_id);
CREATE TABLE IF NOT EXISTS documents (
    tenant TEXT NOT NULL, doc_id TEXT NOT NULL, fingerprint TEXT, source TEXT NOT NULL,
    PRIMARY KEY (tenant, doc_id));
"""
    + stored_ranking.SCHEMA
)
# 2: BM25 term counts and vectors kept in the file; 3: which embedder made the vectors recorded
# (`EMBEDDER_KEYS`). A version-2 file opens as it is (its vectors can only be WordLlama's: nothing
# else wrote vectors then) and becomes version 3 when a writer opens it; an older chunklab then
# refuses it by its format in one line, instead of mixing its vectors up.
FORMAT = "chunklab-index-3"
READABLE = ("chunklab-index-2", FORMAT)
EMBEDDER_KEYS = ("embedder", "embedder_dim", "embedder_model_sha256")
# What made the vectors of a file written before embedders were recorded: `chunklab index` stored
# WordLlama's, and nothing else did. Its weights' hash was not recorded ("").
LEGACY_EMBEDDER = EmbedderIdentity(WordLlamaEmbedder.name, WordLlamaEmbedder.dim)

# What SQLite's error texts mean for someone holding the file: (words in the error, what to say).
FAULTS = (
    (
        "locked",
        "is locked by another process (another `chunklab index`?) for longer than {timeout:g} s; "
        "nothing was changed, try again when it is done",
    ),
    ("readonly", "is read-only here; nothing was written"),
    (
        "full",
        "the disk is full; the document being written was rolled back, the index is as it was",
    ),
    (
        "malformed",
        "is corrupt (its pages do not read back as SQLite wrote them); "
        "make it again with `chunklab index`",
    ),
    ("not a database", "is not an SQLite file, so not a chunklab index"),
    (
        "unable to open",
        "cannot be opened or created: does its folder exist, and may it be written?",
    ),
    ("disk I/O", "a disk I/O error; the document being written was rolled back"),
)
BUSY_TIMEOUT = 5.0  # seconds to wait for another writer's lock before giving up


def check_format(db: sqlite3.Connection, path: Path, tables: set[str]) -> None:
    """The file is a chunklab index of the format this version reads."""
    if "chunklab_meta" not in tables:
        raise IndexFileError(f"{path}: is an SQLite file, but not a chunklab index")
    found = db.execute("SELECT value FROM chunklab_meta WHERE key = 'format'").fetchone()
    if found is None:
        raise IndexFileError(f"{path}: not a chunklab index (no format record)")
    if found[0] not in READABLE:
        raise IndexFileError(
            f"{path}: index format {found[0]!r}, this chunklab reads {' or '.join(READABLE)}"
        )


def create_or_check(db: sqlite3.Connection, path: Path) -> None:
    """A new file gets the schema and the format record; an existing one is checked. All in
    one write transaction that takes the write lock first: two `chunklab index` runs on the
    same new file take turns (a read lock taken first could deadlock with the other's
    commit, and SQLite would then fail at once instead of waiting), and neither sees the
    other's tables half made."""
    db.execute("BEGIN IMMEDIATE")
    try:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if tables:
            check_format(db, path, tables)
        for statement in filter(str.strip, SCHEMA.split(";")):
            db.execute(statement)
        db.execute("INSERT OR REPLACE INTO chunklab_meta VALUES ('format', ?)", (FORMAT,))
        db.commit()
    except BaseException:
        db.rollback()
        raise


def recorded_embedder(db: sqlite3.Connection) -> EmbedderIdentity | None:
    """What made the file's vectors: the record, `LEGACY_EMBEDDER` for a file with vectors and no
    record (written before records were kept), None for a file with no vectors yet."""
    meta = dict(
        db.execute(
            f"SELECT key, value FROM chunklab_meta WHERE key IN ({', '.join('?' * 3)})",
            EMBEDDER_KEYS,
        ).fetchall()
    )
    if EMBEDDER_KEYS[0] in meta:
        name, dim, model = (meta.get(key, "") for key in EMBEDDER_KEYS)
        return EmbedderIdentity(name, int(dim or 0), model)
    if db.execute("SELECT 1 FROM vectors LIMIT 1").fetchone():
        return LEGACY_EMBEDDER
    return None


def record_embedder(db: sqlite3.Connection, embedder: EmbedderIdentity) -> None:
    """Write the record, in the caller's transaction."""
    db.executemany(
        "INSERT OR REPLACE INTO chunklab_meta VALUES (?, ?)",
        zip(EMBEDDER_KEYS, (embedder.name, str(embedder.dim), embedder.model_hash), strict=True),
    )


def settings_for_writing(db: sqlite3.Connection, timeout: float) -> None:
    """A writer's connection settings (outside any transaction: WAL cannot be set inside)."""
    # Write-ahead log: readers never wait for a writer, a second writer waits for the
    # lock (busy timeout) instead of failing, and a killed writer leaves the last
    # committed document intact.
    use_wal(db, timeout)
    # In WAL mode, NORMAL syncs at checkpoints, not at every commit: a killed process
    # loses nothing committed, a power cut at most the last documents, and the file is
    # never corrupt (SQLite's documentation); each commit no longer waits on the disk.
    db.execute("PRAGMA synchronous=NORMAL")
    # The term counts are a B-tree keyed by (tenant, term, child): a document's rows
    # land all over it. SQLite's default 2 MB page cache then rereads pages from disk
    # for every document; 64 MB keeps the hot part of the tree in memory.
    db.execute("PRAGMA cache_size=-65536")
    db.execute("PRAGMA wal_autocheckpoint=16384")


def use_wal(db: sqlite3.Connection, timeout: float) -> None:
    """Switch the file to WAL, once for its life (the mode is kept in the file). The switch
    needs the file to itself, and SQLite refuses it at once, without the busy timeout, while
    another connection is there: on a file that two `chunklab index` runs have just created
    together, it is tried again until the other is done or the timeout has passed."""
    deadline = time.monotonic() + timeout
    while db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        try:
            db.execute("PRAGMA journal_mode=WAL")
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def connect(path: Path, read_only: bool, timeout: float) -> sqlite3.Connection:
    """An open, checked connection: read-only (a missing, empty or foreign file is an error, not
    a new index), or for writing (a new file gets the schema). SQLite errors pass through, for
    the caller to say in words (`fault_message`)."""
    if read_only:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=timeout)
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            raise IndexFileError(
                f"{path}: an empty file, not a chunklab index (make one with `chunklab index`)"
            )
        check_format(db, path, tables)
        return db
    if not path.parent.is_dir():
        raise IndexFileError(f"{path}: cannot be created, the folder {path.parent} does not exist")
    # IMMEDIATE: a write transaction takes the write lock when it begins, waiting for another
    # writer (busy timeout). A deferred one starts as a reader and, in WAL mode, fails at once if
    # another writer committed meanwhile.
    db = sqlite3.connect(path, timeout=timeout, isolation_level="IMMEDIATE")
    create_or_check(db, path)
    settings_for_writing(db, timeout)
    return db


def fault_message(exc: sqlite3.Error, timeout: float) -> str:
    """What an SQLite error means for someone holding the file, in words."""
    text = str(exc)
    said = next((say for words, say in FAULTS if words in text), None)
    return said.format(timeout=timeout) if said else f"SQLite error: {text}"
