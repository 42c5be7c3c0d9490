"""The programming languages chunklab cuts by their syntax tree: one table, suffix -> grammar.

Every place that needs to know whether a file is code, and which grammar reads it, asks this
module: the code chunker, the CLI's file discovery and its help text. Adding a language is one
`Language(...)` entry below plus its pinned grammar wheel in pyproject.toml.

A grammar is a tree-sitter parser shipped as a wheel (`tree-sitter-python`, ...), loaded on first
use, never downloaded. What the chunker needs from each language is only a few node kinds:

- `scopes`: definitions that open a scope and have a name (a class, a function, a method); a
  chunk's heading path is the names of the scopes around it (`module > Class > method`).
- `bodies`: the nodes that hold a scope's statements (Python's `block`, Java's `class_body`); a
  definition too big for the budget is cut between the statements of its body, its header kept
  with the first of them.
- `imports`: statements that belong together at the top of a file (imports, `package`), kept
  as one unit with the module's docstring and leading comments.
- `attached`: nodes that belong to what follows them (comments, Rust's `#[attributes]`, Java's
  annotations are already inside their declaration): glued to the next statement when no blank
  line separates them.
- `wrappers`: nodes that wrap a definition (Python's `decorated_definition`, JavaScript's
  `export_statement`): their name is the wrapped definition's.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import PurePath
from typing import Any


@dataclass(frozen=True)
class Language:
    """One language: its name, its suffixes, where its grammar lives and its node kinds."""

    name: str
    suffixes: tuple[str, ...]
    grammar: tuple[str, str]  # (module, function returning the grammar's language pointer)
    scopes: frozenset[str]
    bodies: frozenset[str]
    imports: frozenset[str]
    attached: frozenset[str]
    wrappers: frozenset[str] = field(default_factory=frozenset)
    docstrings: bool = False  # a string statement first in a module or body is its docstring


def kinds(*names: str) -> frozenset[str]:
    return frozenset(names)


LANGUAGES: tuple[Language, ...] = (
    Language(
        "python",
        (".py", ".pyi"),
        ("tree_sitter_python", "language"),
        scopes=kinds("function_definition", "class_definition"),
        bodies=kinds("block"),
        imports=kinds("import_statement", "import_from_statement", "future_import_statement"),
        attached=kinds("comment", "decorator"),
        wrappers=kinds("decorated_definition"),
        docstrings=True,
    ),
    Language(
        "javascript",
        (".js", ".mjs", ".cjs", ".jsx"),
        ("tree_sitter_javascript", "language"),
        scopes=kinds(
            "function_declaration",
            "generator_function_declaration",
            "class_declaration",
            "method_definition",
        ),
        bodies=kinds("statement_block", "class_body"),
        imports=kinds("import_statement"),
        attached=kinds("comment", "decorator"),
        wrappers=kinds("export_statement"),
    ),
    Language(
        "typescript",
        (".ts", ".mts", ".cts"),
        ("tree_sitter_typescript", "language_typescript"),
        scopes=kinds(
            "function_declaration",
            "generator_function_declaration",
            "class_declaration",
            "abstract_class_declaration",
            "interface_declaration",
            "enum_declaration",
            "method_definition",
            "internal_module",
        ),
        bodies=kinds("statement_block", "class_body", "interface_body", "object_type", "enum_body"),
        imports=kinds("import_statement"),
        attached=kinds("comment", "decorator"),
        wrappers=kinds("export_statement"),
    ),
    Language(
        "go",
        (".go",),
        ("tree_sitter_go", "language"),
        scopes=kinds("function_declaration", "method_declaration", "type_spec"),
        bodies=kinds("block", "field_declaration_list", "method_spec_list"),
        imports=kinds("package_clause", "import_declaration"),
        attached=kinds("comment"),
    ),
    Language(
        "java",
        (".java",),
        ("tree_sitter_java", "language"),
        scopes=kinds(
            "class_declaration",
            "interface_declaration",
            "enum_declaration",
            "record_declaration",
            "method_declaration",
            "constructor_declaration",
        ),
        bodies=kinds("class_body", "interface_body", "enum_body", "block", "constructor_body"),
        imports=kinds("package_declaration", "import_declaration"),
        attached=kinds("line_comment", "block_comment"),
    ),
    Language(
        "rust",
        (".rs",),
        ("tree_sitter_rust", "language"),
        scopes=kinds(
            "function_item",
            "impl_item",
            "struct_item",
            "enum_item",
            "trait_item",
            "mod_item",
        ),
        bodies=kinds("declaration_list", "block", "field_declaration_list", "enum_variant_list"),
        imports=kinds("use_declaration", "extern_crate_declaration"),
        attached=kinds("line_comment", "block_comment", "attribute_item"),
    ),
)

BY_SUFFIX: dict[str, Language] = {s: lang for lang in LANGUAGES for s in lang.suffixes}
BY_NAME: dict[str, Language] = {lang.name: lang for lang in LANGUAGES}
CODE_SUFFIXES: tuple[str, ...] = tuple(BY_SUFFIX)


def language_for(path: str | PurePath) -> Language | None:
    """The language a file's suffix names, or None for a file that is not code chunklab parses."""
    return BY_SUFFIX.get(PurePath(str(path)).suffix.lower())


@cache
def parser_for(name: str) -> Any:
    """A tree-sitter parser for language `name`, its grammar loaded once per process."""
    import tree_sitter

    module, function = BY_NAME[name].grammar
    grammar = getattr(importlib.import_module(module), function)()
    return tree_sitter.Parser(tree_sitter.Language(grammar))


def error_lines(node: Any) -> Iterator[int]:
    """The 1-based lines where a tree-sitter tree holds an error or a missing node: where the
    parser recovered, so a reader can be told which lines the syntax tree could not place."""
    if not node.has_error:
        return
    if node.type == "ERROR" or node.is_missing:
        yield node.start_point[0] + 1
        return
    for child in node.children:
        yield from error_lines(child)


def syntax_error_lines(text: str, language: Language) -> list[int]:
    """The lines of `text` with syntax errors, sorted, each once (`error_lines`)."""
    tree = parser_for(language.name).parse(text.encode("utf-8"))
    return sorted(set(error_lines(tree.root_node)))
