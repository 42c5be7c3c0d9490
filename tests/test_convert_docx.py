"""Word files with what Markdown has no form for (issue 27): a footnote, a nested list, merged
cells, a table without a header row, a text box. Each is converted, or named in the document's
`conversion_warnings`; nothing is dropped silently. The file is `data/formats/word_features.docx`,
saved by LibreOffice from `scripts/word_features.fodt` (scripts/make_format_fixtures.sh)."""

import hashlib
import re

from conftest import DATA, ROOT, run_cli

from chunklab import read_document
from chunklab.documents.convert import convert
from chunklab.documents.html import HEADER_NOTE

WORD = DATA / "formats" / "word_features.docx"


def test_the_fixture_is_the_one_data_sources_records():
    row = re.search(
        r"^\| formats/word_features\.docx \|.*\| ([0-9a-f]{64}) \|$",
        (DATA / "SOURCES.md").read_text(encoding="utf-8"),
        re.M,
    )
    assert row and hashlib.sha256(WORD.read_bytes()).hexdigest() == row.group(1)
    assert (ROOT / "scripts" / "word_features.fodt").is_file()
    assert "word_features.fodt" in (ROOT / "scripts" / "make_format_fixtures.sh").read_text()


def test_footnotes_nested_lists_and_text_boxes_are_converted():
    markdown = convert(WORD).markdown
    assert "The kit ships in one case[[1]](#footnote-2) and is checked" in markdown
    assert "1. Footnote: the case weighs twelve kilograms." in markdown, "the note, at the end"
    assert "- Shelter\n  - Tent poles nested\n  - Groundsheet nested\n- Stove" in markdown
    assert "Text box: never open the stove indoors." in markdown


def test_merged_cells_are_spread_over_the_cells_they_cover():
    markdown = convert(WORD).markdown
    assert "| Part | Count | Note |" in markdown
    assert "| Spanning two columns | Spanning two columns | Spanning two rows |" in markdown
    assert "| Lantern | 2 | Spanning two rows |" in markdown


def test_a_table_without_a_header_row_takes_its_first_and_says_so():
    markdown = convert(WORD).markdown
    assert f"*{HEADER_NOTE}*\n\n| Season | Inspector |\n| --- | --- |\n| Spring | Amara |" in (
        markdown
    )
    assert "| | |" not in markdown, "no empty header"


def test_what_was_changed_or_left_out_is_in_the_documents_warnings():
    warnings = read_document(WORD).metadata["conversion_warnings"]
    assert warnings == [
        "Word styles read as plain text (no Markdown equivalent): Frame Contents, "
        "Footnote Characters",
        "table 1: 2 merged cell(s), their text repeated in each cell they cover",
        "table 2: no header row, its first row used as the header",
    ]


def test_show_markdown_prints_the_warnings_on_stderr_one_line_each():
    done = run_cli("chunk", str(WORD), "--show-markdown")
    assert done.returncode == 0
    lines = done.stderr.decode().splitlines()
    assert lines == [f"{WORD}: {w}" for w in read_document(WORD).metadata["conversion_warnings"]]
    assert HEADER_NOTE in done.stdout.decode()


def test_a_file_converted_without_loss_has_no_warnings_key():
    assert "conversion_warnings" not in read_document(DATA / "formats" / "manual_md.html").metadata
