import json
import shutil

import pytest
from conftest import ROOT, run_cli

from chunklab import Chunk, FixedSizeChunker, load_document
from chunklab.retrieval.sqlite_store import SQLiteStore


def assert_usage_error(done, *fragments):
    """Exit 2, exactly one line on stderr that names the problem, nothing on stdout."""
    stderr = done.stderr.decode()
    assert done.returncode == 2, stderr
    assert stderr.count("\n") == 1 and stderr.startswith("chunklab: error: "), stderr
    assert "Traceback" not in stderr
    for fragment in fragments:
        assert fragment in stderr, stderr
    assert done.stdout == b""


def test_chunk_prints_one_json_chunk_per_line_matching_the_api():
    done = run_cli(
        "chunk", "data/manual.md", "--strategy", "fixed", "--size", "200", "--overlap", "40"
    )
    assert done.returncode == 0, done.stderr
    chunks = [Chunk.model_validate_json(line) for line in done.stdout.decode().splitlines()]
    api = FixedSizeChunker().split(load_document("manual"))
    assert [(c.text, c.start, c.end, c.token_count) for c in chunks] == [
        (c.text, c.start, c.end, c.token_count) for c in api
    ]
    assert chunks[0].doc_id == "manual" and chunks[0].chunk_id == "manual#0"


def test_token_mode_and_counter_options():
    done = run_cli(
        "chunk",
        "data/manual.md",
        "--strategy",
        "fixed",
        "--unit",
        "tokens",
        "--size",
        "50",
        "--overlap",
        "5",
    )
    records = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert done.returncode == 0 and max(r["token_count"] for r in records) <= 50
    done = run_cli("chunk", "data/manual.md", "--strategy", "fixed", "--counter", "approx")
    assert done.returncode == 0
    assert json.loads(done.stdout.decode().splitlines()[0])["token_count"] == 41  # round(31*4/3)


def test_same_output_in_every_process():
    outputs = {
        run_cli("chunk", "data/travel_policy.md", env={"PYTHONHASHSEED": seed}).stdout
        for seed in ("0", "1", "12345")
    }
    assert len(outputs) == 1


@pytest.mark.parametrize("content", [b"", b"   \n\n\t  \n"])
def test_empty_or_blank_input_gives_no_chunks_and_exit_0(tmp_path, content):
    path = tmp_path / "blank.md"
    path.write_bytes(content)
    done = run_cli("chunk", str(path))
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


def test_missing_file(tmp_path):
    assert_usage_error(run_cli("chunk", "nope.md"), "nope.md: no such file or folder")


def test_a_folder_without_documents_is_one_line(tmp_path):
    (tmp_path / "empty").mkdir()
    assert_usage_error(run_cli("chunk", str(tmp_path / "empty")), "no documents (.md, ")


def test_invalid_utf8(tmp_path):
    path = tmp_path / "latin1.md"
    path.write_bytes("Manutenção".encode("latin-1"))
    assert_usage_error(run_cli("chunk", str(path)), "latin1.md: not valid UTF-8", "0xe7")


def test_unknown_strategy():
    assert_usage_error(
        run_cli("chunk", "data/manual.md", "--strategy", "magic"), "invalid choice: 'magic'"
    )


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--size", "abc"], "argument --size: invalid int value: 'abc'"),
        (["--size", "0"], "--size: Input should be greater than 0"),
        (["--overlap", "-1"], "--overlap: Input should be greater than or equal to 0"),
        (["--size", "50", "--overlap", "50"], "overlap (50) must be smaller than size (50)"),
        (["--unit", "pages"], "argument --unit: invalid choice: 'pages'"),
    ],
)
def test_bad_numbers_and_options(args, fragment):
    assert_usage_error(run_cli("chunk", "data/manual.md", "--strategy", "fixed", *args), fragment)


