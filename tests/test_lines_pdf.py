"""`lines_pdf.write_lines_pdf` makes a PDF `read_document` reads; on it, a label that changes only
by its number atop every page (`Chapter 1`, `Chapter 2`, ...) is dropped as a running head, with no
warning: a known loss of the furniture rule, shown in notebook 08b. If the rule learns to keep such
labels, this test and 08b's `numbered-label-dropped-as-running-head` change together."""

import re

from chunklab.documents.reading import read_document
from chunklab.teaching.lines_pdf import write_lines_pdf


def test_a_numbered_label_atop_every_page_is_dropped_without_a_warning(tmp_path):
    titles = ["Priming the pump", "Bleeding the lines", "Starting the motor"]
    pages = [
        [(72, 740, 18, f"Chapter {n}"), (72, 712, 14, title)]
        + [(72, 670 - 16 * i, 11, f"Step {i + 1} (of part {n}) on {title}.") for i in range(20)]
        for n, title in enumerate(titles, start=1)
    ]
    doc = read_document(write_lines_pdf(tmp_path / "chapters.pdf", pages))
    assert all(title in doc.text for title in titles)
    assert "Step 3 (of part 2)" in doc.text  # parentheses escaped in the PDF's strings
    assert not any(f"Chapter {n}" in doc.text for n in (1, 2, 3))
    assert "conversion_warnings" not in doc.metadata


def test_helvetica_bold_lines_at_the_body_size_are_headings_beside_helvetica(tmp_path):
    # PDFium weighs both standard fonts 0: a weight cached by (PDFium's weight, size) alone let
    # whichever font was read first decide for both, and no bold line was found.
    lines = [
        "Staff may take leave with their lead's consent and must log it.",
        "Booking",
        "The notice goes to the lead by email before the leave is booked.",
        "Carrying over",
        "Carried hours expire at the end of the leave year, without exception.",
    ]
    page = [(72, 740, 16, "Leave rules")] + [(72, 710 - 28 * i, 10, t) for i, t in enumerate(lines)]
    made = write_lines_pdf(
        tmp_path / "bold.pdf", [page], bold=frozenset({"Booking", "Carrying over"})
    )
    headings = re.findall(r"^#+ (.+)$", read_document(made).text, re.M)
    assert headings == ["Leave rules", "Booking", "Carrying over"]
