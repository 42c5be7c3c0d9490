import json

import pytest

from chunklab import Chunk, FixedSizeChunker, load_document

from conftest import run_cli


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
    done = run_cli("chunk", "data/manual.md", "--strategy", "fixed", "--size", "200", "--overlap", "40")
    assert done.returncode == 0, done.stderr
    chunks = [Chunk.model_validate_json(line) for line in done.stdout.decode().splitlines()]
    api = FixedSizeChunker().split(load_document("manual"))
    assert [(c.text, c.start, c.end, c.token_count) for c in chunks] == [
        (c.text, c.start, c.end, c.token_count) for c in api
    ]
    assert chunks[0].doc_id == "manual" and chunks[0].chunk_id == "manual#0"


def test_token_mode_and_counter_options():
    done = run_cli("chunk", "data/manual.md", "--unit", "tokens", "--size", "50", "--overlap", "5")
    records = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert done.returncode == 0 and max(r["token_count"] for r in records) <= 50
    done = run_cli("chunk", "data/manual.md", "--counter", "approx")
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
    assert_usage_error(run_cli("chunk", "nope.md"), "nope.md", "cannot read")


def test_directory_instead_of_file():
    assert_usage_error(run_cli("chunk", "data"), "data: is a directory")


def test_invalid_utf8(tmp_path):
    path = tmp_path / "latin1.md"
    path.write_bytes("Manutenção".encode("latin-1"))
    assert_usage_error(run_cli("chunk", str(path)), "latin1.md: not valid UTF-8", "0xe7")


def test_unknown_strategy():
    assert_usage_error(run_cli("chunk", "data/manual.md", "--strategy", "magic"), "invalid choice: 'magic'")


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
    assert_usage_error(run_cli("chunk", "data/manual.md", *args), fragment)


def test_no_command_is_a_usage_error():
    assert_usage_error(run_cli(), "required: command")


def test_installed_script_exists():
    import shutil
    import sys
    from pathlib import Path

    script = Path(sys.executable).parent / "chunklab"
    assert script.exists() or shutil.which("chunklab"), "the `chunklab` console script is not installed"


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


@pytest.fixture
def indexed(tmp_path):
    db = tmp_path / "team.sqlite"
    done = run_cli("index", "data/travel_policy.md", "data/manual.md", "--db", str(db), "--tenant", "acme")
    assert done.returncode == 0, done.stderr
    assert b"indexed 2 documents" in done.stdout and done.stderr == b""  # no progress bar off a terminal
    return db


def test_search_prints_parents_with_heading_paths_and_the_matched_children(indexed):
    done = run_cli("search", str(indexed), "What is the lodging cap in New York?", "--tenant", "acme", "--parents", "1")
    out = done.stdout.decode()
    assert done.returncode == 0
    assert "matched children:" in out and "travel_policy#travel-policy/international-travel/per-diem-c0" in out
    assert "=== travel_policy: Travel Policy > International Travel > Per diem" in out
    assert "| New York | 105 | 350 |" in out


def test_search_json_and_tenant_isolation(indexed):
    done = run_cli("search", str(indexed), "travel expenses", "--tenant", "acme", "--json", "--k", "2")
    record = json.loads(done.stdout)
    assert len(record["children"]) == 2 and record["parents"][0]["heading_path"][0] == "Travel Policy"
    other = run_cli("search", str(indexed), "lodging cap", "--tenant", "globex")
    assert other.returncode == 0 and other.stdout.decode().strip() == "no matching children"


def test_index_and_search_errors(tmp_path, indexed):
    assert_usage_error(run_cli("search", str(tmp_path / "none.sqlite"), "q"), "none.sqlite: no such index file")
    assert_usage_error(run_cli("index", "nowhere", "--db", str(tmp_path / "i.sqlite")), "nowhere: no such file or folder")
    (tmp_path / "empty").mkdir()
    assert_usage_error(run_cli("index", str(tmp_path / "empty"), "--db", str(tmp_path / "i.sqlite")), "no Markdown files found")
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not sqlite" * 200)
    assert_usage_error(run_cli("search", str(junk), "q"), "junk.sqlite: not a chunklab index")
    assert_usage_error(run_cli("search", str(indexed), "q", "--k", "0"), "--k and --parents must be at least 1")
    assert_usage_error(run_cli("index", "data/manual.md", "--db", str(tmp_path / "i.sqlite"), "--max-tokens", "0"),
                       "--max-tokens: Input should be greater than or equal to 8")


def test_semantic_strategy_with_both_embedders():
    from chunklab.embeddings import EMBEDDERS
    from chunklab.semantic import SemanticChunker

    for embedder in ("wordllama", "hashing"):
        done = run_cli("chunk", "data/manual.md", "--strategy", "semantic", "--embedder", embedder, "--semantic-unit", "line")
        api = SemanticChunker(embedder=EMBEDDERS[embedder](), unit="line").split(load_document("manual"))
        assert done.returncode == 0
        assert [Chunk.model_validate_json(line).text for line in done.stdout.splitlines()] == [c.text for c in api]
    assert_usage_error(run_cli("chunk", "data/manual.md", "--strategy", "semantic", "--threshold", "3"),
                       "--threshold: Input should be less than or equal to 1")


def test_linearized_strategy_gives_the_articles_five_chunks():
    done = run_cli("chunk", "data/manual.md", "--strategy", "linearized")
    chunks = [Chunk.model_validate_json(line) for line in done.stdout.decode().splitlines()]
    assert done.returncode == 0 and len(chunks) == 5
    assert all("| Medida |" in c.text for c in chunks if "| Vibração |" in c.text or "0,08" in c.text)
