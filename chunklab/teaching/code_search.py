"""Code-retrieval questions built CodeSearchNet's way, and how a cut of the code scores on them.

CodeSearchNet (Husain et al. 2019) made code-search questions without writing any: a documented
function's docstring is the question, the function is the answer. Here, as there, the docstring
is taken out of the code that is indexed (else the question would find its own words), the first
sentence of it is the question, and the function's span in the stripped file is the gold.

A cut is scored on the lines of that span, not on chunk ids, so any splitter (chunklab's or a
framework's, whose chunks are located in the file as character spans) is scored alike:

- complete@k: the top k chunks together hold every non-blank line of the function (the reader
  gets the whole function);
- line recall@k: the share of the function's non-blank lines that the top k hold (a line-level
  recall like the one cAST reports as Recall@5).

Also here: `definitions` (every function and class by Python's `ast`, decorators included) and
`cut_definitions` (those a cut splits across chunks), for counting what a splitter breaks.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chunklab.chunkers.code import CodeChunker
from chunklab.chunkers.fixed import FixedSizeChunker
from chunklab.chunkers.tokentext import TokenTextChunker
from chunklab.contracts import Chunk, Document
from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.embeddings.stored import StoredEmbedder, VectorStore
from chunklab.retrieval.retrievers import DenseRetriever
from chunklab.teaching.code_peers import (
    chonkie_splitter,
    langchain_splitter,
    llama_index_splitter,
    locate_in_order,
)
from chunklab.tokens.counters import cl100k
from chunklab.tokens.wordpiece import minilm_pieces

Span = tuple[int, int]
MIN_QUESTION_WORDS = 3  # CodeSearchNet drops docstrings shorter than three tokens
BUDGET = 200  # cl100k tokens: the series' budget, for every cut of the experiment
SIZE_MATCHED = (150, 155, 160, 165)  # lines packed at these average within 5% of the tree's size
OVERLAP = 100  # tokens the fixed window at BUDGET shares with the next, half its size (11b)
SWEEP = (150, 250, 300, 400)  # the other budgets the tree and the blind cuts are cut at (11b, 11c)


@dataclass(frozen=True)
class CodeQuestion:
    """A documented function turned into a question: its docstring's first sentence, the file it
    is in, its qualified name and its span in the file with the docstrings taken out."""

    question: str
    uri: str
    function: str
    start: int
    end: int


def line_starts(source: str) -> list[int]:
    """The character offset where each line starts, plus one past the end (1-based lines at i-1)."""
    starts = [0]
    for line in source.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return starts


def node_span(node: ast.AST, source: str, starts: list[int]) -> Span:
    """A definition's character span: from its first decorator (or `def`) to its last character.
    `ast` columns count UTF-8 bytes, converted here to characters."""
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])  # type: ignore[attr-defined]
    line = source[starts[first - 1] : starts[first]]
    start = starts[first - 1] + len(line) - len(line.lstrip())
    end_line = node.end_lineno or node.lineno  # type: ignore[attr-defined]
    last = source[starts[end_line - 1] : starts[end_line]]
    end = starts[end_line - 1] + len(last.encode()[: node.end_col_offset].decode())  # type: ignore[attr-defined]
    return start, end


DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def definitions(source: str) -> list[tuple[str, Span]]:
    """(name, span) of every function and class in `source`, in the order `ast.walk` meets them."""
    starts = line_starts(source)
    return [
        (node.name, node_span(node, source, starts))
        for node in ast.walk(ast.parse(source))
        if isinstance(node, DEFINITIONS)
    ]


def cut_definitions(spans: Sequence[Span], chunk_spans: Sequence[Span]) -> list[Span]:
    """The definitions no single chunk holds whole (each chunk span taken as it is)."""
    return [(a, b) for a, b in spans if not any(s <= a and b <= e for s, e in chunk_spans)]


def first_sentence(docstring: str) -> str:
    """The docstring's first sentence: up to the first '. ' (or blank line), on one line."""
    paragraph = docstring.strip().split("\n\n")[0]
    sentence = re.split(r"(?<=[.!?])\s", paragraph, maxsplit=1)[0]
    return " ".join(sentence.split())


