"""HTML, Word and PDF in (issue 15): what conversion keeps, measured against the Markdown the
fixtures were rendered from (scripts/make_format_fixtures.sh), and one clear line for every file
it cannot read."""

import json
import re
import shutil

import pytest
from conftest import DATA, run_cli

from chunklab.documents.convert import convert
from chunklab.documents.files import DocumentError
from chunklab.documents.reading import read_document
from chunklab.tokens.folding import fold

FORMATS = DATA / "formats"
SOURCES = ["travel_policy", "manual_md", "gdsway-managing-sensitive-information"]
KINDS = ["html", "docx", "pdf"]


def headings(markdown: str) -> list[tuple[int, str]]:
    body = re.sub(r"\A---\n.*?\n---\n", "", markdown, flags=re.S)  # front matter is not a heading
    return [
        (len(m.group(1)), " ".join(m.group(2).split()).replace("\\", ""))
        for m in re.finditer(r"^(#{1,6}) +(.+?)\s*$", body, flags=re.M)
    ]


def table_rows(markdown: str) -> list[list[str]]:
    """Each table row as the words of its cells: links, code marks and <br> are markup, not text."""
    rows = []
    for line in markdown.splitlines():
        if line.startswith("|") and not re.fullmatch(r"\|[\s:|-]+\|?", line):
            cells = re.split(r"(?<!\\)\|", line.strip().strip("|"))
            rows.append(
                [
                    " ".join(
                        words(
                            re.sub(
                                r"\[([^\]]*)\](?:\([^)]*\)|\[[^\]]*\])",
                                r"\1",
                                c.replace("<br>", " "),
                            )
                        )
                    )
                    for c in cells
                ]
            )
    return rows


def words(text: str) -> list[str]:
    return re.findall(r"\w+", fold(text).replace("\\", ""))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", SOURCES)
def test_headings_tables_and_words_survive_conversion(name, kind):
    original = (DATA / f"{name}.md").read_text(encoding="utf-8")
    converted = convert(FORMATS / f"{name}.{kind}")
    assert converted.format == kind
    assert headings(converted.markdown) == headings(original), (
        "every heading, at its level, in order"
    )
    assert table_rows(converted.markdown) == table_rows(original), "every table row, header first"
    source_words = words(re.sub(r"\A---\n.*?\n---\n", "", original, flags=re.S))
    kept = set(words(converted.markdown))
    assert sum(w in kept for w in source_words) / len(source_words) > 0.97


@pytest.mark.parametrize("kind", KINDS)
def test_the_title_is_the_documents_own(kind):
    assert convert(FORMATS / f"travel_policy.{kind}").title == "Travel Policy"
    # pandoc writes the front matter's title into the HTML's <title> and the .docx's core
    # properties, and Chromium into the PDF's metadata; the first heading is a template tag
    assert convert(FORMATS / f"gdsway-managing-sensitive-information.{kind}").title == (
        read_document(DATA / "gdsway-managing-sensitive-information.md").title
    )


def test_a_converted_document_remembers_its_file_and_format():
    doc = read_document(FORMATS / "manual_md.pdf")
    assert doc.metadata == {"source_file": "manual_md.pdf", "format": "pdf"}
    assert "| Desalinhamento | mm | 0,08 | Realignar o eixo |" in doc.text


@pytest.mark.parametrize(
    "make, said",
    [
        (
            lambda d: shutil.copy(FORMATS / "scanned.pdf", d / "scan.pdf"),
            "scan.pdf: the PDF has no text layer (a scan?): run OCR first",
        ),
        (
            lambda d: shutil.copy(FORMATS / "encrypted.pdf", d / "locked.pdf"),
            "locked.pdf: the PDF is encrypted",
        ),
        (
            lambda d: (d / "cut.pdf").write_bytes(
                (FORMATS / "travel_policy.pdf").read_bytes()[:3000]
            ),
            "cut.pdf: ",
        ),
        (lambda d: (d / "fake.pdf").write_bytes(b"%PDF-1.4\n"), "fake.pdf: not a readable PDF"),
        (
            lambda d: (d / "fake.docx").write_bytes(b"PK\x03\x04 not a zip"),
            "fake.docx: not a readable Word (.docx) file",
        ),
        (lambda d: (d / "slides.pptx").write_bytes(b"PK"), "slides.pptx: cannot convert .pptx"),
    ],
)
def test_each_bad_file_is_one_line_naming_it_and_exit_2(tmp_path, make, said):
    make(tmp_path)
    bad = next(p for p in tmp_path.iterdir())
    done = run_cli("chunk", str(bad))
    err = done.stderr.decode()
    assert done.returncode == 2 and said in err and "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("chunklab: error: ")
    with pytest.raises(DocumentError, match=re.escape(bad.name)):
        read_document(bad)


