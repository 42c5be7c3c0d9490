"""A two-column PDF whose file writes its lines across the columns: the left column's first
line, the right column's first line, the left column's second line, and so on (as some report
writers and PDF tools do), the columns justified with a gutter of 1.2 font sizes. Chromium never
writes a page so, hence this small PDF writer; `scripts/make_format_fixtures.sh` runs it on the
series' `topics.md` (its paragraphs are the ground truth of the reading order), and the project
never needs it at test time.

    python scripts/write_across_columns_pdf.py data/topics.md data/formats/topics_across.pdf
"""

import sys
import textwrap

source, target = sys.argv[1:3]
with open(source, encoding="utf-8") as file:
    paragraphs = [" ".join(p.split()) for p in file.read().split("\n\n") if p.strip()]
SIZE, WIDTH, LEAD = 10, 41, 12  # Courier 10 pt: every character 6 pt wide; 41 to a line
lines = []  # (text, word spacing that justifies it)
for paragraph in paragraphs:
    wrapped = textwrap.wrap(paragraph, WIDTH, break_on_hyphens=False)
    for i, line in enumerate(wrapped):
        spaces = line.count(" ")
        last = i == len(wrapped) - 1
        stretch = 0 if last or not spaces else (WIDTH - len(line)) * 0.6 * SIZE / spaces
        lines.append((line, stretch))
    lines.append(("", 0))
lines.pop()
half = (len(lines) + 1) // 2
left, right = lines[:half], lines[half:]
if right and right[0][0] == "":
    right.pop(0)
LEFT_X, RIGHT_X, TOP = 54, 54 + WIDTH * 6 + 12, 740  # a gutter of 12 pt, 1.2 font sizes
ops = ["BT", f"/F1 {SIZE} Tf"]


def show(x, y, text, spacing):
    escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    return f"{spacing:.3f} Tw 1 0 0 1 {x} {y} Tm ({escaped}) Tj"


for row in range(half):  # the file's order runs across: left line, right line, next left line...
    y = TOP - row * LEAD
    for x, column in ((LEFT_X, left), (RIGHT_X, right)):
        if row < len(column) and column[row][0]:
            ops.append(show(x, y, *column[row]))
ops.append("ET")
content = "\n".join(ops).encode("latin-1")
objects = [
    b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
    b"/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>",
    b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
]
out = bytearray(b"%PDF-1.4\n")
offsets = []
for number, body in enumerate(objects, start=1):
    offsets.append(len(out))
    out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
xref = len(out)
out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
with open(target, "wb") as file:
    file.write(out)
