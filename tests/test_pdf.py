"""PDF reading order and speed (issue 27): columns read one after the other, running heads and
page numbers dropped, a page read out of order named; and the pypdfium2 converter's Markdown
against what the pdfplumber converter gave (`tests/fixtures/pdf_before/`, written by the code
before this change), difference by difference."""

import hashlib
import re
from collections import Counter

import pytest
from conftest import DATA, ROOT

from chunklab.documents import pdf
from chunklab.documents.convert import convert
from chunklab.documents.pdf_layout import Fragment, reading_order
from chunklab.documents.reading import read_document
from chunklab.tokens.folding import fold

FORMATS = DATA / "formats"
BEFORE = ROOT / "tests" / "fixtures" / "pdf_before"
PDFS = sorted(
    p.name for p in FORMATS.glob("*.pdf") if p.name not in ("scanned.pdf", "encrypted.pdf")
)
COLUMNS = {"18f-work-schedules_2col.pdf": "18f-work-schedules", "18f-leave_3col.pdf": "18f-leave"}
REAL_COLUMNS = "ieeepes_doc.pdf"

# What changed on purpose, as (before, after) replacements of the pdfplumber converter's Markdown.
# The spec: a sentence cut by a page break is joined (it runs on in lower case after a line
# without a full stop), the paragraph after the last list item is its own paragraph, and the
# references are one paragraph each (their lines are 1.8 font sizes apart, as paragraphs are;
# pdfplumber's rule joined some of them by a tenth of a point and split others).
SAME_BUT = {
    "shared-mime-info-spec.pdf": [
        ("). Information found in a\n\ndirectory ", "). Information found in a directory "),
        ("application/octet-stream. In addition", "application/octet-stream.\n\nIn addition"),
        ("to perform the checks\n\nis:", "to perform the checks is:"),
        ("http://www.gnome.org KDEThe", "http://www.gnome.org\n\nKDEThe"),
        ("http://www.kde.org ROXThe", "http://www.kde.org\n\nROXThe"),
        ("rox.sourceforge.net DesktopEntries", "rox.sourceforge.net\n\nDesktopEntries"),
        ("desktop-entry-spec.html SharedMIME", "desktop-entry-spec.html\n\nSharedMIME"),
        ("number=2119 BaseDir", "number=2119\n\nBaseDir"),
        ("basedir-spec.html ACAP", "basedir-spec.html\n\nACAP"),
    ],
    # issue 39: the table printed without rules is a table (its bold header over rows in its
    # columns), as the ruled policy's is
    "travel_policy_unruled.pdf": [
        (
            "City Daily limit (USD) Lodging cap (USD)\n\nLondon 95 320\n\nTokyo 90 280\n\n"
            "Sao Paulo 70 210\n\nNew York 105 350",
            "| City | Daily limit (USD) | Lodging cap (USD) |\n|---|---|---|\n"
            "| London | 95 | 320 |\n| Tokyo | 90 | 280 |\n| Sao Paulo | 70 | 210 |\n"
            "| New York | 105 | 350 |",
        )
    ],
}


def words(text: str) -> list[str]:
    return re.findall(r"\w+", fold(text))


# The PDFs that were read by the pdfplumber converter before the change. PDFs added later (the
# 18F report and agenda of notebook 08, the printed faults of issue 39, tested in
# tests/test_pdf_printed.py) have no "before"; tests/test_same_chunks.py holds their chunks byte
# for byte instead.
READ_BEFORE = [n for n in PDFS if (BEFORE / n.replace(".pdf", ".md")).exists()]


def test_only_pdfs_added_after_the_converter_change_lack_a_before():
    assert sorted(set(PDFS) - set(READ_BEFORE)) == [
        "18f-c2-outage-report.pdf",
        "18f-sample-kickoff-agenda.pdf",
        "18f-work-schedules_register.pdf",
        "field_kit_figure.pdf",
        "topics_across.pdf",
        "travel_policy_landscape.pdf",
        "travel_policy_spaced.pdf",
    ]


