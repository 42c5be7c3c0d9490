"""`teaching.word_lines`: pdfplumber's words as the converter's lines, for its table rule."""

import pdfplumber

from chunklab.documents.pdf_grid import aligned_tables
from chunklab.documents.reading import read_document
from chunklab.documents.series import data_dir
from chunklab.teaching.word_lines import as_lines

UNRULED = data_dir() / "formats" / "travel_policy_unruled.pdf"


def test_the_converters_rule_on_pdfplumbers_words_finds_the_table_the_converter_finds():
    with pdfplumber.open(UNRULED) as pdf:
        words = pdf.pages[0].extract_words(extra_attrs=["fontname", "size"])
    tables = [line[0].table for line in aligned_tables(as_lines(words)) if line[0].table]
    assert len(tables) == 1
    assert tables[0] in read_document(UNRULED).text


def test_a_line_is_bold_only_when_every_word_is():
    words = [
        {"text": t, "x0": x, "x1": x + 20, "top": 10.2, "bottom": 22.0, "size": 12.0, "fontname": f}
        for t, x, f in [("Note", 10, "Serif-Bold"), ("here", 40, "Serif")]
    ]
    (line,) = as_lines(words)
    assert line[0].text == "Note here" and line[0].weight < 700
    assert [w.weight for w in line[0].words] == [700.0, 400.0]
