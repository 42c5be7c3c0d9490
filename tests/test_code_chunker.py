"""CodeChunker: source code cut between syntax-tree nodes (chunklab.chunkers.code).

Each guarantee of the module docstring is checked here on the project's own Python files, on a
small file per language, and on the bad inputs a team's source tree holds: a syntax error, one
line of minified JavaScript, a 50,000-line generated file, a string literal larger than the
budget, non-ASCII text, a file in no language chunklab parses.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunklab import Document
from chunklab.chunkers.code import CodeChunker
from chunklab.chunkers.registry import build
from chunklab.parsing.languages import BY_NAME, LANGUAGES, language_for
from chunklab.tokens.counters import cl100k

ROOT = Path(__file__).resolve().parents[1]
OWN_SOURCES = sorted((ROOT / "chunklab").rglob("*.py"))

SAMPLES = {
    "shapes.py": '''"""Shapes and their areas."""

import math
from dataclasses import dataclass


@dataclass
class Circle:
    """A circle."""

    radius: float

    # the area, in square units
    @property
    def area(self) -> float:
        return math.pi * self.radius**2

    def scaled(self, k: float) -> "Circle":
        return Circle(self.radius * k)
''',
    "shapes.js": """import { pi } from "./consts.js";

// A circle.
export class Circle {
  constructor(r) { this.r = r; }
  area() {
    return pi * this.r * this.r;
  }
}
""",
    "shapes.ts": """import { pi } from "./consts";
interface Shape { area(): number; }
export class Circle implements Shape {
  constructor(private r: number) {}
  area(): number { return pi * this.r * this.r; }
}
""",
    "shapes.go": """package shapes

import "math"

// Circle is a circle.
type Circle struct {
	R float64
}

// Area is its area.
func (c Circle) Area() float64 {
	return math.Pi * c.R * c.R
}
""",
    "Circle.java": """package shapes;

import java.lang.Math;

/** A circle. */
public class Circle {
    private final double r;

    public Circle(double r) { this.r = r; }

    @Override
    public String toString() {
        return "Circle(" + r + ")";
    }
}
""",
    "shapes.rs": """use std::f64::consts::PI;

/// A circle.
#[derive(Debug)]
struct Circle { r: f64 }

impl Circle {
    fn area(&self) -> f64 {
        PI * self.r * self.r
    }
}
""",
}


def document(name: str, text: str) -> Document:
    return Document(doc_id=name, uri=name, title="", text=text)


def check_cut(doc: Document, chunks, max_tokens: int) -> None:
    """What every cut must hold: exact spans in order, every non-blank character in exactly one
    chunk, the breadcrumb first, the true token count, the budget (unless a lone atom is over)."""
    text = doc.text
    owner = [0] * len(text)
    previous_end = 0
    for chunk in chunks:
        code = text[chunk.start : chunk.end]
        assert chunk.text.endswith(code)
        crumb = chunk.text[: len(chunk.text) - len(code)]
        assert crumb in ("", " > ".join(chunk.heading_path) + "\n\n") or crumb.startswith("… > ")
        assert chunk.start >= previous_end, "chunks overlap or run backwards"
        previous_end = chunk.end
        assert chunk.token_count == cl100k(chunk.text)
        if not chunk.metadata.get("over_budget"):
            assert chunk.token_count <= max_tokens
        for i in range(chunk.start, chunk.end):
            owner[i] += 1
    lost = [i for i, c in enumerate(text) if not c.isspace() and owner[i] != 1]
    assert not lost, (
        f"{len(lost)} characters in no chunk, first at {lost[0]}: {text[lost[0] :][:40]!r}"
    )


@pytest.mark.parametrize("name", sorted(SAMPLES))
@pytest.mark.parametrize("max_tokens", [24, 40, 400])
def test_every_language_cuts_exactly_and_within_the_budget(name, max_tokens):
    doc = document(name, SAMPLES[name])
    chunks = CodeChunker(max_tokens=max_tokens).split(doc)
    assert chunks and {c.metadata["language"] for c in chunks} == {language_for(name).name}
    check_cut(doc, chunks, max_tokens)
    if max_tokens == 400:
        assert len(chunks) == 1  # a small file fits whole


def test_every_language_in_the_table_has_a_sample_and_a_grammar():
    assert {language_for(name).name for name in SAMPLES} == set(BY_NAME)
    assert len({s for lang in LANGUAGES for s in lang.suffixes}) == sum(
        len(lang.suffixes) for lang in LANGUAGES
    ), "a suffix is claimed by two languages"


@pytest.mark.parametrize("path", OWN_SOURCES[::4], ids=lambda p: p.name)
def test_the_projects_own_modules_cut_exactly(path):
    doc = document(path.name, path.read_text(encoding="utf-8"))
    check_cut(doc, CodeChunker(max_tokens=120).split(doc), 120)


def functions(source: str) -> list[tuple[int, int, str]]:
    """(start, end, name) of every function and class, decorators included, by Python's ast."""
    starts = [0]
    for line in source.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            line = source[starts[first - 1] : starts[first]]
            start = starts[first - 1] + len(line) - len(line.lstrip())
            last = source[starts[node.end_lineno - 1] : starts[node.end_lineno]]
            # ast's columns count UTF-8 bytes
            end = starts[node.end_lineno - 1] + len(last.encode()[: node.end_col_offset].decode())
            out.append((start, end, node.name))
    return out


