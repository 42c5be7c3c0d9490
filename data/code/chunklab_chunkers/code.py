"""Chunking source code by its syntax tree: cut where the language says a piece ends.

A fixed window cuts a function in half; a separator list ("\\nclass ", "\\ndef ") guesses at the
structure a parser knows. Here the file is parsed with tree-sitter (`chunklab.parsing.languages`)
and cut as cAST does (Zhang et al. 2025, "cAST: Enhancing Code Retrieval-Augmented Generation with
Structural Chunking via Abstract Syntax Tree"): walk the tree top-down; a node that fits the
budget is a unit; one that does not is opened and its children are cut the same way; adjacent
units are merged greedily, left to right, while the merge fits. cAST measures size in
non-whitespace characters; here, as for every chunker in chunklab, in tokens of `count_tokens`.

What chunklab adds to cAST, each for a reason a reader of code would give:

- A chunk's heading path is its scope, `module > Class > method`: the names of the definitions
  that enclose it. Its breadcrumb (the path joined with " > ") heads its text and counts in
  the budget, as in `MarkdownChunker`.
- A definition too big for the budget keeps its header (`def f(x):`, `class A {`) with the first
  statements of its body, not as a chunk of its own; closing punctuation (`}`) stays with the
  statement before it.
- Comments, and attributes such as Rust's `#[derive]`, stay with what follows them when no blank
  line separates them; a file's leading docstring, comments and imports are one unit.
- Strings and comments are never opened: a string literal is cut nowhere. One that is too big
  for the budget alone is a chunk of its own, over the budget, marked `over_budget` in its
  metadata: the only case a chunk may exceed `max_tokens`. A simple statement that holds one
  (`f.__doc__ = '''...'''`, a call with it as an argument) is not opened either: no cut
  inside it would bring it within the budget, and the statement's head belongs with its string.
- Spans are exact: each chunk's code is `doc.text[start:end]`, and the chunks' spans, in order,
  cover every character of the file that is not white space.
- A file with syntax errors still chunks: tree-sitter recovers around the error, and the chunks
  whose span holds an error say so (`syntax_errors` in their metadata).

A document whose language chunklab does not parse (no known suffix, no `language` given) is cut
between lines, packed up to the budget, and its chunks say `language: text`.

Parents (small-to-big): a chunk's parent is the innermost definition that encloses it without
lying wholly inside it (a chunk cut from a long method gets the method; a chunk holding whole
methods gets their class), else the whole file.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Any

from pydantic import ConfigDict, Field

from chunklab.chunkers.syntax_windows import CRUMB_SEP, Scope, SyntaxCut
from chunklab.contracts import Chunk, Contract, Document, as_document
from chunklab.parsing.languages import BY_NAME, Language, language_for
from chunklab.tokens.budget import SourceBudget
from chunklab.tokens.counters import TokenCounter, cl100k
from chunklab.tokens.packing import MIN_TOKENS, pack_spans, split_text

TEXT = "text"  # the language of a document chunklab does not parse


class CodeChunker(Contract):
    """Chunks of source code cut between syntax-tree nodes, each within `max_tokens`."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    max_tokens: int = Field(200, ge=MIN_TOKENS, description="hard budget per chunk, in tokens")
    count_tokens: TokenCounter = Field(cl100k, description="the counter that defines the budget")
    language: str | None = Field(
        None,
        description="the grammar to parse with (python, javascript, typescript, go, java, rust); "
        "None: from the suffix of the document's uri",
    )

    def language_of(self, doc: Document) -> Language | None:
        """The language `doc` is parsed in: the one given, else its uri's suffix, else None."""
        if self.language is not None:
            if self.language not in BY_NAME:
                raise ValueError(
                    f"unknown language {self.language!r} (known: {', '.join(BY_NAME)})"
                )
            return BY_NAME[self.language]
        return language_for(doc.uri)

    def split(self, doc: Document | str) -> list[Chunk]:
        """The chunks in order: code cut between syntax nodes, each headed by its scope."""
        doc = as_document(doc)
        return [chunk for chunk, _ in self._chunks_with_parents(doc)]

    def parents(self, doc: Document | str) -> list[Chunk]:
        """The definitions (or the whole file) that `split`'s chunks point at by `parent_id`:
        what small-to-big hands over, each with its scope as breadcrumb. Not held to the budget."""
        doc = as_document(doc)
        seen: dict[str, Chunk] = {}
        for _, parent in self._chunks_with_parents(doc):
            seen.setdefault(parent.chunk_id, parent)
        return sorted(seen.values(), key=lambda p: (p.start, -p.end, p.chunk_id))

    # --- the cut --------------------------------------------------------------------------------

    def _chunks_with_parents(self, doc: Document) -> list[tuple[Chunk, Chunk]]:
        budget = SourceBudget(doc.text, self.count_tokens)
        module = PurePath(doc.uri).name or doc.doc_id
        language = self.language_of(doc)
        if language is None:
            return self._text_chunks(doc, budget, module)
        cut = SyntaxCut(doc.text, language, budget, self.max_tokens, module)
        parents: dict[Scope, Chunk] = {}
        out = []
        for n, window in enumerate(cut.windows()):
            scope = window.scope
            if scope not in parents:
                parents[scope] = self._parent(doc, scope, len(parents), budget)
            parent = parents[scope]
            text, tokens = cut.text_of(window)
            errors = cut.errors_in(window.start, window.end)
            metadata: dict[str, Any] = {
                "strategy": "code",
                "tenant": doc.metadata.get("tenant", "default"),
                "language": language.name,
            }
            if window.over_budget:
                metadata["over_budget"] = True
            if errors:
                metadata["syntax_errors"] = errors
            chunk = Chunk.trusted(
                chunk_id=f"{doc.doc_id}#{n}",
                doc_id=doc.doc_id,
                parent_id=parent.chunk_id,
                ordinal=n,
                text=text,
                token_count=tokens,
                heading_path=scope.names,
                start=window.start,
                end=window.end,
                metadata=metadata,
            )
            out.append((chunk, parent))
        return out

    def _parent(self, doc: Document, scope: Scope, n: int, budget: SourceBudget) -> Chunk:
        """The definition (or file) `scope` names, breadcrumb first: what small-to-big hands over.
        Its id holds its position among the parents, so two definitions of one name never
        share one (a property's getter and setter)."""
        crumb = " > ".join(scope.names)
        joined = budget.join(budget.text(crumb), CRUMB_SEP, budget.span(scope.start, scope.end))
        return Chunk.trusted(
            chunk_id=f"{doc.doc_id}#scope{n}:{'/'.join(scope.names[1:]) or scope.names[0]}",
            doc_id=doc.doc_id,
            parent_id=None,
            ordinal=n,
            text=joined.text,
            token_count=joined.count,
            heading_path=scope.names,
            start=scope.start,
            end=scope.end,
            metadata={
                "strategy": "code-parent",
                "tenant": doc.metadata.get("tenant", "default"),
                "section": crumb,
            },
        )

    def _text_chunks(
        self, doc: Document, budget: SourceBudget, module: str
    ) -> list[tuple[Chunk, Chunk]]:
        """A file chunklab does not parse: its lines packed up to the budget (a line too long
        is cut between sentences, then words)."""
        stripped = doc.text.strip()
        first = doc.text.find(stripped[:1]) if stripped else 0
        whole = self._parent(doc, Scope((module,), first, first + len(stripped)), 0, budget)
        crumb = budget.text(module)
        room = self.max_tokens - crumb.count - budget.delta(crumb.tail, CRUMB_SEP)
        lines, at = [], 0
        for line in doc.text.splitlines(keepends=True):
            if line.strip():
                stripped = line.rstrip("\r\n")
                lines.append((at, at + len(stripped)))
            at += len(line)
        spans: list[tuple[int, int]] = []
        for a, b in pack_spans(lines, room, budget):
            if budget.span_count(a, b) <= room:
                spans.append((a, b))
            else:
                spans.extend((p.start, p.end) for p in split_text(a, b, room, budget))
        out = []
        for n, (a, b) in enumerate(spans):
            joined = budget.join(crumb, CRUMB_SEP, budget.span(a, b))
            chunk = Chunk.trusted(
                chunk_id=f"{doc.doc_id}#{n}",
                doc_id=doc.doc_id,
                parent_id=whole.chunk_id,
                ordinal=n,
                text=joined.text,
                token_count=joined.count,
                heading_path=(module,),
                start=a,
                end=b,
                metadata={
                    "strategy": "code",
                    "tenant": doc.metadata.get("tenant", "default"),
                    "language": TEXT,
                },
            )
            out.append((chunk, whole))
        return out
