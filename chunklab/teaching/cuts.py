"""Where the cuts fall: a document shown once, each chunk's span coloured (notebooks 01 to 08).

A list of `repr(chunk.text)` hides where the cuts fall and what no chunk kept; this view shows the
source with every span marked, in HTML for a notebook and in plain text for a terminal and for
nbval. It needs neither pandas nor matplotlib. `chunklab.teaching.report` re-exports `show_cuts`,
so the notebooks call it as `report.show_cuts`.
"""

from __future__ import annotations

from collections.abc import Sequence

from chunklab.contracts import Chunk, Document

CUT_COLOURS = ("#cfe8ff", "#ffe2b8", "#d6f5d6", "#f3d1f4", "#fff3a8", "#d9d3ff")
GAP_MARK = ("«", "»")  # plain text: around text that is in no chunk
CARRIED_MARK = ("⟨", "⟩")  # plain text: around a heading no span holds but a breadcrumb carries


class CutView:
    """A document with each chunk's span marked, for a notebook (HTML) or a terminal (text).

    A listing of `repr(chunk.text)` hides where the cuts fall; this shows the source once, with
    every chunk's span coloured. Overlaps are striped in both chunks' colours, and text no chunk
    holds is struck out in red, so a lost line is visible at a glance; a heading that no span
    holds but that a chunk's breadcrumb carries is greyed, not struck out. What a chunk adds that
    is not in the source (a breadcrumb, a prefix, a repeated header) is listed apart, so it is
    never mistaken for the document's own text.

    The plain-text form (`str`, also the `text/plain` that nbval compares) marks chunk k's start
    with `⟦k›` and its end with `‹k⟧`, wraps text in no chunk in «…», and a heading carried only
    by breadcrumbs in ⟨…⟩.
    """

    def __init__(
        self,
        doc: Document,
        chunks: Sequence[Chunk],
        title: str = "",
        window: tuple[int, int] | None = None,
        gap: str = "in no chunk",
    ) -> None:
        self.doc, self.chunks, self.title, self.gap = doc, list(chunks), title, gap
        self.window = window or (0, len(doc.text))
        lo, hi = self.window
        cuts = {lo, hi}
        for c in self.chunks:
            cuts.update(p for p in (c.start, c.end) if lo < p < hi)
        edges = sorted(cuts)
        # Each stretch between two cuts, with the ordinals of the chunks that hold all of it.
        self.segments = [
            (a, b, [c.ordinal for c in self.chunks if c.start <= a and b <= c.end])
            for a, b in zip(edges, edges[1:], strict=False)
            if a < b
        ]
        shown = [c for c in self.chunks if c.start < hi and c.end > lo]
        self._added = [
            (k, extra) for k, extra in self.added() if any(c.ordinal == k for c in shown)
        ]
        carried_text = "\n".join(extra for _, extra in self.added())
        # A stretch in no span whose every line is carried by some chunk's added text.
        self.kind = {}
        for a, b, held in self.segments:
            text = self.doc.text[a:b]
            if held or not text.strip():
                self.kind[a] = "held" if held else "blank"
            else:
                lines = [
                    line.strip().lstrip("#").strip() for line in text.splitlines() if line.strip()
                ]
                self.kind[a] = (
                    "carried" if all(line and line in carried_text for line in lines) else "lost"
                )

    def added(self) -> list[tuple[int, str]]:
        """(ordinal, what the chunk's text holds beyond its span), for chunks that add anything."""
        out = []
        for c in self.chunks:
            source = self.doc.text[c.start : c.end]
            if c.text == source:
                continue
            if source and source in c.text:
                at = c.text.index(source)
                extra = " … ".join(
                    p.strip() for p in (c.text[:at], c.text[at + len(source) :]) if p.strip()
                )
            else:
                extra = "(its text is rewritten, not a slice of the source)"
            out.append((c.ordinal, extra.replace("\n", " ⏎ ")))
        return out

    def summary(self) -> str:
        lost = sum(b - a for a, b, _ in self.segments if self.kind[a] == "lost")
        carried = sum(b - a for a, b, _ in self.segments if self.kind[a] == "carried")
        shared = sum(b - a for a, b, held in self.segments if len(held) > 1)
        return (
            f"{len(self.chunks)} chunks · {shared} characters in two chunks or more · "
            f"{lost} characters (not blank) {self.gap}"
            + (
                f" · {carried} characters of headings carried by breadcrumbs only"
                if carried
                else ""
            )
        )

    def __str__(self) -> str:
        starts: dict[int, list[int]] = {}
        ends: dict[int, list[int]] = {}
        for c in self.chunks:
            starts.setdefault(c.start, []).append(c.ordinal)
            ends.setdefault(c.end, []).append(c.ordinal)
        out = [self.title] if self.title else []
        out.append(self.summary())
        body = []
        for a, b, _ in self.segments:
            body += [f"‹{k}⟧" for k in ends.get(a, []) if a != self.window[0]]
            body += [f"⟦{k}›" for k in starts.get(a, [])]
            text = self.doc.text[a:b]
            mark = {"lost": GAP_MARK, "carried": CARRIED_MARK}.get(self.kind[a])
            body.append(f"{mark[0]}{text}{mark[1]}" if mark else text)
        body += [f"‹{k}⟧" for k in ends.get(self.window[1], [])]
        out.append("".join(body))
        out += [f"chunk {k} adds: {extra}" for k, extra in self._added]
        return "\n".join(out)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        from html import escape

        colour = {c.ordinal: CUT_COLOURS[i % len(CUT_COLOURS)] for i, c in enumerate(self.chunks)}
        first = {c.start: c.ordinal for c in reversed(self.chunks)}
        parts = []
        for a, b, held in self.segments:
            if a in first:
                k = first[a]
                parts.append(
                    f'<sup style="background:{colour[k]};border:1px solid #888;'
                    f'padding:0 2px;font-size:70%">{k}</sup>'
                )
            text = escape(self.doc.text[a:b])
            if not held:
                style = {
                    "lost": "color:#b00020;text-decoration:line-through",
                    "carried": "color:#888;font-style:italic",
                }.get(self.kind[a], "")
            elif len(held) == 1:
                style = f"background:{colour[held[0]]}"
            else:
                stripes = ",".join(
                    f"{colour[k]} {6 * i}px,{colour[k]} {6 * i + 6}px" for i, k in enumerate(held)
                )
                style = (
                    f"background:repeating-linear-gradient(45deg,{stripes});outline:1px dashed #555"
                )
            parts.append(f'<span style="{style}">{text}</span>' if style else text)
        added = "".join(
            f"<li>chunk {k} adds: <code>{escape(extra)}</code></li>" for k, extra in self._added
        )
        head = f"<b>{escape(self.title)}</b><br>" if self.title else ""
        return (
            f'<div style="font-size:12px">{head}<i>{escape(self.summary())}</i>'
            f'<div style="font-family:monospace;white-space:pre-wrap;line-height:1.7;'
            f"border:1px solid #ddd;"
            f'padding:6px">{"".join(parts)}</div>'
            + (f'<ul style="margin:2px 0">{added}</ul>' if added else "")
            + "</div>"
        )


def show_cuts(
    doc: Document,
    chunks: Sequence[Chunk],
    title: str = "",
    window: tuple[int, int] | None = None,
    gap: str = "in no chunk",
) -> CutView:
    """The document with every chunk's span coloured: put it last in a cell to see it.

    `window=(start, end)` shows only that stretch of a long document. `gap` names, in the
    summary line, what the text outside every span is in none of (``"in no vector"`` when the
    spans are what an embedder read).
    """
    return CutView(doc, chunks, title, window, gap)
