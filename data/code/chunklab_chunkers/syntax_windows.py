"""A file's syntax tree cut into windows: cAST's split-then-merge, the rules `CodeChunker` states.

`SyntaxCut` parses one file with tree-sitter and walks its tree top-down. Siblings are grouped into
units that are never cut apart (a statement with the comments and decorators above it, a file's
docstring and imports, closing punctuation with the statement before it); units are assigned to
windows greedily while the window, under its scope's breadcrumb, fits the token budget; a unit too
big alone is opened and its parts cut the same way, a body continuing its header's window. Text a
parser skips while recovering from a syntax error is kept as units of its own, line by line, so
every non-blank character of the file lands in exactly one window.

Kept apart from `chunkers.code` so that module says what a chunk of code is, and this one how the
tree is walked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from chunklab.parsing.languages import Language, error_lines, parser_for
from chunklab.tokens.budget import SourceBudget
from chunklab.tokens.utf8 import Utf8Offsets

CRUMB_SEP = "\n\n"  # between the breadcrumb and the code, as MarkdownChunker separates them


@dataclass
class Unit:
    """Sibling nodes that are cut as one: a statement with its leading comments, a header with
    its closing brace, the imports of a file. Spans are character offsets into the document."""

    nodes: list[Any]  # tree-sitter nodes, in order
    start: int
    end: int
    groups: list[list[Any]] | None = None  # statements merged into one unit (a file's head)


@dataclass(frozen=True)
class Scope:
    """The definition a window lies in: its path of names and its span (the file at the top)."""

    names: tuple[str, ...]
    start: int
    end: int


@dataclass
class Window:
    """Consecutive units that become one chunk, and the scope they lie in."""

    scope: Scope
    units: list[Unit] = field(default_factory=list)
    over_budget: bool = False

    @property
    def start(self) -> int:
        return self.units[0].start

    @property
    def end(self) -> int:
        return self.units[-1].end


OPENERS = frozenset("([{")  # punctuation that belongs to what follows it


def is_atomic(node: Any) -> bool:
    """Nodes never opened: leaves, strings and comments (a string is cut nowhere)."""
    return node.child_count == 0 or "string" in node.type or "comment" in node.type


class SyntaxCut:
    """One file's syntax tree cut into windows (cAST's split-then-merge, with the rules above)."""

    def __init__(
        self, text: str, language: Language, budget: SourceBudget, max_tokens: int, module: str
    ) -> None:
        self.text = text
        self.language = language
        self.budget = budget
        self.max_tokens = max_tokens
        self.module = module
        self.offsets = Utf8Offsets(text)
        self.tree = parser_for(language.name).parse(text.encode("utf-8"))
        self.errors = sorted(set(error_lines(self.tree.root_node)))
        self._crumbs: dict[tuple[str, ...], tuple[str, int]] = {}

    # --- spans ------------------------------------------------------------------------------------

    def char(self, byte: int) -> int:
        """The character offset of a UTF-8 byte offset (tree-sitter counts bytes)."""
        return byte if self.offsets.ascii else self.offsets.char_of(byte)

    def unit(self, nodes: list[Any], groups: list[list[Any]] | None = None) -> Unit:
        return Unit(nodes, self.char(nodes[0].start_byte), self.char(nodes[-1].end_byte), groups)

    def errors_in(self, start: int, end: int) -> list[int]:
        """Line numbers (1-based) of the syntax errors inside text[start:end]."""
        if not self.errors:
            return []
        first = self.text.count("\n", 0, start) + 1
        last = first + self.text.count("\n", start, end)
        return [line for line in self.errors if first <= line <= last]

    # --- names and breadcrumbs --------------------------------------------------------------------

    def scope_name(self, node: Any) -> str | None:
        """The name a definition opens a scope with, or None for a node that opens none (a
        wrapper such as a decorated definition opens none: the definition inside it does)."""
        if node.type not in self.language.scopes:
            return None
        name = node.child_by_field_name("name")
        if name is None:  # Rust's `impl Type` names its type
            name = node.child_by_field_name("type")
        if name is None:
            return node.type
        return self.text[self.char(name.start_byte) : self.char(name.end_byte)]

    def crumb(self, names: tuple[str, ...]) -> tuple[str, int]:
        """(breadcrumb, tokens it and its separator take): the path, shortened to its last name
        when the full path would take over half the budget, dropped when even that would."""
        if names not in self._crumbs:
            half = self.max_tokens // 2
            chosen, cost = "", 0
            for candidate in (" > ".join(names), "… > " + names[-1]):
                measured = self.budget.text(candidate)
                tokens = measured.count + self.budget.delta(measured.tail, CRUMB_SEP)
                if tokens <= half:
                    chosen, cost = candidate, tokens
                    break
            self._crumbs[names] = (chosen, cost)
        return self._crumbs[names]

    def text_of(self, window: Window) -> tuple[str, int]:
        """A window's chunk text, breadcrumb first, and its exact token count."""
        crumb, _ = self.crumb(window.scope.names)
        body = self.budget.span(window.start, window.end)
        if not crumb:
            return body.text, body.count
        joined = self.budget.join(self.budget.text(crumb), CRUMB_SEP, body)
        return joined.text, joined.count

    def fits(self, start: int, end: int, scope: Scope) -> bool:
        """Whether text[start:end] under `scope`'s breadcrumb fits the budget."""
        if not self.budget.exact:
            return self.text_of(Window(scope, [Unit([], start, end)]))[1] <= self.max_tokens
        room = self.max_tokens - self.crumb(scope.names)[1]
        return not self.budget.surely_over(start, end, room) and (
            self.budget.span_count(start, end) <= room
        )

    # --- units ------------------------------------------------------------------------------------

    def units(self, nodes: Sequence[Any], top: bool) -> list[Unit]:
        """Siblings grouped into the units that are never cut apart (see the module docstring)."""
        attached, groups = self.language.attached, []
        pending: list[Any] = []  # comments and opening punctuation waiting for what follows
        for node in nodes:
            if pending and node.is_named and not self._touches(pending[-1], node):
                groups.append(pending)  # a blank line: the comments stand alone
                pending = []
            if not node.is_named and groups and not pending and node.type not in OPENERS:
                groups[-1].append(node)  # closing punctuation: with the statement before it
                continue
            pending.append(node)
            if node.is_named and node.type not in attached:
                groups.append(pending)
                pending = []
        if pending:
            if groups:
                groups[-1].extend(pending)
            else:
                groups.append(pending)
        head = self._head_length(groups) if top else 0
        if head > 1:
            merged = [node for group in groups[:head] for node in group]
            return [self.unit(merged, groups[:head]), *(self.unit(g) for g in groups[head:])]
        return [self.unit(group) for group in groups]

    def _touches(self, before: Any, after: Any) -> bool:
        """No blank line between two nodes."""
        gap = self.text[self.char(before.end_byte) : self.char(after.start_byte)]
        return gap.count("\n") <= 1

    def _head_length(self, groups: list[list[Any]]) -> int:
        """How many groups open the file as its docstring, comments and imports."""
        head = 0
        for n, group in enumerate(groups):
            named = {node.type for node in group if node.is_named}
            is_doc = n == 0 and self.language.docstrings and self._is_docstring(group)
            if not (is_doc or named <= self.language.imports | self.language.attached):
                break
            head = n + 1
        return head

    def _is_docstring(self, group: list[Any]) -> bool:
        named = [n for n in group if n.is_named and n.type not in self.language.attached]
        return (
            len(named) == 1
            and named[0].type == "expression_statement"
            and named[0].named_child_count == 1
            and "string" in named[0].named_children[0].type
        )

    # --- windows ----------------------------------------------------------------------------------

    def windows(self) -> list[Window]:
        """The file's windows, in order."""
        root = self.tree.root_node
        if root.child_count == 0:
            return []
        top = Scope((self.module,), self.char(root.start_byte), self.char(root.end_byte))
        units = self.filled(self.units(root.children, top=True), 0, len(self.text))
        return self._assign(units, top, None)

    def filled(self, units: list[Unit], start: int, end: int) -> list[Unit]:
        """`units` with the text between them that no node holds, one unit a line.

        A parser recovering from a syntax error skips text: the ERROR node spans it, but none
        of its children does. That text is kept, line by line, so no character is lost."""
        out: list[Unit] = []
        at = start
        for unit in [*units, Unit([], end, end)]:
            if self.text[at : unit.start].strip():
                for line in self.text[at : unit.start].splitlines(keepends=True):
                    if line.strip():
                        left = at + len(line) - len(line.lstrip())
                        out.append(Unit([], left, at + len(line.rstrip())))
                    at += len(line)
            if unit.nodes:
                out.append(unit)
            at = max(at, unit.end)
        return out

    def _assign(self, units: list[Unit], scope: Scope, carry: Window | None) -> list[Window]:
        """cAST's greedy assignment of sibling units to windows, opening a unit too big alone.

        `carry` is a window holding the header before a body (`def f(x):`): it goes on with the
        body's first statements instead of standing alone.
        """
        out: list[Window] = []
        current = carry if carry is not None else Window(scope)
        for unit in units:
            if current.units and self.fits(current.start, unit.end, current.scope):
                current.units.append(unit)
                continue
            # A body that does not fit with its header is opened even when it would fit alone:
            # the header goes on with the body's first statements, never a chunk of its own.
            header_waits = bool(current.units) and self._is_body(unit)
            if not header_waits and self.fits(unit.start, unit.end, scope):
                if current.units:
                    out.append(current)
                current = Window(scope, [unit])
                continue
            opened = self._open(unit, scope)
            if opened is None:  # a string or comment too big alone: whole, over the budget
                if current.units:
                    out.append(current)
                out.append(Window(scope, [unit], over_budget=True))
                current = Window(scope)
                continue
            parts, inner_scope, is_body = opened
            # A body goes on from its header's window; anything else starts after a closed one.
            carried = current if is_body and current.units else None
            if current.units and carried is None:
                out.append(current)
            out.extend(self._merge_adjacent(self._assign(parts, inner_scope, carried)))
            current = Window(scope)
        if current.units:
            out.append(current)
        return out

    def _is_body(self, unit: Unit) -> bool:
        """Whether a unit is a definition's body (a block of statements), with its punctuation."""
        main = [n for n in unit.nodes if n.is_named and n.type not in self.language.attached]
        return len(main) == 1 and main[0].type in self.language.bodies

    def _open(self, unit: Unit, scope: Scope) -> tuple[list[Unit], Scope, bool] | None:
        """A unit's parts as units of their own, the scope they lie in, and whether the unit is a
        body (its parts go on from the header before it); None when it cannot be opened (a
        string, a comment, a leaf). What the unit holds besides its main node (leading comments,
        closing punctuation) is kept, joined to the first and last of the main node's parts."""
        if unit.groups is not None:  # the file's head: its statements
            return [self.unit(group) for group in unit.groups], scope, False
        if not unit.nodes:  # a line of text no node holds
            return None
        attached = self.language.attached
        main_at = [i for i, n in enumerate(unit.nodes) if n.is_named and n.type not in attached]
        i = main_at[-1] if main_at else len(unit.nodes) - 1
        main = unit.nodes[i]
        if is_atomic(main) or self._holds_string_too_big(main, scope):
            return None
        name = self.scope_name(main)
        inner = Scope((*scope.names, name), unit.start, unit.end) if name is not None else scope
        parts = self.filled(
            self.units(main.children, top=False),
            self.char(main.start_byte),
            self.char(main.end_byte),
        )
        if not parts:
            return None
        before, after = unit.nodes[:i], unit.nodes[i + 1 :]
        if before:
            first = parts[0]
            parts[0] = Unit([*before, *first.nodes], unit.start, first.end)
        if after:
            last = parts[-1]
            parts[-1] = Unit([*last.nodes, *after], last.start, unit.end)
        return parts, inner, main.type in self.language.bodies

    def _holds_string_too_big(self, node: Any, scope: Scope) -> bool:
        """Whether a simple statement (one holding no definition and no body) holds a string or
        comment too big for the budget alone. No cut inside such a statement brings it within the
        budget, and opening it would only part its head (`f.__doc__ =`, `call(`) from the string,
        so it is kept whole, over the budget, as the string alone would be."""
        found, stack = False, [node]
        while stack:
            n = stack.pop()
            if n.type in self.language.bodies or self.scope_name(n) is not None:
                return False  # something with statements inside: opened as usual
            if is_atomic(n):
                start, end = self.char(n.start_byte), self.char(n.end_byte)
                found = found or (n.child_count > 0 and not self.fits(start, end, scope))
                continue
            stack.extend(n.children)
        return found

    def _merge_adjacent(self, windows: list[Window]) -> list[Window]:
        """cAST's last step: neighbouring windows of one opened node merged while they fit."""
        merged: list[Window] = []
        for window in windows:
            last = merged[-1] if merged else None
            if (
                last is not None
                and not last.over_budget
                and not window.over_budget
                and last.scope == window.scope
                and self.fits(last.start, window.end, last.scope)
            ):
                last.units.extend(window.units)
            else:
                merged.append(window)
        return merged