@pytest.mark.parametrize("name", [n for n in READ_BEFORE if n not in COLUMNS and n != REAL_COLUMNS])
def test_one_column_pdfs_read_as_before_but_for_the_differences_judged_right(name):
    before = (BEFORE / name.replace(".pdf", ".md")).read_text(encoding="utf-8")
    for old, new in SAME_BUT.get(name, []):
        assert before.count(old) == 1, old
        before = before.replace(old, new)
    assert convert(FORMATS / name).markdown == before


# Words of the pdfplumber converter's Markdown that are gone, and words that are new.
WORDS_CHANGED = {
    # the running head, which it kept on the first page (the page numbers it dropped already)
    "18f-work-schedules_2col.pdf": ({"18f": 1, "handbook": 1, "work": 1, "schedules": 1}, {}),
    "18f-leave_3col.pdf": ({"18f": 1, "handbook": 1, "leave": 1}, {}),
    # the page numbers 1-6; LaTeX's logo with its lowered E ("LAT X" + "E" before, and "BibT X"),
    # which PDFium reads in the file's order as one word; "LATEX2ε" is "LATEX 2ε" as printed
    REAL_COLUMNS: (
        {"lat": 1, "x": 6, "e": 6, "latex2ε": 4, "bibt": 5} | {str(n): 1 for n in range(1, 7)},
        {"latex": 5, "2ε": 4, "bibtex": 5},
    ),
}


@pytest.mark.parametrize("name", sorted(WORDS_CHANGED))
def test_column_pdfs_keep_every_word_of_before_and_drop_only_page_furniture(name):
    """Same words as the pdfplumber converter, in another order, but for the page furniture and
    what PDFium reads better."""
    before = Counter(words((BEFORE / name.replace(".pdf", ".md")).read_text(encoding="utf-8")))
    after = Counter(words(convert(FORMATS / name).markdown))
    assert (dict(before - after), dict(after - before)) == WORDS_CHANGED[name]


def source_blocks(markdown: str) -> list[set[str]]:
    """The words of each block (paragraph, list, heading) of a Markdown source."""
    markdown = re.sub(r"\A---\n.*?\n---\n", "", markdown, flags=re.S)
    return [set(words(block)) for block in re.split(r"\n\s*\n", markdown) if block.strip()]


def mixed_lines(markdown: str, blocks: list[set[str]]) -> list[str]:
    """Lines of converted Markdown whose words come from no one block of the source."""
    return [
        line
        for line in markdown.splitlines()
        if words(line) and not any(set(words(line)) <= block for block in blocks)
    ]


@pytest.mark.parametrize("name", sorted(COLUMNS))
def test_no_line_mixes_words_of_two_columns(name):
    blocks = source_blocks((DATA / f"{COLUMNS[name]}.md").read_text(encoding="utf-8"))
    markdown = convert(FORMATS / name).markdown
    assert mixed_lines(markdown, blocks) == []
    # the check sees interleaving: the pdfplumber converter's lines fail it
    before = (BEFORE / name.replace(".pdf", ".md")).read_text(encoding="utf-8")
    assert len(mixed_lines(before, blocks)) >= 5


@pytest.mark.parametrize("name", [*sorted(COLUMNS), REAL_COLUMNS])
def test_no_running_head_or_page_number_is_left(name):
    markdown = convert(FORMATS / name).markdown
    assert "18F Handbook" not in markdown
    assert not re.search(r"^\d+$", markdown, flags=re.M), "a page number left in the text"


def test_a_real_two_column_paper_reads_column_by_column():
    """IEEEtran's sibling ieeepes, its documentation as TeX Live ships it (two columns, a list
    of contents beside the abstract)."""
    doc = read_document(FORMATS / REAL_COLUMNS)
    markdown = doc.text
    assert doc.title == "A LATEX-Package for IEEE PES Transactions"
    assert (
        "This LATEX 2ε package implements the layout requirements for Transactions of the IEEE "
        "Power Engineering Society (PES). This covers the Transactions on Energy Conversion"
    ) in markdown
    assert "## 1 Introduction\n\nThis document comprises the documentation for the" in markdown
    assert "1 Introduction 1\n\n2 Installation 2" in markdown  # the contents, entry by entry
    sections = re.findall(r"^## (\d+) ", markdown, flags=re.M)
    assert sections == [str(n) for n in range(1, 18)]  # every section once, in order
    assert not any(
        "Provided with ieeepes" in line and "reserved filename" in line
        for line in markdown.splitlines()
    )
    assert "conversion_warnings" not in doc.metadata