def test_bare_chunklab_prints_the_usage_and_every_subcommand():
    done = run_cli()
    out = done.stdout.decode()
    assert done.returncode == 0 and out.startswith("usage: chunklab")
    for command in ("chunk", "index", "search", "tenants", "experiment"):
        assert f"\n    {command}" in out, command


def test_version():
    from chunklab import __version__

    done = run_cli("--version")
    assert done.returncode == 0 and done.stdout.decode().strip() == f"chunklab {__version__}"


@pytest.mark.parametrize("command", ["chunk", "index", "search", "tenants", "experiment"])
def test_every_subcommand_help_shows_defaults_and_an_example(command):
    import argparse

    from chunklab.cli import build_parser

    done = run_cli(command, "--help")
    out = " ".join(done.stdout.decode().split())
    assert done.returncode == 0
    assert "example" in out and f" chunklab {command} " in out
    subparsers = next(
        a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)
    )
    with_defaults = [
        a
        for a in subparsers.choices[command]._actions
        if a.option_strings and a.default not in (None, False, argparse.SUPPRESS)
    ]
    for action in with_defaults:
        shown = f"default: {action.default})" if "%(default)" not in (action.help or "") else ""
        assert shown in out or f"default {action.default})" in out, action.option_strings


def test_max_tokens_help_names_every_strategy_that_uses_it():
    from chunklab.chunkers.registry import STRATEGIES

    help_text = " ".join(run_cli("chunk", "--help").stdout.decode().split())
    users = [s.name for s in STRATEGIES.values() if "max_tokens" in s.options]
    assert users == ["markdown", "semantic", "code"]
    assert (
        f"--max-tokens MAX_TOKENS hard token budget of a chunk ({', '.join(users)}; default 200)"
        in help_text
    )


def test_chunk_defaults_to_the_markdown_strategy_and_fixed_is_one_flag_away():
    from chunklab import MarkdownChunker

    default = [
        Chunk.model_validate_json(line)
        for line in run_cli("chunk", "data/travel_policy.md").stdout.splitlines()
    ]
    assert [c.text for c in default] == [
        c.text for c in MarkdownChunker().split(load_document("travel_policy"))
    ]
    fixed = run_cli("chunk", "data/travel_policy.md", "--strategy", "fixed")
    assert json.loads(fixed.stdout.splitlines()[0])["chunk_id"] == "travel_policy#0"


@pytest.mark.parametrize(
    "strategy, flag, value",
    [
        ("markdown", "--size", "100"),
        ("markdown", "--overlap", "10"),
        ("markdown", "--unit", "tokens"),
        ("fixed", "--max-tokens", "50"),
        ("fixed", "--prefix", "none"),
        ("structural", "--overlap", "5"),
        ("linearized", "--table-mode", "whole"),
        ("semantic", "--size", "10"),
    ],
)
def test_a_flag_the_strategy_ignores_is_an_error(strategy, flag, value):
    assert_usage_error(
        run_cli("chunk", "data/manual.md", "--strategy", strategy, flag, value),
        f"{flag} does not apply to --strategy {strategy} (it applies to: ",
    )


def test_threshold_with_a_relative_breakpoint_is_an_error():
    assert_usage_error(
        run_cli(
            "chunk",
            "data/manual.md",
            "--strategy",
            "semantic",
            "--breakpoint",
            "percentile",
            "--threshold",
            "0.5",
            "--embedder",
            "hashing",
        ),
        "--threshold applies to --breakpoint threshold only, not percentile",
    )


def test_installed_script_exists():
    import shutil
    import sys
    from pathlib import Path

    script = Path(sys.executable).parent / "chunklab"
    assert script.exists() or shutil.which("chunklab"), (
        "the `chunklab` console script is not installed"
    )


@pytest.mark.parametrize("strategy, expected", [("structural", 11), ("structural-repack", 6)])
def test_structural_strategies_give_the_articles_counts(strategy, expected):
    done = run_cli("chunk", "data/manual.md", "--strategy", strategy)
    assert done.returncode == 0 and len(done.stdout.splitlines()) == expected


