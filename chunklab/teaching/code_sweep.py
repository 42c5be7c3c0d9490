"""What a cut of code keeps whole, over budgets: the skeptic's cut with no parser, and each
definition measured the way the syntax tree's cut counts it.

Notebook 11 counts the definitions that fit the budget and that a cut breaks. Two things make
that count fair:

- `indent_pack`, the first baseline a skeptic would write: no parser, only indentation. Lines
  are cut only before the least-indented lines of a stretch; a block too big is cut the same way
  inside it; adjacent blocks are then merged greedily while they fit.
- `held_text`: "fits" measured as the tree's cut measures it. Its budget counts the breadcrumb
  (`m.py > Class > method`) and a blank line, the comment lines just above a definition (which
  stay with it), and, when the definition is the first statement of an opened body, the header
  of the definition it opens (and so on up), which leads its piece. A definition whose text
  alone fits may not fit that way.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from chunklab.teaching.code_search import (
    DEFINITIONS,
    Piece,
    Span,
    Splitter,
    cut_definitions,
    line_starts,
    node_span,
)
from chunklab.tokens.counters import cl100k

CLOSERS = (")", "]", "}")  # a line that closes a bracket never starts a block
LEADERS = ("#", "@")  # a comment or decorator line at a block's indentation stays with it


def indent_pack(budget: int, count: Callable[[str], int] = cl100k) -> Splitter:
    """The cut with no parser, at `budget` tokens of `count` (no breadcrumb): blocks start at the
    least-indented lines, a block too big is cut inside, a single line too big is a piece alone;
    then adjacent blocks are merged, left to right, while the merge fits."""

    def split(uri: str, source: str) -> list[Piece]:
        lines = source.splitlines(keepends=True)
        at = line_starts(source)

        def indent(i: int) -> int | None:  # None: a blank line
            return len(lines[i]) - len(lines[i].lstrip(" ")) if lines[i].strip() else None

        def code(i: int) -> bool:  # a line neither blank nor a leader
            return bool(lines[i].strip()) and not lines[i].lstrip().startswith(LEADERS)

        def size(a: int, b: int) -> int:
            return count(source[at[a] : at[b]])

        def blocks(lo: int, hi: int) -> list[tuple[int, int]]:
            levels = [n for n in map(indent, range(lo, hi)) if n is not None]
            if not levels:
                return [(lo, hi)]
            top = min(levels)
            heads = [
                i
                for i in range(lo + 1, hi)
                if indent(i) == top and not lines[i].lstrip().startswith(CLOSERS)
            ]
            edges = [lo]
            for i in heads:  # a block starts at a head, or at the leader lines just above it
                while (
                    i - 1 > edges[-1]
                    and indent(i - 1) == top
                    and lines[i - 1].lstrip().startswith(LEADERS)
                ):
                    i -= 1
                if any(code(k) for k in range(edges[-1], i)):  # never a block of leader lines alone
                    edges.append(i)
            spans = list(zip(edges, [*edges[1:], hi], strict=True))
            out: list[tuple[int, int]] = []
            for a, b in spans:
                if b - a == 1 or size(a, b) <= budget:
                    out.append((a, b))
                elif len(spans) == 1:  # one block at this level: its first line, then one level in
                    out += [(a, a + 1), *blocks(a + 1, b)]
                else:
                    out += blocks(a, b)
            return out

        merged: list[tuple[int, int]] = []
        for a, b in blocks(0, len(lines)):
            if merged and size(merged[-1][0], b) <= budget:
                merged[-1] = (merged[-1][0], b)
            else:
                merged.append((a, b))
        return [Piece(uri, at[a], at[b], source[at[a] : at[b]]) for a, b in merged]

    return split


def held_text(uri: str, source: str) -> list[tuple[str, Span, str]]:
    """Each definition (name, span) with the text one chunk of the tree's cut must hold to keep it
    whole: breadcrumb, blank line, then from its first comment line just above (or, first in a
    body, from where its parent's held text starts) to its end, and on past a comment on its last
    line or comment lines under it indented deeper (the cut gives those to its last statement)."""
    starts = line_starts(source)
    out: list[tuple[str, Span, str]] = []

    def comments_above(a: int) -> int:
        above = source[:a].split("\n")[:-1]
        while above and above[-1].strip().startswith("#"):
            line = above.pop()
            a = sum(len(x) + 1 for x in above) + len(line) - len(line.lstrip())
        return a

    def comment_after(b: int, column: int) -> int:
        """The end of the definition's text: past a comment on its last line, and past comment
        lines under it indented deeper than its header (tree-sitter's body holds those)."""
        line_end = source.find("\n", b)
        line_end = len(source) if line_end == -1 else line_end
        end = line_end if source[b:line_end].strip().startswith("#") else b
        while line_end < len(source):
            next_end = source.find("\n", line_end + 1)
            next_end = len(source) if next_end == -1 else next_end
            line = source[line_end + 1 : next_end]
            if not line.strip():
                line_end = next_end  # a blank line: look past it
                continue
            if not line.lstrip().startswith("#") or len(line) - len(line.lstrip()) <= column:
                break
            end = line_end = next_end
        return end

    def visit(node: ast.AST, crumb: str, lead: int | None) -> None:
        body = getattr(node, "body", [])
        for child in ast.iter_child_nodes(node):
            if isinstance(child, DEFINITIONS):
                a, b = node_span(child, source, starts)
                first = (
                    lead if lead is not None and body and body[0] is child else comments_above(a)
                )
                out.append(
                    (
                        child.name,
                        (a, b),
                        f"{crumb}\n\n{source[first : comment_after(b, child.col_offset)]}",
                    )
                )
                visit(child, f"{crumb} > {child.name}", first)
            else:
                visit(child, crumb, None)

    visit(ast.parse(source), uri, None)
    return out


def definition_sizes(files: dict[str, str]) -> list[tuple[str, str, Span, int, int]]:
    """Every definition of every file as (uri, name, span, tokens alone, tokens as the tree counts
    it), in cl100k tokens: counted once, then compared with any budget."""
    return [
        (uri, name, span, cl100k(source[span[0] : span[1]]), cl100k(held))
        for uri, source in files.items()
        for name, span, held in held_text(uri, source)
    ]


def cut_that_fit(
    sizes: list[tuple[str, str, Span, int, int]], pieces: list[Piece], budget: int, as_held: bool
) -> tuple[int, int]:
    """(cut, fitting): of the definitions (`definition_sizes`) that fit `budget`, how many no
    single piece holds whole. `as_held`: fits as the tree counts it; else on its text alone."""
    spans: dict[str, list[Span]] = {}
    for p in pieces:
        spans.setdefault(p.uri, []).append((p.start, p.end))
    fitting = [
        (uri, span) for uri, _, span, alone, held in sizes if (held if as_held else alone) <= budget
    ]
    cut = sum(bool(cut_definitions([span], spans.get(uri, []))) for uri, span in fitting)
    return cut, len(fitting)
