"""A PDF of lines placed by hand: each page a list of (x, y, size, text), Helvetica (the texts
named in `bold`: Helvetica-Bold), letter size, y measured from the page's bottom. Small enough
to read whole; it makes a page the series' real PDFs do not have (08b: a numbered label atop each
page)."""

from __future__ import annotations

from pathlib import Path

Placed = tuple[float, float, float, str]  # x, y, font size, text


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def write_lines_pdf(
    path: Path, pages: list[list[Placed]], bold: frozenset[str] = frozenset()
) -> Path:
    """Write `pages` to `path` as a PDF with a text layer, and return `path`."""
    objects = [  # objects 1 and 2
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>",
    ]
    tree = 3 + 2 * len(pages)  # the page tree's number: after each page's content and page
    kids = []
    for items in pages:
        stream = "".join(
            f"BT /F{2 if text in bold else 1} {size} Tf {x} {y} Td ({_escaped(text)}) Tj ET\n"
            for x, y, size, text in items
        )
        objects.append(f"<< /Length {len(stream)} >>\nstream\n{stream}endstream")
        objects.append(
            f"<< /Type /Page /Parent {tree} 0 R /MediaBox [0 0 612 792] "
            f"/Resources << /Font << /F1 1 0 R /F2 2 0 R >> >> /Contents {len(objects)} 0 R >>"
        )
        kids.append(f"{len(objects)} 0 R")
    objects.append(f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(kids)} >>")
    objects.append(f"<< /Type /Catalog /Pages {tree} 0 R >>")
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode("latin-1")
    table = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{offset:010d} 00000 n \n" for offset in offsets).encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root {len(objects)} 0 R >>\n".encode()
    out += f"startxref\n{table}\n%%EOF\n".encode()
    Path(path).write_bytes(out)
    return Path(path)