def test_markdown_strategy_respects_max_tokens():
    done = run_cli("chunk", "data/travel_policy.md", "--strategy", "markdown", "--max-tokens", "45")
    records = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert done.returncode == 0 and records and max(r["token_count"] for r in records) <= 45
    assert records[0]["parent_id"] and records[0]["heading_path"] == ["Travel Policy"]


@pytest.mark.parametrize("value", ["0", "-3"])
def test_markdown_max_tokens_must_be_positive(value):
    assert_usage_error(
        run_cli("chunk", "data/manual.md", "--strategy", "markdown", "--max-tokens", value),
        "--max-tokens: Input should be greater than or equal to 8",
    )


@pytest.fixture(scope="module")
def indexed_once(tmp_path_factory):
    """The index the search tests read, built by the CLI once per module (it was built again for
    each of 11 tests: a process and an index run each, about a tenth of this file's time)."""
    db = tmp_path_factory.mktemp("indexed") / "team.sqlite"
    done = run_cli(
        "index", "data/travel_policy.md", "data/manual.md", "--db", str(db), "--tenant", "acme"
    )
    assert done.returncode == 0, done.stderr
    assert (
        b"indexed 2 documents" in done.stdout and done.stderr == b""
    )  # no progress bar off a terminal
    return db


@pytest.fixture
def indexed(indexed_once, tmp_path):
    """A test's own copy of that index: a test that adds a tenant, locks or corrupts the file
    changes its copy only. The CLI has exited, so its WAL is checkpointed into the one file."""
    assert not indexed_once.with_name(indexed_once.name + "-wal").exists()
    db = tmp_path / "team.sqlite"
    shutil.copyfile(indexed_once, db)
    return db


def test_search_prints_parents_with_heading_paths_and_the_matched_children(indexed):
    done = run_cli(
        "search",
        str(indexed),
        "What is the lodging cap in New York?",
        "--tenant",
        "acme",
        "--parents",
        "1",
    )
    out = done.stdout.decode()
    assert done.returncode == 0
    assert (
        "matched children:" in out
        and "travel_policy#travel-policy/international-travel/per-diem-c0" in out
    )
    assert "=== travel_policy: Travel Policy > International Travel > Per diem" in out
    assert "| New York | 105 | 350 |" in out


def test_search_json_and_tenant_isolation(indexed):
    done = run_cli(
        "search", str(indexed), "travel expenses", "--tenant", "acme", "--json", "--k", "2"
    )
    record = json.loads(done.stdout)
    assert (
        len(record["children"]) == 2 and record["parents"][0]["heading_path"][0] == "Travel Policy"
    )
    # Issue 39: each child's text (what matched), each parent's text and token count.
    store = SQLiteStore(indexed, read_only=True)
    for child in record["children"]:
        stored = store.child("acme", child["chunk_id"])
        assert (child["text"], child["token_count"]) == (stored.text, stored.token_count)
        assert child["parent_id"] == stored.parent_id and child["doc_id"] == stored.doc_id
    store.close()
    for parent in record["parents"]:  # what is handed over (a section, or a window of one)
        assert parent["text"].strip() and parent["token_count"] > 0
    other = run_cli("search", str(indexed), "lodging cap", "--tenant", "globex")
    assert_usage_error(
        other, "tenant 'globex' has no documents; the index holds 'acme'", "chunklab tenants"
    )


