"""Indexing on Dask (issue 16, part 4): the same file, row for row, as indexing in one process.

Reading, chunking and embedding run on two local worker processes (`--workers 2`, Dask's process
scheduler) or on an existing `distributed` cluster (`--scheduler ADDRESS`); one writer fills the
SQLite file in the order the documents were found. Every table is compared, `seq` numbers and
vector bytes included.
"""

import shutil
import sqlite3

import pytest
from conftest import DATA, REAL_DOCUMENTS, loopback_works, run_cli

TABLES = {
    "parents": "SELECT tenant, chunk_id, record FROM parents ORDER BY rowid",
    "children": (
        "SELECT seq, tenant, chunk_id, parent_id, record, length FROM children ORDER BY seq"
    ),
    "terms": "SELECT tenant, term, seq, tf, length FROM terms ORDER BY tenant, term, seq",
    "term_stats": "SELECT tenant, term, df FROM term_stats ORDER BY tenant, term",
    "tenant_stats": "SELECT tenant, children, length FROM tenant_stats ORDER BY tenant",
    "vectors": "SELECT seq, vector FROM vectors ORDER BY seq",
    "documents": (
        "SELECT tenant, doc_id, fingerprint, source FROM documents ORDER BY tenant, doc_id"
    ),
}


def rows(path):
    db = sqlite3.connect(path)
    return {table: db.execute(sql).fetchall() for table, sql in TABLES.items()}


@pytest.fixture
def folder(tmp_path):
    docs = tmp_path / "docs"
    (docs / "policies").mkdir(parents=True)
    for name in [*REAL_DOCUMENTS, "manual_md.md", "topics.md"]:
        shutil.copy(DATA / name, docs / name)
    shutil.copy(DATA / "travel_policy.md", docs / "policies" / "travel.md")
    (docs / "broken.md").write_bytes(b"# Bad\n\n\xff\xfe not UTF-8\n")  # skipped alike, named alike
    return docs


def index(folder, db, *extra):
    done = run_cli("index", str(folder), "--db", str(db), *extra)
    assert done.returncode == 2, done.stderr  # the broken file is skipped and said: exit 2
    assert b"broken.md" in done.stderr
    return done


def test_two_local_workers_make_the_same_file_row_for_row(folder, tmp_path):
    single, parallel = tmp_path / "single.sqlite", tmp_path / "parallel.sqlite"
    one = index(folder, single)
    two = index(folder, parallel, "--workers", "2")
    assert one.stdout.replace(b"single", b"X") == two.stdout.replace(b"parallel", b"X")
    expected, got = rows(single), rows(parallel)
    assert len(expected["children"]) > 100 and len(expected["vectors"]) == len(expected["children"])
    for table in TABLES:
        assert got[table] == expected[table], table


@pytest.mark.skipif(
    not loopback_works(), reason="no loopback interface (network cut): a Dask cluster talks TCP"
)
def test_an_existing_cluster_by_its_address_and_skipping_unchanged_documents(folder, tmp_path):
    distributed = pytest.importorskip("distributed")
    single, remote = tmp_path / "single.sqlite", tmp_path / "remote.sqlite"
    index(folder, single)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        index(folder, remote, "--scheduler", cluster.scheduler_address)
        again = index(folder, remote, "--scheduler", cluster.scheduler_address)
    assert b"indexed 0 documents" in again.stdout and b"8 unchanged" in again.stdout
    assert rows(remote) == rows(single)


@pytest.mark.parametrize(
    "flags, said",
    [
        (["--workers", "0"], b"--workers must be at least 1"),
        (["--workers", "2", "--scheduler", "tcp://127.0.0.1:9"], b"give one of them"),
        (
            ["--scheduler", "tcp://127.0.0.1:9"],
            b"cannot reach the Dask scheduler at tcp://127.0.0.1:9",
        ),
    ],
)
def test_bad_cluster_flags_are_one_line_and_exit_2(folder, tmp_path, flags, said):
    done = run_cli("index", str(folder), "--db", str(tmp_path / "x.sqlite"), *flags)
    assert done.returncode == 2
    assert said in done.stderr and b"Traceback" not in done.stderr
    assert len(done.stderr.decode().strip().splitlines()) == 1, done.stderr
    assert not (tmp_path / "x.sqlite").exists()


def test_without_dask_the_flag_says_how_to_install_it(folder, tmp_path):
    blocked = tmp_path / "no-dask"
    (blocked / "dask").mkdir(parents=True)
    (blocked / "dask" / "__init__.py").write_text(
        "raise ImportError('dask is not installed here')\n"
    )
    done = run_cli(
        "index",
        str(folder),
        "--db",
        str(tmp_path / "x.sqlite"),
        "--workers",
        "2",
        env={"PYTHONPATH": str(blocked)},
    )
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    assert b"need Dask" in done.stderr and b"pip install -e '.[dask]'" in done.stderr
    assert not (tmp_path / "x.sqlite").exists()  # said before any work: no empty index left behind
