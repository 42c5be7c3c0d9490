"""`chunk` and `index` on source code with `--strategy code` (issue 41): which files a folder gives
each strategy, small-to-big handing over the enclosing definition, and the bad inputs of a source
tree (a syntax error, a non-UTF-8 file, an unknown suffix, a 50,000-line generated file, minified
JavaScript on one line): one line each when there is something to say, never a traceback, never a
character of the file in no chunk."""

from __future__ import annotations

import json

from test_cli import assert_usage_error
from test_cli_chunk_inputs import chunk_lines, run_here
from test_code_chunker import SAMPLES, check_cut

from chunklab import Chunk, MarkdownChunker, read_document
from chunklab.chunkers.code import CodeChunker

ORDERS = '''"""Orders and what they cost."""

from decimal import Decimal


class Cart:
    """A shopping cart."""

    def __init__(self):
        self.lines = []

    def add(self, sku, price, quantity=1):
        """Add `quantity` of `sku` at `price`."""
        self.lines.append((sku, Decimal(price), quantity))

    def total(self):
        """What the cart costs, shipping included: free over 50."""
        subtotal = sum(price * quantity for _, price, quantity in self.lines)
        shipping = Decimal("0") if subtotal > 50 else Decimal("4.90")
        return subtotal + shipping


def receipt(cart):
    return "\\n".join(f"{sku} x{quantity}: {price}" for sku, price, quantity in cart.lines)
'''


def chunks_of(done) -> list[Chunk]:
    return [Chunk.model_validate(record) for record in chunk_lines(done)]


def errors_of(done) -> list[str]:
    return done.stderr.decode().splitlines()


def test_chunk_a_python_file_gives_the_libraries_chunks_function_aligned_with_scope_paths(
    tmp_path, capsys, monkeypatch
):
    path = tmp_path / "orders.py"
    path.write_text(ORDERS, encoding="utf-8")
    done = run_here(
        capsys, monkeypatch, "chunk", str(path), "--strategy", "code", "--max-tokens", "70"
    )
    assert (done.returncode, done.stderr) == (0, b"")
    chunks = chunks_of(done)
    doc = read_document(path, doc_id="orders.py")
    assert (doc.title, doc.metadata) == ("orders.py", {"language": "python"})
    assert [c.model_dump() for c in chunks] == [
        c.model_dump() for c in CodeChunker(max_tokens=70).split(doc)
    ]
    check_cut(doc, chunks, 70)
    assert {c.doc_id for c in chunks} == {"orders.py"}, "a source file keeps its suffix in its id"
    assert ("orders.py", "Cart") in [c.heading_path for c in chunks]
    for name in ("def add", "def total", "def receipt"):  # each fits the budget: never cut
        start = ORDERS.index(name)
        assert any(c.start <= start and ORDERS.find("\n\n", start) <= c.end for c in chunks), name


