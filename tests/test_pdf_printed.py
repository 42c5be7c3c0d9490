"""PDFs read as printed (issue 39): what a page shows, whatever the file does to get it there.

Each fixture is one of the series' documents printed by `scripts/make_format_fixtures.sh` the way
real PDFs are printed (a table without rules, pages numbered in the thousands beside a running
head, bold headings no larger than the body, a page turned to landscape, digits set wide, columns
written across in the file, a labelled drawing between columns), so the Markdown it came from
says what the page shows. Each test fails on the converter before issue 39 (e32713f).
"""

import re

from conftest import DATA, ROOT

from chunklab import MarkdownChunker
from chunklab.chunkers.tables import orphans
from chunklab.documents.convert import convert
from chunklab.documents.reading import read_document
from chunklab.parsing.blocks import parse_blocks

FORMATS = DATA / "formats"


def source_rows(name: str) -> list[str]:
    """The first pipe table of a series document (a block of `|` lines after a blank line), as
    the converter writes its rows: the separator line left out, cells trimmed, bold undone."""
    block = re.search(r"\n\n((?:\|.*\n)+)", (DATA / f"{name}.md").read_text(encoding="utf-8"))
    assert block is not None
    rows = [
        [cell.strip().strip("*") for cell in line.strip().strip("|").split("|")]
        for line in block.group(1).splitlines()
        if not re.fullmatch(r"\|[\s:|-]+\|?", line.strip())
    ]
    return ["| " + " | ".join(row) + " |" for row in rows]


def test_a_table_without_rules_keeps_its_header_with_each_row_chunk():
    doc = read_document(FORMATS / "travel_policy_unruled.pdf", doc_id="travel_policy")
    header, *rows = source_rows("travel_policy")
    chunks = MarkdownChunker(max_tokens=60).split(doc)  # the table's rows in two chunks
    holding = [c.text for c in chunks if any(row in c.text for row in rows)]
    assert {row for row in rows if any(row in text for text in holding)} == set(rows)
    assert len(holding) == 2 and all(header in text for text in holding)
    assert orphans(chunks, doc) == 0
    # the two-column fixture's unruled table (its header bold, its rows not) is one table too
    work = convert(FORMATS / "18f-work-schedules_2col.pdf").markdown
    header, *rows = source_rows("18f-work-schedules")
    assert "\n".join([header, "|---|---|", *rows]) in work


REGISTER = FORMATS / "18f-work-schedules_register.pdf"


def test_page_numbers_in_the_thousands_and_running_heads_are_dropped():
    """Printed as the Federal Register is: "47699" at the outer corner of the page, beside the
    running head, on every page."""
    import pypdfium2

    pages = len(pypdfium2.PdfDocument(REGISTER))
    markdown = convert(REGISTER).markdown
    assert pages >= 3
    for number in range(47699, 47699 + pages):
        assert str(number) not in markdown, number
    assert "Federal Register" not in markdown


def headings(markdown: str) -> list[tuple[int, str]]:
    return [(b.level, b.title) for b in parse_blocks(markdown) if b.kind == "heading"]


def test_bold_headings_no_larger_than_the_body_are_headings_at_their_numbered_depth():
    source = headings((DATA / "18f-work-schedules.md").read_text(encoding="utf-8"))
    doc = read_document(REGISTER)
    found = headings(doc.text)
    # pandoc numbered them ("3.3.1 Types of flexible schedules"): the number says how deep
    assert [re.sub(r"^[\d.]+ ", "", title) for _, title in found] == [t.strip() for _, t in source]
    top = min(level for level, _ in source)
    assert [level for level, _ in found] == [level - top + 1 for level, _ in source]


def test_a_page_turned_for_reading_is_read_as_turned():
    """Drawn on its side on a portrait sheet turned a quarter (/Rotate 90): read across the
    landscape page, the table's rows are rows, as in the policy printed upright."""
    markdown = convert(FORMATS / "travel_policy_landscape.pdf").markdown
    assert markdown == convert(FORMATS / "travel_policy.pdf").markdown
    header, *rows = source_rows("travel_policy")
    assert "\n".join([header, "|---|---|---|", *rows]) in markdown


def test_digits_set_wide_stay_one_number():
    """The table's figures letter-spaced: PDFium puts a space between each two digits."""
    header, *rows = source_rows("travel_policy")
    markdown = convert(FORMATS / "travel_policy_spaced.pdf").markdown
    assert "\n".join([header, "|---|---|---|", *rows]) in markdown


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def test_columns_written_across_the_page_are_read_column_by_column():
    """The file holds the left column's first line, then the right's, then the left's second:
    the columns are found from where the words sit, so the words come back in the source's
    order, each paragraph whole."""
    source = (DATA / "topics.md").read_text(encoding="utf-8")
    markdown = convert(FORMATS / "topics_across.pdf").markdown
    assert words(markdown) == words(source)
    assert markdown.strip().split("\n\n") == [" ".join(p.split()) for p in source.split("\n\n")]


def test_a_figure_between_columns_keeps_its_labels_out_of_the_sentences_and_is_named():
    """Two columns of numbered paragraphs around a drawing that spans them, its labels (text)
    over the gutter: the labels were read as the left column's end, as headings, cutting the
    sentence that runs on into the right column. They stay where the drawing stands, as text,
    and the page is named, since the labels' order is only the page's, top to bottom."""
    source = (ROOT / "scripts" / "field_kit.md").read_text(encoding="utf-8")
    numbered = re.findall(r"^(\d)\. (.+)$", source, flags=re.M)
    doc = read_document(FORMATS / "field_kit_figure.pdf")
    lines = [line for line in doc.text.splitlines() if re.match(r"\d\. ", line)]
    paragraphs = [words(line) for line in lines[: len(numbered)]]  # the footnotes come after
    assert paragraphs == [words(f"{n}. {text}") for n, text in numbered]
    assert headings(doc.text) == [(1, "Field kit")]
    assert "1.2 m tent poles 3 kg" in doc.text  # the labels, as a paragraph of their own
    assert doc.metadata["conversion_warnings"] == [
        "page 1: text inside a figure (a chart's labels?) read line by line where the figure "
        "stands; its order is the page's, top to bottom"
    ]