def test_a_function_that_fits_the_budget_is_never_cut():
    """On every module of chunklab: each function or class whose code (and breadcrumb) fits the
    budget lies whole inside one chunk."""
    cut_whole, checked = [], 0
    chunker = CodeChunker(max_tokens=200)
    for path in OWN_SOURCES:
        source = path.read_text(encoding="utf-8")
        chunks = chunker.split(document(path.name, source))
        for start, end, name in functions(source):
            if cl100k(source[start:end]) > 200 - 40:  # room for any breadcrumb of these files
                continue
            checked += 1
            if not any(c.start <= start and end <= c.end for c in chunks):
                cut_whole.append(f"{path.name}:{name}")
    assert checked > 300
    assert cut_whole == []


def test_the_heading_path_is_the_scope_and_parents_enclose_their_children():
    source = SAMPLES["shapes.py"]
    doc = document("shapes.py", source)
    chunker = CodeChunker(max_tokens=30)
    chunks = chunker.split(doc)
    inside_area = [c for c in chunks if "math.pi" in c.text]
    assert inside_area[0].heading_path == ("shapes.py", "Circle", "area")
    parents = {p.chunk_id: p for p in chunker.parents(doc)}
    for chunk in chunks:
        parent = parents[chunk.parent_id]
        assert parent.start <= chunk.start and chunk.end <= parent.end
        assert parent.heading_path == chunk.heading_path
    area = parents[inside_area[0].parent_id]
    assert area.text.startswith("shapes.py > Circle > area\n\n# the area")


def test_comments_and_decorators_stay_with_what_they_follow():
    source = SAMPLES["shapes.py"]
    for budget in range(20, 120, 7):
        chunks = CodeChunker(max_tokens=budget).split(document("shapes.py", source))
        for marker in ("# the area", "@property", "@dataclass"):
            where = source.index(marker)
            holder = next(c for c in chunks if c.start <= where < c.end)
            follows = source.index("\n", where) + 1
            assert holder.end > follows, f"{marker!r} ends its chunk at budget {budget}"


def test_the_docstring_and_imports_are_one_unit():
    source = SAMPLES["shapes.py"]
    chunks = CodeChunker(max_tokens=30).split(document("shapes.py", source))
    first = source[chunks[0].start : chunks[0].end]
    assert (
        first == '"""Shapes and their areas."""\n\nimport math\nfrom dataclasses import dataclass'
    )


def test_a_header_goes_on_with_its_body():
    """A definition too big for the budget never leaves its header (`def f(...):`) alone."""
    source = SAMPLES["shapes.js"]
    for budget in range(16, 60, 3):
        chunks = CodeChunker(max_tokens=budget).split(document("shapes.js", source))
        for chunk in chunks:
            code = source[chunk.start : chunk.end].rstrip()
            assert not code.endswith("{"), f"budget {budget}: a header alone: {code!r}"


def test_a_string_larger_than_the_budget_is_one_chunk_whole_and_marked():
    big = "x = '''" + " ".join(f"word{i}" for i in range(400)) + "'''\ny = 1\n"
    doc = document("big.py", big)
    chunks = CodeChunker(max_tokens=50).split(doc)
    over = [c for c in chunks if c.metadata.get("over_budget")]
    assert len(over) == 1 and "word0" in over[0].text and "word399" in over[0].text
    check_cut(doc, chunks, 50)


def test_a_syntax_error_still_chunks_and_says_where():
    source = "def good():\n    return 1\n\ndef bad(:\n    return (\n\nclass After:\n    pass\n"
    doc = document("broken.py", source)
    chunks = CodeChunker(max_tokens=12).split(doc)
    check_cut(doc, chunks, 12)
    flagged = [c for c in chunks if c.metadata.get("syntax_errors")]
    assert flagged and all(line >= 4 for c in flagged for line in c.metadata["syntax_errors"])
    assert not any(c.metadata.get("syntax_errors") for c in chunks if "good" in c.text)


