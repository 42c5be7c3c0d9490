"""`lines_pdf.write_lines_pdf` makes a PDF `read_document` reads; on it, a label that changes only
by its number atop every page (`Chapter 1`, `Chapter 2`, ...) is dropped as a running head, with no
warning: a known loss of the furniture rule, shown in notebook 08b. If the rule learns to keep such
labels, this test and 08b's `numbered-label-dropped-as-running-head` change together."""

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