def test_index_and_search_errors(tmp_path, indexed):
    assert_usage_error(
        run_cli("search", str(tmp_path / "none.sqlite"), "q"), "none.sqlite: no such index file"
    )
    assert_usage_error(
        run_cli("index", "nowhere", "--db", str(tmp_path / "i.sqlite")),
        "nowhere: no such file or folder",
    )
    (tmp_path / "empty").mkdir()
    assert_usage_error(
        run_cli("index", str(tmp_path / "empty"), "--db", str(tmp_path / "i.sqlite")),
        "no documents (.md, .markdown, .txt, .html, .htm, .docx, .pdf) found",
    )
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not sqlite" * 200)
    assert_usage_error(
        run_cli("search", str(junk), "lodging"),
        "junk.sqlite: is not an SQLite file, so not a chunklab index",
    )
    assert_usage_error(
        run_cli("search", str(indexed), "q", "--k", "0"), "--k and --parents must be at least 1"
    )
    assert_usage_error(
        run_cli("index", "data/manual.md", "--db", str(tmp_path / "i.sqlite"), "--max-tokens", "0"),
        "--max-tokens: Input should be greater than or equal to 8",
    )


def test_semantic_strategy_with_both_embedders():
    from chunklab.chunkers.semantic import SemanticChunker
    from chunklab.embeddings.registry import EMBEDDERS

    for embedder in ("wordllama", "hashing"):
        done = run_cli(
            "chunk",
            "data/manual.md",
            "--strategy",
            "semantic",
            "--embedder",
            embedder,
            "--semantic-unit",
            "line",
        )
        api = SemanticChunker(embedder=EMBEDDERS[embedder](), unit="line").split(
            load_document("manual")
        )
        assert done.returncode == 0
        assert [Chunk.model_validate_json(line).text for line in done.stdout.splitlines()] == [
            c.text for c in api
        ]
    assert_usage_error(
        run_cli(
            "chunk",
            "data/manual.md",
            "--strategy",
            "semantic",
            "--breakpoint",
            "threshold",
            "--threshold",
            "3",
        ),
        "--threshold: Input should be less than or equal to 1",
    )
    # The default rule is relative, so a threshold alone is a flag that would be ignored.
    assert_usage_error(
        run_cli("chunk", "data/manual.md", "--strategy", "semantic", "--threshold", "0.5"),
        "--threshold applies to --breakpoint threshold only, not percentile",
    )
    assert_usage_error(
        run_cli(
            "chunk",
            "data/manual.md",
            "--strategy",
            "semantic",
            "--breakpoint",
            "stdev",
            "--percentile",
            "70",
        ),
        "--percentile applies to --breakpoint percentile only, not stdev",
    )


def test_semantic_optimal_partition_through_the_cli():
    from chunklab.chunkers.semantic import SemanticChunker
    from chunklab.embeddings.static import HashingEmbedder

    done = run_cli(
        "chunk",
        "data/topics.md",
        "--strategy",
        "semantic",
        "--embedder",
        "hashing",
        "--partition",
        "optimal",
        "--max-tokens",
        "80",
    )
    api = SemanticChunker(embedder=HashingEmbedder(), partition="optimal", max_tokens=80).split(
        load_document("topics")
    )
    assert done.returncode == 0
    assert [Chunk.model_validate_json(line).start for line in done.stdout.splitlines()] == [
        c.start for c in api
    ]


def test_linearized_strategy_gives_the_articles_five_chunks():
    done = run_cli("chunk", "data/manual.md", "--strategy", "linearized")
    chunks = [Chunk.model_validate_json(line) for line in done.stdout.decode().splitlines()]
    assert done.returncode == 0 and len(chunks) == 5
    assert all(
        "| Medida |" in c.text for c in chunks if "| Vibração |" in c.text or "0,08" in c.text
    )


# --- no traceback, no silent nonsense -------------------------------------------------------------


@pytest.mark.parametrize(
    "retriever, question",
    [
        ("overlap", ""),
        ("logcount", "   "),
        ("bm25", "the of what"),
        ("wordllama", "?!"),
        ("bm25", ""),
        ("wordllama", "what is the"),
    ],
)
def test_search_with_nothing_to_search_for_is_one_line_for_every_retriever(
    indexed, retriever, question
):
    done = run_cli("search", str(indexed), question, "--tenant", "acme", "--retriever", retriever)
    assert_usage_error(done, "has no word to search for")