def test_minified_javascript_on_one_line_is_cut_between_statements():
    body = ";".join(f"var v{i}=f({i},'s{i}')" for i in range(300)) + ";"
    source = f"(function(){{{body}}})();"
    doc = document("app.min.js", source)
    chunks = CodeChunker(max_tokens=100).split(doc)
    assert len(chunks) > 10
    check_cut(doc, chunks, 100)
    for chunk in chunks[1:]:
        assert source[chunk.start : chunk.start + 4] == "var ", "cut inside a statement"


def test_a_50000_line_generated_file():
    lines = [f"CONSTANT_{i} = {i} * 2  # generated" for i in range(50_000)]
    source = "\n".join(lines) + "\n"
    doc = document("generated.py", source)
    chunks = CodeChunker(max_tokens=200).split(doc)
    assert all(c.token_count <= 200 for c in chunks)
    assert sum(c.text.count("# generated") for c in chunks) == 50_000
    assert chunks[-1].end == len(source) - 1


def test_non_ascii_source_keeps_character_spans():
    source = 'def olá():\n    """Diz olá 👋."""\n    return "ação"\n\n\ndef b():\n    return 2\n'
    doc = document("pt.py", source)
    chunks = CodeChunker(max_tokens=16).split(doc)
    check_cut(doc, chunks, 16)
    assert any(source[c.start : c.end].startswith("def olá") for c in chunks)


def test_a_file_in_no_known_language_is_cut_between_lines():
    source = "\n".join(f"line {i}: some text here" for i in range(200)) + "\n"
    doc = document("notes.cfg", source)
    chunks = CodeChunker(max_tokens=50).split(doc)
    assert {c.metadata["language"] for c in chunks} == {"text"}
    check_cut(doc, chunks, 50)
    assert all(source[c.start - 1] == "\n" for c in chunks[1:])


def test_language_given_overrides_the_suffix_and_an_unknown_one_is_refused():
    doc = document("script", "def f():\n    return 1\n")
    assert CodeChunker(language="python").split(doc)[0].metadata["language"] == "python"
    with pytest.raises(ValueError, match="unknown language 'cobol'"):
        CodeChunker(language="cobol").split(doc)


def test_the_registry_builds_it():
    chunker = build("code", max_tokens=64, language="go")
    assert isinstance(chunker, CodeChunker) and chunker.language == "go"


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(OWN_SOURCES[:40]), st.floats(0.05, 1.0), st.integers(12, 150))
def test_any_prefix_of_a_real_file_cuts_exactly(path, fraction, max_tokens):
    """A file cut anywhere (a syntax error most of the time) still loses nothing."""
    source = path.read_text(encoding="utf-8")
    source = source[: int(len(source) * fraction)]
    doc = document(path.name, source)
    check_cut(doc, CodeChunker(max_tokens=max_tokens).split(doc), max_tokens)


def test_the_head_of_a_statement_stays_with_its_string_too_big_for_the_budget():
    # toolz's functoolz.py assigns a long docstring in code: `is_partial_args.__doc__ = """...`.
    # Opening that statement parted `is_partial_args.__doc__ =` from its string, a chunk of 13
    # tokens that says nothing; no cut inside the statement brings the string within the budget.
    words = " ".join(f"word{i}" for i in range(300))
    for big in (f'f.__doc__ = """{words}"""\n', f"register(name, '''{words}''')\n"):
        source = "def f():\n    return 1\n\n\n" + big + "y = 2\n"
        doc = document("assigned.py", source)
        chunks = CodeChunker(max_tokens=60).split(doc)
        over = [c for c in chunks if c.metadata.get("over_budget")]
        head = big.split("'''")[0].split('"""')[0]
        assert len(over) == 1 and over[0].text.endswith(big.rstrip("\n")), over[0].text[:60]
        assert not any(c.text.rstrip().endswith(head.rstrip()) for c in chunks if c is not over[0])
        check_cut(doc, chunks, 60)


def test_a_string_inside_a_body_still_lets_the_definition_open():
    # the rule keeps simple statements whole, never a definition: a long function with a long
    # docstring is still cut between its statements
    words = " ".join(f"word{i}" for i in range(300))
    body = "".join(f"    v{i} = compute({i})\n" for i in range(40))
    source = f'def f():\n    """{words}"""\n{body}    return v0\n'
    doc = document("body.py", source)
    chunks = CodeChunker(max_tokens=60).split(doc)
    assert len(chunks) > 3 and sum(bool(c.metadata.get("over_budget")) for c in chunks) == 1
    check_cut(doc, chunks, 60)
