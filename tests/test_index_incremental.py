"""`chunklab index` over time: unchanged documents skipped, changed ones replaced whole, gone ones
pruned, two writers at once, and a writer killed mid-run (issue 16, part 3)."""

import os
import signal
import sqlite3
import subprocess
import sys
import time

from conftest import ROOT, run_cli


def make_folder(folder, count, words=40, prefix="doc"):
    folder.mkdir(parents=True, exist_ok=True)
    for k in range(count):
        body = " ".join(f"word{(k * 7 + j) % 97}" for j in range(words))
        (folder / f"{prefix}{k:04d}.md").write_text(
            f"# Document {k}\n\n## Part\n\n{body}.\n\n| a | b |\n|---|---|\n| {k} | x |\n",
            encoding="utf-8",
        )


def index_until_stored(folder, db, at_least, output=subprocess.PIPE):
    """A `chunklab index` process over `folder`, returned once `at_least` of its documents are
    committed and it is still running (so a test can interrupt it mid-run)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "chunklab", "index", str(folder), "--db", str(db)],
        cwd=ROOT,
        stdout=output,
        stderr=output,
        # A test run started in the background by a shell without job control (`make test &` in
        # a script) passes SIGINT on *ignored*, and Python then sets no KeyboardInterrupt handler:
        # the Ctrl-C a test sends would never arrive. A terminal's Ctrl-C always finds Python's
        # default handler, so the child gets it back before Python starts.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline, stored = time.monotonic() + 60, 0
    while time.monotonic() < deadline and proc.poll() is None and stored < at_least:
        time.sleep(0.05)
        try:
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
                stored = con.execute("SELECT COUNT(*) FROM documents").fetchone()[0]
        except sqlite3.Error:
            continue
    assert proc.poll() is None, "the run finished before it could be interrupted; give it more"
    return proc


def rows(db):
    with sqlite3.connect(db) as con:
        children = con.execute(
            "SELECT tenant, chunk_id, COUNT(*) FROM children GROUP BY tenant, chunk_id"
        ).fetchall()
        documents = con.execute(
            "SELECT tenant, doc_id FROM documents ORDER BY tenant, doc_id"
        ).fetchall()
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert all(n == 1 for *_, n in children), "a child stored twice"
    return {(t, c) for t, c, _ in children}, documents


def test_unchanged_documents_are_skipped_and_a_changed_one_is_replaced_whole(tmp_path):
    folder, db = tmp_path / "docs", tmp_path / "index.db"
    make_folder(folder, 5)
    first = run_cli("index", str(folder), "--db", str(db))
    assert first.returncode == 0 and b"indexed 5 documents" in first.stdout
    before, _ = rows(db)
    again = run_cli("index", str(folder), "--db", str(db))
    assert (
        again.returncode == 0
        and b"indexed 0 documents" in again.stdout
        and b"5 unchanged, skipped" in again.stdout
    )
    assert rows(db)[0] == before
    (folder / "doc0002.md").write_text("# Document 2\n\nShort now.\n", encoding="utf-8")
    changed = run_cli("index", str(folder), "--db", str(db))
    assert b"indexed 1 document," in changed.stdout and b"4 unchanged" in changed.stdout
    after, _ = rows(db)
    doc2 = {c for t, c in after if "doc0002" in c}
    assert doc2 and not any("part" in c for c in doc2), (
        "the old sections of the changed document are gone"
    )
    # A different budget makes different rows: nothing is skipped.
    budget = run_cli("index", str(folder), "--db", str(db), "--max-tokens", "60")
    assert b"indexed 5 documents" in budget.stdout


def test_prune_removes_documents_whose_files_are_gone_and_nothing_else(tmp_path):
    folder, other, db = tmp_path / "docs", tmp_path / "other", tmp_path / "index.db"
    make_folder(folder, 3)
    make_folder(other, 2, prefix="note")
    assert run_cli("index", str(folder), str(other), "--db", str(db)).returncode == 0
    (folder / "doc0001.md").unlink()
    kept = run_cli("index", str(folder), "--db", str(db))
    assert len(rows(db)[1]) == 5 and b"removed" not in kept.stdout  # without --prune nothing goes
    pruned = run_cli("index", str(folder), "--db", str(db), "--prune")
    assert pruned.returncode == 0 and b"1 removed (--prune)" in pruned.stdout
    documents = [d for _, d in rows(db)[1]]
    assert len(documents) == 4 and not any(d.endswith("doc0001") for d in documents)
    assert not any(c.startswith("doc0001#") for _, c in rows(db)[0]) and any(
        c.startswith("note0001#") for _, c in rows(db)[0]
    )


def test_two_writers_at_once_lose_nothing(tmp_path):
    db = tmp_path / "index.db"
    folders = [tmp_path / "a", tmp_path / "b"]
    for folder in folders:
        make_folder(folder, 40)
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "chunklab",
                "index",
                str(folder),
                "--db",
                str(db),
                "--tenant",
                folder.name,
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for folder in folders
    ]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [o[1] for o in outs]
    children, documents = rows(db)
    assert sorted({t for t, _ in documents}) == ["a", "b"] and len(documents) == 80
    alone = tmp_path / "alone.db"
    assert run_cli("index", str(folders[0]), "--db", str(alone), "--tenant", "a").returncode == 0
    assert {c for t, c in children if t == "a"} == {c for _, c in rows(alone)[0]}


def test_a_writer_killed_mid_run_leaves_an_index_that_searches_and_completes(tmp_path):
    folder, db = tmp_path / "docs", tmp_path / "index.db"
    make_folder(folder, 160, words=200)  # ample after 20 stored: the kill lands mid-run
    proc = index_until_stored(folder, db, 20, subprocess.DEVNULL)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    children, documents = rows(db)  # opens, passes integrity_check, no child twice
    assert 20 <= len(documents) < 160
    found = run_cli("search", str(db), "word5 word12")
    assert found.returncode == 0, found.stderr
    done = run_cli("index", str(folder), "--db", str(db))
    assert done.returncode == 0
    assert f"{len(documents)} unchanged".encode() in done.stdout  # what was committed is not redone
    clean = tmp_path / "clean.db"
    assert run_cli("index", str(folder), "--db", str(clean)).returncode == 0
    assert rows(db)[0] == rows(clean)[0] and len(rows(db)[1]) == 160


def test_writers_creating_the_same_new_file_at_once_all_open_it(tmp_path):
    """The schema and the format record are written in one transaction: a writer never sees
    another's tables half made (and calls the file foreign) or inserts the format record twice.
    Six processes, already started and imported, open new files at the same instants."""
    import multiprocessing
    import time

    paths = [str(tmp_path / f"new-{n}.db") for n in range(20)]
    with multiprocessing.get_context("spawn").Pool(6) as pool:
        start = time.time() + 3.0  # every worker is up and has imported chunklab by then
        said = pool.starmap(open_at, [(paths, start)] * 6)
    assert said == [["ok"] * len(paths)] * 6, said


def open_at(paths: list[str], start: float) -> list[str]:
    """Open each path for writing, the k-th at start + k * 0.25 s (the same instant in every
    process), and say what happened."""
    import time

    from chunklab.retrieval.index_file import IndexFileError
    from chunklab.retrieval.sqlite_store import SQLiteStore

    said = []
    for k, path in enumerate(paths):
        time.sleep(max(0.0, start + k * 0.25 - time.time()))
        try:
            SQLiteStore(path).close()
            said.append("ok")
        except IndexFileError as exc:
            said.append(str(exc))
    return said