def test_the_api_refuses_an_empty_question_with_a_validation_error():
    from pydantic import ValidationError

    from chunklab import MarkdownChunker
    from chunklab.retrieval.index import ParentChildIndex, index_document
    from chunklab.retrieval.retrievers import RETRIEVERS

    doc = load_document("travel_policy")
    chunker = MarkdownChunker(max_tokens=60)
    for name, retriever in RETRIEVERS.items():
        index = ParentChildIndex(retriever=retriever())
        index_document(index, chunker.parents(doc), chunker.split(doc))
        for question in ("", " \n", "what is the"):
            with pytest.raises(ValidationError, match="no word to search for"):
                index.search(question)
        assert index.search("lodging cap New York", k=1), name


def test_search_never_creates_or_changes_a_file(tmp_path):
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    assert_usage_error(
        run_cli("search", str(empty), "lodging"),
        "empty.sqlite: an empty file, not a chunklab index",
    )
    assert empty.read_bytes() == b""
    assert_usage_error(run_cli("tenants", str(empty)), "empty.sqlite")
    assert empty.read_bytes() == b"" and not (tmp_path / "none.sqlite").exists()


def test_tenants_lists_documents_sections_and_chunks(indexed):
    import sqlite3

    other = run_cli("index", "data/topics.md", "--db", str(indexed), "--tenant", "globex")
    assert other.returncode == 0, other.stderr
    done = run_cli("tenants", str(indexed))
    lines = done.stdout.decode().splitlines()
    assert done.returncode == 0 and lines[0].split() == [
        "tenant",
        "documents",
        "sections",
        "chunks",
    ]
    db = sqlite3.connect(indexed)
    for line in lines[1:]:
        tenant, documents, sections, chunks = line.split()
        assert (
            int(sections)
            == db.execute("SELECT COUNT(*) FROM parents WHERE tenant = ?", (tenant,)).fetchone()[0]
        )
        assert (
            int(chunks)
            == db.execute("SELECT COUNT(*) FROM children WHERE tenant = ?", (tenant,)).fetchone()[0]
        )
    assert [(line.split()[0], line.split()[1]) for line in lines[1:]] == [
        ("acme", "2"),
        ("globex", "1"),
    ]