def test_index_takes_a_mixed_folder_and_search_finds_a_pdf_table_row_with_its_header(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(DATA / "18f-leave.md", docs / "leave.md")
    shutil.copy(FORMATS / "travel_policy.pdf", docs / "travel.pdf")
    shutil.copy(FORMATS / "manual_md.docx", docs / "manual.docx")
    shutil.copy(FORMATS / "gdsway-managing-sensitive-information.html", docs / "sensitive.html")
    shutil.copy(FORMATS / "scanned.pdf", docs / "scan.pdf")  # named and skipped; the rest indexed
    db = tmp_path / "team.sqlite"
    done = run_cli("index", str(docs), "--db", str(db))
    assert done.returncode == 2 and b"scan.pdf: the PDF has no text layer" in done.stderr
    assert b"indexed 4 documents" in done.stdout
    found = json.loads(run_cli("search", str(db), "Tokyo daily limit lodging cap", "--json").stdout)
    best = found["children"][0]["chunk_id"]
    assert best.startswith("travel#")
    section = found["parents"][0]["text"]
    assert (
        "| City | Daily limit (USD) | Lodging cap (USD) |" in section
        and "| Tokyo | 90 | 280 |" in section
    )
    other = json.loads(run_cli("search", str(db), "vibração limite", "--json").stdout)
    assert other["children"][0]["chunk_id"].startswith("manual#")


def test_show_markdown_prints_what_the_chunker_reads_and_spans_point_into_it():
    shown = run_cli("chunk", str(FORMATS / "travel_policy.pdf"), "--show-markdown")
    assert shown.returncode == 0
    markdown = shown.stdout.decode()
    assert markdown == read_document(FORMATS / "travel_policy.pdf").text
    chunks = [
        json.loads(line)
        for line in run_cli("chunk", str(FORMATS / "travel_policy.pdf"), "--strategy", "structural")
        .stdout.decode()
        .splitlines()
    ]
    assert chunks and all(markdown[c["start"] : c["end"]] == c["text"] for c in chunks)


def test_the_same_document_in_two_formats_keeps_both_apart_by_extension(tmp_path):
    from chunklab.documents.files import find_documents

    (tmp_path / "reports").mkdir()
    for kind in ("html", "pdf"):
        shutil.copy(FORMATS / f"travel_policy.{kind}", tmp_path / "reports" / f"travel.{kind}")
    shutil.copy(DATA / "topics.md", tmp_path / "topics.md")
    ids = [doc_id for doc_id, _ in find_documents([tmp_path]).documents]
    assert ids == ["reports/travel.html", "reports/travel.pdf", "topics"]


def test_a_real_pdf_that_was_never_markdown():
    """The freedesktop.org Shared MIME-info spec, as Debian ships it: word gaps set by kerning,
    a running head and a page number on every page."""
    markdown = convert(FORMATS / "shared-mime-info-spec.pdf").markdown
    assert "Many programs and desktops use the MIME system" in markdown  # words not glued together
    assert (
        len(re.findall(r"^#{1,6} \d+(\.\d+)*\. \w", markdown, flags=re.M)) >= 15
    )  # numbered sections
    assert not re.search(r"^\d+$", markdown, flags=re.M), "a page number left in the text"
    assert markdown.count("Shared MIME-info Database") < 5, "the running head left on every page"