def frag(x0, x1, top, text):
    return Fragment(x0, x1, top, top + 10, 10.0, text, em=10.0)


def test_side_by_side_text_without_a_clear_gap_is_undecided():
    """Two runs of words on every line, and pieces across the gap between them on some: no
    gutter can be trusted, so the order is flagged rather than guessed silently."""
    frags = []
    for i in range(10):
        frags += [
            frag(0, 100, i * 12, "alpha beta gamma delta"),
            frag(115, 215, i * 12, "one two three four"),
        ]
    frags += [frag(80, 135, i * 12 + 5, "x") for i in range(0, 10, 2)]
    assert reading_order(frags)[1] is True
    columns = [frag(0, 100, i * 12, "alpha beta gamma delta") for i in range(10)]
    columns += [frag(115, 215, i * 12, "one two three four") for i in range(10)]
    runs, undecided = reading_order(columns)
    assert not undecided
    texts = [f.text for run in runs for line in run for f in line]
    assert texts == ["alpha beta gamma delta"] * 10 + ["one two three four"] * 10


def test_an_undecided_page_is_named_in_the_documents_metadata(monkeypatch):
    real = pdf.reading_order
    calls = []

    def second_page_undecided(frags):
        calls.append(1)
        runs, _ = real(frags)
        return runs, len(calls) == 2

    monkeypatch.setattr(pdf, "reading_order", second_page_undecided)
    doc = read_document(FORMATS / "travel_policy_unruled.pdf")
    assert doc.metadata["conversion_warnings"] == [
        "page 2: the reading order could not be decided (text side by side without a clear "
        "column gap); read line by line"
    ]


def test_the_real_pdfs_are_the_files_sources_names():
    sources = (DATA / "SOURCES.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| formats/([\w.-]+\.pdf) \|.*\| ([0-9a-f]{64}) \|$", sources, re.M))
    assert {"shared-mime-info-spec.pdf", REAL_COLUMNS} <= set(rows)
    for name, digest in rows.items():
        assert hashlib.sha256((FORMATS / name).read_bytes()).hexdigest() == digest, name
    for name in (*COLUMNS, REAL_COLUMNS):
        assert f"formats/{name}" in sources, name


def test_a_rule_pdfium_measures_a_hair_over_two_points_still_counts():
    """The kick-off agenda draws each row rule 2 points thick; PDFium gives two of Day 1's as
    2.00003 points (float32 bounds). Without the slack they were not rules, the grid ended under
    the header, and the day's two sessions came back as loose lines, each apart from its purpose."""
    agenda = convert(FORMATS / "18f-sample-kickoff-agenda.pdf").markdown
    day_1 = agenda[agenda.index("| Day 1 |") : agenda.index("| Day 2 |")]
    rows = [line for line in day_1.splitlines() if line.startswith("| ")]
    assert [row.split(" | ")[0] for row in rows] == [
        "| Day 1",
        "| Session",
        "| Introduction 60 min.",
        "| Contract logistics 30 min.",
    ]
    assert "| Contract logistics 30 min. | The contracting officer goes over" in day_1


def test_a_title_over_pages_of_tables_stays_a_heading():
    """Once the agenda's rows are in tables, its large title is the only text outside them; if the
    body's size were counted outside tables only, the title would be the body and no heading. A
    table's cells count toward the body's size."""
    agenda = convert(FORMATS / "18f-sample-kickoff-agenda.pdf").markdown
    outside = [line for line in agenda.splitlines() if line.strip() and not line.startswith("|")]
    assert outside == ["# Sample kick-off week agenda"]