def test_a_folder_gives_source_files_to_code_and_documents_to_the_others(
    tmp_path, capsys, monkeypatch
):
    folder = tmp_path / "repo"
    (folder / "pkg").mkdir(parents=True)
    (folder / "pkg" / "util.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    (folder / "pkg" / "util.pyi").write_text("def f() -> int: ...\n", encoding="utf-8")
    (folder / "pkg" / "util.md").write_text("# Util\n\nWhat f returns.\n", encoding="utf-8")
    (folder / "setup.cfg").write_text("[metadata]\n", encoding="utf-8")
    as_code = run_here(capsys, monkeypatch, "chunk", str(folder), "--strategy", "code")
    assert as_code.returncode == 0, as_code.stderr
    assert sorted({c.doc_id for c in chunks_of(as_code)}) == ["pkg/util.py", "pkg/util.pyi"]
    assert errors_of(as_code) == [
        "chunklab: not chunked (not source code chunklab parses): 2 files: 1 .cfg, 1 .md; "
        "documents are read without --strategy code"
    ]
    # The default strategy reads what it read before source files were readable: the page only.
    as_docs = run_here(capsys, monkeypatch, "chunk", str(folder))
    assert as_docs.returncode == 0, as_docs.stderr
    assert {c.doc_id for c in chunks_of(as_docs)} == {"pkg/util"}
    assert errors_of(as_docs) == [
        "chunklab: not chunked (not a document type chunklab reads): 3 files: 1 .cfg, 1 .py, "
        "1 .pyi; use --strategy code for source files"
    ]
    only_code = tmp_path / "src"
    only_code.mkdir()
    (only_code / "app.js").write_text("function f() { return 1; }\n", encoding="utf-8")
    assert_usage_error(
        run_here(capsys, monkeypatch, "index", str(only_code), "--db", str(tmp_path / "i.sqlite")),
        "no documents (.md,",
        "; use --strategy code for source files",
    )


def test_index_a_source_tree_and_search_hands_over_the_enclosing_class(
    tmp_path, capsys, monkeypatch
):
    src = tmp_path / "src"
    (src / "shop").mkdir(parents=True)
    (src / "shop" / "orders.py").write_text(ORDERS, encoding="utf-8")
    for name, text in SAMPLES.items():
        (src / name).write_text(text, encoding="utf-8")
    db = tmp_path / "code.sqlite"
    args = ("--strategy", "code", "--max-tokens", "70")
    done = run_here(capsys, monkeypatch, "index", str(src), "--db", str(db), *args)
    assert (done.returncode, done.stderr) == (0, b""), done.stderr
    assert done.stdout.decode().startswith(f"indexed {len(SAMPLES) + 1} documents")
    found = run_here(
        capsys,
        monkeypatch,
        "search",
        str(db),
        "shipping free over 50",
        "--k",
        "1",
        "--parents",
        "1",
        "--json",
    )
    result = json.loads(found.stdout)
    (hit,) = result["children"]
    (parent,) = result["parents"]
    assert hit["chunk_id"].startswith("shop/orders.py#") and "def total" in hit["text"]
    assert parent["heading_path"] == ["orders.py", "Cart"]
    whole_class = ORDERS[ORDERS.index("class Cart") : ORDERS.index("\n\n\ndef receipt")]
    assert parent["text"] == "orders.py > Cart\n\n" + whole_class


def test_a_syntax_error_still_chunks_and_is_one_line_naming_the_lines_exit_0(
    tmp_path, capsys, monkeypatch
):
    path = tmp_path / "broken.py"
    source = "def good():\n    return 1\n\ndef bad(:\n    return (\n\nclass After:\n    pass\n"
    path.write_text(source, encoding="utf-8")
    done = run_here(
        capsys, monkeypatch, "chunk", str(path), "--strategy", "code", "--max-tokens", "12"
    )
    assert done.returncode == 0
    assert errors_of(done) == [
        f"chunklab: {path}: syntax errors on lines 4, 5: chunked around them "
        "(their chunks say syntax_errors)"
    ]
    chunks = chunks_of(done)
    check_cut(read_document(path), chunks, 12)
    assert any(c.metadata.get("syntax_errors") for c in chunks)
    indexed = run_here(
        capsys,
        monkeypatch,
        "index",
        str(path),
        "--db",
        str(tmp_path / "i.sqlite"),
        "--strategy",
        "code",
    )
    assert indexed.returncode == 0 and "indexed 1 document," in indexed.stdout.decode()
    assert errors_of(indexed) == errors_of(done)


def test_a_syntax_error_is_a_conversion_warning_of_the_document_and_a_clean_file_has_none(
    tmp_path,
):
    """The document says it too, where every reader's warnings are (`conversion_warnings`), so an
    API user who never chunks still learns which lines the tree could not place."""
    broken = tmp_path / "broken.py"
    source = "def good():\n    return 1\n\ndef bad(:\n    return (\n\nclass After:\n    pass\n"
    broken.write_text(source, encoding="utf-8")
    warnings = read_document(broken).metadata["conversion_warnings"]
    assert len(warnings) == 1 and warnings[0].startswith("syntax errors at lines 4, 5:")
    many = tmp_path / "many.js"
    many.write_text("".join(f"let a{n} = ;\n" for n in range(14)), encoding="utf-8")
    (said,) = read_document(many).metadata["conversion_warnings"]
    assert "lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 4 more:" in said
    clean = tmp_path / "clean.py"
    clean.write_text("def good():\n    return 1\n", encoding="utf-8")
    assert "conversion_warnings" not in read_document(clean).metadata


def test_a_source_file_not_in_utf8_is_one_line_naming_the_byte_exit_2(
    tmp_path, capsys, monkeypatch
):
    path = tmp_path / "legacy.py"
    raw = '# -*- coding: latin-1 -*-\nname = "Manutenção"\n'.encode("latin-1")
    path.write_bytes(raw)
    done = run_here(capsys, monkeypatch, "chunk", str(path), "--strategy", "code")
    at = raw.index("ç".encode("latin-1"))
    assert_usage_error(done, f"{path}: not valid UTF-8 (byte 0xe7 at offset {at})")


def test_a_file_with_no_grammar_is_cut_between_lines_and_said_once(tmp_path, capsys, monkeypatch):
    cfg = tmp_path / "notes.cfg"
    cfg.write_text("".join(f"key{i} = value {i}\n" for i in range(40)), encoding="utf-8")
    done = run_here(
        capsys, monkeypatch, "chunk", str(cfg), "--strategy", "code", "--max-tokens", "40"
    )
    assert done.returncode == 0
    assert errors_of(done) == [f"chunklab: {cfg}: no grammar for .cfg: cut between lines as text"]
    chunks = chunks_of(done)
    assert len(chunks) > 1 and {c.metadata["language"] for c in chunks} == {"text"}
    check_cut(read_document(cfg), chunks, 40)
    page = tmp_path / "README.md"
    page.write_text("# Read me\n\nSome words.\n", encoding="utf-8")
    both = run_here(capsys, monkeypatch, "chunk", str(cfg), str(page), "--strategy", "code")
    assert both.returncode == 0
    assert errors_of(both) == [
        "chunklab: 2 files with no grammar (1 .cfg, 1 .md): cut between lines as text"
    ]
    piped = run_here(capsys, monkeypatch, "chunk", "-", "--strategy", "code", input=b"x = 1\n")
    assert errors_of(piped) == [
        "chunklab: <stdin>: no grammar for standard input: cut between lines as text; "
        "--language names its grammar"
    ]
    named = run_here(
        capsys,
        monkeypatch,
        "chunk",
        "-",
        "--strategy",
        "code",
        "--language",
        "python",
        input=b"x = 1\n",
    )
    assert (named.stderr, chunks_of(named)[0].metadata["language"]) == (b"", "python")


def test_a_source_file_given_to_another_strategy_is_cut_as_before_and_said(
    tmp_path, capsys, monkeypatch
):
    path = tmp_path / "orders.py"
    path.write_text(ORDERS, encoding="utf-8")
    done = run_here(capsys, monkeypatch, "chunk", str(path))
    assert done.returncode == 0
    assert [c.text for c in chunks_of(done)] == [
        c.text for c in MarkdownChunker().split(read_document(path, doc_id="orders"))
    ]
    assert errors_of(done) == [
        f"chunklab: {path}: source code cut as prose; --strategy code cuts it between definitions"
    ]


def test_a_50000_line_generated_file_through_the_cli(tmp_path, capsys, monkeypatch):
    path = tmp_path / "generated.py"
    path.write_text("".join(f"c{i} = {i}\n" for i in range(50_000)), encoding="utf-8")
    done = run_here(capsys, monkeypatch, "chunk", str(path), "--strategy", "code")
    assert (done.returncode, done.stderr) == (0, b"")
    chunks = chunks_of(done)
    assert all(c.token_count <= 200 for c in chunks)
    assert sum(c.text.count(" = ") for c in chunks) == 50_000


def test_minified_javascript_on_one_line_through_the_cli(tmp_path, capsys, monkeypatch):
    path = tmp_path / "app.min.js"
    body = ";".join(f"var v{i}=f({i},'s{i}')" for i in range(300)) + ";"
    path.write_text(f"(function(){{{body}}})();", encoding="utf-8")
    done = run_here(
        capsys, monkeypatch, "chunk", str(path), "--strategy", "code", "--max-tokens", "100"
    )
    assert (done.returncode, done.stderr) == (0, b"")
    chunks = chunks_of(done)
    assert len(chunks) > 10
    check_cut(read_document(path), chunks, 100)
