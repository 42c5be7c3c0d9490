"""`chunklab chunk --format jsonl|csv|parquet`: the same chunks in every format, the columns
documented once (in `chunk --help`), and a missing pyarrow as one line naming the extra."""

import csv
import io
import json

import pytest
from conftest import DATA, ROOT, run_cli

from chunklab.cli.formats import COLUMNS, FORMAT_HELP, PARQUET_EXTRA
from chunklab.contracts import Chunk

DOC = str(DATA / "travel_policy.md")


@pytest.fixture(scope="module")
def as_jsonl() -> list[dict]:
    """The chunks `chunk` prints by default (JSON lines), what every other format must hold."""
    done = run_cli("chunk", DOC)
    assert done.returncode == 0, done.stderr.decode()
    return [json.loads(line) for line in done.stdout.decode().splitlines()]


def test_the_columns_are_chunks_fields_listed_once_in_the_help_and_the_readme_points_there():
    assert COLUMNS == tuple(Chunk.model_fields)
    help_text = " ".join(command_help("chunk").split())
    assert help_text.count(", ".join(COLUMNS)) == 1
    assert " ".join(FORMAT_HELP.split()) in help_text
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert ", ".join(COLUMNS) not in readme and "`chunklab chunk --help`" in readme


def command_help(name: str) -> str:
    from chunklab.cli import build_parser

    action = next(a for a in build_parser()._subparsers._group_actions if a.dest == "command")
    return action.choices[name].format_help()


def test_csv_holds_the_same_chunks_as_json_lines_row_for_row(as_jsonl):
    done = run_cli("chunk", DOC, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(done.stdout.decode(), newline="")))
    assert done.returncode == 0 and list(rows[0]) == list(COLUMNS)
    read_back = [
        {
            **row,
            **{k: int(row[k]) for k in ("ordinal", "token_count", "start", "end")},
            "parent_id": row["parent_id"] or None,
            "heading_path": json.loads(row["heading_path"]),
            "metadata": json.loads(row["metadata"]),
        }
        for row in rows
    ]
    assert read_back == as_jsonl and len(as_jsonl) > 3
    assert any("\n" in row["text"] for row in rows)  # multi-line texts survive CSV quoting


def test_parquet_holds_the_same_chunks_as_json_lines(as_jsonl):
    # Without pyarrow (the parquet extra, not in `make test`) the line it prints is the next test.
    pq = pytest.importorskip(
        "pyarrow.parquet", reason="pyarrow (the parquet extra) is not installed"
    )
    done = run_cli("chunk", DOC, "--format", "parquet")
    assert done.returncode == 0, done.stderr.decode()
    table = pq.read_table(io.BytesIO(done.stdout))
    assert table.column_names == list(COLUMNS)
    rows = [{**r, "metadata": json.loads(r["metadata"])} for r in table.to_pylist()]
    assert rows == as_jsonl and any(r["parent_id"] for r in rows)


def test_without_pyarrow_parquet_is_one_line_naming_the_extra_and_nothing_is_written(tmp_path):
    blocker = tmp_path / "pyarrow"  # found before an installed pyarrow, and fails as a missing one
    blocker.mkdir()
    (blocker / "__init__.py").write_text("raise ModuleNotFoundError(name='pyarrow')\n")
    done = run_cli("chunk", DOC, "--format", "parquet", env={"PYTHONPATH": str(tmp_path)})
    err = done.stderr.decode()
    assert done.returncode == 2 and done.stdout == b""
    assert err.count("\n") == 1 and PARQUET_EXTRA in err and "Traceback" not in err


def test_a_format_with_show_markdown_is_refused_in_one_line():
    done = run_cli("chunk", DOC, "--show-markdown", "--format", "csv")
    err = done.stderr.decode()
    assert done.returncode == 2 and err.count("\n") == 1 and "--show-markdown" in err
