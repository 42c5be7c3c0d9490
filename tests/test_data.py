import hashlib
import json
import re
import shutil

import pytest
from conftest import DATA, REAL_DOCUMENTS, ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from chunklab import DocumentError, list_documents, load_document, load_questions, read_document
from chunklab.evaluation.questions import unmatched_facts


def recorded_hashes() -> dict[str, str]:
    """file -> SHA-256, from the tables of data/SOURCES.md (the hash is each row's last cell)."""
    rows = re.findall(
        r"^\| ([\w.-]+\.md) \|.*\| ([0-9a-f]{64}) \|$",
        (DATA / "SOURCES.md").read_text(encoding="utf-8"),
        re.M,
    )
    return dict(rows)


def test_every_document_in_data_has_its_source_and_an_unchanged_hash():
    # The hashes were computed from the seed strings (manual, travel policy) and the owners'
    # files (the real documents) when they were copied in: a match says nothing was edited.
    recorded = recorded_hashes()
    # data/*.md only: data/chroma/ has its own sources and hashes (tests/test_chroma_data.py).
    documents = sorted(
        p.name for p in DATA.glob("*.md") if p.name not in ("README.md", "SOURCES.md")
    )
    assert sorted(recorded) == documents
    for name, digest in recorded.items():
        assert hashlib.sha256((DATA / name).read_bytes()).hexdigest() == digest, (
            f"{name} differs from its source"
        )
    assert set(REAL_DOCUMENTS) <= set(recorded)


def test_the_hash_check_notices_a_one_character_edit(tmp_path):
    text = (DATA / "manual.md").read_text(encoding="utf-8").replace("0,08", "0,09")
    assert hashlib.sha256(text.encode()).hexdigest() != recorded_hashes()["manual.md"]


def test_nothing_in_the_project_reads_outside_its_checkout():
    # A user clones the project alone: no code, test, notebook or build file names a sibling folder.
    pattern = re.compile(r"\.\./\.\./|\.\./shared|ROOT\.parent\s*/|\"shared\"")
    files = [
        *ROOT.glob("chunklab/*.py"),
        *ROOT.glob("tests/*.py"),
        *ROOT.glob("scripts/*.py"),
        *ROOT.glob("bench/*.py"),
        *ROOT.glob("notebooks/*.ipynb"),
        ROOT / "Makefile",
        ROOT / ".ci" / "run",
    ]
    offenders = [
        f"{p.relative_to(ROOT)}: {m.group(0)}"
        for p in files
        if p.name != "test_data.py"
        for m in [pattern.search(p.read_text(encoding="utf-8"))]
        if m
    ]
    assert offenders == []


def test_catalogue_lists_the_documents_with_metadata():
    assert list_documents() == [
        "manual",
        "manual_md",
        "manual_en",
        "travel_policy",
        "work_schedules",
        "topics",
        "sensitive_code",
    ]
    doc = load_document("manual")
    assert (doc.doc_id, doc.title, doc.uri) == ("manual", "Manual de Operações", "data/manual.md")
    assert doc.metadata["tenant"] == "empresa-a" and doc.metadata["language"] == "pt"
    with pytest.raises(KeyError, match="unknown document 'manul'"):
        load_document("manul")


def test_question_sets_have_the_seeds_counts_and_facts():
    manual = load_questions("manual")
    policy = load_questions("travel_policy")
    assert len(manual.questions) == 10 and len(policy.questions) == 4
    assert manual.questions[3].facts == ("4,5", "Limite")
    assert policy.questions[1].facts == ("Lodging cap (USD)", "| New York | 105 | 350")


def test_the_articles_unaccented_fact_is_flagged():
    # The article's fact "responsavel tecnico" has no accents; the manual says "responsável
    # técnico". It matches only after folding accents, so an exact check never finds it.
    found = unmatched_facts(load_questions("manual"), load_document("manual"))
    assert found == {"m03": ["responsavel tecnico"]}
    assert unmatched_facts(load_questions("travel_policy"), load_document("travel_policy")) == {}


