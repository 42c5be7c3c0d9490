"""`make bench`, conversion: what turning HTML, Word and PDF into Markdown costs, next to cutting
it.

For each format, every fixture of `data/formats/` in that format (the series' documents rendered
by pandoc and Chromium, and for PDF also a real specification) is converted several times: MB of
Markdown produced per second, and the time of `MarkdownChunker(max_tokens=200)` on the same
Markdown, as a ratio. The best of five rounds, interleaved, as the other benches do. No target:
the figures say where an `index` of a folder of PDFs spends its time.

Then each PDF on its own (issue 27): the converter (pypdfium2) against the pdfplumber converter
it replaced (`bench/pdfplumber_path.py`, kept for this), and against pdfplumber's bare
`extract_text` on every page, the floor of any pdfplumber path. Target: at least 10x the
pdfplumber converter on every PDF.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pdfplumber_path

from chunklab import Document, MarkdownChunker
from chunklab.documents.convert import convert

ROOT = Path(__file__).resolve().parent.parent
FORMATS = ROOT / "data" / "formats"
SKIP = {"scanned.pdf", "encrypted.pdf"}  # refused by design: nothing to time


def main() -> int:
    files = {
        kind: sorted(p for p in FORMATS.glob(f"*.{kind}") if p.name not in SKIP)
        for kind in ("html", "docx", "pdf")
    }
    chunker = MarkdownChunker(max_tokens=200)
    best = {kind: (float("inf"), float("inf")) for kind in files}
    produced = {}
    for _ in range(5):
        for kind, paths in files.items():
            start = time.perf_counter()
            docs = [convert(p) for p in paths]
            converting = time.perf_counter() - start
            start = time.perf_counter()
            for p, d in zip(paths, docs, strict=True):
                chunker.split(Document(doc_id=p.stem, uri=str(p), title=d.title, text=d.markdown))
            cutting = time.perf_counter() - start
            produced[kind] = sum(len(d.markdown.encode("utf-8")) for d in docs) / 1e6
            best[kind] = (min(best[kind][0], converting), min(best[kind][1], cutting))
    print(
        f"\n{'format':>6} {'files':>5} {'MB of Markdown':>14} {'convert MB/s':>12} "
        f"{'x the time to chunk it':>22}"
    )
    for kind, (converting, cutting) in best.items():
        print(
            f"{kind:>6} {len(files[kind]):>5} {produced[kind]:>14.3f} "
            f"{produced[kind] / converting:>12.3f} {converting / cutting:>22.1f}"
        )
    return pdf_speedups(files["pdf"])


TARGET = 10.0


def pdfplumber_text(path: Path) -> str:
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        return "\n".join(page.extract_text() or "" for page in pdf.pages)


def pdf_speedups(paths: list[Path]) -> int:
    """Each PDF converted, against the pdfplumber converter it replaced and against pdfplumber's
    bare `extract_text`; 1 if one PDF is under `TARGET` against the pdfplumber converter."""
    runs = (convert, pdfplumber_path.pdf_to_markdown, pdfplumber_text)
    best = {p: [float("inf")] * len(runs) for p in paths}
    for _ in range(5):
        for p in paths:
            for i, run in enumerate(runs):
                start = time.perf_counter()
                run(p)
                best[p][i] = min(best[p][i], time.perf_counter() - start)
    print(
        f"\n{'PDF':>42} {'convert s':>9} {'pdfplumber path s':>17} {'speed-up':>8} "
        f"{'extract_text s':>14} {'speed-up':>8}"
    )
    slow = []
    for p, (ours, path, text) in best.items():
        print(
            f"{p.name:>42} {ours:>9.4f} {path:>17.4f} {path / ours:>7.1f}x "
            f"{text:>14.4f} {text / ours:>7.1f}x"
        )
        if path / ours < TARGET:
            slow.append(p.name)
    if slow:
        print(f"under {TARGET:.0f}x the pdfplumber converter: {', '.join(slow)}")
        return 1
    print(f"every PDF at least {TARGET:.0f}x faster than the pdfplumber converter")
    return 0


if __name__ == "__main__":
    sys.exit(main())
