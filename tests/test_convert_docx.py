"""Word files with what Markdown has no form for (issue 27): a footnote, a nested list, merged
cells, a table without a header row, a text box. Each is converted, or named in the document's
`conversion_warnings`; nothing is dropped silently. The file is `data/formats/word_features.docx`,
saved by LibreOffice from `scripts/word_features.fodt` (scripts/make_format_fixtures.sh)."""

import hashlib
import re
import zipfile

import pytest
from conftest import DATA, ROOT, run_cli

from chunklab import MarkdownChunker, read_document
from chunklab.documents.convert import convert

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
    assert "| Season | Inspector |\n| --- | --- |\n| Spring | Amara |" in markdown
    assert "first row" not in markdown, "said in the warnings, not in the text"
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
    assert "no header row" in done.stderr.decode() and "first row" not in done.stdout.decode()


def test_a_file_converted_without_loss_has_no_warnings_key():
    assert "conversion_warnings" not in read_document(DATA / "formats" / "manual_md.html").metadata


# The title: Word keeps it outside the body mammoth converts, in the core properties.
SENSITIVE = DATA / "formats" / "gdsway-managing-sensitive-information.docx"
CORE = "docProps/core.xml"


def rewritten(source, target, parts: dict[str, bytes | None]):
    """`source` saved as `target` with the named parts replaced (None: left out)."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w") as new:
        for info in old.infolist():
            if info.filename not in parts:
                new.writestr(info, old.read(info))
            elif parts[info.filename] is not None:
                new.writestr(info, parts[info.filename])
    return target


def with_core_title(source, target, title: str):
    """`source` saved as `target` with its core properties' title set to `title`."""
    with zipfile.ZipFile(source) as old:
        core = old.read(CORE).decode()
    core = re.sub(r"<dc:title>.*?</dc:title>|<dc:title/>", f"<dc:title>{title}</dc:title>", core)
    assert f"<dc:title>{title}</dc:title>" in core
    return rewritten(source, target, {CORE: core.encode()})


def test_the_title_is_read_from_the_core_properties_and_heads_every_heading_path():
    with zipfile.ZipFile(SENSITIVE) as package:
        stored = re.search(r"<dc:title>(.+?)</dc:title>", package.read(CORE).decode()).group(1)
    doc = read_document(SENSITIVE)
    assert doc.title == stored == read_document(SENSITIVE.with_suffix(".html")).title
    assert doc.title == read_document(DATA / f"{SENSITIVE.stem}.md").title, "the source's own"
    paths = {c.heading_path for c in MarkdownChunker().split(doc) if c.heading_path}
    assert {path[0] for path in paths} == {doc.title}, "no heading path starts with the file name"


def test_without_core_properties_the_title_is_the_first_heading_or_the_file_name(tmp_path):
    with zipfile.ZipFile(SENSITIVE) as package:
        rels = package.read("_rels/.rels").decode()
    rels = re.sub(r'<Relationship [^>]*metadata/core-properties"[^>]*/>', "", rels)
    bare = rewritten(SENSITIVE, tmp_path / "bare.docx", {CORE: None, "_rels/.rels": rels.encode()})
    # its first heading is a template tag (`<%= current_page.data.title %>`): never a title
    assert convert(bare).title == "bare"
    assert convert(bare).warnings == convert(SENSITIVE).warnings, "nothing to say: none is normal"
    no_rels = rewritten(SENSITIVE, tmp_path / "no_rels.docx", {CORE: None, "_rels/.rels": None})
    assert convert(no_rels).title == "no_rels"
    assert convert(no_rels).markdown == convert(SENSITIVE).markdown


@pytest.mark.parametrize("empty", ["", "   ", "<%= current_page.data.title %>"])
def test_an_empty_core_title_is_passed_over(tmp_path, empty):
    travel = DATA / "formats" / "travel_policy.docx"
    assert convert(with_core_title(SENSITIVE, tmp_path / "s.docx", empty)).title == "s"
    # travel_policy.docx's own core title is empty (pandoc had no title): its first heading
    assert convert(with_core_title(travel, tmp_path / "t.docx", empty)).title == "Travel Policy"
    assert convert(travel).title == "Travel Policy"


def test_the_libreoffice_spelling_of_the_relationship_is_read(tmp_path):
    with zipfile.ZipFile(WORD) as package:
        assert "officedocument/2006/relationships/metadata/core-properties" in (
            package.read("_rels/.rels").decode()
        )
    titled = with_core_title(WORD, tmp_path / "kit.docx", "Kit  handbook\n(2nd edition)")
    assert convert(titled).title == "Kit handbook (2nd edition)", "whitespace collapsed"


def test_unreadable_core_properties_cost_only_the_title_and_say_so(tmp_path):
    broken = rewritten(SENSITIVE, tmp_path / "broken.docx", {CORE: b"<cp:coreProperties"})
    converted = convert(broken)
    assert converted.title == "broken"
    assert converted.markdown == convert(SENSITIVE).markdown
    assert f"{CORE}: not readable (ParseError); title not read" in converted.warnings


# --- comments (issue 39) --------------------------------------------------------------------

_W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def docx_with_a_comment(path):
    """A minimal Word file, as Word writes one with a reviewer's comment on two words."""
    with zipfile.ZipFile(path, "w") as package:
        package.writestr(
            "[Content_Types].xml",
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
            'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/word/document.xml" ContentType="application/vnd.'
            'openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
        )
        package.writestr(
            "_rels/.rels",
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="rId1" Type="{_REL}/officeDocument" Target="word/document.xml"/>'
            "</Relationships>",
        )
        package.writestr(
            "word/_rels/document.xml.rels",
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="rId9" Type="{_REL}/comments" Target="comments.xml"/>'
            "</Relationships>",
        )
        package.writestr(
            "word/document.xml",
            f'<w:document {_W}><w:body><w:p><w:r><w:t xml:space="preserve">The budget is '
            '</w:t></w:r><w:commentRangeStart w:id="0"/><w:r><w:t>twelve thousand</w:t></w:r>'
            '<w:commentRangeEnd w:id="0"/><w:r><w:commentReference w:id="0"/></w:r>'
            '<w:r><w:t xml:space="preserve"> euros.</w:t></w:r></w:p></w:body></w:document>',
        )
        package.writestr(
            "word/comments.xml",
            f'<w:comments {_W}><w:comment w:id="0" w:author="Ines Ruiz" '
            'w:date="2026-01-05T10:00:00Z">'
            "<w:p><w:r><w:t>Check this against the Q3 figures.</w:t></w:r></w:p></w:comment>"
            "</w:comments>",
        )
    return path


def test_a_word_comment_is_a_conversion_warning_not_text_and_not_lost(tmp_path):
    doc = read_document(docx_with_a_comment(tmp_path / "budget.docx"))
    assert doc.text.strip() == "The budget is twelve thousand euros."
    assert doc.metadata["conversion_warnings"] == [
        'Word comment 1 of 1, not in the text: by Ines Ruiz on "twelve thousand": '
        '"Check this against the Q3 figures."'
    ]