@pytest.fixture
def data_copy(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    shutil.copytree(ROOT / "data", folder)
    monkeypatch.setenv("CHUNKLAB_DATA", str(folder))
    return folder


def test_a_fact_missing_from_the_document_is_an_error_naming_the_question(data_copy):
    path = data_copy / "manual.questions.json"
    qs = json.loads(path.read_text(encoding="utf-8"))
    qs["questions"][0]["facts"] = ["31 dias"]
    path.write_text(json.dumps(qs), encoding="utf-8")
    with pytest.raises(ValueError, match="question m01: fact '31 dias' is not in data/manual.md"):
        load_questions("manual")


def test_a_question_without_facts_is_a_validation_error(data_copy):
    from pydantic import ValidationError

    path = data_copy / "manual.questions.json"
    qs = json.loads(path.read_text(encoding="utf-8"))
    del qs["questions"][1]["facts"]
    path.write_text(json.dumps(qs), encoding="utf-8")
    with pytest.raises(ValidationError, match="facts"):
        load_questions("manual")


def test_read_document_errors_name_the_file(tmp_path):
    bad = tmp_path / "bad.md"
    bad.write_bytes(b"ok\n\xff\xfe broken")
    with pytest.raises(DocumentError, match=r"bad.md: not valid UTF-8 \(byte 0xff at offset 3\)"):
        read_document(bad)
    with pytest.raises(DocumentError, match="missing.md: cannot read"):
        read_document(tmp_path / "missing.md")
    with pytest.raises(DocumentError, match="is a directory"):
        read_document(tmp_path)


def test_read_document_title_and_bom(tmp_path):
    path = tmp_path / "notes.md"
    path.write_text("\ufeff# Release notes\n\nBody.\n", encoding="utf-8")
    doc = read_document(path)
    assert doc.title == "Release notes" and doc.doc_id == "notes"
    assert doc.text.startswith("# Release")


def test_manual_md_is_the_manual_with_explicit_headings():
    from chunklab.parsing.blocks import explicit_headings

    assert load_document("manual_md").text == explicit_headings(load_document("manual").text)


# --- real documents read right ------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, title",
    [
        ("18f-leave.md", "Leave types"),
        ("18f-work-schedules.md", "Work schedules"),
        ("cloudgov-space-egress.md", "Controlling egress traffic"),
        ("gdsway-managing-sensitive-information.md", "How to handle sensitive code"),
        (
            "pagerduty-post-mortem-template.md",
            "pagerduty-post-mortem-template",
        ),  # no title: the file's name
        ("manual.md", "MANUAL DE OPERAÇÕES"),  # a short first line standing alone
    ],
)
def test_the_title_is_the_front_matters_or_the_first_heading_or_the_file_name(name, title):
    assert read_document(DATA / name).title == title


@pytest.mark.parametrize(
    "text, title",
    [
        ("---\ntitle: From YAML\n---\n# A heading\n", "From YAML"),
        ("---\ntitle: '<%= page.title %>'\n---\n# Heading\n", "notes"),  # a template is no title
        ("---\n: not yaml: [\n---\n# Heading\n", "Heading"),  # broken front matter is ignored
        ("# {{ page.title }}\n\ntext\n", "notes"),
        ("## Closed heading ##\n\ntext\n", "Closed heading"),
        (
            "A first sentence that runs on for a long while, well past a hundred characters, "
            "and so is clearly not a title.\n",
            "notes",
        ),
    ],
)
def test_title_rules(tmp_path, text, title):
    path = tmp_path / "notes.md"
    path.write_text(text, encoding="utf-8")
    assert read_document(path).title == title


def test_a_template_heading_is_never_in_a_breadcrumb_the_title_stands_in():
    from chunklab import MarkdownChunker

    doc = read_document(DATA / "gdsway-managing-sensitive-information.md")
    for prefix in ("path", "context"):
        chunks = MarkdownChunker(max_tokens=120, prefix=prefix).split(doc)
        assert chunks and not any("<%" in part for c in chunks for part in c.heading_path)
        assert all(
            c.heading_path[0] == "How to handle sensitive code" for c in chunks if c.heading_path
        )
        assert not any(c.text.startswith(("<%", "From ---")) for c in chunks)
    crumb = MarkdownChunker(max_tokens=120).split(doc)[0].text.split("\n")[0]
    assert crumb == "How to handle sensitive code > Summary"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32", "utf-8-sig"])
def test_a_byte_order_mark_says_the_encoding_and_is_dropped(tmp_path, encoding):
    text = "# Férias\n\nDias úteis: 30 — ✓\n"
    bom = {"utf-16-be": b"\xfe\xff", "utf-32": b"", "utf-16": b"", "utf-8-sig": b""}[encoding]
    path = tmp_path / "bom.md"
    path.write_bytes(bom + text.encode(encoding))
    doc = read_document(path)
    assert doc.text == text and doc.title == "Férias"


def test_utf16_that_is_not_utf16_is_refused_with_one_line(tmp_path):
    path = tmp_path / "odd.md"
    path.write_bytes(b"\xff\xfe" + "ok".encode("utf-16-le") + b"\x00\xd8")  # a lone surrogate half
    with pytest.raises(
        DocumentError, match=r"odd.md: starts with a UTF-16 byte-order mark but is not valid UTF-16"
    ):
        read_document(path)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", max_codepoint=0x2FFF)))
def test_fold_is_lower_case_without_nonspacing_marks(text):
    """The fast fold equals the plain definition: NFD of the lower case, marks (Mn) dropped."""
    import unicodedata

    from chunklab.tokens.folding import fold

    plain = "".join(
        c for c in unicodedata.normalize("NFD", text.lower()) if unicodedata.category(c) != "Mn"
    )
    assert fold(text) == plain
    assert fold("Responsável Técnico ÇÃO") == "responsavel tecnico cao"