def _docstring_node(node: ast.AST) -> ast.Expr | None:
    body = getattr(node, "body", [])
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        return body[0] if isinstance(body[0].value.value, str) else None
    return None


def _qualified(tree: ast.Module) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function with its qualified name (Class.method, outer.inner), in source order."""
    out: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, DEFINITIONS):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    out.append((name, child))
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(tree, "")
    return out


def strip_docstrings(source: str, uri: str) -> tuple[str, list[CodeQuestion]]:
    """`source` without its functions' docstrings (a body left empty gets `pass`), and one
    question per documented function whose first sentence has at least three words."""
    functions = _qualified(ast.parse(source))
    lines = source.splitlines(keepends=True)
    asked: dict[str, str] = {}
    for name, node in reversed(functions):  # bottom up: earlier line numbers stay valid
        doc = _docstring_node(node)
        if doc is None:
            continue
        sentence = first_sentence(str(doc.value.value))  # type: ignore[attr-defined]
        if len(sentence.split()) >= MIN_QUESTION_WORDS:
            asked[name] = sentence
        first, last = doc.lineno - 1, (doc.end_lineno or doc.lineno)
        indent = lines[first][: len(lines[first]) - len(lines[first].lstrip())]
        lines[first:last] = [] if len(node.body) > 1 else [f"{indent}pass\n"]
    stripped = "".join(lines)
    starts = line_starts(stripped)
    questions = [
        CodeQuestion(asked[name], uri, name, *node_span(node, stripped, starts))
        for name, node in _qualified(ast.parse(stripped))
        if name in asked
    ]
    return stripped, questions


def code_lines(source: str, start: int, end: int) -> frozenset[int]:
    """The 1-based numbers of the non-blank lines whose every non-blank character lies inside
    source[start:end]: the lines a chunk of that span gives the reader whole."""
    starts = line_starts(source)
    out = set()
    first = source.count("\n", 0, start)
    for i in range(first, len(starts) - 1):
        if starts[i] >= end:
            break
        line = source[starts[i] : starts[i + 1]]
        if not line.strip():
            continue
        a = starts[i] + len(line) - len(line.lstrip())
        b = starts[i] + len(line.rstrip())
        if start <= a and b <= end:
            out.add(i + 1)
    return frozenset(out)


def complete_at(
    found: Sequence[frozenset[tuple[str, int]]], gold: frozenset[tuple[str, int]]
) -> float:
    """1.0 when the chunks found (each a set of (file, line)) hold every gold line, else 0.0."""
    held = frozenset().union(*found) if found else frozenset()
    return float(gold <= held)


def line_recall(
    found: Sequence[frozenset[tuple[str, int]]], gold: frozenset[tuple[str, int]]
) -> float:
    """The share of the gold lines the chunks found hold."""
    held = frozenset().union(*found) if found else frozenset()
    return len(gold & held) / len(gold) if gold else 0.0


# --- a cut of the corpus, and its scores --------------------------------------------------------


@dataclass(frozen=True)
class Piece:
    """One chunk of a cut, located: the file, its span there, and the text that is indexed (a
    chunklab chunk's text starts with its breadcrumb; a peer's is the span itself)."""

    uri: str
    start: int
    end: int
    text: str


Splitter = Callable[[str, str], list[Piece]]  # (uri, source) -> the pieces of that file


def corpus(folder: Path) -> tuple[dict[str, str], list[CodeQuestion]]:
    """Every `.py` file under `folder` (by name, sorted) with its functions' docstrings taken out,
    and the questions they made."""
    files: dict[str, str] = {}
    questions: list[CodeQuestion] = []
    for path in sorted(folder.glob("*.py")):
        files[path.name], asked = strip_docstrings(path.read_text(encoding="utf-8"), path.name)
        questions += asked
    return files, questions


def chunker_splitter(chunker: Any, crumb: bool = True, as_text: bool = False) -> Splitter:
    """A chunklab chunker as a splitter; `crumb=False` indexes the bare span (no breadcrumb);
    `as_text=True` hides the suffix, so `CodeChunker` packs whole lines (cAST's line baseline)."""

    def split(uri: str, source: str) -> list[Piece]:
        name = f"{uri}.txt" if as_text else uri
        doc = Document(doc_id=name, uri=name, title="", text=source)
        return [
            Piece(uri, c.start, c.end, c.text if crumb else source[c.start : c.end])
            for c in chunker.split(doc)
        ]

    return split


def text_splitter(split_text: Callable[[str], list[str]]) -> Splitter:
    """A framework's `split_text` as a splitter: its strings located in the file, in order
    (`code_peers.locate_in_order`); a string found nowhere is an error, never a silent drop."""

    def split(uri: str, source: str) -> list[Piece]:
        found = locate_in_order(source, split_text(source))
        if found.unlocated:
            raise ValueError(f"{uri}: {found.unlocated} chunks are in no place of the file")
        return [Piece(uri, a, b, source[a:b]) for a, b in found.spans]

    return split


def cut_corpus(files: dict[str, str], splitter: Splitter) -> list[Piece]:
    """Every file's pieces, in file order."""
    return [piece for uri, source in files.items() for piece in splitter(uri, source)]


def functions_cut(
    files: dict[str, str], pieces: Sequence[Piece], fits: Callable[[str], bool]
) -> tuple[int, int]:
    """(cut, whole-able): of the definitions whose text fits the budget alone (`fits`), how many
    no single piece holds whole, and how many there are."""
    cut = able = 0
    for uri, source in files.items():
        spans = [(p.start, p.end) for p in pieces if p.uri == uri]
        defs = [span for _, span in definitions(source) if fits(source[span[0] : span[1]])]
        able += len(defs)
        cut += len(cut_definitions(defs, spans))
    return cut, able


def as_chunks(pieces: Sequence[Piece]) -> list[Chunk]:
    """The pieces of a cut as chunks a retriever ranks; chunk n's id is `f"{uri}#{n}"`, n its
    place in `pieces`."""
    return [
        Chunk.trusted(
            chunk_id=f"{p.uri}#{n}",
            doc_id=p.uri,
            parent_id=None,
            ordinal=n,
            text=p.text,
            token_count=0,
            heading_path=(),
            start=p.start,
            end=p.end,
            metadata={},
        )
        for n, p in enumerate(pieces)
    ]


def score_cut(
    files: dict[str, str],
    pieces: Sequence[Piece],
    questions: Sequence[CodeQuestion],
    retriever: Any,
    k: int = 5,
) -> dict[str, list[float]]:
    """Per question, in order: complete@1, complete@k and line recall@k of `retriever` ranking
    every piece of the cut for the question."""
    chunks = as_chunks(pieces)
    held = {
        c.chunk_id: frozenset((p.uri, line) for line in code_lines(files[p.uri], p.start, p.end))
        for c, p in zip(chunks, pieces, strict=True)
    }
    out: dict[str, list[float]] = {"complete@1": [], f"complete@{k}": [], f"recall@{k}": []}
    for q in questions:
        gold = frozenset((q.uri, line) for line in code_lines(files[q.uri], q.start, q.end))
        found = [held[hit.ref_id] for hit in retriever.rank(q.question, chunks, k)]
        out["complete@1"].append(complete_at(found[:1], gold))
        out[f"complete@{k}"].append(complete_at(found, gold))
        out[f"recall@{k}"].append(line_recall(found, gold))
    return out


def blind_cuts_and_tree(budget: int) -> dict[str, Splitter]:
    """The fixed token window, whole lines packed and chunklab's syntax-tree cut at `budget`
    cl100k tokens: the lead's three cuts, without importing the frameworks' splitters."""
    code = CodeChunker(max_tokens=budget)
    fixed = FixedSizeChunker(size=budget, overlap=0, unit="tokens")
    return {
        "fixed tokens": chunker_splitter(fixed, crumb=False),
        "lines packed": chunker_splitter(code, crumb=False, as_text=True),
        "chunklab code": chunker_splitter(code),
    }


def experiment_cuts(budget: int) -> dict[str, Splitter]:
    """The cuts the experiment compares, all at `budget` cl100k tokens: a fixed token window and
    whole lines packed (the baselines cAST starts from), the three frameworks' code splitters, and
    chunklab's syntax-tree cut with and without its breadcrumb."""
    lead, code = blind_cuts_and_tree(budget), CodeChunker(max_tokens=budget)
    return {
        "fixed tokens": lead["fixed tokens"],
        "lines packed": lead["lines packed"],
        "LangChain from_language": text_splitter(langchain_splitter(budget)),
        "LlamaIndex CodeSplitter": text_splitter(llama_index_splitter(budget, "tokens", "")),
        "Chonkie CodeChunker": text_splitter(chonkie_splitter(budget)),
        "chunklab code": lead["chunklab code"],
        "chunklab code, no breadcrumb": chunker_splitter(code, crumb=False),
    }


def minilm_budget_cuts(budget: int) -> dict[str, Splitter]:
    """The two cuts blind to structure and the syntax tree at `budget` MiniLM word pieces, [CLS]
    and [SEP] included, instead of cl100k tokens: a budget in the embedder's own unit, so no chunk
    within it runs past MiniLM's read limit of 256 pieces (the check on the cl100k budget's
    advantage for the tree, which leaves more of the blind cuts' chunks read only in part)."""
    code = CodeChunker(max_tokens=budget, count_tokens=minilm_pieces)
    windows = TokenTextChunker(size=budget, overlap=0, length="minilm")

    def fixed(uri: str, source: str) -> list[Piece]:
        return [Piece(uri, a, b, source[a:b]) for a, b, _ in windows.spans(source)]

    return {
        "fixed tokens": fixed,
        "lines packed": chunker_splitter(code, crumb=False, as_text=True),
        "chunklab code": chunker_splitter(code),
    }


def minilm_from_store(stem: Path, strict: bool = True) -> DenseRetriever:
    """MiniLM behind the vectors stored at `stem` (`scripts/code_embeddings.py` makes them): the
    model's own vectors, each used only for the text and weights it was made from; `strict`: a
    text not stored is an error, not a silent minute of live embedding."""
    return DenseRetriever(StoredEmbedder(MiniLMEmbedder(), VectorStore.load(stem), strict=strict))


def indented_cut(
    files: dict[str, str], pieces: Sequence[Piece], budget: int
) -> list[tuple[str, int]]:
    """The definitions that fit `budget` cl100k tokens alone and that no single piece holds whole,
    each with its indentation in spaces: a splitter that finds definitions by separators (such as
    "\\n\\tdef ") misses those indented otherwise."""
    found = []
    for uri, source in files.items():
        spans = [(p.start, p.end) for p in pieces if p.uri == uri]
        fitting = [(n, s) for n, s in definitions(source) if cl100k(source[s[0] : s[1]]) <= budget]
        for name, span in fitting:
            if cut_definitions([span], spans):
                found.append((name, len(source[: span[0]].rsplit("\n", 1)[-1])))
    return found


def where_cut(
    files: dict[str, str], pieces: Sequence[Piece], budget: int, around: int = 30
) -> list[tuple[str, str]]:
    """Each definition that fits `budget` cl100k tokens alone and that no single piece holds whole,
    with the text either side of the first piece boundary inside it (``|`` marks the boundary).
    Why: a splitter's cut is explained by where it put that boundary, which counts do not show."""
    found = []
    for uri, source in files.items():
        spans = [(p.start, p.end) for p in pieces if p.uri == uri]
        for name, (a, b) in definitions(source):
            if cl100k(source[a:b]) <= budget and cut_definitions([(a, b)], spans):
                at = next((x for s, e in spans for x in (s, e) if a < x < b), a)
                found.append(
                    (name, f"{source[max(a, at - around) : at]}|{source[at : at + around]}")
                )
    return found
