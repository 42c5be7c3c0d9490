import json
import re
import shutil

import pytest

from chunklab import DocumentError, list_documents, load_document, load_questions, read_document
from chunklab.data import unmatched_facts

from conftest import ROOT, SHARED

SEEDS = SHARED / "seeds"


def seed_string(seed_file: str, variable: str) -> str:
    path = SEEDS / seed_file
    if not path.exists():
        pytest.skip(f"seed {seed_file} not present beside this checkout")
    text = path.read_text(encoding="utf-8")
    return re.search(rf'{variable} = """(.*?)"""', text, re.S).group(1)


def test_manual_is_the_articles_text_byte_for_byte():
    assert load_document("manual").text == seed_string("003_d06882f5dbed8480.txt", "DOC")


def test_travel_policy_is_the_sketchs_text_with_empty_blank_lines():
    seed = seed_string("000_26b193f7c08b64a0.txt", "SAMPLE_POLICY")
    normalised = "\n".join("" if not line.strip() else line for line in seed.split("\n"))
    assert load_document("travel_policy").text == normalised


def test_catalogue_lists_the_documents_with_metadata():
    assert list_documents() == ["manual", "manual_md", "manual_en", "travel_policy", "work_schedules", "topics", "sensitive_code"]
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
    from chunklab.markdown import explicit_headings

    assert load_document("manual_md").text == explicit_headings(load_document("manual").text)
