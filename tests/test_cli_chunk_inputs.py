"""`chunklab chunk` on what a user has at hand (issue 39): folders, several files, standard input
(`-`), and encrypted PDFs with their password; a bad file is one line, never a silent skip, and a
password is never printed."""

import io
import json
import shutil
import sys
from typing import NamedTuple

from conftest import DATA, run_cli
from test_cli import assert_usage_error

from chunklab import MarkdownChunker, read_document
from chunklab.cli import main

FORMATS = DATA / "formats"
PASSWORD = "secret"  # scripts/make_format_fixtures.sh: qpdf --encrypt secret secret 256


class Ran(NamedTuple):
    returncode: int
    stdout: bytes
    stderr: bytes


def run_here(capsys, monkeypatch, *args: str, input: bytes = b"", env: dict | None = None) -> Ran:
    """`chunklab ARGS` in this process (a new process costs seconds): what `run_cli` returns."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(input)))
    for name, value in (env or {}).items():
        monkeypatch.setenv(name, value)
    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return Ran(code, out.encode(), err.encode())


def chunk_lines(done) -> list[dict]:
    return [json.loads(line) for line in done.stdout.decode().splitlines()]


def test_several_files_and_a_folder_give_each_documents_chunks_in_turn(
    tmp_path, capsys, monkeypatch
):
    folder = tmp_path / "docs"
    (folder / "policies").mkdir(parents=True)
    shutil.copy(DATA / "travel_policy.md", folder / "policies" / "travel.md")
    (folder / "notes.txt").write_text("Parking is free on Sundays.\n", encoding="utf-8")
    (folder / "logo.svg").write_text("<svg/>", encoding="utf-8")
    (folder / "data.csv").write_text("a,b\n", encoding="utf-8")
    done = run_here(capsys, monkeypatch, "chunk", str(DATA / "manual.md"), str(folder))
    assert done.returncode == 0, done.stderr
    chunks = chunk_lines(done)
    ids = list(dict.fromkeys(c["doc_id"] for c in chunks))
    assert ids == ["manual", "notes", "policies/travel"]
    alone = MarkdownChunker().split(read_document(DATA / "manual.md"))
    assert [c["text"] for c in chunks if c["doc_id"] == "manual"] == [c.text for c in alone]
    assert done.stderr.decode().splitlines() == [
        "chunklab: not chunked (not a document type chunklab reads): 2 files: 1 .csv, 1 .svg"
    ]


def test_a_bad_file_among_several_is_named_the_others_chunked_and_exit_2(
    tmp_path, capsys, monkeypatch
):
    bad = tmp_path / "latin1.md"
    bad.write_bytes("Manutenção".encode("latin-1"))
    paths = [str(DATA / "manual.md"), str(bad), str(DATA / "travel_policy.md")]
    done = run_here(capsys, monkeypatch, "chunk", *paths)
    assert done.returncode == 2
    assert {c["doc_id"] for c in chunk_lines(done)} == {"manual", "travel_policy"}
    assert done.stderr.decode().splitlines() == [
        f"chunklab: skipped {bad}: not valid UTF-8 (byte 0xe7 at offset 7)",
        "chunklab: 1 file(s) could not be read and were skipped (named above)",
    ]


def test_standard_input_is_read_as_markdown_and_named_stdin():
    text = (DATA / "travel_policy.md").read_bytes()
    done = run_cli("chunk", "-", input=text)  # a real pipe, in a real process
    assert done.returncode == 0, done.stderr
    chunks = chunk_lines(done)
    from_file = MarkdownChunker().split(read_document(DATA / "travel_policy.md"))
    assert [c["text"] for c in chunks] == [c.text for c in from_file]
    assert {c["doc_id"] for c in chunks} == {"stdin"}


def test_standard_input_that_is_a_pdf_is_converted_and_its_errors_name_stdin(capsys, monkeypatch):
    pdf = (FORMATS / "travel_policy.pdf").read_bytes()
    done = run_here(capsys, monkeypatch, "chunk", "-", input=pdf)
    assert done.returncode == 0, done.stderr
    assert any("New York" in c["text"] for c in chunk_lines(done))
    html = b"<h1>Hi</h1><p>there</p>"
    as_html = run_here(capsys, monkeypatch, "chunk", "-", "--stdin-format", "html", input=html)
    assert [c["heading_path"] for c in chunk_lines(as_html)] == [["Hi"]]
    latin1 = "Manutenção".encode("latin-1")
    broken = run_here(capsys, monkeypatch, "chunk", "-", input=latin1)
    assert_usage_error(broken, "<stdin>: not valid UTF-8")
    assert "chunklab-stdin" not in broken.stderr.decode(), "never the temporary file's name"


def test_standard_input_in_the_middle_keeps_the_order_given(capsys, monkeypatch):
    paths = [str(DATA / "manual.md"), "-", str(DATA / "travel_policy.md")]
    done = run_here(capsys, monkeypatch, "chunk", *paths, input=b"# A\n\nb\n")
    ids = list(dict.fromkeys(c["doc_id"] for c in chunk_lines(done)))
    assert ids == ["manual", "stdin", "travel_policy"]


def test_stdin_twice_show_markdown_on_several_and_stdin_format_without_stdin_are_one_line(
    capsys, monkeypatch
):
    manual = str(DATA / "manual.md")
    for args, said in [
        (["-", "-"], "can be read once only"),
        ([manual, "-", "--show-markdown"], "--show-markdown prints one document's Markdown; 2"),
        ([manual, "--stdin-format", "pdf"], "- is not given"),
    ]:
        assert_usage_error(run_here(capsys, monkeypatch, "chunk", *args, input=b"x"), said)


# --- encrypted PDFs --------------------------------------------------------------------------


def test_an_encrypted_pdf_opens_with_its_password_by_flag_or_variable(capsys, monkeypatch):
    locked = str(FORMATS / "encrypted.pdf")
    by_flag = run_here(capsys, monkeypatch, "chunk", locked, "--password", PASSWORD)
    assert by_flag.returncode == 0, by_flag.stderr
    assert any("New York" in c["text"] for c in chunk_lines(by_flag))
    variable = {"CHUNKLAB_PDF_PASSWORD": PASSWORD}
    by_variable = run_here(capsys, monkeypatch, "chunk", locked, env=variable)
    assert by_variable.stdout == by_flag.stdout


def test_a_wrong_or_missing_password_is_one_line_exit_2_and_never_printed(
    tmp_path, capsys, monkeypatch
):
    locked = str(FORMATS / "encrypted.pdf")
    wrong = "hunter2-not-it"
    for args, env in [
        (["--password", wrong], {}),
        ([], {"CHUNKLAB_PDF_PASSWORD": wrong}),
        (["--password", wrong, "--format", "csv"], {}),
    ]:
        done = run_here(capsys, monkeypatch, "chunk", locked, *args, env=env)
        assert_usage_error(done, "encrypted.pdf: the PDF is encrypted and the password given is")
        assert wrong not in done.stderr.decode()
    missing = run_here(capsys, monkeypatch, "chunk", locked, env={"CHUNKLAB_PDF_PASSWORD": ""})
    assert_usage_error(missing, "encrypted.pdf: the PDF is encrypted: give its password")
    db = tmp_path / "i.sqlite"
    done = run_here(capsys, monkeypatch, "index", locked, "--db", str(db), "--password", wrong)
    assert done.returncode == 2 and "password given is wrong" in done.stderr.decode()
    assert wrong not in (done.stdout + done.stderr).decode()
    assert wrong.encode() not in db.read_bytes()
    variable = {"CHUNKLAB_PDF_PASSWORD": PASSWORD}
    done = run_here(capsys, monkeypatch, "index", locked, "--db", str(db), env=variable)
    assert done.returncode == 0, done.stderr
    assert PASSWORD.encode() not in db.read_bytes()
    found = run_here(capsys, monkeypatch, "search", str(db), "lodging cap New York", "--json")
    assert any("New York" in c["text"] for c in json.loads(found.stdout)["children"])
    helped = run_cli("chunk", "--help", env=variable).stdout.decode()
    assert "--password" in helped and PASSWORD not in helped