def test_index_names_each_unreadable_file_indexes_the_rest_and_counts_other_types(tmp_path):
    docs = tmp_path / "docs"
    (docs / "team").mkdir(parents=True)
    (docs / ".git").mkdir()
    (docs / "policy.md").write_text(
        (ROOT / "data" / "travel_policy.md").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (docs / "team" / "notes.txt").write_text(
        "Standup is at 9:30 every weekday.\n", encoding="utf-8"
    )
    (docs / "latin1.md").write_bytes("Manutenção preventiva".encode("latin-1"))
    (docs / "team" / "broken.md").write_bytes(b"\xff\xfe\x00\xd8")  # a UTF-16 BOM, then nonsense
    (docs / "diagram.png").write_bytes(b"\x89PNG")
    (docs / "slides.pdf").write_bytes(b"%PDF-1.4")
    (docs / "scan.pdf").write_bytes(b"%PDF-1.4")
    (docs / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    db = tmp_path / "i.sqlite"
    done = run_cli("index", str(docs), "--db", str(db))
    err = done.stderr.decode().splitlines()
    assert done.returncode == 2, done.stderr
    assert "indexed 2 documents" in done.stdout.decode()
    assert any(
        line.startswith("chunklab: skipped ") and "latin1.md: not valid UTF-8" in line
        for line in err
    )
    assert any("broken.md: starts with a UTF-16 byte-order mark" in line for line in err)
    assert (
        "chunklab: not indexed (not a document type chunklab reads): 2 files: 1 .png, 1 hidden"
        in err
    )
    assert "Traceback" not in done.stderr.decode()
    found = run_cli("search", str(db), "standup weekday", "--json")
    assert json.loads(found.stdout)["children"][0]["chunk_id"].startswith("team/notes#")


def test_a_document_is_stored_whole_or_not_at_all(tmp_path, monkeypatch):
    from chunklab import MarkdownChunker
    from chunklab.retrieval.index import ParentChildIndex, index_document
    from chunklab.retrieval.sqlite_store import SQLiteStore

    doc = load_document("travel_policy")
    chunker = MarkdownChunker(max_tokens=40)
    store = SQLiteStore(tmp_path / "i.sqlite")
    index = ParentChildIndex(store=store)
    index_document(index, chunker.parents(doc), chunker.split(doc), tenant="acme")
    before = (
        [p.model_dump() for p in store.parents("acme")],
        [c.model_dump() for c in store.children("acme")],
    )

    # The new version of the document fails while its third section is being written.
    new = doc.model_copy(update={"text": doc.text.replace("350", "360")})
    parents, children = chunker.parents(new), chunker.split(new)
    written = []
    real_dump = type(children[0]).model_dump_json

    def failing_dump(self, *args, **kwargs):
        written.append(self.chunk_id)
        if len(written) > 6:
            raise OSError("disk unplugged")
        return real_dump(self, *args, **kwargs)

    monkeypatch.setattr(type(children[0]), "model_dump_json", failing_dump)
    with pytest.raises(OSError):
        index_document(index, parents, children, tenant="acme")
    monkeypatch.undo()
    store.close()
    reopened = SQLiteStore(tmp_path / "i.sqlite")
    after = (
        [p.model_dump() for p in reopened.parents("acme")],
        [c.model_dump() for c in reopened.children("acme")],
    )
    assert after == before  # not half old, half new


def test_reindexing_a_document_drops_sections_it_no_longer_has(tmp_path):
    path = tmp_path / "doc.md"
    path.write_text("# A\n\nalpha\n\n# B\n\nbeta\n", encoding="utf-8")
    db = tmp_path / "i.sqlite"
    assert run_cli("index", str(path), "--db", str(db)).returncode == 0
    path.write_text("# A\n\nalpha again\n", encoding="utf-8")
    assert run_cli("index", str(path), "--db", str(db)).returncode == 0
    assert run_cli("tenants", str(db)).stdout.decode().splitlines()[1].split() == [
        "default",
        "1",
        "1",
        "1",
    ]


@pytest.mark.parametrize("k", ["0", "-3"])
def test_experiment_k_must_be_positive(tmp_path, k):
    assert_usage_error(
        run_cli("experiment", "--article", "--k", k), f"--k must be at least 1, not {k}"
    )


def test_experiment_out_pointing_at_a_file_stops_before_the_run(tmp_path):
    out = tmp_path / "results"
    out.write_text("my notes\n")
    done = run_cli(
        "experiment",
        "--docs",
        "data",
        "--questions",
        "data/example.questions.yaml",
        "--out",
        str(out),
    )
    assert_usage_error(done, "--out", "results: is a file")
    assert out.read_text() == "my notes\n"


def test_index_file_faults_are_one_line_each(tmp_path, indexed):
    import sqlite3

    assert_usage_error(
        run_cli("index", "data/manual.md", "--db", ""), "the index file name is empty"
    )
    assert_usage_error(
        run_cli("index", "data/manual.md", "--db", str(tmp_path / "no" / "i.sqlite")),
        "cannot be created, the folder",
        "does not exist",
    )
    holder = sqlite3.connect(indexed)
    holder.execute("BEGIN EXCLUSIVE")
    try:  # waits out the 5 s busy timeout, then says why
        assert_usage_error(
            run_cli("index", "data/topics.md", "--db", str(indexed)), "is locked by another process"
        )
    finally:
        holder.rollback()
        holder.close()
    raw = bytearray(indexed.read_bytes())
    raw[4096:] = bytes(len(raw) - 4096)
    indexed.write_bytes(bytes(raw))
    assert_usage_error(
        run_cli("search", str(indexed), "lodging cap", "--tenant", "acme"), "is corrupt"
    )


# --- inputs that used to crash, hang or give wrong answers (each ran on the old main) ------------


def test_deeply_nested_quotes_with_a_lazy_line_do_not_crash(tmp_path):
    path = tmp_path / "q.md"
    path.write_text("> " * 985 + "x\nlazy\n", encoding="utf-8")
    done = run_cli("chunk", str(path))
    assert done.returncode == 0, done.stderr.decode()[-300:]
    assert "lazy" in "".join(json.loads(line)["text"] for line in done.stdout.splitlines())


def test_only_no_break_spaces_give_no_chunks(tmp_path):
    path = tmp_path / "nbsp.md"
    path.write_text("\u00a0\u00a0\n\u3000\n", encoding="utf-8")
    done = run_cli("chunk", str(path))
    assert (done.returncode, done.stdout) == (0, b"")


def test_crlf_line_endings_leave_no_carriage_return_in_any_chunk(tmp_path):
    path = tmp_path / "crlf.md"
    path.write_bytes(
        b"# Title\r\n\r\nSome text\r\nmore text\r\n\r\n| a | b |\r\n|---|---|\r\n| 1 | 2 |\r\n"
    )
    for strategy in ("markdown", "fixed", "structural", "linearized"):
        done = run_cli("chunk", str(path), "--strategy", strategy)
        assert done.returncode == 0 and b"\\r" not in done.stdout, strategy


def test_repeated_rows_get_the_span_where_each_one_is(tmp_path):
    path = tmp_path / "rows.md"
    text = "| a | b |\n|---|---|\n" + "| x | y |\n" * 12
    path.write_text(text, encoding="utf-8")
    chunks = [
        Chunk.model_validate_json(line)
        for line in run_cli(
            "chunk", str(path), "--strategy", "linearized", "--size", "30"
        ).stdout.splitlines()
    ]
    spans = [(c.start, c.end) for c in chunks]
    assert len(set(spans)) == len(spans) == 12  # one row each, each at its own place
    assert all(text[c.start : c.end].strip() == "| x | y |" for c in chunks[1:])


@pytest.mark.parametrize("strategy", ["structural", "structural-repack", "linearized"])
def test_size_is_a_promise_even_for_one_long_line(tmp_path, strategy):
    path = tmp_path / "long.md"
    text = ("word " * 40 + "https://example.com/" + "x" * 3000 + " ") * 20
    path.write_text(text, encoding="utf-8")
    chunks = [
        Chunk.model_validate_json(line)
        for line in run_cli(
            "chunk", str(path), "--strategy", strategy, "--size", "200"
        ).stdout.splitlines()
    ]
    assert chunks and max(len(c.text) for c in chunks) <= 200
    assert "".join(c.text for c in chunks).replace(" ", "") == text.replace(" ", "")


def test_a_link_out_of_the_folder_is_not_followed_unless_asked(tmp_path):
    docs, secret = tmp_path / "docs", tmp_path / "private"
    docs.mkdir()
    secret.mkdir()
    (docs / "handbook.md").write_text("# Leave\n\nAnnual leave is 25 days.\n", encoding="utf-8")
    (secret / "keys.md").write_text("# Keys\n\nThe root password is hunter2.\n", encoding="utf-8")
    (docs / "keys.md").symlink_to(secret / "keys.md")
    (docs / "inner").symlink_to(secret)
    db = tmp_path / "i.sqlite"
    done = run_cli("index", str(docs), "--db", str(db))
    assert done.returncode == 0 and b"indexed 1 document," in done.stdout
    assert (
        b"not indexed: 2 link(s) to files outside the folder (--follow-links indexes them)"
        in done.stderr
    )
    followed = run_cli("index", str(docs), "--db", str(tmp_path / "all.sqlite"), "--follow-links")
    assert followed.returncode == 0 and b"indexed 3 documents" in followed.stdout
